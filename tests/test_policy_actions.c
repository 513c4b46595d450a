/* What the policy interface's actions and shared services do, on hand-built cases whose answer is worked out
 * in the comments: qualify verdicts kept by declared dependencies (with mw_sched_recheck), CTA deactivation and
 * reactivation, injected traffic, per-policy windows, counters and start/finish hooks, instruction ids on
 * events, and the L2's own replacement slot. The per-decision features are in test_policy_iface.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "addrmap.h"
#include "partition.h"
#include "policy_iface.h"

static const char *const one_sm[] = {PI_ONE_SM};

/* ==== 6. qualify verdicts kept by declared dependencies ======================================================
 * (a) Each global load, when qualify first sees it at the head of its warp, is held for 40 cycles: qualify
 * vetoes it and names the cycle it may go with mw_sched_recheck. The verdict depends on the head instruction and
 * on time, and the time is declared, so with qualify_deps = MW_QDEP_HEAD the engine may keep verdicts (and let the
 * SM sleep) without changing anything: the run's statistics must equal those without deps (asked every cycle),
 * with far fewer calls.
 * (b) Two rules on the SM's free L1D MSHRs (k = 24 of 32): a global load may go only while at least k are free;
 * or, a rule that an MSHR being taken can turn from no to yes: even warps issue freely, odd warps (any
 * instruction) only while no MSHR is in use or fewer than k are free. Either verdict depends on the head and on
 * the MSHR count only, so deps {MSHR, ISSUE}, and deps {MSHR} alone, must give the statistics of deps 0 (the
 * latter on one scheduler per SM, see test_qualify_deps_head_stall_split for why). */
