/* Cache granularity: DyCache (Guo et al., IEEE Access 2018, Sec. III-C, Fig. 7). Each SM's multi-grain
 * management unit samples every coalesced L1D request (its size and whether it hit) and, when `window` requests
 * have been seen, chooses the management granularity G of the next window from two signals against one
 * threshold T (DyCache-N: T = N %):
 *   poor locality = miss rate >= T;  fine access = fine-grain ratio (32 B and 64 B requests / all) >= T
 *   good locality: keep G;  poor + fine at G = 128: G = 32 if more 32 B than 64 B requests, else 64;
 *   poor + coarse at G < 128: G = 128 (the L1D is flushed: mw_l1d_set_granularity);  else keep G.
 * Parameters mark the extraction's inferred choices ([I] in spec/003_dycache.md 1.8) with its defaults.
 * With l1d.organisation: chunked the L1D hits, fetches and allocates by G; with the line organisation fetch()
 * fetches the G-aligned sectors of a miss (whole lines at G = 128), an approximation without chunk tags.
 * adapt = 0 keeps G at 128 and only measures (the access-pattern signals of the 128 B baseline).
 * Stats (policy.granularity.*): windows, the per-window signals summed in per mille (mean = sum / windows),
 * the windows with poor locality / fine access / both, switches to fine and to coarse. */
#include "gran_align.h"
#include "policy.h"
#include "sim.h"

#include <stdlib.h>

struct params {
    int64_t threshold, window, adapt, refine;
    int fine_by, compare;
};
static const struct mw_param_desc params[] = {
    MW_PARAM(struct params, threshold, MW_PP_INT, "50", 0, 100, NULL,
             "T in percent (DyCache-25/50/75), for both the miss rate and the fine-grain ratio"),
    MW_PARAM(struct params, window, MW_PP_INT, "1000", 1, 1e9, NULL,
             "sampling window in coalesced L1D requests per SM (paper: 1K; Fig. 12: 5K, 10K)"),
    MW_PARAM(struct params, fine_by, MW_PP_ENUM, "count", 0, 0, "count|bytes",
             "[I] fine-grain ratio by request count, or byte-weighted (32 n32 + 64 n64) / all bytes"),
    MW_PARAM(struct params, compare, MW_PP_ENUM, "ge", 0, 0, "ge|gt",
             "[I] a signal at exactly T counts as poor / fine (ge) or not (gt)"),
    MW_PARAM(struct params, refine, MW_PP_INT, "0", 0, 1, NULL,
             "[I] 1: in (poor, fine, G < 128) re-pick 32 / 64 by n32 > n64 (32 -> 64 flushes); 0: keep G"),
    MW_PARAM(struct params, adapt, MW_PP_INT, "1", 0, 1, NULL, "0: only measure, G stays 128"),
};

struct smstate {
    uint64_t n, n32, n64, n128, miss;
};
struct state {
    int nsms;
    struct smstate *sm;
    int c_win, c_fg, c_mr, c_poor, c_fine, c_both, c_tofine, c_tocoarse, c_at32, c_at64;
};

static int create(struct mw_policy_inst *pi, struct mw_err *e)
{
    (void)e;
    pi->state = calloc(1, sizeof(struct state));
    return pi->state ? 0 : MW_ENOMEM;
}
static void destroy(struct mw_policy_inst *pi)
{
    struct state *st = pi->state;
    if (st) free(st->sm);
    free(st);
}
static void start(struct mw_policy_inst *pi)
{
    struct state *st = pi->state;
    st->nsms = mw_n_sms(pi->sim);
    st->sm = calloc((size_t)st->nsms, sizeof *st->sm);
    if (!st->sm) abort();
    st->c_win = mw_policy_counter(pi, "windows", "sampling windows ended (all SMs)");
    st->c_fg = mw_policy_counter(pi, "fine_ratio_permille_sum", "per-window fine-grain ratio, per mille, summed");
    st->c_mr = mw_policy_counter(pi, "miss_rate_permille_sum", "per-window L1D miss rate, per mille, summed");
    st->c_poor = mw_policy_counter(pi, "windows_poor", "windows with miss rate at or past T");
    st->c_fine = mw_policy_counter(pi, "windows_fine", "windows with fine-grain ratio at or past T");
    st->c_both = mw_policy_counter(pi, "windows_poor_fine", "windows with both signals at or past T");
    st->c_tofine = mw_policy_counter(pi, "to_fine", "switches from 128 B to 32 / 64 B");
    st->c_tocoarse = mw_policy_counter(pi, "to_coarse", "switches to a larger granule (each flushes the L1D)");
    st->c_at32 = mw_policy_counter(pi, "windows_at_32", "windows run at G = 32");
    st->c_at64 = mw_policy_counter(pi, "windows_at_64", "windows run at G = 64");
}

