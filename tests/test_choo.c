/* Choo 2016's policies (policies/choo_sel.c, lasc.c, memsched.c, mrpb.c) on what they decide, on hand-built cases
 * whose answers are worked out in the comments: IndSelCaching on the thesis's 8-request example and schemes a/b/c,
 * LocSelCaching's comparison of a PC's re-reference degree with the set's smallest RRC, LASC's sticky OR, its
 * threshold and its probe update, GroupedRR's group advance, MRPB's bypass on a stall and its drain order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "policy_iface.h"
#include "runcmd.h"
#include "../policies/choo_sel.h"

/* A one-SM simulation running `prog` with the given --set assignments, run to completion. */
static struct mw_sim *ran(const struct sr_prog *prog, const char *const *sets, int n)
{
    struct mw_sim *s = prog_sim(prog, sets, n);
    sr_run(s, 200000, "choo");
    return s;
}

static const struct sr_inst one_alu[] = {ALU(4, 0)};
static const struct sr_prog idle1 = {1, {one_alu}, {1}};

static int decide(struct mw_policy_inst *pi, int sm, uint64_t pc, const struct mw_coal_req *reqs, int n, int i,
                  int retry)
{
    const struct mw_l1d_bypass_ops *ops = (const struct mw_l1d_bypass_ops *)pi->pol;
    struct mw_bypass_ctx c = {.sm = sm, .warp = 0, .pc = pc, .index = i, .n = n, .reqs = reqs, .retry = retry};
    return ops->decide(pi, &c);
}

/* The thesis's example (§4.3.2): 8 requests, n = 2, five to set i (7 here) and three to set k (9): set i caches
 * 2 and bypasses 3, set k caches 2 and bypasses 1, the first ones of each set bypassing. Set 7 holds requests
 * 0, 2, 3, 5, 7 -> bypass 0, 2, 3, cache 5, 7; set 9 holds 1, 4, 6 -> bypass 1, cache 4, 6. */
static void test_indsel_example(void **state)
{
    (void)state;
    const char *const sets[] = {PI_ONE_SM, "l1d.assoc=2", "policies.l1d_bypass=indsel"};
    struct mw_sim *s = ran(&idle1, sets, 3);
    struct mw_policy_inst *pi = mw_sim_policy(s, MW_PT_L1D_BYPASS);
    assert_string_equal(pi->pol->name, "indsel");
    struct mw_coal_req r[8];
    const int set_of[8] = {7, 9, 7, 7, 9, 7, 9, 7};
    for (int i = 0; i < 8; i++) r[i] = (struct mw_coal_req){.line = 0x1000u * (uint64_t)i, .set = (uint16_t)set_of[i]};
    const int want[8] = {1, 1, 1, 1, 0, 0, 0, 0};
    for (int i = 0; i < 8; i++) assert_int_equal(decide(pi, 0, 0, r, 8, i, 0), want[i]);
    /* the same rule through choo_sel_bypass (policies/choo_sel.h), for schemes a (bypass all 8), b (cache requests 0, 1), c (cache
     * 6, 7), and a convergent pair (N = 2 <= n: everything cached whatever the scheme) */
    for (int i = 0; i < 8; i++) {
        assert_true(choo_sel_bypass(CHOO_A, r, 8, i, 2));
        assert_int_equal(choo_sel_bypass(CHOO_B, r, 8, i, 2), i >= 2);
        assert_int_equal(choo_sel_bypass(CHOO_C, r, 8, i, 2), i < 6);
    }
    for (int sc = CHOO_A; sc <= CHOO_SET; sc++) assert_false(choo_sel_bypass(sc, r, 2, 1, 2));
    mw_sim_destroy(s);
}

