/* Two bundles in one simulation (policies.bundle + policies.bundle2, engine/compose.c): a cta_throttle slot both
 * fill takes the smaller of the two limits and hands every event to both members, each bundle keeps its own shared
 * instance, events and counters (policy.bundle2.*), and a slot whose composition is not defined is a config error
 * with its position. Then Linebacker's vp_space = dur (LB+CacheExt, §5.5): a VP is enabled only once throttling
 * frees its whole register range inside the registers the SM's CTAs hold. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <unistd.h>

#include "policy_iface.h"

#define MW_POLICY_FILE_ID linebacker_under_compose
#include "linebacker.c"

/* ---- a test bundle: a cta_throttle member whose limit is the bundle's param (0 = none) ---- */
struct cap_params {
    int64_t limit;
};
static const struct mw_param_desc cap_params_desc[] = {
    MW_PARAM(struct cap_params, limit, MW_PP_INT, "0", 0, 64, NULL, "CTAs per SM (0 = no cap)"),
};
struct cap_state {
    int launches, resident, max_resident; /* the bundle's own events */
    int member_done;                      /* CTA_DONE seen by the member instance (forwarded when composed) */
    int limit_calls;
};
static int cap_create(struct mw_policy_inst *pi, struct mw_err *e)
{
    (void)e;
    pi->state = calloc(1, sizeof(struct cap_state));
    return pi->state ? 0 : -1;
}
static void cap_destroy(struct mw_policy_inst *pi) { free(pi->state), pi->state = NULL; }
static void cap_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    struct cap_state *st = pi->state;
    if (ev->kind == MW_EV_CTA_LAUNCH) {
        st->launches++;
        if (++st->resident > st->max_resident) st->max_resident = st->resident;
    } else if (ev->kind == MW_EV_CTA_DONE) {
        st->resident--;
    }
}
static int cap_limit(struct mw_policy_inst *pi, int sm, int resident)
{
    (void)sm, (void)resident;
    struct cap_state *st = pi->bundle->state;
    st->limit_calls++;
    int64_t l = ((const struct cap_params *)pi->bundle->params)->limit;
    return l ? (int)l : 1 << 30;
}
static void cap_member_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    if (ev->kind == MW_EV_CTA_DONE) ((struct cap_state *)pi->bundle->state)->member_done++;
}
static const struct mw_cta_throttle_ops cap_cta = {
    .base = {.point = MW_PT_CTA_THROTTLE, .name = "cap_cta", .desc = "the bundle's limit",
             .events = MW_EVB(MW_EV_CTA_DONE), .on_event = cap_member_event},
    .limit = cap_limit,
};
#define CAP_BUNDLE(var, nm)                                                                                        \
    static const struct mw_bundle_ops var = {                                                                      \
        .base = {.point = MW_PT_BUNDLE, .name = nm, .desc = "test bundle", .params = cap_params_desc, .nparams = 1, \
                 .params_size = sizeof(struct cap_params),                                                        \
                 .events = MW_EVB(MW_EV_CTA_LAUNCH) | MW_EVB(MW_EV_CTA_DONE), .create = cap_create,               \
                 .destroy = cap_destroy, .on_event = cap_event},                                                  \
        .members = {[MW_PT_CTA_THROTTLE] = &cap_cta.base},                                                         \
    }
CAP_BUNDLE(cap_a, "cap_a");
CAP_BUNDLE(cap_b, "cap_b");

/* micro.stream small on one SM: 30 CTAs; cap_a (limit la) as policies.bundle, cap_b (limit lb) as bundle2. */
static struct mw_sim *two_caps(const char *la, const char *lb)
{
    struct mw_sim *s = builtin_sim("micro.stream", "small", (const char *const[]){PI_ONE_SM}, 1);
    static const char *const key[] = {"limit"};
    struct mw_policy_inst bi;
    struct mw_err e;
    if (mw_policy_inst_init(&bi, &cap_a.base, s, key, &la, 1, &e)) fail_msg("cap_a: %s", e.msg);
    if (mw_sim_install_bundle_at(s, MW_SLOT_BUNDLE, &bi, NULL, &e)) fail_msg("install cap_a: %s", e.msg);
    if (mw_policy_inst_init(&bi, &cap_b.base, s, key, &lb, 1, &e)) fail_msg("cap_b: %s", e.msg);
    if (mw_sim_install_bundle_at(s, MW_SLOT_BUNDLE2, &bi, NULL, &e)) fail_msg("install cap_b: %s", e.msg);
    return s;
}
static int limit_now(struct mw_sim *s)
{
    struct mw_policy_inst *pi = &s->pol[MW_PT_CTA_THROTTLE];
    return ((const struct mw_cta_throttle_ops *)pi->pol)->limit(pi, 0, 1);
}

