/* What CERF (policies/cerf.c) decides, on hand-built cases worked out in the comments: how many register ways each
 * L1D set gets from the registers live CTAs do not hold, the register part's insertion, LRU and the lines lost when
 * CTAs take the space back; then in runs: an L1D victim served from the register part, and a store that
 * invalidates it. The policy file is included so that its pure functions can be called. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "policy_iface.h"

#define MW_POLICY_FILE_ID cerf_under_test
#include "cerf.c"

/* linebacker.yaml's RF (65,536 registers = 2,048 lines of 128 B) over 48 L1D sets: nothing allocated: 2048 / 48 =
 * 42 ways (42.7 rounded down); 3 CTAs of 256 threads x 32 registers (24,576) hold 768 lines: 1,280 / 48 = 26;
 * with a quarter of their registers cold, 18,432 are hot: (65,536 - 18,432) x 4 / 128 = 1,472 lines, 30 ways;
 * capped at 8: 8; the whole RF allocated: 0. gtx480.yaml's 32,768 registers over 32 sets with one CTA of 16 warp
 * registers (512): 32,256 x 4 / 128 = 1,008 lines, 31 ways. */
static void test_register_ways(void **st)
{
    (void)st;
    assert_int_equal(cerf_ways(65536, 0, 0, 48, 128, 0), 42);
    assert_int_equal(cerf_ways(65536, 24576, 0, 48, 128, 0), 26);
    assert_int_equal(cerf_ways(65536, 24576, 0.25, 48, 128, 0), 30);
    assert_int_equal(cerf_ways(65536, 24576, 0, 48, 128, 8), 8);
    assert_int_equal(cerf_ways(65536, 65536, 0, 48, 128, 0), 0);
    assert_int_equal(cerf_ways(32768, 512, 0, 32, 128, 0), 31);
}

/* Two sets of at most 4 register ways. Lines 1-4 fill set 1's ways 0-3; line 5 replaces the LRU, line 1 (way 0).
 * A refresh of line 2 makes line 3 the LRU. Shrinking to 2 ways loses the lines of ways 2 and 3 (3 and 4): 2 lost,
 * set 0 is empty. Line 6 then replaces the LRU of ways 0-1: line 5 (way 0, written at clock 5; line 2 was refreshed
 * at clock 6). A store invalidates line 2 once; the next insert takes the invalid way 1. */
static void test_register_part(void **st)
{
    (void)st;
    struct cerf_ent e[2 * 4];
    struct cerf_store c = {.sets = 2, .maxw = 4, .ways = 4, .e = e};
    memset(e, 0, sizeof e);
    for (uint64_t l = 1; l <= 4; l++) assert_int_equal(cs_insert(&c, 1, l), (int)l - 1);
    assert_int_equal(cs_insert(&c, 1, 5), 0);
    assert_int_equal(cs_find(&c, 1, 1), -1);
    assert_int_equal(cs_insert(&c, 1, 2), 1); /* refresh in place */
    assert_int_equal(cs_resize(&c, 2), 2);
    assert_int_equal(cs_find(&c, 1, 3), -1);
    assert_int_equal(cs_find(&c, 1, 4), -1);
    assert_int_equal(cs_insert(&c, 1, 6), 0);
    assert_true(cs_invalidate(&c, 1, 2));
    assert_false(cs_invalidate(&c, 1, 2));
    assert_false(cs_invalidate(&c, 0, 6)); /* another set */
    assert_int_equal(cs_insert(&c, 1, 7), 1);
    assert_int_equal(cs_resize(&c, 9), 0); /* at most maxw */
    assert_int_equal(c.ways, 4);
}

static struct mw_sim *cerf_sim(const struct sr_prog *prog)
{
    struct mw_err e;
    struct mw_sim *s = prog_sim(prog, (const char *const[]){PI_ONE_SM}, 1);
    if (mw_sim_set_policy(s, MW_PT_REPLACEMENT, &cerf.base, NULL, NULL, 0, &e)) fail_msg("cerf: %s", e.msg);
    return s;
}

/* One warp on one SM of gtx480.yaml (L1D 32 sets x 4 ways; 31 register ways per set while the CTA runs, above). Five lines of set 0,
 * each waited for: the fifth evicts A (the LRU) into the register part; the load of A is then a register hit
 * (l1d.victim_hits = 1, five misses). With a store to A before that load, A's entry is invalidated and the load
 * goes to L2: no register hit, six misses, and A's refill moves B into the register part (two inserts). */
static const struct sr_inst keep[] = {LW(2, SAME_SET(0)), LW(2, SAME_SET(1)), LW(2, SAME_SET(2)),
                                      LW(2, SAME_SET(3)), LW(2, SAME_SET(4)), LW(2, SAME_SET(0))};
