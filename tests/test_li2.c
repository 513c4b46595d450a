/* Where a load's time goes (sm.lat_*, l2.fill_lat_*, mem.lat_*): the stamps a request collects on its way
 * through L1D, request network, L2 slice, DRAM and back, checked on hand-built cases whose every term is a
 * configured latency (the single-miss round trip of test_engine.c, split into its parts). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "simrun.h"

static uint64_t g_base;
static uint64_t ld(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it, (void)d;
    return g_base + 4 * t->gtid;
}
static void no_free(void *p) { (void)p; }

/* One CTA of `threads` threads; each warp loads one 128 B line (warp w: g_base + 128 w) and uses it. */
static void open_load(struct mw_workload *w, int threads, uint64_t base)
{
    static const struct mw_tinst prog[] = {MW_T_LD(2, 1, ld), MW_T_ALU(1, 2, 2)};
    g_base = base;
    struct mw_kgen_kernel *k = calloc(1, sizeof *k);
    snprintf(k->k.name, sizeof k->k.name, "test_load");
    k->k.grid[0] = k->k.grid[1] = k->k.grid[2] = 1;
    k->k.block[0] = (uint32_t)threads, k->k.block[1] = k->k.block[2] = 1;
    k->k.nregs = 8;
    k->pro = prog;
    k->npro = 2;
    struct mw_kgen_program p = {.kernels = k, .nkernels = 1, .owned = NULL, .free_owned = no_free};
    struct mw_err e;
    assert_int_equal(mw_kgen_workload(w, "test_load", &p, &e), 0);
}

/* test_engine.c's machine: one SM, every clock at 700 MHz (all latencies add up in core cycles), perfect fetch */
static void base_config(struct mw_config *c, const char *extra)
{
    struct mw_err e;
    mw_config_defaults(c);
    const char *sets[] = {"gpu.n_sms=1", "clock.dram_mhz=700", "dram.address_map=RRRRRRRRRRRRBBBBCCCCCCSSSSSS",
                          "l1i.enabled=false", extra};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
        if (sets[i]) assert_int_equal(mw_config_set(c, sets[i], &e), 0);
}

/* Run w on c to completion and keep every statistic (tests/simrun.h). */
static void run_collect(const struct mw_config *c, struct mw_workload *w, struct mw_stat_list *l)
{
    struct mw_sim *s = sr_sim(c, w);
    sr_run(s, 0, "run");
    sr_stats(s, l);
    mw_sim_destroy(s);
}

static const char *const sm_seg[] = {"l1", "xbar_req", "l2_inq", "l2_pipe", "l2_wait", "l2_replyq", "xbar_reply"};
static const char *const fill_seg[] = {"missq", "to_dram", "dram", "from_dram"};

static double seg_sum(struct mw_stat_list *l, const char *const *names, size_t n, const char *fmt)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        char name[64];
        snprintf(name, sizeof name, fmt, names[i]);
        sum += sr_stat(l, name);
    }
    return sum;
}

/* One load missing L1D and L2 on an idle machine (test_engine.c's test_single_miss_latency, 272 cycles with the
 * defaults), split up. Every part is a configured latency or one of the hand-offs listed there:
 *   l1         0                     the miss queue drains into the request network in the access's cycle
 *   xbar_req   icnt.latency          = 8 (one 8 B header flit)
 *   l2_inq     0                     the slice takes it the cycle its flit arrives
 *   l2_pipe    l2.latency            = 120
 *   l2_wait    dram.latency + 1 + DRAM + 1 = 100 + 1 + 29 + 1 = 131, of which the fill's parts are
 *                missq 0, to_dram dram.latency = 100, dram 1 + (1 + tRCD 12 + tCCD 2 + tCL 12 + burst 2) = 30,
 *                from_dram 1
 *   l2_replyq  0                     the reply network has room
 *   xbar_reply 1 + icnt.latency + flits - 1 = 1 + 8 + 4 = 13 (136 B in 32 B flits = 5)
 *   total      8 + 120 + 131 + 13 = 272 = mem.max_load_latency */