/* LocSelCaching's victim comparison. One warp loads lines A, B, C of set 0 (one request each, N = 1: normal
 * caching, ways 0..2 in that order), waits for them, hits A twice, B once, C once, then loads D (way 3):
 * RRC(A) = 2, RRC(B) = RRC(C) = 1, RRC(D) = 0. LRU's victim is A (its last touch, the second hit, is the oldest);
 * the smallest RRC is D's. A 32-request load all in set 0 (N = 32 > 4) reaches the locality check with its last 4
 * requests (IndSel bypasses requests 0..27 whatever the table says):
 *  - PC P whose table entry is avg 1 (one eviction with RRC 1): 1 > RRC(D) = 0 -> cached, and victim() then names
 *    D's way 3 instead of LRU's way 0 (once: the next victim() is LRU's again);
 *  - PC Q whose entry is avg 0 (one eviction with RRC 0): 0 > 0 fails -> bypassed;
 *  - PC R with no entry: cached (table_miss = cache); with table_miss = zero its degree is 0 -> bypassed;
 *  - Q after two more evictions with RRC 0 and 1: sum 1 > 0 -> cached with rrt_mode = sum; avg 1/3 = 0 -> bypass. */
static const struct sr_inst fill4[] = {
    LDG(4, 0, SAME_SET(0)),  LDG(5, 0, SAME_SET(1)), LDG(6, 0, SAME_SET(2)),  ALU(7, 4),
    ALU(8, 5),               ALU(9, 6),              LDG(10, 9, SAME_SET(0)), ALU(11, 10),
    LDG(12, 11, SAME_SET(0)), ALU(13, 12),           LDG(14, 13, SAME_SET(1)), ALU(15, 14),
    LDG(4, 15, SAME_SET(2)), ALU(5, 4),              LDG(6, 5, SAME_SET(3)),  ALU(7, 6)};
static const struct sr_prog fill4p = {1, {fill4}, {NINST(fill4)}};

static void evict_rrc(struct mw_policy_inst *repl, uint64_t pc, uint8_t rrc)
{
    const struct mw_replacement_ops *ops = (const struct mw_replacement_ops *)repl->pol;
    uint8_t meta[2] = {(uint8_t)choo_hash_pc(pc, 7), rrc};
    struct mw_line_view v = {.valid = 1, .alloc_pc = pc, .meta = meta};
    ops->evicted(repl, 0, 31, 0, &v, MW_EVICT_REPLACE);
}

