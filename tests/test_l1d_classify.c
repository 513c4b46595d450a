/* The L1D's miss classification (l1d.classify_misses, Linebacker §2.2): a miss to a line never filled into this
 * L1D is cold, a miss to a line filled before is capacity / conflict (2C). Hand-built request sequences on the
 * GTX480 L1D (32 sets x 4 ways, linear index, LRU, allocate on miss) and a hand-built program run whole. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "l1d.h"
#include "lineset.h"
#include "unitsim.h"

static const char *const classify_on[] = {"l1d.classify_misses=true"};

/* One request offered to SM 0's L1D (as in test_unit_l1d.c). */
struct acc {
    struct mw_coal_req q;
    uint8_t rflags, verdict;
    struct mw_l1d_access a;
};
static int offer(struct mw_sim *s, struct acc *x, int op, uint64_t line, uint32_t tracker, int flags)
{
    memset(x, 0, sizeof *x);
    x->q = (struct mw_coal_req){.line = line, .sectors = 0xf, .size = 128, .set = (uint16_t)(line / 128 % 32),
                                .lanes = 0xffffffffu};
    assert_int_equal(x->q.set, mw_l1d_set(&s->l1d[0], line));
    x->verdict = 0xff;
    x->a = (struct mw_l1d_access){.op = op, .pc = 0x100, .reqs = &x->q, .index = 0, .n = 1, .tracker = tracker,
                                  .inst = tracker, .inst_flags = flags, .rflags = &x->rflags, .verdict = &x->verdict};
    return mw_l1d_access(s, &s->l1d[0], &x->a);
}
static int load(struct mw_sim *s, struct acc *x, uint64_t line, uint32_t t)
{
    return offer(s, x, MW_OP_LD_GLOBAL, line, t, 0);
}
/* Give the miss queue's head back as its fill (a store's write is dropped: it fills nothing). */
static void fill_head(struct mw_sim *s)
{
    struct mw_l1d *l1 = &s->l1d[0];
    struct mw_req *r = mw_fifo_pop(&l1->missq);
    assert_non_null(r);
    if (r->kind == MW_REQ_WRITE || (r->flags & MW_RQ_BYPASS_L1)) {
        mw_req_free(&s->pool, r);
        return;
    }
    uint32_t waiters[MW_MSHR_WAITERS_MAX];
    uint64_t t_create[MW_MSHR_WAITERS_MAX];
    int set;
    bool freed;
    mw_l1d_fill(s, l1, r, waiters, t_create, &set, &freed);
}

/* Set 0 holds lines 0x100000 + 4096 k (line numbers 0x2000 + 32 k). The sequence and its classes:
 *   A miss            cold (never filled)            A again before its fill: merged, cold (still never filled)
 *   fill A; A hit     (no miss)
 *   B, C, D miss      cold x3, each filled           set: A B C D, LRU order A (hit at t=2) B C D
 *   E miss            cold, evicts A (LRU)           set: B C D E
 *   A miss            2C (filled before), evicts B   set: C D E A
 *   store C           invalidates C (write-evict)    C load: 2C (filled before; the store took it)
 *   G bypassed        not an L1D miss, not counted   G cached afterwards: cold (bypassed data never filled L1D)
 *   F miss            cold
 * cold = A, A(merged), B, C, D, E, G, F = 8; 2C = A, C = 2; misses = 10 = cold + 2C. */
