/* Trace writer round trip: a built-in kernel exported as an Accel-Sim trace folder and read back by the trace
 * reader gives bit-identical statistics on the GTX480 config: the micro-kernels and every benchmark model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "config.h"
#include "sim.h"
#include "trace_write.h"
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void run(struct mw_workload *w, struct mw_stat_list *l)
{
    struct mw_config c;
    struct mw_err e;
    mw_config_defaults(&c);
    if (mw_config_load_file(&c, "experiments/configs/gtx480.yaml", &e)) fail_msg("config: %s", e.msg);
    c.sm.inst_bytes = 16; /* the exported trace's PCs are 16 B apart: the same code addresses both ways */
    struct mw_sim *s = mw_sim_create(&c, &e);
    assert_non_null(s);
    assert_int_equal(mw_sim_set_workload(s, w, &e), 0);
    int rc = mw_sim_run(s, 0, &e);
    if (rc != 1) fail_msg("run: %s", e.msg);
    mw_stat_list_init(l);
    assert_int_equal(mw_sim_stats(s, l, true), 0);
    mw_sim_destroy(s);
}

static void roundtrip(const char *name, const char *size)
{
    char dir[] = "/tmp/mw-rtXXXXXX";
    assert_non_null(mkdtemp(dir));
    struct mw_err e;
    struct mw_workload w;
    assert_int_equal(mw_workload_open_builtin(&w, name, size, 3, &e), 0);
    if (mw_trace_export(&w, dir, &e)) fail_msg("export: %s", e.msg);
    mw_workload_close(&w);

    struct mw_stat_list a, b;
    assert_int_equal(mw_workload_open_builtin(&w, name, size, 3, &e), 0);
    run(&w, &a);
    if (mw_workload_open_trace(&w, dir, &e)) fail_msg("open trace: %s", e.msg);
    run(&w, &b);
    assert_int_equal(a.n, b.n);
    for (int i = 0; i < a.n; i++) {
        assert_string_equal(a.v[i].name, b.v[i].name);
        if (memcmp(&a.v[i].value, &b.v[i].value, sizeof(double)))
            fail_msg("%s %s: builtin %.17g, trace %.17g", name, a.v[i].name, a.v[i].value, b.v[i].value);
    }
    assert_true(mw_stat_list_get(&a, "gpu.warp_insts")->value > 0);
    mw_stat_list_fini(&a);
    mw_stat_list_fini(&b);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

static void test_roundtrip_micro(void **st)
{
    (void)st;
    roundtrip("micro.stream", "small");
    roundtrip("micro.colstride", "small");
    roundtrip("micro.reuse", "small");
}

/* Every benchmark model of the registry at its tiny size: the writer must express each model's instructions
 * (shared, local, constant and atomic accesses, partial masks, many launches) so the reader rebuilds them. */
static void test_roundtrip_benchmarks(void **st)
{
    (void)st;
    int n = 0;
    for (int i = 0; i < mw_builtin_nworkloads; i++) {
        const char *name = mw_builtin_workloads[i].name;
        if (!strncmp(name, "micro.", 6)) continue;
        roundtrip(name, "tiny");
        n++;
    }
    assert_true(n >= 36);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_roundtrip_micro),
                                       cmocka_unit_test(test_roundtrip_benchmarks)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
