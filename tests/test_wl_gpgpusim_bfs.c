/* gpgpusim.bfs (the ISPASS-2009 suite's BFS, engine/workloads/wl_gpgpusim_bfs.c): the whole instruction stream of a
 * six-node graph written out by hand from kernel.cu, then on the seeded graphs the launch count, the frontier of
 * every launch and the cost each node receives against a plain host BFS, launch shapes and determinism. */
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

/* ---- the hand-built graph ----
 * undirected 0-1, 0-2, 1-3, 2-3, 3-4; node 5 isolated. CSR: 0:[1,2] 1:[0,3] 2:[0,3] 3:[1,2,4] 4:[3] 5:[].
 * Levels from 0: 0 | 1, 2 | 3 | 4, node 5 unreachable: 4 launches of 1 CTA x 6 threads (one warp, lanes 0-5).
 * Device arrays from 0x10000000, each rounded up to 256 B: nodes (6 x 8 B) 0x10000000, edges (10 x 4 B)
 * 0x10000100, mask 0x10000200, visited 0x10000300, cost (6 x 4 B) 0x10000400, over 0x10000500. */
#define NODES 0x10000000ull
#define EDGES 0x10000100ull
#define MASK 0x10000200ull
#define VISITED 0x10000300ull
#define COST 0x10000400ull
#define OVER 0x10000500ull

struct rec {
    uint32_t launch;
    uint64_t pc;
    uint8_t op;
    uint32_t mask;
    uint64_t addr[6]; /* lanes 0-5 (0 where inactive or not a memory op) */
};
struct recs {
    struct rec r[400];
    int n;
};

static void rec_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    (void)k;
    struct recs *s = arg;
    assert_true(s->n < 400);
    struct rec *r = &s->r[s->n++];
    memset(r, 0, sizeof *r);
    r->launch = walk_kernel, r->pc = in->pc, r->op = in->op, r->mask = in->mask;
    if (mw_op_is_global_mem(in->op))
        for (int l = 0; l < 6; l++)
            if (in->mask >> l & 1u) r->addr[l] = in->addr[l];
}

/* Walk a workload already opened (walk() in wlwalk.h opens by name). */
static int walk_open(struct mw_workload *w, inst_cb cb, void *arg, struct mw_kernel *first)
{
    struct mw_err e = {0};
    struct mw_kernel k;
    int nk = 0, rc;
    while ((rc = w->ops->next_kernel(w, &k, &e)) == 1) {
        if (nk == 0) *first = k;
        walk_kernel = (uint32_t)nk;
        for (uint32_t c = 0; c < mw_kernel_ctas(&k); c++) {
            void *st = NULL;
            assert_int_equal(w->ops->cta_open(w, c, &st, &e), 0);
            for (uint32_t wi = 0; wi < mw_kernel_cta_warps(&k); wi++) {
                struct mw_inst in;
                while ((rc = w->ops->warp_next(w, st, wi, &in, &e)) == 1) {
                    cb(arg, &k, &in);
                    if (in.op == MW_OP_EXIT) break;
                }
                assert_true(rc >= 0);
            }
            w->ops->cta_close(w, st);
        }
        nk++;
    }
    assert_int_equal(rc, 0);
    return nk;
}

/* expected instruction: launch, pc, op, lane mask, addresses of lanes 0-5 */
#define E(L, p, o, m, ...) {.launch = L, .pc = p, .op = MW_OP_##o, .mask = m, .addr = {__VA_ARGS__}}

