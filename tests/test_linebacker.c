/* What Linebacker (policies/linebacker.c) decides, on hand-built cases whose answers are worked out in the comments:
 * the hashed PC, Eq. 2's register numbers (Offset 512) and which VPs lie above the last used register, the Load
 * Monitor's 2-bit valid shift and when monitoring ends or disables Linebacker, the IPC_Var dead band, the VTT's
 * store invalidation and invalid-first insertion, register blocks with relocation, CacheExt's L1D size; then in
 * runs: a store that invalidates a victim line, the LIFO backup pointer with the largest-id CTA throttled first, a
 * backup cancelled by an early re-activation, and a streaming kernel that disables Linebacker. PCAL
 * (policies/pcal.c): token assignment to the oldest running warps, its hill climbing, and tokens passed on at a
 * warp's exit in a run. The Lua twin of the Load Monitor against the C policy. The policy files are included so that its pure functions can be called; its registration symbol gets its own name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "policy_iface.h"
#include "runcmd.h"

#define MW_POLICY_FILE_ID linebacker_under_test
#include "linebacker.c"
#undef MW_POLICY_FILE_ID
#define MW_POLICY_FILE_ID pcal_under_test
#include "pcal.c"

#define LB_CONFIG "experiments/configs/linebacker.yaml"

static struct lb_params defaults(void)
{
    struct lb_params p;
    struct mw_err e;
    assert_int_equal(mw_policy_params_default(&linebacker.base, &p, &e), 0);
    return p;
}

/* 0xF0000010 in 5-bit chunks from bit 0: 16, 0, 0, 0, 0, 24 (bits 25-29 of 0xF0000000 = 11000), 3 (bits 30-31):
 * 16 ^ 24 ^ 3 = 11. 0x1F: 31. 0x20 = chunk 1 is 1: 1. 0x21: 1 ^ 1 = 0. */
static void test_hashed_pc(void **st)
{
    (void)st;
    assert_int_equal(lb_hpc(0xF0000010u), 11);
    assert_int_equal(lb_hpc(0x1F), 31);
    assert_int_equal(lb_hpc(0x20), 1);
    assert_int_equal(lb_hpc(0x21), 0);
    assert_int_equal(lb_hpc(0x100000021ull), 0); /* bits above 31 are not part of the hash */
}

/* Eq. 2 with Offset 512, 48 sets, 4 ways (a VP = 192 warp registers = 24 KB):
 *   VP 0 set 0 way 0 = 512; VP 0 set 47 way 3 = 512 + 47 x 4 + 3 = 703; VP 1's first = 512 + 192 = 704;
 *   VP 7's last = 512 + 7 x 192 + 47 x 4 + 3 = 2047, the last warp register of a 256 KB file.
 * VPs above LRN in a file of 2048 warp registers: LRN -1 or 511: all eight (0xFF); LRN 512 (RN 512 in use): VP 0
 * is not wholly above it, 0xFE; LRN 703: still 0xFE; LRN 704: 0xFC; three CTAs of 256 warp registers (LRN 767):
 * VP 2 (first 896) and up, 0xFC; LRN 2047: none. A 128 KB file (1024 warp registers): VP 0 (512-703) and VP 1
 * (704-895) fit, VP 2 would end at 1087: 0x3. */
static void test_eq2_register_ranges(void **st)
{
    (void)st;
    assert_int_equal(lb_rn(512, 0, 48, 4, 0, 0), 512);
    assert_int_equal(lb_rn(512, 0, 48, 4, 47, 3), 703);
    assert_int_equal(lb_rn(512, 1, 48, 4, 0, 0), 704);
    assert_int_equal(lb_rn(512, 7, 48, 4, 47, 3), 2047);
    assert_int_equal(lb_rn(511, 0, 48, 4, 0, 0), 511); /* the paper's printed Offset [A1] */
    assert_int_equal(lb_vps_above(-1, 512, 48, 4, 8, 2048), 0xFF);
    assert_int_equal(lb_vps_above(511, 512, 48, 4, 8, 2048), 0xFF);
    assert_int_equal(lb_vps_above(512, 512, 48, 4, 8, 2048), 0xFE);
    assert_int_equal(lb_vps_above(703, 512, 48, 4, 8, 2048), 0xFE);
    assert_int_equal(lb_vps_above(704, 512, 48, 4, 8, 2048), 0xFC);
    assert_int_equal(lb_vps_above(3 * 256 - 1, 512, 48, 4, 8, 2048), 0xFC);
    assert_int_equal(lb_vps_above(2047, 512, 48, 4, 8, 2048), 0);
    assert_int_equal(lb_vps_above(-1, 512, 48, 4, 8, 1024), 0x3);
}

/* The Load Monitor's windows. Threshold 20 %, strictly above:
 *   window 1: entry 3 has 3 hits / 10 (30 %) -> valid 01; entry 5 2 / 10 (exactly 20 %) -> 00; entry 7 unused -> 00.
 *   window 2: entry 3 1 / 10 -> 10 (bit 0 moved up, new 0): not selected; entry 5 5 / 10 -> 01.
 *   window 3: entry 5 5 / 10 -> 11: selected {5}; entry 3 nothing -> 00.
 * Counts restart at each window; the PC stays. */