#define QMAXSM 15
#define QMAXW 48
struct q_ctx {
    int mode; /* 0: hold loads 40 cycles, 1: at least k MSHRs free, 2: odd warps: all or fewer than k free */
    int k;
    uint64_t calls, vetoes;
    uint64_t key[QMAXSM][QMAXW], until[QMAXSM][QMAXW];
};
static bool q_qualify(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    (void)sched;
    struct q_ctx *c = pi->state;
    c->calls++;
    bool ok;
    if (c->mode == 2) {
        int free = mw_l1d_mshr_free(pi->sim, sm);
        ok = w % 2 == 0 || free == (int)mw_sim_config(pi->sim)->l1d.mshr_entries || free < c->k;
    } else if (in->op != MW_OP_LD_GLOBAL) {
        ok = true;
    } else if (c->mode == 1) {
        ok = mw_l1d_mshr_free(pi->sim, sm) >= c->k;
    } else {
        /* a head instruction is known by the warp (launch order) and how many it issued before it */
        uint64_t key = (mw_warp_age(pi->sim, sm, w) << 20 | mw_warp_insts(pi->sim, sm, w)) + 1;
        uint64_t now = mw_now(pi->sim);
        if (c->key[sm][w] != key) c->key[sm][w] = key, c->until[sm][w] = now + 40;
        ok = now >= c->until[sm][w];
        if (!ok) mw_sched_recheck(pi->sim, sm, c->until[sm][w]);
    }
    c->vetoes += !ok;
    return ok;
}
#define Q_OPS(nm, deps)                                                                                     \
    static const struct mw_warp_sched_ops nm = {                                                          \
        .base = {.point = MW_PT_WARP_SCHED, .name = #nm, .desc = "oldest, with a qualify"},              \
        .pick = pick_oldest,                                                                               \
        .qualify = q_qualify,                                                                              \
        .qualify_deps = deps,                                                                              \
    }
Q_OPS(q_nodeps, 0);
Q_OPS(q_head, MW_QDEP_HEAD);
Q_OPS(q_mshr, MW_QDEP_MSHR | MW_QDEP_ISSUE);
Q_OPS(q_mshr_only, MW_QDEP_MSHR);

static void q_run(const struct mw_policy *p, struct q_ctx *c, int mode, int k, int nsched, struct mw_stat_list *l)
{
    char set[48];
    snprintf(set, sizeof set, "sm.n_schedulers=%d", nsched);
    const char *sets[] = {set};
    struct mw_sim *s = builtin_sim("rodinia.bfs", "tiny", sets, 1);
    memset(c, 0, sizeof *c);
    c->mode = mode;
    c->k = k;
    assert_true(mw_n_sms(s) <= QMAXSM && mw_max_warps(s) <= QMAXW);
    install(s, MW_PT_WARP_SCHED, p, c);
    run_stats(s, p->name, l);
    mw_sim_destroy(s);
}

/* Is `name` sm.stall_ldst or sm.stall_policy, total or of one SM? */
static bool is_ldst_or_policy_stall(const char *name)
{
    if (strncmp(name, "sm.", 3) != 0) return false;
    const char *last = strrchr(name, '.');
    return strcmp(last, ".stall_ldst") == 0 || strcmp(last, ".stall_policy") == 0;
}

/* a and b agree on every statistic except the split of stall cycles between the LDST unit and the policy,
 * whose sum must agree. */
static void same_but_ldst_policy_split(const struct mw_stat_list *a, const struct mw_stat_list *b, const char *what)
{
    assert_int_equal(a->n, b->n);
    for (int i = 0; i < a->n; i++) {
        assert_string_equal(a->v[i].name, b->v[i].name);
        if (!is_ldst_or_policy_stall(a->v[i].name) && !sr_effort_stat(a->v[i].name) && a->v[i].value != b->v[i].value)
            fail_msg("%s: %s differs: %.17g vs %.17g", what, a->v[i].name, a->v[i].value, b->v[i].value);
    }
    assert_int_equal(sr_stat(a, "sm.stall_ldst") + sr_stat(a, "sm.stall_policy"),
                     sr_stat(b, "sm.stall_ldst") + sr_stat(b, "sm.stall_policy"));
}

static void test_qualify_deps_head(void **st)
{
    (void)st;
    struct q_ctx *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    assert_non_null(a), assert_non_null(b);
    struct mw_stat_list la, lb;
    /* one scheduler per SM: every statistic agrees */
    q_run(&q_nodeps.base, a, 0, 0, 1, &la);
    q_run(&q_head.base, b, 0, 0, 1, &lb);
    assert_true(sr_stat(&la, "sm.stall_policy") > 0); /* the hold did hold warps */
    sr_same_stats(&la, &lb, "hold 40 cycles, one scheduler: deps HEAD vs none");
    if (b->calls * 4 > a->calls)
        fail_msg("qualify asked %llu times with deps, %llu without", (unsigned long long)b->calls,
                 (unsigned long long)a->calls);
    mw_stat_list_fini(&la), mw_stat_list_fini(&lb);
    /* two schedulers: the same timing; see test_qualify_deps_head_stall_split for the split */
    q_run(&q_nodeps.base, a, 0, 0, 2, &la);
    q_run(&q_head.base, b, 0, 0, 2, &lb);
    same_but_ldst_policy_split(&la, &lb, "hold 40 cycles, two schedulers: deps HEAD vs none");
    assert_true(b->calls * 4 < a->calls);
    mw_stat_list_fini(&la), mw_stat_list_fini(&lb);
    free(a), free(b);
}

/* The same with two schedulers, every statistic: fails. A vetoed warp whose head is a global load counts as a
 * policy stall when the LDST unit could take it and as an LDST stall when it could not (warp_status checks the
 * unit before qualify is consulted). With deps HEAD its scheduler sleeps on the kept veto and keeps counting
 * its last stall class (engine/sm.c schedule(), the early return on !sched_dirty && now < sched_sleep), while the
 * other scheduler's issues fill and drain the shared LDST unit without waking it (issue() wakes the schedulers
 * only for MW_QDEP_ISSUE). Asked every cycle, the class follows the unit. So sm.stall_policy and sm.stall_ldst
 * split differently (on BFS tiny: 69979 / 42931 vs 64159 / 48751), though every timing statistic agrees; with
 * deps HEAD | ISSUE, or one scheduler, they agree. */
static void test_qualify_deps_head_stall_split(void **st)
{
    (void)st;
    struct q_ctx *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    assert_non_null(a), assert_non_null(b);
    struct mw_stat_list la, lb;
    q_run(&q_nodeps.base, a, 0, 0, 2, &la);
    q_run(&q_head.base, b, 0, 0, 2, &lb);
    sr_same_stats(&la, &lb, "hold 40 cycles, two schedulers: deps HEAD vs none");
    mw_stat_list_fini(&la), mw_stat_list_fini(&lb);
    free(a), free(b);
}

static void test_qualify_deps_mshr(void **st)
{
    (void)st;
    struct q_ctx *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    assert_non_null(a), assert_non_null(b);
    for (int mode = 1; mode <= 2; mode++) {
        struct mw_stat_list la, lb;
        q_run(&q_nodeps.base, a, mode, 24, 2, &la);
        q_run(&q_mshr.base, b, mode, 24, 2, &lb);
        assert_true(a->vetoes > 0);
        assert_true(b->vetoes > 0);
        sr_same_stats(&la, &lb, mode == 1 ? "at least 24 MSHRs free: deps MSHR|ISSUE vs none"
                                          : "odd warps, all or under 24 MSHRs free: deps MSHR|ISSUE vs none");
        assert_true(b->calls < a->calls);
        mw_stat_list_fini(&la), mw_stat_list_fini(&lb);
        /* deps MSHR alone (the rules do not look at issues), one scheduler */
        q_run(&q_nodeps.base, a, mode, 24, 1, &la);
        q_run(&q_mshr_only.base, b, mode, 24, 1, &lb);
        sr_same_stats(&la, &lb, mode == 1 ? "at least 24 MSHRs free: deps MSHR vs none"
                                          : "odd warps, all or under 24 MSHRs free: deps MSHR vs none");
        assert_true(b->calls < a->calls);
        mw_stat_list_fini(&la), mw_stat_list_fini(&lb);
    }
    free(a), free(b);
}

/* ==== 7. CTA deactivate / reactivate =========================================================================
 * On one SM running BACKPROP (several CTAs resident at once), an observer deactivates hardware CTA slot 0 when
 * the first CTA is placed there and reactivates it at its first window (1000 cycles). A spy on GTO counts issues
 * by slot 0's warps: none before the reactivation, some after it (the first CTA then completes), while the other
 * CTAs keep issuing meanwhile. Deactivating twice, or reactivating an active CTA, changes nothing and returns -1. */
struct cta_ctx {
    bool deactivated, reactivated;
    uint32_t first_id;
    uint64_t deact_cycle, react_cycle, done_cycle;
    int rc_second_deact, rc_second_react;
    bool active_after_deact, active_after_react;
    int issued_inactive, issued_after, issued_others_meanwhile;
    int windows;
};
static void cta_start(struct mw_policy_inst *pi) { mw_window_set(pi, 1000); }
static void cta_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    struct cta_ctx *c = pi->state;
    struct mw_sim *s = pi->sim;
    if (ev->kind == MW_EV_CTA_LAUNCH && ev->cta == 0 && !c->deactivated) {
        assert_int_equal(mw_cta_deactivate(s, ev->sm, 0), 0);
        c->rc_second_deact = mw_cta_deactivate(s, ev->sm, 0);
        c->active_after_deact = mw_cta_active(s, ev->sm, 0);
        c->deactivated = true;
        c->first_id = ev->value;
        c->deact_cycle = ev->cycle;
    } else if (ev->kind == MW_EV_WINDOW) {
        c->windows++;
        assert_int_equal(mw_cta_reactivate(s, 0, 0), 0);
        c->rc_second_react = mw_cta_reactivate(s, 0, 0);
        c->active_after_react = mw_cta_active(s, 0, 0);
        c->reactivated = true;
        c->react_cycle = ev->cycle;
        mw_window_set(pi, 0); /* one window is enough */
    } else if (ev->kind == MW_EV_CTA_DONE && ev->cta == 0 && ev->value == c->first_id) {
        c->done_cycle = ev->cycle;
    }
}
static const struct mw_cta_throttle_ops cta_toggle = {
    .base = {.point = MW_PT_CTA_THROTTLE, .name = "cta_toggle", .desc = "stops slot 0 for a while",
             .events = MW_EVB(MW_EV_CTA_LAUNCH) | MW_EVB(MW_EV_WINDOW) | MW_EVB(MW_EV_CTA_DONE),
             .on_event = cta_event, .start = cta_start},
};
static void cta_on_issue(struct sr_spy *spy, struct mw_policy_inst *pi, int sm, int sched, int w,
                         const struct mw_inst *in)
{
    (void)sched, (void)in;
    struct cta_ctx *c = spy->ud;
    bool slot0 = mw_warp_cta(pi->sim, sm, w) == 0;
    if (c->deactivated && !c->reactivated) {
        if (slot0) c->issued_inactive++;
        else c->issued_others_meanwhile++;
    } else if (c->reactivated && !c->done_cycle && slot0) {
        c->issued_after++;
    }
}