static void test_single_miss(void **st)
{
    (void)st;
    struct mw_config c;
    base_config(&c, NULL);
    struct mw_workload w;
    open_load(&w, 32, 0x100000);
    struct mw_stat_list l;
    run_collect(&c, &w, &l);
    assert_int_equal((uint64_t)sr_stat(&l, "sm.lat_n"), 1);
    assert_int_equal((uint64_t)sr_stat(&l, "l2.fill_lat_n"), 1);
    const double want[] = {0, 8, 0, 120, 131, 0, 13};
    for (size_t i = 0; i < 7; i++) {
        char n[64];
        snprintf(n, sizeof n, "mem.lat_%s", sm_seg[i]);
        if (sr_stat(&l, n) != want[i]) fail_msg("%s = %g, expected %g", n, sr_stat(&l, n), want[i]);
    }
    const double fwant[] = {0, 100, 30, 1};
    for (size_t i = 0; i < 4; i++) {
        char n[64];
        snprintf(n, sizeof n, "l2.fill_lat_%s", fill_seg[i]);
        if (sr_stat(&l, n) != fwant[i]) fail_msg("%s = %g, expected %g", n, sr_stat(&l, n), fwant[i]);
    }
    assert_int_equal((uint64_t)sr_stat(&l, "mem.max_load_latency"), 272);
    mw_stat_list_fini(&l);

    /* the configured terms move their own part only: 64 B flits make the reply 3 flits (1 + 8 + 2 = 11), a
     * 20-cycle L2 pipe and a 0-cycle L2-to-DRAM pipe shorten l2_pipe and to_dram */
    base_config(&c, "icnt.flit_bytes=64");
    struct mw_err e;
    assert_int_equal(mw_config_set(&c, "l2.latency=20", &e), 0);
    assert_int_equal(mw_config_set(&c, "dram.latency=0", &e), 0);
    open_load(&w, 32, 0x100000);
    run_collect(&c, &w, &l);
    assert_int_equal((uint64_t)sr_stat(&l, "mem.lat_xbar_reply"), 11);
    assert_int_equal((uint64_t)sr_stat(&l, "mem.lat_l2_pipe"), 20);
    assert_int_equal((uint64_t)sr_stat(&l, "l2.fill_lat_to_dram"), 0);
    assert_int_equal((uint64_t)sr_stat(&l, "mem.lat_l2_wait"), 31); /* 0 + 30 + 1 */
    mw_stat_list_fini(&l);
}

/* Perfect DRAM (Li §5.2): the controller part is zero, the pipes in front of and behind it stay. */
static void test_perfect_dram_part(void **st)
{
    (void)st;
    struct mw_config c;
    base_config(&c, "dram.perfect=true");
    struct mw_workload w;
    open_load(&w, 32, 0x100000);
    struct mw_stat_list l;
    run_collect(&c, &w, &l);
    assert_int_equal((uint64_t)sr_stat(&l, "l2.fill_lat_dram"), 0);
    assert_int_equal((uint64_t)sr_stat(&l, "l2.fill_lat_to_dram"), 100);
    assert_int_equal((uint64_t)sr_stat(&l, "mem.lat_l2_wait"), 101); /* 100 + 0 + 1 */
    assert_int_equal((uint64_t)sr_stat(&l, "mem.max_load_latency"), 272 - 30);
    mw_stat_list_fini(&l);
}

/* Under contention the parts still add up, request by request: 8 warps (8 lines, one 1 KB stretch over the
 * 256 B-interleaved slices) and 48 warps (6 KB) load at once. With no L1D or L2 merging each load request is one
 * waiter, so the parts' sums equal sm.load_latency_sum, and each L2 miss's wait is its fill's four parts. The
 * 48-warp run queues: the parts besides the fixed pipes are not all zero. */
static void test_parts_add_up(void **st)
{
    (void)st;
    const int threads[] = {256, 1536};
    for (int k = 0; k < 2; k++) {
        struct mw_config c;
        base_config(&c, NULL);
        struct mw_workload w;
        open_load(&w, threads[k], 0x400000);
        struct mw_stat_list l;
        run_collect(&c, &w, &l);
        uint64_t n = (uint64_t)threads[k] / 32;
        assert_int_equal((uint64_t)sr_stat(&l, "sm.lat_n"), n);
        assert_int_equal((uint64_t)sr_stat(&l, "sm.load_latency_count"), n);
        assert_int_equal((uint64_t)sr_stat(&l, "l2.fill_lat_n"), n);
        double parts = seg_sum(&l, sm_seg, 7, "sm.lat_%s");
        assert_int_equal((uint64_t)parts, (uint64_t)sr_stat(&l, "sm.load_latency_sum"));
        double fill = seg_sum(&l, fill_seg, 4, "l2.fill_lat_%s");
        assert_int_equal((uint64_t)fill, (uint64_t)sr_stat(&l, "sm.lat_l2_wait"));
        assert_int_equal((uint64_t)sr_stat(&l, "sm.lat_l2_pipe"), 120 * n);
        if (k == 1) {
            double queued = sr_stat(&l, "sm.lat_l1") + sr_stat(&l, "sm.lat_l2_replyq") +
                            sr_stat(&l, "sm.lat_xbar_reply") - 13.0 * (double)n;
            assert_true(queued > 0);
        }
        mw_stat_list_fini(&l);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_miss),
        cmocka_unit_test(test_perfect_dram_part),
        cmocka_unit_test(test_parts_add_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
