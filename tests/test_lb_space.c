/* Linebacker's victim space over time (policies/linebacker.c, "victim space over time"; §5 Fig. 9 and §5.1 Fig. 10 of
 * the paper): what one SM's state gives (held, DUR, static, enabled VPs, VPs that fit above LRN) on hand-built
 * states, the time integration, and in runs the counters against an observer's log of the same run (CTA completions,
 * the backup's write acknowledgements) from which the expected sums are worked out; and §2.3's streaming / reuse
 * classification script on a Lua workload with known per-load numbers. The policy file is included so
 * that its pure functions can be called; its registration symbol gets its own name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "policy_iface.h"
#include "runcmd.h"

#define MW_POLICY_FILE_ID linebacker_space_under_test
#include "linebacker.c"

#define LB_CONFIG "experiments/configs/linebacker.yaml"
#define KB 1024u

/* A 256 KB RF (2,048 warp registers), 48 sets, 4-way VPs of 24 KB (192 registers), 8 VPs from RN 512. Four CTA
 * slots of 128 warp registers (16 KB): slot 0 running in block 0, slot 1 running in block 1, slot 2 throttled with
 * its backup under way (still block 2), slot 3 throttled and backed up (block released).
 *   held = 3 x 16 = 48 KB; DUR = 16 KB; static = 256 - 48 - 16 = 192 KB.
 *   LRN = 3 x 128 - 1 = 383 < 512, so all 8 VPs fit: fit = 8 x 24 = 192 KB. Monitoring: VP = 0; ON with VPs 0-2
 *   enabled: VP = 3 x 24 = 72 KB.
 * 16-way VPs (48 x 16 = 768 registers, 96 KB; nvp = 32 / 16 = 2): VP 0 = RN 512-1279, VP 1 = 1280-2047, both above
 * 383: fit 192 KB. With 7 blocks held (LRN = 7 x 128 - 1 = 895): 4-way VPs from RN 512 + 192 n lie above 895 for
 * n >= 2 (RN 896): 6 VPs, 144 KB; 16-way: only VP 1, 96 KB; 1-way (48 registers, 6 KB, nvp 32): VPs from
 * 512 + 48 n above 895 for n >= 8 (RN 896), and inside the RF for n <= 31: 24 VPs, 144 KB. */
static void test_space_of_hand_built(void **st)
{
    (void)st;
    static struct lb_sm m;
    memset(&m, 0, sizeof m);
    for (int c = 0; c < LB_MAXCTA; c++) m.blk[c] = -1;
    m.cta_wregs = 128;
    m.vtt = (struct lb_vtt){.sets = 48, .ways = 32, .vp_ways = 4};
    m.blk[0] = 0, m.blk[1] = 1, m.blk[2] = 2;
    m.cta[2] = (struct lb_cta){.throttled = true};
    m.cta[3] = (struct lb_cta){.throttled = true, .backed = true};
    m.mode = LB_MODE_MON;
    m.vps = 0x7;
    struct lb_space_now n = lb_space_of(&m, 32, 2048, 8, 512);
    assert_true(n.busy);
    assert_int_equal(n.held, 48 * KB);
    assert_int_equal(n.dur, 16 * KB);
    assert_int_equal(n.stat, 192 * KB);
    assert_int_equal(n.vp, 0); /* monitoring: no VP is victim storage yet */
    assert_int_equal(n.fit, 192 * KB);
    m.mode = LB_MODE_ON;
    n = lb_space_of(&m, 32, 2048, 8, 512);
    assert_int_equal(n.vp, 72 * KB);
    m.vtt.vp_ways = 16;
    n = lb_space_of(&m, 32, 2048, 2, 512);
    assert_int_equal(n.fit, 192 * KB);
    for (int c = 3; c < 7; c++) m.blk[c] = c;
    m.cta[3] = (struct lb_cta){0};
    n = lb_space_of(&m, 32, 2048, 2, 512);
    assert_int_equal(n.held, 7 * 16 * KB);
    assert_int_equal(n.dur, 0);
    assert_int_equal(n.stat, 256 * KB - 7 * 16 * KB);
    assert_int_equal(n.fit, 96 * KB);
    m.vtt.vp_ways = 4;
    assert_int_equal(lb_space_of(&m, 32, 2048, 8, 512).fit, 144 * KB);
    m.vtt.vp_ways = 1;
    assert_int_equal(lb_space_of(&m, 32, 2048, 32, 512).fit, 144 * KB);
    /* nothing held, nothing throttled: idle, whatever the space */
    for (int c = 0; c < 7; c++) m.blk[c] = -1;
    m.cta[2] = (struct lb_cta){0};
    assert_false(lb_space_of(&m, 32, 2048, 32, 512).busy);
}

