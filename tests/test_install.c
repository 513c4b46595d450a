/* `cmake --install` into a temporary prefix, then the installed tool used from another folder with no moonwarp
 * environment: presets by name, the Lua library, the module under a stock lua5.4, the man page, and a reduced
 * demo (the four micro-kernels at their tiny size under the demo's five policies). The installed binary and the
 * build's binary must give the same stats for the same run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "runcmd.h"

static char prefix[256], work[512];
static char out[1 << 17];

static int setup(void **state)
{
    (void)state;
    if (rc_tmpdir(prefix, sizeof prefix, "mw_install")) return -1;
    snprintf(work, sizeof work, "%s/elsewhere", prefix);
    if (mkdir(work, 0777)) return -1;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cmake --install '%s' --prefix '%s/p' >'%s/install.log' 2>&1", MW_BUILD_DIR, prefix,
             prefix);
    return system(cmd) == 0 ? 0 : -1;
}
static int teardown(void **state)
{
    (void)state;
    return rc_rmtree(prefix);
}

/* cmd run in the folder `work`, with no LUA_PATH / LUA_CPATH, HOME in the temporary folder */
static int run_there(const char *cmd)
{
    char full[3072];
    snprintf(full, sizeof full, "cd '%s' && env -u LUA_PATH -u LUA_CPATH -u LUA_PATH_5_4 -u LUA_CPATH_5_4 HOME='%s' %s",
             work, prefix, cmd);
    return run_cmd(full, out, sizeof out);
}

static void assert_file(const char *rel)
{
    char p[512];
    struct stat sb;
    snprintf(p, sizeof p, "%s/p/%s", prefix, rel);
    if (stat(p, &sb) || sb.st_size == 0) fail_msg("not installed: %s", p);
}

static void test_layout(void **state)
{
    (void)state;
    assert_file("bin/moonwarp");
    assert_file("lib/lua/5.4/moonwarp.so");
    assert_file("share/lua/5.4/moonwarp/experiment.lua");
    assert_file("share/moonwarp/configs/gtx480.yaml");
    assert_file("share/moonwarp/configs/dram/gtx480_partition_dramsim3.yaml");
    assert_file("share/moonwarp/examples/demo.lua");
    assert_file("share/doc/moonwarp/README.md");
    assert_file("share/doc/moonwarp/lua.md");
    assert_file("share/man/man1/moonwarp.1");
}

/* The first number after `"name": ` in text, or -1. */
static double json_stat(const char *text, const char *name)
{
    char key[128];
    snprintf(key, sizeof key, "\"%s\": ", name);
    const char *p = strstr(text, key);
    return p ? strtod(p + strlen(key), NULL) : -1;
}

static void test_presets_and_run(void **state)
{
    (void)state;
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s/p/bin/moonwarp' list-configs", prefix);
    assert_int_equal(run_there(cmd), 0);
    char want[512];
    snprintf(want, sizeof want, "%s/p/share/moonwarp/configs/gtx480.yaml", prefix);
    if (!strstr(out, want) || !strstr(out, "installed presets")) fail_msg("list-configs:\n%s", out);
    /* the installed binary with a preset name, from another folder, against the build's with the source path */
    snprintf(cmd, sizeof cmd, "'%s/p/bin/moonwarp' run --config gtx480 --workload micro.colstride --size tiny --quiet "
                              "--out inst",
             prefix);
    assert_int_equal(run_there(cmd), 0);
    snprintf(cmd, sizeof cmd, "'%s' run --config '%s/experiments/configs/gtx480.yaml' --workload micro.colstride "
                              "--size tiny --quiet --out tree",
             MW_BINARY, MW_SOURCE_DIR);
    assert_int_equal(run_there(cmd), 0);
    static char a[1 << 20], b[1 << 20];
    char p[600];
    snprintf(p, sizeof p, "%s/inst/stats.json", work);
    rc_slurp(p, a, sizeof a);
    snprintf(p, sizeof p, "%s/tree/stats.json", work);
    rc_slurp(p, b, sizeof b);
    assert_true(json_stat(a, "gpu.cycles") > 0);
    assert_string_equal(strstr(a, "\"stats\""), strstr(b, "\"stats\"")); /* every counter, bit for bit */
    /* an unknown preset name: a message naming the presets, exit 2 */
    snprintf(cmd, sizeof cmd, "'%s/p/bin/moonwarp' run --config gtx48 --workload micro.stream", prefix);
    assert_int_equal(run_there(cmd), 2);
    if (!strstr(out, "gtx48: no such config file or preset (presets: dram/gtx480_partition_dramsim3"))
        fail_msg("%s", out);
}

