/* What the policy interface's per-decision features do, on hand-built cases whose answer is worked out in the
 * comments: bundles (shared state and params, slot conflicts, slots left to the config, every registered bundle
 * repeatable and fast-forward identical), per-line policy bytes, the allocating vs the last-touching load of an
 * evicted line and the four eviction causes, victim storage, bypass verdicts (probe, retries). The actions and
 * the rest are in test_policy_actions.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "policy_iface.h"

static const char *const one_sm[] = {PI_ONE_SM};

/* ==== 1. bundles ============================================================================================
 * A bundle "tb" with a warp-scheduler member and an L1D-bypass member sharing one state made by the bundle's
 * create. The scheduler member counts the global loads it issues; the bypass member reads that count at every
 * decision (so it sees the other member's writes) and bypasses the loads from number `bypass_from` on (0-based,
 * a bundle param, read through pi->bundle->params). The replacement slot is left NULL. */
struct tb_params {
    int64_t bypass_from;
    int64_t tag;
};
static const struct mw_param_desc tb_params_desc[] = {
    MW_PARAM(struct tb_params, bypass_from, MW_PP_INT, "1000000", 0, 1e9, NULL, "first load to bypass (0-based)"),
    MW_PARAM(struct tb_params, tag, MW_PP_INT, "0", 0, 1e9, NULL, "a value the members copy"),
};
struct tb_state {
    int64_t loads_issued;  /* written by the scheduler member */
    int64_t seen[16];      /* loads_issued as the bypass member saw it at each decision */
    int ndecide;
    const struct mw_policy_inst *sched_bundle, *bypass_bundle; /* pi->bundle as each member saw it */
    void *sched_state, *bypass_state;                          /* pi->bundle->state as each member saw it */
    int64_t sched_tag, bypass_tag;                             /* the bundle's tag param as each member saw it */
    int started, finished, kernel_starts;                      /* the bundle's own hooks */
};
static int tb_destroyed; /* destroy() calls of tb's shared instance */

static int tb_create(struct mw_policy_inst *pi, struct mw_err *e)
{
    pi->state = calloc(1, sizeof(struct tb_state));
    return pi->state ? 0 : mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
}
static void tb_destroy(struct mw_policy_inst *pi)
{
    free(pi->state);
    tb_destroyed++;
}
static void tb_start(struct mw_policy_inst *pi) { ((struct tb_state *)pi->state)->started++; }
static void tb_finish(struct mw_policy_inst *pi) { ((struct tb_state *)pi->state)->finished++; }
static void tb_on_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    if (ev->kind == MW_EV_KERNEL_START) ((struct tb_state *)pi->state)->kernel_starts++;
}
static void tb_issued(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    (void)sm, (void)sched, (void)w;
    struct tb_state *st = pi->bundle->state;
    st->sched_bundle = pi->bundle;
    st->sched_state = pi->bundle->state;
    st->sched_tag = ((const struct tb_params *)pi->bundle->params)->tag;
    if (in->op == MW_OP_LD_GLOBAL) st->loads_issued++;
}
static int tb_decide(struct mw_policy_inst *pi, const struct mw_bypass_ctx *c)
{
    (void)c;
    struct tb_state *st = pi->bundle->state;
    const struct tb_params *p = pi->bundle->params;
    st->bypass_bundle = pi->bundle;
    st->bypass_state = pi->bundle->state;
    st->bypass_tag = p->tag;
    if (st->ndecide < 16) st->seen[st->ndecide] = st->loads_issued;
    st->ndecide++;
    return st->loads_issued - 1 >= p->bypass_from ? MW_BYPASS : MW_CACHE;
}
static const struct mw_warp_sched_ops tb_sched = {
    .base = {.point = MW_PT_WARP_SCHED, .name = "tb_sched", .desc = "tb's scheduler member"},
    .pick = pick_oldest,
    .issued = tb_issued,
};
static const struct mw_l1d_bypass_ops tb_bypass = {
    .base = {.point = MW_PT_L1D_BYPASS, .name = "tb_bypass", .desc = "tb's bypass member"},
    .decide = tb_decide,
};
static const struct mw_bundle_ops tb_bundle = {
    .base = {.point = MW_PT_BUNDLE, .name = "tb", .desc = "test bundle", .params = tb_params_desc,
             .nparams = 2, .params_size = sizeof(struct tb_params), .events = MW_EVB(MW_EV_KERNEL_START),
             .create = tb_create, .destroy = tb_destroy, .on_event = tb_on_event, .start = tb_start,
             .finish = tb_finish},
    .members = {[MW_PT_WARP_SCHED] = &tb_sched.base, [MW_PT_L1D_BYPASS] = &tb_bypass.base},
};

/* One warp, four loads of distinct lines, each followed by an ALU that waits for it: load k issues, reaches
 * L1D (one request: a full warp reading one line) and is decided before load k+1 can issue. */
static const struct sr_inst four_loads[] = {LDG(2, 0, LINE(0, 0)), ALU(3, 2), LDG(4, 0, LINE(1, 0)), ALU(5, 4),
                                            LDG(6, 0, LINE(2, 0)), ALU(7, 6), LDG(8, 0, LINE(3, 0)), ALU(9, 8)};
static const struct sr_prog four_loads_prog = {1, {four_loads}, {NINST(four_loads)}};

static int tb_init(struct mw_policy_inst *bi, struct mw_sim *s, const char *bypass_from)
{
    static const char *const keys[] = {"bypass_from", "tag"};
    const char *vals[] = {bypass_from, "77"};
    struct mw_err e;
    return mw_policy_inst_init(bi, &tb_bundle.base, s, keys, vals, bypass_from ? 2 : 0, &e);
}

/* Run four_loads under tb (bypass_from = "2", or the default when NULL) with the config choosing FIFO for
 * replacement; the state is copied out before the simulation (and the state) go away. */