/* The composed slot's limit is min(a, b), each member asked once and reading its own bundle's params: 2 and no cap
 * (2^30) -> 2; no cap and 3 -> 3; 4 and 3 -> 3; no cap on both -> 2^30. */
static void test_shared_throttle_takes_the_smaller_limit(void **state)
{
    (void)state;
    static const char *const cases[][2] = {{"2", "0"}, {"0", "3"}, {"4", "3"}, {"0", "0"}};
    static const int want[] = {2, 3, 3, 1 << 30};
    for (int i = 0; i < 4; i++) {
        struct mw_sim *s = two_caps(cases[i][0], cases[i][1]);
        assert_string_equal(s->pol[MW_PT_CTA_THROTTLE].pol->name, "composed");
        assert_ptr_equal(s->pol[MW_SLOT_BUNDLE].pol, &cap_a.base);
        assert_ptr_equal(s->pol[MW_SLOT_BUNDLE2].pol, &cap_b.base);
        assert_int_equal(limit_now(s), want[i]);
        assert_int_equal(((struct cap_state *)s->pol[MW_SLOT_BUNDLE].state)->limit_calls, 1);
        assert_int_equal(((struct cap_state *)s->pol[MW_SLOT_BUNDLE2].state)->limit_calls, 1);
        mw_sim_destroy(s);
    }
}

/* With only a second bundle installed, a first one can no longer come (the second's members may be composed with
 * it): the error, and the slot keeps the second bundle's member. */
static void test_first_bundle_after_second(void **state)
{
    (void)state;
    struct mw_sim *s = builtin_sim("micro.stream", "small", (const char *const[]){PI_ONE_SM}, 1);
    static const char *const key[] = {"limit"}, *const three[] = {"3"}, *const one[] = {"1"};
    struct mw_policy_inst bi;
    struct mw_err e;
    if (mw_policy_inst_init(&bi, &cap_b.base, s, key, three, 1, &e)) fail_msg("cap_b: %s", e.msg);
    if (mw_sim_install_bundle_at(s, MW_SLOT_BUNDLE2, &bi, NULL, &e)) fail_msg("install cap_b: %s", e.msg);
    assert_ptr_equal(s->pol[MW_PT_CTA_THROTTLE].pol, &cap_cta.base); /* alone: not composed */
    if (mw_policy_inst_init(&bi, &cap_a.base, s, key, one, 1, &e)) fail_msg("cap_a: %s", e.msg);
    assert_int_not_equal(mw_sim_install_bundle_at(s, MW_SLOT_BUNDLE, &bi, NULL, &e), 0);
    assert_string_equal(e.msg, "bundle 'cap_b' (policies.bundle2) is installed: policies.bundle cannot change after it");
    assert_int_equal(limit_now(s), 3);
    mw_sim_destroy(s);
}

/* In a run: 30 CTAs. With cap_a at 2 and cap_b uncapped, the SM never holds more than 2 CTAs; both bundles' shared
 * instances see all 30 launches, and both members (inside the composed slot) see all 30 CTA ends. Without a cap on
 * either, the same SM holds more than 2 at once (the control). */
static void test_shared_throttle_in_a_run(void **state)
{
    (void)state;
    struct mw_stat_list l;
    struct mw_sim *s = two_caps("2", "0");
    run_stats(s, "stream, caps 2 and none", &l);
    assert_int_equal(sr_stat(&l, "gpu.ctas"), 30);
    for (int k = MW_SLOT_BUNDLE; k <= MW_SLOT_BUNDLE2; k++) {
        const struct cap_state *st = s->pol[k].state;
        assert_int_equal(st->launches, 30);
        assert_int_equal(st->max_resident, 2);
        assert_int_equal(st->member_done, 30);
        assert_true(st->limit_calls > 0);
    }
    mw_stat_list_fini(&l);
    mw_sim_destroy(s);

    s = two_caps("0", "0");
    run_stats(s, "stream, no caps", &l);
    assert_true(((const struct cap_state *)s->pol[MW_SLOT_BUNDLE].state)->max_resident > 2);
    mw_stat_list_fini(&l);
    mw_sim_destroy(s);
}

/* The built-in bundles as a config names them: PCAL (l1d_bypass + cta_throttle) with Linebacker's SVC (warp_scheduler
 * + replacement + cta_throttle). Each member points at its own bundle, cta_throttle is composed, and both bundles'
 * counters are reported under their slots. */