static void locsel_case(const char *mode, const char *miss)
{
    char m1[64], m2[64];
    snprintf(m1, sizeof m1, "policies.bundle.rrt_mode=%s", mode);
    snprintf(m2, sizeof m2, "policies.bundle.table_miss=%s", miss);
    const char *const sets[] = {PI_ONE_SM, "policies.bundle=locsel", m1, m2};
    struct mw_sim *s = ran(&fill4p, sets, 4);
    struct mw_policy_inst *byp = mw_sim_policy(s, MW_PT_L1D_BYPASS), *repl = mw_sim_policy(s, MW_PT_REPLACEMENT);
    assert_string_equal(byp->pol->name, "locsel");
    /* the RRCs the run left: A 2, B 1, C 1, D 0 in ways 0..3 */
    const unsigned want_rrc[4] = {2, 1, 1, 0};
    for (int w = 0; w < 4; w++) {
        struct mw_line_view v;
        mw_l1d_line(s, 0, 0, w, &v);
        assert_int_equal(v.line, SAME_SET(w));
        assert_int_equal(mw_l1d_meta(s, repl, 0, 0, w)[1], want_rrc[w]);
    }
    const uint64_t P = 0xF0000100, Q = 0xF0000200, R = 0xF0000300;
    assert_int_not_equal(choo_hash_pc(P, 7), choo_hash_pc(Q, 7));
    assert_int_not_equal(choo_hash_pc(R, 7), choo_hash_pc(P, 7));
    assert_int_not_equal(choo_hash_pc(R, 7), choo_hash_pc(Q, 7));
    evict_rrc(repl, P, 1);
    evict_rrc(repl, Q, 0);
    struct mw_coal_req r[32];
    for (int i = 0; i < 32; i++) r[i] = (struct mw_coal_req){.line = SAME_SET(8 + i), .set = 0, .sectors = 0xF};
    for (int i = 0; i < 28; i++) assert_int_equal(decide(byp, 0, P, r, 32, i, 0), MW_BYPASS);
    assert_int_equal(decide(byp, 0, P, r, 32, 31, 0), MW_CACHE);
    /* the admitted request evicts the smallest-RRC line (D, way 3), not LRU's way 0 */
    struct mw_line_view v[4];
    uint8_t ev[4] = {1, 1, 1, 1};
    for (int w = 0; w < 4; w++) mw_l1d_line(s, 0, 0, w, &v[w]);
    const struct mw_replacement_ops *rops = (const struct mw_replacement_ops *)repl->pol;
    assert_int_equal(rops->victim(repl, 0, 0, v, ev, 4), 3);
    assert_int_equal(rops->victim(repl, 0, 0, v, ev, 4), 0); /* consumed: LRU's A again */
    assert_int_equal(decide(byp, 0, Q, r, 32, 31, 0), MW_BYPASS);
    assert_int_equal(decide(byp, 0, R, r, 32, 31, 0), strcmp(miss, "cache") == 0 ? MW_CACHE : MW_BYPASS);
    evict_rrc(repl, Q, 0);
    evict_rrc(repl, Q, 1); /* Q: sum 1, count 3 */
    assert_int_equal(decide(byp, 0, Q, r, 32, 31, 0), strcmp(mode, "sum") == 0 ? MW_CACHE : MW_BYPASS);
    mw_sim_destroy(s);
}

static void test_locsel_victim(void **state)
{
    (void)state;
    locsel_case("avg", "cache");
    locsel_case("sum", "zero");
}

/* LASC on events built by hand, PC P (the RFT entry of its 6-bit hash):
 *  1-bit: no entry -> cache; an eviction with 0 hits -> entry valid, reuse 0 -> bypass (with a probe: verdict 2);
 *  one with 2 hits -> reuse 1 -> cache; another with 0 hits leaves reuse 1 (sticky OR) -> cache.
 *  multi-bit: evictions with 0 and 1 hits -> ReuseFreqValues 1 and 2, average 1.5: TH 1.0 caches (1.5 > 1.0),
 *  TH 1.5 bypasses (1.5 <= 1.5). reset_at_kernel: a kernel start clears the entry -> cache. */
static void lasc_evict(struct mw_policy_inst *pi, uint64_t pc, uint32_t hits)
{
    struct mw_event ev = {.kind = MW_EV_L1D_EVICT, .sm = 0, .set = 3, .way = 0, .alloc_pc = pc, .value = hits};
    pi->pol->on_event(pi, &ev);
}

static struct mw_sim *lasc_sim(const char *const *extra, int n)
{
    const char *sets[8] = {PI_ONE_SM, "policies.l1d_bypass=lasc"};
    for (int i = 0; i < n; i++) sets[2 + i] = extra[i];
    return ran(&idle1, sets, 2 + n);
}

