/* icnt.cluster_rotate: the SMs of a cluster take turns to go first in each core cycle (GPGPU-Sim 3.x's
 * -gpgpu_simt_core_sim_order 1, which moves a cluster's first core to the back after every cycle), so neither SM
 * of a shared crossbar port always comes first to its injection buffer. Off (the default) the SMs go in id order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "simrun.h"
#include "simctx.h"
#include "sm.h"

/* ---- the order of turns, worked out by hand ---- */

static struct mw_sim *order_sim(int nsms, int k, bool rotate)
{
    struct mw_sim *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->nsms = nsms;
    s->cfg.icnt.sms_per_cluster = k;
    s->cfg.icnt.cluster_rotate = rotate;
    return s;
}

static void expect_order(const struct mw_sim *s, uint64_t now, const int *ids)
{
    for (int p = 0; p < s->nsms; p++) {
        assert_int_equal(mw_sm_at_place(s, p, now), ids[p]);
        assert_int_equal(mw_sm_place(s, ids[p], now), p); /* the inverse */
    }
}

static void test_order_of_turns(void **st)
{
    (void)st;
    /* 5 SMs in clusters of 2: {0,1} {2,3} {4}. Cycle 0: 0 1 2 3 4; cycle 1: the second of each pair first, the
     * lone SM 4 stays; cycle 2 = cycle 0. */
    struct mw_sim *s = order_sim(5, 2, true);
    expect_order(s, 0, (const int[]){0, 1, 2, 3, 4});
    expect_order(s, 1, (const int[]){1, 0, 3, 2, 4});
    expect_order(s, 2, (const int[]){0, 1, 2, 3, 4});
    expect_order(s, 7, (const int[]){1, 0, 3, 2, 4});
    free(s);
    /* 5 SMs in clusters of 3: {0,1,2} {3,4}. Cycle 1: 1 2 0 | 4 3; cycle 2: 2 0 1 | 3 4 (2 mod 2 = 0); cycle 3:
     * 0 1 2 | 4 3. */
    s = order_sim(5, 3, true);
    expect_order(s, 0, (const int[]){0, 1, 2, 3, 4});
    expect_order(s, 1, (const int[]){1, 2, 0, 4, 3});
    expect_order(s, 2, (const int[]){2, 0, 1, 3, 4});
    expect_order(s, 3, (const int[]){0, 1, 2, 4, 3});
    free(s);
    /* off, or one SM a cluster: id order in every cycle */
    s = order_sim(5, 2, false);
    expect_order(s, 1, (const int[]){0, 1, 2, 3, 4});
    free(s);
    s = order_sim(5, 1, true);
    expect_order(s, 1, (const int[]){0, 1, 2, 3, 4});
    free(s);
}

/* ---- two SMs of one cluster storing at once ---- */

/* Two CTAs of one warp (one on each SM of a 2-SM machine, both SMs in one cluster). Each warp stores to NST
 * lines, one 128 B line per store (lanes 4 B apart): each store is one 5-flit packet (8 + 128 B), the cluster's
 * injection buffer holds 9 flits, so the two SMs' stores cannot both enter in the same cycle and the one that
 * goes first wins the port. */
#define NST 24
static int store_next(const struct mw_kgen_kernel *k, const struct mw_tctx *lane0, uint32_t mask, void *scratch,
                      struct mw_inst *out, struct mw_err *e)
{
    (void)k, (void)e;
    int *pos = scratch;
    if (*pos >= NST) return 0;
    sr_inst_head(out, *pos, mask, MW_OP_ST_GLOBAL, 0, 0);
    out->width = 4;
    /* CTA c, store j: line 0x100000 + (c * NST + j) * 128 (distinct lines, spread over the slices) */
    uint64_t base = 0x100000 + ((uint64_t)lane0->ctaid[0] * NST + (uint64_t)*pos) * 128;
    for (int l = 0; l < MW_WARP_SIZE; l++)
        if (mask >> l & 1u) out->addr[l] = base + 4u * (uint64_t)l;
    ++*pos;
    return 1;
}