static void test_sequence(void **st)
{
    (void)st;
    struct mw_sim *s = us_machine(classify_on, 1);
    struct mw_l1d *l1 = &s->l1d[0];
    struct acc x;
    const uint64_t base = 0x100000, A = base, B = base + 4096, C = base + 2 * 4096, D = base + 3 * 4096,
                   E = base + 4 * 4096, F = base + 5 * 4096, G = base + 6 * 4096;
    uint32_t t = 1;
    us_set_core_now(s, 1);
    assert_int_equal(load(s, &x, A, t++), MW_STALL_NONE);
    assert_true(x.a.miss);
    assert_int_equal(load(s, &x, A, t++), MW_STALL_NONE);
    assert_int_equal(l1->st.mshr_merges, 1);
    assert_int_equal(l1->st.miss_cold, 2);
    fill_head(s);
    us_set_core_now(s, 2);
    assert_int_equal(load(s, &x, A, t++), MW_STALL_NONE);
    assert_false(x.a.miss);
    const uint64_t bcd[] = {B, C, D};
    for (int i = 0; i < 3; i++) {
        us_set_core_now(s, 3 + (uint64_t)i);
        assert_int_equal(load(s, &x, bcd[i], t++), MW_STALL_NONE);
        fill_head(s);
    }
    assert_int_equal(l1->st.miss_cold, 5);
    assert_int_equal(l1->st.miss_2c, 0);
    us_set_core_now(s, 10);
    assert_int_equal(load(s, &x, E, t++), MW_STALL_NONE);
    fill_head(s);
    assert_int_equal(mw_tags_find(&l1->tags, 0, A), -1); /* A was the LRU line */
    us_set_core_now(s, 11);
    assert_int_equal(load(s, &x, A, t++), MW_STALL_NONE);
    fill_head(s);
    assert_int_equal(l1->st.miss_cold, 6);
    assert_int_equal(l1->st.miss_2c, 1);
    us_set_core_now(s, 12);
    assert_int_equal(offer(s, &x, MW_OP_ST_GLOBAL, C, t++, 0), MW_STALL_NONE);
    fill_head(s);
    assert_int_equal(l1->st.store_invalidates, 1);
    us_set_core_now(s, 13);
    assert_int_equal(load(s, &x, C, t++), MW_STALL_NONE);
    fill_head(s);
    assert_int_equal(l1->st.miss_2c, 2);
    us_set_core_now(s, 14);
    assert_int_equal(offer(s, &x, MW_OP_LD_GLOBAL, G, t++, MW_IF_BYPASS_L1), MW_STALL_NONE);
    assert_int_equal(l1->st.bypasses, 1);
    fill_head(s);
    assert_int_equal(l1->st.miss_cold, 6); /* a bypass is not an L1D miss */
    us_set_core_now(s, 15);
    assert_int_equal(load(s, &x, G, t++), MW_STALL_NONE);
    fill_head(s);
    us_set_core_now(s, 16);
    assert_int_equal(load(s, &x, F, t++), MW_STALL_NONE);
    fill_head(s);
    assert_int_equal(l1->st.miss_cold, 8);
    assert_int_equal(l1->st.miss_2c, 2);
    assert_int_equal(l1->st.misses, 10);
    mw_sim_destroy(s);
}

/* A reservation failure is retried and counted once, when the miss is accepted (as l1d.misses counts it): with
 * 1 MSHR entry, a second line's miss stalls (nothing counted), then after the first fill is a cold miss. */
static void test_reservation_fail_not_counted(void **st)
{
    (void)st;
    static const char *const sets[] = {"l1d.classify_misses=true", "l1d.mshr_entries=1"};
    struct mw_sim *s = us_machine(sets, 2);
    struct mw_l1d *l1 = &s->l1d[0];
    struct acc x;
    us_set_core_now(s, 1);
    assert_int_equal(load(s, &x, 0x200000, 1), MW_STALL_NONE);
    assert_int_equal(load(s, &x, 0x200080, 2), MW_STALL_MSHR);
    assert_int_equal(l1->st.miss_cold + l1->st.miss_2c, 1);
    fill_head(s);
    assert_int_equal(load(s, &x, 0x200080, 2), MW_STALL_NONE);
    assert_int_equal(l1->st.miss_cold, 2);
    assert_int_equal(l1->st.misses, 2);
    mw_sim_destroy(s);
}

/* Off (the default): no set, nothing counted. */
static void test_off(void **st)
{
    (void)st;
    struct mw_sim *s = us_machine(NULL, 0);
    struct mw_l1d *l1 = &s->l1d[0];
    struct acc x;
    assert_null(l1->filled.slot);
    us_set_core_now(s, 1);
    assert_int_equal(load(s, &x, 0x100000, 1), MW_STALL_NONE);
    fill_head(s);
    assert_int_equal(l1->st.misses, 1);
    assert_int_equal(l1->st.miss_cold + l1->st.miss_2c, 0);
    mw_sim_destroy(s);
}

