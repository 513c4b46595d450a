/* The LD/ST unit's per-access re-execution queue (ldst_scheduler rexq hook, engine/ldst.c) and MASCAR's use of it
 * (policies/mascar.c, rexq_mode): what it parks, what it serves while accesses wait, the order it replays them in
 * and when a full queue stalls the unit, on a hand-built program whose L1D events are logged cycle by cycle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "simrun.h"

#define OAWS_CFG "experiments/configs/oaws.yaml"

/* ---- an L1D event log: a bypass policy without a decide hook (it consults nothing, so the LD/ST unit parks and
 * replays exactly as without it) that only listens */
struct mq_ev {
    int kind, warp;
    uint64_t cycle, addr;
};
static struct mq_ev evlog[256];
static int nev;
static void log_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    (void)pi;
    if (nev < 256) evlog[nev++] = (struct mq_ev){.kind = ev->kind, .warp = ev->warp, .cycle = ev->cycle, .addr = ev->addr};
}
static const struct mw_l1d_bypass_ops spy_ops = {
    .base = {.point = MW_PT_L1D_BYPASS, .name = "mq_spy", .desc = "test: logs L1D events",
             .events = MW_EVB(MW_EV_L1D_HIT) | MW_EVB(MW_EV_L1D_MISS) | MW_EVB(MW_EV_L1D_FILL),
             .on_event = log_event},
};

/* ---- an in-order LD/ST unit (one instruction) with a re-execution queue of `rexq_cap` accesses */
static int rexq_cap;
static int test_rexq(struct mw_policy_inst *pi, bool *replay_first)
{
    (void)pi;
    *replay_first = true;
    return rexq_cap;
}
static const struct mw_ldst_sched_ops rexq_ops = {
    .base = {.point = MW_PT_LDST_SCHED, .name = "mq_rexq", .desc = "test: in order, with a re-execution queue"},
    .rexq = test_rexq,
};

/* Lines: H (warp 0 brings it into L1D before the barrier, warp 1 hits it after), A (one line), B0..B3 (four lines
 * 128 B apart, one load). */
#define LN_H 0x100000u
#define LN_A 0x200000u
#define LN_B 0x300000u
static const struct sr_sinst w0[] = {
    {MW_OP_LD_GLOBAL, 1, 0, LN_H, 4, 32},   /* H: 1 line, 1 MSHR; data back before the barrier */
    {MW_OP_ALU, 2, 1, 0, 0, 1},             /* waits for H */
    {MW_OP_BARRIER, 0, 0, 0, 0, 1},
    {MW_OP_LD_GLOBAL, 3, 0, LN_A, 4, 32},   /* A: takes 1 of the 2 MSHRs: 1 left */
    {MW_OP_LD_GLOBAL, 4, 0, LN_B, 128, 4},  /* B0 takes the last MSHR, B1-B3 cannot */
    {MW_OP_ALU, 5, 4, 0, 0, 1},
};
static const struct sr_sinst w1[] = {
    {MW_OP_BARRIER, 0, 0, 0, 0, 1},
    {MW_OP_ALU, 6, 0, 0, 0, 1},
    {MW_OP_ALU, 7, 6, 0, 0, 1},
    {MW_OP_LD_GLOBAL, 8, 0, LN_H, 4, 32},   /* H again: a hit */
    {MW_OP_ALU, 9, 8, 0, 0, 1},
};
static const struct sr_sprog prog = {.nwarps = 2, .warp = {w0, w1}, .len = {6, 5}};
/* The same, but warp 0 loads C0..C3 (four more lines) right after B: an instruction of a warp whose other
 * instruction has accesses in the queue may not park (one instruction per warp in the queue). */
