/* The REPL as a person uses it, on a pseudo-terminal (forkpty): readline, TAB completion, values shown as text,
 * history written to ~/.moonwarp_history. micro.stream at its tiny size is one warp, so after 6 cycles warp 0 of
 * SM 0 is active with nothing issued (the doc example of docs/lua.md) and gpu.cycles after sim:step(117) more is
 * 6 + 117 = 123. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runcmd.h"
#include "workload.h"

static char home[256];
static int fd = -1;
static pid_t pid;
static char buf[1 << 16];
static size_t len; /* output read since the last expect() */

/* Read until `want` appears in the output since the last call (10 s at most); the text is left in buf. */
static void expect(const char *want)
{
    for (int waited = 0; waited < 100;) {
        if (memmem(buf, len, want, strlen(want))) return;
        struct pollfd p = {fd, POLLIN, 0};
        int r = poll(&p, 1, 100);
        if (r <= 0) {
            waited++;
            continue;
        }
        ssize_t k = read(fd, buf + len, sizeof buf - 1 - len);
        if (k <= 0) break;
        len += (size_t)k;
        buf[len] = 0;
    }
    buf[len] = 0;
    fail_msg("expected '%s' in the REPL's output:\n%s", want, buf);
}
/* Type s a key at a time. After a printable key, wait (2 s at most) until the REPL has echoed it, so that no key
 * sits in the terminal's input queue while readline sets the terminal up between lines (keys typed into that
 * moment were lost on loaded machines). The output read here stays in buf for expect(). */
static void send(const char *s)
{
    len = 0;
    buf[0] = 0;
    size_t n = strlen(s), seen = 0;
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(write(fd, s + i, 1), 1);
        char c = s[i];
        if (c < 0x20 || c > 0x7e) { /* a control key (TAB, return, ^D): its effect is not a plain echo */
            usleep(2000);
            continue;
        }
        for (int waited = 0; waited < 200;) {
            const char *hit = memchr(buf + seen, c, len - seen);
            if (hit) {
                seen = (size_t)(hit - buf) + 1;
                break;
            }
            struct pollfd p = {fd, POLLIN, 0};
            if (poll(&p, 1, 10) <= 0) {
                waited++;
                continue;
            }
            ssize_t k = read(fd, buf + len, sizeof buf - 1 - len);
            if (k <= 0) break;
            len += (size_t)k;
            buf[len] = 0;
        }
    }
}

static int setup(void **state)
{
    (void)state;
    if (rc_tmpdir(home, sizeof home, "mw_repl")) return -1;
    struct winsize ws = {.ws_row = 50, .ws_col = 200};
    pid = forkpty(&fd, NULL, NULL, &ws);
    if (pid < 0) return -1;
    if (pid == 0) {
        if (chdir(MW_SOURCE_DIR)) _exit(127);
        setenv("HOME", home, 1);
        setenv("TERM", "dumb", 1);
        setenv("INPUTRC", "/dev/null", 1);
        execl(MW_BINARY, MW_BINARY, (char *)NULL);
        _exit(127);
    }
    return 0;
}
static int teardown(void **state)
{
    (void)state;
    if (pid > 0) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
    if (fd >= 0) close(fd);
    return rc_rmtree(home);
}

