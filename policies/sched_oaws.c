/* Occlusion-aware warp scheduling (B. Wang, Y. Zhu, W. Yu, "OAWS", PACT'16; spec/004_oaws.md §1): a qualification
 * stage in front of GTO that holds back a divergent load whose predicted L1D misses would not fit in the free
 * MSHRs (Eq. 1: Miss_pred <= Avail_mshr - Miss_inflight), so that it cannot occlude the LD/ST unit. Static OAWS
 * predicts popcount(active mask) x SMR misses; dynamic OAWS learns the optimal cached warps (OCW) from the fully /
 * partially cached outcome of divergent loads and predicts 0 for the OCW highest-priority warps, Div x 50 % +
 * GTO rank for the others. Both keep the divergent load classifier (DLC, 32 PCs per SM) and GTO's pick. */
#include "policy.h"
#include "sched_state.h"
#include "sim.h"
#include "config.h"

#include <math.h>
#include <string.h>

struct params {
    double smr;              /* static: predicted miss rate of a divergent load */
    int64_t div_lines;       /* a load with more accesses than this is divergent */
    int64_t dlc_entries;
    int round;               /* 0 floor, 1 ceil (odd thread counts) */
    bool gate_coherent;      /* hold coherent loads (prediction 1) too */
    bool cap_mshrs;          /* a prediction never exceeds the L1D's MSHRs (else it could never pass) */
    /* dynamic */
    int64_t ocw_min, ocw_max, cnt_max, cnt_init, cnt_reset_mid;
    double assoc_ratio, dyn_smr;
    int reset;               /* 0 literal (0 after a rise, Cmax after a fall), 1 the middle (cnt_reset_mid) */
    bool locality_coherent_zero;
    int64_t sm_rank;         /* 1: rank over the SM's warps (spec [I]); 0: over the warp's scheduler */
    bool greedy_first;       /* the schedulers' greedy warps rank before all others (spec [I]); false: age only */
};
#define COMMON_PARAMS                                                                                              \
    MW_PARAM(struct params, div_lines, MW_PP_INT, "2", 1, 32, NULL,                                                \
             "a load with more coalesced accesses than this is divergent (paper: more than 2 lines)"),             \
    MW_PARAM(struct params, dlc_entries, MW_PP_INT, "32", 1, 1024, NULL,                                           \
             "divergent load classifier entries per SM (cleared at each kernel launch, LRU)"),                     \
    MW_PARAM(struct params, round, MW_PP_ENUM, "floor", 0, 0, "floor|ceil",                                        \
             "rounding of active threads x rate for odd thread counts [I]"),                                       \
    MW_PARAM(struct params, gate_coherent, MW_PP_BOOL, "false", 0, 0, NULL,                                        \
             "hold coherent loads (prediction 1) too [I: no, SMR = 0 is then GTO]"),                               \
    MW_PARAM(struct params, cap_mshrs, MW_PP_BOOL, "true", 0, 0, NULL,                                             \
             "cap a prediction at the L1D's MSHR count, so that it can pass once the MSHRs drain [I]")
