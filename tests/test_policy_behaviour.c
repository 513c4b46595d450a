/* What the built-in policies decide, on hand-built cases whose answer is worked out in the comments: GTO's
 * greedy-then-oldest issue order, LRR's rotation, two-level's demotion of a warp that issues a global load,
 * and FIFO vs LRU victims (hook by hook, and through a run on one L1D set). FR-FCFS vs FCFS is in test_dram.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "simrun.h"

/* One SM with one warp scheduler, so that every warp of the CTA competes for the same issue slot. Two SP pipes
 * with an initiation interval of 2 take one ALU instruction every cycle, so only the scoreboard (ALU latency 4)
 * and the policy decide who issues. */
static const char *const one_sched[] = {"gpu.n_sms=1", "sm.n_schedulers=1"};

/* Run prog under warp scheduler `name` (params keys=values) and return the issue log in spy. */
static void run_sched(struct sr_spy *spy, const struct sr_prog *prog, const char *name, const char *const *keys,
                      const char *const *values, int nparams)
{
    struct mw_config c;
    sr_config(&c, one_sched, 2);
    c.l1i.enabled = false; /* issue orders worked out without instruction fetch */
    assert_int_equal(c.sm.alu_latency, 4);
    assert_int_equal(c.sm.alu_units, 2);
    assert_int_equal(c.sm.alu_interval, 2);
    struct mw_workload w;
    sr_prog_workload(&w, prog);
    struct mw_sim *s = sr_sim(&c, &w);
    sr_spy_install(spy, s, name, keys, values, nparams, 64);
    sr_run(s, 100000, name);
    mw_sim_destroy(s);
    for (int i = 0; i < spy->n && i < spy->cap; i++) {
        assert_int_equal(spy->log[i].sm, 0);
        assert_int_equal(spy->log[i].sched, 0);
    }
}

/* The log's warps must be exactly want[0..n); on a mismatch print both sequences. */
static void expect_warps(const struct sr_spy *spy, const int *want, int n, const char *what)
{
    char got[256] = "", exp[256] = "";
    bool same = spy->n == n;
    for (int i = 0; i < spy->n && i < spy->cap; i++) {
        snprintf(got + strlen(got), sizeof got - strlen(got), "%d", spy->log[i].warp);
        if (i < n && spy->log[i].warp != want[i]) same = false;
    }
    for (int i = 0; i < n; i++) snprintf(exp + strlen(exp), sizeof exp - strlen(exp), "%d", want[i]);
    if (!same) fail_msg("%s: issue order %s (%d issues), expected %s", what, got, spy->n, exp);
}

#define ALU(d, s) {MW_OP_ALU, d, s, 0, 0}
#define LDG(d, s, a) {MW_OP_LD_GLOBAL, d, s, 0, a}

/* Three warps of four independent ALU instructions each (r4..r7 from r0, never written): every warp is ready
 * every cycle until its EXIT. */
static const struct sr_inst indep[] = {ALU(4, 0), ALU(5, 0), ALU(6, 0), ALU(7, 0)};
static const struct sr_prog indep3 = {3, {indep, indep, indep}, {4, 4, 4}};

/* Dependent chains, ages W0 < W1 < W2 (launch order = warp order):
 *   W0: A r2=f(r0); B r3=f(r2)            W1: X1..X4 r4..r7=f(r0); Y r8=f(r7)        W2: Z1, Z2 r4, r5=f(r0)
 * GTO, cycle by cycle (each instruction's result is ready 4 cycles after it issues):
 *   t0 all ready, no greedy warp yet: oldest W0 (A).   t1 W0's B waits for r2 (t4): oldest ready W1 (X1).
 *   t2, t3 W1 stays greedy (X2, X3).   t4 W0 is ready again and older, but W1 is greedy and ready (X4).
 *   t5 W1's Y waits for r7 (t8); ready W0 and W2: oldest, W0 (B) -- round-robin after W1 would take W2.
 *   t6 W0 greedy (EXIT).   t7 only W2 ready (Z1).   t8 W1 is ready and older, W2 greedy (Z2).   t9 W2 (EXIT).
 *   t10, t11 W1 (Y, EXIT).
 * So 0 1 1 1 1 0 0 2 2 2 1 1 in 12 consecutive cycles. */
