/* The Slurm backend of sweeps (lua/lib/moonwarp/slurm.lua, `moonwarp sweep-task`) without a cluster: run
 * descriptions and result files read back exactly, the collector imports only complete results under their own
 * key and re-collecting imports nothing (tests/lua/slurm_files.lua); the submission path with stand-ins for
 * sbatch and squeue on PATH (tests/slurm/fake/): one job array whose script runs `moonwarp sweep-task` per task,
 * a store equal to the local backend's, runs still queued are neither submitted again nor failed, partial
 * collection, a task whose run description does not match its key, failed and vanished tasks, and
 * `moonwarp sweep --backend slurm`. tests/slurm/run_slurm_test.sh does the same on a real cluster. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "runcmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[256];
static char out[1 << 16], out2[1 << 16], rows1[1 << 14], rows2[1 << 14], dump1[1 << 18], dump2[1 << 18];

static int setup(void **st)
{
    (void)st;
    return rc_tmpdir(dir, sizeof dir, "mw_slurm");
}

static int teardown(void **st)
{
    (void)st;
    return rc_rmtree(dir);
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p++) n++;
    return n;
}

/* A store's rows without host and times (tests/slurm/rows.lua). */
static void dump(const char *db, char *o, size_t n)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' tests/slurm/rows.lua '%s'", MW_BINARY, db);
    assert_int_equal(run_cmd(cmd, o, n), 0);
}

/* A command with the fake sbatch and squeue first on PATH; run = 1: sbatch runs the tasks at once, 0: they stay
 * queued, 2: they vanish (neither run nor queued). case_ names this case's fake-Slurm and shared folders. */
static int slurm_cmd(const char *case_, int run, const char *cmd, char *o, size_t n)
{
    char full[3072];
    snprintf(full, sizeof full,
             "mkdir -p '%s/%s/fake' && FAKE_SLURM='%s/%s/fake' FAKE_SLURM_RUN=%d MW_PARTITION=fakepart "
             "PATH='%s/tests/slurm/fake':\"$PATH\" timeout 120 %s",
             dir, case_, dir, case_, run, MW_SOURCE_DIR, cmd);
    return run_cmd(full, o, n);
}

/* tests/lua/slurm_sweep.lua on store case_/NAME.db with the Slurm backend, shared folder case_/shared */
static int sweep(const char *case_, int run, const char *name, const char *words, char *o, size_t n)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' tests/lua/slurm_sweep.lua '%s/%s/%s.db' slurm '%s/%s/shared' %s", MW_BINARY, dir,
             case_, name, dir, case_, words);
    return slurm_cmd(case_, run, cmd, o, n);
}

static void read_text(const char *path, char *o, size_t n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t k = fread(o, 1, n - 1, f);
    o[k] = 0;
    fclose(f);
}

/* The one submission folder of a case's shared folder (sub-<time>-<pid>), or fails. */
static void the_sub(const char *case_, char *sub, size_t n)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "ls -d '%s/%s/shared'/sub-*", dir, case_);
    assert_int_equal(run_cmd(cmd, sub, n), 0);
    assert_int_equal(count(sub, "\n"), 1);
    *strchr(sub, '\n') = 0;
}

/* The local reference: the same 6 runs with the local backend (2 at once). */
static void local_reference(void)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/ref' && '%s' tests/lua/slurm_sweep.lua '%s/ref/local.db' local ''", dir,
             MW_BINARY, dir);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "ran\t6\tstored\t0\tfailed\t0\tpending\t0"));
    rc_rows_of(out, rows1, sizeof rows1);
    assert_int_equal(count(rows1, "ROW\t"), 6);
    char db[512];
    snprintf(db, sizeof db, "%s/ref/local.db", dir);
    dump(db, dump1, sizeof dump1);
}

/* Run descriptions, result files, the collector, the sbatch script: tests/lua/slurm_files.lua asserts each. */
static void test_files(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/files' && '%s' tests/lua/slurm_files.lua '%s/files'", dir, MW_BINARY,
             dir);
    int rc = run_cmd(cmd, out, sizeof out);
    if (rc) print_message("%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "slurm files ok"));
}

/* Submit and wait, the tasks run by the fake sbatch: one array of 6 tasks (2 at once) whose script runs
 * moonwarp sweep-task on each; the store equals the local backend's; a rerun submits nothing. */
