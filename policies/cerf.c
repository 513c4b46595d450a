/* CERF, the cache-emulated register file (N. Jing et al., MICRO-49 2016), as the Linebacker paper (spec/002 §2)
 * compares against it: one on-chip array of RF + L1D (256 + 48 KB) in which the register space that live CTAs do not
 * hold (and the share of their registers the compiler finds rarely reused) serves as data cache. Modelled as the
 * L1D plus, per L1D set, as many extra ways in the register file as the free register lines allow at that moment:
 * every L1D victim moves there (no selection, no throttling), a later miss that finds it there is a hit after the
 * RF's latency, a store invalidates it, and a CTA launch that needs the space drops the lines of the lost ways. */
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "sim.h"

struct cerf_params {
    double cold_fraction; /* share of an allocated CTA's registers the compiler moves to the cache side */
    int64_t rf_latency;   /* cycles beyond an L1D hit for a line read out of the register file */
    int64_t max_ways;     /* cap on the register ways per set (0: as many as the RF holds) */
};
#define P(f, t, d, lo, hi, ch, h) MW_PARAM(struct cerf_params, f, t, d, lo, hi, ch, h)
static const struct mw_param_desc cerf_params_desc[] = {
    P(cold_fraction, MW_PP_DOUBLE, "0", 0, 1, NULL,
      "(inferred) share of each CTA's registers found rarely reused and given to the cache side; the published "
      "design finds them by compiler analysis, which the workload models do not carry: 0 = only unallocated "
      "registers are cache"),
    P(rf_latency, MW_PP_INT, "1", 0, 1000, NULL,
      "(inferred) core cycles beyond an L1D hit to read a line from the register-file part (one tag lookup over "
      "the unified array, no serial probes); RF bank conflicts are not modelled"),
    P(max_ways, MW_PP_INT, "0", 0, 4096, NULL, "(inferred) cap on register ways per L1D set; 0 = no cap"),
};
#undef P

/* ---- pure parts ---- */

/* Register ways per L1D set: the register lines (128 B = one warp register) not held by hot registers, spread
 * evenly over the L1D's sets. rf_regs and used_regs in 32-bit registers. */
static int cerf_ways(int64_t rf_regs, int64_t used_regs, double cold, int sets, int line_bytes, int64_t cap)
{
    double hot = (double)used_regs * (1.0 - cold);
    int64_t free_regs = rf_regs - (int64_t)(hot + 0.5);
    if (free_regs <= 0 || sets <= 0) return 0;
    int64_t w = free_regs * 4 / line_bytes / sets;
    if (cap > 0 && w > cap) w = cap;
    return (int)w;
}

struct cerf_ent {
    uint64_t line, lru;
    uint8_t valid;
};
struct cerf_store {
    int sets, maxw, ways; /* ways: usable now (<= maxw) */
    uint64_t clock;
    struct cerf_ent *e;
};
static inline struct cerf_ent *cs_at(struct cerf_store *c, int set, int w) { return &c->e[set * c->maxw + w]; }
static int cs_find(struct cerf_store *c, int set, uint64_t line)
{
    for (int w = 0; w < c->ways; w++) {
        struct cerf_ent *e = cs_at(c, set, w);
        if (e->valid && e->line == line) return w;
    }
    return -1;
}
/* The line into set: refreshed if there, else an invalid usable way, else the LRU one; -1 without usable ways. */
static int cs_insert(struct cerf_store *c, int set, uint64_t line)
{
    int w = cs_find(c, set, line);
    if (w < 0) {
        int inv = -1, lru = -1;
        for (int k = 0; k < c->ways; k++) {
            struct cerf_ent *e = cs_at(c, set, k);
            if (!e->valid) {
                if (inv < 0) inv = k;
            } else if (lru < 0 || e->lru < cs_at(c, set, lru)->lru) {
                lru = k;
            }
        }
        w = inv >= 0 ? inv : lru;
        if (w < 0) return -1;
    }
    struct cerf_ent *e = cs_at(c, set, w);
    *e = (struct cerf_ent){.line = line, .lru = ++c->clock, .valid = 1};
    return w;
}
static bool cs_invalidate(struct cerf_store *c, int set, uint64_t line)
{
    int w = cs_find(c, set, line);
    if (w < 0) return false;
    cs_at(c, set, w)->valid = 0;
    return true;
}
/* The usable ways become n: the lines in ways n and above are lost (registers overwrite them). Returns them. */
static int cs_resize(struct cerf_store *c, int n)
{
    if (n > c->maxw) n = c->maxw;
    int lost = 0;
    for (int s = 0; s < c->sets; s++)
        for (int w = n; w < c->ways; w++) {
            struct cerf_ent *e = cs_at(c, s, w);
            lost += e->valid;
            e->valid = 0;
        }
    c->ways = n;
    return lost;
}

/* ---- the policy ---- */
struct cerf_state {
    int nsms, hit_latency, line_bytes, sets;
    int64_t rf_regs;
    struct cerf_store *sm;
    int c_hits, c_inserts, c_store_inv, c_lost, c_ways_max;
};