static void test_lasc_rules(void **state)
{
    (void)state;
    const uint64_t P = 0xF0000100;
    struct mw_coal_req r[1] = {{.line = SAME_SET(40), .set = 0, .sectors = 0xF}};
    struct mw_sim *s = lasc_sim(NULL, 0);
    struct mw_policy_inst *pi = mw_sim_policy(s, MW_PT_L1D_BYPASS);
    assert_int_equal(decide(pi, 0, P, r, 1, 0, 0), MW_CACHE);
    lasc_evict(pi, P, 0);
    assert_int_equal(decide(pi, 0, P, r, 1, 0, 0), MW_BYPASS_PROBE);
    lasc_evict(pi, P, 2);
    assert_int_equal(decide(pi, 0, P, r, 1, 0, 0), MW_CACHE);
    lasc_evict(pi, P, 0);
    assert_int_equal(decide(pi, 0, P, r, 1, 0, 0), MW_CACHE);
    mw_sim_destroy(s);

    const char *const th10[] = {"policies.l1d_bypass.bits=multi", "policies.l1d_bypass.th=1.0"};
    const char *const th15[] = {"policies.l1d_bypass.bits=multi", "policies.l1d_bypass.th=1.5",
                                "policies.l1d_bypass.reset_at_kernel=true"};
    s = lasc_sim(th10, 2);
    pi = mw_sim_policy(s, MW_PT_L1D_BYPASS);
    lasc_evict(pi, P, 0);
    assert_int_equal(decide(pi, 0, P, r, 1, 0, 0), MW_BYPASS_PROBE); /* average 1.0 <= 1.0 */
    lasc_evict(pi, P, 1);
    assert_int_equal(decide(pi, 0, P, r, 1, 0, 0), MW_CACHE);        /* average 1.5 > 1.0 */
    mw_sim_destroy(s);
    s = lasc_sim(th15, 3);
    pi = mw_sim_policy(s, MW_PT_L1D_BYPASS);
    lasc_evict(pi, P, 0);
    lasc_evict(pi, P, 1);
    assert_int_equal(decide(pi, 0, P, r, 1, 0, 0), MW_BYPASS_PROBE); /* average 1.5 <= 1.5 */
    struct mw_event ks = {.kind = MW_EV_KERNEL_START};
    pi->pol->on_event(pi, &ks);
    assert_int_equal(decide(pi, 0, P, r, 1, 0, 0), MW_CACHE);        /* the entry was cleared */
    mw_sim_destroy(s);
}

/* The probe update of the literal reading (serve_hit_on_bypass = false). The run leaves A in set 0, way 0 (fill4p, above).
 * PC P is predicted no-reuse (an eviction with 0 hits); a request of P to A is bypassed (verdict 1) but its probe
 * hits, so A's per-line count becomes 1; when A leaves (0 hits counted by the engine), the RFT sees 0 + 1 = 1 hit
 * and P turns back to "reuse": cached. A request of P to an absent line leaves nothing to update. */
static void test_lasc_probe_update(void **state)
{
    (void)state;
    const char *const sets[] = {PI_ONE_SM, "policies.l1d_bypass=lasc", "policies.l1d_bypass.serve_hit_on_bypass=false"};
    struct mw_sim *s = ran(&fill4p, sets, 3);
    struct mw_policy_inst *pi = mw_sim_policy(s, MW_PT_L1D_BYPASS);
    const uint64_t P = 0xF0000100;
    lasc_evict(pi, P, 0);
    struct mw_coal_req miss[1] = {{.line = SAME_SET(40), .set = 0, .sectors = 0xF}};
    struct mw_coal_req hitA[1] = {{.line = SAME_SET(0), .set = 0, .sectors = 0xF}};
    assert_int_equal(decide(pi, 0, P, miss, 1, 0, 0), MW_BYPASS);
    assert_int_equal(mw_l1d_meta(s, pi, 0, 0, 0)[0], 0);
    assert_int_equal(decide(pi, 0, P, hitA, 1, 0, 0), MW_BYPASS);
    assert_int_equal(mw_l1d_meta(s, pi, 0, 0, 0)[0], 1);
    struct mw_event ev = {.kind = MW_EV_L1D_EVICT, .sm = 0, .set = 0, .way = 0, .alloc_pc = P, .value = 0};
    pi->pol->on_event(pi, &ev);
    assert_int_equal(decide(pi, 0, P, miss, 1, 0, 0), MW_CACHE);
    mw_sim_destroy(s);
}