static void test_submit_wait(void **state)
{
    (void)state;
    local_reference();
    assert_int_equal(sweep("wait", 1, "s", "wait max2", out, sizeof out), 0);
    assert_non_null(strstr(out, "ran\t6\tstored\t0\tfailed\t0\tpending\t0"));
    rc_rows_of(out, rows2, sizeof rows2);
    assert_string_equal(rows2, rows1); /* same keys, stats and values, in matrix order */
    char db[512], path[512], sub[480], text[4096], want[1024];
    snprintf(db, sizeof db, "%s/wait/s.db", dir);
    dump(db, dump2, sizeof dump2);
    assert_string_equal(dump2, dump1);

    snprintf(path, sizeof path, "%s/wait/fake/sbatch.log", dir);
    read_text(path, text, sizeof text);
    the_sub("wait", sub, sizeof sub);
    snprintf(want, sizeof want, "--parsable %s/submit.sh\n", sub);
    assert_string_equal(text, want); /* sbatch called once, on the submission's script */
    snprintf(path, sizeof path, "%s/wait/fake/submit.4201.sh", dir);
    read_text(path, text, sizeof text);
    assert_non_null(strstr(text, "#SBATCH --array=0-5%2\n"));
    assert_non_null(strstr(text, "#SBATCH --partition=fakepart\n#SBATCH --time=00:05:00\n"));
    snprintf(want, sizeof want, "#SBATCH --chdir=%s\n", MW_SOURCE_DIR);
    assert_non_null(strstr(text, want));
    snprintf(want, sizeof want, "#SBATCH --output=%s/logs/%%a.out\n", sub);
    assert_non_null(strstr(text, want));
    snprintf(want, sizeof want, "exec '%s' sweep-task '%s' \"$SLURM_ARRAY_TASK_ID\"\n", MW_BINARY, sub);
    assert_non_null(strstr(text, want));
    /* each task's description names its run: task i holds the key of the i-th run in matrix order */
    snprintf(path, sizeof path, "%s/keys", sub);
    read_text(path, text, sizeof text);
    assert_int_equal(count(text, "\n"), 6);
    char key0[65];
    assert_int_equal(sscanf(text, "0 %64s", key0), 1);
    assert_non_null(strstr(rows1, key0));
    assert_true(strstr(rows1, key0) < strstr(rows1, "micro.stream\tLRR"));

    assert_int_equal(sweep("wait", 1, "s", "wait max2", out, sizeof out), 0);
    assert_non_null(strstr(out, "ran\t0\tstored\t6\tfailed\t0\tpending\t0"));
    snprintf(path, sizeof path, "%s/wait/fake/sbatch.log", dir);
    read_text(path, text, sizeof text);
    assert_int_equal(count(text, "\n"), 1);
}

/* Without wait: the runs stay pending while squeue lists their tasks (a rerun neither submits them again nor calls
 * them failed); what has finished is collected, partially, then the rest; a description altered after submission
 * makes its task refuse to run. */
