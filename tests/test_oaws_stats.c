/* The counters OAWS's motivation reads (Wang et al., PACT'16, Sec. 3), on hand-built programs whose answers are
 * worked out in the comments: loads and MSHR entries by the issuing warp's age rank (Fig. 4, sm.ld_age* /
 * sm.mshr_age*), and the LD/ST stall split LDST_COAL / LDST_ICNT (Fig. 2, sm.ldst_coal, sm.ldst_icnt_store). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "simrun.h"

#define OAWS_CFG "experiments/configs/oaws.yaml"

static struct mw_sim *ag_sim(const struct sr_sprog *p, const char *const *sets, int nsets)
{
    struct mw_config c;
    struct mw_err e;
    mw_config_defaults(&c);
    if (mw_config_load_file(&c, OAWS_CFG, &e)) fail_msg("config: %s", e.msg);
    if (mw_config_set(&c, "gpu.n_sms=1", &e)) fail_msg("%s", e.msg);
    for (int i = 0; i < nsets; i++)
        if (mw_config_set(&c, sets[i], &e)) fail_msg("--set %s: %s", sets[i], e.msg);
    struct mw_workload w;
    sr_sprog_workload(&w, p, "ag_prog");
    return sr_sim(&c, &w);
}

static void ag_run(const struct sr_sprog *p, const char *const *sets, int nsets, struct mw_stat_list *l)
{
    struct mw_sim *s = ag_sim(p, sets, nsets);
    sr_run(s, 10000000, "ag_prog");
    sr_stats(s, l);
    mw_sim_destroy(s);
}

/* Fig. 4's counters. One CTA of 16 warps, launched together: warp w has age rank w (0 = oldest) for as long as all
 * 16 are resident. Each loads from its own 64 KB region, so no two requests share a line (no MSHR merges):
 *   warps 0-7  (ranks 0-7, bin 0-7):   one load of 32 lines (stride 128 B)  -> 8 x 32 = 256 MSHR entries
 *   warps 8-15 (ranks 8-15, bin 8-15): one load of 4 lines (lanes 4 apart)  -> 8 x 4  =  32 MSHR entries
 * then an ALU op on the loaded register (so a warp waits for its data, i.e. after all its MSHR allocations) and a
 * barrier: no warp exits, and no rank changes, before every load has allocated its entries. A coherent load
 * (1 line) by warp 15 after the barrier: by then warps may have exited, so it may land in either bin; the totals
 * are 17 loads and 289 entries. */
static const struct sr_sinst div32[] = {
    {MW_OP_LD_GLOBAL, 1, 0, 0, 128, 32}, {MW_OP_ALU, 2, 1, 0, 0, 1}, {MW_OP_BARRIER, 0, 0, 0, 0, 1}};
static const struct sr_sinst div4[] = {
    {MW_OP_LD_GLOBAL, 1, 0, 0, 128, 4}, {MW_OP_ALU, 2, 1, 0, 0, 1}, {MW_OP_BARRIER, 0, 0, 0, 0, 1}};
static const struct sr_sinst div4_then_coh[] = {{MW_OP_LD_GLOBAL, 1, 0, 0, 128, 4},
                                               {MW_OP_ALU, 2, 1, 0, 0, 1},
                                               {MW_OP_BARRIER, 0, 0, 0, 0, 1},
                                               {MW_OP_LD_GLOBAL, 3, 0, 0x800000, 4, 32}};
static void test_mshr_by_age(void **st)
{
    (void)st;
    static struct sr_sinst prog_insts[SR_SMAXW][4];
    static struct sr_sprog p = {.nwarps = 16};
    for (int w = 0; w < 16; w++) {
        const struct sr_sinst *src = w < 8 ? div32 : w < 15 ? div4 : div4_then_coh;
        int n = w < 15 ? 3 : 4;
        for (int i = 0; i < n; i++) {
            prog_insts[w][i] = src[i];
            if (src[i].op == MW_OP_LD_GLOBAL && i == 0) prog_insts[w][i].addr = 0x100000u + (uint64_t)w * 0x10000u;
        }
        p.warp[w] = prog_insts[w];
        p.len[w] = n;
    }
    struct mw_stat_list l;
    ag_run(&p, NULL, 0, &l);
    assert_int_equal(sr_stat(&l, "sm.ld_age0_7") + sr_stat(&l, "sm.ld_age8_15"), 17);
    assert_true(sr_stat(&l, "sm.ld_age0_7") >= 8 && sr_stat(&l, "sm.ld_age8_15") >= 8);
    assert_int_equal(sr_stat(&l, "sm.ld_age16_23") + sr_stat(&l, "sm.ld_age24_31") + sr_stat(&l, "sm.ld_age32_up"), 0);
    /* the coherent load's one entry goes with its bin; the divergent loads' 256 and 32 are exact */
    double m0 = sr_stat(&l, "sm.mshr_age0_7"), m1 = sr_stat(&l, "sm.mshr_age8_15");
    assert_int_equal(m0 + m1, 289);
    assert_true((m0 == 256 && m1 == 33) || (m0 == 257 && m1 == 32));
    assert_int_equal(sr_stat(&l, "sm.mshr_age16_23"), 0);
    /* every allocation is an L1D read miss that is not a merge */
    assert_int_equal(m0 + m1, sr_stat(&l, "l1d.misses") - sr_stat(&l, "l1d.mshr_merges"));
    mw_stat_list_fini(&l);
}

