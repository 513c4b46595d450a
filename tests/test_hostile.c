/* Hostile policies and stuck runs: each reproducer of a crash or a hang becomes a clear error, named by the hook
 * and its line (or by what is stuck), with a non-zero exit and no stats written. The scripts are in
 * tests/hostile/. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include <time.h>

#include "runcmd.h"

static char out[1 << 16];
static char dir[256]; /* each run's --out: a failed run leaves no stats.json there */

#define CFG "--config experiments/configs/gtx480.yaml "
/* A policy script in a slot of a `moonwarp run`, with extra arguments. */
static int run_policy(const char *slot, const char *script, const char *extra)
{
    char cmd[1024], stats[300];
    snprintf(stats, sizeof stats, "%s/stats.json", dir);
    remove(stats);
    snprintf(cmd, sizeof cmd,
             "'" MW_BINARY "' run " CFG "--out '%s' --set policies.%s.impl=lua "
             "--set policies.%s.script=tests/hostile/%s %s",
             dir, slot, slot, script, extra);
    int rc = run_cmd(cmd, out, sizeof out);
    FILE *f = fopen(stats, "r");
    if (f) fclose(f);
    if (rc) assert_null(f); /* nothing half-written */
    return rc;
}
static void expect(const char *what)
{
    if (!strstr(out, what)) fail_msg("expected \"%s\" in:\n%s", what, out);
}
static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* m.random(math.mininteger, math.maxinteger) raised SIGFPE (hi - lo overflowed, then a modulo by zero). */
static void test_random_wide(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/hostile/random_run.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    expect("integer=true near=true");
}

/* A __gc finalizer looping forever ran with Lua's hooks off: now refused where it is set, with its line. */
static void test_gc_refused(void **state)
{
    (void)state;
    int rc = run_policy("l1d_bypass", "gc_loop.lua", "--workload micro.stream --size tiny");
    assert_int_not_equal(rc, 0);
    expect("Lua policy l1d_bypass.decide: tests/hostile/gc_loop.lua:3: setmetatable: a policy may not set a __gc");
    expect("no stats written");
}

/* An endless top-level chunk had no limit while the script loaded. */
static void test_top_level_loop(void **state)
{
    (void)state;
    double t0 = now_s();
    int rc = run_policy("l1d_bypass", "top_loop.lua", "--workload micro.stream --size tiny");
    assert_int_equal(rc, 2);
    expect("l1d_bypass policy script: tests/hostile/top_loop.lua:2: time budget exceeded");
    assert_true(now_s() - t0 < 30);
}

/* C pattern matching is not counted by Lua's hooks: the watchdog stops the process a second after the time
 * limit, naming the hook and the string.find call. */
static void test_pattern(void **state)
{
    (void)state;
    double t0 = now_s();
    int rc = run_policy("l1d_bypass", "pattern.lua", "--workload micro.stream --size tiny");
    assert_int_equal(rc, 3);
    expect("Lua policy l1d_bypass.decide: still running a second of CPU time after its time budget ran out");
    expect("last at tests/hostile/pattern.lua:4 in string.find");
    expect("no stats written");
    assert_true(now_s() - t0 < 60);
}

/* memory = 65536 in a script raised its cap to 64 GiB; the config's ceiling holds, and a lower value works. */
static void test_memory_ceiling(void **state)
{
    (void)state;
    int rc = run_policy("l1d_bypass", "memory_raise.lua", "--workload micro.stream --size tiny");
    assert_int_equal(rc, 2);
    expect("memory = 65536 MiB is above the ceiling of 64 MiB set by sim.lua_memory_mib");
    rc = run_policy("l1d_bypass", "memory_raise.lua",
                    "--workload micro.stream --size tiny --set sim.lua_memory_mib=65536");
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
}