/* GroupedRR's group advance on an idle LDST unit (no head request can stall: every probe is a serviceable miss,
 * so the first of each group is served). Waiting warps 1, 3, 5, 7, 9, 11; k = 4:
 *   cycle 1: group {1, 3, 5, 7} -> warp 1, pointer past 7 (8);
 *   cycle 2: group {9, 11, 1, 3} -> warp 9, pointer past 3 (4);
 *   cycle 3: group {5, 7, 9, 11} -> warp 5.
 * RR (k = 1): 1, then 3, then 5. FIXED: always the lowest warp, 1. */
static void grr_case(const char *order, const int *want)
{
    char o[64];
    snprintf(o, sizeof o, "policies.ldst_scheduler.order=%s", order);
    const char *const sets[] = {PI_ONE_SM, "policies.ldst_scheduler=memsched", o};
    struct mw_sim *s = ran(&idle1, sets, 3);
    struct mw_policy_inst *pi = mw_sim_policy(s, MW_PT_LDST_SCHED);
    const struct mw_ldst_sched_ops *ops = (const struct mw_ldst_sched_ops *)pi->pol;
    assert_int_equal(ops->slots(pi), 48);
    const uint16_t warps[6] = {7, 1, 11, 3, 9, 5}; /* slot order need not be warp order */
    for (int c = 0; c < 3; c++) assert_int_equal(warps[ops->pick(pi, 0, warps, 6)], want[c]);
    mw_sim_destroy(s);
}

static void test_memsched_grr(void **state)
{
    (void)state;
    const int grr[3] = {1, 9, 5}, rr[3] = {1, 3, 5}, fixed[3] = {1, 1, 1};
    grr_case("grr", grr);
    grr_case("rr", rr);
    grr_case("fixed", fixed);
}

/* MRPB, the published design (defaults): a first attempt is cached; after a failed reservation it bypasses only
 * if the failure was an associativity stall (no line of the set could be allocated), not for a full MSHR table
 * or miss queue. Drain: the fixed priority over warp-ID queues, the lowest-numbered non-empty queue first:
 *   candidates warps {4, 2, 6} -> queues 4, 2, 6 -> warp 2 (index 1), whichever warp went last;
 *   then {0, 4, 9} -> warp 0 (index 0), though warp 2 went last;
 *   {6, 9, 5} -> warp 5 (index 2).
 * The finished simulation has no instruction in its LDST unit, so every candidate's age is the same and ties
 * keep the first. With queues = 4 a warp's queue is warp mod 4: {5, 2, 6} -> queues 1, 2, 2 -> warp 5 (index 0);
 * {6, 3, 10} -> queues 2, 3, 2 -> warp 6 (index 0, the first of the two in queue 2); {7, 3, 8} -> 3, 3, 0 ->
 * warp 8 (index 2). */
static void test_mrpb(void **state)
{
    (void)state;
    const char *const sets[] = {PI_ONE_SM, "policies.bundle=mrpb"};
    struct mw_sim *s = ran(&idle1, sets, 2);
    struct mw_policy_inst *byp = mw_sim_policy(s, MW_PT_L1D_BYPASS), *sch = mw_sim_policy(s, MW_PT_LDST_SCHED);
    struct mw_coal_req r[1] = {{.line = SAME_SET(1), .set = 0, .sectors = 0xF}};
    assert_int_equal(decide(byp, 0, 0, r, 1, 0, MW_STALL_NONE), MW_CACHE);
    assert_int_equal(decide(byp, 0, 0, r, 1, 0, MW_STALL_LINE_ALLOC), MW_BYPASS);
    assert_int_equal(decide(byp, 0, 0, r, 1, 0, MW_STALL_MSHR), MW_CACHE);
    assert_int_equal(decide(byp, 0, 0, r, 1, 0, MW_STALL_MISS_QUEUE), MW_CACHE);
    const struct mw_ldst_sched_ops *ops = (const struct mw_ldst_sched_ops *)sch->pol;
    const uint16_t a[3] = {4, 2, 6}, b[3] = {0, 4, 9}, c[3] = {6, 9, 5};
    assert_int_equal(ops->pick(sch, 0, a, 3), 1);
    assert_int_equal(ops->pick(sch, 0, b, 3), 0);
    assert_int_equal(ops->pick(sch, 0, c, 3), 2);
    mw_sim_destroy(s);

    const char *const sets4[] = {PI_ONE_SM, "policies.bundle=mrpb", "policies.bundle.queues=4"};
    s = ran(&idle1, sets4, 3);
    sch = mw_sim_policy(s, MW_PT_LDST_SCHED);
    ops = (const struct mw_ldst_sched_ops *)sch->pol;
    const uint16_t d[3] = {5, 2, 6}, e[3] = {6, 3, 10}, f[3] = {7, 3, 8};
    assert_int_equal(ops->pick(sch, 0, d, 3), 0);
    assert_int_equal(ops->pick(sch, 0, e, 3), 0);
    assert_int_equal(ops->pick(sch, 0, f, 3), 2);
    mw_sim_destroy(s);
}

