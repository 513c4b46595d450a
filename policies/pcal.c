/* PCAL, priority-based cache allocation (D. Li, M. Rhu, D. R. Johnson, M. O'Connor, M. Erez, D. Burger,
 * D. S. Fussell, S. W. Keckler, HPCA'15), the competitor of Linebacker's Fig. 12: per SM, the `tokens` oldest
 * running warps hold an allocation token and use the L1D normally; the other warps still run (unlike warp
 * throttling) but do not pollute the L1D: their loads hit in it when the line is there and otherwise bypass it
 * without allocating. A token is released when its warp exits and goes to the oldest warp without one. Thread-level
 * parallelism is capped separately (max_ctas). With `dynamic`, the token count is tuned per SM by hill climbing on
 * the IPC of successive windows. A bundle of l1d_bypass (the token check) and cta_throttle (the TLP cap). */
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "sim.h"

struct pcal_params {
    int64_t tokens;   /* initial (or, static, fixed) token count per SM */
    int64_t max_ctas; /* TLP cap: resident CTAs per SM (0 = the hardware limit) */
    bool dynamic;
    int64_t window, step;
};
#define P(f, t, d, lo, hi, h) MW_PARAM(struct pcal_params, f, t, d, lo, hi, NULL, h)
static const struct mw_param_desc pcal_params_desc[] = {
    P(tokens, MW_PP_INT, "16", 0, 1024, "(inferred) warps per SM holding an allocation token (the initial count if dynamic)"),
    P(max_ctas, MW_PP_INT, "0", 0, 64, "resident CTAs per SM (0 = hardware limit): PCAL's TLP knob"),
    P(dynamic, MW_PP_BOOL, "true", 0, 0, "(inferred) tune the token count per SM by hill climbing on window IPC"),
    P(window, MW_PP_INT, "50000", 100, 1e12, "(inferred) core cycles of one sampling window (dynamic)"),
    P(step, MW_PP_INT, "4", 1, 1024, "(inferred) tokens added or removed per window (dynamic)"),
};
#undef P

/* Which of a SM's warps hold tokens: the `tokens` oldest of the running warps (age = launch order), given as
 * (slot, age, running) triples. Writes has[w] for every slot; returns how many hold one. Pure: the tests call it. */
static int pcal_assign(const uint64_t *age, const bool *running, int nwarps, int tokens, uint8_t *has)
{
    memset(has, 0, (size_t)nwarps);
    int given = 0;
    while (given < tokens) {
        int best = -1;
        for (int w = 0; w < nwarps; w++)
            if (running[w] && !has[w] && (best < 0 || age[w] < age[best])) best = w;
        if (best < 0) break;
        has[best] = 1;
        given++;
    }
    return given;
}

/* Hill climbing: keep going in `*dir` while the IPC does not drop, else turn round. Returns the new count. */
static int pcal_climb(int tokens, int *dir, double prev, double cur, int step, int max)
{
    if (prev > 0 && cur < prev) *dir = -*dir;
    int t = tokens + *dir * step;
    if (t < 0) t = 0, *dir = 1;
    if (t > max) t = max, *dir = -1;
    return t;
}

struct pcal_sm {
    int tokens, dir;
    uint64_t insts_at;
    double prev_ipc, cur_ipc;
    uint8_t *has;
};
struct pcal_state {
    int nsms, nwarps;
    struct pcal_sm *sm;
    uint64_t *age;
    bool *running;
    int c_bypass, c_cache, c_token_sum;
};

static int pcal_create(struct mw_policy_inst *pi, struct mw_err *e)
{
    (void)e;
    struct pcal_state *st = calloc(1, sizeof *st);
    if (!st) return -1;
    pi->state = st;
    st->c_cache = mw_policy_counter(pi, "token_requests", "load requests of token-holding warps (may allocate)");
    st->c_bypass = mw_policy_counter(pi, "tokenless_requests", "load requests of warps without a token (bypass a miss)");
    st->c_token_sum = mw_policy_counter(pi, "token_windows", "token counts summed over window ends and SMs");
    return 0;
}
static void pcal_destroy(struct mw_policy_inst *pi)
{
    struct pcal_state *st = pi->state;
    if (!st) return;
    if (st->sm)
        for (int i = 0; i < st->nsms; i++) free(st->sm[i].has);
    free(st->sm), free(st->age), free(st->running), free(st);
    pi->state = NULL;
}