static void test_lm_valid_shift(void **st)
{
    (void)st;
    struct lb_lm lm[LB_LM];
    memset(lm, 0, sizeof lm);
    lm[3] = (struct lb_lm){.pc = 0x1234, .hit = 3, .miss = 7, .used = true};
    lm[5] = (struct lb_lm){.pc = 0x5678, .hit = 2, .miss = 8, .used = true};
    assert_int_equal(lb_lm_window(lm, 0.2), 1u << 3);
    assert_int_equal(lm[3].valid, 1);
    assert_int_equal(lm[5].valid, 0);
    assert_int_equal(lm[7].valid, 0);
    assert_int_equal(lm[3].hit + lm[3].miss, 0);
    assert_int_equal(lm[3].pc, 0x1234);
    assert_int_equal(lb_lm_selected(lm), 0);
    lm[3].hit = 1, lm[3].miss = 9;
    lm[5].hit = 5, lm[5].miss = 5;
    assert_int_equal(lb_lm_window(lm, 0.2), 1u << 5);
    assert_int_equal(lm[3].valid, 2);
    assert_int_equal(lm[5].valid, 1);
    assert_int_equal(lb_lm_selected(lm), 0);
    lm[5].hit = 5, lm[5].miss = 5;
    assert_int_equal(lb_lm_window(lm, 0.2), 1u << 5);
    assert_int_equal(lm[3].valid, 0);
    assert_int_equal(lm[5].valid, 3);
    assert_int_equal(lb_lm_selected(lm), 1u << 5);
    assert_int_equal(lm[5].pc, 0x5678);
}

/* Monitoring ends, goes on, or disables Linebacker:
 *   (a) no load above 20 % in windows 1 and 2: disabled at window 2.
 *   (b) nothing in window 1, entry 4 in windows 2 and 3: continue, continue, done at window 3 with {4}.
 *   (c) entry 4 in window 1, nothing in window 2 (not disabled: a load was high in window 1), nothing in window 3:
 *       disabled (a window past the second without a high-locality load).
 *   (d) [A2] entries 1 and 2 in window 1, only 1 in window 2: the 2-bit rule selects {1}; with exact_match the
 *       sets differ ({1,2} vs {1}) and monitoring goes on; window 3 {1} again: sets match, done with {1}. */
static void lm_feed(struct lb_lm *lm, uint32_t high)
{
    for (int i = 0; i < LB_LM; i++) {
        lm[i].hit = high >> i & 1u ? 5 : 0;
        lm[i].miss = 5;
    }
}
static void test_monitor_ends_or_disables(void **st)
{
    (void)st;
    struct lb_params p = defaults();
    struct lb_lm lm[LB_LM];
    bool seen;
    uint32_t sel;
    /* (a) */
    memset(lm, 0, sizeof lm), seen = false, sel = 0;
    lm_feed(lm, 0);
    assert_int_equal(lb_monitor_step(lm, 1, &seen, &sel, &p), LB_MON_CONTINUE);
    lm_feed(lm, 0);
    assert_int_equal(lb_monitor_step(lm, 2, &seen, &sel, &p), LB_MON_DISABLE);
    /* (b) */
    memset(lm, 0, sizeof lm), seen = false, sel = 0;
    lm_feed(lm, 0);
    assert_int_equal(lb_monitor_step(lm, 1, &seen, &sel, &p), LB_MON_CONTINUE);
    lm_feed(lm, 1u << 4);
    assert_int_equal(lb_monitor_step(lm, 2, &seen, &sel, &p), LB_MON_CONTINUE);
    lm_feed(lm, 1u << 4);
    assert_int_equal(lb_monitor_step(lm, 3, &seen, &sel, &p), LB_MON_DONE);
    assert_int_equal(sel, 1u << 4);
    /* (c) */
    memset(lm, 0, sizeof lm), seen = false, sel = 0;
    lm_feed(lm, 1u << 4);
    assert_int_equal(lb_monitor_step(lm, 1, &seen, &sel, &p), LB_MON_CONTINUE);
    lm_feed(lm, 0);
    assert_int_equal(lb_monitor_step(lm, 2, &seen, &sel, &p), LB_MON_CONTINUE);
    lm_feed(lm, 0);
    assert_int_equal(lb_monitor_step(lm, 3, &seen, &sel, &p), LB_MON_DISABLE);
    /* (d) */
    for (int exact = 0; exact < 2; exact++) {
        p.exact_match = exact;
        memset(lm, 0, sizeof lm), seen = false, sel = 0;
        lm_feed(lm, 0x6);
        assert_int_equal(lb_monitor_step(lm, 1, &seen, &sel, &p), LB_MON_CONTINUE);
        lm_feed(lm, 0x2);
        assert_int_equal(lb_monitor_step(lm, 2, &seen, &sel, &p), exact ? LB_MON_CONTINUE : LB_MON_DONE);
        if (exact) {
            lm_feed(lm, 0x2);
            assert_int_equal(lb_monitor_step(lm, 3, &seen, &sel, &p), LB_MON_DONE);
        }
        assert_int_equal(sel, 0x2);
    }
}