static void test_pcal_with_svc(void **state)
{
    (void)state;
    static const char *const sets[] = {PI_ONE_SM, "policies.bundle=pcal", "policies.bundle.window=2000",
                                       "policies.bundle2=linebacker", "policies.bundle2.variant=svc",
                                       "policies.bundle2.window=2000"};
    struct mw_sim *s = builtin_sim("micro.reuse", "small", sets, 6);
    assert_ptr_equal(s->pol[MW_PT_L1D_BYPASS].bundle, &s->pol[MW_SLOT_BUNDLE]);
    assert_ptr_equal(s->pol[MW_PT_REPLACEMENT].bundle, &s->pol[MW_SLOT_BUNDLE2]);
    assert_ptr_equal(s->pol[MW_PT_WARP_SCHED].bundle, &s->pol[MW_SLOT_BUNDLE2]);
    assert_string_equal(s->pol[MW_PT_CTA_THROTTLE].pol->name, "composed");
    struct mw_stat_list l;
    run_stats(s, "reuse, pcal + svc", &l);
    assert_true(sr_stat(&l, "policy.bundle.token_requests") > 0);
    assert_true(sr_stat(&l, "policy.bundle2.windows") > 0);
    mw_stat_list_fini(&l);
    mw_sim_destroy(s);
}

/* Config errors, each with the position of the second bundle's choice. */
static void expect_create_error(const char *yaml, const char *msg, int line, int col)
{
    char path[] = "/tmp/mw_compose_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(yaml, f);
    fclose(f);
    struct mw_config c;
    struct mw_err e;
    mw_config_defaults(&c);
    mw_err_clear(&e);
    int rc = mw_config_load_file(&c, path, &e);
    struct mw_sim *s = rc ? NULL : mw_sim_create(&c, &e);
    unlink(path);
    if (s) {
        mw_sim_destroy(s);
        fail_msg("no error for:\n%s", yaml);
    }
    assert_string_equal(e.msg, msg);
    assert_string_equal(e.file, path);
    assert_int_equal(e.line, line);
    assert_int_equal(e.col, col);
}
static void test_config_errors(void **state)
{
    (void)state;
    /* Linebacker and CERF both fill warp_scheduler (the first slot in order) and replacement */
    expect_create_error("policies:\n  bundle: linebacker\n  bundle2: cerf\n",
                        "bundles 'linebacker' (policies.bundle) and 'cerf' (policies.bundle2) both provide "
                        "policies.warp_scheduler, and two warp_scheduler policies do not compose (two bundles may "
                        "share only cta_throttle: the smaller limit)",
                        3, 12);
    expect_create_error("policies:\n  bundle: pcal\n  bundle2:\n    impl: pcal\n    tokens: 4\n",
                        "bundles 'pcal' (policies.bundle) and 'pcal' (policies.bundle2) both provide "
                        "policies.l1d_bypass, and two l1d_bypass policies do not compose (two bundles may share only "
                        "cta_throttle: the smaller limit)",
                        4, 11);
    /* a slot the config chooses is no more the second bundle's than the first's */
    expect_create_error("policies:\n  l1d_bypass: all\n  bundle2: pcal\n",
                        "policies.l1d_bypass is set to a policy other than its default, but bundle 'pcal' provides "
                        "that decision point (remove one)",
                        3, 12);
    expect_create_error("policies:\n  bundle2:\n    impl: lua\n    script: x.lua\n",
                        "policies.bundle2: impl 'lua' is not supported here (use a built-in)", 3, 11);
}

/* ---- vp_space = dur ----
 * Offset 0, 48 sets x 4 ways: VP n = warp registers [192 n, 192 n + 191]; 8 VPs (vtt_ways 32 / 4) in a 2,048-register
 * file. Four CTAs of 128 warp registers hold [0, 511] (alloc 512); throttling the top ones moves LRN down:
 *   none throttled: LRN 511. all: VPs with first > 511 and last <= 2047: 3 (576-767) ... 7 (1344-1535) -> 0xF8.
 *                   dur: last <= 511 as well: none -> 0.
 *   one (LRN 383):  dur: VP 2 is 384-575, past 511 -> 0.    two (LRN 255): VP 1 is 192-383, 192 <= 255 -> 0.
 *   three (LRN 127): VP 1 (192-383) lies in 128-511 -> 0x2; VP 0 (0-191) starts at or below LRN.
 * Edges: VP 1 needs first 192 > LRN (LRN 191 yes, 192 no) and last 383 <= alloc - 1 (alloc 384 yes, 383 no). */