/* MRPB, the earlier reading (drain = warp, bypass_on = alloc): a full MSHR table bypasses too, a full miss queue
 * (which a bypass cannot avoid) does not. The drain keeps the warp it served last: {4, 2, 6} with equal ages ->
 * the first (warp 4), which is now being drained; {0, 4, 9} -> warp 4 again (index 1), though warp 0 comes
 * first. bypass_on = any also bypasses after a full miss queue; none never bypasses. */
static void test_mrpb_readings(void **state)
{
    (void)state;
    const char *const sets[] = {PI_ONE_SM, "policies.bundle=mrpb", "policies.bundle.drain=warp",
                                "policies.bundle.bypass_on=alloc"};
    struct mw_sim *s = ran(&idle1, sets, 4);
    struct mw_policy_inst *byp = mw_sim_policy(s, MW_PT_L1D_BYPASS), *sch = mw_sim_policy(s, MW_PT_LDST_SCHED);
    struct mw_coal_req r[1] = {{.line = SAME_SET(1), .set = 0, .sectors = 0xF}};
    assert_int_equal(decide(byp, 0, 0, r, 1, 0, MW_STALL_NONE), MW_CACHE);
    assert_int_equal(decide(byp, 0, 0, r, 1, 0, MW_STALL_LINE_ALLOC), MW_BYPASS);
    assert_int_equal(decide(byp, 0, 0, r, 1, 0, MW_STALL_MSHR), MW_BYPASS);
    assert_int_equal(decide(byp, 0, 0, r, 1, 0, MW_STALL_MISS_QUEUE), MW_CACHE);
    const struct mw_ldst_sched_ops *ops = (const struct mw_ldst_sched_ops *)sch->pol;
    const uint16_t a[3] = {4, 2, 6}, b[3] = {0, 4, 9};
    assert_int_equal(ops->pick(sch, 0, a, 3), 0);
    assert_int_equal(ops->pick(sch, 0, b, 3), 1);
    mw_sim_destroy(s);

    const char *const any[] = {PI_ONE_SM, "policies.bundle=mrpb", "policies.bundle.bypass_on=any"};
    s = ran(&idle1, any, 3);
    byp = mw_sim_policy(s, MW_PT_L1D_BYPASS);
    assert_int_equal(decide(byp, 0, 0, r, 1, 0, MW_STALL_NONE), MW_CACHE);
    assert_int_equal(decide(byp, 0, 0, r, 1, 0, MW_STALL_MSHR), MW_BYPASS);
    assert_int_equal(decide(byp, 0, 0, r, 1, 0, MW_STALL_MISS_QUEUE), MW_BYPASS);
    mw_sim_destroy(s);

    const char *const none[] = {PI_ONE_SM, "policies.bundle=mrpb", "policies.bundle.bypass_on=none"};
    s = ran(&idle1, none, 3);
    byp = mw_sim_policy(s, MW_PT_L1D_BYPASS);
    assert_int_equal(decide(byp, 0, 0, r, 1, 0, MW_STALL_LINE_ALLOC), MW_CACHE);
    assert_int_equal(decide(byp, 0, 0, r, 1, 0, MW_STALL_MSHR), MW_CACHE);
    mw_sim_destroy(s);
}