/* LDST_COAL: a cycle in which an access went to L1D and its instruction has more accesses left. Every request of an
 * instruction goes to L1D exactly once, so the count is the sum over instructions of (requests - 1), whatever
 * stalls come between: one warp with a 4-line load (3), a 32-line load (31), a 1-line load (0) and a store of
 * 8 lines (7) gives 3 + 31 + 0 + 7 = 41. */
static const struct sr_sinst coal[] = {{MW_OP_LD_GLOBAL, 1, 0, 0x100000, 128, 4},
                                      {MW_OP_LD_GLOBAL, 2, 0, 0x200000, 128, 32},
                                      {MW_OP_LD_GLOBAL, 3, 0, 0x300000, 4, 32},
                                      {MW_OP_ST_GLOBAL, 0, 0, 0x400000, 128, 8}};
static const struct sr_sprog coal_prog = {1, {coal}, {4}};
static void test_ldst_coal(void **st)
{
    (void)st;
    struct mw_stat_list l;
    ag_run(&coal_prog, NULL, 0, &l);
    assert_int_equal(sr_stat(&l, "sm.coalesced_reqs"), 4 + 32 + 1 + 8);
    assert_int_equal(sr_stat(&l, "sm.ldst_coal"), 41);
    mw_stat_list_fini(&l);
}

/* LDST_ICNT (the miss queue, i.e. the memory port, is full; a store needs no MSHR): a warp of three 32-line stores
 * into a 2-slot miss queue, which the network drains more slowly than the LD/ST unit fills it (a store request
 * carries its data). Every miss-queue stall of the run is a store's, so ldst_icnt_store = ldst_stall_miss_queue > 0;
 * loading the same lines stalls on MSHRs (96 lines, 32 entries), never counted as a store's. */
static const struct sr_sinst st32[] = {{MW_OP_ST_GLOBAL, 0, 0, 0x100000, 128, 32},
                                      {MW_OP_ST_GLOBAL, 0, 0, 0x200000, 128, 32},
                                      {MW_OP_ST_GLOBAL, 0, 0, 0x300000, 128, 32}};
static const struct sr_sinst ld32[] = {{MW_OP_LD_GLOBAL, 1, 0, 0x100000, 128, 32},
                                      {MW_OP_LD_GLOBAL, 2, 0, 0x200000, 128, 32},
                                      {MW_OP_LD_GLOBAL, 3, 0, 0x300000, 128, 32}};
static const struct sr_sprog st_prog = {1, {st32}, {3}};
static const struct sr_sprog ld_prog = {1, {ld32}, {3}};
static void test_ldst_icnt_store(void **st)
{
    (void)st;
    /* a store of one 4 B lane is a 40 B packet, 2 flits: with the crossbar at the core clock one leaves every 2
     * cycles while the unit queues one a cycle (at oaws.yaml's 1400 MHz one a cycle: no stall) */
    static const char *const small_q[] = {"l1d.miss_queue=2", "clock.icnt_mhz=700"};
    struct mw_stat_list l;
    ag_run(&st_prog, small_q, 2, &l);
    assert_true(sr_stat(&l, "sm.ldst_stall_miss_queue") > 0);
    assert_int_equal(sr_stat(&l, "sm.ldst_icnt_store"), sr_stat(&l, "sm.ldst_stall_miss_queue"));
    assert_int_equal(sr_stat(&l, "sm.ldst_coal"), 3 * 31);
    mw_stat_list_fini(&l);
    ag_run(&ld_prog, small_q, 2, &l);
    assert_true(sr_stat(&l, "sm.ldst_stall_mshr") > 0); /* 96 lines, 32 MSHRs: loads stall on MSHRs */
    assert_int_equal(sr_stat(&l, "sm.ldst_icnt_store"), 0);
    assert_int_equal(sr_stat(&l, "sm.ldst_coal"), 3 * 31);
    mw_stat_list_fini(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mshr_by_age),
        cmocka_unit_test(test_ldst_coal),
        cmocka_unit_test(test_ldst_icnt_store),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
