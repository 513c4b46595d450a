/* The OAWS policies (policies/sched_oaws.c) and their competitors (sched_swl.c, sched_ccws.c, mascar.c) on the
 * checks of spec/004_oaws.md §7, each on a case whose answer is worked out in its comment: SMR = 0 is GTO,
 * Eq. 1 with 32 MSHRs and SMR = 50 %, the OCW counter walk, the associativity test of an ATAX-like load, the CCWS
 * score arithmetic, SWL's limit and MASCAR's saturation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "runcmd.h"
#include "simrun.h"

#define OAWS_CFG "experiments/configs/oaws.yaml"

void mw_oaws_ocw(const struct mw_policy_inst *pi, int sm, int *ocw, int *cnt, int *miss_inflight);
int mw_oaws_rank(struct mw_policy_inst *pi, int sm, int sched, int w);
double mw_ccws_score(struct mw_policy_inst *pi, int sm, int w, uint64_t now);
bool mw_mascar_saturated(const struct mw_sim *s, const struct mw_policy_inst *shared, int sm);

static struct mw_sim *oaws_sim(const char *wl, const char *size, const char *const *sets, int nsets)
{
    struct mw_config c;
    struct mw_err e;
    mw_config_defaults(&c);
    if (mw_config_load_file(&c, OAWS_CFG, &e)) fail_msg("config: %s", e.msg);
    for (int i = 0; i < nsets; i++)
        if (mw_config_set(&c, sets[i], &e)) fail_msg("--set %s: %s", sets[i], e.msg);
    struct mw_workload w;
    if (mw_workload_open_builtin(&w, wl, size, 1, &e)) fail_msg("%s: %s", wl, e.msg);
    return sr_sim(&c, &w);
}

static void run_collect(struct mw_sim *s, struct mw_stat_list *l, const char *what)
{
    sr_run(s, 50000000, what);
    sr_stats(s, l);
}

/* Every stat but the policy's own counters and the engine's effort must be bit-identical. */
static void same_machine_stats(const struct mw_stat_list *a, const struct mw_stat_list *b, const char *what)
{
    int n = 0;
    for (int i = 0; i < a->n; i++) {
        if (strncmp(a->v[i].name, "policy.", 7) == 0 || sr_effort_stat(a->v[i].name)) continue;
        const struct mw_stat_entry *x = mw_stat_list_get(b, a->v[i].name);
        if (!x) fail_msg("%s: no %s", what, a->v[i].name);
        if (memcmp(&a->v[i].value, &x->value, sizeof(double)) != 0)
            fail_msg("%s: %s differs: %.17g vs %.17g", what, a->v[i].name, a->v[i].value, x->value);
        n++;
    }
    assert_true(n > 100);
}

/* §7.1: SMR = 0 predicts 0 misses for every divergent load, so Eq. 1 never holds one back and the pick is GTO's:
 * the same machine, cycle for cycle, on a divergent (ATAX: column walks, 32 lines a load) and a graph workload.
 * With the default SMR = 50 % the same ATAX run differs (a policy that did nothing would pass the first half). */
static void test_smr0_is_gto(void **st)
{
    (void)st;
    static const char *const wls[][2] = {{"polybench.atax", "small"}, {"rodinia.bfs", "tiny"}};
    for (int k = 0; k < 2; k++) {
        static const char *const g[] = {"gpu.n_sms=8", "policies.warp_scheduler=gto"};
        static const char *const o[] = {"gpu.n_sms=8", "policies.warp_scheduler=oaws", "policies.warp_scheduler.smr=0"};
        static const char *const h[] = {"gpu.n_sms=8", "policies.warp_scheduler=oaws"};
        struct mw_stat_list a, b, c;
        struct mw_sim *s = oaws_sim(wls[k][0], wls[k][1], g, 2);
        run_collect(s, &a, "gto");
        mw_sim_destroy(s);
        s = oaws_sim(wls[k][0], wls[k][1], o, 3);
        run_collect(s, &b, "oaws smr=0");
        mw_sim_destroy(s);
        same_machine_stats(&a, &b, wls[k][0]);
        assert_int_equal(sr_stat(&b, "policy.warp_scheduler.held"), 0);
        if (k == 0) {
            s = oaws_sim(wls[k][0], wls[k][1], h, 2);
            run_collect(s, &c, "oaws smr=0.5");
            mw_sim_destroy(s);
            assert_true(sr_stat(&c, "policy.warp_scheduler.held") > 0);
            assert_true(sr_stat(&c, "gpu.cycles") != sr_stat(&a, "gpu.cycles"));
            mw_stat_list_fini(&c);
        }
        mw_stat_list_fini(&a);
        mw_stat_list_fini(&b);
    }
}