static const struct mw_param_desc params_static[] = {
    MW_PARAM(struct params, smr, MW_PP_DOUBLE, "0.5", 0, 1, NULL, "static miss rate SMR (Miss_pred = active x SMR)"),
    COMMON_PARAMS,
};
static const struct mw_param_desc params_dyn[] = {
    COMMON_PARAMS,
    MW_PARAM(struct params, dyn_smr, MW_PP_DOUBLE, "0.5", 0, 1, NULL, "thrashing warps: Miss_pred = active x this + rank"),
    MW_PARAM(struct params, ocw_min, MW_PP_INT, "2", 1, 1024, NULL, "OCW lower bound (one warp per scheduler)"),
    MW_PARAM(struct params, ocw_max, MW_PP_INT, "0", 0, 1024, NULL, "OCW upper bound Wmax (0 = warp slots per SM)"),
    MW_PARAM(struct params, cnt_max, MW_PP_INT, "255", 1, 65535, NULL, "CNT saturation Cmax (8-bit counter)"),
    MW_PARAM(struct params, cnt_init, MW_PP_INT, "128", 0, 65535, NULL, "CNT at start"),
    MW_PARAM(struct params, reset, MW_PP_ENUM, "literal", 0, 0, "literal|mid",
             "CNT after an OCW change: literal = 0 after a rise, Cmax after a fall; mid = cnt_reset_mid [I]"),
    MW_PARAM(struct params, cnt_reset_mid, MW_PP_INT, "128", 0, 65535, NULL, "CNT after an OCW change when reset=mid"),
    MW_PARAM(struct params, assoc_ratio, MW_PP_DOUBLE, "1.5", 0, 64, NULL,
             "associativity-sensitive load: #acc > this x #sets (delta = ceil(CNT/2), else 1)"),
    MW_PARAM(struct params, locality_coherent_zero, MW_PP_BOOL, "false", 0, 0, NULL,
             "locality warps' coherent loads predict 0 instead of 1 [I]"),
    MW_PARAM(struct params, sm_rank, MW_PP_INT, "1", 0, 1, NULL,
             "GTO rank over the SM's warps (1, spec [I]) or the warp's scheduler (0)"),
    MW_PARAM(struct params, greedy_first, MW_PP_BOOL, "true", 0, 0, NULL,
             "each scheduler's greedy warp ranks first, then age (spec [I]); false: rank by age alone (Fig. 4's age)"),
};

struct dlc_entry {
    uint64_t pc, lru;
    uint32_t ninst, acc, sets;
    bool valid;
};
struct inflight {
    uint64_t id;
    int m;
};
struct smst {
    int miss_inflight;
    int nfl, capfl;
    struct inflight *fl;
    struct dlc_entry *dlc;
    uint64_t dlc_clock;
    int ocw, cnt;
    int *greedy; /* per scheduler: the warp that issued last */
};
struct state {
    bool dyn;
    int nsm, nsched, nwarps, mshrs;
    struct smst *sm;
    int c_held, c_ocw_up, c_ocw_down, c_fcl, c_pcl, c_assoc, c_ocw_sum, c_div_loc, c_div_thr;
};

static int create_common(struct mw_policy_inst *pi, struct mw_err *e, bool dyn)
{
    const struct params *p = pi->params;
    struct state *st = calloc(1, sizeof *st);
    if (!st) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    pi->state = st;
    st->dyn = dyn;
    st->nsm = pi->sim ? mw_n_sms(pi->sim) : 1;
    st->nsched = pi->sim ? mw_n_schedulers(pi->sim) : 2;
    st->nwarps = pi->sim ? mw_max_warps(pi->sim) : 48;
    st->mshrs = pi->sim ? (int)mw_sim_config(pi->sim)->l1d.mshr_entries : 32;
    st->sm = calloc((size_t)st->nsm, sizeof *st->sm);
    if (!st->sm) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < st->nsm; i++) {
        struct smst *s = &st->sm[i];
        s->capfl = 16;
        s->fl = malloc((size_t)s->capfl * sizeof *s->fl);
        s->dlc = calloc((size_t)p->dlc_entries, sizeof *s->dlc);
        s->greedy = malloc((size_t)st->nsched * sizeof *s->greedy);
        if (!s->fl || !s->dlc || !s->greedy) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
        for (int k = 0; k < st->nsched; k++) s->greedy[k] = -1;
        s->ocw = (int)p->ocw_min;
        s->cnt = (int)p->cnt_init;
    }
    if (dyn) {
        int wmax = p->ocw_max ? (int)p->ocw_max : st->nwarps;
        if (p->ocw_min > wmax)
            return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "oaws_dyn: ocw_min %lld exceeds ocw_max %d",
                              (long long)p->ocw_min, wmax);
        if (p->cnt_init > p->cnt_max)
            return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "oaws_dyn: cnt_init %lld exceeds cnt_max %lld",
                              (long long)p->cnt_init, (long long)p->cnt_max);
    }
    st->c_held = mw_policy_counter(pi, "held", "qualification verdicts that held a load back (Eq. 1)");
    st->c_fcl = mw_policy_counter(pi, "fully_cached", "divergent loads with no L1D miss (OCW events)");
    st->c_pcl = mw_policy_counter(pi, "partially_cached", "divergent loads with an L1D miss (OCW events)");
    st->c_assoc = mw_policy_counter(pi, "assoc_sensitive", "partially cached loads with #acc > ratio x #sets");
    st->c_ocw_up = mw_policy_counter(pi, "ocw_up", "OCW increments");
    st->c_ocw_down = mw_policy_counter(pi, "ocw_down", "OCW decrements");
    st->c_ocw_sum = mw_policy_counter(pi, "ocw_sum", "sum of the SM's OCW after each OCW event (mean OCW = this / "
                                                     "(fully_cached + partially_cached))");
    st->c_div_loc = mw_policy_counter(pi, "div_locality", "classified divergent loads issued with prediction 0 "
                                                          "(dynamic: locality warps)");
    st->c_div_thr = mw_policy_counter(pi, "div_gated", "classified divergent loads issued through Eq. 1 "
                                                       "(dynamic: thrashing warps)");
    return 0;
}
static int create_static(struct mw_policy_inst *pi, struct mw_err *e) { return create_common(pi, e, false); }
static int create_dyn(struct mw_policy_inst *pi, struct mw_err *e) { return create_common(pi, e, true); }