/* IPC_Var = (cur - prev) / prev against (-10 %, +10 %), strictly outside to act. Values exact in binary:
 *   prev 2: cur 2.25 (+12.5 %) throttle (-1); 2.125 (+6.25 %) keep; 1.75 (-12.5 %) re-activate (+1); 1.875 keep.
 *   prev 10: cur 11 (+10 % exactly, the same double as 0.1) keep; cur 9 (-10 %) keep.
 *   prev 0 (an idle window): keep, whatever cur. [A3] a lower bound of 0 re-activates at -6.25 %. */
static void test_ipc_dead_band(void **st)
{
    (void)st;
    assert_int_equal(lb_ipc_decide(2, 2.25, 0.1, -0.1), -1);
    assert_int_equal(lb_ipc_decide(2, 2.125, 0.1, -0.1), 0);
    assert_int_equal(lb_ipc_decide(2, 1.75, 0.1, -0.1), 1);
    assert_int_equal(lb_ipc_decide(2, 1.875, 0.1, -0.1), 0);
    assert_int_equal(lb_ipc_decide(10, 11, 0.1, -0.1), 0);
    assert_int_equal(lb_ipc_decide(10, 9, 0.1, -0.1), 0);
    assert_int_equal(lb_ipc_decide(0, 5, 0.1, -0.1), 0);
    assert_int_equal(lb_ipc_decide(2, 1.875, 0.1, 0), 1);
}

/* The VTT of one set, 8 ways in two VPs of 4. Tag mode (all ways): lines A..H fill ways 0..7 in order; a store to
 * C invalidates it; the next line I takes C's way 2 rather than the least recently used A (way 0); J, with no
 * invalid way left, takes way 0 (A, the oldest). Data mode with only VP 1 enabled (ways 4..7): K replaces the LRU
 * of ways 4..7 (E, way 4), never a way of VP 0; a lookup finds J (way 0, VP 0) only when VP 0 is enabled, and with
 * both enabled a line in VP 1 costs two probes, one in VP 0 one. */
static void test_vtt_store_invalidation(void **st)
{
    (void)st;
    struct lb_vent e[2 * 8];
    struct lb_vtt v = {.sets = 2, .ways = 8, .vp_ways = 4, .e = e};
    vtt_clear(&v);
    const uint64_t L = 0x10000;
    for (int k = 0; k < 8; k++) assert_int_equal(vtt_insert(&v, NULL, 1, L * (k + 1)), k);
    assert_true(vtt_invalidate(&v, 1, L * 3));
    assert_false(vtt_invalidate(&v, 1, L * 3));
    assert_false(vtt_invalidate(&v, 0, L * 4)); /* another set */
    assert_int_equal(vtt_find(&v, NULL, 1, L * 3, NULL), -1);
    assert_int_equal(vtt_insert(&v, NULL, 1, L * 9), 2);
    assert_int_equal(vtt_insert(&v, NULL, 1, L * 10), 0);
    uint32_t vp1 = 0x2, both = 0x3;
    assert_int_equal(vtt_insert(&v, &vp1, 1, L * 11), 4);
    int probes = 0;
    assert_int_equal(vtt_find(&v, &vp1, 1, L * 10, &probes), -1);
    assert_int_equal(vtt_find(&v, &both, 1, L * 10, &probes), 0);
    assert_int_equal(probes, 1);
    assert_int_equal(vtt_find(&v, &both, 1, L * 11, &probes), 4);
    assert_int_equal(probes, 2);
    assert_int_equal(vtt_find(&v, &vp1, 1, L * 11, &probes), 4);
    assert_int_equal(probes, 1);
}

/* ---- runs ---------------------------------------------------------------------------------------------------- */

static struct mw_sim *lb_sim(struct mw_sim *s, const char *const *keys, const char *const *vals, int n)
{
    struct mw_err e;
    if (mw_sim_set_policy(s, MW_PT_BUNDLE, &linebacker.base, keys, vals, n, &e)) fail_msg("linebacker: %s", e.msg);
    return s;
}

/* One warp on one SM of gtx480.yaml (L1D 32 sets x 4 ways, LRU, 1024 warp registers; the CTA holds 16 warp
 * registers, so VPs 0-3 of 128 registers each, RN 512-1023, are victim space), variant vc (every L1D victim is
 * kept, no monitoring). Loads of five lines of set 0, each waited for: the fifth evicts A (the LRU) into the
 * victim cache. Then a load of A: served from the registers (l1d.victim_hits = 1, five L1D misses). With a store
 * to A before that load, the store invalidates the victim entry and the load goes to L2: no victim hit, six misses,
 * and A's refill evicts B (the LRU) into the victim cache, a second insertion. */
static const struct sr_inst vs_keep[] = {LW(2, SAME_SET(0)), LW(2, SAME_SET(1)), LW(2, SAME_SET(2)),
                                         LW(2, SAME_SET(3)), LW(2, SAME_SET(4)), LW(2, SAME_SET(0))};
static const struct sr_inst vs_store[] = {LW(2, SAME_SET(0)), LW(2, SAME_SET(1)), LW(2, SAME_SET(2)),
                                          LW(2, SAME_SET(3)), LW(2, SAME_SET(4)), STG(SAME_SET(0)),
                                          LW(2, SAME_SET(0))};
static const struct sr_prog vs_keep_prog = {1, {vs_keep}, {NINST(vs_keep)}};
static const struct sr_prog vs_store_prog = {1, {vs_store}, {NINST(vs_store)}};

