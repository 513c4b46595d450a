/* The commands for people who do not write Lua (lua/cmd_sweep.c): `moonwarp sweep spec.yaml` runs a 4-run spec
 * into a store and a rerun skips every run; spec mistakes are reported as file:line:col with exit code 2 and
 * nothing written; `moonwarp results DB --csv` has one row per stored run with the store's stats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "runcmd.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[256];

static int setup(void **st)
{
    (void)st;
    return rc_tmpdir(dir, sizeof dir, "mw_sweepcmd");
}

static int teardown(void **st)
{
    (void)st;
    return rc_rmtree(dir);
}

/* Every row of the store as "key status created stats" lines, sorted by key; returns the number of rows. */
static int db_dump(const char *path, char *out, size_t n)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT key, status, created, stats FROM runs ORDER BY key", -1, &q,
                                        NULL),
                     SQLITE_OK);
    size_t len = 0;
    int rows = 0;
    out[0] = 0;
    while (sqlite3_step(q) == SQLITE_ROW && len + 1 < n) {
        len += (size_t)snprintf(out + len, n - len, "%s %s %s %s\n", sqlite3_column_text(q, 0),
                                sqlite3_column_text(q, 1), sqlite3_column_text(q, 2), sqlite3_column_text(q, 3));
        rows++;
    }
    sqlite3_finalize(q);
    sqlite3_close(db);
    return rows;
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p++) n++;
    return n;
}

static char out[1 << 16], dump1[1 << 20], dump2[1 << 20], csv[1 << 20];

static void sweep_good(const char *db)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' sweep tests/sweep/good.yaml --store '%s' --jobs 2 --out '%s/out'", MW_BINARY,
             db, dir);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
}

/* 4 runs into a new store; the rerun takes all 4 from it and leaves the rows as they were. */
static void test_sweep_resume(void **state)
{
    (void)state;
    char db[512];
    snprintf(db, sizeof db, "%s/resume.db", dir);
    sweep_good(db);
    assert_int_equal(count(out, "(stored)"), 0);
    assert_int_equal(count(out, "[4/4]"), 1);
    assert_non_null(strstr(out, "micro.reuse"));
    assert_int_equal(db_dump(db, dump1, sizeof dump1), 4);
    char path[600];
    snprintf(path, sizeof path, "%s/out/results.csv", dir);
    assert_int_equal(access(path, R_OK), 0);
    sleep(1); /* a row written again would have a later `created` */
    sweep_good(db);
    assert_int_equal(count(out, "(stored)"), 4);
    assert_int_equal(db_dump(db, dump2, sizeof dump2), 4);
    assert_string_equal(dump1, dump2);
}

