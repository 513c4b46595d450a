/* The `ldbc` size of the graph.* models (engine/workloads/wl_graph_ldbc.c): LDBC's Facebook degree distribution
 * scaled to GraphBig's 28.82 edges per vertex, stubs paired at random. The expected values are worked out from
 * the bucket table by hand (the arithmetic is in the comments); the bounds are several standard deviations wide. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "wl_graph.h"
#include "workload.h"
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* With mean M = 28.82 every Facebook bound is scaled by M / 190 = 0.151684:
 * - the largest degree is floor(5000 * 0.151684) = floor(758.42) = 758;
 * - buckets 0-6 have upper bounds <= 5.37, scaled <= 0.8146, so they give 0; bucket 7 (5.37 .. 6.61, scaled
 *   0.815 .. 1.0026) gives 0 or 1 with equal odds; bucket 8 (6.61 .. 8.13 -> 1.0026 .. 1.233) gives 1: P(0) =
 *   7 / 100 + 1 / 200 = 0.075;
 * - the mean is the average over the 100 buckets of (floor(lo) + floor(hi)) / 2 = 29.34 (e.g. the last bucket,
 *   1029 .. 5000 -> 156.08 .. 758.42, contributes (156 + 758) / 2 = 457), the standard deviation 54.9. */
#define LDBC_MEAN 29.34
#define LDBC_SD 54.9