/* The integration: rates hold from the cycle they were taken to the next note; idle spans add nothing.
 *   cycle 100: busy, DUR 0, static 200, VP 24, fit 48 (bytes, say), held 56
 *   cycle 400: DUR 16 (300 cycles at the first rates accrue: cycles 300, static 60,000, VP 7,200, fit 14,400,
 *              held 16,800)
 *   cycle 1,000: idle (600 cycles at DUR 16, static 184, VP 24, fit 48, held 56: DUR 9,600, static 110,400, ...)
 *   cycle 5,000: busy again (4,000 idle cycles add nothing), then cycle 5,010: 10 more cycles at static 256.
 * Sums: cycles 300 + 600 + 10 = 910; DUR 9,600; static 60,000 + 110,400 + 2,560 = 172,960; VP 24 x 900 = 21,600;
 * fit 48 x 900 = 43,200; held 56 x 900 = 50,400. */
static void test_space_integration(void **st)
{
    (void)st;
    struct lb_space_sm a = {0};
    uint64_t s[6] = {0};
    struct lb_space_now r1 = {.busy = true, .dur = 0, .stat = 200, .vp = 24, .fit = 48, .held = 56};
    struct lb_space_now r2 = r1, idle = {0}, r3 = {.busy = true, .stat = 256};
    r2.dur = 16, r2.stat = 184;
    lb_space_advance(&a, 100, &r1, s);
    for (int i = 0; i < 6; i++) assert_int_equal(s[i], 0); /* idle before */
    lb_space_advance(&a, 400, &r2, s);
    lb_space_advance(&a, 1000, &idle, s);
    lb_space_advance(&a, 5000, &r3, s);
    lb_space_advance(&a, 5010, &r3, s);
    assert_int_equal(s[0], 910);
    assert_int_equal(s[1], 9600);
    assert_int_equal(s[2], 172960);
    assert_int_equal(s[3], 21600);
    assert_int_equal(s[4], 43200);
    assert_int_equal(s[5], 50400);
}

/* ---- runs ---------------------------------------------------------------------------------------------------- */
struct space_log {
    struct evlog ev;
};
static void space_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    struct space_log *c = pi->state;
    evlog_push(&c->ev, ev);
}
static const struct mw_l1d_bypass_ops space_obs = {
    .base = {.point = MW_PT_L1D_BYPASS, .name = "space_obs", .desc = "logs CTA launches, completions, injected lines",
             .events = MW_EVB(MW_EV_CTA_LAUNCH) | MW_EVB(MW_EV_CTA_DONE) | MW_EVB(MW_EV_INJECT_DONE),
             .on_event = space_event},
};
static struct mw_sim *space_sim(const char *const *keys, const char *const *vals, int n)
{
    struct mw_config c;
    struct mw_err e;
    mw_config_defaults(&c);
    if (mw_config_load_file(&c, LB_CONFIG, &e)) fail_msg("config: %s", e.msg);
    if (mw_config_set(&c, PI_ONE_SM, &e)) fail_msg("--set: %s", e.msg);
    struct mw_workload w;
    if (mw_workload_open_builtin(&w, "polybench.syrk", "tiny", 1, &e)) fail_msg("syrk: %s", e.msg);
    struct mw_sim *s = sr_sim(&c, &w);
    if (mw_sim_set_policy(s, MW_PT_BUNDLE, &linebacker.base, keys, vals, n, &e)) fail_msg("linebacker: %s", e.msg);
    return s;
}

/* SYRK tiny on one SM of linebacker.yaml: 4 CTAs of 128 warp registers (16 KB), launched one a cycle from cycle 0
 * (l_c) and all resident together; the RF is 256 KB, so while k CTAs hold their blocks static = 256 - 16 k KB. LRN is at most 4 x 128 - 1 = 511, below VP 0
 * (RN 512): all 8 VPs (192 KB) fit at every moment.
 * Victim Caching (no monitoring, VPs enabled from the launch, no throttling): with L the launch cycle and d_1..d_4
 * the completions (d_c of slot c), busy = max d_c - L; held = 16 KB x sum(d_c - l_c); static = 256 KB x busy - held; VP = fit =
 * 192 KB x busy; DUR = 0.
 * Throttling+SVC with 5,000-cycle windows, every IPC change throttling (ipc_upper -10) and none re-activating
 * (ipc_lower -10), backups run to their end (cancel_backup false): the LIFO test's run (tests/test_linebacker.c).
 * Monitoring ends at window 2, in cycle 9,999 (a window's event comes in its last cycle; the counters take a
 * change as holding from the cycle of its event): before it no VP is enabled, after it all 8 (LRN <= 511), so VP =
 * 192 KB x (d_4 - 9,999) and fit = 192 KB x busy. Three throttles; backup k ends at the acknowledgement of its
 * 128th line (e_k), and all three end before the first completion (checked; the throttles come at 10,000, 15,000
 * and 20,000, each backup of 128 lines takes about 5,000 cycles). Each completion restores the top of the stack (the last backed up), so completion j (j = 1..3) ends the DUR of backup 4 - j: DUR = 16 KB x
 * sum_j (d_j - e_{4-j}). held + static + DUR = 256 KB x busy. */