static void tb_run(const char *bypass_from, struct tb_state *out, struct mw_stat_list *l)
{
    static const char *const sets[] = {PI_ONE_SM, "policies.replacement=fifo"};
    struct mw_sim *s = prog_sim(&four_loads_prog, sets, 2);
    struct mw_err e;
    struct mw_policy_inst bi;
    assert_int_equal(tb_init(&bi, s, bypass_from), 0);
    bool configured[MW_SLOT_COUNT] = {[MW_PT_REPLACEMENT] = true}; /* a slot tb leaves NULL: no conflict */
    if (mw_sim_install_bundle(s, &bi, configured, &e)) fail_msg("install tb: %s", e.msg);
    /* the members sit in their slots and point at the shared instance; the NULL slot kept FIFO */
    struct mw_policy_inst *shared = &s->pol[MW_SLOT_BUNDLE];
    assert_ptr_equal(shared->pol, &tb_bundle.base);
    assert_ptr_equal(s->pol[MW_PT_WARP_SCHED].pol, &tb_sched.base);
    assert_ptr_equal(s->pol[MW_PT_L1D_BYPASS].pol, &tb_bypass.base);
    assert_ptr_equal(s->pol[MW_PT_WARP_SCHED].bundle, shared);
    assert_ptr_equal(s->pol[MW_PT_L1D_BYPASS].bundle, shared);
    assert_ptr_equal(mw_sim_policy(s, MW_PT_REPLACEMENT)->pol, mw_policy_find(MW_PT_REPLACEMENT, "fifo"));
    assert_null(mw_sim_policy(s, MW_PT_REPLACEMENT)->bundle);
    assert_ptr_equal(mw_sim_policy(s, MW_PT_GRANULARITY)->pol, mw_policy_find(MW_PT_GRANULARITY, "line"));
    run_stats(s, "tb", l);
    memcpy(out, shared->state, sizeof *out);
    int before = tb_destroyed;
    mw_sim_destroy(s);
    assert_int_equal(tb_destroyed, before + 1); /* the shared state is destroyed once, by the bundle's base */
}

static void test_bundle_shared_state_and_params(void **st)
{
    (void)st;
    struct tb_state a, b;
    struct mw_stat_list la, lb;
    /* bypass_from = 2: the loads decided with loads_issued = 1, 2 are cached, those with 3, 4 bypassed */
    tb_run("2", &a, &la);
    assert_int_equal(a.ndecide, 4);
    for (int k = 0; k < 4; k++) assert_int_equal(a.seen[k], k + 1); /* the scheduler member's count, live */
    assert_non_null(a.sched_bundle);
    assert_ptr_equal(a.sched_bundle, a.bypass_bundle);
    assert_non_null(a.sched_state);
    assert_ptr_equal(a.sched_state, a.bypass_state);
    assert_int_equal(a.sched_tag, 77);
    assert_int_equal(a.bypass_tag, 77);
    assert_int_equal(a.started, 1);
    assert_int_equal(a.finished, 1);
    assert_int_equal(a.kernel_starts, 1);
    assert_int_equal(sr_stat(&la, "l1d.bypasses"), 2);
    assert_int_equal(sr_stat(&la, "l1d.misses"), 2);
    /* the default bypass_from: nothing bypassed, so the param is what made the difference */
    tb_run(NULL, &b, &lb);
    assert_int_equal(b.ndecide, 4);
    assert_int_equal(b.sched_tag, 0);
    assert_int_equal(sr_stat(&lb, "l1d.bypasses"), 0);
    assert_int_equal(sr_stat(&lb, "l1d.misses"), 4);
    mw_stat_list_fini(&la);
    mw_stat_list_fini(&lb);
}

/* Installing at the wrong point is refused with the policy's name (read before the instance is released), a
 * bundle goes through mw_sim_set_policy(MW_PT_BUNDLE, ...), and a second bundle with members is refused. */
static void test_install_errors(void **st)
{
    (void)st;
    struct mw_sim *s = prog_sim(&four_loads_prog, one_sm, 1);
    struct mw_err e;
    assert_int_not_equal(mw_sim_set_policy(s, MW_PT_WARP_SCHED, mw_policy_find(MW_PT_L1D_BYPASS, "all"), NULL, NULL, 0, &e), 0);
    assert_string_equal(e.msg, "policy 'all' is a l1d_bypass policy, not warp_scheduler");
    /* the empty bundle decides nothing: every slot keeps the policy it had */
    const struct mw_policy *before[MW_SLOT_BUNDLE];
    for (int k = 0; k < MW_SLOT_BUNDLE; k++) before[k] = s->pol[k].pol;
    assert_int_equal(mw_sim_set_policy(s, MW_PT_BUNDLE, mw_policy_find(MW_PT_BUNDLE, "none"), NULL, NULL, 0, &e), 0);
    assert_ptr_equal(mw_sim_policy(s, MW_PT_BUNDLE)->pol, mw_policy_find(MW_PT_BUNDLE, "none"));
    for (int k = 0; k < MW_SLOT_BUNDLE; k++) {
        assert_ptr_equal(s->pol[k].pol, before[k]);
        assert_null(s->pol[k].bundle);
    }
    assert_null(mw_sim_policy(s, (enum mw_point)40));
    struct mw_policy_inst bi;
    assert_int_equal(tb_init(&bi, s, NULL), 0);
    assert_int_equal(mw_sim_install_bundle(s, &bi, NULL, &e), 0);
    assert_int_equal(tb_init(&bi, s, NULL), 0);
    assert_int_not_equal(mw_sim_install_bundle(s, &bi, NULL, &e), 0);
    assert_string_equal(e.msg, "bundle 'tb' is already installed: a simulation takes one bundle");
    mw_sim_destroy(s);
}

/* Configuring a slot the bundle fills is an error naming both; nothing is installed and the shared instance is
 * destroyed. */