static void test_cta_deactivate_reactivate(void **st)
{
    (void)st;
    struct mw_sim *s = builtin_sim("rodinia.backprop", "tiny", one_sm, 1);
    struct cta_ctx c;
    memset(&c, 0, sizeof c);
    install(s, MW_PT_CTA_THROTTLE, &cta_toggle.base, &c);
    struct sr_spy spy;
    sr_spy_install(&spy, s, "gto", NULL, NULL, 0, 0);
    spy.on_issue = cta_on_issue;
    spy.ud = &c;
    struct mw_stat_list l;
    run_stats(s, "cta toggle", &l);
    assert_true(c.deactivated && c.reactivated);
    assert_int_equal(c.windows, 1);
    assert_int_equal(c.react_cycle, 999); /* the first window ends with core cycle 999 */
    assert_int_equal(c.rc_second_deact, -1);
    assert_int_equal(c.rc_second_react, -1);
    assert_false(c.active_after_deact);
    assert_true(c.active_after_react);
    assert_int_equal(c.issued_inactive, 0);
    assert_true(c.issued_others_meanwhile > 0);
    assert_true(c.issued_after > 0);
    assert_true(c.done_cycle > c.react_cycle);
    assert_int_equal(sr_stat(&l, "sm.ctas_deactivated"), 1);
    assert_int_equal(sr_stat(&l, "sm.ctas_reactivated"), 1);
    assert_int_equal(mw_cta_reactivate(s, 0, 0), -1); /* nothing resident any more */
    sr_spy_fini(&spy);
    mw_stat_list_fini(&l);
    mw_sim_destroy(s);
}

/* With one CTA, deactivated at launch and reactivated by the policy's window, nothing else is left to do while
 * it waits: the clock must still reach the window. With fast-forward off it does; with it on, the jump to the next
 * event finds no unit with work and reports a deadlock, because engine/sim.c try_jump() tests for "no pending
 * event" before it takes the policies' windows (s->next_window) into account. */
