/* The house rules, checked on the source tree: engine/ holds the timing model only (the workload front-ends are
 * in engine/workloads/), no source file is past 1,500 lines, and the timing model's units call each other along
 * the data path only: the graph "unit X includes the header of unit Y" has no cycle. A unit is a stem with
 * engine/<stem>.c; the shared context headers (the simulation object, configuration, policy interface, stats,
 * requests, workload interface) belong to no unit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_UNITS 64

static const char *const context_headers[] = {"simctx.h", "sim.h", "policy.h", "config.h", "stats.h", "mem_req.h",
                                              "common.h", "workload.h", "sm_stats.h", NULL};

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    int n = 0, c;
    while ((c = fgetc(f)) != EOF) n += c == '\n';
    fclose(f);
    return n;
}

static void test_engine_holds_no_workload_models(void **st)
{
    (void)st;
    DIR *d = opendir("engine");
    assert_non_null(d);
    for (struct dirent *de; (de = readdir(d));)
        if (strncmp(de->d_name, "wl_", 3) == 0) fail_msg("engine/%s: workload models live in engine/workloads/", de->d_name);
    closedir(d);
    d = opendir("engine/workloads");
    assert_non_null(d);
    int models = 0;
    for (struct dirent *de; (de = readdir(d));) models += strncmp(de->d_name, "wl_", 3) == 0 && ends_with(de->d_name, ".c");
    closedir(d);
    assert_true(models >= 20);
}

static void test_no_file_past_1500_lines(void **st)
{
    (void)st;
    static const char *const dirs[] = {"engine", "engine/workloads", "policies", "lua", "tests", NULL};
    int files = 0;
    for (int i = 0; dirs[i]; i++) {
        DIR *d = opendir(dirs[i]);
        assert_non_null(d);
        for (struct dirent *de; (de = readdir(d));) {
            if (!ends_with(de->d_name, ".c") && !ends_with(de->d_name, ".h") && !ends_with(de->d_name, ".lua")) continue;
            char path[512];
            snprintf(path, sizeof path, "%s/%s", dirs[i], de->d_name);
            int n = count_lines(path);
            files++;
            if (n > 1500) fail_msg("%s has %d lines (at most ~1,500)", path, n);
        }
        closedir(d);
    }
    assert_true(files > 50);
}

struct graph {
    char name[MAX_UNITS][32];
    int n;
    bool edge[MAX_UNITS][MAX_UNITS];
};

static int unit_index(const struct graph *g, const char *stem)
{
    for (int i = 0; i < g->n; i++)
        if (strcmp(g->name[i], stem) == 0) return i;
    return -1;
}

/* Add an edge from unit `from` to every unit whose header `file` includes. */
static void scan_includes(struct graph *g, int from, const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "engine/%s", file);
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char inc[128];
        if (sscanf(line, " #include \"%127[^\"]\"", inc) != 1 || !ends_with(inc, ".h")) continue;
        bool ctx = false;
        for (int i = 0; context_headers[i]; i++) ctx |= strcmp(inc, context_headers[i]) == 0;
        if (ctx) continue;
        inc[strlen(inc) - 2] = 0;
        int to = unit_index(g, inc);
        if (to >= 0 && to != from) g->edge[from][to] = true;
    }
    fclose(f);
}

static int visit(const struct graph *g, int u, int *state, int *stack, int depth)
{
    state[u] = 1;
    stack[depth] = u;
    for (int v = 0; v < g->n; v++) {
        if (!g->edge[u][v]) continue;
        if (state[v] == 1) { /* a cycle: print it */
            char msg[1024] = "";
            int k = depth;
            while (k > 0 && stack[k] != v) k--;
            for (; k <= depth; k++) snprintf(msg + strlen(msg), sizeof msg - strlen(msg), "%s -> ", g->name[stack[k]]);
            snprintf(msg + strlen(msg), sizeof msg - strlen(msg), "%s", g->name[v]);
            fail_msg("include/call cycle among engine units: %s", msg);
        }
        if (!state[v] && visit(g, v, state, stack, depth + 1)) return 1;
    }
    state[u] = 2;
    return 0;
}

static void test_units_form_no_cycle(void **st)
{
    (void)st;
    struct graph g;
    memset(&g, 0, sizeof g);
    DIR *d = opendir("engine");
    assert_non_null(d);
    for (struct dirent *de; (de = readdir(d));) {
        if (!ends_with(de->d_name, ".c") || g.n == MAX_UNITS) continue;
        snprintf(g.name[g.n], sizeof g.name[0], "%.*s", (int)strlen(de->d_name) - 2, de->d_name);
        g.n++;
    }
    closedir(d);
    assert_true(g.n >= 10);
    for (int u = 0; u < g.n; u++) {
        char f[64];
        snprintf(f, sizeof f, "%s.c", g.name[u]);
        scan_includes(&g, u, f);
        snprintf(f, sizeof f, "%s.h", g.name[u]);
        scan_includes(&g, u, f);
    }
    /* the data path is there: the SM reaches the L1D through the LDST unit, the partition reaches the L2 */
    assert_true(g.edge[unit_index(&g, "ldst")][unit_index(&g, "l1d")]);
    assert_true(g.edge[unit_index(&g, "partition")][unit_index(&g, "l2")]);
    int state[MAX_UNITS] = {0}, stack[MAX_UNITS + 1];
    for (int u = 0; u < g.n; u++)
        if (!state[u]) visit(&g, u, state, stack, 0);
}

/* engine/ never names a policy: the only policy names in it are the registry's table of defaults. */
static void test_engine_names_no_policy(void **st)
{
    (void)st;
    static const char *const names[] = {"\"lrr\"", "\"gto\"", "\"two_level\"", "\"lru\"", "\"fifo\"", "\"frfcfs\"",
                                        "\"fcfs\"", "\"static\"", "\"sector\"", "\"inorder\"", NULL};
    DIR *d = opendir("engine");
    assert_non_null(d);
    for (struct dirent *de; (de = readdir(d));) {
        if (!ends_with(de->d_name, ".c") && !ends_with(de->d_name, ".h")) continue;
        if (strcmp(de->d_name, "registry.c") == 0 || strcmp(de->d_name, "config.h") == 0) continue;
        char path[512], line[1024];
        snprintf(path, sizeof path, "engine/%s", de->d_name);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        for (int ln = 1; fgets(line, sizeof line, f); ln++)
            for (int i = 0; names[i]; i++)
                if (strstr(line, names[i])) fail_msg("%s:%d names policy %s", path, ln, names[i]);
        fclose(f);
    }
    closedir(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_holds_no_workload_models),
        cmocka_unit_test(test_no_file_past_1500_lines),
        cmocka_unit_test(test_units_form_no_cycle),
        cmocka_unit_test(test_engine_names_no_policy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