/* The set grows past its first table: 5,000 lines in 1,024 slots (at most half full, so 16,384 after three
 * doublings), every one found, none of 5,000 others. */
static void test_lineset_grows(void **st)
{
    (void)st;
    struct mw_lineset x = {0};
    assert_int_equal(mw_lineset_init(&x, 1024), 0);
    for (uint64_t i = 0; i < 5000; i++) assert_int_equal(mw_lineset_add(&x, 0x40000000 + 128 * i * 7), 0);
    for (uint64_t i = 0; i < 5000; i++) assert_int_equal(mw_lineset_add(&x, 0x40000000 + 128 * i * 7), 0);
    assert_int_equal(x.n, 5000);
    assert_int_equal(x.mask + 1, 16384);
    for (uint64_t i = 0; i < 5000; i++) {
        assert_true(mw_lineset_has(&x, 0x40000000 + 128 * i * 7));
        assert_false(mw_lineset_has(&x, 0x40000000 + 128 * (i * 7 + 1)));
    }
    assert_false(mw_lineset_has(&x, 0));
    mw_lineset_fini(&x);
    assert_null(x.slot);
}

/* A hand-built program run whole: one warp, each load waiting for the one before (its address register is the
 * previous load's destination), so each finds the L1D as the last fill left it. Lines X0..X4 all in set 0
 * (4,096 B apart; 32 sets x 128 B):
 *   X0 X1 X2 X3  cold x4 (set: X0 X1 X2 X3)
 *   X4           cold, evicts X0 (LRU)
 *   X0           2C, evicts X1
 *   X4           hit
 *   X1           2C, evicts X2
 *   X0 + 128     cold (set 1, empty)
 * cold 6, 2C 2, hits 1, misses 8; every stat but the two new ones as with the knob off. */
static void test_program(void **st)
{
    (void)st;
    const uint64_t X = 0x100000;
    static struct sr_inst code[9];
    const uint64_t seq[] = {X, X + 4096, X + 2 * 4096, X + 3 * 4096, X + 4 * 4096, X, X + 4 * 4096, X + 4096,
                            X + 128};
    for (int k = 0; k < 9; k++)
        code[k] = (struct sr_inst){.op = MW_OP_LD_GLOBAL, .dst = (uint8_t)(1 + k), .src0 = (uint8_t)k, .addr = seq[k]};
    static const struct sr_prog prog = {.nwarps = 1, .warp = {code}, .len = {9}};
    struct mw_stat_list l[2];
    for (int on = 0; on < 2; on++) {
        struct mw_config c;
        sr_config(&c, classify_on, on);
        struct mw_workload w;
        sr_prog_workload(&w, &prog);
        struct mw_sim *s = sr_sim(&c, &w);
        sr_run(s, 1000000, "the classify program");
        sr_stats(s, &l[on]);
        mw_sim_destroy(s);
    }
    assert_int_equal(sr_stat(&l[1], "l1d.miss_cold"), 6);
    assert_int_equal(sr_stat(&l[1], "l1d.miss_2c"), 2);
    assert_int_equal(sr_stat(&l[1], "l1d.hits"), 1);
    assert_int_equal(sr_stat(&l[1], "l1d.misses"), 8);
    assert_int_equal(sr_stat(&l[1], "l1d.0.miss_cold"), 6); /* the one CTA runs on SM 0 */
    assert_int_equal(sr_stat(&l[0], "l1d.miss_cold") + sr_stat(&l[0], "l1d.miss_2c"), 0);
    for (int i = 0; i < l[0].n; i++) { /* the knob changes nothing else */
        const char *n = l[0].v[i].name;
        if (sr_effort_stat(n) || strstr(n, "miss_cold") || strstr(n, "miss_2c")) continue;
        const struct mw_stat_entry *b = mw_stat_list_get(&l[1], n);
        assert_non_null(b);
        if (b->value != l[0].v[i].value) fail_msg("%s: %g off, %g on", n, l[0].v[i].value, b->value);
    }
    mw_stat_list_fini(&l[0]);
    mw_stat_list_fini(&l[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sequence),
        cmocka_unit_test(test_reservation_fail_not_counted),
        cmocka_unit_test(test_off),
        cmocka_unit_test(test_lineset_grows),
        cmocka_unit_test(test_program),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