static void test_bundle_slot_conflict(void **st)
{
    (void)st;
    struct mw_sim *s = prog_sim(&four_loads_prog, one_sm, 1);
    struct mw_policy_inst bi;
    assert_int_equal(tb_init(&bi, s, NULL), 0);
    bool configured[MW_SLOT_COUNT] = {[MW_PT_L1D_BYPASS] = true};
    struct mw_err e;
    int before = tb_destroyed;
    assert_int_not_equal(mw_sim_install_bundle(s, &bi, configured, &e), 0);
    assert_string_equal(e.msg, "policies.l1d_bypass is set to a policy other than its default, but bundle 'tb' provides that "
                        "decision point (remove one)");
    assert_int_equal(tb_destroyed, before + 1);
    assert_ptr_equal(s->pol[MW_SLOT_BUNDLE].pol, mw_policy_find(MW_PT_BUNDLE, "none")); /* the default */
    assert_ptr_equal(s->pol[MW_PT_WARP_SCHED].pol, mw_policy_find(MW_PT_WARP_SCHED, "gto"));
    assert_ptr_equal(s->pol[MW_PT_L1D_BYPASS].pol, mw_policy_find(MW_PT_L1D_BYPASS, "none"));
    mw_sim_destroy(s);
}

/* Every registered bundle, installed over the baseline: completes a tiny run, repeats it exactly, and gives the
 * same statistics with fast-forward off. Its members must be in their slots. */
static void bundle_run(const struct mw_policy *b, const char *wl, bool ff, struct mw_stat_list *l)
{
    const char *sets[] = {ff ? "sim.fast_forward=true" : "sim.fast_forward=false"};
    struct mw_sim *s = builtin_sim(wl, "tiny", sets, 1);
    struct mw_policy_inst bi;
    struct mw_err e;
    if (mw_policy_inst_init(&bi, b, s, NULL, NULL, 0, &e)) fail_msg("bundle %s: %s", b->name, e.msg);
    if (mw_sim_install_bundle(s, &bi, NULL, &e)) fail_msg("bundle %s: %s", b->name, e.msg);
    const struct mw_bundle_ops *ops = (const struct mw_bundle_ops *)b;
    for (int k = 0; k < MW_SLOT_BUNDLE; k++)
        if (ops->members[k]) {
            assert_ptr_equal(s->pol[k].pol, ops->members[k]);
            assert_ptr_equal(s->pol[k].bundle, &s->pol[MW_SLOT_BUNDLE]);
        }
    char what[128];
    snprintf(what, sizeof what, "bundle %s on %s (fast_forward %s)", b->name, wl, ff ? "on" : "off");
    struct mw_err re;
    int rc = mw_sim_run(s, 2000000, &re);
    if (rc < 0) fail_msg("%s: %s", what, re.msg);
    if (rc != 1) fail_msg("%s: not complete", what);
    sr_stats(s, l);
    mw_sim_destroy(s);
}

static void test_bundle_contract(void **st)
{
    (void)st;
    static const char *const wls[] = {"micro.colstride", "rodinia.backprop"};
    const struct mw_policy *const *list = mw_policies(MW_PT_BUNDLE);
    assert_non_null(list);
    assert_non_null(list[0]); /* at least the empty bundle */
    for (int i = 0; list[i]; i++) {
        assert_int_equal(list[i]->point, MW_PT_BUNDLE);
        for (int k = 0; k < 2; k++) {
            struct mw_stat_list a, b, f;
            bundle_run(list[i], wls[k], true, &a);
            bundle_run(list[i], wls[k], true, &b);
            bundle_run(list[i], wls[k], false, &f);
            char what[128];
            snprintf(what, sizeof what, "bundle %s on %s, repeated", list[i]->name, wls[k]);
            sr_same_stats(&a, &b, what);
            snprintf(what, sizeof what, "bundle %s on %s, fast_forward off", list[i]->name, wls[k]);
            sr_same_stats(&a, &f, what);
            assert_true(sr_stat(&a, "gpu.warp_insts") > 0);
            mw_stat_list_fini(&a);
            mw_stat_list_fini(&b);
            mw_stat_list_fini(&f);
        }
    }
}

/* ==== 2. per-line policy bytes ================================================================================
 * A bypass policy that caches everything keeps 2 bytes per line: at every fill (of any line) it reads them and
 * writes EE EE; at each L1D hit on line X it reads them and writes (hits so far, B7). A replacement policy (LRU's
 * rule) keeps 3 bytes: at insert it checks they are zero and writes 11 22 33; at every touch they must still read
 * 11 22 33. One warp, every load waited for:
 *   X (miss; the fill reads 00 00)   X (hit 1: reads EE EE, writes 01 B7)   X (hit 2: reads 01 B7, writes 02 B7)
 *   Y1 Y2 Y3 Y4 in X's set (each fill reads 00 00): Y4 finds no free way and evicts X, the least recently used;
 *   the eviction event still sees 02 B7
 *   X again (miss; whichever way it lands in, the fill reads 00 00: X's old way was cleared when X left, a Y's
 *   way, which held EE EE, when that Y left)   X (hit 3: reads EE EE, not 02 B7).
 * Six fills, all reading 00 00. */