/* §7.2: 32 MSHRs, SMR = 50 %: a 32-thread divergent load predicts 32 x 0.5 = 16 misses, so Eq. 1 lets one issue
 * only while free MSHRs - in-flight predictions >= 16: never below 16 free MSHRs, and since each such load in
 * flight adds 16, at most 32 / 16 = 2 of them are in flight (issued, not yet through L1D) at once. A spy checks
 * both at every issue of a load whose PC the classifier knows (a PC's first instance in a kernel is predicted
 * coherent: the spy mirrors the classifier from the same LOAD_DONE events). */
static struct {
    const struct mw_warp_sched_ops *real;
    uint64_t pcs[64];
    int npcs, inflight, max_inflight, checked, min_free;
    uint64_t ids[64];
} inv;
static bool inv_known(uint64_t pc)
{
    for (int i = 0; i < inv.npcs; i++)
        if (inv.pcs[i] == pc) return true;
    return false;
}
static void inv_on_issue(struct sr_spy *spy, struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    (void)spy, (void)sched, (void)w;
    if (in->op != MW_OP_LD_GLOBAL || __builtin_popcount(in->mask) != 32 || !inv_known(in->pc)) return;
    int ocw, cnt, fl;
    mw_oaws_ocw(pi, sm, &ocw, &cnt, &fl);
    int free_ = mw_l1d_mshr_free(pi->sim, sm);
    if (free_ - fl < 16) fail_msg("a 16-miss load issued with %d free MSHRs and %d predicted in flight", free_, fl);
    if (free_ < inv.min_free) inv.min_free = free_;
    assert_true(inv.inflight < 64);
    inv.ids[inv.inflight++] = in->id; /* the id the engine gives it (set before issued) */
    if (inv.inflight > inv.max_inflight) inv.max_inflight = inv.inflight;
    inv.checked++;
}
static void inv_on_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    if (ev->kind == MW_EV_KERNEL_START) inv.npcs = 0;
    if (ev->kind == MW_EV_LOAD_DONE) {
        for (int i = 0; i < inv.inflight; i++)
            if (inv.ids[i] == ev->inst) inv.ids[i] = inv.ids[--inv.inflight];
        if (ev->value > 2 && !inv_known(ev->pc) && inv.npcs < 64) inv.pcs[inv.npcs++] = ev->pc;
    }
    inv.real->base.on_event(pi, ev);
}
static void test_eq1_two_loads_16_free(void **st)
{
    (void)st;
    memset(&inv, 0, sizeof inv);
    inv.min_free = 1 << 30;
    static const char *const sets[] = {"gpu.n_sms=1"};
    struct mw_sim *s = oaws_sim("polybench.atax", "small", sets, 1);
    struct sr_spy spy;
    sr_spy_install(&spy, s, "oaws", NULL, NULL, 0, 0);
    inv.real = spy.real;
    spy.on_issue = inv_on_issue;
    /* the spy's copy of the ops is what the engine calls: route its events through the mirror */
    spy.ops.base.on_event = inv_on_event;
    struct mw_stat_list l;
    run_collect(s, &l, "oaws atax");
    assert_true(inv.checked > 100);          /* the check ran on many known divergent loads */
    assert_true(inv.max_inflight <= 2);
    assert_true(inv.min_free >= 16);
    assert_true(sr_stat(&l, "policy.warp_scheduler.held") > 0);
    mw_stat_list_fini(&l);
    mw_sim_destroy(s);
    sr_spy_fini(&spy);
}