static void test_degree_distribution(void **state)
{
    (void)state;
    uint64_t s = 7, sum = 0, zero = 0, ones = 0;
    uint32_t max = 0;
    const int n = 1000000;
    for (int i = 0; i < n; i++) {
        uint32_t d = gr_ldbc_degree(&s, GR_LDBC_MEAN);
        sum += d, zero += d == 0, ones += d == 1, max = d > max ? d : max;
    }
    assert_true(max <= 758);
    assert_true(max >= 700); /* P(d >= 700) = 1/100 * 59/603 ~ 1e-3: about 1,000 such draws */
    /* P(0) = 0.075, sd sqrt(0.075 * 0.925 / 1e6) = 0.00026 */
    assert_in_range(zero, 73000, 77000);
    /* P(1) = 1/200 (bucket 7) + 4/100 (buckets 8-11: 6.61 .. 12 -> 1.003 .. 1.820, all 1) + 1/200 (bucket 12,
     * 12 .. 14 -> 1.820 .. 2.124: 1 or 2) = 0.05, sd 0.00022 */
    assert_in_range(ones, 48000, 52000);
    /* mean 29.34, sd of the mean 54.9 / 1000 = 0.055 */
    assert_in_range(sum, (uint64_t)(n * (LDBC_MEAN - 0.3)), (uint64_t)(n * (LDBC_MEAN + 0.3)));
    /* at Facebook's own mean (190) the bounds are the table's: degrees up to 5000, the top bucket from 1029 */
    s = 1, max = 0;
    for (int i = 0; i < 100000; i++) {
        uint32_t d = gr_ldbc_degree(&s, 190.0);
        max = d > max ? d : max;
    }
    assert_true(max <= 5000 && max > 4000);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* CSR validity: offsets from 0 to m, targets in range, no self-loop, no repeated target in a row, and every
 * edge u -> v stored as v -> u too. */
static void check_csr(const struct mw_graph *g)
{
    assert_int_equal(g->row[0], 0);
    assert_int_equal(g->row[g->n], g->m);
    assert_int_equal(g->m % 2, 0);
    uint32_t *tmp = malloc((size_t)g->m * sizeof *tmp);
    assert_non_null(tmp);
    memcpy(tmp, g->col, (size_t)g->m * sizeof *tmp);
    uint64_t back = 0;
    for (uint32_t v = 0; v < g->n; v++) {
        assert_true(g->row[v] <= g->row[v + 1]);
        qsort(tmp + g->row[v], g->row[v + 1] - g->row[v], sizeof *tmp, cmp_u32);
        for (uint32_t i = g->row[v]; i < g->row[v + 1]; i++) {
            assert_true(tmp[i] < g->n);
            assert_true(tmp[i] != v);
            if (i > g->row[v]) assert_true(tmp[i] != tmp[i - 1]);
        }
    }
    for (uint32_t v = 0; v < g->n; v++)
        for (uint32_t i = g->row[v]; i < g->row[v + 1]; i++) {
            uint32_t u = tmp[i];
            const uint32_t *f = bsearch(&v, tmp + g->row[u], g->row[u + 1] - g->row[u], sizeof *tmp, cmp_u32);
            back += f != NULL;
        }
    assert_int_equal(back, g->m);
    free(tmp);
}

static int cmp_desc(const void *a, const void *b) { return cmp_u32(b, a); }

static void test_graph(void **state)
{
    (void)state;
    struct mw_graph g, h;
    const uint32_t n = 100000;
    assert_int_equal(mw_wl_graph_ldbc(n, GR_LDBC_MEAN, 1, &g), 0);
    assert_int_equal(g.n, n);
    check_csr(&g);
    /* stored edges per vertex: the mean degree 29.34 (sd of the mean over 1e5 vertices 0.17) less the dropped
     * stubs: self-loops ~ (E[d^2] - E[d]) / (2 E[d]) = (3873 - 29) / 59 = 65 pairs, repeated pairs ~ 1/4 *
     * ((E[d^2] - E[d]) / E[d])^2 = 1/4 * 131^2 = 4,290 pairs, 0.09 stored edges per vertex at this n */
    double mean = (double)g.m / n;
    assert_true(mean > LDBC_MEAN - 0.09 - 1.0 && mean < LDBC_MEAN + 1.0);
    uint32_t *deg = malloc(n * sizeof *deg), zero = 0, max = 0;
    assert_non_null(deg);
    for (uint32_t v = 0; v < n; v++) {
        deg[v] = g.row[v + 1] - g.row[v];
        zero += deg[v] == 0, max = deg[v] > max ? deg[v] : max;
    }
    assert_true(max <= 758);
    assert_in_range(zero, 7000, 8000); /* 0.075 of the vertices draw degree 0 (sd 83 vertices) */
    /* the skew: the top 1 % of the vertices hold 15.6 % of the degree sum (the last bucket is exactly the top 1 %:
     * 457 / 100 / 29.34 = 0.156), the top 10 % 46.3 % (buckets 90-99: (42.0 + ... + 457) / 100 / 29.34); the
     * median degree is 15 (the 50th bucket, 95 .. 99 -> 14.41 .. 15.02) */
    qsort(deg, n, sizeof *deg, cmp_desc);
    uint64_t top1 = 0, top10 = 0;
    for (uint32_t i = 0; i < n / 10; i++) top10 += deg[i], top1 += i < n / 100 ? deg[i] : 0;
    assert_true(top1 * 100 > (uint64_t)g.m * 14 && top1 * 100 < (uint64_t)g.m * 17);
    assert_true(top10 * 100 > (uint64_t)g.m * 44 && top10 * 100 < (uint64_t)g.m * 49);
    assert_in_range(deg[n / 2], 14, 16);
    free(deg);
    /* determinism: the same seed gives the same arrays, another seed another graph */
    assert_int_equal(mw_wl_graph_ldbc(n, GR_LDBC_MEAN, 1, &h), 0);
    assert_int_equal(h.m, g.m);
    assert_memory_equal(h.row, g.row, (n + 1) * sizeof *g.row);
    assert_memory_equal(h.col, g.col, g.m * sizeof *g.col);
    mw_wl_graph_free(&h);
    assert_int_equal(mw_wl_graph_ldbc(n, GR_LDBC_MEAN, 2, &h), 0);
    assert_true(h.m != g.m || memcmp(h.col, g.col, g.m * sizeof *g.col) != 0);
    mw_wl_graph_free(&h);
    mw_wl_graph_free(&g);
    /* a tiny graph: degrees are capped at n - 1, bad arguments refused */
    assert_int_equal(mw_wl_graph_ldbc(3, 190.0, 1, &g), 0);
    check_csr(&g);
    assert_true(g.m <= 6);
    mw_wl_graph_free(&g);
    assert_int_equal(mw_wl_graph_ldbc(1, GR_LDBC_MEAN, 1, &g), -1);
    assert_int_equal(mw_wl_graph_ldbc(100, -1.0, 1, &g), -1);
}

/* The named size: 1 M vertices, ~29.3 M stored edges; the models open it; other sizes are unchanged and an
 * unknown one is refused with the list of sizes. */
static void test_size(void **state)
{
    (void)state;
    struct mw_err e = {0};
    struct mw_graph g;
    assert_int_equal(gr_size("ldbc", &e), GR_SIZE_LDBC);
    assert_int_equal(gr_size("paper", &e), MW_SIZE_PAPER);
    assert_int_equal(gr_size(NULL, &e), MW_SIZE_DEFAULT);
    assert_true(gr_size("huge", &e) < 0);
    assert_non_null(strstr(e.msg, "ldbc"));
    assert_int_equal(mw_wl_graph_input("ldbc", 1, &g, &e), 0);
    assert_int_equal(g.n, 1000000);
    assert_true(g.m > 29000000u && g.m < 29700000u); /* 29.34 - 0.009 per vertex, sd 0.055 */
    check_csr(&g);
    mw_wl_graph_free(&g);
    /* the default size is still the R-MAT graph of 32 K vertices and 524,288 stored edges less duplicates */
    assert_int_equal(mw_wl_graph_input("default", 1, &g, &e), 0);
    assert_int_equal(g.n, 32768);
    mw_wl_graph_free(&g);
    struct mw_workload w;
    assert_int_equal(mw_workload_open_builtin(&w, "graph.dc", "ldbc", 1, &e), 0);
    struct mw_kernel k;
    assert_int_equal(w.ops->next_kernel(&w, &k, &e), 1);
    assert_int_equal(k.grid[0], 977); /* ceil(1e6 / 1024) blocks of 1024 threads: GraphBig's launch shape */
    assert_int_equal(k.block[0], 1024);
    mw_workload_close(&w);
    assert_true(mw_workload_open_builtin(&w, "graph.tc", "huge", 1, &e) < 0);
    assert_non_null(strstr(e.msg, "ldbc"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_degree_distribution),
        cmocka_unit_test(test_graph),
        cmocka_unit_test(test_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
