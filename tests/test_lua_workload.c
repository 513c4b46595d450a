/* Lua workload generators: Lua twins of built-in models give identical stats, the per-thread pattern form and
 * a kernels function give hand-counted numbers, every error names its kernel/CTA/warp and script line, and from
 * the command line a .lua workload runs, exports as an Accel-Sim trace and reads back with identical stats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runcmd.h"

static char out[1 << 16];

static void test_parity_and_forms(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/wl_parity.lua", out, sizeof out);
    print_message("%s", out);
    assert_int_equal(rc, 0);
    /* 2201 = every counter of the 15-SM GTX480 run: the OAWS load-class counters (sm.ld_*), Li's ICL, DRAM and
     * reservation-fail counters, the chunked L1D's and Choo's miss-class counters included; the latency breakdown
     * adds 204 (8 sm.lat_* x 16, 5 l2.fill_lat_* x 13, 11 mem.lat_*), the OAWS age-rank and LD/ST split counters 192
     * (12 x (15 SMs + total)), the MSHR occupancy 17 (l1d.mshr_occupancy x (15 SMs + total), its mean), Choo's
     * coincident IW misses 16 (l1d.victim_iw_coincident x (15 SMs + total)), the LD/ST re-execution queue's 80
     * (5 sm.rexq_* x (15 SMs + total)), the L2 reply-queue waits 13 (l2.reply_full x (12 slices + total)), the miss
     * classification's 32 (l1d.miss_cold and miss_2c x (15 SMs + total)) and maximum occupancy's 7 (gpu.sur_regs,
     * _min, _max, gpu.occ_cta_regs, gpu.occ_ctas_min, gpu.occ_warp_regs, gpu.occ_warps_min) */
    assert_non_null(strstr(out, "ok  twin micro.stream    small 2201 counters"));
    assert_non_null(strstr(out, "ok  twin micro.colstride tiny"));
    assert_non_null(strstr(out, "ok  thread form: warp insts 52"));
    assert_non_null(strstr(out, "ok  kernels function: 5 launches"));
    assert_non_null(strstr(out, "ok  store before exit: 32 writes at L2"));
}

static void test_errors(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/wl_errors.lua", out, sizeof out);
    print_message("%s", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  stale warp object"));
    assert_non_null(strstr(out, "CTA 1, warp 1: tests/lua/wl_errors.lua:23: no pattern for this warp"));
}

static uint64_t stat_of(const char *json, const char *key)
{
    char pat[128];
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    const char *p = strstr(json, pat);
    assert_non_null(p);
    return strtoull(p + strlen(pat), NULL, 10);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strdup(buf);
}

/* moonwarp run / trace with a .lua workload; the exported trace reads back with identical stats; a workload
 * file with a syntax error exits 2 naming file:line. */
static void test_cli(void **state)
{
    (void)state;
    char dir[] = "/tmp/mw_lwl_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char cmd[2048];
    /* 16 B instructions both ways: the exported trace keeps the generator's PCs as code offsets */
    snprintf(cmd, sizeof cmd,
             "'" MW_BINARY "' run --config experiments/configs/gtx480.yaml --workload experiments/lua/colstride_gen.lua "
             "--set sm.inst_bytes=16 --quiet --out %s/a",
             dir);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
    snprintf(cmd, sizeof cmd,
             "'" MW_BINARY "' trace --workload experiments/lua/colstride_gen.lua --out %s/tr && '" MW_BINARY
             "' run --config experiments/configs/gtx480.yaml --trace %s/tr --set sm.inst_bytes=16 --quiet --out %s/b",
             dir, dir, dir);
    int rc = run_cmd(cmd, out, sizeof out);
    print_message("%s", out);
    assert_int_equal(rc, 0);
    char pa[512], pb[512];
    snprintf(pa, sizeof pa, "%s/a/stats.json", dir);
    snprintf(pb, sizeof pb, "%s/b/stats.json", dir);
    char *a = slurp(pa), *b = slurp(pb);
    /* 30 CTAs x 8 warps x (16 loads + 16 ALUs + store + EXIT) */
    assert_int_equal(stat_of(a, "gpu.warp_insts"), 30 * 8 * 34);
    const char *keys[] = {"gpu.cycles", "gpu.warp_insts", "l1d.misses", "l2.accesses", "dram.reads"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) assert_int_equal(stat_of(a, keys[i]), stat_of(b, keys[i]));
    free(a), free(b);
    rc = run_cmd("'" MW_BINARY "' run --config experiments/configs/gtx480.yaml --workload tests/lua/bad_wl_syntax.lua "
                 "--quiet --out /tmp/mw_lwl_never",
                 out, sizeof out);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, "tests/lua/bad_wl_syntax.lua:2: ')' expected"));
    assert_int_not_equal(access("/tmp/mw_lwl_never/stats.json", F_OK), 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_parity_and_forms), cmocka_unit_test(test_errors),
                                       cmocka_unit_test(test_cli)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
