/* Cache-conscious wavefront scheduling (CCWS; T. Rogers, M. O'Connor, T. Aamodt, MICRO'12; the OAWS PACT'16
 * competitor, Table 3): per-warp victim tag arrays (VTA, 16 entries 8-way) keep the tags of lines a warp brought
 * into L1D (the 6-bit warp id in each L1D tag = the allocating warp) and lost to replacement; a warp's miss that
 * hits its own VTA is lost intra-warp locality and raises its lost-locality score (LLS) by
 *   LLDS = (VTA hits / instructions issued) x K_THROTTLE x CumLLSCutoff,  CumLLSCutoff = active warps x base.
 * Scores decay by one point a cycle to the base score (100). Warps sorted by score (highest first) stack their
 * scores; those whose stack passes the cutoff may not issue loads. The ready warp with the largest score above the
 * base is prioritized exclusively (OAWS Sec. 5: "the warp that has the largest locality loss is exclusively
 * prioritized"; `prio_score`); GTO orders the rest. */
#include "policy.h"
#include "sched_state.h"
#include "sim.h"

#include <string.h>

struct params {
    int64_t vta_entries, vta_assoc;
    double k_throttle, base_score, decay;
    bool throttle_all, prio_score;
};
static const struct mw_param_desc params[] = {
    MW_PARAM(struct params, vta_entries, MW_PP_INT, "16", 1, 1024, NULL, "victim tags per warp"),
    MW_PARAM(struct params, vta_assoc, MW_PP_INT, "8", 1, 1024, NULL, "VTA associativity (LRU)"),
    MW_PARAM(struct params, k_throttle, MW_PP_DOUBLE, "8", 0, 1e6, NULL, "K_THROTTLE of the LLDS formula"),
    MW_PARAM(struct params, base_score, MW_PP_DOUBLE, "100", 1, 1e6, NULL, "a warp's base locality score"),
    MW_PARAM(struct params, decay, MW_PP_DOUBLE, "1", 0, 1e6, NULL, "points a score loses per cycle toward the base"),
    MW_PARAM(struct params, throttle_all, MW_PP_BOOL, "false", 0, 0, NULL,
             "throttled warps issue nothing (false: only loads, as CCWS)"),
    MW_PARAM(struct params, prio_score, MW_PP_BOOL, "true", 0, 0, NULL,
             "the ready warp with the largest score above the base issues first (OAWS's reading of CCWS); false: GTO "
             "order among the warps the cutoff allows"),
};

struct wst {
    double lls;       /* score at t_upd */
    uint64_t t_upd;
    uint64_t *tag;    /* vta_entries line addresses (0 = empty), sets of vta_assoc ways, LRU stamps */
    uint64_t *stamp;
};
struct smst {
    struct wst *w;
    uint64_t vta_hits, clock;
    uint64_t calc_at;     /* cycle `allowed` was computed at (+1; 0 = never) */
    uint8_t *allowed;
    uint64_t hot_until;   /* every score is at the base from this cycle on */
};
struct state {
    int nsm, nwarps, nsched;
    struct smst *sm;
    int *greedy; /* per (SM, scheduler): the warp that issued last */
    int c_vta_hits, c_throttled;
};

static int create(struct mw_policy_inst *pi, struct mw_err *e)
{
    const struct params *p = pi->params;
    if (p->vta_entries % p->vta_assoc)
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "ccws: vta_entries %lld is not a multiple of vta_assoc %lld",
                          (long long)p->vta_entries, (long long)p->vta_assoc);
    struct state *st = calloc(1, sizeof *st);
    if (!st) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    pi->state = st;
    st->nsm = pi->sim ? mw_n_sms(pi->sim) : 1;
    st->nwarps = pi->sim ? mw_max_warps(pi->sim) : 48;
    st->nsched = pi->sim ? mw_n_schedulers(pi->sim) : 2;
    st->sm = calloc((size_t)st->nsm, sizeof *st->sm);
    if (!st->sm) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < st->nsm; i++) {
        struct smst *s = &st->sm[i];
        s->w = calloc((size_t)st->nwarps, sizeof *s->w);
        s->allowed = calloc((size_t)st->nwarps, 1);
        if (!s->w || !s->allowed) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
        for (int w = 0; w < st->nwarps; w++) {
            s->w[w].lls = p->base_score;
            s->w[w].tag = calloc((size_t)p->vta_entries, sizeof(uint64_t));
            s->w[w].stamp = calloc((size_t)p->vta_entries, sizeof(uint64_t));
            if (!s->w[w].tag || !s->w[w].stamp) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
        }
    }
    st->c_vta_hits = mw_policy_counter(pi, "vta_hits", "misses that hit the warp's own victim tags (lost locality)");
    st->c_throttled = mw_policy_counter(pi, "throttled", "qualification verdicts that held a warp's load back");
    st->greedy = malloc((size_t)mw_sched_slots(pi) * sizeof *st->greedy);
    if (!st->greedy) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < mw_sched_slots(pi); i++) st->greedy[i] = -1;
    return 0;
}

