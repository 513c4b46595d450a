/* Lua-level integration tests: they run the moonwarp binary on the scripts in tests/lua (parity of Lua twins
 * with the C built-ins, error paths), an `impl: lua` YAML config through `moonwarp run`, the shared module
 * from a stock lua5.4, and a REPL session in a pseudo-terminal (a step, an inspection, an interrupted run). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runcmd.h"

static char out[1 << 16];

static void test_parity(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/parity.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  warp_scheduler  pol_gto.lua          micro.stream"));
    assert_non_null(strstr(out, "ok  dram_scheduler  pol_frfcfs.lua       micro.colstride"));
    assert_non_null(strstr(out, "ok  warp_scheduler  pol_two_level.lua    rodinia.backprop"));
    assert_non_null(strstr(out, "counters compared"));
}

/* Li 2015's MSHR-S in Lua (tests/lua/pol_mshr_s.lua) against policies/dram_mshr.c on the li.yaml machine with
 * the merge information buffers on: every counter equal, on workloads where MSHR-S decides unlike FR-FCFS. */
static void test_li_parity(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/li_parity.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  mshr_s  rodinia.cfd"));
    assert_non_null(strstr(out, "li parity: "));
}

static void test_errors(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/errors.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "Lua policy warp_scheduler.pick: tests/lua/bad_error.lua:3: boom from pick"));
    /* n + 5 for n ready warps (how many are ready at the first choice depends on the fetch stage) */
    assert_non_null(strstr(out, "tests/lua/bad_range.lua:3: warp_scheduler.pick returned 7, expected an index 1..2 "));
    assert_non_null(strstr(out, "tests/lua/bad_type.lua:3: warp_scheduler.pick returned a string"));
    assert_non_null(strstr(out, "tests/lua/bad_loop.lua:3: instruction budget of 100000 exceeded"));
    assert_non_null(strstr(out, "ok  handles and config errors"));
}

/* When hooks are called: a bypass once per request, retries of cached requests with their cause, events from
 * inside a policy's own hook, the budget across coroutines. */
static void test_calls(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/calls.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  bypass decided once per request: 245760 calls"));
    assert_non_null(strstr(out, "ok  coroutine budget"));
}

/* Hooks a table leaves out fall back to the C default, whose state observer hooks keep current: a table with only
 * `issued` (or only `touch`) gives exactly the C policy's stats. */
static void test_fallback(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/fallback.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  issued-only table is gto: "));
    assert_non_null(strstr(out, "ok  touch-only and insert-only tables are lru"));
}

/* m.params is the same for a script given parameters from YAML or {impl = "lua"} and for a table of hooks with a
 * `params` field. */
static void test_params(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/params.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  table, params as text"));
    assert_non_null(strstr(out, "ok  params errors"));
}

/* The name tables mw.ops, mw.events, mw.points, mw.stalls, in the module and in a hook state. */
static void test_names(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/names.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  mw.ops, mw.events, mw.points, mw.stalls, mw.evict_causes"));
    assert_non_null(strstr(out, "ok  hook arguments by name"));
    assert_non_null(strstr(out, "ok  names in a hook state"));
}

/* require in a script policy's hook state: modules of the script's folder only, cached, clear refusals. */
static void test_require(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/require.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  a script policy from modules of its folder is gto"));
    assert_non_null(strstr(out, "require \"../pol_gto\": a module name may not contain \"..\""));
    assert_non_null(strstr(out, "require \"socket.core\": no file tests/lua/req/socket/core.lua"));
    assert_non_null(strstr(out, "link.lua resolves outside the script's folder"));
    assert_non_null(strstr(out, "bytecode.lua: attempt to load a binary chunk (mode is 't')"));
    assert_non_null(strstr(out, "ok  require refuses what is not a Lua text module of the folder"));
}

