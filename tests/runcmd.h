/* Shared by the command-level tests: run a shell command from the source tree and capture its output.
 * Include after cmocka.h. */
#ifndef MW_TEST_RUNCMD_H
#define MW_TEST_RUNCMD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* A fresh folder /tmp/<name>_XXXXXX in dir (n bytes); 0 on success (cmocka setup style). */
static inline int rc_tmpdir(char *dir, size_t n, const char *name)
{
    snprintf(dir, n, "/tmp/%s_XXXXXX", name);
    return mkdtemp(dir) ? 0 : -1;
}
/* Remove the folder and everything in it; 0 on success. */
static inline int rc_rmtree(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Returns the command's exit status and fills out (stdout + stderr, NUL-terminated, truncated to n). */
static inline int run_cmd(const char *cmd, char *out, size_t n)
{
    char full[4096];
    snprintf(full, sizeof full, "cd '%s' && %s 2>&1", MW_SOURCE_DIR, cmd);
    FILE *p = popen(full, "r");
    assert_non_null(p);
    size_t len = 0;
    while (len + 1 < n) {
        size_t k = fread(out + len, 1, n - 1 - len, p);
        if (!k) break;
        len += k;
    }
    out[len] = 0;
    char sink[4096];
    while (fread(sink, 1, sizeof sink, p) > 0) {
    }
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The whole file into buf (n bytes, NUL-terminated, truncated); fails the test when it cannot be read. */
static inline void rc_slurp(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot read %s", path);
    size_t k = fread(buf, 1, n - 1, f);
    buf[k] = 0;
    fclose(f);
}

/* The lines of out that start with "ROW\t" (a sweep's rows: workload, policy, key, stats hash, value), in order. */
static inline void rc_rows_of(const char *out, char *rows, size_t n)
{
    size_t len = 0;
    rows[0] = 0;
    for (const char *p = out; (p = strstr(p, "ROW\t")); p++) {
        const char *e = strchr(p, '\n');
        size_t k = e ? (size_t)(e - p + 1) : strlen(p);
        if (len + k + 1 > n) break;
        memcpy(rows + len, p, k);
        len += k;
        rows[len] = 0;
    }
}

#endif