/* Coincident vs non-coincident intra-warp misses (l1d.victim_iw_coincident). One warp, 4-way L1D: load 1's 32
 * lanes read 32 lines 4 KB apart (all in set 0), then, once it is back, load 2 reads 32 other lines of set 0.
 * Load 1: requests 0-3 take the 4 ways; request 4 waits until a fill makes a line valid, then each of requests
 * 4..31 evicts a line load 1 itself allocated: 28 IW misses, all coincident. Load 2: its requests 0-3 evict the 4
 * lines load 1 left (lines 28..31: the same warp, another instruction: 4 non-coincident IW misses), requests 4..31
 * evict load 2's own lines (28 coincident). Total victim_iw = 60, coincident 56; no XW / XB victims. */
struct co_inst {
    uint8_t op, dst, src0;
    uint64_t addr, stride;
};
static const struct co_inst co_prog[] = {{MW_OP_LD_GLOBAL, 4, 0, SAME_SET(0), 4096},
                                         {MW_OP_ALU, 5, 4, 0, 0},
                                         {MW_OP_LD_GLOBAL, 6, 5, SAME_SET(32), 4096},
                                         {MW_OP_ALU, 7, 6, 0, 0}};

static int co_next(const struct mw_kgen_kernel *k, const struct mw_tctx *lane0, uint32_t mask, void *scratch,
                   struct mw_inst *out, struct mw_err *e)
{
    (void)k, (void)lane0, (void)e;
    int *pos = scratch;
    if (*pos >= NINST(co_prog)) return 0;
    const struct co_inst *a = &co_prog[*pos];
    memset(out, 0, sizeof *out);
    out->pc = (uint64_t)*pos * 16;
    out->mask = mask;
    out->op = a->op;
    out->dst[out->ndst++] = a->dst;
    out->src[out->nsrc++] = a->src0;
    if (mw_op_is_mem(a->op)) {
        out->width = 4;
        for (int l = 0; l < MW_WARP_SIZE; l++)
            if (mask >> l & 1u) out->addr[l] = a->addr + a->stride * (uint64_t)l;
    }
    ++*pos;
    return 1;
}

static void test_coincident_iw(void **state)
{
    (void)state;
    struct mw_kgen_kernel *k = calloc(1, sizeof *k);
    assert_non_null(k);
    snprintf(k->k.name, sizeof k->k.name, "coincident");
    k->k.grid[0] = k->k.grid[1] = k->k.grid[2] = 1;
    k->k.block[0] = MW_WARP_SIZE, k->k.block[1] = k->k.block[2] = 1;
    k->k.nregs = 16;
    k->custom = co_next;
    k->ninsts = NINST(co_prog);
    k->scratch_bytes = sizeof(int);
    struct mw_kgen_program prog = {.kernels = k, .nkernels = 1, .owned = NULL, .free_owned = sr_no_free};
    struct mw_err e;
    struct mw_workload w;
    if (mw_kgen_workload(&w, "coincident", &prog, &e)) fail_msg("workload: %s", e.msg);
    struct mw_config c;
    const char *const sets[] = {PI_ONE_SM};
    sr_config(&c, sets, 1);
    c.l1i.enabled = false;
    struct mw_sim *s = sr_sim(&c, &w);
    sr_run(s, 200000, "coincident");
    struct mw_stat_list l;
    sr_stats(s, &l);
    assert_int_equal((int)sr_stat(&l, "l1d.victim_iw"), 60);
    assert_int_equal((int)sr_stat(&l, "l1d.victim_iw_coincident"), 56);
    assert_int_equal((int)(sr_stat(&l, "l1d.victim_xw") + sr_stat(&l, "l1d.victim_xb")), 0);
    mw_stat_list_fini(&l);
    mw_sim_destroy(s);
}

