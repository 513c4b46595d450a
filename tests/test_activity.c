/* The activity-driven engine: units that have nothing to do are not visited. sim.unit_visits counts what the
 * engine evaluates (an SM's cycle or a reply delivered to it, a slice's L2 cycle, a channel's DRAM cycle, a
 * crossbar cycle with packets); a run's cost should scale with events, not with cycles x units. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "config.h"
#include "sim.h"
#include "simrun.h"

static void run_with(const char *latency, const char *ff, struct mw_stat_list *l)
{
    const char *sets[] = {latency, ff};
    struct mw_config c;
    sr_config(&c, sets, 2);
    struct mw_workload w;
    struct mw_err e;
    if (mw_workload_open_builtin(&w, "micro.stream", "tiny", 1, &e)) fail_msg("open: %s", e.msg);
    struct mw_sim *s = sr_sim(&c, &w);
    sr_run(s, 0, "activity");
    sr_stats(s, l);
    mw_sim_destroy(s);
}

/* micro.stream tiny: one CTA whose loads wait on DRAM. Lengthening the L2 -> DRAM delay by 900 cycles adds
 * 900 cycles per DRAM round trip in which nothing can happen anywhere: with idle units skipped the engine visits
 * exactly as many units as before; ticking every unit every cycle (fast_forward off) visits thousands more. */
static void test_waiting_visits_nothing(void **st)
{
    (void)st;
    struct mw_stat_list a, b, c, d;
    run_with("dram.latency=100", "sim.fast_forward=true", &a);
    run_with("dram.latency=1000", "sim.fast_forward=true", &b);
    run_with("dram.latency=100", "sim.fast_forward=false", &c);
    run_with("dram.latency=1000", "sim.fast_forward=false", &d);
    double dc = sr_stat(&b, "gpu.cycles") - sr_stat(&a, "gpu.cycles");
    assert_true(dc >= 900);
    const char *kinds[] = {"sim.visits_sm", "sim.visits_l2", "sim.visits_dram", "sim.visits_icnt", "sim.unit_visits"};
    for (int i = 0; i < 5; i++)
        if (sr_stat(&a, kinds[i]) != sr_stat(&b, kinds[i]))
            fail_msg("%s: %g visits with the short delay, %g with the long one", kinds[i], sr_stat(&a, kinds[i]),
                     sr_stat(&b, kinds[i]));
    /* fewer visits than cycles: most cycles nothing at all is evaluated */
    assert_true(sr_stat(&a, "sim.unit_visits") < sr_stat(&a, "gpu.cycles"));
    /* every unit every cycle: the 15 SMs at least, and growing with the wait */
    assert_true(sr_stat(&c, "sim.visits_sm") >= 15 * sr_stat(&c, "gpu.cycles"));
    assert_true(sr_stat(&d, "sim.unit_visits") - sr_stat(&c, "sim.unit_visits") >= 15 * dc);
    /* and the simulated machine is the same either way */
    sr_same_stats(&a, &c, "fast-forward on vs off");
    mw_stat_list_fini(&a);
    mw_stat_list_fini(&b);
    mw_stat_list_fini(&c);
    mw_stat_list_fini(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_waiting_visits_nothing)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