/* A hook state's memory limit: a table growing without end stops the run naming the hook and its line. */
static void test_limits(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/limits.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "Lua policy l1d_bypass.decide: tests/lua/bad_memory.lua:4: memory limit of 8 MiB exceeded"));
    assert_non_null(strstr(out, "memory limit of 64 MiB exceeded"));
    assert_non_null(strstr(out, "ok  limits"));
}

/* The default protection, the CPU-time watchdog: a runaway loop in a table policy and in a script policy stops
 * naming the hook and its line within a few seconds, and the next run works. */
static void test_watchdog(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/watchdog.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  watchdog table"));
    assert_non_null(strstr(out, "ok  watchdog script"));
    assert_non_null(strstr(out, "ok  watchdog nested"));
    assert_non_null(strstr(out, "ok  watchdog leaves finite calls alone"));
}

/* L1D line metadata after accesses worked out by hand on micro.stream and micro.reuse at tiny size. */
static void test_inspect(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/inspect.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  a load's line: reserved at cycle"));
    assert_non_null(strstr(out, "ok  LRU ranks and evictions in a one-set L1D"));
}

/* `moonwarp run` installs `impl: lua` policies from YAML; a failing hook exits 3 with the hook named. */
static void test_cli_yaml(void **state)
{
    (void)state;
    char dir[] = "/tmp/mw_lua_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char cmd[2048], yaml[512];
    snprintf(yaml, sizeof yaml, "%s/c.yaml", dir);
    FILE *f = fopen(yaml, "w");
    assert_non_null(f);
    fprintf(f, "policies:\n  warp_scheduler:\n    impl: lua\n    script: %s/tests/lua/pol_gto.lua\n", MW_SOURCE_DIR);
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' run --config %s --workload micro.stream --size small --out %s -q", MW_BINARY, yaml, dir);
    int rc = run_cmd(cmd, out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    char ref[1 << 12];
    snprintf(cmd, sizeof cmd, "'%s' run --workload micro.stream --size small --out %s -q", MW_BINARY, dir);
    assert_int_equal(run_cmd(cmd, ref, sizeof ref), 0);
    /* same cycles and instructions as the C GTO (the speed line's counts) */
    const char *a = strstr(out, "simulated cycles/s"), *b = strstr(ref, "simulated cycles/s");
    assert_non_null(a);
    assert_non_null(b);
    a = strstr(a, "("), b = strstr(b, "(");
    assert_non_null(a);
    assert_non_null(b);
    const char *ea = strstr(a, " in "), *eb = strstr(b, " in ");
    assert_non_null(ea);
    assert_non_null(eb);
    assert_int_equal(ea - a, eb - b);
    assert_memory_equal(a, b, (size_t)(ea - a));
    f = fopen(yaml, "w");
    fprintf(f, "policies:\n  warp_scheduler:\n    impl: lua\n    script: %s/tests/lua/bad_error.lua\n", MW_SOURCE_DIR);
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' run --config %s --workload micro.stream --size small --out %s -q", MW_BINARY, yaml, dir);
    rc = run_cmd(cmd, out, sizeof out);
    assert_int_equal(rc, 3);
    assert_non_null(strstr(out, "Lua policy warp_scheduler.pick"));
    assert_non_null(strstr(out, "bad_error.lua:3: boom from pick"));
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* The shared module from a stock lua5.4 (skipped when lua5.4 is not installed). */
static void test_module(void **state)
{
    (void)state;
#ifdef __SANITIZE_ADDRESS__
    skip(); /* a stock lua5.4 cannot load a module built with the sanitizer runtime */
#endif
    if (system("command -v lua5.4 >/dev/null 2>&1") != 0) skip();
    char bin[1024], cmd[2048];
    snprintf(bin, sizeof bin, "%s", MW_BINARY);
    char *slash = strrchr(bin, '/');
    assert_non_null(slash);
    *slash = 0;
    snprintf(cmd, sizeof cmd,
             "LUA_CPATH='%s/?.so' lua5.4 -e 'local mw = require \"moonwarp\"; "
             "local s = mw.sim{workload = \"micro.stream\", size = \"tiny\"}; assert(s:run()); "
             "local x = require \"moonwarp.experiment\"; print(\"module ok\", s:stats()[\"gpu.cycles\"] > 0, type(x.run))'",
             bin);
    int rc = run_cmd(cmd, out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "module ok\ttrue\tfunction"));
}

/* ---- REPL in a pseudo-terminal ---------------------------------------------------------------------------- */
struct pty {
    int fd;
    pid_t pid;
    char buf[1 << 16];
    size_t len, seen; /* seen: consumed up to here by expect() */
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Read until `what` appears after the last match; fails the test after `timeout` seconds. */
static void expect(struct pty *p, const char *what, double timeout)
{
    double t0 = now_s();
    for (;;) {
        p->buf[p->len] = 0;
        char *hit = strstr(p->buf + p->seen, what);
        if (hit) {
            p->seen = (size_t)(hit - p->buf) + strlen(what);
            return;
        }
        double left = timeout - (now_s() - t0);
        if (left <= 0 || p->len + 1 >= sizeof p->buf) {
            fprintf(stderr, "REPL transcript so far:\n%s\n--- expected: %s\n", p->buf, what);
            fail_msg("REPL: '%s' did not appear", what);
        }
        struct pollfd pf = {.fd = p->fd, .events = POLLIN};
        if (poll(&pf, 1, (int)(left * 1000) + 1) > 0) {
            ssize_t k = read(p->fd, p->buf + p->len, sizeof p->buf - 1 - p->len);
            if (k <= 0) {
                fprintf(stderr, "REPL transcript:\n%s\n", p->buf);
                fail_msg("REPL ended before '%s'", what);
            }
            p->len += (size_t)k;
        }
    }
}

static void send_line(struct pty *p, const char *s)
{
    size_t n = strlen(s);
    assert_int_equal(write(p->fd, s, n), (ssize_t)n);
    assert_int_equal(write(p->fd, "\r", 1), 1);
}

static void test_repl(void **state)
{
    (void)state;
    static struct pty pt;
    struct pty *p = &pt;
    memset(p, 0, sizeof *p);
    struct winsize ws = {.ws_row = 40, .ws_col = 200};
    p->pid = forkpty(&p->fd, NULL, NULL, &ws);
    assert_true(p->pid >= 0);
    if (p->pid == 0) {
        if (chdir(MW_SOURCE_DIR) != 0) _exit(127);
        setenv("HOME", "/tmp", 1); /* keep the history file out of the user's home */
        setenv("TERM", "dumb", 1);
        execl(MW_BINARY, MW_BINARY, (char *)NULL);
        _exit(127);
    }
    expect(p, "mw> ", 10);
    send_line(p, "sim = mw.sim{ workload = \"micro.colstride\", seed = 3 }");
    expect(p, "mw> ", 10);
    /* a step, then inspection of the paused machine */
    send_line(p, "sim:step(200)");
    expect(p, "200\tfalse", 10);
    send_line(p, "w = sim:warps(0); print('warps', #w > 0, w[1].state, w[1].id)");
    expect(p, "warps\ttrue\t", 10);
    send_line(p, "m = sim:mshrs(0); print('mshr', m.free + #m == sim:config().l1d.mshr_entries)");
    expect(p, "mshr\ttrue", 10);
    send_line(p, "#sim:l1d(0, 0)");
    expect(p, "4", 10);
    /* multi-line input */
    send_line(p, "for i = 1, 2 do");
    expect(p, ">> ", 10);
    send_line(p, "print('line', i * 10) end");
    expect(p, "line\t20", 10);
    /* a long run, interrupted: it returns paused and the REPL keeps going. The run must outlast the 300 ms before
     * Ctrl-C on the fastest build (micro.colstride's whole run is 0.3 s there): Parboil SPMV at its default size
     * takes about 2.8 s with the profile-guided binary, and about 4x that under ASan for the final run below */
    send_line(p, "sim = mw.sim{ workload = \"parboil.spmv\", seed = 3 }; print('long', sim:cycle())");
    expect(p, "long\t0", 30);
    send_line(p, "sim:run()");
    usleep(300000);
    assert_int_equal(write(p->fd, "\x03", 1), 1);
    expect(p, "false\tinterrupted", 30);
    send_line(p, "print('paused at', sim:cycle() > 200, sim:done())");
    expect(p, "paused at\ttrue\tfalse", 10);
    send_line(p, "sim:dram(0).banks[1].bank");
    expect(p, "0", 10);
    /* an error does not end the REPL */
    send_line(p, "error('oops')");
    expect(p, "oops", 10);
    send_line(p, "print('still', 6 * 7)");
    expect(p, "still\t42", 10);
    send_line(p, "sim:run()");
    expect(p, "true", 60);
    /* Ctrl-D only once readline has the terminal in raw mode again (its prompt is out): typed ahead in cooked
     * mode, the line discipline would turn it into a bare end-of-file marker that readline reads as NUL */
    expect(p, "mw> ", 10);
    assert_int_equal(write(p->fd, "\x04", 1), 1);
    int st = 0;
    double t0 = now_s();
    while (waitpid(p->pid, &st, WNOHANG) == 0 && now_s() - t0 < 10) {
        char sink[4096];
        struct pollfd pf = {.fd = p->fd, .events = POLLIN};
        if (poll(&pf, 1, 100) > 0 && read(p->fd, sink, sizeof sink) <= 0) usleep(10000);
    }
    if (now_s() - t0 >= 10) kill(p->pid, SIGKILL), waitpid(p->pid, &st, 0);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    close(p->fd);
}

/* l1d_bypass.decide with the instruction's request list: IndSelCaching's verdicts on a column-strided load as worked
 * out by hand, and the bypass-but-probe verdict. */
static void test_indsel(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/indsel.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  IndSelCaching from the request list: requests 1..28 of 32 bypass, l1d.bypasses 215040"));
    assert_non_null(strstr(out, "ok  verdict 2 serves hits"));
}

/* qualify with declared dependencies is asked again only when one changed; mask, position and ids reach the
 * hooks; m.recheck. */
static void test_qualify(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/qualify.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  qualify asked 194143 times with qualify_deps {head}, 496271 without"));
    assert_non_null(strstr(out, "none with nothing changed"));
    assert_non_null(strstr(out, "ok  m.recheck: held warps asked again at cycle 3000"));
}

/* Event fields: ids matching loads to their issue, allocating PCs on evictions, ways, sizes, causes, stores,
 * barriers, a CTA's warps. */
static void test_events(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/events.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  62219 load_done and 185819 L1D accesses matched to their issue by id"));
    assert_non_null(strstr(out, "ok  386 evictions name allocating PC 0xf0000118 and last PC 0xf0000128 (384 replaced, 2 by stores)"));
}

/* l1d.mshr_occupancy against the miss-to-fill intervals the events give. */
static void test_mshr_occupancy(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/mshr_occ.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  l1d.mshr_occupancy 8297 entry-cycles = the 32 misses' miss-to-fill intervals"));
}

/* SMs whose CTAs are done sleep (a store acknowledged after the last warp exited used to keep them awake). */
static void test_idle_sms(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/idle_sms.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  idle SMs sleep: 576 SM visits in 17284 cycles (fast_forward off: 259354)"));
}

/* start and finish hooks, what a policy exports read back with sim:policy(point), counters in the stats. */
static void test_lifecycle(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/lifecycle.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  start, 71542 picks, finish at cycle 116442; counter policy.warp_scheduler.picks"));
    assert_non_null(strstr(out, "ok  a script's export: 194143 issues, 62219 global loads"));
}

/* Actions and facts in m: CTA deactivate/reactivate, injected traffic, invalidation, per-line bytes, lookups. */
static void test_actions(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/actions.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  CTA 0 of SM 0 stopped at cycle 0, resumed at 2499: no issue between, 1056 after"));
    assert_non_null(strstr(out, "ok  inject: l1d.injected_reads 0 -> 8, 8 inject_done"));
    assert_non_null(strstr(out, "ok  facts: 489 fills, 28454 hits read their line's bytes, 9 invalidated"));
}

/* A victim cache built from replacement.evicted and victim_probe serves misses that LRU sends to L2. */
static void test_victim(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/victim.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  victim cache: 31524 victim hits, L2 accesses 137121 -> 94765"));
}

/* Hook states: no dofile or loadfile, load of text only, bytecode scripts refused. */
static void test_sandbox(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/sandbox.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  hook states: no dofile, no loadfile, load and scripts of text only"));
}

/* DRAM candidates carry their creation cycle; an oldest-first pick in Lua is FCFS. */
static void test_dram_created(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/dram_created.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  DRAM candidates' created: "));
}

/* Lua bundles from a table, a script, a config table and YAML; conflicts with explicitly chosen slots. */
static void test_bundle(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' tests/lua/bundle.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  a two-point Lua bundle: the scheduler read 245760 bypasses its bypass hook counted"));
    assert_non_null(strstr(out, "ok  bundle errors and reset"));
    assert_non_null(strstr(out, "ok  bundle on a preset; refused over a changed slot"));
}

/* The experiment library's options for paper experiments: means, classes, windows, the cap, per-workload params. */
static void test_xlib(void **state)
{
    (void)state;
    char dir[] = "/tmp/mw_xlib_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char cmd[512];
    snprintf(cmd, sizeof cmd, "'" MW_BINARY "' tests/lua/xlib.lua %s", dir);
    int rc = run_cmd(cmd, out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  means: hmean{1,2,4} = 12/7, geomean = 2"));
    assert_non_null(strstr(out, "ok  class means: GMEAN 3.175, GMEAN-div 2, GMEAN-reg 8, HMEAN 24/11, HMEAN-div 1.6"));
    assert_non_null(strstr(out, "ok  warmup 2000 + window 3000: "));
    assert_non_null(strstr(out, "ok  kernel = 2 of rodinia.bfs: "));
    assert_non_null(strstr(out, "ok  max_cycles = 1000: capped in the row, the table (*) and the CSV"));
    assert_non_null(strstr(out, "ok  max_warp_insts = 5000: stops after cycle"));
    assert_non_null(strstr(out, "ok  per-workload params: "));
    assert_non_null(strstr(out, "ok  run keys: "));
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parity),   cmocka_unit_test(test_errors), cmocka_unit_test(test_calls),
        cmocka_unit_test(test_limits), cmocka_unit_test(test_watchdog),   cmocka_unit_test(test_cli_yaml), cmocka_unit_test(test_module),
        cmocka_unit_test(test_inspect), cmocka_unit_test(test_repl),    cmocka_unit_test(test_fallback),
        cmocka_unit_test(test_params),   cmocka_unit_test(test_names), cmocka_unit_test(test_require),
        cmocka_unit_test(test_indsel),   cmocka_unit_test(test_qualify), cmocka_unit_test(test_events), cmocka_unit_test(test_mshr_occupancy), cmocka_unit_test(test_idle_sms),
        cmocka_unit_test(test_lifecycle), cmocka_unit_test(test_actions), cmocka_unit_test(test_victim),
        cmocka_unit_test(test_sandbox),   cmocka_unit_test(test_dram_created), cmocka_unit_test(test_li_parity), cmocka_unit_test(test_bundle), cmocka_unit_test(test_xlib),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