static void destroy(struct mw_policy_inst *pi)
{
    struct state *st = pi->state;
    if (!st) return;
    for (int i = 0; st->sm && i < st->nsm; i++) {
        for (int w = 0; st->sm[i].w && w < st->nwarps; w++) free(st->sm[i].w[w].tag), free(st->sm[i].w[w].stamp);
        free(st->sm[i].w), free(st->sm[i].allowed);
    }
    free(st->sm);
    free(st->greedy);
    free(st);
}

static double score(const struct params *p, const struct wst *x, uint64_t now)
{
    double d = p->decay * (double)(now - x->t_upd);
    return x->lls - d > p->base_score ? x->lls - d : p->base_score;
}

static void warp_reset(const struct params *p, struct wst *x, uint64_t now)
{
    x->lls = p->base_score;
    x->t_upd = now;
    memset(x->tag, 0, (size_t)p->vta_entries * sizeof *x->tag);
}

/* Which warps of SM sm may issue loads at `now`: sorted by score, highest first (older first on a tie), the
 * ones whose cumulative score stays within the cutoff. */
static void compute_allowed(struct mw_policy_inst *pi, int sm, uint64_t now)
{
    const struct params *p = pi->params;
    struct state *st = pi->state;
    struct smst *s = &st->sm[sm];
    s->calc_at = now + 1;
    memset(s->allowed, 1, (size_t)st->nwarps);
    if (now >= s->hot_until) return; /* every score at the base: the stack equals the cutoff */
    uint16_t ws[1024];
    double sc[1024];
    uint64_t age[1024];
    int n = 0;
    for (int k = 0; k < st->nsched; k++) n += mw_sched_warps(pi->sim, sm, k, ws + n, 1024 - n);
    for (int i = 0; i < n; i++) sc[i] = score(p, &s->w[ws[i]], now), age[i] = mw_warp_age(pi->sim, sm, ws[i]);
    for (int i = 1; i < n; i++) /* insertion sort: score desc, age asc */
        for (int j = i; j > 0 && (sc[j] > sc[j - 1] || (sc[j] == sc[j - 1] && age[j] < age[j - 1])); j--) {
            double t = sc[j]; sc[j] = sc[j - 1], sc[j - 1] = t;
            uint64_t a = age[j]; age[j] = age[j - 1], age[j - 1] = a;
            uint16_t u = ws[j]; ws[j] = ws[j - 1], ws[j - 1] = u;
        }
    double cutoff = n * p->base_score, cum = 0;
    for (int i = 0; i < n; i++) { /* the highest score sits at the bottom of the stack: it always issues */
        cum += sc[i];
        s->allowed[ws[i]] = i == 0 || cum <= cutoff + 1e-9;
    }
}

static bool qualify(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    (void)sched;
    const struct params *p = pi->params;
    struct state *st = pi->state;
    if (!p->throttle_all && in->op != MW_OP_LD_GLOBAL && in->op != MW_OP_LD_LOCAL) return true;
    uint64_t now = mw_now(pi->sim);
    struct smst *s = &st->sm[sm];
    if (s->calc_at != now + 1) compute_allowed(pi, sm, now);
    if (s->allowed[w]) return true;
    mw_policy_count(pi, st->c_throttled, 1);
    return false;
}

/* The VTA set of a line: line number modulo the VTA's sets. */
static int vta_set(const struct params *p, uint64_t line) { return (int)((line >> 7) % (uint64_t)(p->vta_entries / p->vta_assoc)); }

