/* Tests of l1d.index=mask, GPGPU-Sim 3.2.x's LINEAR_SET_FUNCTION: set = (addr >> 7) & (sets - 1), a mask, so
 * with a set count that is not a power of two some sets are never used. Linebacker's 48 KB 8-way L1D with 128 B
 * lines has 48 sets; 47 = 0b101111 clears bit 4 of the line number, so the reachable sets are 0-15 and 32-47 and
 * sets 16-31 stay empty. Every expected set is worked out by hand in the comment beside it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "l1d.h"
#include "unitsim.h"

static const char *const L48_MASK[] = {"l1d.size_bytes=49152", "l1d.assoc=8", "l1d.index=mask"};
static const char *const L48_LINEAR[] = {"l1d.size_bytes=49152", "l1d.assoc=8", "l1d.index=linear"};

static void idx_make(struct mw_set_index *x, const char *const *sets, int nsets)
{
    struct mw_config c;
    sr_config(&c, sets, nsets);
    struct mw_err e;
    if (mw_config_validate(&c, &e)) fail_msg("config: %s", e.msg);
    mw_set_index_init(x, &c);
}

/* Line number n is at byte address 128 n. */
static int set_of_line(const struct mw_set_index *x, uint64_t n) { return mw_set_index_of(x, n * 128); }

static void test_config_accepts_mask(void **st)
{
    (void)st;
    struct mw_config c;
    sr_config(&c, L48_MASK, 3);
    struct mw_err e;
    assert_int_equal(mw_config_validate(&c, &e), 0); /* any set count: no power-of-two check as for xor */
    assert_int_equal(c.l1d.index, MW_IDX_MASK);
    assert_int_equal(mw_l1d_sets(&c), 48); /* 49152 / (128 x 8) */
    /* the default is still the modulo index */
    sr_config(&c, NULL, 0);
    assert_int_equal(c.l1d.index, MW_IDX_LINEAR);
}

/* Hand-computed sets of a few lines at 48 sets (mask 47 = 0b101111; modulo 48 beside it). */
static void test_mask_48_sets_by_hand(void **st)
{
    (void)st;
    struct mw_set_index m, l;
    idx_make(&m, L48_MASK, 3);
    idx_make(&l, L48_LINEAR, 3);
    static const struct {
        uint64_t line;
        int mask, mod;
    } want[] = {
        {0, 0, 0},
        {15, 15, 15},    /* 0b001111: below bit 4, both keep it */
        {16, 0, 16},     /* 0b010000 & 0b101111 = 0; 16 % 48 = 16 */
        {31, 15, 31},    /* 0b011111 & 0b101111 = 0b001111 */
        {32, 32, 32},    /* 0b100000 */
        {47, 47, 47},
        {48, 32, 0},     /* 0b110000 & 0b101111 = 0b100000; 48 % 48 = 0 */
        {64, 0, 16},     /* an 8 KB stride (SYR2K's row): 0b1000000 & 47 = 0; 64 % 48 = 16 */
        {100, 36, 4},    /* 0b1100100 & 0b0101111 = 0b0100100; 100 - 96 = 4 */
        {0x1234, 36, 4}, /* 4660: low byte 0x34 & 0x2f = 0x24; 4660 - 48 x 97 = 4 */
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int gm = set_of_line(&m, want[i].line), gl = set_of_line(&l, want[i].line);
        if (gm != want[i].mask || gl != want[i].mod)
            fail_msg("line %llu: mask set %d (expected %d), modulo set %d (expected %d)",
                     (unsigned long long)want[i].line, gm, want[i].mask, gl, want[i].mod);
    }
    /* byte offsets inside a line do not move it: address 128 x 100 + 127 is still line 100 */
    assert_int_equal(mw_set_index_of(&m, 100 * 128 + 127), 36);
}

/* Over lines 0-4095 the mask reaches exactly sets 0-15 and 32-47, each 128 times (every 64 consecutive lines visit
 * each reachable set twice: n and n + 16 within a 32-line half share a set; 4096 / 64 x 2 = 128), and sets 16-31
 * never; the modulo index reaches all 48. */