static void destroy(struct mw_policy_inst *pi)
{
    struct state *st = pi->state;
    if (!st) return;
    for (int i = 0; st->sm && i < st->nsm; i++) free(st->sm[i].fl), free(st->sm[i].dlc), free(st->sm[i].greedy);
    free(st->sm);
    free(st);
}

static bool is_load(int op) { return op == MW_OP_LD_GLOBAL || op == MW_OP_LD_LOCAL; }

static struct dlc_entry *dlc_find(const struct params *p, struct smst *s, uint64_t pc)
{
    for (int i = 0; i < p->dlc_entries; i++)
        if (s->dlc[i].valid && s->dlc[i].pc == pc) return &s->dlc[i];
    return NULL;
}

/* A divergent load's DLC update after L1D processed it [I]: #inst++, #acc and #sets accumulate; when #inst
 * saturates (7 bits) all three halve, which keeps the #acc / #sets ratio the associativity test reads. */
static struct dlc_entry *dlc_update(const struct params *p, struct smst *s, uint64_t pc, uint32_t acc, uint32_t sets)
{
    struct dlc_entry *x = dlc_find(p, s, pc);
    if (!x) {
        x = &s->dlc[0];
        for (int i = 0; i < p->dlc_entries; i++) {
            if (!s->dlc[i].valid) { x = &s->dlc[i]; break; }
            if (s->dlc[i].lru < x->lru) x = &s->dlc[i];
        }
        memset(x, 0, sizeof *x);
        x->valid = true;
        x->pc = pc;
    }
    x->lru = ++s->dlc_clock;
    x->ninst++, x->acc += acc, x->sets += sets;
    if (x->ninst >= 127) x->ninst /= 2, x->acc /= 2, x->sets /= 2;
    return x;
}

/* GTO rank of warp w: 0 = highest. Each scheduler's greedy warp comes first, then the rest by age (launch
 * order); over the SM's warps or only the warp's scheduler (sm_rank). */
static int gto_rank(struct mw_policy_inst *pi, const struct smst *s, int sm, int sched, int w)
{
    const struct params *p = pi->params;
    struct state *st = pi->state;
    uint16_t ws[1024];
    uint64_t age = mw_warp_age(pi->sim, sm, w);
    bool g = false;
    for (int k = 0; k < st->nsched && p->greedy_first; k++) g |= s->greedy[k] == w;
    int rank = 0;
    for (int k = 0; k < st->nsched; k++) {
        if (!p->sm_rank && k != sched) continue;
        int n = mw_sched_warps(pi->sim, sm, k, ws, 1024);
        for (int i = 0; i < n; i++) {
            int x = ws[i];
            if (x == w) continue;
            bool gx = false;
            for (int j = 0; j < st->nsched && p->greedy_first; j++) gx |= s->greedy[j] == x;
            if (gx != g ? gx : mw_warp_age(pi->sim, sm, x) < age) rank++;
        }
    }
    return rank;
}

