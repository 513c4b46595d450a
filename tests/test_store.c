/* Sweeps with the results store (lua/lstore.c, moonwarp.experiment's store and jobs options): a sweep killed
 * with SIGKILL midway and rerun completes with every run exactly once and the values of an uninterrupted sweep;
 * a run whose Lua hook raises an error is reported while the others complete; two sweeps sharing one store at
 * once split the runs between them (claims), neither duplicate rows nor corrupt it; run keys change with
 * parameters and Lua sources. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "runcmd.h"

#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char dir[256];

static int setup(void **st)
{
    (void)st;
    return rc_tmpdir(dir, sizeof dir, "mw_store");
}

static int teardown(void **st)
{
    (void)st;
    return rc_rmtree(dir);
}

/* Rows in the store, -1 when it cannot be read yet (not created). */
static int db_count(const char *path)
{
    sqlite3 *db;
    if (access(path, F_OK) || sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) return -1;
    sqlite3_busy_timeout(db, 5000);
    sqlite3_stmt *q;
    int n = -1;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM runs", -1, &q, NULL) == SQLITE_OK) {
        if (sqlite3_step(q) == SQLITE_ROW) n = sqlite3_column_int(q, 0);
        sqlite3_finalize(q);
    }
    sqlite3_close(db);
    return n;
}

/* Every row as "key status stats" lines, sorted by key, and the integrity check's verdict. */
static void db_dump(const char *path, char *out, size_t n)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *q;
    size_t len = 0;
    out[0] = 0;
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &q, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(q, 0), "ok");
    sqlite3_finalize(q);
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT key, status, stats FROM runs ORDER BY key", -1, &q, NULL),
                     SQLITE_OK);
    while (sqlite3_step(q) == SQLITE_ROW && len + 1 < n)
        len += (size_t)snprintf(out + len, n - len, "%s %s %s\n", sqlite3_column_text(q, 0),
                                sqlite3_column_text(q, 1), sqlite3_column_text(q, 2));
    sqlite3_finalize(q);
    sqlite3_close(db);
}

static int count_lines(const char *s, const char *prefix)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, prefix)); p++) n++;
    return n;
}

static void sweep(const char *db, int jobs, const char *extra, char *out, size_t n)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' tests/lua/sweep.lua '%s' %d %s", MW_BINARY, db, jobs, extra);
    assert_int_equal(run_cmd(cmd, out, n), 0);
}

static char out1[1 << 16], out2[1 << 16], rows1[1 << 14], rows2[1 << 14];
static char dump1[1 << 20], dump2[1 << 20];

/* (a) SIGKILL once the store holds 2..5 of the 6 runs; the rerun runs only the rest. */
static void test_kill_resume(void **state)
{
    (void)state;
    char ref[512], db[512];
    snprintf(ref, sizeof ref, "%s/ref.db", dir);
    snprintf(db, sizeof db, "%s/killed.db", dir);
    sweep(ref, 0, "", out1, sizeof out1); /* the reference runs in one process: the pool must not change values */
    assert_non_null(strstr(out1, "ran\t6\tstored\t0\tfailed\t0"));
    rc_rows_of(out1, rows1, sizeof rows1);
    assert_int_equal(count_lines(rows1, "ROW\t"), 6);

    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (chdir(MW_SOURCE_DIR)) _exit(127);
        freopen("/dev/null", "w", stdout);
        freopen("/dev/null", "w", stderr);
        execl(MW_BINARY, MW_BINARY, "tests/lua/sweep.lua", db, "1", (char *)NULL);
        _exit(127);
    }
    int n = -1;
    for (int i = 0; i < 60000; i++) { /* up to 60 s: poll every millisecond */
        n = db_count(db);
        if (n >= 2) break;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    int killed_at = db_count(db);
    print_message("killed with %d of 6 runs stored\n", killed_at);
    assert_true(killed_at >= 2 && killed_at < 6);

    sweep(db, 1, "", out2, sizeof out2);
    char want[64];
    snprintf(want, sizeof want, "ran\t%d\tstored\t%d\tfailed\t0", 6 - killed_at, killed_at);
    assert_non_null(strstr(out2, want));
    rc_rows_of(out2, rows2, sizeof rows2);
    assert_string_equal(rows2, rows1); /* same keys, same stats, same values, same order */
    assert_int_equal(db_count(db), 6);
    db_dump(ref, dump1, sizeof dump1);
    db_dump(db, dump2, sizeof dump2);
    assert_string_equal(dump2, dump1);

    sweep(db, 2, "", out2, sizeof out2); /* a third time: everything comes from the store */
    assert_non_null(strstr(out2, "ran\t0\tstored\t6\tfailed\t0"));
}