static void space_run(const char *const *k, const char *const *v, int n, struct space_log *log, struct mw_stat_list *l)
{
    struct mw_sim *s = space_sim(k, v, n);
    install(s, MW_PT_L1D_BYPASS, &space_obs.base, log);
    run_stats(s, "syrk tiny, one SM", l);
    mw_sim_destroy(s);
}
static void test_space_counters_vc(void **st)
{
    (void)st;
    static const char *const k[] = {"variant"}, *const v[] = {"vc"};
    struct space_log log = {0};
    struct mw_stat_list l;
    space_run(k, v, 1, &log, &l);
    uint64_t L = UINT64_MAX, launch[4] = {0}, done[4] = {0}, last = 0, held = 0;
    int nl = 0, nd = 0;
    for (int i = 0; i < log.ev.n; i++) {
        const struct mw_event *e = &log.ev.v[i];
        assert_true(e->cta >= 0 && e->cta < 4);
        if (e->kind == MW_EV_CTA_LAUNCH) launch[e->cta] = e->cycle, nl++, L = e->cycle < L ? e->cycle : L;
        if (e->kind == MW_EV_CTA_DONE) done[e->cta] = e->cycle, nd++, last = e->cycle > last ? e->cycle : last;
    }
    assert_int_equal(nl, 4); /* one launch per cycle from cycle 0, all resident at once */
    assert_int_equal(nd, 4);
    for (int c = 0; c < 4; c++) held += 16 * KB * (done[c] - launch[c]);
    uint64_t busy = last - L;
    assert_int_equal(sr_stat(&l, "policy.bundle.space_sm_cycles"), busy);
    assert_int_equal(sr_stat(&l, "policy.bundle.held_byte_cycles"), held);
    assert_int_equal(sr_stat(&l, "policy.bundle.sur_byte_cycles"), 256 * KB * busy - held);
    assert_int_equal(sr_stat(&l, "policy.bundle.dur_byte_cycles"), 0);
    assert_int_equal(sr_stat(&l, "policy.bundle.vp_byte_cycles"), 192 * KB * busy);
    assert_int_equal(sr_stat(&l, "policy.bundle.vp_fit_byte_cycles"), 192 * KB * busy);
    assert_int_equal(sr_stat(&l, "policy.bundle.selected_sm_kernels"), 0); /* VC does not monitor */
    evlog_fini(&log.ev);
    mw_stat_list_fini(&l);
}
/* From a throttling run's event log: the first launch L, the 4 completions and the ends of the 3 backups (the
 * acknowledgement of each 128th backup line); returns the backup lines acknowledged. */
static int throttle_log(const struct space_log *log, uint64_t *L, uint64_t done[4], uint64_t e_end[3])
{
    int nd = 0, nw = 0, ne = 0;
    *L = UINT64_MAX;
    for (int i = 0; i < log->ev.n; i++) {
        const struct mw_event *e = &log->ev.v[i];
        if (e->kind == MW_EV_CTA_LAUNCH && e->cycle < *L) *L = e->cycle;
        if (e->kind == MW_EV_CTA_DONE && nd < 4) done[nd++] = e->cycle;
        if (e->kind == MW_EV_INJECT_DONE && e->aux == 1 && ++nw % 128 == 0 && ne < 3) e_end[ne++] = e->cycle;
    }
    assert_int_equal(nd, 4);
    assert_int_equal(ne, 3);
    return nw;
}
static void test_space_counters_throttled(void **st)
{
    (void)st;
    static const char *const k[] = {"window", "ipc_upper", "ipc_lower", "cancel_backup"},
                             *const v[] = {"5000", "-10", "-10", "false"};
    struct space_log log = {0};
    struct mw_stat_list l;
    space_run(k, v, 4, &log, &l);
    uint64_t L, done[4], e_end[3];
    int nw = throttle_log(&log, &L, done, e_end);
    assert_int_equal(nw, 3 * 128);
    assert_true(e_end[2] < done[0]); /* every backup ended before the first completion */
    uint64_t busy = done[3] - L, dur = 0;
    for (int j = 0; j < 3; j++) dur += 16 * KB * (done[j] - e_end[2 - j]);
    assert_int_equal(sr_stat(&l, "policy.bundle.throttles"), 3);
    assert_int_equal(sr_stat(&l, "policy.bundle.space_sm_cycles"), busy);
    assert_int_equal(sr_stat(&l, "policy.bundle.dur_byte_cycles"), dur);
    assert_int_equal(sr_stat(&l, "policy.bundle.held_byte_cycles") + sr_stat(&l, "policy.bundle.sur_byte_cycles") +
                         sr_stat(&l, "policy.bundle.dur_byte_cycles"),
                     256 * KB * busy);
    assert_int_equal(sr_stat(&l, "policy.bundle.vp_byte_cycles"), 192 * KB * (done[3] - 9999));
    assert_int_equal(sr_stat(&l, "policy.bundle.vp_fit_byte_cycles"), 192 * KB * busy);
    assert_int_equal(sr_stat(&l, "policy.bundle.selected_sm_kernels"), 1);
    assert_int_equal(sr_stat(&l, "policy.bundle.selected_by_window2"), 1);
    evlog_fini(&log.ev);
    mw_stat_list_fini(&l);
}