static void test_mask_48_sets_reachable(void **st)
{
    (void)st;
    struct mw_set_index m, l;
    idx_make(&m, L48_MASK, 3);
    idx_make(&l, L48_LINEAR, 3);
    int cm[48] = {0}, cl[48] = {0};
    for (uint64_t n = 0; n < 4096; n++) {
        int a = set_of_line(&m, n), b = set_of_line(&l, n);
        assert_in_range(a, 0, 47);
        assert_in_range(b, 0, 47);
        cm[a]++, cl[b]++;
    }
    int reach_m = 0, reach_l = 0;
    for (int s = 0; s < 48; s++) {
        int want = s >= 16 && s < 32 ? 0 : 128;
        if (cm[s] != want) fail_msg("mask: set %d used %d times, expected %d", s, cm[s], want);
        reach_m += cm[s] > 0, reach_l += cl[s] > 0;
    }
    assert_int_equal(reach_m, 32);
    assert_int_equal(reach_l, 48);
}

/* With a power-of-two count the mask is the modulo: GTX480's 32 sets, every line of 0-4095 and a high address. */
static void test_mask_pow2_equals_linear(void **st)
{
    (void)st;
    struct mw_set_index m, l;
    idx_make(&m, (const char *[]){"l1d.index=mask"}, 1);
    idx_make(&l, NULL, 0);
    assert_int_equal(m.sets, 32);
    for (uint64_t n = 0; n < 4096; n++) assert_int_equal(set_of_line(&m, n), set_of_line(&l, n));
    assert_int_equal(set_of_line(&m, 0x123456789ull), (int)(0x123456789ull & 31)); /* 0x...89 & 0x1f = 9 */
}

/* Through the engine: one warp loads lines 0-63 (byte addresses 128 k) into a 48-set, 8-way L1D. With the mask,
 * lines 0-15 and 16-31 both go to sets 0-15 and lines 32-47 and 48-63 to sets 32-47: sets 0-15 and 32-47 hold two
 * lines each and sets 16-31 none. With the modulo index lines 0-47 take sets 0-47 and 48-63 sets 0-15 again:
 * sets 0-15 hold two lines, 16-47 one. */
#define NLD 64
static void run_loads(const char *const *sets, int nsets, int used[48])
{
    static struct sr_inst code[NLD];
    for (int k = 0; k < NLD; k++)
        code[k] = (struct sr_inst){.op = MW_OP_LD_GLOBAL, .dst = (uint8_t)(1 + k % 8), .addr = 128u * (uint64_t)k};
    static const struct sr_prog prog = {.nwarps = 1, .warp = {code}, .len = {NLD}};
    struct mw_config c;
    sr_config(&c, sets, nsets);
    struct mw_workload w;
    sr_prog_workload(&w, &prog);
    struct mw_sim *s = sr_sim(&c, &w);
    sr_run(s, 1000000, "64 loads");
    struct mw_l1d *l1 = NULL;
    for (int i = 0; i < s->nsms; i++) /* the one SM that ran the CTA */
        for (int set = 0; set < 48 && !l1; set++)
            for (int way = 0; way < 8; way++)
                if (mw_tags_line(&s->l1d[i].tags, set, way)->used) l1 = &s->l1d[i];
    assert_non_null(l1);
    assert_int_equal(l1->tags.sets, 48);
    for (int set = 0; set < 48; set++) {
        used[set] = 0;
        for (int way = 0; way < 8; way++) used[set] += mw_tags_line(&l1->tags, set, way)->used != 0;
    }
    mw_sim_destroy(s);
}

static void test_mask_in_l1d(void **st)
{
    (void)st;
    int used[48];
    run_loads(L48_MASK, 3, used);
    for (int set = 0; set < 48; set++) {
        int want = set >= 16 && set < 32 ? 0 : 2;
        if (used[set] != want) fail_msg("mask: set %d holds %d lines, expected %d", set, used[set], want);
    }
    run_loads(L48_LINEAR, 3, used);
    for (int set = 0; set < 48; set++) {
        int want = set < 16 ? 2 : 1;
        if (used[set] != want) fail_msg("linear: set %d holds %d lines, expected %d", set, used[set], want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_config_accepts_mask),    cmocka_unit_test(test_mask_48_sets_by_hand),
        cmocka_unit_test(test_mask_48_sets_reachable), cmocka_unit_test(test_mask_pow2_equals_linear),
        cmocka_unit_test(test_mask_in_l1d),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