static const struct sr_inst stored[] = {LW(2, SAME_SET(0)), LW(2, SAME_SET(1)), LW(2, SAME_SET(2)),
                                        LW(2, SAME_SET(3)), LW(2, SAME_SET(4)), STG(SAME_SET(0)),
                                        LW(2, SAME_SET(0))};
static const struct sr_prog keep_prog = {1, {keep}, {NINST(keep)}};
static const struct sr_prog stored_prog = {1, {stored}, {NINST(stored)}};

static void test_victim_served_and_store_invalidates(void **st)
{
    (void)st;
    struct mw_stat_list a, b;
    struct mw_sim *s = cerf_sim(&keep_prog);
    run_stats(s, "victim kept", &a);
    mw_sim_destroy(s);
    s = cerf_sim(&stored_prog);
    run_stats(s, "victim stored to", &b);
    mw_sim_destroy(s);
    assert_int_equal(sr_stat(&a, "policy.replacement.ways_max"), 32); /* before the CTA launched: 1,024 / 32 */
    assert_int_equal(sr_stat(&a, "policy.replacement.inserts"), 1);
    assert_int_equal(sr_stat(&a, "policy.replacement.reg_hits"), 1);
    assert_int_equal(sr_stat(&a, "l1d.victim_hits"), 1);
    assert_int_equal(sr_stat(&a, "l1d.misses"), 5);
    assert_int_equal(sr_stat(&b, "policy.replacement.inserts"), 2);
    assert_int_equal(sr_stat(&b, "policy.replacement.store_invalidates"), 1);
    assert_int_equal(sr_stat(&b, "l1d.victim_hits"), 0);
    assert_int_equal(sr_stat(&b, "l1d.misses"), 6);
    mw_stat_list_fini(&a), mw_stat_list_fini(&b);
}

/* Bundle `cerf` (the same replacement, plus GTO whose operand reads take RF banks): the register part's way k of
 * set x is warp register wregs - 1 - (k sets + x): linebacker.yaml (2,048 warp registers, 48 sets) way 2 of set 5:
 * 2,047 - 101 = 1,946; gtx480.yaml (1,024, 32 sets) way 0 of set 0: 1,023 (bank 15 of 16). The keep run as above
 * under the bundle: operand reads R0 (six loads) and R2 (six ALUs): 12; A written into register 1,023 and read back:
 * 2 accesses; one warp, each load waited for: no conflict, so the same cycles as replacement `cerf`; with 0 banks
 * nothing is counted and the run is the replacement's too. */
static void test_bundle_banks(void **st)
{
    (void)st;
    assert_int_equal(cerf_rn(2048, 48, 5, 2), 1946);
    assert_int_equal(cerf_rn(1024, 32, 0, 0), 1023);
    struct mw_err e;
    struct mw_stat_list a, b, c;
    static const char *const k[] = {"rf_banks"}, *const v0[] = {"0"};
    struct mw_sim *s = prog_sim(&keep_prog, (const char *const[]){PI_ONE_SM}, 1);
    if (mw_sim_set_policy(s, MW_PT_BUNDLE, &cerf_bundle.base, NULL, NULL, 0, &e)) fail_msg("cerf: %s", e.msg);
    run_stats(s, "bundle, banks", &a);
    mw_sim_destroy(s);
    s = prog_sim(&keep_prog, (const char *const[]){PI_ONE_SM}, 1);
    if (mw_sim_set_policy(s, MW_PT_BUNDLE, &cerf_bundle.base, k, v0, 1, &e)) fail_msg("cerf: %s", e.msg);
    run_stats(s, "bundle, no banks", &b);
    mw_sim_destroy(s);
    s = cerf_sim(&keep_prog);
    run_stats(s, "replacement", &c);
    mw_sim_destroy(s);
    assert_int_equal(sr_stat(&a, "policy.bundle.reg_hits"), 1);
    assert_int_equal(sr_stat(&a, "policy.bundle.inserts"), 1);
    assert_int_equal(sr_stat(&a, "policy.bundle.rf_operand_reads"), 12);
    assert_int_equal(sr_stat(&a, "policy.bundle.rf_cache_accesses"), 2);
    assert_int_equal(sr_stat(&a, "policy.bundle.rf_bank_conflicts"), 0);
    assert_int_equal(sr_stat(&b, "policy.bundle.rf_operand_reads"), 0);
    assert_int_equal(sr_stat(&b, "policy.bundle.rf_cache_accesses"), 0);
    assert_int_equal(sr_stat(&a, "gpu.cycles"), sr_stat(&c, "gpu.cycles"));
    assert_int_equal(sr_stat(&b, "gpu.cycles"), sr_stat(&c, "gpu.cycles"));
    mw_stat_list_fini(&a), mw_stat_list_fini(&b), mw_stat_list_fini(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_register_ways),
        cmocka_unit_test(test_register_part),
        cmocka_unit_test(test_victim_served_and_store_invalidates),
        cmocka_unit_test(test_bundle_banks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
