/* The command line as a new user meets it: help for every command (exit 0, options, examples), the man page
 * being the help text, presets by name giving the same stats as their path (CLI and Lua), list-configs with the
 * presets' descriptions, list-stats naming every counter declared as data, and run --format csv/json/table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "dram.h"
#include "icnt.h"
#include "l1d.h"
#include "l1i.h"
#include "l2.h"
#include "sm_stats.h"

#include "runcmd.h"

static char out[1 << 17];
static char dir[256];

static int setup(void **state)
{
    (void)state;
    return rc_tmpdir(dir, sizeof dir, "mw_tool");
}
static int teardown(void **state)
{
    (void)state;
    return rc_rmtree(dir);
}

static void test_help_everywhere(void **state)
{
    (void)state;
    static const char *const cmds[] = {"run",   "list-configs", "list-policies", "list-workloads", "list-stats",
                                       "dram",  "trace",        "trace-info",    "sweep",          "results"};
    char cmd[512], want[128];
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        snprintf(cmd, sizeof cmd, "'%s' %s --help", MW_BINARY, cmds[i]);
        assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
        snprintf(want, sizeof want, "usage: moonwarp %s", cmds[i]);
        if (strncmp(out, want, strlen(want)) || !strstr(out, "\nexamples:\n  moonwarp ")) fail_msg("%s:\n%s", cmd, out);
        /* help CMD is the same text */
        static char again[1 << 16];
        snprintf(cmd, sizeof cmd, "'%s' help %s", MW_BINARY, cmds[i]);
        assert_int_equal(run_cmd(cmd, again, sizeof again), 0);
        assert_string_equal(out, again);
    }
    assert_int_equal(run_cmd("'" MW_BINARY "' run --help", out, sizeof out), 0);
    const char *opts[] = {"--config NAME|FILE", "--workload NAME|FILE.lua", "--trace DIR|kernelslist.g", "--set section.key=value",
                          "--seed N", "--max-cycles N", "--out DIR", "--format LIST", "--quiet, -q"};
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
        if (!strstr(out, opts[i])) fail_msg("run --help lacks %s:\n%s", opts[i], out);
    assert_int_equal(run_cmd("'" MW_BINARY "' help", out, sizeof out), 0);
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        snprintf(want, sizeof want, "\n  %-15s ", cmds[i]);
        if (!strstr(out, want)) fail_msg("help lacks %s:\n%s", cmds[i], out);
    }
    assert_int_equal(run_cmd("'" MW_BINARY "' --version", out, sizeof out), 0);
    assert_non_null(strstr(out, "moonwarp 0.1 (Lua 5.4"));
    assert_int_equal(run_cmd("'" MW_BINARY "' help nosuch", out, sizeof out), 2);
    assert_non_null(strstr(out, "no command 'nosuch'"));
}

static void test_man_page_is_the_help(void **state)
{
    (void)state;
    /* the build's moonwarp.1 is what `help --man` writes now */
    static char built[1 << 16];
    char path[512];
    snprintf(path, sizeof path, "%s", MW_BINARY);
    *strrchr(path, '/') = 0;
    strcat(path, "/moonwarp.1");
    rc_slurp(path, built, sizeof built);
    assert_int_equal(run_cmd("'" MW_BINARY "' help --man", out, sizeof out), 0);
    assert_string_equal(out, built);
    /* roff's hyphens: the run options as the help gives them */
    assert_non_null(strstr(built, ".B \\-\\-format LIST\n"));
    assert_non_null(strstr(built, ".SS list\\-stats\n"));
}

static void test_preset_by_name(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' run --config gtx480 --workload polybench.bicg --size tiny --quiet --out %s/name "
                              "--format json,csv", MW_BINARY, dir);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
    snprintf(cmd, sizeof cmd, "'%s' run --config experiments/configs/gtx480.yaml --workload polybench.bicg --size tiny "
                              "--quiet --out %s/path --format json,csv", MW_BINARY, dir);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
    static char a[1 << 20], b[1 << 20];
    char p[512];
    snprintf(p, sizeof p, "%s/name/stats.json", dir), rc_slurp(p, a, sizeof a);
    snprintf(p, sizeof p, "%s/path/stats.json", dir), rc_slurp(p, b, sizeof b);
    assert_non_null(strstr(a, "\"config\": \"gtx480\""));
    assert_string_equal(strstr(a, "\"stats\""), strstr(b, "\"stats\"")); /* every counter, bit for bit */
    snprintf(p, sizeof p, "%s/name/stats.csv", dir), rc_slurp(p, a, sizeof a);
    snprintf(p, sizeof p, "%s/path/stats.csv", dir), rc_slurp(p, b, sizeof b);
    assert_string_equal(a, b);
    /* in Lua: config = "gtx480" and the path give the same stats, every one of them */
    snprintf(p, sizeof p, "%s/same.lua", dir);
    FILE *f = fopen(p, "w");
    assert_non_null(f);

    fputs("local mw = require 'moonwarp'\n"
          "local function run(c) local s = mw.sim{config = c, workload = 'polybench.bicg', size = 'tiny'}; s:run();"
          " return s:stats() end\n"
          "local a, b, n = run('gtx480'), run('experiments/configs/gtx480.yaml'), 0\n"
          "for k, v in pairs(a) do assert(b[k] == v, k); n = n + 1 end\n"
          "for k in pairs(b) do assert(a[k] ~= nil, k) end\n"
          "print('same ' .. n .. ' cycles ' .. a['gpu.cycles'])\n"
          "print(pcall(mw.sim, {config = 'gtx48', workload = 'micro.stream'}))\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' %s", MW_BINARY, p);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
    if (!strstr(out, "same ") || strstr(out, "same 0 ")) fail_msg("%s", out);
    assert_non_null(strstr(out, "false\tmw.sim: gtx48: no such config file or preset (presets: dram/"));
}

