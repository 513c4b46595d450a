/* Choo 2016, Ch.5: locality-aware selective caching (LASC), l1d_bypass `lasc`.
 *
 * One Reuse Frequency Table (RFT) shared by every SM (one policy instance per simulation), 64 entries indexed
 * by a 6-bit hash of the load PC, updated only when an L1D line leaves: the line's reuse goes into the entry of
 * the PC that allocated it. A load whose PC's entry is valid and predicts no reuse bypasses L1D; it still probes
 * L1D, and a probe hit counts as reuse of that line (anti-staleness, step (3) of Fig.5.4).
 *
 * `bits = 1` (the final design, §5.3.2): a line's reuse bit is set by any hit; on eviction RFT.reuse |= it
 * (sticky OR); a PC bypasses when its entry is valid with reuse 0.
 * `bits = multi` (the general algorithm, Fig.5.4): a line's ReuseFreqValue is 1 on allocation plus 1 per hit; on
 * eviction the entry's average (sum / count, or a moving average with forgetting factor alpha) takes it in; a
 * PC bypasses when its entry is valid with average <= th (1.0 or 1.5 in the thesis).
 *
 * [X] parameters with the extraction's defaults: `serve_hit_on_bypass` (N3: true serves a probe hit from L1D,
 * MW_BYPASS_PROBE; false is the literal reading, the request goes to L2 anyway and only the line's reuse is
 * updated), `reset_at_kernel` (N4: nothing resets the RFT in the thesis; off), `alpha` (0 = true average),
 * `sel` (LASC+SelCaching: requests LASC caches then go through IndSelCaching's per-set rule, §2.4's order). */
#include "choo_sel.h"
#include "sim.h"

#include <stdlib.h>
#include <string.h>

#define RFT_BITS 6
#define RFT_SIZE (1 << RFT_BITS)
enum { BITS_ONE = 0, BITS_MULTI };

struct lasc_params {
    int bits;
    double th;
    bool serve_hit_on_bypass;
    bool reset_at_kernel;
    double alpha;
    bool sel;
};
static const struct mw_param_desc lasc_params[] = {
    MW_PARAM(struct lasc_params, bits, MW_PP_ENUM, "1", 0, 0, "1|multi",
             "1: the final 1-bit design (sticky OR); multi: the general algorithm with threshold th"),
    MW_PARAM(struct lasc_params, th, MW_PP_DOUBLE, "1.0", 0, 64, NULL,
             "multi: bypass a PC whose average reuse frequency (1 + hits per line) is <= th"),
    MW_PARAM(struct lasc_params, serve_hit_on_bypass, MW_PP_BOOL, "true", 0, 0, NULL,
             "a bypassed request that hits in L1D is served from L1D (false: it goes to L2 anyway)"),
    MW_PARAM(struct lasc_params, reset_at_kernel, MW_PP_BOOL, "false", 0, 0, NULL,
             "clear the RFT at each kernel start"),
    MW_PARAM(struct lasc_params, alpha, MW_PP_DOUBLE, "0", 0, 0.999, NULL,
             "multi: forgetting factor of a moving average (0 = the true average sum / count)"),
    MW_PARAM(struct lasc_params, sel, MW_PP_BOOL, "false", 0, 0, NULL,
             "LASC+SelCaching: requests LASC caches then follow IndSelCaching's per-set rule"),
};

struct rft_entry {
    bool valid, reuse;  /* 1-bit design */
    double sum, cnt, avg; /* multi-bit design */
};
struct lasc_state {
    struct rft_entry rft[RFT_SIZE];
    int c_bypass, c_probe_hit, c_sel_bypass, c_updates;
};

static int lasc_create(struct mw_policy_inst *pi, struct mw_err *e)
{
    struct lasc_state *st = calloc(1, sizeof *st);
    if (!st) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    pi->state = st;
    return 0;
}

static void lasc_destroy(struct mw_policy_inst *pi)
{
    free(pi->state);
    pi->state = NULL;
}

