/* Built-in benchmark models checked against facts derived by hand from the CUDA kernels: launch shapes, loads
 * per thread, distinct 128 B lines per warp load (the coalescing degree), BFS edge counts, determinism. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "workload.h"
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wlwalk.h"

/* Prologue lengths of wl_polybench.c's kernels: pro_1d (the 1-D kernels), pro_2d_beta (SYRK, SYR2K) */
enum { PRO_1D = 4, PRO_2D_BETA = 8 };

/* ATAX tiny: NX = NY = 256, one CTA of 256 threads per kernel. kernel1: tmp[i] += A[i*NY+j] * x[j] with
 * i = thread: A is read down a column (rows 1 KB apart: 32 lines per warp load), x[j] is one word for the whole
 * warp, tmp[i] is 32 consecutive words (one line). kernel2 reads A[i*NY+j] with j = thread: one line. Per
 * thread and iteration the PTX loads A, the vector and the accumulator: 3 * 256 loads. */
static void test_atax(void **state)
{
    (void)state;
    struct kstat ks[2];
    assert_int_equal(walk("polybench.atax", "tiny", 1, ks, 2, NULL, NULL), 2);
    check_shape(&ks[0].k, 1, 1, 256, 1);
    check_shape(&ks[1].k, 1, 1, 256, 1);
    assert_string_equal(ks[0].k.name, "atax_kernel1");
    assert_int_equal(ks[0].thread_loads0, 3 * 256);
    assert_int_equal(ks[1].thread_loads0, 3 * 256);
    /* kernel1 body: 0 A (divergent), 1 x (broadcast), 3 tmp, 5 store tmp */
    assert_int_equal(at(&ks[0], BODY(PRO_1D, 0))->min_lines, 32);
    assert_int_equal(at(&ks[0], BODY(PRO_1D, 0))->max_lines, 32);
    assert_int_equal(at(&ks[0], BODY(PRO_1D, 0))->n, 8 * 256);
    assert_int_equal(at(&ks[0], BODY(PRO_1D, 1))->max_lines, 1);
    assert_int_equal(at(&ks[0], BODY(PRO_1D, 3))->max_lines, 1);
    assert_int_equal(at(&ks[0], BODY(PRO_1D, 5))->op, MW_OP_ST_GLOBAL);
    /* kernel2: A row-wise, coalesced */
    assert_int_equal(at(&ks[1], BODY(PRO_1D, 0))->max_lines, 1);
    assert_int_equal(at(&ks[1], BODY(PRO_1D, 1))->max_lines, 1);
    /* 8 warps x 256 iterations x (3 loads); 1 store each */
    assert_int_equal(ks[0].loads, 8 * 256 * 3);
    assert_int_equal(ks[0].stores, 8 * 256);
}

/* BICG: kernel1 s[j] += r[i] * A[i*NY+j] (j = thread: A coalesced, r broadcast); kernel2 q[i] += A[i*NY+j] * p[j]
 * (i = thread: A column-strided, fully divergent). The thesis' size: NX = NY = 4096 with 256-thread blocks. */
static void test_bicg(void **state)
{
    (void)state;
    struct kstat ks[2];
    assert_int_equal(walk("polybench.bicg", "tiny", 1, ks, 2, NULL, NULL), 2);
    assert_string_equal(ks[1].k.name, "bicg_kernel2");
    assert_int_equal(ks[0].thread_loads0, 3 * 256);
    assert_int_equal(ks[1].thread_loads0, 3 * 256);
    assert_int_equal(at(&ks[0], BODY(PRO_1D, 0))->max_lines, 1); /* r[i] */
    assert_int_equal(at(&ks[0], BODY(PRO_1D, 1))->max_lines, 1); /* A[i*NY + j] */
    assert_int_equal(at(&ks[1], BODY(PRO_1D, 0))->min_lines, 32);
    assert_int_equal(at(&ks[1], BODY(PRO_1D, 1))->max_lines, 1); /* p[j] */
    struct mw_kernel k[2];
    assert_int_equal(shapes("polybench.bicg", "paper", k, 2), 2);
    check_shape(&k[0], 16, 1, 256, 1);
    check_shape(&k[1], 16, 1, 256, 1);
}

/* MVT: kernel1 x1[i] += a[i*N+j] * y_1[j] is divergent, kernel2 x2[i] += a[j*N+i] * y_2[j] coalesced.
 * GESUMMV: two divergent row walks (a and b) per iteration, six loads per thread and iteration. */
