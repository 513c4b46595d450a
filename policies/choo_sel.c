/* Choo 2016, Ch.4: contention-aware selective caching.
 *
 * `indsel` (l1d_bypass): when a warp load's divergence N exceeds the associativity n, scheme a bypasses all N
 * requests, b caches the first n, c the last n, and `set` (IndSelCaching, the default) applies c within each L1D
 * set: of the R_s requests to set s, the last n are cached and the first |R_s| - n bypass (§4.3.1-4.3.2).
 *
 * `locsel` (bundle: l1d_bypass + replacement): LocSelCaching (§4.3.3). Each L1D line keeps a 7-bit hashed
 * allocating PC and a 4-bit re-reference counter (RRC, +1 per hit, saturating at 15); on eviction the line's RRC
 * is added to a 128-entry re-reference table indexed by the hashed PC (sum and count). A request the per-set
 * scheme would cache is then cached only if the set has a free way, or if its PC's re-reference degree (the
 * table's sum, or sum / count) exceeds the smallest RRC among the set's evictable lines, and that line is the
 * victim; otherwise it bypasses. Replacement is LRU for every other allocation.
 *
 * [X] choices of the extraction, as parameters with its defaults: the 128-entry direct-mapped table,
 * `rrt_mode = avg` (the thesis names the field "average" but writes "running sum"), `table_miss = cache` (N2:
 * a PC with no table entry is cached), and the locality check on divergent instructions only (§1.1: the steps
 * after the divergence detector run only when N > n; `loc_scope = all` checks every request). */
#include "choo_sel.h"
#include "sim.h"

#include <stdlib.h>
#include <string.h>

/* ---- indsel ---------------------------------------------------------------------------------------------- */
struct indsel_params {
    int scheme;
};
static const struct mw_param_desc indsel_params[] = {
    MW_PARAM(struct indsel_params, scheme, MW_PP_ENUM, "set", 0, 0, "a|b|c|set",
             "on N > assoc: a bypass all, b cache the first n, c cache the last n, set = c per L1D set (IndSel)"),
};

static int indsel_decide(struct mw_policy_inst *pi, const struct mw_bypass_ctx *c)
{
    const struct indsel_params *p = pi->params;
    return choo_sel_bypass(p->scheme, c->reqs, c->n, c->index, mw_sim_l1d_assoc(pi->sim)) ? MW_BYPASS : MW_CACHE;
}

static const struct mw_l1d_bypass_ops mw_pol_indsel = {
    .base = {.point = MW_PT_L1D_BYPASS, .name = "indsel",
             .desc = "Choo 2016 contention-aware selective caching (schemes a/b/c, per-set IndSelCaching)",
             .params = indsel_params, .nparams = 1, .params_size = sizeof(struct indsel_params)},
    .decide = indsel_decide,
};

/* ---- locsel ---------------------------------------------------------------------------------------------- */
#define RRT_BITS 7
#define RRT_SIZE (1 << RRT_BITS)
#define RRC_MAX 15
enum { RRT_SUM = 0, RRT_AVG };
enum { MISS_CACHE = 0, MISS_ZERO };
enum { SCOPE_DIVERGENT = 0, SCOPE_ALL };

struct locsel_params {
    int scheme;
    int rrt_mode;
    int table_miss;
    int loc_scope;
};
static const struct mw_param_desc locsel_params[] = {
    MW_PARAM(struct locsel_params, scheme, MW_PP_ENUM, "set", 0, 0, "a|b|c|set",
             "contention scheme applied before the locality check (set = IndSelCaching)"),
    MW_PARAM(struct locsel_params, rrt_mode, MW_PP_ENUM, "avg", 0, 0, "sum|avg",
             "a PC's re-reference degree: the table's running sum, or sum / count"),
    MW_PARAM(struct locsel_params, table_miss, MW_PP_ENUM, "cache", 0, 0, "cache|zero",
             "a PC with no table entry: cache it, or give it degree 0 (cached only into a free way)"),
    MW_PARAM(struct locsel_params, loc_scope, MW_PP_ENUM, "divergent", 0, 0, "divergent|all",
             "which requests the locality check applies to: those of divergent instructions (N > assoc), or all"),
};