static const struct sr_inst lone_w0[] = {ALU(2, 0), ALU(3, 2)};
static const struct sr_prog lone_prog = {1, {lone_w0}, {NINST(lone_w0)}};

static void test_cta_reactivated_by_window_alone(void **st)
{
    (void)st;
    for (int ff = 0; ff < 2; ff++) {
        const char *sets[] = {PI_ONE_SM, ff ? "sim.fast_forward=true" : "sim.fast_forward=false"};
        struct mw_sim *s = prog_sim(&lone_prog, sets, 2);
        struct cta_ctx c;
        memset(&c, 0, sizeof c);
        install(s, MW_PT_CTA_THROTTLE, &cta_toggle.base, &c);
        struct mw_stat_list l;
        run_stats(s, ff ? "lone CTA, fast-forward on" : "lone CTA, fast-forward off", &l);
        assert_true(c.reactivated);
        assert_true(sr_stat(&l, "gpu.cycles") > 1000);
        mw_stat_list_fini(&l);
        mw_sim_destroy(s);
    }
}

/* ==== 8. injected traffic ======================================================================================
 * At kernel start a policy injects a read of 300 bytes from 0x20000040 (lines 0x20000000, 0x20000080 and
 * 0x20000100: three requests) and a write of 256 bytes at 0x30000000 (two lines). The warp meanwhile runs a chain
 * of six dependent L2 misses, long enough for the injected requests to come back. Compared with the same run
 * without injection: three more L2 reads, two more L2 writes, the same L1D accesses; inject_done arrives once per
 * read line with the tag and aux = 0, and once per write line when the L2 acknowledges it, with aux = 1. */
struct inj_ctx {
    bool inject;
    int nr, nw;
    struct evlog done;
};
static void inj_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    struct inj_ctx *c = pi->state;
    if (ev->kind == MW_EV_KERNEL_START && c->inject) {
        c->nr = mw_inject(pi->sim, 0, 0x20000040, 300, false, 77);
        c->nw = mw_inject(pi->sim, 0, 0x30000000, 256, true, 78);
    }
    if (ev->kind == MW_EV_INJECT_DONE) evlog_push(&c->done, ev);
}
static const struct mw_cta_throttle_ops inj_obs = {
    .base = {.point = MW_PT_CTA_THROTTLE, .name = "inj_obs", .desc = "injects at kernel start",
             .events = MW_EVB(MW_EV_KERNEL_START) | MW_EVB(MW_EV_INJECT_DONE), .on_event = inj_event},
};
static const struct sr_inst inj_w0[] = {LW(2, LINE(0, 0)), LW(2, LINE(1, 0)), LW(2, LINE(2, 0)),
                                        LW(2, LINE(3, 0)), LW(2, LINE(4, 0)), LW(2, LINE(5, 0))};
static const struct sr_prog inj_prog = {1, {inj_w0}, {NINST(inj_w0)}};

static void inj_run(bool inject, struct inj_ctx *c, struct mw_stat_list *l)
{
    struct mw_sim *s = prog_sim(&inj_prog, one_sm, 1);
    memset(c, 0, sizeof *c);
    c->inject = inject;
    install(s, MW_PT_CTA_THROTTLE, &inj_obs.base, c);
    run_stats(s, inject ? "inject" : "no inject", l);
    mw_sim_destroy(s);
}

static void test_inject(void **st)
{
    (void)st;
    struct inj_ctx a, b;
    struct mw_stat_list la, lb;
    inj_run(true, &a, &la);
    inj_run(false, &b, &lb);
    assert_int_equal(a.nr, 3);
    assert_int_equal(a.nw, 2);
    assert_int_equal(sr_stat(&la, "l1d.injected_reads"), 3);
    assert_int_equal(sr_stat(&la, "l1d.injected_writes"), 2);
    assert_int_equal(sr_stat(&lb, "l1d.injected_reads"), 0);
    assert_int_equal(a.done.n, 5);
    /* each read line exactly once (tag 77, aux 0), each write line exactly once (tag 78, aux 1) */
    bool seen[3] = {false, false, false}, seen_w[2] = {false, false};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(a.done.v[i].sm, 0);
        if (a.done.v[i].aux) {
            assert_int_equal(a.done.v[i].value, 78);
            uint64_t k = (a.done.v[i].addr - 0x30000000) / 128;
            assert_true(a.done.v[i].addr >= 0x30000000 && k < 2 && a.done.v[i].addr % 128 == 0);
            assert_false(seen_w[k]);
            seen_w[k] = true;
            continue;
        }
        assert_int_equal(a.done.v[i].value, 77);
        uint64_t k = (a.done.v[i].addr - 0x20000000) / 128;
        assert_true(a.done.v[i].addr >= 0x20000000 && k < 3 && a.done.v[i].addr % 128 == 0);
        assert_false(seen[k]);
        seen[k] = true;
    }
    assert_int_equal(b.done.n, 0);
    assert_int_equal(sr_stat(&la, "l2.reads") - sr_stat(&lb, "l2.reads"), 3);
    assert_int_equal(sr_stat(&la, "l2.writes") - sr_stat(&lb, "l2.writes"), 2);
    assert_int_equal(sr_stat(&la, "l2.accesses") - sr_stat(&lb, "l2.accesses"), 5);
    assert_int_equal(sr_stat(&la, "l1d.accesses"), sr_stat(&lb, "l1d.accesses"));
    assert_int_equal(sr_stat(&la, "gpu.warp_insts"), sr_stat(&lb, "gpu.warp_insts"));
    evlog_fini(&a.done), evlog_fini(&b.done);
    mw_stat_list_fini(&la), mw_stat_list_fini(&lb);
}

