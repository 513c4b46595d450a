/* experiments/correlate.lua, the Accel-Sim-style correlator: its outputs checked against the traces' own stats
 * (tests/lua/correlate.lua), and its input errors: exit code 2, `file:line: message`, nothing in OUTDIR. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runcmd.h"

#define HEADER "trace,config,kernels,cycles,thread_insts,ipc,l1d_miss_rate,l2_miss_rate,wall_s\n"

static char out[1 << 16];

static void test_correlate(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/correlate.lua '" MW_BINARY "'", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  correlation.csv: 18 rows, one per trace x counter"));
    assert_non_null(strstr(out, "ok  15 errors equal the hand-computed ones"));
    assert_non_null(strstr(out, "ok  cycles: pearson "));
    assert_non_null(strstr(out, "ok  correlation.svg: 3 points, the diagonal"));
    assert_non_null(strstr(out, "ok  OUTDIR: correlation.csv"));
}

/* Writes text to dir/name. */
static void put(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Runs the correlator on dir/ref into dir/out; returns its exit code; out[] holds what it printed. */
static int correlate(const char *dir, const char *ref)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' experiments/correlate.lua '%s/%s' ../shared/traces '%s/out' "
             "--config experiments/configs/gtx480.yaml", MW_BINARY, dir, ref, dir);
    return run_cmd(cmd, out, sizeof out);
}

static void expect(const char *dir, const char *ref, const char *fmt)
{
    char msg[1024], outdir[512];
    snprintf(msg, sizeof msg, fmt, dir);
    int rc = correlate(dir, ref);
    if (!strstr(out, msg)) fprintf(stderr, "expected %s\ngot %s\n", msg, out);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, msg));
    snprintf(outdir, sizeof outdir, "%s/out", dir);
    assert_int_not_equal(access(outdir, F_OK), 0); /* OUTDIR never created */
}

static void test_correlate_errors(void **state)
{
    (void)state;
    char dir[] = "/tmp/mw_correlate_XXXXXX";
    assert_non_null(mkdtemp(dir));
    put(dir, "bad.csv", HEADER "microgpusim_vectoradd_100,gtx480,1,1217,10516,8.64,1.0,1.0,0.04\n"
                        "microgpusim_matrixmul_32,gtx480,1,abc,139264,24.7,1.0,1.0,0.17\n");
    expect(dir, "bad.csv", "correlate: %s/bad.csv:3: cycles: 'abc' is not a number\n");
    put(dir, "short.csv", HEADER "\nmicrogpusim_vectoradd_100,gtx480,1,1217,10516,8.64,1.0\n");
    expect(dir, "short.csv", "correlate: %s/short.csv:3: expected 9 fields as in the header, found 7\n");
    put(dir, "rate.csv", HEADER "microgpusim_vectoradd_100,gtx480,1,1217,10516,8.64,55,1.0,0.04\n");
    expect(dir, "rate.csv", "correlate: %s/rate.csv:2: l1d_miss_rate: 55 is not a rate in [0, 1]\n");
    put(dir, "head.csv", "trace,cycles,ipc\n");
    expect(dir, "head.csv",
           "correlate: %s/head.csv:1: the header lacks the column(s) "
           "thread_insts, l1d_miss_rate, l2_miss_rate, wall_s\n");
    put(dir, "dup.csv", HEADER "microgpusim_vectoradd_100,gtx480,1,1217,10516,8.64,1,1,1\n"
                        "microgpusim_vectoradd_100,gtx480,1,1217,10516,8.64,1,1,1\n");
    expect(dir, "dup.csv", "correlate: %s/dup.csv:3: trace microgpusim_vectoradd_100 is already listed at line 2\n");
    put(dir, "notrace.csv", HEADER "microgpusim_vectoradd_100,gtx480,1,1217,10516,8.64,1,1,1\n"
                            "no_such_trace,gtx480,1,1217,10516,8.64,1,1,1\n");
    expect(dir, "notrace.csv", "correlate: %s/notrace.csv:3: no trace folder for no_such_trace: "
                               "../shared/traces/no_such_trace/kernelslist.g is missing\n");
    expect(dir, "absent.csv", "correlate: cannot read the reference %s/absent.csv: No such file or directory\n");

    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_correlate),
        cmocka_unit_test(test_correlate_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