struct rrt_entry {
    uint64_t sum, cnt;
};
struct locsel_state {
    struct rrt_entry rrt[RRT_SIZE];
    struct mw_policy_inst *repl; /* the replacement member (its per-line bytes: hashed PC, RRC) */
    /* per SM: the line a locality check admitted and the way it chose to evict (consumed by victim()) */
    uint64_t *want_line;
    int *want_way;
    int nsms;
    int c_loc_bypass, c_loc_cache, c_sel_bypass;
    struct mw_policy_inst *byp;
};

static int locsel_create(struct mw_policy_inst *pi, struct mw_err *e)
{
    struct locsel_state *st = calloc(1, sizeof *st);
    if (!st) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    pi->state = st;
    return 0;
}

static void locsel_destroy(struct mw_policy_inst *pi)
{
    struct locsel_state *st = pi->state;
    if (!st) return;
    free(st->want_line);
    free(st->want_way);
    free(st);
    pi->state = NULL;
}

/* The degree of a PC; *known = the table has an entry for it. */
static uint64_t rrt_degree(const struct locsel_state *st, const struct locsel_params *p, uint64_t pc, bool *known)
{
    const struct rrt_entry *r = &st->rrt[choo_hash_pc(pc, RRT_BITS)];
    *known = r->cnt > 0;
    if (!r->cnt) return 0;
    return p->rrt_mode == RRT_SUM ? r->sum : r->sum / r->cnt;
}

static int locsel_decide(struct mw_policy_inst *pi, const struct mw_bypass_ctx *c)
{
    struct locsel_state *st = pi->bundle->state;
    const struct locsel_params *p = pi->bundle->params;
    struct mw_sim *s = pi->sim;
    int assoc = mw_sim_l1d_assoc(s);
    if (choo_sel_bypass(p->scheme, c->reqs, c->n, c->index, assoc)) {
        mw_policy_count(pi, st->c_sel_bypass, 1);
        return MW_BYPASS;
    }
    if (p->loc_scope == SCOPE_DIVERGENT && c->n <= assoc) return MW_CACHE;
    const struct mw_coal_req *q = &c->reqs[c->index];
    if (mw_l1d_find(s, c->sm, q->line) >= 0) return MW_CACHE; /* a hit (or a line on its way): nothing to evict */
    bool known;
    uint64_t deg = rrt_degree(st, p, c->pc, &known);
    if (!known && p->table_miss == MISS_CACHE) return MW_CACHE;
    /* the smallest RRC among the set's evictable lines; a free way admits the request */
    int best = -1;
    unsigned best_rrc = 0;
    uint64_t best_t = 0;
    for (int w = 0; w < assoc; w++) {
        struct mw_line_view v;
        mw_l1d_line(s, c->sm, q->set, w, &v);
        if (!v.valid && !v.reserved) return MW_CACHE;
        if (v.reserved) continue;
        const uint8_t *m = mw_l1d_meta(s, st->repl, c->sm, q->set, w);
        unsigned rrc = m ? m[1] : 0;
        if (best < 0 || rrc < best_rrc || (rrc == best_rrc && v.last_access < best_t))
            best = w, best_rrc = rrc, best_t = v.last_access;
    }
    if (best >= 0 && deg > best_rrc) {
        st->want_line[c->sm] = q->line;
        st->want_way[c->sm] = best;
        mw_policy_count(pi, st->c_loc_cache, 1);
        return MW_CACHE;
    }
    mw_policy_count(pi, st->c_loc_bypass, 1);
    return MW_BYPASS;
}