static void test_store_invalidates_victim_line(void **st)
{
    (void)st;
    static const char *const k[] = {"variant"}, *const v[] = {"vc"};
    struct mw_stat_list a, b;
    struct mw_sim *s = lb_sim(prog_sim(&vs_keep_prog, (const char *const[]){PI_ONE_SM}, 1), k, v, 1);
    run_stats(s, "victim kept", &a);
    mw_sim_destroy(s);
    s = lb_sim(prog_sim(&vs_store_prog, (const char *const[]){PI_ONE_SM}, 1), k, v, 1);
    run_stats(s, "victim stored to", &b);
    mw_sim_destroy(s);
    assert_int_equal(sr_stat(&a, "policy.bundle.vc_inserts"), 1);
    assert_int_equal(sr_stat(&a, "l1d.victim_hits"), 1);
    assert_int_equal(sr_stat(&a, "policy.bundle.reg_hits"), 1);
    assert_int_equal(sr_stat(&a, "l1d.misses"), 5);
    assert_int_equal(sr_stat(&b, "policy.bundle.vc_inserts"), 2); /* A, then B evicted by A's refill */
    assert_int_equal(sr_stat(&b, "policy.bundle.vc_store_invalidates"), 1);
    assert_int_equal(sr_stat(&b, "l1d.victim_hits"), 0);
    assert_int_equal(sr_stat(&b, "l1d.misses"), 6);
    mw_stat_list_fini(&a), mw_stat_list_fini(&b);
}

/* The same two runs with the RF bank model (16 banks, bank = register mod 16). The program reads R0 (each load's
 * address) and R2 (each ALU waits on the load's R2): 6 + 6 = 12 operand reads in the first run; 5 + 5, the store's
 * R0, then 1 + 1: 13 in the second. Victim accesses: A written at the fifth load's fill and read by the sixth load
 * (2); with the store, A and then B written (2) and nothing read. A sits in VP 0, set 0, way 0: RN 512 (Eq. 2,
 * Offset 512), bank 0, the bank of R0; B in way 1, RN 513, bank 1. One warp issues one instruction at a time and
 * each load is waited for, so no two accesses meet in a cycle: the load reads R0 at issue and reaches L1D (and the
 * probe) cycles later. No conflict, and the run takes as long as without banks. */
static void test_victim_accesses_take_banks(void **st)
{
    (void)st;
    static const char *const k[] = {"variant", "rf_banks"}, *const v16[] = {"vc", "16"}, *const v0[] = {"vc", "0"};
    struct mw_stat_list a, b, c;
    struct mw_sim *s = lb_sim(prog_sim(&vs_keep_prog, (const char *const[]){PI_ONE_SM}, 1), k, v16, 2);
    run_stats(s, "victim kept, banks", &a);
    mw_sim_destroy(s);
    s = lb_sim(prog_sim(&vs_store_prog, (const char *const[]){PI_ONE_SM}, 1), k, v16, 2);
    run_stats(s, "victim stored to, banks", &b);
    mw_sim_destroy(s);
    s = lb_sim(prog_sim(&vs_keep_prog, (const char *const[]){PI_ONE_SM}, 1), k, v0, 2);
    run_stats(s, "victim kept, no banks", &c);
    mw_sim_destroy(s);
    assert_int_equal(sr_stat(&a, "policy.bundle.rf_operand_reads"), 12);
    assert_int_equal(sr_stat(&a, "policy.bundle.rf_cache_accesses"), 2);
    assert_int_equal(sr_stat(&a, "policy.bundle.rf_bank_conflicts"), 0);
    assert_int_equal(sr_stat(&b, "policy.bundle.rf_operand_reads"), 13);
    assert_int_equal(sr_stat(&b, "policy.bundle.rf_cache_accesses"), 2);
    assert_int_equal(sr_stat(&b, "policy.bundle.rf_bank_conflicts"), 0);
    assert_int_equal(sr_stat(&c, "policy.bundle.rf_operand_reads"), 0);
    assert_int_equal(sr_stat(&c, "policy.bundle.rf_cache_accesses"), 0);
    assert_int_equal(sr_stat(&a, "gpu.cycles"), sr_stat(&c, "gpu.cycles"));
    assert_int_equal(sr_stat(&a, "l1d.victim_hits"), 1);
    mw_stat_list_fini(&a), mw_stat_list_fini(&b), mw_stat_list_fini(&c);
}

/* SYRK tiny on one SM of linebacker.yaml: one kernel of 4 CTAs (256 threads, 16 registers each: 128 warp
 * registers, R = 16 KB of backup per CTA), all resident from the start. With 8000-cycle windows (a backup of 128
 * lines through the 6-entry buffer takes about 4,700 cycles here, so each ends within its window) and the upper bound
 * at -10 (every IPC change throttles) and the lower at -10 (none re-activates), monitoring ends at window 2 and
 * each window end throttles the largest-id active CTA until one is left (three throttles), the first being slot 3
 * while slots 0-2 run. Backups go to BP0 (0xC0000000 for SM 0), BP0 + R, ...; each completing CTA restores the
 * top of the stack, the last one backed up, from BP - R (LIFO). An observer logs every injected line as it
 * completes; the log, replayed against a stack, must show exactly that, ending at BP0 with three of each. */