static int cerf_create(struct mw_policy_inst *pi, struct mw_err *e)
{
    (void)e;
    struct cerf_state *st = calloc(1, sizeof *st);
    if (!st) return -1;
    pi->state = st;
    st->c_hits = mw_policy_counter(pi, "reg_hits", "L1D misses served from the register-file part");
    st->c_inserts = mw_policy_counter(pi, "inserts", "L1D victims moved into the register-file part");
    st->c_store_inv = mw_policy_counter(pi, "store_invalidates", "register-file lines invalidated by a store");
    st->c_lost = mw_policy_counter(pi, "lines_lost", "register-file lines dropped when CTAs took the space");
    st->c_ways_max = mw_policy_counter(pi, "ways_max", "most register ways per set any SM had");
    return 0;
}
static void cerf_destroy(struct mw_policy_inst *pi)
{
    struct cerf_state *st = pi->state;
    if (!st) return;
    if (st->sm)
        for (int i = 0; i < st->nsms; i++) free(st->sm[i].e);
    free(st->sm);
    free(st);
    pi->state = NULL;
}
static void cerf_resize_sm(struct mw_policy_inst *pi, int sm)
{
    struct cerf_state *st = pi->state;
    const struct cerf_params *p = pi->params;
    struct cerf_store *c = &st->sm[sm];
    int64_t used = st->rf_regs - mw_sm_free_regs(pi->sim, sm);
    int n = cerf_ways(st->rf_regs, used, p->cold_fraction, st->sets, st->line_bytes, p->max_ways);
    mw_policy_count(pi, st->c_lost, (uint64_t)cs_resize(c, n));
    if ((uint64_t)c->ways > pi->counters.v[st->c_ways_max].value) pi->counters.v[st->c_ways_max].value = (uint64_t)c->ways;
}
static void cerf_start(struct mw_policy_inst *pi)
{
    struct cerf_state *st = pi->state;
    struct mw_sim *s = pi->sim;
    st->nsms = mw_n_sms(s);
    st->rf_regs = mw_sm_registers(s);
    st->sets = mw_sim_l1d_sets(s);
    st->line_bytes = (int)mw_sim_config(s)->l1d.line_bytes;
    st->hit_latency = (int)mw_sim_config(s)->l1d.hit_latency;
    int maxw = cerf_ways(st->rf_regs, 0, 0, st->sets, st->line_bytes, 0);
    st->sm = calloc((size_t)st->nsms, sizeof *st->sm);
    if (!st->sm) abort();
    for (int i = 0; i < st->nsms; i++) {
        struct cerf_store *c = &st->sm[i];
        *c = (struct cerf_store){.sets = st->sets, .maxw = maxw};
        c->e = calloc((size_t)st->sets * (size_t)(maxw ? maxw : 1), sizeof *c->e);
        if (!c->e) abort();
        cerf_resize_sm(pi, i);
    }
}
static void cerf_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    struct cerf_state *st = pi->state;
    if (!st->sm || ev->sm < 0 || ev->sm >= st->nsms) return;
    if (ev->kind == MW_EV_CTA_LAUNCH || ev->kind == MW_EV_CTA_DONE) {
        cerf_resize_sm(pi, ev->sm);
    } else if (ev->kind == MW_EV_L1D_STORE) {
        if (cs_invalidate(&st->sm[ev->sm], ev->set, ev->addr)) mw_policy_count(pi, st->c_store_inv, 1);
    }
}
static void cerf_evicted(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *l, int cause)
{
    (void)way;
    struct cerf_state *st = pi->state;
    if (cause != MW_EVICT_REPLACE || !st->sm || sm >= st->nsms) return;
    if (cs_insert(&st->sm[sm], set, l->line) >= 0) mw_policy_count(pi, st->c_inserts, 1);
}
static uint32_t cerf_probe(struct mw_policy_inst *pi, int sm, int set, uint64_t line, uint8_t sectors, int warp,
                           uint64_t pc)
{
    (void)sectors, (void)warp, (void)pc;
    struct cerf_state *st = pi->state;
    const struct cerf_params *p = pi->params;
    if (!st->sm || sm >= st->nsms) return 0;
    struct cerf_store *c = &st->sm[sm];
    int w = cs_find(c, set, line);
    if (w < 0) return 0;
    cs_at(c, set, w)->lru = ++c->clock;
    mw_policy_count(pi, st->c_hits, 1);
    return (uint32_t)(st->hit_latency + (int)p->rf_latency);
}
static int cerf_victim(struct mw_policy_inst *pi, int sm, int set, const struct mw_line_view *ways,
                       const uint8_t *evictable, int assoc)
{
    (void)pi, (void)sm, (void)set;
    return mw_victim_lru(ways, evictable, assoc);
}

static const struct mw_replacement_ops cerf = {
    .base = {.point = MW_PT_REPLACEMENT, .name = "cerf",
             .desc = "CERF (MICRO'16): L1D victims kept in the register space live CTAs do not hold (RF + L1D unified)",
             .params = cerf_params_desc, .nparams = (int)(sizeof cerf_params_desc / sizeof cerf_params_desc[0]),
             .params_size = sizeof(struct cerf_params),
             .events = MW_EVB(MW_EV_CTA_LAUNCH) | MW_EVB(MW_EV_CTA_DONE) | MW_EVB(MW_EV_L1D_STORE),
             .create = cerf_create, .destroy = cerf_destroy, .start = cerf_start, .on_event = cerf_event},
    .victim_order = MW_VICTIM_LRU,
    .victim_pure = 1,
    .victim = cerf_victim,
    .evicted = cerf_evicted,
    .victim_probe = cerf_probe,
};

MW_REGISTER_POLICIES(&cerf.base);