/* Feed LOAD_DONE events to an instance without a simulation (on_event only touches the policy's state). */
static void feed(struct mw_policy_inst *pi, uint64_t pc, uint32_t acc, uint32_t sets, uint32_t misses, int times)
{
    for (int i = 0; i < times; i++) {
        struct mw_event ev = {.kind = MW_EV_LOAD_DONE, .sm = 0, .warp = 0, .pc = pc, .value = acc, .aux = misses,
                              .set = (int)sets, .inst = 1000000 + (uint64_t)i};
        pi->pol->on_event(pi, &ev);
    }
}
static void expect_ocw(struct mw_policy_inst *pi, int ocw, int cnt)
{
    int o, c, f;
    mw_oaws_ocw(pi, 0, &o, &c, &f);
    if (o != ocw || c != cnt) fail_msg("OCW %d CNT %d, expected OCW %d CNT %d", o, c, ocw, cnt);
}

/* §7.3: OCW = 2 and CNT = 128 at start, Cmax = 255, Wmax = 48.
 *  255 fully cached divergent loads (32 accesses over 32 sets, no miss): CNT 129..254 for events 1..126, event
 *  127 takes CNT to 255 = Cmax, so OCW 3 and CNT 0 (the literal reset); events 128..255 take CNT to 128.
 *  Then 8 partially cached associativity-sensitive loads (32 accesses into 8 sets: 32 > 1.5 x 8), delta =
 *  ceil(CNT / 2): 128 -> 64 -> 32 -> 16 -> 8 -> 4 -> 2 -> 1 -> 0, and at 0 OCW drops to 2 with CNT = 255.
 *  A partially cached load spread over its sets (12 accesses, 8 sets: 12 = 1.5 x 8, not more) takes delta 1.
 *  Bounds: 400 more partial loads leave OCW at 2 (CNT stops at 0); 48 x 256 fully cached loads stop at OCW 48. */
static void test_ocw_walk(void **st)
{
    (void)st;
    struct mw_policy_inst pi;
    struct mw_err e;
    assert_int_equal(mw_policy_inst_init(&pi, mw_policy_find(MW_PT_WARP_SCHED, "oaws_dyn"), NULL, NULL, NULL, 0, &e), 0);
    expect_ocw(&pi, 2, 128);
    feed(&pi, 0x100, 32, 32, 0, 126);
    expect_ocw(&pi, 2, 254);
    feed(&pi, 0x100, 32, 32, 0, 1);
    expect_ocw(&pi, 3, 0);
    feed(&pi, 0x100, 32, 32, 0, 128);
    expect_ocw(&pi, 3, 128);
    /* ocw_sum (OCW after each event): events 1..126 at 2, 127..255 at 3: 126 x 2 + 129 x 3 = 639 */
    assert_int_equal(pi.counters.v[6].value, 639);
    assert_string_equal(pi.counters.v[6].name, "ocw_sum");
    static const int walk[] = {64, 32, 16, 8, 4, 2, 1};
    for (int i = 0; i < 7; i++) {
        feed(&pi, 0x200, 32, 8, 5, 1);
        expect_ocw(&pi, 3, walk[i]);
    }
    feed(&pi, 0x200, 32, 8, 5, 1);
    expect_ocw(&pi, 2, 255);
    feed(&pi, 0x300, 12, 8, 1, 1);
    expect_ocw(&pi, 2, 254);
    feed(&pi, 0x300, 12, 8, 1, 400);
    expect_ocw(&pi, 2, 0);
    feed(&pi, 0x100, 32, 32, 0, 48 * 256);
    expect_ocw(&pi, 48, 255);
    mw_policy_inst_fini(&pi);
}