static const struct sr_inst chain_w0[] = {ALU(2, 0), ALU(3, 2)};
static const struct sr_inst chain_w1[] = {ALU(4, 0), ALU(5, 0), ALU(6, 0), ALU(7, 0), ALU(8, 7)};
static const struct sr_inst chain_w2[] = {ALU(4, 0), ALU(5, 0)};
static const struct sr_prog chains = {3, {chain_w0, chain_w1, chain_w2}, {2, 5, 2}};

/* GTO keeps the warp that issued last while it is ready: with independent instructions W0 issues its four
 * ALUs and EXIT back to back, then W1, then W2 (the oldest ready warp each time the greedy one exits). */
static void test_gto_greedy_while_ready(void **st)
{
    (void)st;
    struct sr_spy spy;
    run_sched(&spy, &indep3, "gto", NULL, NULL, 0);
    static const int want[] = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2};
    expect_warps(&spy, want, 15, "gto, independent ALU");
    assert_int_equal(spy.log[4].op, MW_OP_EXIT);
    sr_spy_fini(&spy);
}

/* GTO on the dependent chains: greedy while ready, then the oldest ready warp (worked out above). */
static void test_gto_oldest_when_greedy_stalls(void **st)
{
    (void)st;
    struct sr_spy spy;
    run_sched(&spy, &chains, "gto", NULL, NULL, 0);
    static const int want[] = {0, 1, 1, 1, 1, 0, 0, 2, 2, 2, 1, 1};
    expect_warps(&spy, want, 12, "gto, dependent chains");
    for (int i = 0; i < 12; i++) assert_int_equal(spy.log[i].cycle - spy.log[0].cycle, i); /* no idle cycle */
    sr_spy_fini(&spy);
}

/* LRR takes the first ready warp after the one that issued last, wrapping: with every warp always ready the
 * order cycles 0 1 2 0 1 2 ... (each warp's fifth issue is its EXIT). */
static void test_lrr_rotates(void **st)
{
    (void)st;
    struct sr_spy spy;
    run_sched(&spy, &indep3, "lrr", NULL, NULL, 0);
    static const int want[] = {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2};
    expect_warps(&spy, want, 15, "lrr, independent ALU");
    sr_spy_fini(&spy);
}

/* LRR on the dependent chains: after the last issuer, skipping warps that wait on the scoreboard.
 *   t0 W0 (A)  t1 W1 (X1)  t2 W2 (Z1)  t3 none after W2: wrap to W1 (X2; W0's B waits until t4)  t4 W2 (Z2)
 *   t5 wrap: W0 (B)  t6 W1 (X3)  t7 W2 (EXIT)  t8 wrap: W0 (EXIT)  t9 W1 (X4)  then Y waits for r7 until t13,
 *   EXIT at t14. */
static void test_lrr_skips_waiting_warps(void **st)
{
    (void)st;
    struct sr_spy spy;
    run_sched(&spy, &chains, "lrr", NULL, NULL, 0);
    static const int want[] = {0, 1, 2, 1, 2, 0, 1, 2, 0, 1, 1, 1};
    expect_warps(&spy, want, 12, "lrr, dependent chains");
    static const uint64_t at[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 14};
    for (int i = 0; i < 12; i++) assert_int_equal(spy.log[i].cycle - spy.log[0].cycle, at[i]);
    sr_spy_fini(&spy);
}