static void locsel_byp_start(struct mw_policy_inst *pi)
{
    struct locsel_state *st = pi->bundle->state;
    st->byp = pi;
    st->c_sel_bypass = mw_policy_counter(pi, "sel_bypass", "requests bypassed by the per-set contention rule");
    st->c_loc_cache = mw_policy_counter(pi, "loc_cache", "requests admitted by the locality check over a line");
    st->c_loc_bypass = mw_policy_counter(pi, "loc_bypass", "requests bypassed by the locality check");
}

static void locsel_repl_start(struct mw_policy_inst *pi)
{
    struct locsel_state *st = pi->bundle->state;
    st->repl = pi;
    st->nsms = mw_n_sms(pi->sim);
    st->want_line = calloc((size_t)st->nsms, sizeof *st->want_line);
    st->want_way = calloc((size_t)st->nsms, sizeof *st->want_way);
    if (!st->want_line || !st->want_way) abort(); /* a few bytes per SM */
    for (int i = 0; i < st->nsms; i++) st->want_line[i] = UINT64_MAX;
}

/* LRU, except for the request a locality check admitted over its set's smallest-RRC line. */
static int locsel_victim(struct mw_policy_inst *pi, int sm, int set, const struct mw_line_view *ways,
                         const uint8_t *evictable, int assoc)
{
    (void)set;
    struct locsel_state *st = pi->bundle->state;
    if (st->want_line && st->want_line[sm] != UINT64_MAX) {
        int w = st->want_way[sm];
        st->want_line[sm] = UINT64_MAX;
        if (w >= 0 && w < assoc && evictable[w]) return w;
    }
    return mw_victim_lru(ways, evictable, assoc);
}

static void locsel_insert(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *line)
{
    (void)pi, (void)sm, (void)set, (void)way;
    uint8_t *m = line->meta;
    m[0] = (uint8_t)choo_hash_pc(line->alloc_pc, RRT_BITS);
    m[1] = 0;
}

static void locsel_touch(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *line)
{
    (void)pi, (void)sm, (void)set, (void)way;
    uint8_t *m = line->meta;
    if (m[1] < RRC_MAX) m[1]++;
}

static void locsel_evicted(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *line,
                           int cause)
{
    (void)sm, (void)set, (void)way, (void)cause;
    struct locsel_state *st = pi->bundle->state;
    const uint8_t *m = line->meta;
    struct rrt_entry *r = &st->rrt[m[0] & (RRT_SIZE - 1)];
    r->sum += m[1];
    r->cnt++;
}

static const struct mw_l1d_bypass_ops locsel_bypass = {
    .base = {.point = MW_PT_L1D_BYPASS, .name = "locsel", .desc = "LocSelCaching: per-set rule + locality check",
             .start = locsel_byp_start},
    .decide = locsel_decide,
};
static const struct mw_replacement_ops locsel_repl = {
    .base = {.point = MW_PT_REPLACEMENT, .name = "locsel", .desc = "LRU; 7-bit hashed PC and 4-bit RRC per line",
             .line_meta_bytes = 2, .start = locsel_repl_start},
    .victim = locsel_victim,
    .insert = locsel_insert,
    .touch = locsel_touch,
    .evicted = locsel_evicted,
};
static const struct mw_bundle_ops mw_pol_locsel = {
    .base = {.point = MW_PT_BUNDLE, .name = "locsel",
             .desc = "Choo 2016 LocSelCaching: IndSelCaching plus a per-PC re-reference degree vs the set's RRCs",
             .params = locsel_params, .nparams = 4, .params_size = sizeof(struct locsel_params),
             .create = locsel_create, .destroy = locsel_destroy},
    .members = {[MW_PT_L1D_BYPASS] = &locsel_bypass.base, [MW_PT_REPLACEMENT] = &locsel_repl.base},
};

MW_REGISTER_POLICIES(&mw_pol_indsel.base, &mw_pol_locsel.base);