/* The GTO rank Miss_pred adds for thrashing warps (spec §1.4 [I]). ATAX small on one SM after one cycle: the
 * first CTA's 8 warps live, slots 0-7 in launch (age) order. Scheduler 0 last issued warp 6, scheduler 1 warp 5:
 *   greedy_first (default): the greedy warps first, by age (5: rank 0, 6: rank 1), then the rest by age
 *     (0 -> 2, 1 -> 3, 2 -> 4, 3 -> 5, 4 -> 6, 7 -> 7), so with OCW = 2 warps 5 and 6 predict 0;
 *   greedy_first = false: age alone, rank = slot (5 -> 5, 6 -> 6, 0 -> 0): warps 0 and 1 are the locality warps. */
static void test_oaws_rank(void **st)
{
    (void)st;
    for (int gf = 1; gf >= 0; gf--) {
        static const char *const on[] = {"gpu.n_sms=1", "policies.warp_scheduler=oaws_dyn"};
        static const char *const off[] = {"gpu.n_sms=1", "policies.warp_scheduler=oaws_dyn",
                                          "policies.warp_scheduler.greedy_first=false"};
        struct mw_sim *s = oaws_sim("polybench.atax", "small", gf ? on : off, gf ? 2 : 3);
        struct mw_err e;
        assert_int_equal(mw_sim_run(s, 1, &e), 0);
        struct mw_policy_inst *pi = mw_sim_policy(s, MW_PT_WARP_SCHED);
        const struct mw_warp_sched_ops *ops = (const struct mw_warp_sched_ops *)pi->pol;
        struct mw_inst alu = {.op = MW_OP_ALU, .mask = 0xffffffffu};
        ops->issued(pi, 0, 0, 6, &alu);
        ops->issued(pi, 0, 1, 5, &alu);
        static const int w[] = {5, 6, 0, 1, 3, 4, 7}, r_gf[] = {0, 1, 2, 3, 5, 6, 7}, r_age[] = {5, 6, 0, 1, 3, 4, 7};
        for (int i = 0; i < 7; i++)
            assert_int_equal(mw_oaws_rank(pi, 0, w[i] % 2, w[i]), gf ? r_gf[i] : r_age[i]);
        mw_sim_destroy(s);
    }
}

/* §7.4: the ATAX divergent load sends 32 requests into 8 of the 32 sets: 32 > 1.5 x 8, associativity-sensitive,
 * so one partial outcome from CNT = 128 takes ceil(128 / 2) = 64 off (CNT 64), where a load over 32 sets takes
 * 1 off (CNT 127). The real ATAX model, run with the Fermi hash, is flagged too (the counter of such events). */
static void test_atax_assoc_sensitive(void **st)
{
    (void)st;
    struct mw_policy_inst pi;
    struct mw_err e;
    const struct mw_policy *p = mw_policy_find(MW_PT_WARP_SCHED, "oaws_dyn");
    assert_int_equal(mw_policy_inst_init(&pi, p, NULL, NULL, NULL, 0, &e), 0);
    feed(&pi, 0x400, 32, 8, 32, 1);
    expect_ocw(&pi, 2, 64);
    mw_policy_inst_fini(&pi);
    assert_int_equal(mw_policy_inst_init(&pi, p, NULL, NULL, NULL, 0, &e), 0);
    feed(&pi, 0x400, 32, 32, 32, 1);
    expect_ocw(&pi, 2, 127);
    mw_policy_inst_fini(&pi);
}

/* CCWS score arithmetic without a simulation (InstTotal taken as 1, 48 live warps): warp 3 loses line L to
 * replacement at cycle 10 (its tag enters warp 3's victim tags), misses on L at cycle 20: one VTA hit, so
 * LLDS = (1 / 1) x 8 x (48 x 100) = 38400 and the score is 100 + 38400 = 38500 at cycle 20, 38500 - 100 = 38400
 * at cycle 120 (one point a cycle), back to 100 from cycle 38420 on. A second miss on L finds no tag (it left
 * the VTA on the hit); warp 5 missing on a line warp 3 lost is no hit for warp 5. */