/* ==== 9. per-policy windows ==================================================================================
 * A bypass policy asks for a 1000-cycle window (in start), a granularity policy for 1500 cycles (in create), and
 * a CTA policy subscribes to window events without asking for a window. A window of W set at cycle 0 elapses at
 * the end of core cycles W-1, 2W-1, ...: each policy must get exactly those, up to the last cycle of the run
 * (floor(cycles / W) events), the third none, and fast-forward must not move any of them. */
struct win_ctx {
    uint64_t at[MW_SLOT_COUNT][64];
    int n[MW_SLOT_COUNT];
    int bad_now; /* events whose cycle is not mw_now */
};
static void win_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    struct win_ctx *c = pi->state;
    if (ev->kind != MW_EV_WINDOW) return;
    if (ev->cycle != mw_now(pi->sim)) c->bad_now++;
    if (c->n[pi->slot] < 64) c->at[pi->slot][c->n[pi->slot]] = ev->cycle;
    c->n[pi->slot]++;
}
static void win_start_1000(struct mw_policy_inst *pi) { mw_window_set(pi, 1000); }
static int win_create_1500(struct mw_policy_inst *pi, struct mw_err *e)
{
    (void)e;
    mw_window_set(pi, 1500);
    return 0;
}
static const struct mw_l1d_bypass_ops win_a = {
    .base = {.point = MW_PT_L1D_BYPASS, .name = "win_a", .desc = "1000-cycle window", .events = MW_EVB(MW_EV_WINDOW),
             .on_event = win_event, .start = win_start_1000},
};
static const struct mw_granularity_ops win_b = {
    .base = {.point = MW_PT_GRANULARITY, .name = "win_b", .desc = "1500-cycle window",
             .events = MW_EVB(MW_EV_WINDOW), .on_event = win_event, .create = win_create_1500},
};
static const struct mw_cta_throttle_ops win_c = {
    .base = {.point = MW_PT_CTA_THROTTLE, .name = "win_c", .desc = "no window", .events = MW_EVB(MW_EV_WINDOW),
             .on_event = win_event},
};

static void win_run(bool ff, struct win_ctx *c, uint64_t *cycles)
{
    const char *sets[] = {PI_ONE_SM, ff ? "sim.fast_forward=true" : "sim.fast_forward=false"};
    struct mw_sim *s = builtin_sim("rodinia.backprop", "tiny", sets, 2);
    memset(c, 0, sizeof *c);
    install(s, MW_PT_L1D_BYPASS, &win_a.base, c);
    install(s, MW_PT_GRANULARITY, &win_b.base, c);
    install(s, MW_PT_CTA_THROTTLE, &win_c.base, c);
    struct mw_stat_list l;
    run_stats(s, ff ? "windows" : "windows, fast-forward off", &l);
    *cycles = (uint64_t)sr_stat(&l, "gpu.cycles");
    mw_stat_list_fini(&l);
    mw_sim_destroy(s);
}

static void test_policy_windows(void **st)
{
    (void)st;
    struct win_ctx *c[2] = {calloc(1, sizeof(struct win_ctx)), calloc(1, sizeof(struct win_ctx))};
    assert_non_null(c[0]), assert_non_null(c[1]);
    uint64_t cycles[2];
    win_run(true, c[0], &cycles[0]);
    win_run(false, c[1], &cycles[1]);
    assert_int_equal(cycles[0], cycles[1]);
    static const struct {
        int slot;
        uint64_t w;
    } pols[] = {{MW_PT_L1D_BYPASS, 1000}, {MW_PT_GRANULARITY, 1500}};
    for (int r = 0; r < 2; r++) {
        assert_int_equal(c[r]->bad_now, 0);
        assert_int_equal(c[r]->n[MW_PT_CTA_THROTTLE], 0);
        for (int p = 0; p < 2; p++) {
            int slot = pols[p].slot;
            uint64_t w = pols[p].w;
            int want = (int)(cycles[r] / w);
            assert_true(want >= 4 && want <= 64); /* the run spans several windows */
            if (c[r]->n[slot] != want)
                fail_msg("window %llu: %d events in %llu cycles, expected %d", (unsigned long long)w, c[r]->n[slot],
                         (unsigned long long)cycles[r], want);
            for (int k = 0; k < want; k++) assert_int_equal(c[r]->at[slot][k], (uint64_t)(k + 1) * w - 1);
        }
    }
    free(c[0]), free(c[1]);
}