struct lifo_ctx {
    struct evlog ev;
    uint32_t active[4096];
};
static void lifo_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    struct lifo_ctx *c = pi->state;
    if (ev->kind != MW_EV_INJECT_DONE) return;
    uint32_t m = 0;
    for (int k = 0; k < 32; k++) m |= (uint32_t)mw_cta_active(pi->sim, ev->sm, k) << k;
    if (c->ev.n < 4096) c->active[c->ev.n] = m;
    evlog_push(&c->ev, ev);
}
static const struct mw_l1d_bypass_ops lifo_obs = {
    .base = {.point = MW_PT_L1D_BYPASS, .name = "lifo_obs", .desc = "logs injected lines",
             .events = MW_EVB(MW_EV_INJECT_DONE), .on_event = lifo_event},
};
static struct mw_sim *lb_builtin(const char *wl, const char *size, const char *const *sets, int nsets)
{
    struct mw_config c;
    struct mw_err e;
    mw_config_defaults(&c);
    if (mw_config_load_file(&c, LB_CONFIG, &e)) fail_msg("config: %s", e.msg);
    for (int i = 0; i < nsets; i++)
        if (mw_config_set(&c, sets[i], &e)) fail_msg("--set %s: %s", sets[i], e.msg);
    struct mw_workload w;
    if (mw_workload_open_builtin(&w, wl, size, 1, &e)) fail_msg("%s: %s", wl, e.msg);
    return sr_sim(&c, &w);
}
static void test_lifo_backup_pointer(void **st)
{
    (void)st;
    struct mw_sim *s = lb_builtin("polybench.syrk", "tiny", (const char *const[]){PI_ONE_SM}, 1);
    /* every backup runs to its end (cancel_backup off), so each restore reads a whole CTA back */
    static const char *const k[] = {"window", "ipc_upper", "ipc_lower", "cancel_backup"},
                             *const v[] = {"8000", "-10", "-10", "false"};
    lb_sim(s, k, v, 4);
    struct lifo_ctx *c = calloc(1, sizeof *c);
    assert_non_null(c);
    install(s, MW_PT_L1D_BYPASS, &lifo_obs.base, c);
    struct mw_stat_list l;
    run_stats(s, "syrk tiny, throttle every window", &l);
    const uint64_t bp0 = 0xC0000000ull, R = 128 * 128;
    assert_int_equal(sr_stat(&l, "gpu.ctas"), 4);
    assert_int_equal(sr_stat(&l, "policy.bundle.monitor_windows"), 2);
    assert_int_equal(sr_stat(&l, "policy.bundle.throttles"), 3);
    assert_int_equal(sr_stat(&l, "policy.bundle.reactivations"), 3);
    assert_int_equal(sr_stat(&l, "policy.bundle.backup_bytes"), 3 * R);
    assert_int_equal(sr_stat(&l, "policy.bundle.restore_bytes"), 3 * R);
    assert_int_equal(c->ev.n, 6 * 128);
    /* The buffer moves one CTA at a time, so the log is a sequence of 128-line blocks, each all writes or all reads
     * inside one R-sized area. Replayed against a stack: a backup writes at BP and pushes (BP += R), a restore
     * reads the area just below BP and pops (BP -= R). */
    uint64_t bp = bp0;
    int writes = 0, reads = 0;
    for (int blk = 0; blk < c->ev.n / 128; blk++) {
        const struct mw_event *first = &c->ev.v[blk * 128];
        bool write = first->aux;
        uint64_t base = write ? bp : bp - R;
        uint8_t seen[128] = {0};
        for (int i = blk * 128; i < (blk + 1) * 128; i++) {
            const struct mw_event *ev = &c->ev.v[i];
            assert_int_equal(ev->aux, write);
            assert_int_equal(ev->value, LB_TAG | !write);
            if (ev->addr < base || ev->addr >= base + R)
                fail_msg("block %d (%s): line 0x%llx outside [0x%llx, 0x%llx)", blk, write ? "backup" : "restore",
                         (unsigned long long)ev->addr, (unsigned long long)base, (unsigned long long)(base + R));
            seen[(ev->addr - base) / 128]++;
        }
        for (int j = 0; j < 128; j++) assert_int_equal(seen[j], 1);
        if (write) bp += R, writes++;
        else bp -= R, reads++;
    }
    assert_int_equal(bp, bp0);
    assert_int_equal(writes, 3);
    assert_int_equal(reads, 3);
    /* the first CTA throttled is the largest id (slot 3): slots 0-2 still active while its registers leave */
    assert_int_equal(c->active[0], 0x7);
    evlog_fini(&c->ev);
    free(c);
    mw_stat_list_fini(&l);
    mw_sim_destroy(s);
}

/* The same run with cancel_backup on (the default): the third throttle's CTA is re-activated (a CTA completed, the
 * top of the stack goes first) before its 128-line backup completed, so the rest of its backup is dropped and
 * nothing is read back for it: 3 throttles, 3 re-activations, 1 of them cancelled; restores = 2 whole CTAs
 * (2 x 16 KB); backups = 2 whole CTAs + the lines of the third that had left (more than 0, fewer than 128). */