static void test_hand_graph(void **state)
{
    (void)state;
    uint32_t row[7] = {0, 2, 4, 6, 9, 10, 10}, col[10] = {1, 2, 0, 3, 0, 3, 1, 2, 4, 3};
    struct mw_graph g = {6, 10, row, col};
    struct mw_workload w;
    struct mw_err e = {0};
    assert_int_equal(mw_wl_gpgpusim_bfs_on(&w, &g, 0, &e), 0);
    struct recs *s = calloc(1, sizeof *s);
    struct mw_kernel k0;
    assert_int_equal(walk_open(&w, rec_cb, s, &k0), 4); /* levels 0..3 */
    mw_workload_close(&w);
    check_shape(&k0, 1, 1, 6, 1);
    assert_string_equal(k0.name, "Kernel");

    /* the common opening: tid, tid < n, g_graph_mask[tid] for all six lanes, the branch on it */
#define OPEN(L)                                                                                              \
    E(L, 0x00, ALU, 0x3f, 0), E(L, 0x10, BRANCH, 0x3f, 0),                                                   \
        E(L, 0x20, LD_GLOBAL, 0x3f, MASK, MASK + 1, MASK + 2, MASK + 3, MASK + 4, MASK + 5), E(L, 0x30, BRANCH, 0x3f, 0)
    /* the loop's bottom: i++, the reloads of no_of_edges (addresses A) and starting (B), end, the test */
#define UNPACK(...) __VA_ARGS__
#define BOTTOM(L, m, A, B)                                                                                   \
    E(L, 0x120, ALU, m, 0), E(L, 0x130, LD_GLOBAL, m, UNPACK A), E(L, 0x140, LD_GLOBAL, m, UNPACK B),        \
        E(L, 0x150, ALU, m, 0), E(L, 0x160, BRANCH, m, 0)
    static const struct rec want[] = {
        /* launch 0: only node 0 (lane 0) is masked; its edges 0, 1 go to 1 and 2, both unvisited */
        OPEN(0),
        E(0, 0x40, ST_GLOBAL, 0x01, MASK), E(0, 0x50, ST_GLOBAL, 0x01, VISITED), E(0, 0x60, LD_GLOBAL, 0x01, NODES),
        E(0, 0x70, LD_GLOBAL, 0x01, NODES + 4), E(0, 0x80, ALU, 0x01, 0), E(0, 0x90, BRANCH, 0x01, 0),
        E(0, 0xa0, LD_GLOBAL, 0x01, EDGES + 0), E(0, 0xb0, LD_GLOBAL, 0x01, VISITED + 1), E(0, 0xc0, BRANCH, 0x01, 0),
        E(0, 0xd0, LD_GLOBAL, 0x01, COST + 0), E(0, 0xe0, ALU, 0x01, 0), E(0, 0xf0, ST_GLOBAL, 0x01, COST + 4),
        E(0, 0x100, ST_GLOBAL, 0x01, MASK + 1), E(0, 0x110, ST_GLOBAL, 0x01, OVER),
        BOTTOM(0, 0x01, (NODES + 4), (NODES)),
        E(0, 0xa0, LD_GLOBAL, 0x01, EDGES + 4), E(0, 0xb0, LD_GLOBAL, 0x01, VISITED + 2), E(0, 0xc0, BRANCH, 0x01, 0),
        E(0, 0xd0, LD_GLOBAL, 0x01, COST + 0), E(0, 0xe0, ALU, 0x01, 0), E(0, 0xf0, ST_GLOBAL, 0x01, COST + 8),
        E(0, 0x100, ST_GLOBAL, 0x01, MASK + 2), E(0, 0x110, ST_GLOBAL, 0x01, OVER),
        BOTTOM(0, 0x01, (NODES + 4), (NODES)),
        E(0, 0x170, EXIT, 0x3f, 0),
        /* launch 1: nodes 1, 2 (lanes 1, 2; Node entries at 8 and 16); edges 2 and 4 both go back to visited 0,
         * edges 3 and 5 both to 3 (level 2): both lanes read cost[tid] and write cost[3], mask[3], over */
        OPEN(1),
        E(1, 0x40, ST_GLOBAL, 0x06, 0, MASK + 1, MASK + 2), E(1, 0x50, ST_GLOBAL, 0x06, 0, VISITED + 1, VISITED + 2),
        E(1, 0x60, LD_GLOBAL, 0x06, 0, NODES + 8, NODES + 16), E(1, 0x70, LD_GLOBAL, 0x06, 0, NODES + 12, NODES + 20),
        E(1, 0x80, ALU, 0x06, 0), E(1, 0x90, BRANCH, 0x06, 0),
        E(1, 0xa0, LD_GLOBAL, 0x06, 0, EDGES + 8, EDGES + 16), E(1, 0xb0, LD_GLOBAL, 0x06, 0, VISITED, VISITED),
        E(1, 0xc0, BRANCH, 0x06, 0), BOTTOM(1, 0x06, (0, NODES + 12, NODES + 20), (0, NODES + 8, NODES + 16)),
        E(1, 0xa0, LD_GLOBAL, 0x06, 0, EDGES + 12, EDGES + 20),
        E(1, 0xb0, LD_GLOBAL, 0x06, 0, VISITED + 3, VISITED + 3),
        E(1, 0xc0, BRANCH, 0x06, 0), E(1, 0xd0, LD_GLOBAL, 0x06, 0, COST + 4, COST + 8), E(1, 0xe0, ALU, 0x06, 0),
        E(1, 0xf0, ST_GLOBAL, 0x06, 0, COST + 12, COST + 12), E(1, 0x100, ST_GLOBAL, 0x06, 0, MASK + 3, MASK + 3),
        E(1, 0x110, ST_GLOBAL, 0x06, 0, OVER, OVER),
        BOTTOM(1, 0x06, (0, NODES + 12, NODES + 20), (0, NODES + 8, NODES + 16)),
        E(1, 0x170, EXIT, 0x3f, 0),
        /* launch 2: node 3 (lane 3), edges 6, 7, 8 to 1, 2 (visited) and 4 (updated) */
        OPEN(2),
        E(2, 0x40, ST_GLOBAL, 0x08, 0, 0, 0, MASK + 3), E(2, 0x50, ST_GLOBAL, 0x08, 0, 0, 0, VISITED + 3),
        E(2, 0x60, LD_GLOBAL, 0x08, 0, 0, 0, NODES + 24), E(2, 0x70, LD_GLOBAL, 0x08, 0, 0, 0, NODES + 28),
        E(2, 0x80, ALU, 0x08, 0), E(2, 0x90, BRANCH, 0x08, 0),
        E(2, 0xa0, LD_GLOBAL, 0x08, 0, 0, 0, EDGES + 24), E(2, 0xb0, LD_GLOBAL, 0x08, 0, 0, 0, VISITED + 1),
        E(2, 0xc0, BRANCH, 0x08, 0), BOTTOM(2, 0x08, (0, 0, 0, NODES + 28), (0, 0, 0, NODES + 24)),
        E(2, 0xa0, LD_GLOBAL, 0x08, 0, 0, 0, EDGES + 28), E(2, 0xb0, LD_GLOBAL, 0x08, 0, 0, 0, VISITED + 2),
        E(2, 0xc0, BRANCH, 0x08, 0), BOTTOM(2, 0x08, (0, 0, 0, NODES + 28), (0, 0, 0, NODES + 24)),
        E(2, 0xa0, LD_GLOBAL, 0x08, 0, 0, 0, EDGES + 32), E(2, 0xb0, LD_GLOBAL, 0x08, 0, 0, 0, VISITED + 4),
        E(2, 0xc0, BRANCH, 0x08, 0), E(2, 0xd0, LD_GLOBAL, 0x08, 0, 0, 0, COST + 12), E(2, 0xe0, ALU, 0x08, 0),
        E(2, 0xf0, ST_GLOBAL, 0x08, 0, 0, 0, COST + 16), E(2, 0x100, ST_GLOBAL, 0x08, 0, 0, 0, MASK + 4),
        E(2, 0x110, ST_GLOBAL, 0x08, 0, 0, 0, OVER), BOTTOM(2, 0x08, (0, 0, 0, NODES + 28), (0, 0, 0, NODES + 24)),
        E(2, 0x170, EXIT, 0x3f, 0),
        /* launch 3: node 4 (lane 4), edge 9 back to visited 3; nothing stored to over, so the host loop ends */
        OPEN(3),
        E(3, 0x40, ST_GLOBAL, 0x10, 0, 0, 0, 0, MASK + 4), E(3, 0x50, ST_GLOBAL, 0x10, 0, 0, 0, 0, VISITED + 4),
        E(3, 0x60, LD_GLOBAL, 0x10, 0, 0, 0, 0, NODES + 32), E(3, 0x70, LD_GLOBAL, 0x10, 0, 0, 0, 0, NODES + 36),
        E(3, 0x80, ALU, 0x10, 0), E(3, 0x90, BRANCH, 0x10, 0),
        E(3, 0xa0, LD_GLOBAL, 0x10, 0, 0, 0, 0, EDGES + 36), E(3, 0xb0, LD_GLOBAL, 0x10, 0, 0, 0, 0, VISITED + 3),
        E(3, 0xc0, BRANCH, 0x10, 0), BOTTOM(3, 0x10, (0, 0, 0, 0, NODES + 36), (0, 0, 0, 0, NODES + 32)),
        E(3, 0x170, EXIT, 0x3f, 0),
    };
    int nwant = (int)(sizeof want / sizeof want[0]);
    for (int i = 0; i < nwant && i < s->n; i++) {
        const struct rec *a = &s->r[i], *b = &want[i];
        if (a->launch != b->launch || a->pc != b->pc || a->op != b->op || a->mask != b->mask ||
            memcmp(a->addr, b->addr, sizeof a->addr) != 0)
            fail_msg("instruction %d: launch %u pc 0x%llx op %u mask 0x%x addr %llx %llx %llx %llx %llx; want launch "
                     "%u pc 0x%llx op %u mask 0x%x addr %llx %llx %llx %llx %llx",
                     i, a->launch, (unsigned long long)a->pc, a->op, a->mask, (unsigned long long)a->addr[0],
                     (unsigned long long)a->addr[1], (unsigned long long)a->addr[2], (unsigned long long)a->addr[3],
                     (unsigned long long)a->addr[4], b->launch, (unsigned long long)b->pc, b->op, b->mask,
                     (unsigned long long)b->addr[0], (unsigned long long)b->addr[1], (unsigned long long)b->addr[2],
                     (unsigned long long)b->addr[3], (unsigned long long)b->addr[4]);
    }
    assert_int_equal(s->n, nwant);
    free(s);

    /* bad graphs are refused with a message, not read past */
    uint32_t badcol[10] = {1, 2, 0, 3, 0, 3, 1, 2, 9, 3};
    struct mw_graph bad = {6, 10, row, badcol};
    assert_true(mw_wl_gpgpusim_bfs_on(&w, &bad, 0, &e) < 0);
    assert_non_null(strstr(e.msg, "past n"));
    assert_true(mw_wl_gpgpusim_bfs_on(&w, &g, 6, &e) < 0);
}