static void test_ccws_scores(void **st)
{
    (void)st;
    struct mw_policy_inst pi;
    struct mw_err e;
    assert_int_equal(mw_policy_inst_init(&pi, mw_policy_find(MW_PT_WARP_SCHED, "ccws"), NULL, NULL, NULL, 0, &e), 0);
    const uint64_t L = 0x10000080;
    struct mw_event ev = {.kind = MW_EV_L1D_EVICT, .sm = 0, .addr = L, .alloc_warp = 3, .cause = MW_EVICT_REPLACE,
                          .cycle = 10};
    pi.pol->on_event(&pi, &ev);
    assert_true(mw_ccws_score(&pi, 0, 3, 10) == 100);
    struct mw_event miss5 = {.kind = MW_EV_L1D_MISS, .sm = 0, .warp = 5, .addr = L, .cycle = 15};
    pi.pol->on_event(&pi, &miss5);
    assert_true(mw_ccws_score(&pi, 0, 5, 15) == 100);
    struct mw_event miss = {.kind = MW_EV_L1D_MISS, .sm = 0, .warp = 3, .addr = L, .cycle = 20};
    pi.pol->on_event(&pi, &miss);
    assert_true(mw_ccws_score(&pi, 0, 3, 20) == 38500);
    assert_true(mw_ccws_score(&pi, 0, 3, 120) == 38400);
    assert_true(mw_ccws_score(&pi, 0, 3, 38420) == 100);
    miss.cycle = 30;
    pi.pol->on_event(&pi, &miss); /* no tag left: unchanged */
    assert_true(mw_ccws_score(&pi, 0, 3, 30) == 38490);
    assert_int_equal(pi.counters.v[0].value, 1); /* vta_hits */
    mw_policy_inst_fini(&pi);
}

/* CCWS's priority (OAWS Sec. 5: "the warp that has the largest locality loss is exclusively prioritized"), after
 * one cycle of ATAX on one SM (8 live warps, no instruction issued yet: LLDS divides by 1). Warps 6, 3, 3 each
 * lose a line and miss on it (SM VTA hits 1, 2, 3), LLDS = hits x 8 x (8 live x 100) = 6400 x hits:
 *   warp 6: 100 + 6400 = 6500;   warp 3: 100 + 12800 + 19200 = 32100.
 * Picks (GTO alone: the oldest ready warp, the first listed, index 0):
 *   ready {1, 3, 5}: warp 3, the largest score -> index 1;   ready {1, 6, 5}: warp 6, above the base -> index 1;
 *   ready {1, 5}: nobody above the base -> GTO, index 0;     prio_score = false: index 0 every time. */
static void test_ccws_prio(void **st)
{
    (void)st;
    for (int prio = 1; prio >= 0; prio--) {
        static const char *const on[] = {"gpu.n_sms=1", "policies.warp_scheduler=ccws"};
        static const char *const off[] = {"gpu.n_sms=1", "policies.warp_scheduler=ccws",
                                          "policies.warp_scheduler.prio_score=false"};
        struct mw_sim *s = oaws_sim("polybench.atax", "small", prio ? on : off, prio ? 2 : 3);
        struct mw_err e;
        assert_int_equal(mw_sim_run(s, 1, &e), 0); /* one cycle: the CTAs are resident, warps live */
        struct mw_policy_inst *pi = mw_sim_policy(s, MW_PT_WARP_SCHED);
        uint64_t now = mw_now(s);
        const uint64_t L[3] = {0x70000080, 0x70001080, 0x70002080};
        const int who[3] = {6, 3, 3};
        for (int k = 0; k < 3; k++) {
            struct mw_event ev = {.kind = MW_EV_L1D_EVICT, .sm = 0, .addr = L[k], .alloc_warp = who[k],
                                  .cause = MW_EVICT_REPLACE, .cycle = now};
            pi->pol->on_event(pi, &ev);
            struct mw_event miss = {.kind = MW_EV_L1D_MISS, .sm = 0, .warp = who[k], .addr = L[k], .cycle = now};
            pi->pol->on_event(pi, &miss);
        }
        double s3 = mw_ccws_score(pi, 0, 3, now), s6 = mw_ccws_score(pi, 0, 6, now);
        assert_true(s3 == 32100 && s6 == 6500);
        const struct mw_warp_sched_ops *ops = (const struct mw_warp_sched_ops *)pi->pol;
        static const uint16_t r1[] = {1, 3, 5}, r2[] = {1, 6, 5}, r3[] = {1, 5};
        assert_int_equal(ops->pick(pi, 0, 1, r1, 3), prio ? 1 : 0);
        assert_int_equal(ops->pick(pi, 0, 0, r2, 3), prio ? 1 : 0);
        assert_int_equal(ops->pick(pi, 0, 1, r3, 2), 0);
        mw_sim_destroy(s);
    }
}