#define LN_C 0x400000u
static const struct sr_sinst w0c[] = {
    {MW_OP_LD_GLOBAL, 1, 0, LN_H, 4, 32},  {MW_OP_ALU, 2, 1, 0, 0, 1},
    {MW_OP_BARRIER, 0, 0, 0, 0, 1},        {MW_OP_LD_GLOBAL, 3, 0, LN_A, 4, 32},
    {MW_OP_LD_GLOBAL, 4, 0, LN_B, 128, 4}, {MW_OP_LD_GLOBAL, 10, 0, LN_C, 128, 4},
    {MW_OP_ALU, 5, 4, 0, 0, 1},
};
static const struct sr_sprog prog_c = {.nwarps = 2, .warp = {w0c, w1}, .len = {7, 5}};

/* Run `pr` on one SM of the OAWS machine with 2 MSHRs; the LD/ST unit is the test's one with a queue of `cap`
 * accesses, or, with `mascar` set, the MASCAR bundle with those parameters. */
static void mq_sim(const struct sr_sprog *pr, int cap, const char *const *mascar, int nm, struct mw_stat_list *l)
{
    /* the schedules below were worked out with the crossbar at the core clock (oaws.yaml before it took GPGPU-Sim
     * 3.2.1's 1400 MHz): a miss's round trip is that long */
    const char *sets[8] = {"gpu.n_sms=1", "l1d.mshr_entries=2", "clock.icnt_mhz=700"};
    int ns = 3;
    if (mascar) {
        sets[ns++] = "policies.bundle=mascar";
        for (int i = 0; i < nm; i++) sets[ns++] = mascar[i];
    }
    struct mw_config c;
    struct mw_err e;
    mw_config_defaults(&c);
    if (mw_config_load_file(&c, OAWS_CFG, &e)) fail_msg("config: %s", e.msg);
    for (int i = 0; i < ns; i++)
        if (mw_config_set(&c, sets[i], &e)) fail_msg("%s: %s", sets[i], e.msg);
    struct mw_workload w;
    sr_sprog_workload(&w, pr, "mq_prog");
    struct mw_sim *s = sr_sim(&c, &w);
    rexq_cap = cap;
    if (!mascar && mw_sim_set_policy(s, MW_PT_LDST_SCHED, &rexq_ops.base, NULL, NULL, 0, &e)) fail_msg("%s", e.msg);
    if (mw_sim_set_policy(s, MW_PT_L1D_BYPASS, &spy_ops.base, NULL, NULL, 0, &e)) fail_msg("%s", e.msg);
    nev = 0;
    sr_run(s, 1000000, "mq_prog");
    sr_stats(s, l);
    mw_sim_destroy(s);
}

/* The cycle of the first event of `kind` on line `addr` after cycle `after` (by warp `warp`, -1 = any). */
static uint64_t ev_at(int kind, uint64_t addr, int warp, uint64_t after)
{
    for (int i = 0; i < nev; i++)
        if (evlog[i].kind == kind && evlog[i].addr == addr && (warp < 0 || evlog[i].warp == warp) &&
            evlog[i].cycle > after)
            return evlog[i].cycle;
    fail_msg("no event %d on line %#llx after %llu", kind, (unsigned long long)addr, (unsigned long long)after);
    return 0;
}
static void dump(const char *what)
{
    if (!getenv("MQ_DUMP")) return;
    for (int i = 0; i < nev; i++)
        fprintf(stderr, "%s %llu %s w%d %#llx\n", what, (unsigned long long)evlog[i].cycle,
                mw_event_names[evlog[i].kind], evlog[i].warp, (unsigned long long)evlog[i].addr);
}

static uint64_t miss(uint64_t line, uint64_t after) { return ev_at(MW_EV_L1D_MISS, line, 0, after); }
static uint64_t fill(uint64_t line) { return ev_at(MW_EV_L1D_FILL, line, -1, 0); }
static uint64_t hit_h(void) { return ev_at(MW_EV_L1D_HIT, LN_H, 1, 0); }