/* ---- the seeded graphs against a host BFS ---- */

struct seeded {
    uint64_t cost, mask0, nlaunch;
    uint32_t n;
    int32_t *got;         /* per node: 1 + the launch that first stored its cost (0: never) */
    uint64_t *front;      /* per launch: lanes that cleared their mask (0x40) */
    uint64_t edge_lanes, reload_lanes, cost_lanes, over_lanes, mask_lines_max;
    uint64_t hash;
};
static void seeded_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    (void)k;
    struct seeded *s = arg;
    uint32_t pop = (uint32_t)__builtin_popcount(in->mask);
    s->hash = s->hash * 1099511628211ull ^ in->pc ^ (uint64_t)in->mask << 20 ^ in->op;
    if (mw_op_is_global_mem(in->op))
        for (int l = 0; l < MW_WARP_SIZE; l++)
            if (in->mask >> l & 1u) s->hash = s->hash * 31 + in->addr[l];
    if (in->pc == 0x40) s->front[walk_kernel] += pop;
    if (in->pc == 0xa0) s->edge_lanes += pop;
    if (in->pc == 0x130) s->reload_lanes += pop;
    if (in->pc == 0x110) s->over_lanes += pop;
    if (in->pc == 0x20 && lines_of(in) > s->mask_lines_max) s->mask_lines_max = lines_of(in);
    if (in->pc == 0xf0) {
        s->cost_lanes += pop;
        for (int l = 0; l < MW_WARP_SIZE; l++)
            if (in->mask >> l & 1u) {
                uint64_t v = (in->addr[l] - s->cost) / 4;
                assert_true(v < s->n);
                if (!s->got[v]) s->got[v] = (int32_t)walk_kernel + 1;
                assert_int_equal(s->got[v], (int32_t)walk_kernel + 1); /* every store to cost[v] in one launch */
            }
    }
}