/* Miss_pred of warp w's instruction `in`; *gated: Eq. 1 applies to it. */
static int miss_pred(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in, bool *gated)
{
    const struct params *p = pi->params;
    struct state *st = pi->state;
    struct smst *s = &st->sm[sm];
    *gated = false;
    if (!is_load(in->op) || !in->mask) return 0;
    int active = __builtin_popcount(in->mask);
    bool div = dlc_find(p, s, in->pc) != NULL;
    int m;
    if (!st->dyn) {
        if (!div) { *gated = p->gate_coherent; return 1; }
        double x = active * p->smr;
        m = (int)(p->round ? ceil(x - 1e-9) : floor(x + 1e-9));
    } else {
        int rank = gto_rank(pi, s, sm, sched, w);
        bool locality = rank < s->ocw;
        if (!div) { *gated = p->gate_coherent; return locality && p->locality_coherent_zero ? 0 : 1; }
        if (locality) return 0;
        double x = active * p->dyn_smr;
        m = (int)(p->round ? ceil(x - 1e-9) : floor(x + 1e-9)) + rank;
    }
    if (p->cap_mshrs && m > st->mshrs) m = st->mshrs;
    *gated = true;
    return m;
}

static bool qualify(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    struct state *st = pi->state;
    bool gated;
    int m = miss_pred(pi, sm, sched, w, in, &gated);
    if (!gated || m == 0) return true; /* locality warps (prediction 0) always pass */
    if (m <= mw_l1d_mshr_free(pi->sim, sm) - st->sm[sm].miss_inflight) return true;
    mw_policy_count(pi, st->c_held, 1);
    return false;
}

static int pick(struct mw_policy_inst *pi, int sm, int sched, const uint16_t *ready, int n)
{
    struct state *st = pi->state;
    int greedy = st->sm[sm].greedy[sched];
    return mw_sched_gto_pick(pi, sm, greedy, ready, n);
}

static void issued(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    struct state *st = pi->state;
    struct smst *s = &st->sm[sm];
    bool gated;
    int m = miss_pred(pi, sm, sched, w, in, &gated);
    s->greedy[sched] = w;
    if (is_load(in->op) && in->mask && dlc_find(pi->params, s, in->pc))
        mw_policy_count(pi, gated && m > 0 ? st->c_div_thr : st->c_div_loc, 1);
    if (m == 0) return;
    if (s->nfl == s->capfl) {
        int nc = s->capfl * 2;
        struct inflight *f = realloc(s->fl, (size_t)nc * sizeof *f);
        if (!f) abort(); /* grows to the loads in flight on one SM */
        s->fl = f, s->capfl = nc;
    }
    s->fl[s->nfl++] = (struct inflight){in->id, m};
    s->miss_inflight += m;
}

/* The OCW estimation of Fig. 7 (A..E) on one divergent load's outcome. */
static void ocw_update(struct mw_policy_inst *pi, struct smst *s, const struct dlc_entry *x, bool fully_cached)
{
    const struct params *p = pi->params;
    struct state *st = pi->state;
    int wmax = p->ocw_max ? (int)p->ocw_max : st->nwarps, cmax = (int)p->cnt_max, omin = (int)p->ocw_min;
    if (fully_cached) {
        mw_policy_count(pi, st->c_fcl, 1);
        if (s->ocw >= wmax && s->cnt >= cmax) return;
        if (s->cnt < cmax) s->cnt++;
        if (s->cnt >= cmax && s->ocw < wmax) {
            s->ocw++;
            s->cnt = p->reset ? (int)p->cnt_reset_mid : 0;
            mw_policy_count(pi, st->c_ocw_up, 1);
        }
    } else {
        mw_policy_count(pi, st->c_pcl, 1);
        if (s->ocw <= omin && s->cnt == 0) return;
        bool assoc = x && (double)x->acc > p->assoc_ratio * (double)x->sets;
        if (assoc) mw_policy_count(pi, st->c_assoc, 1);
        int d = assoc ? (s->cnt + 1) / 2 : 1;
        s->cnt = s->cnt > d ? s->cnt - d : 0;
        if (s->cnt == 0 && s->ocw > omin) {
            s->ocw--;
            s->cnt = p->reset ? (int)p->cnt_reset_mid : cmax;
            mw_policy_count(pi, st->c_ocw_down, 1);
        }
    }
}

