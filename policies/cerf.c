/* CERF, the cache-emulated register file (N. Jing et al., MICRO-49 2016), as the Linebacker paper (spec/002 §2)
 * compares against it: one on-chip array of RF + L1D (256 + 48 KB) in which the register space that live CTAs do not
 * hold (and the share of their registers the compiler finds rarely reused) serves as data cache. Modelled as the
 * L1D plus, per L1D set, as many extra ways in the register file as the free register lines allow at that moment:
 * every L1D victim moves there (no selection, no throttling), a later miss that finds it there is a hit after the
 * RF's latency, a store invalidates it, and a CTA launch that needs the space drops the lines of the lost ways. */
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "rf_banks.h"
#include "sched_state.h"
#include "sim.h"

struct cerf_params {
    double cold_fraction; /* share of an allocated CTA's registers the compiler moves to the cache side */
    int64_t rf_latency;   /* cycles beyond an L1D hit for a line read out of the register file */
    int64_t max_ways;     /* cap on the register ways per set (0: as many as the RF holds) */
    int64_t rf_banks;     /* bundle `cerf` only: register-file banks (0: no bank model) */
    bool rf_bank_warp_skew;
};
#define P(f, t, d, lo, hi, ch, h) MW_PARAM(struct cerf_params, f, t, d, lo, hi, ch, h)
static const struct mw_param_desc cerf_params_desc[] = {
    P(cold_fraction, MW_PP_DOUBLE, "0", 0, 1, NULL,
      "(inferred) share of each CTA's registers found rarely reused and given to the cache side; the published "
      "design finds them by compiler analysis, which the workload models do not carry: 0 = only unallocated "
      "registers are cache"),
    P(rf_latency, MW_PP_INT, "1", 0, 1000, NULL,
      "(inferred) core cycles beyond an L1D hit to read a line from the register-file part (one tag lookup over "
      "the unified array, no serial probes), before any bank wait"),
    P(max_ways, MW_PP_INT, "0", 0, 4096, NULL, "(inferred) cap on register ways per L1D set; 0 = no cap"),
    /* the bundle's only (replacement `cerf` lists the three above and has no bank model) */
    P(rf_banks, MW_PP_INT, "16", 0, RFB_MAX_BANKS, NULL,
      "register-file banks with arbitration (policies/rf_banks.h): a line read or written in the register part "
      "takes the bank of its warp register and waits for operand reads (GPGPU-Sim 3.2.2's GTX480 "
      "-gpgpu_num_reg_banks 16); 0 = no bank model"),
    P(rf_bank_warp_skew, MW_PP_BOOL, "false", 0, 0, NULL,
      "operand reads of warp w use bank (register + w) mod banks (GPGPU-Sim -gpgpu_reg_bank_use_warp_id)"),
};
#define CERF_REPL_NPARAMS 3
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
    struct rfb_sm *rfb; /* per SM; NULL without a bank model (always for replacement `cerf`) */
    struct rfb_count rfc;
    int c_rf_reads, c_rf_conf, c_rf_acc, c_rf_aconf, c_rf_wait;
};
/* The register part's lines sit at the top of the register file: way k of set x is warp register
 * wregs - 1 - (k sets + x), so the ways a CTA launch takes back are the lowest registers of the part. */