static void test_cancelled_backup_reads_nothing_back(void **st)
{
    (void)st;
    struct mw_sim *s = lb_builtin("polybench.syrk", "tiny", (const char *const[]){PI_ONE_SM}, 1);
    static const char *const k[] = {"window", "ipc_upper", "ipc_lower"}, *const v[] = {"8000", "-10", "-10"};
    lb_sim(s, k, v, 3);
    struct mw_stat_list l;
    run_stats(s, "syrk tiny, throttle every window, cancel", &l);
    const uint64_t R = 128 * 128;
    assert_int_equal(sr_stat(&l, "policy.bundle.throttles"), 3);
    assert_int_equal(sr_stat(&l, "policy.bundle.reactivations"), 3);
    assert_int_equal(sr_stat(&l, "policy.bundle.backups_cancelled"), 1);
    assert_int_equal(sr_stat(&l, "policy.bundle.restore_bytes"), 2 * R);
    uint64_t b = sr_stat(&l, "policy.bundle.backup_bytes");
    assert_true(b > 2 * R && b < 3 * R);
    assert_int_equal(b % 128, 0);
    /* CacheExt's L1D from the same run: the 4 CTAs of 128 warp registers (16 KB each) are resident together, so
     * the peak is 64 KB, SUR = 256 - 64 = 192 KB, and the L1D 48 + 192 = 240 KB = 245,760 B */
    assert_int_equal(sr_stat(&l, "policy.bundle.peak_reg_bytes"), 4 * R);
    assert_int_equal(sr_stat(&l, "policy.bundle.cacheext_l1d_bytes"), 245760);
    mw_stat_list_fini(&l);
    mw_sim_destroy(s);
}

/* CacheExt's L1D = L1D + SUR in whole sets of assoc x line bytes. The 48 KB, 8-way, 128 B L1D (a set = 1 KB) with a
 * 256 KB RF: peak 168 KB -> SUR 88 KB -> 136 KB = 139,264 B; peak 168.5 KB (172,544 B) -> SUR 87.5 KB, rounded down
 * to 87 KB -> 135 KB = 138,240 B; peak = the RF -> 48 KB; a peak above the RF cannot make it smaller. 4-way, 64 B
 * lines (a set = 256 B), 16 KB L1D, SUR 1,000 B -> 3 sets (768 B) -> 17,152 B. */
static void test_cacheext_l1d_size(void **st)
{
    (void)st;
    assert_int_equal(lb_cacheext_l1d_bytes(49152, 262144, 172032, 8, 128), 139264);
    assert_int_equal(lb_cacheext_l1d_bytes(49152, 262144, 172544, 8, 128), 138240);
    assert_int_equal(lb_cacheext_l1d_bytes(49152, 262144, 262144, 8, 128), 49152);
    assert_int_equal(lb_cacheext_l1d_bytes(49152, 262144, 300000, 8, 128), 49152);
    assert_int_equal(lb_cacheext_l1d_bytes(16384, 262144, 261144, 4, 64), 17152);
}

/* Register blocks (#reg = 96 warp registers a CTA, 8 slots). Slots 0-4 launched: blocks 0-4, LRN = 5 x 96 - 1 = 479,
 * all 8 VPs (first RN 512) above it: 0xFF. Slot 4 throttled and backed up (block 4 freed), then slot 1 completes
 * (block 1 freed); restoring slot 4 with relocation puts it in the lowest free block, 1: LRN = 4 x 96 - 1 = 383.
 * Without relocation it goes back to block 4: LRN 479. Held blocks {0, 2, 3, 4, 5, 6} -> LRN 7 x 96 - 1 = 671:
 * VP 0 (512-703) overlaps it, 0xFE. No block held: LRN -1; all held: the lowest free is 8 (none). */