static void on_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    const struct params *p = pi->params;
    struct state *st = pi->state;
    if (ev->kind == MW_EV_KERNEL_START) {
        for (int i = 0; i < st->nsm; i++) memset(st->sm[i].dlc, 0, (size_t)p->dlc_entries * sizeof *st->sm[i].dlc);
        return;
    }
    if (ev->kind != MW_EV_LOAD_DONE || ev->sm < 0 || ev->sm >= st->nsm) return;
    struct smst *s = &st->sm[ev->sm];
    for (int i = 0; i < s->nfl; i++)
        if (s->fl[i].id == ev->inst) {
            s->miss_inflight -= s->fl[i].m;
            s->fl[i] = s->fl[--s->nfl];
            break;
        }
    if (ev->value > (uint32_t)p->div_lines) {
        const struct dlc_entry *x = dlc_update(p, s, ev->pc, ev->value, (uint32_t)ev->set);
        if (st->dyn) ocw_update(pi, s, x, ev->aux == 0), mw_policy_count(pi, st->c_ocw_sum, (uint64_t)s->ocw);
    }
    if (pi->sim) mw_sched_recheck(pi->sim, ev->sm, mw_now(pi->sim));
}

#define EVENTS (MW_EVB(MW_EV_KERNEL_START) | MW_EVB(MW_EV_LOAD_DONE))
static const struct mw_warp_sched_ops mw_pol_oaws = {
    .base = {.point = MW_PT_WARP_SCHED, .name = "oaws",
             .desc = "OAWS static (PACT'16): GTO that holds a divergent load until active x SMR MSHRs are free "
                     "beyond the in-flight predictions",
             .params = params_static, .nparams = (int)(sizeof params_static / sizeof params_static[0]),
             .params_size = sizeof(struct params), .events = EVENTS,
             .create = create_static, .destroy = destroy, .on_event = on_event},
    .pick = pick,
    .qualify = qualify,
    .qualify_deps = MW_QDEP_MSHR | MW_QDEP_ISSUE,
    .issued = issued,
};
static const struct mw_warp_sched_ops mw_pol_oaws_dyn = {
    .base = {.point = MW_PT_WARP_SCHED, .name = "oaws_dyn",
             .desc = "OAWS dynamic (PACT'16): OCW locality warps predict no miss, the others active x 50 % + GTO "
                     "rank; OCW learned from fully / partially cached divergent loads",
             .params = params_dyn, .nparams = (int)(sizeof params_dyn / sizeof params_dyn[0]),
             .params_size = sizeof(struct params), .events = EVENTS,
             .create = create_dyn, .destroy = destroy, .on_event = on_event},
    .pick = pick,
    .qualify = qualify,
    .qualify_deps = MW_QDEP_MSHR | MW_QDEP_ISSUE,
    .issued = issued,
};

/* For tests: an instance's OCW and CNT on SM sm (the state is private to this file). */
void mw_oaws_ocw(const struct mw_policy_inst *pi, int sm, int *ocw, int *cnt, int *miss_inflight);
void mw_oaws_ocw(const struct mw_policy_inst *pi, int sm, int *ocw, int *cnt, int *miss_inflight)
{
    const struct state *st = pi->state;
    *ocw = st->sm[sm].ocw;
    *cnt = st->sm[sm].cnt;
    *miss_inflight = st->sm[sm].miss_inflight;
}

/* For tests: warp w's GTO rank on SM sm as Miss_pred reads it (scheduler sched). */
int mw_oaws_rank(struct mw_policy_inst *pi, int sm, int sched, int w);
int mw_oaws_rank(struct mw_policy_inst *pi, int sm, int sched, int w)
{
    struct state *st = pi->state;
    return gto_rank(pi, &st->sm[sm], sm, sched, w);
}

MW_REGISTER_POLICIES(&mw_pol_oaws.base, &mw_pol_oaws_dyn.base);