static int cerf_rn(int wregs, int sets, int x, int k) { return wregs - 1 - (k * sets + x); }

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
    if (pi->pol->point == MW_PT_BUNDLE) {
        st->c_rf_reads = mw_policy_counter(pi, "rf_operand_reads", "source-register reads of issued instructions");
        st->c_rf_conf = mw_policy_counter(pi, "rf_bank_conflicts",
                                          "register-file accesses that found their bank taken: operand reads + lines");
        st->c_rf_acc = mw_policy_counter(pi, "rf_cache_accesses", "line reads and writes in the register part");
        st->c_rf_aconf = mw_policy_counter(pi, "rf_cache_conflicts", "rf_cache_accesses that waited for their bank");
        st->c_rf_wait = mw_policy_counter(pi, "rf_cache_wait", "core cycles rf_cache_accesses waited for their banks");
    }
    return 0;
}
static void cerf_destroy(struct mw_policy_inst *pi)
{
    struct cerf_state *st = pi->state;
    if (!st) return;
    if (st->sm)
        for (int i = 0; i < st->nsms; i++) free(st->sm[i].e);
    free(st->sm);
    free(st->rfb);
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
    const struct cerf_params *p = pi->params;
    if (pi->pol->point == MW_PT_BUNDLE && p->rf_banks > 0) {
        st->rfb = calloc((size_t)st->nsms, sizeof *st->rfb);
        if (!st->rfb) abort();
    }
}
/* A line read or written in the register part (set x, way k) of SM sm now: the cycles it waits for its bank. */
static int cerf_rf_access(struct mw_policy_inst *bi, int sm, int x, int k)
{
    struct cerf_state *st = bi->state;
    const struct cerf_params *p = bi->params;
    if (!st->rfb) return 0;
    int d = rfb_victim(&st->rfb[sm], &st->rfc, cerf_rn((int)(st->rf_regs / 32), st->sets, x, k), mw_now(bi->sim),
                       (int)p->rf_banks);
    bi->counters.v[st->c_rf_conf].value = st->rfc.operand_conflicts + st->rfc.victim_conflicts;
    bi->counters.v[st->c_rf_acc].value = st->rfc.victim_accesses;
    bi->counters.v[st->c_rf_aconf].value = st->rfc.victim_conflicts;
    bi->counters.v[st->c_rf_wait].value = st->rfc.victim_wait;
    return d;
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
    if (pi->bundle) pi = pi->bundle; /* the bundle's member: state and counters are the bundle's */
    struct cerf_state *st = pi->state;
    if (cause != MW_EVICT_REPLACE || !st->sm || sm >= st->nsms) return;
    int k = cs_insert(&st->sm[sm], set, l->line);
    if (k >= 0) {
        mw_policy_count(pi, st->c_inserts, 1);
        cerf_rf_access(pi, sm, set, k); /* the victim written into its register */
    }
}
static uint32_t cerf_probe(struct mw_policy_inst *pi, int sm, int set, uint64_t line, uint8_t sectors, int warp,
                           uint64_t pc)
{
    (void)sectors, (void)warp, (void)pc;
    if (pi->bundle) pi = pi->bundle;
    struct cerf_state *st = pi->state;
    const struct cerf_params *p = pi->params;
    if (!st->sm || sm >= st->nsms) return 0;
    struct cerf_store *c = &st->sm[sm];
    int w = cs_find(c, set, line);
    if (w < 0) return 0;
    cs_at(c, set, w)->lru = ++c->clock;
    mw_policy_count(pi, st->c_hits, 1);
    int wait = cerf_rf_access(pi, sm, set, w); /* the line read out of its register */
    return (uint32_t)(st->hit_latency + (int)p->rf_latency + wait);
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
             .params = cerf_params_desc, .nparams = CERF_REPL_NPARAMS,
             .params_size = sizeof(struct cerf_params),
             .events = MW_EVB(MW_EV_CTA_LAUNCH) | MW_EVB(MW_EV_CTA_DONE) | MW_EVB(MW_EV_L1D_STORE),
             .create = cerf_create, .destroy = cerf_destroy, .start = cerf_start, .on_event = cerf_event},
    .victim_order = MW_VICTIM_LRU,
    .victim_pure = 1,
    .victim = cerf_victim,
    .evicted = cerf_evicted,
    .victim_probe = cerf_probe,
};

/* ---- bundle `cerf`: the same replacement, plus GTO whose operand reads take register-file banks ---- */
static int cerf_s_pick(struct mw_policy_inst *pi, int sm, int sched, const uint16_t *ready, int n)
{
    return mw_sched_gto_pick(pi, sm, ((int *)pi->state)[mw_sched_index(pi, sm, sched)], ready, n);
}
static void cerf_s_issued(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    mw_sched_last_issued(pi, sm, sched, w, in);
    struct mw_policy_inst *bi = pi->bundle;
    struct cerf_state *st = bi->state;
    const struct cerf_params *p = bi->params;
    if (!st->rfb || sm >= st->nsms) return;
    rfb_operands(&st->rfb[sm], &st->rfc, in, w, mw_now(pi->sim), (int)p->rf_banks, p->rf_bank_warp_skew);
    bi->counters.v[st->c_rf_reads].value = st->rfc.operand_reads;
    bi->counters.v[st->c_rf_conf].value = st->rfc.operand_conflicts + st->rfc.victim_conflicts;
}
static const struct mw_warp_sched_ops cerf_sched = {
    .base = {.point = MW_PT_WARP_SCHED, .name = "cerf_gto",
             .desc = "GTO; operand reads take register-file banks",
             .create = mw_sched_last_create, .destroy = mw_sched_last_destroy},
    .pick = cerf_s_pick,
    .issued = cerf_s_issued,
};
static const struct mw_replacement_ops cerf_member = {
    .base = {.point = MW_PT_REPLACEMENT, .name = "cerf_repl", .desc = "CERF's L1D + register part"},
    .victim_order = MW_VICTIM_LRU,
    .victim_pure = 1,
    .victim = cerf_victim,
    .evicted = cerf_evicted,
    .victim_probe = cerf_probe,
};
static const struct mw_bundle_ops cerf_bundle = {
    .base = {.point = MW_PT_BUNDLE, .name = "cerf",
             .desc = "CERF (MICRO'16) with register-file banks: replacement `cerf` plus GTO whose operand reads "
                     "and the register part's line reads and writes share the RF banks",
             .params = cerf_params_desc, .nparams = (int)(sizeof cerf_params_desc / sizeof cerf_params_desc[0]),
             .params_size = sizeof(struct cerf_params),
             .events = MW_EVB(MW_EV_CTA_LAUNCH) | MW_EVB(MW_EV_CTA_DONE) | MW_EVB(MW_EV_L1D_STORE),
             .create = cerf_create, .destroy = cerf_destroy, .start = cerf_start, .on_event = cerf_event},
    .members = {[MW_PT_WARP_SCHED] = &cerf_sched.base, [MW_PT_REPLACEMENT] = &cerf_member.base},
};

MW_REGISTER_POLICIES(&cerf.base, &cerf_bundle.base);