struct pair_run {
    double stall[2]; /* sm.ldst_stall_miss_queue of SM 0 and SM 1 */
    double cycles;
};

static void run_pair(const char *rotate, const char *ff, struct pair_run *o, struct mw_stat_list *keep)
{
    const char *sets[] = {"gpu.n_sms=2", "icnt.sms_per_cluster=2", "clock.icnt_mhz=1400", rotate, ff};
    struct mw_config c;
    sr_config(&c, sets, 5);
    struct mw_kgen_kernel *k = calloc(1, sizeof *k);
    assert_non_null(k);
    snprintf(k->k.name, sizeof k->k.name, "stores");
    k->k.grid[0] = 2, k->k.grid[1] = k->k.grid[2] = 1;
    k->k.block[0] = MW_WARP_SIZE, k->k.block[1] = k->k.block[2] = 1;
    k->k.nregs = 16;
    k->custom = store_next;
    k->ninsts = NST;
    k->scratch_bytes = sizeof(int);
    struct mw_kgen_program prog = {.kernels = k, .nkernels = 1, .owned = NULL, .free_owned = sr_no_free};
    struct mw_workload w;
    struct mw_err e;
    if (mw_kgen_workload(&w, "stores", &prog, &e)) fail_msg("workload: %s", e.msg);
    struct mw_sim *s = sr_sim(&c, &w);
    sr_run(s, 0, "two SMs storing");
    struct mw_stat_list l;
    sr_stats(s, &l);
    assert_int_equal(sr_stat(&l, "l1d.stores"), 2 * NST);
    o->stall[0] = (double)s->sms[0].st.ldst_stall_miss_queue;
    o->stall[1] = (double)s->sms[1].st.ldst_stall_miss_queue;
    o->cycles = sr_stat(&l, "gpu.cycles");
    if (keep) *keep = l;
    else mw_stat_list_fini(&l);
    mw_sim_destroy(s); /* (the workload owned k) */
}

static void test_pair_takes_turns(void **st)
{
    (void)st;
    struct pair_run fixed, rot;
    run_pair("icnt.cluster_rotate=false", "sim.fast_forward=true", &fixed, NULL);
    run_pair("icnt.cluster_rotate=true", "sim.fast_forward=true", &rot, NULL);
    /* In id order SM 0 comes first to the buffer in every cycle: a 5-flit store leaves the 9-flit buffer at 2 flits
     * a core cycle (1400 / 700 MHz), so whenever SM 0 has a store queued and 5 flits are free it takes them, and
     * SM 1's stores wait: SM 1's miss queue fills, SM 0's much less. */
    assert_true(fixed.stall[1] > 2 * fixed.stall[0] + NST);
    /* Taking turns, SM 0 is second in every other cycle and now waits too (measured: 0 / 36 cycles in id order,
     * 7 / 20 taking turns, out of about 700), and the gap between the two SMs narrows by more than half. */
    assert_true(rot.stall[0] > fixed.stall[0]);
    assert_true(rot.stall[1] < fixed.stall[1]);
    assert_true(2 * (rot.stall[1] - rot.stall[0]) < fixed.stall[1] - fixed.stall[0]);
}

static void test_pair_fast_forward_same(void **st)
{
    (void)st;
    /* the accounting of a skipped SM (settle) follows the order of turns: fast-forward on and off, same stats */
    struct pair_run a, b;
    struct mw_stat_list on, off;
    run_pair("icnt.cluster_rotate=true", "sim.fast_forward=true", &a, &on);
    run_pair("icnt.cluster_rotate=true", "sim.fast_forward=false", &b, &off);
    sr_same_stats(&on, &off, "rotating cluster, fast-forward on / off");
    mw_stat_list_fini(&on);
    mw_stat_list_fini(&off);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_of_turns),
        cmocka_unit_test(test_pair_takes_turns),
        cmocka_unit_test(test_pair_fast_forward_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