static void test_register_blocks(void **st)
{
    (void)st;
    int blk[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
    for (int c = 0; c < 5; c++) {
        assert_int_equal(lb_lowest_free_block(blk, 8), c);
        blk[c] = c;
    }
    assert_int_equal(lb_lrn_blocks(blk, 8, 96), 479);
    assert_int_equal(lb_vps_above(lb_lrn_blocks(blk, 8, 96), 512, 48, 4, 8, 2048), 0xFF);
    blk[4] = -1; /* backed up */
    blk[1] = -1; /* completed */
    assert_int_equal(lb_lrn_blocks(blk, 8, 96), 383);
    blk[4] = lb_lowest_free_block(blk, 8);
    assert_int_equal(blk[4], 1);
    assert_int_equal(lb_lrn_blocks(blk, 8, 96), 383);
    int held[8] = {0, -1, 2, 3, 4, 5, 6, -1};
    assert_int_equal(lb_lrn_blocks(held, 8, 96), 671);
    assert_int_equal(lb_vps_above(671, 512, 48, 4, 8, 2048), 0xFE);
    int none[8] = {-1, -1, -1, -1, -1, -1, -1, -1}, all[8] = {7, 6, 5, 4, 3, 2, 1, 0};
    assert_int_equal(lb_lrn_blocks(none, 8, 96), -1);
    assert_int_equal(lb_lowest_free_block(all, 8), 8);
}

/* micro.stream reads every line once: (almost) no load hits the L1D or the VTT, so no load exceeds 20 % in windows 1 and 2
 * and every SM disables Linebacker at its second window: nothing selected, no victim kept, no throttling, and the
 * run's timing is the baseline's. micro.reuse (a 4 KB array re-read, hit after its first pass) selects its load on
 * the SMs that run it. */
static void test_disabled_without_locality(void **st)
{
    (void)st;
    static const char *const k[] = {"window"}, *const v[] = {"1000"};
    struct mw_stat_list a, b;
    struct mw_sim *s = lb_sim(lb_builtin("micro.stream", "small", NULL, 0), k, v, 1);
    run_stats(s, "stream, linebacker", &a);
    int nsms = mw_n_sms(s);
    mw_sim_destroy(s);
    s = lb_builtin("micro.stream", "small", NULL, 0);
    run_stats(s, "stream, baseline", &b);
    mw_sim_destroy(s);
    assert_true(sr_stat(&a, "gpu.cycles") > 2000 * 2); /* the run spans the two windows */
    assert_true(sr_stat(&a, "l1d.hits") * 1000 < sr_stat(&a, "l1d.accesses"));
    assert_int_equal(sr_stat(&a, "policy.bundle.disabled"), nsms);
    assert_int_equal(sr_stat(&a, "policy.bundle.selected_loads"), 0);
    assert_int_equal(sr_stat(&a, "policy.bundle.vc_inserts"), 0);
    assert_int_equal(sr_stat(&a, "policy.bundle.throttles"), 0);
    assert_int_equal(sr_stat(&a, "gpu.cycles"), sr_stat(&b, "gpu.cycles"));
    mw_stat_list_fini(&a), mw_stat_list_fini(&b);

    s = lb_sim(lb_builtin("micro.reuse", "small", NULL, 0), k, v, 1);
    run_stats(s, "reuse, linebacker", &a);
    mw_sim_destroy(s);
    assert_true(sr_stat(&a, "policy.bundle.selected_loads") > 0);
    assert_true(sr_stat(&a, "policy.bundle.disabled") < nsms); /* SMs left without a CTA disable it too */
    mw_stat_list_fini(&a);
}

/* `monitor_skip` (a measurement knob): the Load Monitor lets that many windows of each kernel pass before its window
 * 1. micro.reuse with 1,000-cycle windows selects loads from window 2 on; with the skip past the run's end the LM never
 * reaches its window 2, so nothing is selected or disabled, no victim is kept and the run is the baseline's, cycle
 * for cycle. micro.stream disables Linebacker on every SM after the LM's window 2 also when three windows pass
 * first (the run spans the five). */
static void test_monitor_skip(void **st)
{
    (void)st;
    static const char *const k[] = {"window", "monitor_skip"};
    static const char *const never[] = {"1000", "1000000"}, *const three[] = {"1000", "3"};
    struct mw_stat_list a, b;
    struct mw_sim *s = lb_sim(lb_builtin("micro.reuse", "small", NULL, 0), k, never, 2);
    run_stats(s, "reuse, monitoring never starts", &a);
    int nsms = mw_n_sms(s);
    mw_sim_destroy(s);
    s = lb_builtin("micro.reuse", "small", NULL, 0);
    run_stats(s, "reuse, baseline", &b);
    mw_sim_destroy(s);
    assert_true(sr_stat(&a, "gpu.cycles") > 1000 * 3);
    assert_int_equal(sr_stat(&a, "policy.bundle.selected_loads"), 0);
    assert_int_equal(sr_stat(&a, "policy.bundle.disabled"), 0);
    assert_int_equal(sr_stat(&a, "policy.bundle.vc_inserts"), 0);
    assert_int_equal(sr_stat(&a, "gpu.cycles"), sr_stat(&b, "gpu.cycles"));
    mw_stat_list_fini(&a), mw_stat_list_fini(&b);

    s = lb_sim(lb_builtin("micro.stream", "small", NULL, 0), k, three, 2);
    run_stats(s, "stream, three windows skipped", &a);
    mw_sim_destroy(s);
    assert_true(sr_stat(&a, "gpu.cycles") > 1000 * 5);
    assert_int_equal(sr_stat(&a, "policy.bundle.disabled"), nsms);
    assert_int_equal(sr_stat(&a, "policy.bundle.selected_loads"), 0);
    mw_stat_list_fini(&a);
}

/* PCAL's tokens go to the oldest running warps. Ages 30, 10, 20, 40 with warp 2 not running: two tokens -> warps 1
 * (age 10) and 0 (30); five -> the three running warps; none -> nobody. Hill climbing by 4 from 16 upwards: IPC
 * 2 -> 3 keeps climbing (20); 3 -> 2.5 turns round (16); the count stays within [0, 64]. */
static void test_pcal_token_assignment(void **st)
{
    (void)st;
    const uint64_t age[4] = {30, 10, 20, 40};
    const bool running[4] = {true, true, false, true};
    uint8_t has[4];
    assert_int_equal(pcal_assign(age, running, 4, 2, has), 2);
    assert_memory_equal(has, ((uint8_t[]){1, 1, 0, 0}), 4);
    assert_int_equal(pcal_assign(age, running, 4, 5, has), 3);
    assert_memory_equal(has, ((uint8_t[]){1, 1, 0, 1}), 4);
    assert_int_equal(pcal_assign(age, running, 4, 0, has), 0);
    assert_memory_equal(has, ((uint8_t[]){0, 0, 0, 0}), 4);
    int dir = 1;
    assert_int_equal(pcal_climb(16, &dir, 2, 3, 4, 64), 20);
    assert_int_equal(pcal_climb(20, &dir, 3, 2.5, 4, 64), 16);
    assert_int_equal(dir, -1);
    assert_int_equal(pcal_climb(2, &dir, 3, 3, 4, 64), 0);
    assert_int_equal(dir, 1);
    assert_int_equal(pcal_climb(62, &dir, 3, 3, 4, 64), 64);
    assert_int_equal(dir, -1);
}

/* Four warps on one SM (gtx480.yaml), static PCAL with two tokens. Warp 0 exits at once; warps 1-3 each run a chain
 * of eight dependent ALU instructions (32 cycles, long after warp 0's exit) and then load their own line twice,
 * waiting for each. Warp 0's token passes to warp 2, the oldest without one: warps 1 and 2 allocate (a miss, then a
 * hit each) and warp 3 bypasses both loads (its line is never allocated): 2 misses, 2 hits, 2 bypasses. Without
 * the release, warps 0 and 1 would keep the tokens and warp 2 would bypass too (4 bypasses, 1 hit). */
#define CHAIN8 ALU(3, 0), ALU(4, 3), ALU(5, 4), ALU(6, 5), ALU(7, 6), ALU(8, 7), ALU(9, 8), ALU(10, 9)
static const struct sr_inst pt_w0[] = {ALU(2, 0)};
static const struct sr_inst pt_w1[] = {CHAIN8, LW(12, LINE(1, 0)), LW(12, LINE(1, 0))};
static const struct sr_inst pt_w2[] = {CHAIN8, LW(12, LINE(2, 0)), LW(12, LINE(2, 0))};
static const struct sr_inst pt_w3[] = {CHAIN8, LW(12, LINE(3, 0)), LW(12, LINE(3, 0))};
static const struct sr_prog pt_prog = {4, {pt_w0, pt_w1, pt_w2, pt_w3}, {1, NINST(pt_w1), NINST(pt_w2), NINST(pt_w3)}};

static void test_pcal_tokens_in_a_run(void **st)
{
    (void)st;
    struct mw_sim *s = prog_sim(&pt_prog, (const char *const[]){PI_ONE_SM}, 1);
    static const char *const k[] = {"tokens", "dynamic"}, *const v[] = {"2", "false"};
    struct mw_err e;
    if (mw_sim_set_policy(s, MW_PT_BUNDLE, &pcal.base, k, v, 2, &e)) fail_msg("pcal: %s", e.msg);
    struct mw_stat_list l;
    run_stats(s, "pcal, two tokens", &l);
    assert_int_equal(sr_stat(&l, "l1d.misses"), 2);
    assert_int_equal(sr_stat(&l, "l1d.hits"), 2);
    assert_int_equal(sr_stat(&l, "l1d.bypasses"), 2);
    assert_int_equal(sr_stat(&l, "policy.bundle.token_requests"), 4);
    assert_int_equal(sr_stat(&l, "policy.bundle.tokenless_requests"), 2);
    mw_stat_list_fini(&l);
    mw_sim_destroy(s);
}

/* The Lua twin of the Load Monitor (tests/lua/pol_lb_monitor.lua) selects what the C policy selects: the script
 * asserts equal counters on kmeans and atax (tests/lua/lb_twin.lua); its lines name what was compared. */
static void test_lua_twin_selects_the_same_loads(void **st)
{
    (void)st;
    static char out[8192];
    int rc = run_cmd("'" MW_BINARY "' tests/lua/lb_twin.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  rodinia.kmeans: 47 loads selected"));
    assert_non_null(strstr(out, "ok  polybench.atax: 6 loads selected"));
}