/* One SM, 2 MSHRs, the LD/ST unit in order with a queue of 4 accesses. After the barrier warp 0's LD A takes one
 * MSHR (1 left); its LD B reaches the unit 2 cycles later (t = its first access):
 *   t      B0 misses and takes the last MSHR
 *   t+1..3 B1, B2, B3 fail for want of an MSHR: each moves into the queue, no LD/ST stall (ldst_stall_mshr 0)
 *   t+3    LD B has no access left: its slot frees, warp 1's LD H (waiting for the unit) issues
 *   t+4    H hits, about 260 cycles before any MSHR frees (the hit under the stall)
 * Replays, in order, each in the cycle the fill that frees an MSHR arrives (the fill comes before the unit's turn
 * in a cycle): B1 at fill(A), B2 at fill(B0), B3 at fill(B1). After a replay that went through the next head is
 * tried in the next cycle and finds no MSHR: 2 failed replays (after B1's and after B2's; B3's empties it).
 * The misses happen at the cycles they would without the queue (the blocking unit retries each cycle and gets
 * each freed MSHR in the same cycle), so the run ends at the same cycle; only H moves, from behind B3 (t_B3 + 1:
 * LD H enters the unit once B3 is through) to t + 4. */
static void test_rexq_parks_serves_replays(void **st)
{
    (void)st;
    struct mw_stat_list l0, l;
    mq_sim(&prog, 0, NULL, 0, &l0);
    dump("cap0");
    uint64_t b3_blocking = miss(LN_B + 384, 0), h_blocking = hit_h();
    assert_int_equal(h_blocking, b3_blocking + 1);
    assert_int_equal(sr_stat(&l0, "sm.rexq_parked"), 0);
    assert_true(sr_stat(&l0, "sm.ldst_stall_mshr") > 500);

    mq_sim(&prog, 4, NULL, 0, &l);
    dump("cap4");
    uint64_t t = miss(LN_B, 0);
    assert_int_equal(t, miss(LN_A, 0) + 2);
    assert_int_equal(hit_h(), t + 4);
    assert_true(hit_h() < fill(LN_A));
    uint64_t b1 = miss(LN_B + 128, 0), b2 = miss(LN_B + 256, 0), b3 = miss(LN_B + 384, 0);
    assert_int_equal(b1, fill(LN_A));
    assert_int_equal(b2, fill(LN_B));
    assert_int_equal(b3, fill(LN_B + 128));
    assert_true(b1 < b2 && b2 < b3);
    assert_int_equal(b3, b3_blocking);
    assert_int_equal(sr_stat(&l, "sm.rexq_parked"), 3);
    assert_int_equal(sr_stat(&l, "sm.rexq_replays"), 3);
    assert_int_equal(sr_stat(&l, "sm.rexq_replay_fails"), 2);
    assert_int_equal(sr_stat(&l, "sm.rexq_peak"), 3);
    assert_int_equal(sr_stat(&l, "sm.rexq_full_stalls"), 0);
    assert_int_equal(sr_stat(&l, "sm.ldst_stall_mshr"), 0);
    assert_int_equal(sr_stat(&l, "gpu.cycles"), sr_stat(&l0, "gpu.cycles"));
    mw_stat_list_fini(&l0);
    mw_stat_list_fini(&l);
}

/* The same with a queue of 2: B1 and B2 park at t+1, t+2; B3 fails at t+3 with the queue full and the unit stalls
 * as without a queue (rexq_full_stalls, ldst_stall_mshr) until fill(A) =: f:
 *   f    B1 replays (a due replay goes first) and takes the freed MSHR; the stalled B3 waits
 *   f+1  B2, the new head, replays first and fails (no MSHR)
 *   f+2  B3 fails again and moves into the queue (1 entry free)
 *   f+3  H hits
 * rexq_full_stalls: the cycles t+3 .. f+1 = f - t - 1; ldst_stall_mshr: t+3 .. f-1 (at f and f+1 the MSHR count
 * the stalled B3 waited for had changed, so those count as queue stalls only) = f - t - 3. Peak 2. */