static void test_mvt_gesummv(void **state)
{
    (void)state;
    struct kstat ks[2];
    assert_int_equal(walk("polybench.mvt", "tiny", 1, ks, 2, NULL, NULL), 2);
    assert_int_equal(at(&ks[0], BODY(PRO_1D, 0))->min_lines, 32);
    assert_int_equal(at(&ks[1], BODY(PRO_1D, 0))->max_lines, 1);
    assert_int_equal(walk("polybench.gesummv", "tiny", 1, ks, 1, NULL, NULL), 1);
    check_shape(&ks[0].k, 1, 1, 256, 1);
    assert_int_equal(ks[0].thread_loads0, 6 * 256 + 2);
    assert_int_equal(at(&ks[0], BODY(PRO_1D, 0))->min_lines, 32);
    assert_int_equal(at(&ks[0], BODY(PRO_1D, 6))->min_lines, 32);
    assert_int_equal(at(&ks[0], BODY(PRO_1D, 1))->max_lines, 1);
}

/* The 1-D kernels' default N = 3840 gives every kernel 15 CTAs of 256 threads: one on each GTX480 SM. */
static void test_1d_default_fills_gtx480(void **state)
{
    (void)state;
    const char *names[] = {"polybench.atax", "polybench.bicg", "polybench.mvt", "polybench.gesummv"};
    const int nk[] = {2, 2, 2, 1};
    for (int i = 0; i < 4; i++) {
        struct mw_kernel k[2];
        assert_int_equal(shapes(names[i], "default", k, 2), nk[i]);
        for (int j = 0; j < nk[i]; j++) check_shape(&k[j], 15, 1, 256, 1);
    }
}

/* SYRK (N = M = 32 tiny): 32x8 blocks, grid (N/32, N/8). c[i*N+j] load before the loop, then per k
 * a[i*M+k] (uniform over the warp's 32 threads, which share threadIdx.y), a[j*M+k] (32 rows: 32 lines) and the
 * reload of c: {1, {2,3,4}^M} = 1 + 3M loads. */
static void test_syrk(void **state)
{
    (void)state;
    struct kstat ks[1];
    assert_int_equal(walk("polybench.syrk", "tiny", 1, ks, 1, NULL, NULL), 1);
    check_shape(&ks[0].k, 1, 4, 32, 8);
    assert_int_equal(ks[0].thread_loads0, 1 + 3 * 32);
    assert_int_equal(at(&ks[0], BODY(PRO_2D_BETA, 0))->max_lines, 1);
    assert_int_equal(at(&ks[0], BODY(PRO_2D_BETA, 1))->min_lines, 32);
    assert_int_equal(at(&ks[0], BODY(PRO_2D_BETA, 4))->max_lines, 1);
    struct mw_kernel k[1];
    assert_int_equal(shapes("polybench.syrk", "paper", k, 1), 1);
    check_shape(&k[0], 32, 128, 32, 8); /* N = M = 1024 */
    assert_int_equal(walk("polybench.syr2k", "tiny", 1, ks, 1, NULL, NULL), 1);
    assert_int_equal(ks[0].thread_loads0, 1 + 5 * 32);
    assert_int_equal(at(&ks[0], BODY(PRO_2D_BETA, 1))->min_lines, 32); /* b[j*M+k] */
    assert_int_equal(at(&ks[0], BODY(PRO_2D_BETA, 5))->min_lines, 32); /* a[j*M+k] */
    /* size `mid` (the OAWS paper's instruction range): N = M = 256, 8 x 32 CTAs of 32 x 8; other models refuse it */
    assert_int_equal(shapes("polybench.syrk", "mid", k, 1), 1);
    check_shape(&k[0], 8, 32, 32, 8);
    assert_int_equal(shapes("polybench.syr2k", "mid", k, 1), 1);
    check_shape(&k[0], 8, 32, 32, 8);
    struct mw_workload w;
    struct mw_err e = {0};
    assert_int_not_equal(mw_workload_open_builtin(&w, "polybench.atax", "mid", 1, &e), 0);
    assert_non_null(strstr(e.msg, "size 'mid'"));
}

/* GEMM-like kernels: with 32-wide blocks a warp is one row of threads, so a[i*NK+k] is one word and b[k*NJ+j]
 * one 128 B row segment: every warp load is a single request. */
static void test_gemm_like(void **state)
{
    (void)state;
    struct kstat ks[3];
    assert_int_equal(walk("polybench.gemm", "tiny", 1, ks, 1, NULL, NULL), 1);
    check_shape(&ks[0].k, 2, 8, 32, 8);
    assert_int_equal(ks[0].thread_loads0, 1 + 3 * 64);
    for (int i = 0; i < ks[0].npc; i++)
        if (ks[0].pc[i].op == MW_OP_LD_GLOBAL || ks[0].pc[i].op == MW_OP_ST_GLOBAL)
            assert_int_equal(ks[0].pc[i].max_lines, 1);
    assert_int_equal(walk("polybench.2mm", "tiny", 1, ks, 2, NULL, NULL), 2);
    assert_int_equal(walk("polybench.3mm", "tiny", 1, ks, 3, NULL, NULL), 3);
    for (int kk = 0; kk < 3; kk++) {
        check_shape(&ks[kk].k, 2, 8, 32, 8);
        assert_int_equal(ks[kk].thread_loads0, 3 * 64);
        for (int i = 0; i < ks[kk].npc; i++)
            if (ks[kk].pc[i].op == MW_OP_LD_GLOBAL) assert_int_equal(ks[kk].pc[i].max_lines, 1);
    }
}