static void test_list_configs(void **state)
{
    (void)state;
    assert_int_equal(run_cmd("'" MW_BINARY "' list-configs", out, sizeof out), 0);
    /* the `# description:` line of each preset */
    const char *want[] = {"gtx480                             NVIDIA GTX480 (Fermi), GPGPU-Sim 3.2.x:",
                          "oaws                               The OAWS (PACT 2016) machine:",
                          "linebacker                         The Linebacker (ISCA 2019)",
                          "gtx480_accelsim                    NVIDIA GTX480 as Accel-Sim",
                          "dram/gtx480_partition_dramsim3     One GTX480 GDDR5 partition",
                          "source-tree presets in "};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        if (!strstr(out, want[i])) fail_msg("'%s' not in:\n%s", want[i], out);
}

static void check_group(const char *listing, const char *unit, const struct mw_stat_desc *d, int n)
{
    for (int i = 0; i < n; i++) {
        char line[512];
        snprintf(line, sizeof line, "\n%s.%s", unit, d[i].name);
        const char *p = strstr(listing, line);
        if (!p) {
            fail_msg("list-stats lacks %s.%s", unit, d[i].name);
            return;
        }
        const char *eol = strchr(p + 1, '\n');
        char row[512];
        snprintf(row, sizeof row, "%.*s", (int)(eol - p - 1), p + 1);
        if (!strstr(row, d[i].desc) || (d[i].unit[0] && !strstr(row, d[i].unit))) fail_msg("row: %s", row);
    }
}

static void test_list_stats(void **state)
{
    (void)state;
    assert_int_equal(run_cmd("'" MW_BINARY "' list-stats", out, sizeof out), 0);
    check_group(out, "sm", mw_sm_stat_descs, mw_sm_stat_count);
    check_group(out, "l1d", mw_l1d_stat_descs, mw_l1d_stat_count);
    check_group(out, "l1i", mw_l1i_stat_descs, mw_l1i_stat_count);
    check_group(out, "l2", mw_l2_stat_descs, mw_l2_stat_count);
    check_group(out, "dram", mw_dram_stat_descs, mw_dram_stat_count);
    check_group(out, "icnt.req", mw_icnt_stat_descs, mw_icnt_stat_count);
    assert_non_null(strstr(out, "\ngpu.ipc                        inst/cycle     thread instructions per core cycle"));
    assert_non_null(strstr(out, "\nl1d.miss_rate "));
}

static void test_formats(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' run --config gtx480 --workload micro.stream --size tiny --quiet --out %s/f "
                              "--format csv,table", MW_BINARY, dir);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
    /* table: every counter with unit and description on stdout */
    assert_non_null(strstr(out, "name "));
    assert_non_null(strstr(out, "\ngpu.ipc "));
    static char csv[1 << 20];
    char p[512];
    snprintf(p, sizeof p, "%s/f/stats.csv", dir), rc_slurp(p, csv, sizeof csv);
    assert_int_equal(strncmp(csv, "name,value,unit,description\n", 28), 0);
    assert_non_null(strstr(csv, "\ngpu.cycles,"));
    assert_non_null(strstr(csv, ",core cycles,core cycles simulated\n"));
    /* a description with a comma is quoted */
    assert_non_null(strstr(csv, "\"mean DRAM read latency, queue entry to last data beat\""));
    snprintf(p, sizeof p, "%s/f/stats.json", dir);
    assert_int_not_equal(access(p, F_OK), 0); /* json not asked for */
    snprintf(cmd, sizeof cmd, "ls %s/f", dir);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
    assert_string_equal(out, "stats.csv\n"); /* no temporary file left */
    snprintf(cmd, sizeof cmd, "'%s' run --workload micro.stream --format xml --out %s/g", MW_BINARY, dir);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "--format: unknown format 'xml' (json, csv, table"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_help_everywhere), cmocka_unit_test(test_man_page_is_the_help),
                                       cmocka_unit_test(test_preset_by_name),  cmocka_unit_test(test_list_configs),
                                       cmocka_unit_test(test_list_stats),      cmocka_unit_test(test_formats)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