/* Two-level with an active set of one warp. Each warp: a global load (r2, nothing depends on it), three
 * independent ALUs, EXIT.
 *   W0 enters the active set first and issues its load; the load demotes it to the back of the pending queue
 *   and W1 is promoted. W0's ALUs are ready, but W0 is pending: W1 issues its load next and is demoted in turn,
 *   which promotes W0. ALUs do not demote, so W0 issues its three ALUs and EXIT back to back while W1 (ready)
 *   waits; W0's exit promotes W1, which finishes.
 * Expected 0 1 0 0 0 0 1 1 1 1. Without the demotion W0 would run to its EXIT first (0 0 0 0 0 1 1 1 1 1, what
 * GTO gives); LRR would alternate. */
static const struct sr_inst ld_then_alu_w0[] = {LDG(2, 0, 0x10000000), ALU(4, 0), ALU(5, 0), ALU(6, 0)};
static const struct sr_inst ld_then_alu_w1[] = {LDG(2, 0, 0x10010000), ALU(4, 0), ALU(5, 0), ALU(6, 0)};
static const struct sr_prog ld_then_alu = {2, {ld_then_alu_w0, ld_then_alu_w1}, {4, 4}};

static void test_two_level_demotes_on_load(void **st)
{
    (void)st;
    static const char *const k[] = {"active_warps"}, *const v[] = {"1"};
    struct sr_spy spy;
    run_sched(&spy, &ld_then_alu, "two_level", k, v, 1);
    static const int want[] = {0, 1, 0, 0, 0, 0, 1, 1, 1, 1};
    expect_warps(&spy, want, 10, "two_level active_warps=1");
    assert_int_equal(spy.log[0].op, MW_OP_LD_GLOBAL);
    assert_int_equal(spy.log[1].op, MW_OP_LD_GLOBAL);
    sr_spy_fini(&spy);

    /* the same program under GTO: no demotion, W0 runs to its EXIT */
    run_sched(&spy, &ld_then_alu, "gto", NULL, NULL, 0);
    static const int gto[] = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1};
    expect_warps(&spy, gto, 10, "gto on the two-level case");
    sr_spy_fini(&spy);
}

/* ---- replacement ---------------------------------------------------------------------------------------- */

/* A replacement policy bound without a simulation, for calling its hooks by hand. */
struct repl {
    struct mw_policy_inst pi;
    const struct mw_replacement_ops *ops;
};
static void repl_init(struct repl *r, const char *name)
{
    const struct mw_policy *p = mw_policy_find(MW_PT_REPLACEMENT, name);
    if (!p) fail_msg("no replacement policy '%s'", name);
    struct mw_err e;
    if (mw_policy_inst_init(&r->pi, p, NULL, NULL, NULL, 0, &e)) fail_msg("%s: %s", name, e.msg);
    r->ops = (const struct mw_replacement_ops *)p;
}

/* Four ways, filled at 10, 20, 30, 40 and last used at 50, 60, 35, 45:
 *   all evictable:          FIFO -> way 0 (oldest fill 10), LRU -> way 2 (oldest use 35)
 *   way 0 reserved:         FIFO -> way 1 (20),            LRU -> way 2
 *   ways 0 and 2 reserved:  FIFO -> way 1,                 LRU -> way 3 (45 < 60)
 *   all reserved:           both -1 */
static void test_fifo_lru_victim_hooks(void **st)
{
    (void)st;
    struct mw_line_view v[4];
    memset(v, 0, sizeof v);
    static const uint64_t fill[4] = {10, 20, 30, 40}, used[4] = {50, 60, 35, 45};
    for (int w = 0; w < 4; w++) {
        v[w].line = 0x1000u * (uint64_t)(w + 1);
        v[w].fill_time = fill[w];
        v[w].last_access = used[w];
        v[w].valid = 1;
        v[w].sectors = 0xF;
    }
    static const uint8_t ev[4][4] = {{1, 1, 1, 1}, {0, 1, 1, 1}, {0, 1, 0, 1}, {0, 0, 0, 0}};
    static const int fifo_want[4] = {0, 1, 1, -1}, lru_want[4] = {2, 2, 3, -1};
    struct repl fifo, lru;
    repl_init(&fifo, "fifo");
    repl_init(&lru, "lru");
    for (int i = 0; i < 4; i++) {
        assert_int_equal(fifo.ops->victim(&fifo.pi, 0, 0, v, ev[i], 4), fifo_want[i]);
        assert_int_equal(lru.ops->victim(&lru.pi, 0, 0, v, ev[i], 4), lru_want[i]);
    }
    mw_policy_inst_fini(&fifo.pi);
    mw_policy_inst_fini(&lru.pi);
}