/* Is value / total at or past T percent? Integer arithmetic: value * 100 >= T * total. */
static bool past(const struct params *p, uint64_t value, uint64_t total)
{
    uint64_t a = value * 100, b = (uint64_t)p->threshold * total;
    return p->compare == 0 ? a >= b : a > b;
}

static void select_gran(struct mw_policy_inst *pi, int sm, struct smstate *x)
{
    const struct params *p = pi->params;
    struct state *st = pi->state;
    uint64_t fine_num = p->fine_by == 0 ? x->n32 + x->n64 : 32 * x->n32 + 64 * x->n64;
    uint64_t fine_den = p->fine_by == 0 ? x->n : 32 * x->n32 + 64 * x->n64 + 128 * x->n128;
    bool poor = past(p, x->miss, x->n);
    bool fine = fine_den && past(p, fine_num, fine_den);
    int g = mw_l1d_granularity(pi->sim, sm);
    mw_policy_count(pi, st->c_win, 1);
    mw_policy_count(pi, st->c_fg, fine_den ? fine_num * 1000 / fine_den : 0);
    mw_policy_count(pi, st->c_mr, x->miss * 1000 / x->n);
    if (poor) mw_policy_count(pi, st->c_poor, 1);
    if (fine) mw_policy_count(pi, st->c_fine, 1);
    if (poor && fine) mw_policy_count(pi, st->c_both, 1);
    if (g == 32) mw_policy_count(pi, st->c_at32, 1);
    if (g == 64) mw_policy_count(pi, st->c_at64, 1);
    if (!p->adapt || !poor) return;
    int ng = g;
    if (fine && (g == 128 || p->refine)) ng = x->n32 > x->n64 ? 32 : 64; /* a tie: 64 B ("otherwise 64B") */
    else if (!fine && g != 128) ng = 128;
    if (ng == g) return;
    mw_policy_count(pi, ng < g ? st->c_tofine : st->c_tocoarse, 1);
    mw_l1d_set_granularity(pi->sim, sm, ng);
}

static void on_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    const struct params *p = pi->params;
    struct state *st = pi->state;
    if (!st->sm || ev->sm < 0 || ev->sm >= st->nsms) return;
    struct smstate *x = &st->sm[ev->sm];
    x->n++;
    if (ev->size <= 32) x->n32++;
    else if (ev->size <= 64) x->n64++;
    else x->n128++;
    if (ev->kind == MW_EV_L1D_MISS) x->miss++; /* merged misses and partial hits included */
    if (x->n < (uint64_t)p->window) return;
    select_gran(pi, ev->sm, x);
    *x = (struct smstate){0};
}

/* The line organisation's fetch: the G-aligned sectors of the miss (the chunked organisation does not ask). */
static uint8_t fetch(struct mw_policy_inst *pi, const struct mw_gran_ctx *c)
{
    return mw_gran_aligned(c->need, mw_l1d_granularity(pi->sim, c->sm));
}

static const struct mw_granularity_ops mw_pol_gran_dycache = {
    .base = {.point = MW_PT_GRANULARITY, .name = "dycache",
             .desc = "DyCache: per-SM granularity 32/64/128 B from the miss rate and fine-grain ratio of each window",
             .params = params, .nparams = sizeof params / sizeof params[0], .params_size = sizeof(struct params),
             .events = MW_EVB(MW_EV_L1D_HIT) | MW_EVB(MW_EV_L1D_MISS), .create = create, .destroy = destroy,
             .start = start, .on_event = on_event},
    .fetch = fetch,
};

MW_REGISTER_POLICIES(&mw_pol_gran_dycache.base);