static void lasc_start(struct mw_policy_inst *pi)
{
    struct lasc_state *st = pi->state;
    st->c_bypass = mw_policy_counter(pi, "bypass", "requests of a PC predicted no-reuse (bypassed, L1D probed)");
    st->c_probe_hit = mw_policy_counter(pi, "probe_hit", "bypassed requests whose L1D probe hit (reuse recorded)");
    st->c_sel_bypass = mw_policy_counter(pi, "sel_bypass", "cacheable requests bypassed by the per-set rule");
    st->c_updates = mw_policy_counter(pi, "rft_updates", "RFT updates (L1D lines that left)");
}

/* Does the RFT predict no reuse for this PC? */
static bool predict_no_reuse(const struct lasc_state *st, const struct lasc_params *p, uint64_t pc)
{
    const struct rft_entry *r = &st->rft[choo_hash_pc(pc, RFT_BITS)];
    if (!r->valid) return false; /* a table miss: normal caching */
    return p->bits == BITS_ONE ? !r->reuse : r->avg <= p->th;
}

static int lasc_decide(struct mw_policy_inst *pi, const struct mw_bypass_ctx *c)
{
    struct lasc_state *st = pi->state;
    const struct lasc_params *p = pi->params;
    if (predict_no_reuse(st, p, c->pc)) {
        mw_policy_count(pi, st->c_bypass, 1);
        if (p->serve_hit_on_bypass) return MW_BYPASS_PROBE; /* a hit is an L1D hit: the engine counts it */
        /* the literal reading: probe, record the reuse on a hit, send the request to L2 all the same */
        const struct mw_coal_req *q = &c->reqs[c->index];
        if (mw_l1d_probe(pi->sim, c->sm, q->line, q->sectors)) {
            uint8_t *m = mw_l1d_meta(pi->sim, pi, c->sm, q->set, mw_l1d_find(pi->sim, c->sm, q->line));
            if (m && m[0] < 255) m[0]++;
            mw_policy_count(pi, st->c_probe_hit, 1);
        }
        return MW_BYPASS;
    }
    if (p->sel && choo_sel_bypass(CHOO_SET, c->reqs, c->n, c->index, mw_sim_l1d_assoc(pi->sim))) {
        mw_policy_count(pi, st->c_sel_bypass, 1);
        return MW_BYPASS;
    }
    return MW_CACHE;
}

static void lasc_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    struct lasc_state *st = pi->state;
    const struct lasc_params *p = pi->params;
    if (ev->kind == MW_EV_KERNEL_START) {
        if (p->reset_at_kernel) memset(st->rft, 0, sizeof st->rft);
        return;
    }
    if (ev->kind != MW_EV_L1D_EVICT) return;
    const uint8_t *m = mw_l1d_meta(pi->sim, pi, ev->sm, ev->set, ev->way);
    uint32_t hits = ev->value + (m ? m[0] : 0); /* hits, and probe hits of bypassed requests (literal reading) */
    struct rft_entry *r = &st->rft[choo_hash_pc(ev->alloc_pc, RFT_BITS)];
    mw_policy_count(pi, st->c_updates, 1);
    if (p->bits == BITS_ONE) {
        r->valid = true;
        r->reuse |= hits > 0;
        return;
    }
    double rfv = 1.0 + hits;
    if (!r->valid || p->alpha <= 0) {
        r->sum += rfv;
        r->cnt += 1;
        r->avg = r->sum / r->cnt;
    } else {
        r->avg = p->alpha * r->avg + (1 - p->alpha) * rfv;
    }
    r->valid = true;
}

static const struct mw_l1d_bypass_ops mw_pol_lasc = {
    .base = {.point = MW_PT_L1D_BYPASS, .name = "lasc",
             .desc = "Choo 2016 LASC: bypass loads whose PC's lines show no reuse (global 64-entry RFT)",
             .params = lasc_params, .nparams = 6, .params_size = sizeof(struct lasc_params),
             .events = MW_EVB(MW_EV_L1D_EVICT) | MW_EVB(MW_EV_KERNEL_START), .line_meta_bytes = 1,
             .create = lasc_create, .destroy = lasc_destroy, .start = lasc_start, .on_event = lasc_event},
    .decide = lasc_decide,
};

MW_REGISTER_POLICIES(&mw_pol_lasc.base);