/* CCWS throttling in a run: ATAX's column walks lose their lines (VTA hits), the cutoff then holds loads back,
 * and the L1D hit rate rises over GTO's (the point of CCWS) while the instruction count is unchanged. */
static void test_ccws_throttles(void **st)
{
    (void)st;
    static const char *const g[] = {"gpu.n_sms=4", "policies.warp_scheduler=gto"};
    static const char *const c[] = {"gpu.n_sms=4", "policies.warp_scheduler=ccws"};
    struct mw_stat_list a, b;
    struct mw_sim *s = oaws_sim("polybench.atax", "small", g, 2);
    run_collect(s, &a, "gto");
    mw_sim_destroy(s);
    s = oaws_sim("polybench.atax", "small", c, 2);
    run_collect(s, &b, "ccws");
    mw_sim_destroy(s);
    assert_true(sr_stat(&b, "policy.warp_scheduler.vta_hits") > 0);
    assert_true(sr_stat(&b, "policy.warp_scheduler.throttled") > 0);
    assert_true(sr_stat(&b, "l1d.hits") > sr_stat(&a, "l1d.hits"));
    assert_true(sr_stat(&a, "gpu.warp_insts") == sr_stat(&b, "gpu.warp_insts"));
    mw_stat_list_fini(&a);
    mw_stat_list_fini(&b);
}

/* SWL with limit 1 on one scheduler: only the oldest live warp issues (the chains of test_policy_behaviour: W0
 * runs to its EXIT, then W1, then W2, each to completion, whatever their readiness). */
static void test_swl_limit(void **st)
{
    (void)st;
    static const struct sr_inst w0[] = {{MW_OP_ALU, 2, 0, 0, 0}, {MW_OP_ALU, 3, 2, 0, 0}};
    static const struct sr_inst w1[] = {{MW_OP_ALU, 4, 0, 0, 0}, {MW_OP_ALU, 5, 4, 0, 0}};
    static const struct sr_inst w2[] = {{MW_OP_ALU, 4, 0, 0, 0}};
    static const struct sr_prog prog = {3, {w0, w1, w2}, {2, 2, 1}};
    static const char *const sets[] = {"gpu.n_sms=1", "sm.n_schedulers=1"};
    struct mw_config cfg;
    sr_config(&cfg, sets, 2);
    cfg.l1i.enabled = false;
    struct mw_workload w;
    sr_prog_workload(&w, &prog);
    struct mw_sim *s = sr_sim(&cfg, &w);
    struct sr_spy spy;
    static const char *const k[] = {"limit"}, *const v[] = {"1"};
    sr_spy_install(&spy, s, "swl", k, v, 1, 16);
    sr_run(s, 100000, "swl");
    mw_sim_destroy(s);
    static const int want[] = {0, 0, 0, 1, 1, 1, 2, 2};
    assert_int_equal(spy.n, 8);
    for (int i = 0; i < 8; i++)
        if (spy.log[i].warp != want[i]) fail_msg("issue %d by warp %d, expected %d", i, spy.log[i].warp, want[i]);
    /* W0's second ALU waits 4 cycles for the first (ALU latency 4): W1 and W2 are ready but outside the limit */
    assert_int_equal(spy.log[1].cycle - spy.log[0].cycle, 4);
    sr_spy_fini(&spy);
}