static void test_session(void **state)
{
    (void)state;
    expect("mw> ");
    send("sim = mw.sim{config = \"gtx480\", workload = \"micro.stream\", size = \"tiny\"}\r");
    expect("mw> ");
    send("sim:step(6)\r");
    expect("6\tfalse");
    expect("mw> ");
    /* a table prints its fields, sorted, one per line (it does not fit on one) */
    send("sim:warps(0)[1]\r");
    expect("mw> ");
    const char *fields[] = {"age = 0,", "cta = 0,", "id = 0,", "insts = 0,", "pending_loads = 0,",
                            "state = \"active\",", "warp_in_cta = 0,"};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) expect(fields[i]);
    assert_true(strstr(buf, "age = 0,") < strstr(buf, "state = \"active\","));
    assert_null(strstr(buf, "table: 0x"));
    /* `sim:st` is stats( or step(: a second TAB lists both; `a` then TAB completes to sim:stats( */
    send("sim:step(117)\r");
    expect("123\tfalse");
    expect("mw> ");
    send("sim:st\t\t");
    expect("stats(");
    expect("step(");
    send("a\t");
    expect("ats("); /* readline echoes what it inserts: the completion "ts(" after the typed "a" */
    /* a stat name inside sim:stats()["...: gpu.cyc completes to gpu.cycles; the value is the cycle reached */
    send(")[\"gpu.cyc\t"); /* readline closes the quote after a unique completion */
    expect("les\"");
    send("]\r"); /* evaluated: the line was sim:stats()["gpu.cycles"] */
    expect("\r\n123\r\n");
    expect("mw> ");
    /* a policy name after `point = "` */
    send("p = {warp_scheduler = \"two_l\t}\r");
    expect("mw> ");
    send("p.warp_scheduler\r");
    expect("two_level\r\n");
    expect("mw> ");
    /* a workload name after `workload = "`, a preset after `config = "`, then on a new simulation a decision
     * point after `sim:policy("` and that point's policy after `, "` */
    send("q = {workload = \"micro.colst\t, config = \"lineb\t}\r");
    expect("mw> ");
    send("q.workload .. \" \" .. q.config\r");
    expect("micro.colstride linebacker\r\n");
    expect("mw> ");
    send("s2 = mw.sim{workload = \"micro.stream\", size = \"tiny\"}\r");
    expect("mw> ");
    send("s2:policy(\"warp_sch\t, \"two_l\t)\r");
    expect("mw> ");
    send("s2:config().policies.warp_scheduler\r");
    expect("two_level\r\n");
    expect("mw> ");
    /* a global function (print gets its parenthesis) and a module field */
    send("pri\t\"x\" .. 1)\r");
    expect("x1\r\n");
    expect("mw> ");
    char n[32];
    snprintf(n, sizeof n, "\r\n%d\r\n", mw_builtin_nworkloads);
    send("#mw.workl\t)\r");
    expect(n);
    expect("mw> ");
    /* =expr, and a list of records as columns */
    send("=6 * 7\r");
    expect("42\r\n");
    expect("mw> ");
    send("sim:l1d(0, 0)\r");
    expect("#  set  state    used   way");
    expect("policy = \"lru\",");
    expect("mw> ");
    send("\x04");
    int st;
    for (int i = 0; i < 100 && waitpid(pid, &st, WNOHANG) == 0; i++) usleep(50000);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    pid = 0;
    /* the history */
    char path[300], hist[8192] = "";
    snprintf(path, sizeof path, "%s/.moonwarp_history", home);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t k = fread(hist, 1, sizeof hist - 1, f);
    hist[k] = 0;
    fclose(f);
    assert_non_null(strstr(hist, "sim:warps(0)[1]\n"));
    assert_non_null(strstr(hist, "sim:stats()[\"gpu.cycles\"]\n"));
}

/* show() as the REPL uses it, on input from a pipe (no readline): the exact text of hand-built tables. */
static void test_show(void **state)
{
    (void)state;
    char dir[256], path[300], cmd[1024];
    static char out[1 << 16];
    assert_int_equal(rc_tmpdir(dir, sizeof dir, "mw_show"), 0);
    snprintf(path, sizeof path, "%s/in.lua", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("t = {z = 1, a = \"x y\", [2] = \"b\", [1] = \"a\", [10] = true, m = {pc = 4096, line = 255, n = -1}}\n"
          "t\n"
          "c = {1}; c.me = c\n"
          "c\n"
          "l = {}; for i = 1, 25 do l[i] = i * i end\n"
          "l\n"
          "d = {a = {b = {c = {d = {e = {}}}}}}\n"
          "d\n"
          "setmetatable({}, {__tostring = function() return \"custom\" end})\n"
          "1, nil, 2.5\n"
          "=#show(l, 4, 25)\n",
          f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' < '%s'", MW_BINARY, path);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
    rc_rmtree(dir);
    /* the list part first in order, then keys sorted (10, then a, m, z); pc 4096 = 0x1000, line 255 = 0xff */
    const char *want[] = {
        "mw> {\"a\", \"b\", [10] = true, a = \"x y\", m = {line = 0xff, n = -1, pc = 0x1000}, z = 1}\n",
        "mw> {1, me = {<cycle>}}\n",
        /* 25 squares: 20 shown, packed on one line (2 + 48 digits + 20 commas + 19 spaces = 89 columns), then
         * the count */
        ("mw> {\n  1, 4, 9, 16, 25, 36, 49, 64, 81, 100, 121, 144, 169, 196, 225, 256, 289, 324, 361, 400,\n"
         "  ... 5 more entries\n}\n"),
        /* depth 4: levels 0 to 3 shown, the table at level 4 cut */
        "mw> {a = {b = {c = {d = {...1 entry}}}}}\n",
        "mw> custom\n",
        "mw> 1\tnil\t2.5\n",
        /* all 25: "{\n" 2; 22 entries up to 484 fit in 100 columns: 2 + 54 digits + 22 commas + 21 spaces = 99, and
         * 529 would make 104 (+1 newline = 100); "  529, 576, 625,\n" 17; "}" 1: 2 + 100 + 17 + 1 = 120 */
        "mw> 120\n"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        if (!strstr(out, want[i])) fail_msg("'%s' not in:\n%s", want[i], out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test_setup_teardown(test_session, setup, teardown),
                                       cmocka_unit_test(test_show)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
