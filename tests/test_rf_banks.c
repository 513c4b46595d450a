/* The register-file bank model (policies/rf_banks.h) that Linebacker and CERF consult, on hand-built sequences whose
 * waits and conflicts are worked out in the comments, and GTO with bank counting (bundle rfbanks, policies/rfbanks.c): the
 * same decisions as GTO in a run, and the same operand reads as Linebacker's bundle over the same instructions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "policy_iface.h"
#include "rf_banks.h"

static struct mw_inst inst(int nsrc, const int *src)
{
    struct mw_inst in;
    memset(&in, 0, sizeof in);
    in.op = MW_OP_ALU;
    in.nsrc = (uint8_t)nsrc;
    for (int i = 0; i < nsrc; i++) in.src[i] = (uint16_t)src[i];
    return in;
}

/* 16 banks, bank = register mod 16. Cycle 100: warp 0 issues srcs R1, R17, R1: R1 takes bank 1 at 100, R17 (bank
 * 1) finds it taken and takes it at 101 (conflict 1), the repeated R1 is one read: 2 reads. Warp 1 issues R2, R3,
 * R255+1 (a uniform register, not counted): banks 2 and 3 at 100, no conflict. Then victim accesses: RN 513 (bank 1)
 * at 100 finds bank 1 taken at 100 and 101: it waits 2; RN 530 (530 = 33 x 16 + 2, bank 2) at 100 waits 1 (bank 2
 * at 101); RN 514 (bank 2) at 101 finds 101 taken by RN 530: waits 1 (102). Totals: 4 operand reads, 1 operand
 * conflict; 3 victim accesses, all delayed, 2 + 1 + 1 = 4 cycles. */
static void test_hand_built_conflicts(void **st)
{
    (void)st;
    struct rfb_sm m;
    struct rfb_count n;
    memset(&m, 0, sizeof m), memset(&n, 0, sizeof n);
    struct mw_inst a = inst(3, (const int[]){1, 17, 1}), b = inst(3, (const int[]){2, 3, MW_REG_UNIFORM_BASE + 1});
    assert_int_equal(rfb_operands(&m, &n, &a, 0, 100, 16, false), 1);
    assert_int_equal(rfb_operands(&m, &n, &b, 1, 100, 16, false), 0);
    assert_int_equal(rfb_victim(&m, &n, 513, 100, 16), 2);
    assert_int_equal(rfb_victim(&m, &n, 530, 100, 16), 1);
    assert_int_equal(rfb_victim(&m, &n, 514, 101, 16), 1);
    assert_int_equal(n.operand_reads, 4);
    assert_int_equal(n.operand_conflicts, 1);
    assert_int_equal(n.victim_accesses, 3);
    assert_int_equal(n.victim_conflicts, 3);
    assert_int_equal(n.victim_wait, 4);
    /* cycle 200, nothing taken yet: a victim access waits for nothing */
    assert_int_equal(rfb_victim(&m, &n, 513, 200, 16), 0);
    assert_int_equal(n.victim_conflicts, 3);
}

/* With the warp skew, warp w's register r is in bank (r + w) mod 16: warp 1's R0 is bank 1, warp 15's R1 is bank 0.
 * Warp 0 R1 (bank 1) and warp 1 R0 (bank 1) at cycle 7 conflict (the second read takes bank 1 at cycle 8); warp
 * 15 R1 (bank 0) does not. Without the skew, warp 1's R0 is bank 0 and warp 15's R1 bank 1: at cycle 20 (clear of
 * the spill), warp 0 R1 then warp 1 R0 then warp 15 R1: one conflict (bank 1). */
static void test_warp_skew(void **st)
{
    (void)st;
    assert_int_equal(rfb_bank(0, 1, 16, true), 1);
    assert_int_equal(rfb_bank(1, 15, 16, true), 0);
    assert_int_equal(rfb_bank(1, 15, 16, false), 1);
    struct rfb_sm m;
    struct rfb_count n;
    memset(&m, 0, sizeof m), memset(&n, 0, sizeof n);
    struct mw_inst r1 = inst(1, (const int[]){1}), r0 = inst(1, (const int[]){0});
    assert_int_equal(rfb_operands(&m, &n, &r1, 0, 7, 16, true), 0);
    assert_int_equal(rfb_operands(&m, &n, &r0, 1, 7, 16, true), 1);
    assert_int_equal(rfb_operands(&m, &n, &r1, 15, 7, 16, true), 0);
    assert_int_equal(rfb_operands(&m, &n, &r1, 0, 20, 16, false), 0);
    assert_int_equal(rfb_operands(&m, &n, &r0, 1, 20, 16, false), 0);
    assert_int_equal(rfb_operands(&m, &n, &r1, 15, 20, 16, false), 1);
    assert_int_equal(rfb_operands(&m, &n, &r1, 3, 8, 16, false), 1); /* cycle 8's bank 1 holds warp 1's spill */
    assert_int_equal(n.operand_conflicts, 3);
}