/* One 4-way set driven through the hooks the way L1D does: a hit updates last_access and calls touch, a miss
 * takes a never-used way or asks victim, then resets the way and calls insert. Accesses A B C D A E A at
 * cycles 1..7:
 *   LRU: A B C D fill ways 0-3; A hits (way 0 used at 5); E evicts the least recently used, B (way 1);
 *        A hits. Victims {1}, hits 2.
 *   FIFO: E evicts the oldest fill, A (way 0); A misses and evicts the oldest fill left, B (way 1).
 *        Victims {0, 1}, hits 1. */
static int drive_set(const char *name, int *victims, int *nvict)
{
    struct repl r;
    repl_init(&r, name);
    struct mw_line_view v[4];
    uint8_t used[4] = {0}, ev[4] = {1, 1, 1, 1};
    unsigned char meta[4][64];
    memset(v, 0, sizeof v);
    memset(meta, 0, sizeof meta);
    assert_true(r.ops->base.line_meta_bytes <= sizeof meta[0]);
    for (int w = 0; w < 4; w++) v[w].meta = meta[w];
    static const uint64_t seq[] = {0xA, 0xB, 0xC, 0xD, 0xA, 0xE, 0xA};
    int hits = 0;
    *nvict = 0;
    for (int i = 0; i < 7; i++) {
        uint64_t now = (uint64_t)i + 1;
        int way = -1;
        for (int w = 0; w < 4; w++)
            if (used[w] && v[w].line == seq[i]) way = w;
        if (way >= 0) {
            hits++;
            v[way].last_access = now;
            v[way].hits++;
            if (r.ops->touch) r.ops->touch(&r.pi, 0, 0, way, &v[way]);
            continue;
        }
        for (int w = 0; w < 4 && way < 0; w++)
            if (!used[w]) way = w;
        if (way < 0) {
            way = r.ops->victim(&r.pi, 0, 0, v, ev, 4);
            assert_in_range(way, 0, 3);
            victims[(*nvict)++] = way;
        }
        used[way] = 1;
        v[way].line = seq[i];
        v[way].fill_time = v[way].last_access = now;
        v[way].hits = 0;
        v[way].valid = 1;
        v[way].sectors = 0xF;
        memset(meta[way], 0, sizeof meta[way]);
        if (r.ops->insert) r.ops->insert(&r.pi, 0, 0, way, &v[way]);
    }
    mw_policy_inst_fini(&r.pi);
    return hits;
}

static void test_fifo_lru_sequence(void **st)
{
    (void)st;
    int vict[8], n;
    assert_int_equal(drive_set("lru", vict, &n), 2);
    assert_int_equal(n, 1);
    assert_int_equal(vict[0], 1);
    assert_int_equal(drive_set("fifo", vict, &n), 1);
    assert_int_equal(n, 2);
    assert_int_equal(vict[0], 0);
    assert_int_equal(vict[1], 1);
}

/* The engine's L1D under each policy, with a spy on victim. */
struct repl_spy {
    struct mw_replacement_ops ops; /* first member: pi->pol points here */
    const struct mw_replacement_ops *real;
    int victims[16], n;
};
static int spy_victim(struct mw_policy_inst *pi, int sm, int set, const struct mw_line_view *ways,
                      const uint8_t *evictable, int assoc)
{
    struct repl_spy *spy = (struct repl_spy *)(uintptr_t)pi->pol;
    int way = spy->real->victim(pi, sm, set, ways, evictable, assoc);
    if (spy->n < 16) spy->victims[spy->n] = way;
    spy->n++;
    return way;
}