/* The LIFO test's run (8,000-cycle windows, cancel_backup false; monitoring ends at cycle 15,999 and each window
 * end throttles the largest-id active CTA). From the event log: slot 3 is throttled at 16,000 (its backup ends at
 * e_0), slot 2 at 24,000 (e_1); slot 0's completion (done_0 > e_1) restores slot 2, slot 1's (done_1 > e_0) restores
 * slot 3; slot 3 is throttled again at 32,000, and slot 2's completion (done_2) restores it before that backup has
 * ended (e_2 > done_2): its restore takes a block at done_2 while the last lines are still being written, and the
 * backup ending during the restore must not free the block or count it as DUR. A backed-up CTA is DUR from its
 * backup's end to the completion that restores it: DUR = 16 KB x ((done_0 - e_1) + (done_1 - e_0)). */
static void test_space_backup_ends_during_restore(void **st)
{
    (void)st;
    static const char *const k[] = {"window", "ipc_upper", "ipc_lower", "cancel_backup"},
                             *const v[] = {"8000", "-10", "-10", "false"};
    struct space_log log = {0};
    struct mw_stat_list l;
    space_run(k, v, 4, &log, &l);
    uint64_t L, done[4], e_end[3];
    throttle_log(&log, &L, done, e_end);
    assert_true(e_end[1] < done[0] && e_end[0] < done[1]);
    assert_true(e_end[2] > done[2]); /* the third backup ends during its restore */
    uint64_t busy = done[3] - L, dur = 16 * KB * ((done[0] - e_end[1]) + (done[1] - e_end[0]));
    assert_int_equal(sr_stat(&l, "policy.bundle.throttles"), 3);
    assert_int_equal(sr_stat(&l, "policy.bundle.restore_bytes"), 3 * 128 * 128);
    assert_int_equal(sr_stat(&l, "policy.bundle.dur_byte_cycles"), dur);
    assert_int_equal(sr_stat(&l, "policy.bundle.held_byte_cycles") + sr_stat(&l, "policy.bundle.sur_byte_cycles") +
                         sr_stat(&l, "policy.bundle.dur_byte_cycles"),
                     256 * KB * busy);
    evlog_fini(&log.ev);
    mw_stat_list_fini(&l);
}

/* §2.3's classification (experiments/papers/linebacker_ws_monitor.lua) on a workload whose per-load numbers are
 * worked out in tests/lua/lb_ws.lua: streaming loads, the top loads' reused working set and its one-load part, under
 * each reading (inf_scope, reuse_by, top). */
static void test_ws_classification(void **st)
{
    (void)st;
    static char out[4096];
    int rc = run_cmd("'" MW_BINARY "' tests/lua/lb_ws.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  shared: 65 lines, 40 streaming, reused working set 24 lines (12 by one load)"));
    assert_non_null(strstr(out, "ok  reuse_by top:"));
    assert_non_null(strstr(out, "ok  own:"));
    assert_non_null(strstr(out, "ok  top 6:"));
    assert_non_null(strstr(out, "ok  windows:"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_space_of_hand_built),
        cmocka_unit_test(test_space_integration),
        cmocka_unit_test(test_space_counters_vc),
        cmocka_unit_test(test_space_backup_ends_during_restore),
        cmocka_unit_test(test_space_counters_throttled),
        cmocka_unit_test(test_ws_classification),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