static uint64_t seeded_hash(uint64_t seed, uint64_t cost, uint32_t n)
{
    struct seeded s = {0};
    s.n = n, s.cost = cost;
    s.got = calloc(n, sizeof *s.got);
    s.front = calloc(256, sizeof *s.front);
    struct kstat ks[1];
    walk("gpgpusim.bfs", "tiny", seed, ks, 0, seeded_cb, &s);
    free(s.got), free(s.front);
    return s.hash;
}

static uint64_t up256(uint64_t b) { return (b + 255) & ~255ull; }

static void test_seeded(void **state)
{
    (void)state;
    const uint64_t seed = 7;
    uint32_t *row, *col, m, n = 2048; /* tiny: 2048 nodes, 6 stored edges each */
    assert_int_equal(mw_wl_bfs_graph(n, 6, seed, &row, &col, &m), 0);
    assert_int_equal(m, 6 * n);
    int32_t *dist = malloc(n * sizeof *dist);
    uint32_t *q = malloc(n * sizeof *q), qh = 0, qt = 0;
    for (uint32_t v = 0; v < n; v++) dist[v] = -1;
    dist[0] = 0, q[qt++] = 0;
    int32_t maxd = 0;
    uint64_t reach_edges = 0, next_edges = 0, *front = calloc(64, sizeof *front);
    while (qh < qt) {
        uint32_t v = q[qh++];
        front[dist[v]]++;
        reach_edges += row[v + 1] - row[v];
        for (uint32_t i = row[v]; i < row[v + 1]; i++) {
            if (dist[col[i]] < 0) dist[col[i]] = dist[v] + 1, q[qt++] = col[i], maxd = dist[v] + 1;
            if (dist[col[i]] == dist[v] + 1) next_edges++;
        }
    }
    assert_true(maxd < 64 && qt > n / 2);

    struct seeded s = {0};
    s.n = n;
    s.cost = 0x10000000ull + up256(8ull * n) + up256(4ull * m) + 2 * up256(n);
    s.got = calloc(n, sizeof *s.got);
    s.front = calloc(256, sizeof *s.front);
    struct kstat ks[2];
    int nk = walk("gpgpusim.bfs", "tiny", seed, ks, 2, seeded_cb, &s);
    assert_int_equal(nk, maxd + 1);          /* one launch per level; the last stores nothing to over */
    for (int L = 0; L <= maxd; L++) assert_int_equal(s.front[L], front[L]); /* launch L's frontier: level L */
    for (uint32_t v = 1; v < n; v++) assert_int_equal(s.got[v], dist[v] < 0 ? 0 : dist[v]); /* cost = level */
    assert_int_equal(s.got[0], 0);           /* the source's cost is the host's 0, never stored */
    assert_int_equal(s.edge_lanes, reach_edges);  /* every reachable node walks all its edges once */
    assert_int_equal(s.reload_lanes, reach_edges); /* the loop test after each edge reloads the Node */
    assert_int_equal(s.cost_lanes, next_edges);   /* one cost store per edge to the next level */
    assert_int_equal(s.over_lanes, next_edges);
    assert_int_equal(s.mask_lines_max, 1);   /* 32 one-byte flags: one line */
    check_shape(&ks[0].k, 8, 1, 256, 1);
    assert_string_equal(ks[1].k.name, "Kernel");
    assert_int_equal(ks[0].k.nregs, 16);
    /* the first launch: thread 0 is the only one masked; per edge it loads edges[i], visited[id], cost[tid] and
     * the two reloads of its Node, after the first two Node loads and its own mask flag */
    assert_int_equal(ks[0].thread_loads0, 1 + 2 + 5 * (row[1] - row[0]));

    /* same seed, same stream; another seed, another graph (the same layout: m = 6 n) */
    assert_int_equal(seeded_hash(seed, s.cost, n), s.hash);
    assert_true(seeded_hash(seed + 1, s.cost, n) != s.hash);
    free(s.got), free(s.front), free(front), free(row), free(col), free(dist), free(q);
}

/* the sizes' launch shapes: 256-thread CTAs, ceil(n / 256) of them; default and paper are graph65536 */
static void test_shapes(void **state)
{
    (void)state;
    static const struct {
        const char *size;
        uint32_t ctas;
    } want[] = {{"tiny", 8}, {"small", 64}, {"default", 256}, {"paper", 256}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        struct mw_kernel k[1];
        int nk = shapes("gpgpusim.bfs", want[i].size, k, 1);
        assert_true(nk >= 5); /* a random graph of mean degree 6 is several levels deep */
        check_shape(&k[0], want[i].ctas, 1, 256, 1);
    }
    struct mw_workload w;
    struct mw_err e = {0};
    assert_true(mw_workload_open_builtin(&w, "gpgpusim.bfs", "huge", 1, &e) < 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_graph),
        cmocka_unit_test(test_seeded),
        cmocka_unit_test(test_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