/* ==== 10. counters, start and finish =========================================================================
 * A scheduler registers counter "ld_global" in create and "insts" in start (asking for "ld_global" again gives
 * its first index), and counts in issued(): they must appear as policy.warp_scheduler.ld_global = sm.global_loads
 * and policy.warp_scheduler.insts = gpu.warp_insts. A CTA observer counts kernel ends as policy.cta_throttle.kernels
 * = gpu.kernels. Both log every hook call in one sequence: the two starts come first, the two finishes last, each
 * exactly once, and a second mw_sim_run after completion runs no hook. */
enum { H_START, H_FINISH, H_OTHER };
struct hk_ctx {
    int log[1 << 16];
    int n;
    int idx_ld, idx_insts, idx_again, idx_kernels;
};
static void hk_log(struct hk_ctx *c, int h)
{
    if (c->n < (int)(sizeof c->log / sizeof c->log[0])) c->log[c->n] = h;
    c->n++;
}
static int hk_create(struct mw_policy_inst *pi, struct mw_err *e)
{
    (void)e;
    return mw_policy_counter(pi, "ld_global", "global loads issued") == 0 ? 0 : -1;
}
static void hk_sched_start(struct mw_policy_inst *pi)
{
    struct hk_ctx *c = pi->state;
    hk_log(c, H_START);
    c->idx_insts = mw_policy_counter(pi, "insts", "instructions issued");
    c->idx_again = mw_policy_counter(pi, "ld_global", "global loads issued");
    c->idx_ld = c->idx_again;
}
static void hk_finish(struct mw_policy_inst *pi) { hk_log(pi->state, H_FINISH); }
static void hk_issued(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    (void)sm, (void)sched, (void)w;
    struct hk_ctx *c = pi->state;
    hk_log(c, H_OTHER);
    mw_policy_count(pi, c->idx_insts, 1);
    if (in->op == MW_OP_LD_GLOBAL) mw_policy_count(pi, c->idx_ld, 1);
}
static int hk_pick(struct mw_policy_inst *pi, int sm, int sched, const uint16_t *ready, int n)
{
    hk_log(pi->state, H_OTHER);
    return pick_oldest(pi, sm, sched, ready, n);
}
static void hk_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    struct hk_ctx *c = pi->state;
    hk_log(c, H_OTHER);
    if (ev->kind == MW_EV_KERNEL_END && pi->slot == MW_PT_CTA_THROTTLE) mw_policy_count(pi, c->idx_kernels, 1);
}
static void hk_obs_start(struct mw_policy_inst *pi)
{
    struct hk_ctx *c = pi->state;
    hk_log(c, H_START);
    c->idx_kernels = mw_policy_counter(pi, "kernels", "kernels ended");
}
#define HK_EVENTS                                                                                        \
    (MW_EVB(MW_EV_KERNEL_START) | MW_EVB(MW_EV_KERNEL_END) | MW_EVB(MW_EV_CTA_LAUNCH) | MW_EVB(MW_EV_WARP_EXIT))
static const struct mw_warp_sched_ops hk_sched = {
    .base = {.point = MW_PT_WARP_SCHED, .name = "hk_sched", .desc = "counts", .events = HK_EVENTS,
             .on_event = hk_event, .create = hk_create, .start = hk_sched_start, .finish = hk_finish},
    .pick = hk_pick,
    .issued = hk_issued,
};
static const struct mw_cta_throttle_ops hk_obs = {
    .base = {.point = MW_PT_CTA_THROTTLE, .name = "hk_obs", .desc = "counts kernels", .events = HK_EVENTS,
             .on_event = hk_event, .start = hk_obs_start, .finish = hk_finish},
};

static void test_counters_start_finish(void **st)
{
    (void)st;
    struct hk_ctx *c = calloc(1, sizeof *c);
    assert_non_null(c);
    struct mw_sim *s = builtin_sim("rodinia.bfs", "tiny", NULL, 0);
    install(s, MW_PT_WARP_SCHED, &hk_sched.base, c);
    install(s, MW_PT_CTA_THROTTLE, &hk_obs.base, c);
    struct mw_stat_list l;
    run_stats(s, "counters", &l);
    assert_int_equal(c->idx_ld, 0);
    assert_int_equal(c->idx_insts, 1);
    assert_true(c->n > 4 && c->n <= (int)(sizeof c->log / sizeof c->log[0]));
    assert_int_equal(c->log[0], H_START);
    assert_int_equal(c->log[1], H_START);
    assert_int_equal(c->log[c->n - 2], H_FINISH);
    assert_int_equal(c->log[c->n - 1], H_FINISH);
    for (int i = 2; i < c->n - 2; i++) assert_int_equal(c->log[i], H_OTHER);
    assert_true(sr_stat(&l, "sm.global_loads") > 0);
    assert_int_equal(sr_stat(&l, "policy.warp_scheduler.ld_global"), sr_stat(&l, "sm.global_loads"));
    assert_int_equal(sr_stat(&l, "policy.warp_scheduler.insts"), sr_stat(&l, "gpu.warp_insts"));
    assert_int_equal(sr_stat(&l, "policy.cta_throttle.kernels"), sr_stat(&l, "gpu.kernels"));
    /* finished: running again does nothing, finish is not called twice */
    int n = c->n;
    struct mw_err e;
    assert_int_equal(mw_sim_run(s, 0, &e), 1);
    assert_int_equal(c->n, n);
    mw_stat_list_fini(&l);
    mw_sim_destroy(s);
    free(c);
}