static void test_pending_collect(void **state)
{
    (void)state;
    if (!rows1[0]) local_reference();
    char sub[480], path[512], text[8192], cmd[2048];
    assert_int_equal(sweep("pend", 0, "s", "", out, sizeof out), 0);
    assert_non_null(strstr(out, "ran\t0\tstored\t0\tfailed\t0\tpending\t6"));
    assert_non_null(strstr(out, "slurm: submitted 6 runs as job 4201 (array 0-5)"));
    assert_non_null(strstr(out, "6 runs queued or running; run the sweep again to collect them"));
    assert_int_equal(sweep("pend", 0, "s", "", out, sizeof out), 0); /* still queued: nothing submitted */
    assert_non_null(strstr(out, "ran\t0\tstored\t0\tfailed\t0\tpending\t6"));
    assert_null(strstr(out, "submitted"));
    snprintf(path, sizeof path, "%s/pend/fake/sbatch.log", dir);
    read_text(path, text, sizeof text);
    assert_int_equal(count(text, "\n"), 1);
    /* squeue does not answer: the runs count as queued, nothing is submitted or failed */
    snprintf(cmd, sizeof cmd, "env FAKE_SQUEUE_FAIL=1 '%s' tests/lua/slurm_sweep.lua '%s/pend/s.db' slurm '%s/pend/shared'",
             MW_BINARY, dir, dir);
    assert_int_equal(slurm_cmd("pend", 0, cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "ran\t0\tstored\t0\tfailed\t0\tpending\t6"));
    assert_non_null(strstr(out, "slurm: squeue -j 4201 failed: squeue: error: Unable to contact slurm controller "
                                "(connect failure); its runs count as queued"));
    read_text(path, text, sizeof text);
    assert_int_equal(count(text, "\n"), 1);

    /* tasks 0-2 finish and leave the queue; 3-5 still queued */
    the_sub("pend", sub, sizeof sub);
    snprintf(cmd, sizeof cmd,
             "for i in 0 1 2; do '%s' sweep-task '%s' $i || exit 1; done && printf '4201_3\\n4201_4\\n4201_5\\n' "
             "> '%s/pend/fake/queue'",
             MW_BINARY, sub, dir);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
    assert_int_equal(sweep("pend", 0, "s", "", out, sizeof out), 0);
    assert_non_null(strstr(out, "ran\t3\tstored\t0\tfailed\t0\tpending\t3"));
    assert_null(strstr(out, "submitted"));

    /* task 3's description altered after submission (another size): its task refuses, with the keys */
    snprintf(cmd, sizeof cmd, "sed -i 's/\"small\"/\"tiny\"/' '%s/tasks/3.run' && '%s' sweep-task '%s' 3", sub,
             MW_BINARY, sub);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 3);
    assert_non_null(strstr(out, "not the submitted"));
    assert_non_null(strstr(out, "moonwarp's version (here "));
    snprintf(cmd, sizeof cmd, "cat '%s/pend/shared/results/'*.error", dir);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, ", not the submitted "));
    assert_non_null(strstr(out, "(task 3 of "));

    /* the rest finish (task 3 from an intact copy of its description) and leave the queue */
    snprintf(cmd, sizeof cmd,
             "sed -i 's/\"tiny\"/\"small\"/' '%s/tasks/3.run' && for i in 3 4 5; do '%s' sweep-task '%s' $i || "
             "exit 1; done && : > '%s/pend/fake/queue' && ls '%s/pend/shared/results' | grep -c error",
             sub, MW_BINARY, sub, dir, dir);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 1); /* grep -c found 0: the success removed the error file */
    assert_int_equal(sweep("pend", 0, "s", "", out, sizeof out), 0);
    assert_non_null(strstr(out, "ran\t3\tstored\t3\tfailed\t0\tpending\t0"));
    rc_rows_of(out, rows2, sizeof rows2);
    assert_string_equal(rows2, rows1);
    char db[512];
    snprintf(db, sizeof db, "%s/pend/s.db", dir);
    dump(db, dump2, sizeof dump2);
    assert_string_equal(dump2, dump1);
    /* collecting again into another store, submitting nothing: the same rows */
    assert_int_equal(sweep("pend", 0, "again", "nosubmit", out, sizeof out), 0);
    assert_non_null(strstr(out, "ran\t6\tstored\t0\tfailed\t0\tpending\t0"));
    snprintf(db, sizeof db, "%s/pend/again.db", dir);
    dump(db, dump2, sizeof dump2);
    assert_string_equal(dump2, dump1);
    read_text(path, text, sizeof text);
    assert_int_equal(count(text, "\n"), 1);
}

/* A run whose Lua hook raises an error fails with that error (the task's error file), the others are stored; the
 * rerun submits only the failed runs again. Tasks that vanish without a result are failures naming their log. */
static void test_failures(void **state)
{
    (void)state;
    assert_int_equal(sweep("bad", 1, "s", "wait bad", out, sizeof out), 0);
    assert_non_null(strstr(out, "ran\t6\tstored\t0\tfailed\t3\tpending\t0"));
    assert_int_equal(count(out, "FAILED\t"), 3);
    const char *f = strstr(out, "FAILED\tmicro.stream\tbad\t");
    assert_non_null(f);
    assert_true(strstr(f, "tests/lua/bad_error.lua:3: boom from pick") < strchr(f, '\n'));
    assert_non_null(strstr(out, "experiment: 3 of 9 runs failed:"));
    assert_int_equal(sweep("bad", 1, "s", "wait bad", out, sizeof out), 0);
    assert_non_null(strstr(out, "ran\t0\tstored\t6\tfailed\t3\tpending\t0"));
    assert_int_equal(count(out, "boom from pick); submitting it again"), 3);
    assert_non_null(strstr(out, "micro.stream policy=bad config=: the last attempt failed ("));
    assert_non_null(strstr(out, "submitted 3 runs as job 4202 (array 0-2)"));

    assert_int_equal(sweep("gone", 2, "s", "wait", out, sizeof out), 0);
    assert_non_null(strstr(out, "ran\t0\tstored\t0\tfailed\t6\tpending\t0"));
    assert_non_null(strstr(out, "FAILED\tmicro.reuse\tLRR\ttask 5 of job 4201 ended without a result (see "));
    assert_non_null(strstr(out, "/logs/5.out)"));
}