/* One warp loads lines A B C D A E A, each 4 KB apart (32 sets x 128 B: all in one set of the 4-way L1D), each
 * load's address depending on the previous load, so every fill is complete before the next access. The answer
 * is the one worked out for test_fifo_lru_sequence, now with the engine's ways and counters. */
static void l1d_run(const char *repl, struct repl_spy *spy, struct mw_stat_list *l)
{
#define L(k) (0x10000000ull + 4096ull * (k))
    static const struct sr_inst loads[] = {LDG(2, 0, L(0)), LDG(3, 2, L(1)), LDG(4, 3, L(2)), LDG(5, 4, L(3)),
                                           LDG(6, 5, L(0)), LDG(7, 6, L(4)), LDG(8, 7, L(0))};
#undef L
    static const struct sr_prog prog = {1, {loads}, {7}};
    static const char *const sets[] = {"gpu.n_sms=1"};
    struct mw_config c;
    sr_config(&c, sets, 1);
    c.l1i.enabled = false;
    assert_int_equal(mw_l1d_sets(&c) * c.l1d.line_bytes, 4096);
    assert_int_equal(c.l1d.assoc, 4);
    struct mw_workload w;
    sr_prog_workload(&w, &prog);
    struct mw_sim *s = sr_sim(&c, &w);
    const struct mw_policy *p = mw_policy_find(MW_PT_REPLACEMENT, repl);
    assert_non_null(p);
    memset(spy, 0, sizeof *spy);
    spy->real = (const struct mw_replacement_ops *)p;
    spy->ops = *spy->real;
    spy->ops.victim = spy_victim;
    spy->ops.victim_order = MW_VICTIM_HOOK; /* ask the spy, not the declared order */
    struct mw_err e;
    if (mw_sim_set_policy(s, MW_PT_REPLACEMENT, &spy->ops.base, NULL, NULL, 0, &e)) fail_msg("%s", e.msg);
    sr_run(s, 1000000, repl);
    sr_stats(s, l);
    mw_sim_destroy(s);
}

static void test_fifo_lru_in_l1d(void **st)
{
    (void)st;
    struct repl_spy spy;
    struct mw_stat_list l;
    l1d_run("lru", &spy, &l);
    assert_int_equal(spy.n, 1);
    assert_int_equal(spy.victims[0], 1);
    assert_int_equal((uint64_t)sr_stat(&l, "l1d.hits"), 2);
    assert_int_equal((uint64_t)sr_stat(&l, "l1d.misses"), 5);
    assert_int_equal((uint64_t)sr_stat(&l, "l1d.evictions"), 1);
    mw_stat_list_fini(&l);

    l1d_run("fifo", &spy, &l);
    assert_int_equal(spy.n, 2);
    assert_int_equal(spy.victims[0], 0);
    assert_int_equal(spy.victims[1], 1);
    assert_int_equal((uint64_t)sr_stat(&l, "l1d.hits"), 1);
    assert_int_equal((uint64_t)sr_stat(&l, "l1d.misses"), 6);
    assert_int_equal((uint64_t)sr_stat(&l, "l1d.evictions"), 2);
    mw_stat_list_fini(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gto_greedy_while_ready),
        cmocka_unit_test(test_gto_oldest_when_greedy_stalls),
        cmocka_unit_test(test_lrr_rotates),
        cmocka_unit_test(test_lrr_skips_waiting_warps),
        cmocka_unit_test(test_two_level_demotes_on_load),
        cmocka_unit_test(test_fifo_lru_victim_hooks),
        cmocka_unit_test(test_fifo_lru_sequence),
        cmocka_unit_test(test_fifo_lru_in_l1d),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