/* 2DCONV (NI = NJ = 64): interior threads only (0 < i, j < 63), nine loads and one store each; a warp's row
 * segment of 32 words starting at j - 1 straddles at most two lines. 3DCONV launches NI - 2 kernels.
 * FDTD-2D launches three kernels per time step. */
static void test_stencils(void **state)
{
    (void)state;
    struct kstat ks[1];
    assert_int_equal(walk("polybench.2dconv", "tiny", 1, ks, 1, NULL, NULL), 1);
    check_shape(&ks[0].k, 2, 8, 32, 8);
    assert_int_equal(ks[0].loads, 2 * 8 * 8 * 9 - 9 * 2 * 2 /* warps of rows 0 and 63 idle */);
    for (int i = 0; i < ks[0].npc; i++)
        if (ks[0].pc[i].op == MW_OP_LD_GLOBAL) assert_true(ks[0].pc[i].max_lines <= 2);
    struct mw_kernel k[8];
    assert_int_equal(shapes("polybench.3dconv", "tiny", k, 8), 14);
    check_shape(&k[0], 1, 2, 32, 8);
    assert_int_equal(shapes("polybench.fdtd2d", "paper", k, 8), 1500);
    check_shape(&k[0], 64, 256, 32, 8);
    assert_string_equal(k[2].name, "fdtd_step3_kernel");
    /* size `mid`: N = 1024, default's 4 time steps of three kernels */
    assert_int_equal(shapes("polybench.fdtd2d", "mid", k, 8), 12);
    check_shape(&k[0], 32, 128, 32, 8);
}

/* BFS: every reachable node is in the frontier exactly once, and Kernel's loop then loads g_graph_edges[i] for
 * each of its edges: the edge loads (one lane per edge) equal the sum of the reachable nodes' degrees, computed
 * here by an independent BFS over the same seeded graph. Kernel + Kernel2 run once per level plus a final pair. */
struct bfs_count {
    uint64_t edge_lanes, hash;
};
static void bfs_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    struct bfs_count *c = arg;
    if (strcmp(k->name, "Kernel") == 0 && in->pc == 8 * 16 && in->op == MW_OP_LD_GLOBAL)
        c->edge_lanes += (uint64_t)__builtin_popcount(in->mask);
    c->hash = c->hash * 1099511628211ull ^ in->pc ^ (uint64_t)in->mask << 20 ^ in->op;
    if (mw_op_is_mem(in->op))
        for (int l = 0; l < MW_WARP_SIZE; l++)
            if (in->mask >> l & 1u) c->hash = c->hash * 31 + in->addr[l];
}

static void test_bfs(void **state)
{
    (void)state;
    uint32_t *row, *col, m, n = 2048;
    assert_int_equal(mw_wl_bfs_graph(n, 6, 7, &row, &col, &m), 0);
    assert_int_equal(m, n * 6);
    int *dist = malloc(n * sizeof *dist), *q = malloc(n * sizeof *q);
    for (uint32_t i = 0; i < n; i++) dist[i] = -1;
    int qh = 0, qt = 0, maxd = 0;
    uint64_t reach_edges = 0;
    dist[0] = 0, q[qt++] = 0;
    while (qh < qt) {
        int v = q[qh++];
        reach_edges += row[v + 1] - row[v];
        for (uint32_t i = row[v]; i < row[v + 1]; i++)
            if (dist[col[i]] < 0) {
                dist[col[i]] = dist[v] + 1;
                if (dist[col[i]] > maxd) maxd = dist[col[i]];
                q[qt++] = (int)col[i];
            }
    }
    assert_true(qt > (int)n / 2);
    struct kstat ks[2];
    struct bfs_count c = {0, 0}, c2 = {0, 0}, c3 = {0, 0};
    int nk = walk("rodinia.bfs", "tiny", 7, ks, 2, bfs_cb, &c);
    assert_int_equal(nk, 2 * (maxd + 1));
    assert_int_equal(c.edge_lanes, reach_edges);
    check_shape(&ks[0].k, 4, 1, 512, 1);
    assert_string_equal(ks[1].k.name, "Kernel2");
    /* the first Kernel: only the source passes if (g_graph_mask[tid]); every neighbour is unvisited, so per edge
     * g_graph_edges[i], g_graph_visited[id] and g_cost[tid] */
    assert_int_equal(ks[0].thread_loads0, 1 + 2 + 3 * (row[1] - row[0]));
    walk("rodinia.bfs", "tiny", 7, ks, 0, bfs_cb, &c2);
    walk("rodinia.bfs", "tiny", 8, ks, 0, bfs_cb, &c3);
    assert_true(c.hash == c2.hash);
    assert_true(c.hash != c3.hash);
    free(row), free(col), free(dist), free(q);
}