/* The per-load view of the Load Monitor (experiments/papers/linebacker_loads_monitor.lua) adds up to the run's L1D
 * counters and selects what the C bundle selects (tests/lua/lb_loads.lua asserts it under SVC and VC on atax). */
static void test_per_load_monitor_adds_up(void **st)
{
    (void)st;
    static char out[4096];
    int rc = run_cmd("'" MW_BINARY "' tests/lua/lb_loads.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  atax svc:"));
    assert_non_null(strstr(out, "ok  atax vc:"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hashed_pc),
        cmocka_unit_test(test_eq2_register_ranges),
        cmocka_unit_test(test_lm_valid_shift),
        cmocka_unit_test(test_monitor_ends_or_disables),
        cmocka_unit_test(test_ipc_dead_band),
        cmocka_unit_test(test_vtt_store_invalidation),
        cmocka_unit_test(test_store_invalidates_victim_line),
        cmocka_unit_test(test_victim_accesses_take_banks),
        cmocka_unit_test(test_lifo_backup_pointer),
        cmocka_unit_test(test_cancelled_backup_reads_nothing_back),
        cmocka_unit_test(test_register_blocks),
        cmocka_unit_test(test_cacheext_l1d_size),
        cmocka_unit_test(test_disabled_without_locality),
        cmocka_unit_test(test_monitor_skip),
        cmocka_unit_test(test_pcal_token_assignment),
        cmocka_unit_test(test_pcal_tokens_in_a_run),
        cmocka_unit_test(test_lua_twin_selects_the_same_loads),
        cmocka_unit_test(test_per_load_monitor_adds_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