/* A victim hook that never names a victim, with and without fast-forward: the progress watchdog names it. */
static void test_victim_never(void **state)
{
    (void)state;
    for (int ff = 0; ff < 2; ff++) {
        int rc = run_policy("replacement", "victim_never.lua",
                            ff ? "--workload polybench.atax --size small"
                               : "--workload polybench.atax --size small --set sim.fast_forward=false");
        assert_int_not_equal(rc, 0);
        expect("no stats written");
        if (!ff) {
            expect("no progress for 10");
            expect("(sim.watchdog_cycles)");
            expect("Kernel 'atax_kernel1'");
            expect("the last refusal: replacement policy 'lua:victim_never.lua'");
            expect("(no victim for a fill)");
        }
    }
}

/* A CTA limit of 0 with fast_forward off ran forever; the watchdog stops it after sim.watchdog_cycles. */
static void test_cta_zero(void **state)
{
    (void)state;
    int rc = run_policy("cta_throttle", "cta_zero.lua",
                        "--workload micro.stream --size tiny --set sim.fast_forward=false "
                        "--set sim.watchdog_cycles=20000");
    assert_int_equal(rc, 2);
    expect("no progress for 20480 core cycles (sim.watchdog_cycles) at core cycle 20481");
    expect("1 of 1 CTAs unfinished, 1 not yet dispatched; 0 SMs hold CTAs");
    expect("the last refusal: cta_throttle policy 'lua:cta_zero.lua'");
}

/* A user's own program: debug.sethook inside a hook is refused; a coroutine resumed from a hook runs under the
 * hook's time limit (its endless loop fails the resume); a finalizer loop stops the process with the hook named. */
static void test_script_escapes(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/hostile/script_escapes.lua sethook", out, sizeof out);
    assert_int_equal(rc, 4);
    expect("debug.sethook: not available inside a policy hook");
    expect("script_escapes.lua:9:");
    rc = run_cmd("'" MW_BINARY "' tests/hostile/script_escapes.lua coroutine", out, sizeof out);
    assert_int_equal(rc, 0);
    expect("resumed: false tests/hostile/script_escapes.lua:6: time budget exceeded");
    expect("run completed");
    rc = run_cmd("'" MW_BINARY "' tests/hostile/script_escapes.lua wrap", out, sizeof out);
    assert_int_equal(rc, 0);
    expect("resumed: false");
    expect("time budget exceeded");
    rc = run_cmd("'" MW_BINARY "' tests/hostile/script_escapes.lua gc", out, sizeof out);
    assert_int_equal(rc, 3);
    expect("Lua policy l1d_bypass.decide: still running a second of CPU time after its time budget ran out");
}

/* Writes `head`, then `rep` n times, then `tail` to dir/name; returns the path. */
static const char *write_file(const char *name, const char *head, const char *rep, long n, const char *tail)
{
    static char path[400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(head, f);
    for (long i = 0; i < n; i++) fprintf(f, rep, i);
    fputs(tail, f);
    fclose(f);
    return path;
}
static int run_config(const char *path)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'" MW_BINARY "' run --config '%s' --workload micro.stream --size tiny --out '%s'", path,
             dir);
    return run_cmd(cmd, out, sizeof out);
}

/* YAML limits: 200,000 levels of nesting ran past a minute inside libyaml; 100,000 keys under one policy took
 * most of a minute in the duplicate check before the count check; no size cap; a folder read as bad YAML. */
