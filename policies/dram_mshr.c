/* Inter-core-locality-aware DRAM scheduling (Y. Li, MSc thesis, UBC 2015; spec/001_li.md §1): MSHR-M, MSHR-S and
 * MSHR-S+A. Rule 1 (§4.1): the open row's request of the largest request score; with no row hit, the row of the
 * largest row score, then its request of the largest score. Request score = L2 MSHR merge length (M, S) or Age_MSHR
 * (S+A); row score = max (M) or sum (S, S+A) of the row's request scores. The merge lengths and ages are
 * cand.merge / cand.age: the L2's current values (l2.merge_info = instant) or the controller's DMIB entry fed by
 * dummy requests (l2.merge_info = mib, engine/dram.h). A list of writes only (the split write queue) is served
 * FR-FCFS; in a unified queue a write scores as a read of merge length 1 and its own age. */
#include "policy.h"

struct params {
    int64_t age_bits; /* S+A: request score saturates at 2^age_bits - 1 (Li §4.5: 15-bit age counters) */
    int64_t row_bits; /* S+A: row score saturates at 2^row_bits - 1 (Li §4.5: 19-bit row-score field) */
};
static const struct mw_param_desc params[] = {
    MW_PARAM(struct params, age_bits, MW_PP_INT, "15", 1, 62, NULL,
             "width of the saturating Age_MSHR counter (Li §4.5: 15 bits)"),
    MW_PARAM(struct params, row_bits, MW_PP_INT, "19", 1, 62, NULL,
             "width of the saturating row-score field of MSHR-S+A (Li §4.5: 19 bits for age and merge)"),
};

enum { V_M, V_S, V_SA };

static bool older(const struct mw_dram_cand *a, const struct mw_dram_cand *b)
{
    return a->arrival < b->arrival || (a->arrival == b->arrival && a->id < b->id);
}

static uint64_t req_score(int v, const struct params *p, const struct mw_dram_cand *c)
{
    if (v != V_SA) return c->merge;
    uint64_t cap = (1ull << p->age_bits) - 1;
    return c->age < cap ? c->age : cap;
}

/* The best request of row `row` (of all rows if any_row): largest score, ties to the oldest ([INF]). */
static int best_req(int v, const struct params *p, const struct mw_dram_cand *cands, int n, uint32_t row, bool any_row)
{
    int best = -1;
    uint64_t bs = 0;
    for (int i = 0; i < n; i++) {
        if (!any_row && cands[i].row != row) continue;
        uint64_t sc = req_score(v, p, &cands[i]);
        if (best < 0 || sc > bs || (sc == bs && older(&cands[i], &cands[best]))) best = i, bs = sc;
    }
    return best;
}

static int pick_v(int v, struct mw_policy_inst *pi, const struct mw_dram_sched_ctx *c, const struct mw_dram_cand *cands,
                  int n)
{
    (void)c;
    const struct params *p = pi->params;
    /* writes have no MSHR entry: the write queue is served FR-FCFS (Li §4.1) */
    bool all_writes = true;
    for (int i = 0; i < n && all_writes; i++) all_writes = cands[i].is_write;
    if (all_writes) {
        int best = 0;
        for (int i = 1; i < n; i++) {
            bool hi = cands[i].row_hit, hb = cands[best].row_hit;
            if ((hi && !hb) || (hi == hb && older(&cands[i], &cands[best]))) best = i;
        }
        return best;
    }
    /* 1. a row hit: the largest request score among the open row's requests */
    int best = -1;
    uint64_t bs = 0;
    for (int i = 0; i < n; i++) {
        if (!cands[i].row_hit) continue;
        uint64_t sc = req_score(v, p, &cands[i]);
        if (best < 0 || sc > bs || (sc == bs && older(&cands[i], &cands[best]))) best = i, bs = sc;
    }
    if (best >= 0) return best;
    /* 2. the row of the largest row score (ties: the row holding the oldest request, [INF]); candidates are
     * listed oldest first, so the first candidate of each row is that row's oldest */
    uint64_t row_cap = (1ull << p->row_bits) - 1;
    int best_first = -1;
    uint64_t best_rs = 0;
    for (int i = 0; i < n; i++) {
        bool first = true;
        for (int j = 0; j < i && first; j++)
            if (cands[j].row == cands[i].row) first = false;
        if (!first) continue;
        uint64_t rs = 0;
        for (int j = i; j < n; j++) {
            if (cands[j].row != cands[i].row) continue;
            uint64_t sc = req_score(v, p, &cands[j]);
            if (v == V_M) rs = sc > rs ? sc : rs;
            else rs += sc;
        }
        if (v == V_SA && rs > row_cap) rs = row_cap;
        if (best_first < 0 || rs > best_rs || (rs == best_rs && older(&cands[i], &cands[best_first])))
            best_first = i, best_rs = rs;
    }
    return best_req(v, p, cands, n, cands[best_first].row, false);
}

static int pick_m(struct mw_policy_inst *pi, const struct mw_dram_sched_ctx *c, const struct mw_dram_cand *k, int n)
{
    return pick_v(V_M, pi, c, k, n);
}
static int pick_s(struct mw_policy_inst *pi, const struct mw_dram_sched_ctx *c, const struct mw_dram_cand *k, int n)
{
    return pick_v(V_S, pi, c, k, n);
}
static int pick_sa(struct mw_policy_inst *pi, const struct mw_dram_sched_ctx *c, const struct mw_dram_cand *k, int n)
{
    return pick_v(V_SA, pi, c, k, n);
}

static const struct mw_dram_sched_ops mw_pol_dram_mshr_m = {
    .base = {.point = MW_PT_DRAM_SCHED, .name = "mshr_m",
             .desc = "Li 2015 MSHR-M: open-row request of the largest L2 merge length, else the row whose largest "
                     "merge length is largest",
             .params = params, .nparams = 2, .params_size = sizeof(struct params)},
    .pick = pick_m,
};
static const struct mw_dram_sched_ops mw_pol_dram_mshr_s = {
    .base = {.point = MW_PT_DRAM_SCHED, .name = "mshr_s",
             .desc = "Li 2015 MSHR-S: open-row request of the largest L2 merge length, else the row whose merge "
                     "lengths sum highest (most pending when nothing merges)",
             .params = params, .nparams = 2, .params_size = sizeof(struct params)},
    .pick = pick_s,
};
static const struct mw_dram_sched_ops mw_pol_dram_mshr_sa = {
    .base = {.point = MW_PT_DRAM_SCHED, .name = "mshr_sa",
             .desc = "Li 2015 MSHR-S+A: as MSHR-S with Age_MSHR (sum of the merged requests' ages, saturating) as "
                     "the request score",
             .params = params, .nparams = 2, .params_size = sizeof(struct params)},
    .pick = pick_sa,
};

MW_REGISTER_POLICIES(&mw_pol_dram_mshr_m.base, &mw_pol_dram_mshr_s.base, &mw_pol_dram_mshr_sa.base);