/* ==== 11. instruction ids ======================================================================================
 * GTO with a spy that records every issued instruction's id, SM, warp and PC; an observer checks every L1D hit,
 * miss, store and load-done event of BFS (15 SMs) against that record: ids strictly increase at issue (so they
 * are unique), and each event's id was issued before the event, by the same SM and warp, at the same PC. */
struct id_rec {
    int sm, warp;
    uint64_t pc;
};
struct id_ctx {
    struct id_rec *rec; /* by id */
    uint64_t cap, last;
    uint64_t non_increasing, checked, bad, zero;
    char first_bad[200];
};
static void id_on_issue(struct sr_spy *spy, struct mw_policy_inst *pi, int sm, int sched, int w,
                        const struct mw_inst *in)
{
    (void)pi, (void)sched;
    struct id_ctx *c = spy->ud;
    if (in->id <= c->last) c->non_increasing++;
    c->last = in->id;
    while (in->id >= c->cap) {
        uint64_t nc = c->cap ? 2 * c->cap : 4096;
        c->rec = realloc(c->rec, nc * sizeof *c->rec);
        assert_non_null(c->rec);
        memset(c->rec + c->cap, 0xff, (nc - c->cap) * sizeof *c->rec);
        c->cap = nc;
    }
    c->rec[in->id] = (struct id_rec){.sm = sm, .warp = w, .pc = in->pc};
}
static void id_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    struct id_ctx *c = pi->state;
    c->checked++;
    if (ev->inst == 0) {
        c->zero++;
        return;
    }
    const struct id_rec *r = ev->inst < c->cap && ev->inst <= c->last ? &c->rec[ev->inst] : NULL;
    if (!r || r->sm != ev->sm || r->warp != ev->warp || r->pc != ev->pc) {
        if (!c->bad)
            snprintf(c->first_bad, sizeof c->first_bad, "%s: inst %llu sm %d warp %d pc 0x%llx",
                     mw_event_names[ev->kind], (unsigned long long)ev->inst, ev->sm, ev->warp,
                     (unsigned long long)ev->pc);
        c->bad++;
    }
}
static const struct mw_cta_throttle_ops id_obs = {
    .base = {.point = MW_PT_CTA_THROTTLE, .name = "id_obs", .desc = "checks instruction ids",
             .events = MW_EVB(MW_EV_L1D_HIT) | MW_EVB(MW_EV_L1D_MISS) | MW_EVB(MW_EV_L1D_STORE) |
                       MW_EVB(MW_EV_LOAD_DONE),
             .on_event = id_event},
};

static void test_instruction_ids(void **st)
{
    (void)st;
    struct id_ctx c;
    memset(&c, 0, sizeof c);
    struct mw_sim *s = builtin_sim("rodinia.bfs", "tiny", NULL, 0);
    install(s, MW_PT_CTA_THROTTLE, &id_obs.base, &c);
    struct sr_spy spy;
    sr_spy_install(&spy, s, "gto", NULL, NULL, 0, 0);
    spy.on_issue = id_on_issue;
    spy.ud = &c;
    struct mw_stat_list l;
    run_stats(s, "ids", &l);
    assert_int_equal(c.non_increasing, 0);
    assert_int_equal(spy.n, sr_stat(&l, "gpu.warp_insts"));
    assert_true(c.checked > 1000);
    assert_int_equal(c.zero, 0);
    if (c.bad) fail_msg("%llu of %llu events with a wrong id, first %s", (unsigned long long)c.bad,
                        (unsigned long long)c.checked, c.first_bad);
    free(c.rec);
    sr_spy_fini(&spy);
    mw_stat_list_fini(&l);
    mw_sim_destroy(s);
}