struct meta_ctx {
    struct mw_policy_inst *by, *rp;
    uint8_t hit_read[8][2];
    int nhit;
    uint8_t fill_read[8][2];
    int nfill;
    uint8_t evict_read[2];
    int nevict;
    int inserts, touches, bad_rp; /* replacement side: its bytes not as it left them */
};
static void meta_by_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    struct meta_ctx *c = pi->state;
    uint8_t *m = mw_l1d_meta(pi->sim, pi, ev->sm, ev->set, ev->way);
    assert_non_null(m);
    if (ev->kind == MW_EV_L1D_FILL) {
        if (c->nfill < 8) memcpy(c->fill_read[c->nfill], m, 2);
        c->nfill++;
        m[0] = m[1] = 0xEE;
        return;
    }
    if (ev->addr != SAME_SET(0)) return;
    if (ev->kind == MW_EV_L1D_HIT) {
        if (c->nhit < 8) memcpy(c->hit_read[c->nhit], m, 2);
        c->nhit++;
        m[0] = (uint8_t)c->nhit;
        m[1] = 0xB7;
    } else if (ev->kind == MW_EV_L1D_EVICT) {
        memcpy(c->evict_read, m, 2);
        c->nevict++;
    }
}
static void meta_rp_insert(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *line)
{
    struct meta_ctx *c = pi->state;
    uint8_t *m = line->meta;
    assert_non_null(m);
    assert_ptr_equal(m, mw_l1d_meta(pi->sim, pi, sm, set, way));
    static const uint8_t zero[3];
    if (memcmp(m, zero, 3) != 0) c->bad_rp++;
    memcpy(m, "\x11\x22\x33", 3);
    c->inserts++;
}
static void meta_rp_touch(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *line)
{
    (void)sm, (void)set, (void)way;
    struct meta_ctx *c = pi->state;
    if (memcmp(line->meta, "\x11\x22\x33", 3) != 0) c->bad_rp++;
    c->touches++;
}
static const struct mw_l1d_bypass_ops meta_by = {
    .base = {.point = MW_PT_L1D_BYPASS, .name = "meta_by", .desc = "keeps 2 bytes per line",
             .events = MW_EVB(MW_EV_L1D_HIT) | MW_EVB(MW_EV_L1D_FILL) | MW_EVB(MW_EV_L1D_EVICT),
             .line_meta_bytes = 2, .on_event = meta_by_event},
};
static const struct mw_replacement_ops meta_rp = {
    .base = {.point = MW_PT_REPLACEMENT, .name = "meta_rp", .desc = "LRU keeping 3 bytes per line",
             .line_meta_bytes = 3},
    .victim = victim_lru,
    .insert = meta_rp_insert,
    .touch = meta_rp_touch,
};

static const struct sr_inst meta_w0[] = {
    LDG(2, 0, SAME_SET(0)), ALU(3, 2),  LDG(4, 0, SAME_SET(0)), ALU(5, 4), LDG(6, 0, SAME_SET(0)), ALU(7, 6),
    LDG(8, 0, SAME_SET(1)), LDG(9, 0, SAME_SET(2)), LDG(10, 0, SAME_SET(3)), LDG(11, 0, SAME_SET(4)), ALU(12, 11),
    LDG(13, 0, SAME_SET(0)), ALU(14, 13), LDG(15, 0, SAME_SET(0)), ALU(3, 15)};
static const struct sr_prog meta_prog = {1, {meta_w0}, {NINST(meta_w0)}};

static void test_line_meta_bytes(void **st)
{
    (void)st;
    struct mw_sim *s = prog_sim(&meta_prog, one_sm, 1);
    struct meta_ctx c;
    memset(&c, 0, sizeof c);
    c.by = install(s, MW_PT_L1D_BYPASS, &meta_by.base, &c);
    c.rp = install(s, MW_PT_REPLACEMENT, &meta_rp.base, &c);
    struct mw_stat_list l;
    run_stats(s, "line meta", &l);
    assert_int_equal(c.nhit, 3);
    static const uint8_t want_hits[3][2] = {{0xEE, 0xEE}, {1, 0xB7}, {0xEE, 0xEE}};
    for (int i = 0; i < 3; i++) assert_memory_equal(c.hit_read[i], want_hits[i], 2);
    assert_int_equal(c.nevict, 1);
    static const uint8_t evicted[2] = {2, 0xB7};
    assert_memory_equal(c.evict_read, evicted, 2);
    assert_int_equal(c.nfill, 6);
    static const uint8_t zero[2] = {0, 0};
    for (int i = 0; i < 6; i++) assert_memory_equal(c.fill_read[i], zero, 2);
    /* the replacement policy: X, Y1..Y4, X again = 6 inserts, 3 touches (the three hits), its bytes intact */
    assert_int_equal(c.inserts, 6);
    assert_int_equal(c.touches, 3);
    assert_int_equal(c.bad_rp, 0);
    assert_int_equal(sr_stat(&l, "l1d.hits"), 3);
    /* disjoint areas of the same line: each policy's bytes at its own offset, and after the run both hold what
     * their owner last wrote */
    int way = mw_l1d_find(s, 0, SAME_SET(0));
    assert_true(way >= 0);
    uint8_t *pb = mw_l1d_meta(s, c.by, 0, 0, way), *pr = mw_l1d_meta(s, c.rp, 0, 0, way);
    assert_non_null(pb);
    assert_non_null(pr);
    assert_true(c.by->meta_off != c.rp->meta_off);
    assert_true(pb + 2 <= pr || pr + 3 <= pb);
    static const uint8_t last_by[2] = {3, 0xB7};
    assert_memory_equal(pb, last_by, 2);
    assert_memory_equal(pr, "\x11\x22\x33", 3);
    /* a policy that asked for no bytes gets none */
    assert_null(mw_l1d_meta(s, mw_sim_policy(s, MW_PT_WARP_SCHED), 0, 0, way));
    mw_stat_list_fini(&l);
    mw_sim_destroy(s);
}

/* ==== 3. allocating vs last-touching load; eviction causes ================================================
 * Warp 1 loads X at PC 16 (allocating it), waits for the data, then meets warp 0 at a barrier; warp 0 then loads X
 * at PC 32, a hit, and waits for it. So X was allocated by (PC 16, warp 1) and last touched by (PC 32, warp 0),
 * with one hit (all four nonzero or different, so that a zeroed or swapped field shows). What evicts X then:
 *   replace:    warp 0 loads Y1..Y4 of X's set; Y1..Y3 take the free ways and Y4 must evict X (the only line not
 *               waiting for its fill, and the least recently used anyway);
 *   store:      warp 0 stores to X at PC 64 (write-evict);
 *   flush:      the observer calls mw_l1d_flush when warp 0's load at PC 32 is done;
 *   invalidate: the observer calls mw_l1d_invalidate on X's set and way at the same moment.
 * Exactly one eviction of X must be reported, with pc 32 / warp 0, alloc_pc 16 / alloc_warp 1, one hit, and the
 * cause. A store does not make its PC the last toucher: only hits do. */