/* l1d.index = xor_fold on the GTX480 L1D (32 sets, 128 B lines: line number n = addr >> 7, 5-bit chunks):
 *  - BASE = 0x10000000: n = 2^21, only chunk 4 (bits 20-24) non-zero, = 2 -> set 2 (xor, one fold: chunk 0 ^
 *    chunk 1 = 0; linear 0);
 *  - a 16 KB column stride, lane l at l * 16384: n = l << 7, chunk 1 = (l & 7) << 2, chunk 2 = l >> 3 -> set
 *    ((l & 7) << 2) ^ (l >> 3): lane 9 -> 4 ^ 1 = 5, lane 31 -> 28 ^ 3 = 31, and the 32 lanes take 32 sets; the
 *    one-fold xor sees only chunk 0 ^ chunk 1 = (l & 7) << 2: 8 sets (lane 9 -> 4). */
static void test_xor_fold_index(void **state)
{
    (void)state;
    const char *const fold[] = {PI_ONE_SM, "l1d.index=xor_fold"}, *const one[] = {PI_ONE_SM, "l1d.index=xor"};
    struct mw_sim *f = ran(&idle1, fold, 2), *x = ran(&idle1, one, 2);
    assert_int_equal(mw_l1d_set_of(f, BASE), 2);
    assert_int_equal(mw_l1d_set_of(x, BASE), 0);
    assert_int_equal(mw_l1d_set_of(f, 9 * 16384ull), 5);
    assert_int_equal(mw_l1d_set_of(f, 31 * 16384ull), 31);
    assert_int_equal(mw_l1d_set_of(x, 9 * 16384ull), 4);
    uint32_t seen_f = 0, seen_x = 0;
    for (int l = 0; l < 32; l++) {
        seen_f |= 1u << mw_l1d_set_of(f, (uint64_t)l * 16384u);
        seen_x |= 1u << mw_l1d_set_of(x, (uint64_t)l * 16384u);
    }
    assert_int_equal(__builtin_popcount(seen_f), 32);
    assert_int_equal(__builtin_popcount(seen_x), 8);
    mw_sim_destroy(f);
    mw_sim_destroy(x);
}

/* The synthetic patterns P1-P5 (tests/lua/choo_patterns.lua, Lua workloads) with the verdicts worked out there, and
 * the Lua twins of IndSelCaching and 1-bit LASC giving the C policies' counters. */
static void test_patterns_and_twins(void **state)
{
    (void)state;
    static char out[1 << 16];
    int rc = run_cmd("'" MW_BINARY "' tests/lua/choo_patterns.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    const char *want[] = {"ok  P1 column-strided: IndSel bypasses 7168", "ok  P2 SYRK: IndSel bypasses 7168",
                          "ok  P3 streaming", "ok  P4 mixed reuse: LASC1.0 bypasses 0 of 768", "ok  P5 LDST-stall hits",
                          "ok  twins"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        if (!strstr(out, want[i])) fail_msg("missing \"%s\" in:\n%s", want[i], out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_indsel_example), cmocka_unit_test(test_locsel_victim),
        cmocka_unit_test(test_lasc_rules),     cmocka_unit_test(test_lasc_probe_update),
        cmocka_unit_test(test_memsched_grr),   cmocka_unit_test(test_mrpb),
        cmocka_unit_test(test_mrpb_readings),  cmocka_unit_test(test_coincident_iw),
        cmocka_unit_test(test_xor_fold_index),
        cmocka_unit_test(test_patterns_and_twins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