/* The ring: bank 0 asked 64 times at cycle 0 is served at cycles 0..63 (waits 0..63); the 65th finds the whole
 * ring taken and reports RFB_RING. A slot is reused for the cycle 64 later: bank 5 taken at cycle 5, then asked at
 * cycle 69 (= 5 + 64), is free there. */
static void test_ring(void **st)
{
    (void)st;
    struct rfb_sm m;
    memset(&m, 0, sizeof m);
    for (int i = 0; i < RFB_RING; i++) assert_int_equal(rfb_take(&m, 0, 0), i);
    assert_int_equal(rfb_take(&m, 0, 0), RFB_RING);
    memset(&m, 0, sizeof m);
    assert_int_equal(rfb_take(&m, 5, 5), 0);
    assert_int_equal(rfb_take(&m, 5, 69), 0);
    assert_int_equal(rfb_take(&m, 5, 69), 1);
}

static struct mw_sim *syrk(const char *const *sets, int nsets)
{
    struct mw_config c;
    struct mw_err e;
    mw_config_defaults(&c);
    if (mw_config_load_file(&c, "experiments/configs/linebacker.yaml", &e)) fail_msg("config: %s", e.msg);
    for (int i = 0; i < nsets; i++)
        if (mw_config_set(&c, sets[i], &e)) fail_msg("--set %s: %s", sets[i], e.msg);
    struct mw_workload w;
    if (mw_workload_open_builtin(&w, "polybench.syrk", "tiny", 1, &e)) fail_msg("syrk: %s", e.msg);
    return sr_sim(&c, &w);
}

/* rfbanks decides as gto: every stat of the run is the same but its own counters. Its operand reads are the
 * instructions' (they do not depend on timing), so Linebacker's bundle, whose scheduler counts the same way, sees
 * the same number, and its conflicts include the victim accesses that waited. */
static void test_rfbanks_is_gto(void **st)
{
    (void)st;
    struct mw_stat_list a, b, c;
    struct mw_sim *s = syrk(NULL, 0);
    run_stats(s, "gto", &a);
    mw_sim_destroy(s);
    s = syrk((const char *const[]){"policies.bundle=rfbanks"}, 1);
    run_stats(s, "rfbanks", &b);
    mw_sim_destroy(s);
    s = syrk((const char *const[]){"policies.bundle=linebacker", "policies.bundle.window=2000"}, 2);
    run_stats(s, "linebacker", &c);
    mw_sim_destroy(s);
    for (int i = 0; i < a.n; i++) {
        const char *k = a.v[i].name;
        if (!strncmp(k, "sim.", 4) || !strncmp(k, "policy.", 7)) continue;
        if (sr_stat(&a, k) != sr_stat(&b, k)) fail_msg("%s: gto %g, rfbanks %g", k, sr_stat(&a, k), sr_stat(&b, k));
    }
    double reads = sr_stat(&b, "policy.bundle.rf_operand_reads");
    assert_true(reads > sr_stat(&b, "gpu.warp_insts")); /* syrk's instructions read one or two registers */
    assert_true(reads < 2 * sr_stat(&b, "gpu.warp_insts"));
    assert_true(sr_stat(&b, "policy.bundle.rf_bank_conflicts") > 0);
    assert_true(sr_stat(&c, "policy.bundle.rf_operand_reads") == reads);
    assert_true(sr_stat(&c, "policy.bundle.rf_bank_conflicts") >= sr_stat(&c, "policy.bundle.rf_cache_conflicts"));
    mw_stat_list_fini(&a), mw_stat_list_fini(&b), mw_stat_list_fini(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_built_conflicts),
        cmocka_unit_test(test_warp_skew),
        cmocka_unit_test(test_ring),
        cmocka_unit_test(test_rfbanks_is_gto),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