enum { EV_REPLACE, EV_STORE, EV_FLUSH, EV_INVALIDATE };
struct toucher_ctx {
    int mode;
    struct evlog evicts;
    int hit_set, hit_way, acted, store_invalidated;
    bool invalidated;
};
static void toucher_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    struct toucher_ctx *c = pi->state;
    if (ev->kind == MW_EV_L1D_EVICT && ev->addr == SAME_SET(0)) evlog_push(&c->evicts, ev);
    if (ev->kind == MW_EV_L1D_HIT && ev->warp == 0 && sr_fe_pc(ev->pc) == 32) c->hit_set = ev->set, c->hit_way = ev->way;
    if (ev->kind == MW_EV_L1D_STORE && ev->addr == SAME_SET(0)) c->store_invalidated += (int)ev->value;
    if (ev->kind == MW_EV_LOAD_DONE && ev->warp == 0 && sr_fe_pc(ev->pc) == 32) {
        c->acted++;
        if (c->mode == EV_FLUSH) mw_l1d_flush(pi->sim, ev->sm);
        if (c->mode == EV_INVALIDATE) c->invalidated = mw_l1d_invalidate(pi->sim, ev->sm, c->hit_set, c->hit_way);
    }
}
static const struct mw_cta_throttle_ops toucher_obs = {
    .base = {.point = MW_PT_CTA_THROTTLE, .name = "toucher_obs", .desc = "watches X",
             .events = MW_EVB(MW_EV_L1D_EVICT) | MW_EVB(MW_EV_L1D_HIT) | MW_EVB(MW_EV_LOAD_DONE) |
                       MW_EVB(MW_EV_L1D_STORE),
             .on_event = toucher_event},
};
static const struct sr_inst toucher_w1[] = {ALU(4, 0), LDG(2, 0, SAME_SET(0)), ALU(3, 2), BAR};
static const struct sr_inst toucher_w0_replace[] = {BAR, ALU(4, 0), LDG(2, 0, SAME_SET(0)), ALU(3, 2),
                                                    LDG(4, 0, SAME_SET(1)), LDG(5, 0, SAME_SET(2)),
                                                    LDG(6, 0, SAME_SET(3)), LDG(7, 0, SAME_SET(4))};
static const struct sr_inst toucher_w0_store[] = {BAR, ALU(4, 0), LDG(2, 0, SAME_SET(0)), ALU(3, 2), STG(SAME_SET(0))};
static const struct sr_inst toucher_w0_plain[] = {BAR, ALU(4, 0), LDG(2, 0, SAME_SET(0)), ALU(3, 2)};

static void test_evict_allocator_and_last_toucher(void **st)
{
    (void)st;
    static const struct {
        int mode;
        const struct sr_inst *w0;
        int n0;
        int cause;
    } cases[] = {
        {EV_REPLACE, toucher_w0_replace, NINST(toucher_w0_replace), MW_EVICT_REPLACE},
        {EV_STORE, toucher_w0_store, NINST(toucher_w0_store), MW_EVICT_STORE},
        {EV_FLUSH, toucher_w0_plain, NINST(toucher_w0_plain), MW_EVICT_FLUSH},
        {EV_INVALIDATE, toucher_w0_plain, NINST(toucher_w0_plain), MW_EVICT_POLICY},
    };
    for (int i = 0; i < 4; i++) {
        struct sr_prog p = {2, {cases[i].w0, toucher_w1}, {cases[i].n0, NINST(toucher_w1)}};
        struct mw_sim *s = prog_sim(&p, one_sm, 1);
        struct toucher_ctx c;
        memset(&c, 0, sizeof c);
        c.mode = cases[i].mode;
        c.hit_way = -1;
        install(s, MW_PT_CTA_THROTTLE, &toucher_obs.base, &c);
        struct mw_stat_list l;
        run_stats(s, "toucher", &l);
        assert_int_equal(c.acted, 1);
        assert_true(c.hit_way >= 0); /* warp 0's load at PC 32 hit */
        if (c.evicts.n != 1) fail_msg("case %d: %d evictions of X, expected 1", i, c.evicts.n);
        const struct mw_event *ev = &c.evicts.v[0];
        assert_int_equal(ev->cause, cases[i].cause);
        assert_int_equal(sr_fe_pc(ev->pc), 32);
        assert_int_equal(ev->warp, 0);
        assert_int_equal(sr_fe_pc(ev->alloc_pc), 16);
        assert_int_equal(ev->alloc_warp, 1);
        assert_int_equal(ev->value, 1); /* hits since fill */
        assert_int_equal(ev->set, 0);
        assert_int_equal(ev->sm, 0);
        if (cases[i].mode == EV_INVALIDATE) {
            assert_true(c.invalidated);
            assert_int_equal(ev->way, c.hit_way);
        }
        if (cases[i].mode == EV_STORE) {
            assert_int_equal(c.store_invalidated, 1);
            assert_int_equal(sr_stat(&l, "l1d.store_invalidates"), 1);
        }
        assert_int_equal(mw_l1d_find(s, 0, SAME_SET(0)), -1); /* X is gone */
        evlog_fini(&c.evicts);
        mw_stat_list_fini(&l);
        mw_sim_destroy(s);
    }
}