/* moonwarp sweep SPEC --backend slurm: the same store as the local backend's; option and spec mistakes. */
static void test_sweep_command(void **state)
{
    (void)state;
    char cmd[2048], path[512], text[4096];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/cmd' && '%s' sweep tests/sweep/good.yaml --store '%s/cmd/local.db'", dir,
             MW_BINARY, dir);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
    snprintf(cmd, sizeof cmd,
             "'%s' sweep tests/sweep/good.yaml --store '%s/cmd/slurm.db' --backend slurm --shared '%s/cmd/shared' "
             "--wait --poll 0.2 --jobs 3 --time 10 --sbatch --mem=1G --sbatch --account=arch",
             MW_BINARY, dir, dir);
    assert_int_equal(slurm_cmd("cmd", 1, cmd, out2, sizeof out2), 0);
    assert_non_null(strstr(out2, "submitted 4 runs as job 4201 (array 0-3%3)"));
    char *t1 = strstr(out, "gpu.ipc normalized"), *t2 = strstr(out2, "gpu.ipc normalized"); /* the tables */
    assert_non_null(t1);
    assert_non_null(t2);
    assert_string_equal(t2, t1);
    snprintf(path, sizeof path, "%s/cmd/local.db", dir);
    dump(path, dump1, sizeof dump1);
    snprintf(path, sizeof path, "%s/cmd/slurm.db", dir);
    dump(path, dump2, sizeof dump2);
    assert_int_equal(count(dump1, " complete workload="), 4);
    assert_string_equal(dump2, dump1);
    snprintf(path, sizeof path, "%s/cmd/fake/submit.4201.sh", dir);
    read_text(path, text, sizeof text);
    assert_non_null(strstr(text, "#SBATCH --time=10\n#SBATCH --mem=1G\n#SBATCH --account=arch\n"));
    assert_null(strstr(text, "--partition"));

    /* mistakes: exit 2, nothing written */
    snprintf(cmd, sizeof cmd, "'%s' sweep tests/sweep/good.yaml --store '%s/cmd/x.db' --backend slurm", MW_BINARY,
             dir);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "moonwarp: sweep: the slurm backend needs a folder every node sees (--shared DIR or "
                                "'shared:' in the spec)"));
    snprintf(cmd, sizeof cmd, "'%s' sweep tests/sweep/good.yaml --backend slurm --shared '%s/cmd/s2'", MW_BINARY, dir);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "the slurm backend needs a store (--store DB or 'store:' in the spec)"));
    snprintf(cmd, sizeof cmd, "'%s' sweep tests/sweep/good.yaml --backend cloud", MW_BINARY);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "moonwarp: sweep: --backend: expected local or slurm, got 'cloud'"));
    snprintf(cmd, sizeof cmd, "'%s' sweep tests/sweep/good.yaml --poll 0", MW_BINARY);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "--poll: '0' is not a number of seconds > 0"));
    snprintf(cmd, sizeof cmd, "'%s' sweep tests/sweep/bad_backend.yaml", MW_BINARY);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 2);
    assert_string_equal(out, "tests/sweep/bad_backend.yaml:9:10: backend: expected local or slurm, got 'cloud'\n");
    snprintf(cmd, sizeof cmd, "'%s' sweep tests/sweep/bad_wait.yaml", MW_BINARY);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 2);
    assert_string_equal(out, "tests/sweep/bad_wait.yaml:11:7: wait: expected true or false, got 'soon'\n");
    snprintf(cmd, sizeof cmd, "ls '%s/cmd'", dir);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
    assert_string_equal(out, "fake\nlocal.db\nshared\nslurm.db\n");
}

/* sweep-task without an index or with a description that is not there */
static void test_task_usage(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "env -u SLURM_ARRAY_TASK_ID '%s' sweep-task '%s'", MW_BINARY, dir);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 2);
    assert_non_null(strstr(out, "usage: moonwarp sweep-task SUBMISSION_DIR [INDEX]"));
    snprintf(cmd, sizeof cmd, "'%s' sweep-task '%s' 7", MW_BINARY, dir);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 3);
    assert_non_null(strstr(out, "slurm: cannot read the run description "));
    assert_non_null(strstr(out, "/tasks/7.run"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_files),    cmocka_unit_test(test_submit_wait),   cmocka_unit_test(test_pending_collect),
        cmocka_unit_test(test_failures), cmocka_unit_test(test_sweep_command), cmocka_unit_test(test_task_usage),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
