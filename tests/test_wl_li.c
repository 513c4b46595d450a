/* The benchmark models added for the inter-core-locality study (gpgpusim.sssp, rodinia.mergesort, lonestar.sp,
 * lonestar.pta, rodinia.nn, rodinia.leukocyte) checked against facts derived by hand from their CUDA sources and
 * against plain C recomputations of their seeded inputs: launch sequences and shapes, per-thread loads, stores and
 * atomics, distinct 128 B lines per warp access, shared-memory footprints, determinism. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "workload.h"
#include "workloads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wlwalk.h"

/* Lane and instruction counts of one (kernel name, op[, pc]) selection over a whole run, the launch order, the
 * highest shared-memory byte touched, and a hash of the instruction stream. */
#define ANY_PC UINT64_MAX
struct sel {
    const char *kname;
    uint8_t op;
    uint64_t pc;
    uint64_t lanes, insts;
};
struct tally {
    struct sel s[10];
    int ns;
    uint64_t hash, shmax;
    char names[4096][24]; /* launch order */
    int nk;
    uint32_t last_id;
    bool started;
};
static void tally_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    struct tally *t = arg;
    if ((!t->started || k->id != t->last_id) && t->nk < 4096) {
        snprintf(t->names[t->nk++], sizeof t->names[0], "%.23s", k->name);
        t->last_id = k->id, t->started = true;
    }
    for (int i = 0; i < t->ns; i++) {
        struct sel *s = &t->s[i];
        if (strcmp(k->name, s->kname) == 0 && in->op == s->op && (s->pc == ANY_PC || in->pc == s->pc))
            s->lanes += (uint64_t)__builtin_popcount(in->mask), s->insts++;
    }
    t->hash = t->hash * 1099511628211ull ^ in->pc ^ (uint64_t)in->mask << 20 ^ in->op;
    if (mw_op_is_mem(in->op))
        for (int l = 0; l < MW_WARP_SIZE; l++)
            if (in->mask >> l & 1u) {
                t->hash = t->hash * 31 + in->addr[l];
                if (in->op == MW_OP_LD_SHARED || in->op == MW_OP_ST_SHARED) {
                    assert_true(in->addr[l] + in->width <= k->shmem);
                    if (in->addr[l] + in->width > t->shmax) t->shmax = in->addr[l] + in->width;
                }
            }
}
static struct tally *tally_new(void) { return calloc(1, sizeof(struct tally)); }

static uint64_t stream_hash(const char *name, uint64_t seed)
{
    struct tally *t = tally_new();
    struct kstat ks[1];
    walk(name, "tiny", seed, ks, 0, tally_cb, t);
    uint64_t h = t->hash;
    free(t);
    return h;
}
/* same seed, same stream; a seeded input: another seed, another stream */
static void check_determinism(const char *name, bool seeded)
{
    uint64_t a = stream_hash(name, 5), b = stream_hash(name, 5), c = stream_hash(name, 6);
    assert_true(a == b);
    if (seeded) assert_true(a != c);
}

/* ---- gpgpusim.sssp ---- */

/* Bellman-Ford as Kernel1/Kernel2 run it, recomputed here from the graph and the weights: per iteration the
 * relaxing (masked) vertices; totals of relaxations (atomics), improvements (Kernel2's cost stores). */