/* (b) A Lua hook error fails its runs, reported with the error; the others complete and are stored. */
static void test_failed_run(void **state)
{
    (void)state;
    char db[512];
    snprintf(db, sizeof db, "%s/bad.db", dir);
    sweep(db, 2, "bad", out1, sizeof out1);
    assert_non_null(strstr(out1, "ran\t6\tstored\t0\tfailed\t3"));
    assert_int_equal(count_lines(out1, "FAILED\t"), 3);
    assert_non_null(strstr(out1, "FAILED\tmicro.stream\tbad\t"));
    assert_non_null(strstr(out1, "Lua policy warp_scheduler.pick: tests/lua/bad_error.lua:3: boom from pick"));
    assert_non_null(strstr(out1, "experiment: 3 of 9 runs failed:"));
    assert_int_equal(db_count(db), 6); /* failures are not stored: a rerun tries them again */
    sweep(db, 2, "bad", out2, sizeof out2);
    assert_non_null(strstr(out2, "ran\t0\tstored\t6\tfailed\t3"));
}

/* (c) Two sweeps on one store at once: each run runs once (in one sweep or the other), 6 rows, an intact
 * database, the same values in both. */
static void test_shared_store(void **state)
{
    (void)state;
    char db[512], cmd[3072];
    snprintf(db, sizeof db, "%s/shared.db", dir);
    snprintf(cmd, sizeof cmd,
             "('%s' tests/lua/sweep.lua '%s' 2 >'%s/a.out' 2>&1 & '%s' tests/lua/sweep.lua '%s' 2 >'%s/b.out' 2>&1 & "
             "wait) && cat '%s/a.out' && echo ==== && cat '%s/b.out'",
             MW_BINARY, db, dir, MW_BINARY, db, dir, dir, dir);
    assert_int_equal(run_cmd(cmd, out1, sizeof out1), 0);
    char *sep = strstr(out1, "====\n");
    assert_non_null(sep);
    *sep = 0;
    rc_rows_of(out1, rows1, sizeof rows1);
    rc_rows_of(sep + 5, rows2, sizeof rows2);
    assert_int_equal(count_lines(rows1, "ROW\t"), 6);
    assert_string_equal(rows1, rows2);
    assert_int_equal(db_count(db), 6);
    int ran_a = -1, ran_b = -1, stored_a = -1, stored_b = -1;
    assert_int_equal(sscanf(strstr(out1, "ran\t"), "ran\t%d\tstored\t%d", &ran_a, &stored_a), 2);
    assert_int_equal(sscanf(strstr(sep + 5, "ran\t"), "ran\t%d\tstored\t%d", &ran_b, &stored_b), 2);
    print_message("the two sweeps ran %d and %d of the 6 runs\n", ran_a, ran_b);
    assert_int_equal(ran_a + ran_b, 6); /* claims split the work: no run ran twice */
    assert_int_equal(ran_a + stored_a, 6);
    assert_int_equal(ran_b + stored_b, 6);
    db_dump(db, dump1, sizeof dump1);
    char ref[512];
    snprintf(ref, sizeof ref, "%s/ref.db", dir);
    if (db_count(ref) == 6) { /* test_kill_resume's uninterrupted sweep: the same rows */
        db_dump(ref, dump2, sizeof dump2);
        assert_string_equal(dump1, dump2);
    }
}

/* (d) Keys: tests/lua/store_key.lua asserts each case. */
static void test_keys(void **state)
{
    (void)state;
    assert_int_equal(run_cmd("'" MW_BINARY "' tests/lua/store_key.lua", out1, sizeof out1), 0);
    assert_non_null(strstr(out1, "key ok"));
}

/* The store's own calls: tests/lua/store_api.lua asserts each. */
static void test_store_api(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' tests/lua/store_api.lua '%s/api.db'", MW_BINARY, dir);
    int rc = run_cmd(cmd, out1, sizeof out1);
    if (rc) print_message("%s\n", out1);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out1, "api ok"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_store_api), cmocka_unit_test(test_keys),        cmocka_unit_test(test_kill_resume),
        cmocka_unit_test(test_failed_run), cmocka_unit_test(test_shared_store),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