/* ==== 4. victim storage =======================================================================================
 * A replacement policy with LRU's victim rule whose evicted() keeps every evicted line (never dropping one) and
 * whose victim_probe() serves a kept line in 5 cycles. One warp, every load waited for.
 *   Case A, in each of sets 0, 1, 2: L0 L1 L2 L3 L4 L0, then L4 of set 0 once more. L4 finds the set full of
 *   filled lines and evicts L0 (least recently used); the second L0 misses L1D and the victim storage has it.
 *   Victim storage: 3 victim hits, 15 misses (L2 reads), 1 L1D hit (the last L4); probes: 6 per set = 18.
 *   Plain LRU: the second L0 of each set is a miss too: 18 misses, 1 hit. L2 accesses drop by 3 = victim hits.
 *   Timing: the ALU waiting for a victim hit issues exactly 5 cycles after the hit; the one waiting for the
 *   L1D hit, l1d.hit_latency = 20 cycles after it.
 *   Case B, set 4: L0..L4 cycled four times. Round 1: five misses, L4 evicts L0. A victim hit allocates nothing,
 *   so rounds 2-4 find L1..L4 still in L1D: each round is one victim hit (L0) and four hits. Victim storage:
 *   3 victim hits, 12 hits, 5 misses. Plain LRU (five lines through four ways): 20 misses, no hit. */
struct vc_ctx {
    uint64_t kept[64];
    int nkept, probes, served, evicted_calls;
    struct evlog vhits, hits;
};
static void vc_evicted(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *line, int cause)
{
    (void)sm, (void)set, (void)way, (void)cause;
    struct vc_ctx *c = pi->state;
    c->evicted_calls++;
    for (int i = 0; i < c->nkept; i++)
        if (c->kept[i] == line->line) return;
    if (c->nkept < 64) c->kept[c->nkept++] = line->line;
}
static uint32_t vc_probe(struct mw_policy_inst *pi, int sm, int set, uint64_t line, uint8_t sectors, int warp,
                         uint64_t pc)
{
    (void)sm, (void)set, (void)sectors, (void)warp, (void)pc;
    struct vc_ctx *c = pi->state;
    c->probes++;
    for (int i = 0; i < c->nkept; i++)
        if (c->kept[i] == line) return c->served++, 5;
    return 0;
}
static void vc_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    struct vc_ctx *c = pi->state;
    evlog_push(ev->way < 0 ? &c->vhits : &c->hits, ev);
}
static const struct mw_replacement_ops vc_repl = {
    .base = {.point = MW_PT_REPLACEMENT, .name = "vc", .desc = "LRU with victim storage",
             .events = MW_EVB(MW_EV_L1D_HIT), .on_event = vc_event},
    .victim = victim_lru,
    .evicted = vc_evicted,
    .victim_probe = vc_probe,
};
static const struct mw_replacement_ops plain_lru = {
    .base = {.point = MW_PT_REPLACEMENT, .name = "plain_lru", .desc = "LRU, events only",
             .events = MW_EVB(MW_EV_L1D_HIT), .on_event = vc_event},
    .victim = victim_lru,
};

static const struct sr_inst vc_a[] = {
    LW(2, LINE(0, 0)), LW(2, LINE(0, 1)), LW(2, LINE(0, 2)), LW(2, LINE(0, 3)), LW(2, LINE(0, 4)), LW(2, LINE(0, 0)),
    LW(2, LINE(1, 0)), LW(2, LINE(1, 1)), LW(2, LINE(1, 2)), LW(2, LINE(1, 3)), LW(2, LINE(1, 4)), LW(2, LINE(1, 0)),
    LW(2, LINE(2, 0)), LW(2, LINE(2, 1)), LW(2, LINE(2, 2)), LW(2, LINE(2, 3)), LW(2, LINE(2, 4)), LW(2, LINE(2, 0)),
    LW(2, LINE(0, 4))};
#define CYCLE5 LW(2, LINE(4, 0)), LW(2, LINE(4, 1)), LW(2, LINE(4, 2)), LW(2, LINE(4, 3)), LW(2, LINE(4, 4))
static const struct sr_inst vc_b[] = {CYCLE5, CYCLE5, CYCLE5, CYCLE5};
static const struct sr_prog vc_a_prog = {1, {vc_a}, {NINST(vc_a)}};
static const struct sr_prog vc_b_prog = {1, {vc_b}, {NINST(vc_b)}};

/* Run prog with policy p (vc or plain LRU); the issue log of the single warp goes to spy. */
static void vc_run(const struct sr_prog *prog, const struct mw_policy *p, struct vc_ctx *c, struct sr_spy *spy,
                   struct mw_stat_list *l)
{
    struct mw_sim *s = prog_sim(prog, one_sm, 1);
    memset(c, 0, sizeof *c);
    install(s, MW_PT_REPLACEMENT, p, c);
    sr_spy_install(spy, s, "gto", NULL, NULL, 0, 256);
    run_stats(s, p->name, l);
    mw_sim_destroy(s);
}

/* The cycle the ALU right after the load whose event is ev issued (one warp: issue i is instruction i). */
static uint64_t alu_after(const struct sr_spy *spy, const struct sr_prog *p, const struct mw_event *ev)
{
    int pos = (int)(sr_fe_pc(ev->pc) / 16) + 1;
    assert_true(pos < p->len[0] && pos < spy->n);
    assert_int_equal(spy->log[pos].op, MW_OP_ALU);
    return spy->log[pos].cycle;
}