static void test_stock_lua(void **state)
{
    (void)state;
#ifdef __SANITIZE_ADDRESS__
    skip(); /* a stock lua5.4 cannot load a module built with the sanitizer runtime */
#endif
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "LUA_CPATH='%s/p/lib/lua/5.4/?.so;;' lua5.4 -e 'local mw = require \"moonwarp\"; print(\"libdir=\" .. "
             "mw.libdir); local X = require \"moonwarp.experiment\"; print(\"X.run=\" .. type(X.run)); local s = "
             "mw.sim{config = \"gtx480\", workload = \"micro.colstride\", size = \"tiny\"}; s:run(); "
             "print(string.format(\"cycles=%%d\", s:stats()[\"gpu.cycles\"]))'",
             prefix);
    assert_int_equal(run_there(cmd), 0);
    char want[512];
    snprintf(want, sizeof want, "libdir=%s/p/share/lua/5.4\n", prefix);
    if (!strstr(out, want) || !strstr(out, "X.run=function")) fail_msg("%s", out);
    /* the same run as the installed binary's */
    static char a[1 << 20];
    char p[600];
    snprintf(p, sizeof p, "%s/inst/stats.json", work);
    rc_slurp(p, a, sizeof a);
    const char *c = strstr(out, "cycles=");
    assert_non_null(c);
    assert_true(strtod(c + 7, NULL) == json_stat(a, "gpu.cycles"));
}

static void test_reduced_demo(void **state)
{
    (void)state;
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s/p/bin/moonwarp' '%s/p/share/moonwarp/examples/demo.lua' demo tiny micro", prefix,
             prefix);
    int rc = run_there(cmd);
    if (rc) fail_msg("demo exit %d:\n%s", rc, out);
    /* one row per workload and one column per policy in the CSV, the normalized table printed */
    char p[600];
    static char csv[1 << 20];
    snprintf(p, sizeof p, "%s/demo/demo.csv", work);
    rc_slurp(p, csv, sizeof csv);
    const char *names[] = {"micro.stream", "micro.colstride", "micro.reuse", "micro.compute", "youngest(Lua)", "Two-Level"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strstr(csv, names[i])) fail_msg("%s missing from demo.csv:\n%s", names[i], csv);
    if (!strstr(out, "gpu.ipc")) fail_msg("%s", out);
}

static void test_man_page(void **state)
{
    (void)state;
    char cmd[1024];
    /* the installed page is the build's, which test_tool checks is `moonwarp help --man` */
    snprintf(cmd, sizeof cmd, "cmp '%s/p/share/man/man1/moonwarp.1' '%s/moonwarp.1'", prefix, MW_BUILD_DIR);
    assert_int_equal(run_there(cmd), 0);
    if (system("command -v man >/dev/null 2>&1") != 0) {
        print_message("man is not installed: the page is not rendered\n");
        return;
    }
    snprintf(cmd, sizeof cmd, "MANWIDTH=200 man -l '%s/p/share/man/man1/moonwarp.1' 2>&1 | cat", prefix);
    assert_int_equal(run_there(cmd), 0);
    /* rendered: every command's section and the run options as `run --help` gives them */
    const char *want[] = {"moonwarp - a cycle-level GPU simulator", "list-configs", "list-stats", "--format LIST",
                          "stats.csv: name,value,unit,description", "~/.moonwarp_history"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        if (!strstr(out, want[i])) fail_msg("'%s' not in the man page:\n%s", want[i], out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_layout), cmocka_unit_test(test_presets_and_run),
                                       cmocka_unit_test(test_stock_lua), cmocka_unit_test(test_reduced_demo),
                                       cmocka_unit_test(test_man_page)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