/* HOTSPOT (64 x 64 grid, pyramid height 2): tiles of 16 with a 12 x 12 inner block, grid ceil(64/12) = 6
 * blocks per side, 3 KB of shared tiles; every grid point is written by exactly one CTA's inner block, and
 * each in-range thread loads temp_src[index] and power[index] once. */
struct hs_count {
    uint64_t st_lanes, ld_lanes;
};
static void hs_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    (void)k;
    struct hs_count *c = arg;
    if (in->op == MW_OP_ST_GLOBAL) c->st_lanes += (uint64_t)__builtin_popcount(in->mask);
    if (in->op == MW_OP_LD_GLOBAL) c->ld_lanes += (uint64_t)__builtin_popcount(in->mask);
}
static void test_hotspot(void **state)
{
    (void)state;
    struct kstat ks[1];
    struct hs_count c = {0, 0};
    assert_int_equal(walk("rodinia.hotspot", "tiny", 1, ks, 1, hs_cb, &c), 1);
    check_shape(&ks[0].k, 6, 6, 16, 16);
    assert_int_equal(ks[0].k.shmem, 3 * 16 * 16 * 4);
    assert_int_equal(c.st_lanes, 64 * 64);
    /* loaded tile points: per block dimension the tiles start at 12 b - 2 and cover 16, clipped to [0, 63] */
    uint64_t cover = 0;
    for (int b = 0; b < 6; b++) {
        int lo = 12 * b - 2, hi = lo + 15;
        cover += (uint64_t)((hi > 63 ? 63 : hi) - (lo < 0 ? 0 : lo) + 1);
    }
    assert_int_equal(c.ld_lanes, 2 * cover * cover);
    assert_int_equal(ks[0].thread_loads0, 0); /* thread (0,0) of CTA (0,0) sits at (-2,-2) */
}

/* The Linebacker paper's GE, BI, AT, MV and S2 (Table 2; inputs not stated, §2.1: apps launching "less than 5 CTAs
 * by default" were enlarged). `paper` is PolyBench/GPU 1.0's defines: the 1-D kernels N = 4096 / 256 = 16 CTAs
 * per kernel (at least 5, so not enlarged by that rule), one per SM on linebacker.yaml's 16 SMs although each SM
 * holds 8 by its 2,048 threads (2,048 / 256); `default` N = 3840: 15. SYR2K N = 2048: 64 x 256 CTAs of 32 x 8,
 * 8 resident per SM (2,048 / 256; 20 registers x 256 = 5,120 of 65,536 allow 12); `default` N = 96: 3 x 12 = 36. */
static void test_linebacker_inputs(void **state)
{
    (void)state;
    static const char *one_d[] = {"polybench.gesummv", "polybench.bicg", "polybench.atax", "polybench.mvt"};
    struct mw_kernel k[2];
    for (int i = 0; i < 4; i++) {
        int nk = i == 0 ? 1 : 2;
        assert_int_equal(shapes(one_d[i], "paper", k, 2), nk);
        for (int j = 0; j < nk; j++) check_shape(&k[j], 16, 1, 256, 1);
        assert_int_equal(shapes(one_d[i], "default", k, 2), nk);
        for (int j = 0; j < nk; j++) check_shape(&k[j], 15, 1, 256, 1);
    }
    assert_int_equal(shapes("polybench.syr2k", "paper", k, 1), 1);
    check_shape(&k[0], 64, 256, 32, 8);
    assert_int_equal(k[0].nregs, 20);
    assert_int_equal(mw_kernel_ctas(&k[0]), 16384);
    assert_int_equal(shapes("polybench.syr2k", "default", k, 1), 1);
    check_shape(&k[0], 3, 12, 32, 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_atax),      cmocka_unit_test(test_bicg),      cmocka_unit_test(test_mvt_gesummv),
        cmocka_unit_test(test_1d_default_fills_gtx480),
        cmocka_unit_test(test_syrk),      cmocka_unit_test(test_gemm_like), cmocka_unit_test(test_stencils),   cmocka_unit_test(test_bfs), cmocka_unit_test(test_hotspot),
        cmocka_unit_test(test_linebacker_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