/* MASCAR's saturation: with 32 MSHRs and sat_mshr = 1 the SM is saturated exactly when at most 1 MSHR or 1
 * memory-port slot is free. Stepping ATAX (32-line loads) cycle by cycle, the bundle's verdict follows the MSHR
 * and port counts both ways (it enters and leaves), and a non-owner warp is refused a memory instruction only
 * while saturated. */
static void test_mascar_saturation(void **st)
{
    (void)st;
    static const char *const sets[] = {"gpu.n_sms=1", "policies.bundle=mascar"};
    struct mw_config c;
    struct mw_err e;
    mw_config_defaults(&c);
    if (mw_config_load_file(&c, OAWS_CFG, &e)) fail_msg("config: %s", e.msg);
    for (int i = 0; i < 2; i++)
        if (mw_config_set(&c, sets[i], &e)) fail_msg("%s: %s", sets[i], e.msg);
    struct mw_workload w;
    if (mw_workload_open_builtin(&w, "polybench.atax", "small", 1, &e)) fail_msg("%s", e.msg);
    struct mw_sim *s = sr_sim(&c, &w);
    int enter = 0, leave = 0, sat_cycles = 0, steps = 0;
    bool prev = false;
    for (int t = 0; t < 200000 && !mw_sim_done(s); t++, steps++) {
        assert_true(mw_sim_run(s, 1, &e) >= 0);
        const struct mw_policy_inst *b = mw_sim_policy(s, MW_PT_WARP_SCHED)->bundle;
        bool sat = mw_mascar_saturated(s, b, 0);
        bool want = mw_l1d_mshr_free(s, 0) <= 1 || mw_l1d_missq_size(s) - mw_l1d_missq_used(s, 0) <= 1;
        assert_int_equal(sat, want);
        if (sat && !prev) enter++;
        if (!sat && prev) leave++;
        sat_cycles += sat;
        prev = sat;
    }
    assert_true(enter > 0 && leave > 0);
    assert_true(sat_cycles > 0 && sat_cycles < steps); /* saturated some of the time, not all of it */
    struct mw_stat_list l;
    sr_stats(s, &l);
    assert_true(sr_stat(&l, "policy.bundle.owners") > 0);
    mw_stat_list_fini(&l);
    mw_sim_destroy(s);
}

/* The Lua twin of static OAWS (tests/lua/pol_oaws.lua) gives every counter of the C policy, `held` included, on
 * ATAX, BFS and MVT at SMR 25 % (tests/lua/oaws_twin.lua compares them and fails on any difference). */
static void test_lua_twin(void **st)
{
    (void)st;
    static char out[1 << 14];
    int rc = run_cmd("'" MW_BINARY "' tests/lua/oaws_twin.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  oaws twin polybench.atax   smr 0.50"));
    assert_non_null(strstr(out, "ok  oaws twin polybench.mvt    smr 0.25"));
    assert_non_null(strstr(out, "counters compared"));
}

/* Fig. 5's toy (tests/lua/oaws_fig5.lua: 8 MSHRs, warps issuing 6 / 6 / 2 requests): under GTO C's load completes
 * after the occluding B's, under OAWS (SMR 100 %) B is held and C's load completes first, with no MSHR stall. */
static void test_fig5(void **st)
{
    (void)st;
    static char out[1 << 14];
    int rc = run_cmd("'" MW_BINARY "' tests/lua/oaws_fig5.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  fig5 GTO:"));
    assert_non_null(strstr(out, "ok  fig5 OAWS:"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_smr0_is_gto),         cmocka_unit_test(test_eq1_two_loads_16_free),
        cmocka_unit_test(test_ocw_walk),            cmocka_unit_test(test_atax_assoc_sensitive),
        cmocka_unit_test(test_ccws_scores),         cmocka_unit_test(test_ccws_throttles),
        cmocka_unit_test(test_ccws_prio),         cmocka_unit_test(test_oaws_rank),
        cmocka_unit_test(test_swl_limit),           cmocka_unit_test(test_mascar_saturation),
        cmocka_unit_test(test_lua_twin),            cmocka_unit_test(test_fig5),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