static void test_rexq_full_stalls(void **st)
{
    (void)st;
    struct mw_stat_list l;
    mq_sim(&prog, 2, NULL, 0, &l);
    dump("cap2");
    uint64_t t = miss(LN_B, 0), f = fill(LN_A);
    assert_int_equal(miss(LN_B + 128, 0), f);
    assert_int_equal(hit_h(), f + 3);
    assert_int_equal(sr_stat(&l, "sm.rexq_full_stalls"), f - t - 1);
    assert_int_equal(sr_stat(&l, "sm.ldst_stall_mshr"), f - t - 3);
    assert_int_equal(sr_stat(&l, "sm.rexq_peak"), 2);
    assert_int_equal(sr_stat(&l, "sm.rexq_parked"), 3);
    assert_int_equal(sr_stat(&l, "sm.rexq_replays"), 3);
    mw_stat_list_fini(&l);
}

/* One instruction per warp in the queue: warp 0's LD C (4 more lines) follows LD B while B1-B3 are queued, so its
 * C0 cannot park (queue of 8, room enough) and the unit stalls on it; B's replays go first (B1 at fill(A), B2 at
 * fill(B0), B3 at fill(B1)), and only once B3 has left can C0 park: it fails in the next cycle (no MSHR) and moves
 * in, C1..C3 follow one a cycle, and H hits at t_B3 + 5. C0's MSHR comes from the next fill, fill(B2). Peak 4. */
static void test_rexq_one_inst_per_warp(void **st)
{
    (void)st;
    struct mw_stat_list l;
    mq_sim(&prog_c, 8, NULL, 0, &l);
    dump("order");
    uint64_t b3 = miss(LN_B + 384, 0);
    assert_int_equal(miss(LN_B + 128, 0), fill(LN_A));
    assert_int_equal(b3, fill(LN_B + 128));
    assert_int_equal(hit_h(), b3 + 5);
    assert_int_equal(miss(LN_C, 0), fill(LN_B + 256));
    assert_true(miss(LN_C, 0) > b3);
    assert_int_equal(sr_stat(&l, "sm.rexq_peak"), 4);
    assert_int_equal(sr_stat(&l, "sm.rexq_parked"), 7);
    assert_true(sr_stat(&l, "sm.rexq_full_stalls") > 500);
    mw_stat_list_fini(&l);
}

/* MASCAR picks its re-execution with rexq_mode: `accesses` (the default) is the queue above (32 entries; warp 1 is
 * the owner once warp 0's head is no memory instruction, so nothing is held), with the same cycles as the test
 * unit's: 3 parked, H at t + 4, B1 at fill(A). `instructions` holds LD B and LD H side by side (no access parked):
 * H hits under the stall too, at t + 2 (B1 fails at t+1, H's turn at t+2), while B's retries count as MSHR stalls. */
static void test_mascar_rexq_mode(void **st)
{
    (void)st;
    struct mw_stat_list l;
    mq_sim(&prog, 0, (const char *const[]){"policies.bundle.rexq_mode=accesses"}, 1, &l);
    dump("mascar-acc");
    uint64_t t = miss(LN_B, 0);
    assert_int_equal(hit_h(), t + 4);
    assert_int_equal(miss(LN_B + 128, 0), fill(LN_A));
    assert_int_equal(sr_stat(&l, "sm.rexq_parked"), 3);
    assert_int_equal(sr_stat(&l, "sm.ldst_stall_mshr"), 0);
    mw_stat_list_fini(&l);

    mq_sim(&prog, 0, (const char *const[]){"policies.bundle.rexq_mode=instructions"}, 1, &l);
    dump("mascar-inst");
    t = miss(LN_B, 0);
    assert_int_equal(hit_h(), t + 2);
    assert_int_equal(sr_stat(&l, "sm.rexq_parked"), 0);
    assert_int_equal(sr_stat(&l, "sm.rexq_peak"), 0);
    assert_true(sr_stat(&l, "sm.ldst_stall_mshr") > 500);
    mw_stat_list_fini(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rexq_parks_serves_replays),
        cmocka_unit_test(test_rexq_full_stalls),
        cmocka_unit_test(test_rexq_one_inst_per_warp),
        cmocka_unit_test(test_mascar_rexq_mode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