static void test_victim_storage(void **st)
{
    (void)st;
    struct vc_ctx c, d;
    struct sr_spy spy, spy2;
    struct mw_stat_list vl, pl;
    /* case A */
    vc_run(&vc_a_prog, &vc_repl.base, &c, &spy, &vl);
    vc_run(&vc_a_prog, &plain_lru.base, &d, &spy2, &pl);
    assert_int_equal(sr_stat(&vl, "l1d.victim_hits"), 3);
    assert_int_equal(c.served, 3);
    assert_int_equal(c.probes, 18);
    assert_int_equal(c.evicted_calls, 3);
    assert_int_equal(sr_stat(&vl, "l1d.misses"), 15);
    assert_int_equal(sr_stat(&vl, "l1d.hits"), 1);
    assert_int_equal(sr_stat(&vl, "l1d.accesses"), 19);
    assert_int_equal(sr_stat(&pl, "l1d.victim_hits"), 0);
    assert_int_equal(sr_stat(&pl, "l1d.misses"), 18);
    assert_int_equal(sr_stat(&pl, "l1d.hits"), 1);
    assert_int_equal(sr_stat(&pl, "l2.accesses") - sr_stat(&vl, "l2.accesses"), 3);
    assert_int_equal(sr_stat(&vl, "l2.accesses"), 15);
    /* the victim hits: L0 of each set, reported as L1D hits with way -1 and value 1 */
    assert_int_equal(c.vhits.n, 3);
    for (int i = 0; i < 3; i++) {
        const struct mw_event *ev = &c.vhits.v[i];
        assert_int_equal(ev->addr, LINE(i, 0));
        assert_int_equal(ev->value, 1);
        assert_int_equal(sr_fe_pc(ev->pc), 16 * (12 * i + 10));
        assert_int_equal(alu_after(&spy, &vc_a_prog, ev) - ev->cycle, 5);
    }
    assert_int_equal(c.hits.n, 1);
    assert_int_equal(alu_after(&spy, &vc_a_prog, &c.hits.v[0]) - c.hits.v[0].cycle, 20);
    /* without victim storage the same loads wait for L2: from the load's issue to its ALU's, far longer */
    assert_int_equal(d.vhits.n, 0);
    for (int i = 0; i < 3; i++) {
        int pos = 12 * i + 10;
        assert_true(spy.log[pos + 1].cycle - spy.log[pos].cycle < 20);
        assert_true(spy2.log[pos + 1].cycle - spy2.log[pos].cycle > 100);
    }
    sr_spy_fini(&spy), sr_spy_fini(&spy2);
    mw_stat_list_fini(&vl), mw_stat_list_fini(&pl);
    evlog_fini(&c.vhits), evlog_fini(&c.hits), evlog_fini(&d.vhits), evlog_fini(&d.hits);

    /* case B */
    vc_run(&vc_b_prog, &vc_repl.base, &c, &spy, &vl);
    vc_run(&vc_b_prog, &plain_lru.base, &d, &spy2, &pl);
    assert_int_equal(sr_stat(&vl, "l1d.victim_hits"), 3);
    assert_int_equal(sr_stat(&vl, "l1d.hits"), 12);
    assert_int_equal(sr_stat(&vl, "l1d.misses"), 5);
    assert_int_equal(sr_stat(&vl, "l2.accesses"), 5);
    assert_int_equal(sr_stat(&pl, "l1d.hits"), 0);
    assert_int_equal(sr_stat(&pl, "l1d.misses"), 20);
    assert_int_equal(sr_stat(&pl, "l2.accesses"), 20);
    /* every access is a hit, a victim hit or a miss sent to L2: the drop is victim hits plus the extra hits */
    assert_int_equal(sr_stat(&pl, "l2.accesses") - sr_stat(&vl, "l2.accesses"),
                     sr_stat(&vl, "l1d.victim_hits") + sr_stat(&vl, "l1d.hits") - sr_stat(&pl, "l1d.hits"));
    for (int i = 0; i < c.vhits.n; i++)
        assert_int_equal(alu_after(&spy, &vc_b_prog, &c.vhits.v[i]) - c.vhits.v[i].cycle, 5);
    sr_spy_fini(&spy), sr_spy_fini(&spy2);
    mw_stat_list_fini(&vl), mw_stat_list_fini(&pl);
    evlog_fini(&c.vhits), evlog_fini(&c.hits), evlog_fini(&d.vhits), evlog_fini(&d.hits);
}

/* ==== 5. bypass verdicts ======================================================================================
 * (a) MW_BYPASS_PROBE, one warp, every load waited for, verdict by PC:
 *   PC 0  X  cache:  miss, X allocated          PC 32 X  probe: X is there, a hit served from L1D
 *   PC 64 Y  probe:  a miss, so bypassed (no line, no MSHR)
 *   PC 96 Y  cache:  a miss again (the probe allocated nothing)
 *   So accesses 3, hits 1, misses 2, bypasses 1, and L2 sees 3 reads. */
struct by_ctx {
    int mode;                /* BY_PC, BY_CACHE, BY_RETRY_BYPASS */
    int calls, calls_retry, bad_cause;
    int y_after_probe;       /* mw_l1d_find of Y when the probe load was done */
};
enum { BY_PC, BY_CACHE, BY_RETRY_BYPASS };
static int by_decide(struct mw_policy_inst *pi, const struct mw_bypass_ctx *bc)
{
    struct by_ctx *c = pi->state;
    c->calls++;
    if (bc->retry != MW_STALL_NONE) {
        c->calls_retry++;
        if (bc->retry != MW_STALL_MSHR) c->bad_cause++;
    }
    switch (c->mode) {
    case BY_PC: return sr_fe_pc(bc->pc) == 32 || sr_fe_pc(bc->pc) == 64 ? MW_BYPASS_PROBE : MW_CACHE;
    case BY_RETRY_BYPASS: return bc->retry == MW_STALL_NONE ? MW_CACHE : MW_BYPASS;
    default: return MW_CACHE;
    }
}
static void by_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    struct by_ctx *c = pi->state;
    if (ev->kind == MW_EV_LOAD_DONE && sr_fe_pc(ev->pc) == 64) c->y_after_probe = mw_l1d_find(pi->sim, ev->sm, SAME_SET(8));
}
static const struct mw_l1d_bypass_ops by_once = {
    .base = {.point = MW_PT_L1D_BYPASS, .name = "by_once", .desc = "verdicts kept", .events = MW_EVB(MW_EV_LOAD_DONE),
             .on_event = by_event},
    .decide = by_decide,
    .retries = false,
};
static const struct mw_l1d_bypass_ops by_retries = {
    .base = {.point = MW_PT_L1D_BYPASS, .name = "by_retries", .desc = "asked again after a failure"},
    .decide = by_decide,
    .retries = true,
};
static const struct sr_inst probe_w0[] = {LW(2, SAME_SET(0)), LW(2, SAME_SET(0)), LW(2, SAME_SET(8)),
                                          LW(2, SAME_SET(8))};