static void test_gsssp(void **state)
{
    (void)state;
    const uint64_t seed = 4;
    struct mw_graph g;
    /* the model's tiny input is the graph models' R-MAT of 256 vertices, 2048 stored edges */
    assert_int_equal(mw_wl_graph_rmat(256, 2048, seed, &g), 0);
    uint32_t root = 0;
    while (g.row[root + 1] == g.row[root]) root++;
    uint32_t *cost = malloc(g.n * 4), *upd = malloc(g.n * 4);
    bool *mask = calloc(g.n, 1), *next = calloc(g.n, 1);
    for (uint32_t v = 0; v < g.n; v++) cost[v] = upd[v] = 0x7fffffff;
    cost[root] = upd[root] = 0, mask[root] = true;
    uint64_t atomics = 0, improved = 0, relaxers = 0, first_atomics = g.row[root + 1] - g.row[root];
    int iters = 0;
    for (bool over = true; over; iters++) {
        for (uint32_t v = 0; v < g.n; v++)
            if (mask[v]) {
                relaxers++;
                for (uint32_t i = g.row[v]; i < g.row[v + 1]; i++) {
                    uint32_t c = cost[v] + mw_wl_gsssp_weight(seed, i);
                    if (c < upd[g.col[i]]) upd[g.col[i]] = c;
                    atomics++;
                }
            }
        over = false;
        for (uint32_t v = 0; v < g.n; v++) {
            next[v] = false;
            if (cost[v] > upd[v]) cost[v] = upd[v], next[v] = true, over = true, improved++;
            upd[v] = cost[v];
        }
        memcpy(mask, next, g.n);
    }
    /* Dijkstra on the same weights gives the same distances (the reference is a shortest-path computation) */
    uint32_t *dist = malloc(g.n * 4);
    bool *done = calloc(g.n, 1);
    for (uint32_t v = 0; v < g.n; v++) dist[v] = 0x7fffffff;
    dist[root] = 0;
    for (;;) {
        uint32_t u = UINT32_MAX;
        for (uint32_t v = 0; v < g.n; v++)
            if (!done[v] && dist[v] != 0x7fffffff && (u == UINT32_MAX || dist[v] < dist[u])) u = v;
        if (u == UINT32_MAX) break;
        done[u] = true;
        for (uint32_t i = g.row[u]; i < g.row[u + 1]; i++)
            if (dist[u] + mw_wl_gsssp_weight(seed, i) < dist[g.col[i]])
                dist[g.col[i]] = dist[u] + mw_wl_gsssp_weight(seed, i);
    }
    for (uint32_t v = 0; v < g.n; v++) assert_int_equal(dist[v], cost[v]);
    assert_true(iters >= 4); /* weights 1..10 take more rounds than the hop count */

    struct tally *t = tally_new();
    t->ns = 5;
    t->s[0] = (struct sel){"DijkstraKernel1", MW_OP_ATOMIC, ANY_PC, 0, 0};
    t->s[1] = (struct sel){"DijkstraKernel2", MW_OP_ST_GLOBAL, 0x50, 0, 0};
    t->s[2] = (struct sel){"DijkstraKernel1", MW_OP_ST_GLOBAL, ANY_PC, 0, 0};
    t->s[3] = (struct sel){"DijkstraKernel1", MW_OP_LD_GLOBAL, 0x90, 0, 0};
    t->s[4] = (struct sel){"DijkstraKernel2", MW_OP_ST_GLOBAL, 0x90, 0, 0};
    struct kstat ks[2];
    int nk = walk("gpgpusim.sssp", "tiny", seed, ks, 2, tally_cb, t);
    assert_int_equal(nk, 2 * iters);
    for (int i = 0; i < nk; i++) assert_string_equal(t->names[i], i % 2 ? "DijkstraKernel2" : "DijkstraKernel1");
    assert_int_equal(t->s[0].lanes, atomics);       /* one atomicMin per out-edge of a masked vertex */
    assert_int_equal(t->s[3].lanes, atomics);       /* cost[tid] reloaded per edge */
    assert_int_equal(t->s[1].lanes, improved);      /* cost[tid] = upd[tid] */
    assert_int_equal(t->s[2].lanes, relaxers);      /* mask[tid] = false */
    assert_int_equal(t->s[4].lanes, (uint64_t)g.n * iters); /* upd[tid] = cost[tid], every thread */
    check_shape(&ks[0].k, 1, 1, 256, 1);
    /* the first Kernel1: only the root relaxes, one atomic per out-edge; the mask load is one 32 B line */
    assert_int_equal(at(&ks[0], 0xc0)->n, first_atomics);
    assert_int_equal(at(&ks[0], 0x20)->n, 8);
    assert_int_equal(at(&ks[0], 0x20)->max_lines, 1);
    assert_int_equal(at(&ks[1], 0x20)->max_lines, 1); /* cost[tid]: 32 x 4 B = one line */
    assert_int_equal(at(&ks[1], 0x30)->max_lines, 1);
    /* small: 4096 vertices in 8 CTAs of 512 (MAX_THREADS_PER_BLOCK) */
    struct mw_kernel kk[2];
    assert_true(shapes("gpgpusim.sssp", "small", kk, 2) >= 2);
    check_shape(&kk[0], 8, 1, 512, 1);
    free(t), free(cost), free(upd), free(mask), free(next), free(dist), free(done);
    mw_wl_graph_free(&g);
    check_determinism("gpgpusim.sssp", true);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gsssp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