static void pcal_reassign(struct pcal_state *st, struct mw_sim *s, int sm)
{
    for (int w = 0; w < st->nwarps; w++) {
        st->running[w] = mw_warp_active(s, sm, w) && mw_cta_active(s, sm, mw_warp_cta(s, sm, w));
        st->age[w] = st->running[w] ? mw_warp_age(s, sm, w) : 0;
    }
    pcal_assign(st->age, st->running, st->nwarps, st->sm[sm].tokens, st->sm[sm].has);
}

static void pcal_start(struct mw_policy_inst *pi)
{
    struct pcal_state *st = pi->state;
    const struct pcal_params *p = pi->params;
    st->nsms = mw_n_sms(pi->sim);
    st->nwarps = mw_max_warps(pi->sim);
    st->sm = calloc((size_t)st->nsms, sizeof *st->sm);
    st->age = calloc((size_t)st->nwarps, sizeof *st->age);
    st->running = calloc((size_t)st->nwarps, sizeof *st->running);
    if (!st->sm || !st->age || !st->running) abort(); /* a few bytes per warp slot */
    for (int i = 0; i < st->nsms; i++) {
        st->sm[i].has = calloc((size_t)st->nwarps, 1);
        if (!st->sm[i].has) abort();
        st->sm[i].tokens = (int)p->tokens;
        st->sm[i].dir = 1;
    }
    if (p->dynamic) mw_window_set(pi, (uint64_t)p->window);
}

static void pcal_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    struct pcal_state *st = pi->state;
    const struct pcal_params *p = pi->params;
    if (!st->sm) return;
    if (ev->kind == MW_EV_WINDOW) {
        for (int i = 0; i < st->nsms; i++) {
            struct pcal_sm *m = &st->sm[i];
            uint64_t insts = mw_sm_warp_insts(pi->sim, i);
            m->prev_ipc = m->cur_ipc;
            m->cur_ipc = (double)(insts - m->insts_at) / (double)p->window;
            m->insts_at = insts;
            if (m->cur_ipc > 0) /* an idle SM keeps its count */
                m->tokens = pcal_climb(m->tokens, &m->dir, m->prev_ipc, m->cur_ipc, (int)p->step, st->nwarps);
            mw_policy_count(pi, st->c_token_sum, (uint64_t)m->tokens);
            pcal_reassign(st, pi->sim, i);
        }
        return;
    }
    if (ev->sm >= 0 && ev->sm < st->nsms) pcal_reassign(st, pi->sim, ev->sm); /* launch or exit: tokens move */
}

static int pcal_decide(struct mw_policy_inst *pi, const struct mw_bypass_ctx *c)
{
    struct pcal_state *st = pi->bundle->state;
    if (!st->sm || c->sm >= st->nsms || c->warp >= st->nwarps) return MW_CACHE;
    bool tok = st->sm[c->sm].has[c->warp];
    mw_policy_count(pi->bundle, tok ? st->c_cache : st->c_bypass, 1);
    return tok ? MW_CACHE : MW_BYPASS_PROBE;
}
static const struct mw_l1d_bypass_ops pcal_bypass = {
    .base = {.point = MW_PT_L1D_BYPASS, .name = "pcal_bypass", .desc = "token holders allocate, others bypass"},
    .decide = pcal_decide,
};

static int pcal_limit(struct mw_policy_inst *pi, int sm, int resident)
{
    (void)sm, (void)resident;
    const struct pcal_params *p = pi->bundle->params;
    return p->max_ctas ? (int)p->max_ctas : 1 << 30;
}
static const struct mw_cta_throttle_ops pcal_cta = {
    .base = {.point = MW_PT_CTA_THROTTLE, .name = "pcal_cta", .desc = "PCAL's TLP cap"},
    .limit = pcal_limit,
};

static const struct mw_bundle_ops pcal = {
    .base = {.point = MW_PT_BUNDLE, .name = "pcal",
             .desc = "PCAL (HPCA'15): the oldest warps hold allocation tokens, the others bypass L1D on a miss",
             .params = pcal_params_desc, .nparams = (int)(sizeof pcal_params_desc / sizeof pcal_params_desc[0]),
             .params_size = sizeof(struct pcal_params),
             .events = MW_EVB(MW_EV_WINDOW) | MW_EVB(MW_EV_CTA_LAUNCH) | MW_EVB(MW_EV_WARP_EXIT) |
                       MW_EVB(MW_EV_CTA_DONE),
             .create = pcal_create, .destroy = pcal_destroy, .on_event = pcal_event, .start = pcal_start},
    .members = {[MW_PT_L1D_BYPASS] = &pcal_bypass.base, [MW_PT_CTA_THROTTLE] = &pcal_cta.base},
};

MW_REGISTER_POLICIES(&pcal.base);