/* ==== 12. the L2's replacement slot ===========================================================================
 * GESUMMV (small: N = 384, two CTAs) has each thread walk its own row of A and of B 4 bytes at a time, so each
 * 128 B row line is read in 32 consecutive loop iterations; the L1D (128 lines) cannot hold the 512 row lines
 * of an SM's 256 threads, so those reads reach L2, and tmp[i] and y[i] are read and written at L2 in every
 * iteration. L2 lines are thus touched long after their fill. LRU evicts the line untouched for longest;
 * FIFO the earliest filled, which in a full set is often a line still being walked or one of tmp / y, refetched
 * from DRAM later. So policies.l2_replacement=fifo must miss more and hit less than lru, and its victims must
 * include lines that LRU would have kept (a more recently touched line than another way of the set).
 * The spy (FIFO's rule) also checks that victim() gets sm = the L2 slice: in range, and the slice (and set) that
 * the address map gives for every line of the set it is shown. */
struct l2_ctx {
    uint64_t calls, not_lru, bad_range, bad_slice, bad_set, slices_seen;
    int nslices, sets;
};
static int l2_victim(struct mw_policy_inst *pi, int sm, int set, const struct mw_line_view *ways,
                     const uint8_t *evictable, int assoc)
{
    struct l2_ctx *c = pi->state;
    c->calls++;
    if (sm < 0 || sm >= c->nslices || set < 0 || set >= c->sets || assoc != 16) {
        c->bad_range++;
        return 0;
    }
    c->slices_seen |= 1ull << sm;
    int best = -1;
    for (int w = 0; w < assoc; w++) {
        if (evictable[w] && (best < 0 || ways[w].fill_time < ways[best].fill_time)) best = w;
        /* every way's line lives in slice sm, at this set of it (the address map of engine/partition.h) */
        if (mw_addr_slice(pi->sim, ways[w].line) != sm) c->bad_slice++;
        if ((int)((mw_addr_slice_local(pi->sim, ways[w].line) >> 7) % (uint64_t)c->sets) != set) c->bad_set++;
    }
    for (int w = 0; w < assoc; w++)
        if (ways[w].last_access < ways[best].last_access) {
            c->not_lru++;
            break;
        }
    return best;
}
static const struct mw_replacement_ops l2_spy = {
    .base = {.point = MW_PT_REPLACEMENT, .name = "l2_spy", .desc = "FIFO, checking its arguments"},
    .victim = l2_victim,
};

static void l2_run(const char *impl, struct l2_ctx *spy, struct mw_stat_list *l)
{
    char set[64];
    snprintf(set, sizeof set, "policies.l2_replacement=%s", impl);
    const char *sets[] = {set};
    struct mw_sim *s = builtin_sim("polybench.gesummv", "small", sets, 1);
    assert_ptr_equal(s->pol[MW_SLOT_L2_REPLACEMENT].pol, mw_policy_find(MW_PT_REPLACEMENT, impl));
    assert_ptr_equal(s->pol[MW_PT_REPLACEMENT].pol, mw_policy_find(MW_PT_REPLACEMENT, "lru")); /* L1D's own */
    if (spy) {
        spy->nslices = mw_sim_n_slices(s);
        spy->sets = mw_l2_sets(mw_sim_config(s));
        install(s, MW_SLOT_L2_REPLACEMENT, &l2_spy.base, spy);
    }
    run_stats(s, impl, l);
    mw_sim_destroy(s);
}

static void test_l2_replacement_slot(void **st)
{
    (void)st;
    struct mw_stat_list lru, fifo, spied;
    l2_run("lru", NULL, &lru);
    l2_run("fifo", NULL, &fifo);
    assert_true(sr_stat(&fifo, "l2.misses") > sr_stat(&lru, "l2.misses"));
    assert_true(sr_stat(&fifo, "l2.hits") < sr_stat(&lru, "l2.hits"));
    assert_true(sr_stat(&fifo, "l2.fills") > sr_stat(&lru, "l2.fills"));
    /* L1D statistics do not see the L2 policy except through timing: the load count is the same */
    assert_int_equal(sr_stat(&fifo, "sm.global_loads"), sr_stat(&lru, "sm.global_loads"));

    struct l2_ctx c;
    memset(&c, 0, sizeof c);
    l2_run("fifo", &c, &spied);
    sr_same_stats(&fifo, &spied, "FIFO by config vs FIFO's rule in the spy");
    assert_true(c.calls > 0);
    assert_int_equal(c.bad_range, 0);
    assert_int_equal(c.bad_slice, 0);
    assert_int_equal(c.bad_set, 0);
    assert_true(__builtin_popcountll(c.slices_seen) > 1);
    assert_true(c.not_lru > 0);
    mw_stat_list_fini(&lru), mw_stat_list_fini(&fifo), mw_stat_list_fini(&spied);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qualify_deps_head),
        cmocka_unit_test(test_qualify_deps_head_stall_split),
        cmocka_unit_test(test_qualify_deps_mshr),
        cmocka_unit_test(test_cta_deactivate_reactivate),
        cmocka_unit_test(test_cta_reactivated_by_window_alone),
        cmocka_unit_test(test_inject),
        cmocka_unit_test(test_policy_windows),
        cmocka_unit_test(test_counters_start_finish),
        cmocka_unit_test(test_instruction_ids),
        cmocka_unit_test(test_l2_replacement_slot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