static const struct sr_prog probe_prog = {1, {probe_w0}, {NINST(probe_w0)}};

static void test_bypass_probe(void **st)
{
    (void)st;
    struct mw_sim *s = prog_sim(&probe_prog, one_sm, 1);
    struct by_ctx c = {.mode = BY_PC, .y_after_probe = -2};
    install(s, MW_PT_L1D_BYPASS, &by_once.base, &c);
    struct mw_stat_list l;
    run_stats(s, "probe", &l);
    assert_int_equal(c.calls, 4);
    assert_int_equal(c.y_after_probe, -1);
    assert_int_equal(sr_stat(&l, "l1d.accesses"), 3);
    assert_int_equal(sr_stat(&l, "l1d.hits"), 1);
    assert_int_equal(sr_stat(&l, "l1d.misses"), 2);
    assert_int_equal(sr_stat(&l, "l1d.bypasses"), 1);
    assert_int_equal(sr_stat(&l, "l2.reads"), 3);
    mw_stat_list_fini(&l);
    mw_sim_destroy(s);
}

/* (b) Retries. Two MSHR entries; eight warps each load one line of its own set, so eight single-request loads
 * reach L1D a cycle or two apart, long before the first fill (L2 latency alone is 120 cycles): the first two take
 * the MSHRs, the other six fail for lack of one.
 *   retries = false: decide is asked once per request, 8 calls, however many attempts fail; and the requests
 *   wait exactly as they do without a bypass policy (identical statistics).
 *   retries = true, always cache: asked 8 times fresh plus once per failed attempt, always with cause "mshr".
 *   retries = true, cache then bypass on a retry: each of the six fails once, is bypassed on its retry: 14 calls,
 *   6 failures, 6 bypasses, 2 misses. */
static const struct sr_inst ret_w[8][1] = {{LDG(2, 0, LINE(0, 0))}, {LDG(2, 0, LINE(1, 0))}, {LDG(2, 0, LINE(2, 0))},
                                           {LDG(2, 0, LINE(3, 0))}, {LDG(2, 0, LINE(4, 0))}, {LDG(2, 0, LINE(5, 0))},
                                           {LDG(2, 0, LINE(6, 0))}, {LDG(2, 0, LINE(7, 0))}};
static const struct sr_prog ret_prog = {
    8, {ret_w[0], ret_w[1], ret_w[2], ret_w[3], ret_w[4], ret_w[5], ret_w[6], ret_w[7]}, {1, 1, 1, 1, 1, 1, 1, 1}};

/* Run ret_prog with bypass policy p (NULL: the configured one, "none") answering by `mode`. */
static void by_retry_run(const struct mw_policy *p, int mode, struct by_ctx *c, struct mw_stat_list *l)
{
    static const char *const sets[] = {PI_ONE_SM, "l1d.mshr_entries=2"};
    struct mw_sim *s = prog_sim(&ret_prog, sets, 2);
    memset(c, 0, sizeof *c);
    c->mode = mode;
    if (p) install(s, MW_PT_L1D_BYPASS, p, c);
    run_stats(s, p ? p->name : "no bypass policy", l);
    mw_sim_destroy(s);
}

static void test_bypass_retries(void **st)
{
    (void)st;
    struct by_ctx c;
    struct mw_stat_list l, none;
    by_retry_run(&by_once.base, BY_CACHE, &c, &l);
    assert_true(sr_stat(&l, "l1d.mshr_fail") > 0);
    assert_int_equal(c.calls, 8);
    assert_int_equal(c.calls_retry, 0);
    assert_int_equal(sr_stat(&l, "l1d.misses"), 8);
    /* keeping its first verdict, the request waits exactly as it does without a bypass policy */
    by_retry_run(NULL, BY_CACHE, &c, &none);
    sr_same_stats(&l, &none, "retries = false vs no bypass policy");
    mw_stat_list_fini(&l), mw_stat_list_fini(&none);

    by_retry_run(&by_retries.base, BY_CACHE, &c, &l);
    assert_true(c.calls_retry > 0);
    assert_int_equal(c.calls - c.calls_retry, 8);
    assert_int_equal(c.calls_retry, sr_stat(&l, "l1d.reservation_fails"));
    assert_int_equal(sr_stat(&l, "l1d.mshr_fail"), sr_stat(&l, "l1d.reservation_fails"));
    assert_int_equal(c.bad_cause, 0);
    assert_int_equal(sr_stat(&l, "l1d.misses"), 8);
    mw_stat_list_fini(&l);

    by_retry_run(&by_retries.base, BY_RETRY_BYPASS, &c, &l);
    assert_int_equal(c.calls, 14);
    assert_int_equal(c.calls_retry, 6);
    assert_int_equal(c.bad_cause, 0);
    assert_int_equal(sr_stat(&l, "l1d.mshr_fail"), 6);
    assert_int_equal(sr_stat(&l, "l1d.bypasses"), 6);
    assert_int_equal(sr_stat(&l, "l1d.misses"), 2);
    mw_stat_list_fini(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bundle_shared_state_and_params),
        cmocka_unit_test(test_bundle_slot_conflict),
        cmocka_unit_test(test_install_errors),
        cmocka_unit_test(test_bundle_contract),
        cmocka_unit_test(test_line_meta_bytes),
        cmocka_unit_test(test_evict_allocator_and_last_toucher),
        cmocka_unit_test(test_victim_storage),
        cmocka_unit_test(test_bypass_probe),
        cmocka_unit_test(test_bypass_retries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