static void on_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    const struct params *p = pi->params;
    struct state *st = pi->state;
    if (ev->sm < 0 || ev->sm >= st->nsm) return;
    struct smst *s = &st->sm[ev->sm];
    int a = (int)p->vta_assoc;
    if (ev->kind == MW_EV_L1D_EVICT && ev->cause == MW_EVICT_REPLACE && ev->alloc_warp >= 0 &&
        ev->alloc_warp < st->nwarps) {
        struct wst *x = &s->w[ev->alloc_warp];
        uint64_t *t = x->tag + vta_set(p, ev->addr) * a, *sp = x->stamp + vta_set(p, ev->addr) * a;
        int v = 0;
        for (int i = 0; i < a; i++) {
            if (t[i] == ev->addr + 1) { v = i; break; }
            if (sp[i] < sp[v]) v = i;
        }
        t[v] = ev->addr + 1;
        sp[v] = ++s->clock;
    } else if (ev->kind == MW_EV_L1D_MISS && ev->warp >= 0 && ev->warp < st->nwarps) {
        struct wst *x = &s->w[ev->warp];
        uint64_t *t = x->tag + vta_set(p, ev->addr) * a;
        for (int i = 0; i < a; i++)
            if (t[i] == ev->addr + 1) {
                t[i] = 0; /* the line comes back: its tag leaves the VTA */
                s->vta_hits++;
                mw_policy_count(pi, st->c_vta_hits, 1);
                uint64_t now = ev->cycle;
                uint64_t insts = pi->sim ? mw_sm_warp_insts(pi->sim, ev->sm) : 1;
                int live = 0;
                uint16_t ws[1024];
                if (pi->sim)
                    for (int k = 0; k < st->nsched; k++) live += mw_sched_warps(pi->sim, ev->sm, k, ws, 1024);
                else live = st->nwarps;
                double llds = (double)s->vta_hits / (double)(insts ? insts : 1) * p->k_throttle * live * p->base_score;
                x->lls = score(p, x, now) + llds;
                x->t_upd = now;
                uint64_t until = now + (uint64_t)((x->lls - p->base_score) / (p->decay > 0 ? p->decay : 1e-9)) + 1;
                if (p->decay <= 0) until = UINT64_MAX;
                if (until > s->hot_until) s->hot_until = until;
                s->calc_at = 0;
                break;
            }
    } else if (ev->kind == MW_EV_WARP_EXIT && ev->warp >= 0 && ev->warp < st->nwarps) {
        warp_reset(p, &s->w[ev->warp], ev->cycle);
        s->calc_at = 0;
    }
}

/* For tests: warp w's score on SM sm at cycle now, and whether it may issue a load then. */
double mw_ccws_score(struct mw_policy_inst *pi, int sm, int w, uint64_t now);
double mw_ccws_score(struct mw_policy_inst *pi, int sm, int w, uint64_t now)
{
    struct state *st = pi->state;
    return score(pi->params, &st->sm[sm].w[w], now);
}

static int pick(struct mw_policy_inst *pi, int sm, int sched, const uint16_t *ready, int n)
{
    const struct params *p = pi->params;
    struct state *st = pi->state;
    int greedy = st->greedy[mw_sched_index(pi, sm, sched)];
    uint64_t now = mw_now(pi->sim);
    if (p->prio_score && now < st->sm[sm].hot_until) {
        /* the largest score above the base wins; among equal scores, GTO's choice */
        double top = p->base_score;
        uint16_t tied[1024];
        int idx[1024], nt = 0;
        for (int i = 0; i < n; i++) {
            double sc = score(p, &st->sm[sm].w[ready[i]], now);
            if (sc > top + 1e-9) top = sc, nt = 0;
            if (sc > p->base_score + 1e-9 && sc >= top - 1e-9) tied[nt] = ready[i], idx[nt++] = i;
        }
        if (nt == 1) return idx[0];
        if (nt > 1) return idx[mw_sched_gto_pick(pi, sm, greedy, tied, nt)];
    }
    return mw_sched_gto_pick(pi, sm, greedy, ready, n);
}

static void issued(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    (void)in;
    struct state *st = pi->state;
    st->greedy[mw_sched_index(pi, sm, sched)] = w;
}

static const struct mw_warp_sched_ops mw_pol_ccws = {
    .base = {.point = MW_PT_WARP_SCHED, .name = "ccws",
             .desc = "cache-conscious wavefront scheduling: victim-tag lost-locality scores throttle the loads of "
                     "low-score warps; GTO order",
             .params = params, .nparams = (int)(sizeof params / sizeof params[0]), .params_size = sizeof(struct params),
             .events = MW_EVB(MW_EV_L1D_EVICT) | MW_EVB(MW_EV_L1D_MISS) | MW_EVB(MW_EV_WARP_EXIT),
             .create = create, .destroy = destroy, .on_event = on_event},
    .pick = pick,
    .qualify = qualify,
    .issued = issued,
};

MW_REGISTER_POLICIES(&mw_pol_ccws.base);