static void test_yaml_limits(void **state)
{
    (void)state;
    double t0 = now_s();
    const char *p = write_file("deep.yaml", "sim:\n  seed: ", "[", 200000, "\n");
    assert_int_equal(run_config(p), 2);
    expect("deep.yaml:2:");
    expect("nested more than 32 levels deep");
    { /* block style: 40 mappings, each indented one column more (the byte-level bound sends it to the scan) */
        char text[4096] = "";
        size_t k = 0;
        for (int lvl = 0; lvl < 40; lvl++) {
            for (int c = 0; c < lvl; c++) text[k++] = ' ';
            k += (size_t)snprintf(text + k, sizeof text - k, "k%d:\n", lvl);
        }
        p = write_file("deep_block.yaml", text, "", 0, "");
        assert_int_equal(run_config(p), 2);
        expect("deep_block.yaml:33:33: nested more than 32 levels deep");
    }
    p = write_file("keys.yaml", "policies:\n  l1d_bypass:\n    impl: all\n", "    k%ld: 1\n", 60000, "");
    assert_int_equal(run_config(p), 2);
    expect("keys.yaml:21:5: policies.l1d_bypass: more than 16 parameters");
    p = write_file("big.yaml", "# ", "0123456789abcdef", 70000, "\n");
    assert_int_equal(run_config(p), 2);
    expect("big.yaml: larger than 1048576 bytes");
    assert_int_equal(run_config("tests"), 2);
    expect("tests: is a folder, not a config file");
    /* a sweep spec is YAML under the same limits */
    p = write_file("deep_spec.yaml", "workloads: ", "[", 200000, "\n");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'" MW_BINARY "' sweep '%s' --store '%s/s.db'", p, dir);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 2);
    expect("deep_spec.yaml:1:");
    expect("nested more than 32 levels deep");
    assert_true(now_s() - t0 < 20);
}

/* A trace line is capped: one line of several MB grew the line buffer without end. */
static void test_trace_line(void **state)
{
    (void)state;
    write_file("kernel-1.traceg", "-kernel name = k\n-kernel id = 1\n", "%ld,", 400000, "\n");
    const char *p = write_file("kernelslist.g", "kernel-1.traceg\n", "", 0, "");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'" MW_BINARY "' run " CFG "--trace '%s' --out '%s'", p, dir);
    assert_int_not_equal(run_cmd(cmd, out, sizeof out), 0);
    expect("kernel-1.traceg:3:1: a line longer than 1048576 bytes");
}

/* The command line: out-of-range --seed and --max-cycles were accepted (assigned after validation); an --out
 * that is a file was found after the whole run; a --set that broke a cross-field rule was blamed on the YAML
 * line it overrode; list commands ignored extra arguments. */
static void test_cli(void **state)
{
    (void)state;
    char cmd[1024];
    const char *base = "'" MW_BINARY "' run " CFG "--workload micro.stream --size tiny ";
    snprintf(cmd, sizeof cmd, "%s--out '%s' --seed 99999999999", base, dir);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 2);
    expect("--seed: 99999999999 is out of range 0..4294967295");
    snprintf(cmd, sizeof cmd, "%s--out '%s' --max-cycles 9999999999999999", base, dir);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 2);
    expect("--max-cycles: 9999999999999999 is out of range 0..1000000000000000");
    const char *f = write_file("not_a_folder", "x", "", 0, "");
    snprintf(cmd, sizeof cmd, "%s--out '%s' --set sim.watchdog_cycles=5", base, f);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 2);
    expect("--out: ");
    expect("exists and is not a folder");
    assert_true(strstr(out, "speed:") == NULL); /* refused before the run */
    snprintf(cmd, sizeof cmd, "%s--out '%s' --set l1d.assoc=3", base, dir);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 2);
    expect("--set:1:11: l1d.size_bytes: 16384 is not a whole number of sets");
    static const char *const lists[] = {"list-policies", "list-workloads", "list-configs", "list-stats"};
    for (int i = 0; i < 4; i++) {
        snprintf(cmd, sizeof cmd, "'" MW_BINARY "' %s extra", lists[i]);
        assert_int_equal(run_cmd(cmd, out, sizeof out), 2);
        expect("takes no arguments, got 'extra'");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_wide),    cmocka_unit_test(test_gc_refused),   cmocka_unit_test(test_top_level_loop),
        cmocka_unit_test(test_pattern),        cmocka_unit_test(test_memory_ceiling), cmocka_unit_test(test_victim_never),
        cmocka_unit_test(test_cta_zero),       cmocka_unit_test(test_script_escapes), cmocka_unit_test(test_yaml_limits), cmocka_unit_test(test_trace_line), cmocka_unit_test(test_cli),
    };
    if (rc_tmpdir(dir, sizeof dir, "mw_hostile")) return 1;
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rc_rmtree(dir);
    return rc;
}