static void test_dur_vp_rule(void **state)
{
    (void)state;
    assert_int_equal(lb_vp_mask(LB_VP_ALL, 511, 512, 2048, 0, 48, 4, 8), 0xF8);
    assert_int_equal(lb_vp_mask(LB_VP_DUR, 511, 512, 2048, 0, 48, 4, 8), 0);
    assert_int_equal(lb_vp_mask(LB_VP_DUR, 383, 512, 2048, 0, 48, 4, 8), 0);
    assert_int_equal(lb_vp_mask(LB_VP_DUR, 255, 512, 2048, 0, 48, 4, 8), 0);
    assert_int_equal(lb_vp_mask(LB_VP_DUR, 127, 512, 2048, 0, 48, 4, 8), 0x2);
    assert_int_equal(lb_vp_mask(LB_VP_ALL, 127, 512, 2048, 0, 48, 4, 8), 0xFE);
    assert_int_equal(lb_vp_mask(LB_VP_DUR, 191, 384, 2048, 0, 48, 4, 8), 0x2);
    assert_int_equal(lb_vp_mask(LB_VP_DUR, 192, 384, 2048, 0, 48, 4, 8), 0);
    assert_int_equal(lb_vp_mask(LB_VP_DUR, 191, 383, 2048, 0, 48, 4, 8), 0);
    /* vp_sets 48 beside a 464-set L1D (CacheExt): L1D set x uses VTT set x mod 48 (463 = 9 x 48 + 31); with the
     * L1D's own sets (vp_sets 0) it is the identity */
    struct lb_vtt v48 = {.sets = 48}, v464 = {.sets = 464};
    assert_int_equal(vtt_set(&v48, 47), 47);
    assert_int_equal(vtt_set(&v48, 48), 0);
    assert_int_equal(vtt_set(&v48, 463), 31);
    assert_int_equal(vtt_set(&v464, 463), 463);
    /* nothing resident (LRN -1, alloc 0): no DUR, no VP; all: every VP */
    assert_int_equal(lb_vp_mask(LB_VP_DUR, -1, 0, 2048, 0, 48, 4, 8), 0);
    assert_int_equal(lb_vp_mask(LB_VP_ALL, -1, 0, 2048, 0, 48, 4, 8), 0xFF);
}

/* In a run: SVC never throttles, so under dur no register is ever freed and no VP is enabled (no victim kept, no
 * register hit), while under all the same run keeps victims in the SUR. kmeans tiny on one SM, 2,000-cycle windows. */
static void test_dur_without_throttling_keeps_nothing(void **state)
{
    (void)state;
    double vpw[2], hits[2];
    for (int d = 0; d < 2; d++) {
        const char *sets[] = {PI_ONE_SM, "policies.bundle=linebacker", "policies.bundle.variant=svc",
                              "policies.bundle.window=2000", d ? "policies.bundle.vp_space=dur" : "policies.bundle.vp_space=all"};
        struct mw_config c;
        struct mw_err e;
        mw_config_defaults(&c);
        if (mw_config_load_file(&c, "experiments/configs/linebacker.yaml", &e)) fail_msg("config: %s", e.msg);
        for (int i = 0; i < 5; i++)
            if (mw_config_set(&c, sets[i], &e)) fail_msg("--set %s: %s", sets[i], e.msg);
        struct mw_workload w;
        if (mw_workload_open_builtin(&w, "rodinia.kmeans", "tiny", 1, &e)) fail_msg("kmeans: %s", e.msg);
        struct mw_sim *s = sr_sim(&c, &w);
        struct mw_stat_list l;
        run_stats(s, d ? "kmeans svc dur" : "kmeans svc all", &l);
        vpw[d] = sr_stat(&l, "policy.bundle.vp_windows");
        hits[d] = sr_stat(&l, "policy.bundle.reg_hits");
        assert_true(sr_stat(&l, "policy.bundle.selected_loads") > 0); /* there was something to keep */
        mw_stat_list_fini(&l);
        mw_sim_destroy(s);
    }
    assert_true(vpw[0] > 0 && hits[0] > 0);
    assert_int_equal(vpw[1], 0);
    assert_int_equal(hits[1], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_throttle_takes_the_smaller_limit),
        cmocka_unit_test(test_first_bundle_after_second),
        cmocka_unit_test(test_shared_throttle_in_a_run),
        cmocka_unit_test(test_pcal_with_svc),
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_dur_vp_rule),
        cmocka_unit_test(test_dur_without_throttling_keeps_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