/* Each mistake: its exact message, exit code 2, and no store created. */
static void test_spec_errors(void **state)
{
    (void)state;
    static const struct {
        const char *file, *msg;
    } cases[] = {
        {"bad_key", "tests/sweep/bad_key.yaml:6:1: unknown key 'colour' (config, workloads, traces, policies, sets, "
                    "seeds, size, store, jobs, out, metric, baseline, backend, partition, time, shared, binary, wait, "
                    "poll, submit, sbatch)"},
        {"bad_type", "tests/sweep/bad_type.yaml:1:12: workloads: expected a list, got a scalar"},
        {"bad_missing", "tests/sweep/bad_missing.yaml:1:1: missing 'policies'"},
        {"bad_workload", "tests/sweep/bad_workload.yaml:3:5: unknown workload 'micro.nosuch' (moonwarp list-workloads)"},
        {"bad_size", "tests/sweep/bad_size.yaml:2:33: workload micro.stream has no size 'huge' (tiny|small|default)"},
        {"bad_policy", "tests/sweep/bad_policy.yaml:4:30: unknown warp_scheduler policy 'fastest' (available: ccws, "
                       "gto, lrr, oaws, oaws_dyn, swl, two_level, lua)"},
        {"bad_point", "tests/sweep/bad_point.yaml:4:14: unknown decision point 'warp_sched' in section 'policies' "
                      "(points: warp_scheduler, l1d_bypass, granularity, dram_scheduler, cta_throttle, ldst_scheduler, "
                      "replacement, l2_replacement, bundle, bundle2)"},
        {"bad_set", "tests/sweep/bad_set.yaml:5:7: unknown key 'asoc' in section 'l1d'; did you mean 'assoc'?"},
        {"bad_jobs", "tests/sweep/bad_jobs.yaml:4:7: jobs: expected a non-negative integer, got 'two'"},
        {"bad_dup", "tests/sweep/bad_dup.yaml:5:5: policies: the name 'GTO' is used twice"},
        {"bad_syntax", "tests/sweep/bad_syntax.yaml:5:1: YAML syntax error: did not find expected ',' or '}'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char cmd[2048], db[512], want[1024];
        snprintf(db, sizeof db, "%s/%s.db", dir, cases[i].file);
        snprintf(cmd, sizeof cmd, "'%s' sweep tests/sweep/%s.yaml --store '%s' --out '%s/%s'", MW_BINARY,
                 cases[i].file, db, dir, cases[i].file);
        assert_int_equal(run_cmd(cmd, out, sizeof out), 2);
        snprintf(want, sizeof want, "%s\n", cases[i].msg);
        assert_string_equal(out, want);
        assert_int_not_equal(access(db, F_OK), 0);
        snprintf(db, sizeof db, "%s/%s", dir, cases[i].file);
        assert_int_not_equal(access(db, F_OK), 0);
    }
}

/* The value of stat `name` in a row's stats text, as written there. */
static void stat_of(const char *stats, const char *name, char *v, size_t n)
{
    char pat[256];
    snprintf(pat, sizeof pat, "\n%s\t", name);
    const char *p = strncmp(stats, pat + 1, strlen(pat + 1)) ? strstr(stats, pat) : stats - 1;
    assert_non_null(p);
    p += strlen(pat);
    size_t len = strcspn(p, "\n");
    snprintf(v, n, "%.*s", (int)len, p);
}

/* --csv: a header, then one line per stored run with its key, labels and every stat of its row. */
static void test_results_csv(void **state)
{
    (void)state;
    char db[512], cmd[1024];
    snprintf(db, sizeof db, "%s/csv.db", dir);
    sweep_good(db);
    snprintf(cmd, sizeof cmd, "'%s' results '%s' --csv 2>/dev/null", MW_BINARY, db);
    assert_int_equal(run_cmd(cmd, csv, sizeof csv), 0);
    assert_int_equal(count(csv, "\n"), 5);
    static const char head[] = "key,workload,policy,config,status,cpu_s,wall_s,host,created,";
    assert_int_equal(strncmp(csv, head, strlen(head)), 0);
    const char *nl = strchr(csv, '\n');
    int ncols = 1;
    for (const char *p = csv; p < nl; p++) ncols += *p == ',';
    sqlite3 *h;
    assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(h, "SELECT key, stats FROM runs", -1, &q, NULL), SQLITE_OK);
    int rows = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        const char *key = (const char *)sqlite3_column_text(q, 0), *stats = (const char *)sqlite3_column_text(q, 1);
        char *line = strstr(csv, key);
        assert_non_null(line);
        size_t len = strcspn(line, "\n");
        int c = 1;
        for (size_t i = 0; i < len; i++) c += line[i] == ',';
        assert_int_equal(c, ncols); /* every run has every stat: no labels with commas here */
        /* the stat columns in header order against the row's stats */
        const char *hp = csv, *lp = line;
        for (int col = 0; col < ncols; col++) {
            size_t hl = strcspn(hp, ",\n"), ll = strcspn(lp, ",\n");
            if (col >= 9) {
                char name[128], v[128];
                snprintf(name, sizeof name, "%.*s", (int)hl, hp);
                stat_of(stats, name, v, sizeof v);
                assert_int_equal(strlen(v), ll);
                assert_memory_equal(v, lp, ll);
            }
            hp += hl + 1;
            lp += ll + 1;
        }
        rows++;
    }
    sqlite3_finalize(q);
    sqlite3_close(h);
    assert_int_equal(rows, 4);
    assert_true(ncols > 9 + 50);

    /* --stats picks the columns; the lines form names each run */
    snprintf(cmd, sizeof cmd, "'%s' results '%s' --csv --stats gpu.cycles,gpu.ipc 2>/dev/null | head -1", MW_BINARY,
             db);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
    assert_string_equal(out, "key,workload,policy,config,status,cpu_s,wall_s,host,created,gpu.cycles,gpu.ipc\n");
    snprintf(cmd, sizeof cmd, "'%s' results '%s'", MW_BINARY, db);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
    assert_int_equal(count(out, "micro.stream"), 2);
    assert_int_equal(count(out, "micro.reuse"), 2);
    assert_int_equal(count(out, " complete "), 4);
    assert_non_null(strstr(out, "4 runs in "));

    /* a missing file and a file that is not a store */
    snprintf(cmd, sizeof cmd, "'%s' results '%s/none.db'", MW_BINARY, dir);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "none.db: No such file or directory"));
    snprintf(cmd, sizeof cmd, "%s/none.db", dir);
    assert_int_not_equal(access(cmd, F_OK), 0);
    snprintf(cmd, sizeof cmd, "'%s' results README.md", MW_BINARY);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 2);
    assert_string_equal(out, "moonwarp: results: README.md is not a moonwarp results store (file is not a database)\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweep_resume),
        cmocka_unit_test(test_spec_errors),
        cmocka_unit_test(test_results_csv),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
