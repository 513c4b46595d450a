/* GraphBig-style graph kernel models (graph.*) checked against counts recomputed here from the same seeded R-MAT
 * input: kernel launches (iterations until convergence), per-edge atomics, launch shapes, coalescing of the
 * per-vertex loads, determinism. */
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

/* Lanes and warp instructions of one (kernel name, op[, pc]) selection, and a hash of the whole stream. */
#define ANY_PC UINT64_MAX
struct sel {
    const char *kname;
    uint8_t op;
    uint64_t pc;
    uint64_t lanes, insts;
};
struct tally {
    struct sel s[8];
    int ns;
    uint64_t hash;
    const char *names[512]; /* launch order */
    int nk;
    uint32_t last_id;
};
static void tally_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    struct tally *t = arg;
    if (k->id != t->last_id && t->nk < 512) t->names[t->nk++] = strdup(k->name), t->last_id = k->id;
    for (int i = 0; i < t->ns; i++) {
        struct sel *s = &t->s[i];
        if (strcmp(k->name, s->kname) == 0 && in->op == s->op && (s->pc == ANY_PC || in->pc == s->pc))
            s->lanes += (uint64_t)__builtin_popcount(in->mask), s->insts++;
    }
    t->hash = t->hash * 1099511628211ull ^ in->pc ^ (uint64_t)in->mask << 20 ^ in->op;
    if (mw_op_is_mem(in->op))
        for (int l = 0; l < MW_WARP_SIZE; l++)
            if (in->mask >> l & 1u) t->hash = t->hash * 31 + in->addr[l];
}
static void tally_free(struct tally *t)
{
    for (int i = 0; i < t->nk; i++) free((void *)t->names[i]);
}
static uint64_t stream_hash(const char *name, uint64_t seed)
{
    struct tally t = {.ns = 0};
    struct kstat ks[1];
    walk(name, "tiny", seed, ks, 0, tally_cb, &t);
    tally_free(&t);
    return t.hash;
}
static void check_determinism(const char *name)
{
    uint64_t a = stream_hash(name, 5), b = stream_hash(name, 5), c = stream_hash(name, 6);
    assert_true(a == b);
    assert_true(a != c);
}

/* ---- the input ---- */

static uint32_t deg(const struct mw_graph *g, uint32_t v) { return g->row[v + 1] - g->row[v]; }

/* BFS hop counts from src (-1 unreachable); returns the largest. */
static int hops(const struct mw_graph *g, uint32_t src, int *d)
{
    uint32_t *q = malloc(g->n * sizeof *q), qh = 0, qt = 0;
    int maxd = 0;
    for (uint32_t i = 0; i < g->n; i++) d[i] = -1;
    d[src] = 0, q[qt++] = src;
    while (qh < qt) {
        uint32_t v = q[qh++];
        for (uint32_t i = g->row[v]; i < g->row[v + 1]; i++)
            if (d[g->col[i]] < 0) {
                d[g->col[i]] = d[v] + 1;
                if (d[v] + 1 > maxd) maxd = d[v] + 1;
                q[qt++] = g->col[i];
            }
    }
    free(q);
    return maxd;
}

static bool has_edge(const struct mw_graph *g, uint32_t u, uint32_t v)
{
    for (uint32_t i = g->row[u]; i < g->row[u + 1]; i++)
        if (g->col[i] == v) return true;
    return false;
}

/* tiny: 256 vertices, 2048 stored edges; undirected (both directions), simple, skewed degrees */
static void test_rmat(void **state)
{
    (void)state;
    struct mw_graph g;
    struct mw_err e = {0};
    assert_int_equal(mw_wl_graph_input("tiny", 3, &g, &e), 0);
    assert_int_equal(g.n, 256);
    assert_int_equal(g.m, 2048);
    assert_int_equal(g.row[g.n], g.m);
    uint32_t maxdeg = 0, isolated = 0;
    for (uint32_t u = 0; u < g.n; u++) {
        if (deg(&g, u) > maxdeg) maxdeg = deg(&g, u);
        isolated += deg(&g, u) == 0;
        for (uint32_t i = g.row[u]; i < g.row[u + 1]; i++) {
            uint32_t v = g.col[i];
            assert_true(v < g.n && v != u);
            assert_true(has_edge(&g, v, u));
            for (uint32_t j = i + 1; j < g.row[u + 1]; j++) assert_true(g.col[j] != v);
        }
    }
    assert_true(maxdeg > 4 * 8); /* R-MAT hubs: far above the mean degree 8 */
    assert_true(isolated > 0 && isolated < g.n / 2);
    struct mw_graph h;
    assert_int_equal(mw_wl_graph_input("tiny", 3, &h, &e), 0);
    assert_memory_equal(g.col, h.col, g.m * sizeof *g.col);
    mw_wl_graph_free(&h);
    assert_int_equal(mw_wl_graph_input("paper", 3, &h, &e), 0);
    assert_int_equal(h.n, 1000); /* GraphBig dataset/small: 1000 vertices, 29790 edges */
    assert_int_equal(h.m, 29790);
    mw_wl_graph_free(&h);
    mw_wl_graph_free(&g);
}

static uint32_t root_of(const struct mw_graph *g)
{
    for (uint32_t i = 0; i < g->n; i++)
        if (deg(g, (31 + i) % g->n)) return (31 + i) % g->n;
    return 0;
}

/* ---- SSSP ---- */

/* Unit weights: the vertices k hops from the root are masked in iteration k, so there are maxhops + 1
 * iterations (the last changes nothing), each relaxing every out-edge of its frontier once: atomicMin lanes =
 * the stored edges of the reachable vertices; kernel2 re-masks (and stores *changed for) every reached vertex
 * but the root once. */
static void test_sssp(void **state)
{
    (void)state;
    struct mw_graph g;
    struct mw_err e = {0};
    assert_int_equal(mw_wl_graph_input("tiny", 9, &g, &e), 0);
    int *d = malloc(g.n * sizeof *d);
    uint32_t root = root_of(&g);
    int maxd = hops(&g, root, d);
    uint64_t redges = 0, reached = 0;
    for (uint32_t v = 0; v < g.n; v++)
        if (d[v] >= 0) redges += deg(&g, v), reached++;
    assert_true(maxd >= 3);
    struct tally t = {.ns = 4,
                      .s = {{"kernel", MW_OP_ATOMIC, ANY_PC, 0, 0},
                            {"kernel2", MW_OP_ST_GLOBAL, 0x80, 0, 0},
                            {"kernel", MW_OP_ST_GLOBAL, ANY_PC, 0, 0},
                            {"kernel2", MW_OP_LD_GLOBAL, ANY_PC, 0, 0}}};
    struct kstat ks[3];
    int nk = walk("graph.sssp", "tiny", 9, ks, 3, tally_cb, &t);
    assert_int_equal(nk, 1 + 2 * (maxd + 1));
    assert_string_equal(t.names[0], "initialize");
    for (int i = 1; i < nk; i++) assert_string_equal(t.names[i], i % 2 ? "kernel" : "kernel2");
    assert_int_equal(t.s[0].lanes, redges);
    assert_int_equal(t.s[1].lanes, reached - 1);
    assert_int_equal(t.s[2].lanes, reached); /* mask[tid] = false by each relaxing vertex */
    assert_int_equal(t.s[3].lanes, 2 * (uint64_t)g.n * (maxd + 1)); /* vplist[tid], update[tid] */
    for (int i = 0; i < 3; i++) check_shape(&ks[i].k, 1, 1, 256, 1);
    /* kernel2's per-vertex loads: 32 x 4 B consecutive = one line; initialize stores 3 arrays per thread */
    assert_int_equal(at(&ks[2], 0x30)->max_lines, 1);
    assert_int_equal(at(&ks[2], 0x40)->max_lines, 1);
    assert_int_equal(ks[2].thread_loads0, 2);
    assert_int_equal(ks[0].stores, 3 * 8);
    /* the first relaxation: only the root passes if (mask[tid]); one atomic per out-edge */
    assert_int_equal(at(&ks[1], 0x100)->n, deg(&g, root));
    assert_int_equal(at(&ks[1], 0x30)->n, 8);
    tally_free(&t);
    free(d);
    mw_wl_graph_free(&g);
    check_determinism("graph.sssp");
}


/* ---- CC ---- */

static uint32_t uf_find(uint32_t *p, uint32_t x)
{
    while (p[x] != x) x = p[x] = p[p[x]];
    return x;
}

/* The roots the last pointer-jumping launch reads (parents[parent] after one hop, the loop's load) */
struct cc_roots {
    uint32_t last_jump;
    uint64_t *addr;
    size_t n;
};
static void cc_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    struct cc_roots *r = arg;
    if (strcmp(k->name, "kernel_pointer_jumping") != 0 || in->pc != 0x50) return;
    if (k->id != r->last_jump) r->last_jump = k->id, r->n = 0;
    for (int l = 0; l < MW_WARP_SIZE; l++)
        if (in->mask >> l & 1u) {
            bool dup = false;
            for (size_t i = 0; i < r->n && !dup; i++) dup = r->addr[i] == in->addr[l];
            if (!dup) r->addr[r->n++] = in->addr[l];
        }
}
static void cc_both(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    void **a = arg;
    tally_cb(a[0], k, in);
    cc_cb(a[1], k, in);
}

/* Hooking masks every edge exactly once (when its endpoints' parents first agree) and looks at every unmasked
 * edge each iteration; after convergence the parents form one star per component, so the last pointer
 * jumping reads parents[root] at as many distinct addresses as there are components (union-find here). */
static void test_cc(void **state)
{
    (void)state;
    struct mw_graph g;
    struct mw_err e = {0};
    assert_int_equal(mw_wl_graph_input("tiny", 4, &g, &e), 0);
    uint32_t *p = malloc(g.n * sizeof *p), comps = 0;
    for (uint32_t v = 0; v < g.n; v++) p[v] = v;
    for (uint32_t v = 0; v < g.n; v++)
        for (uint32_t i = g.row[v]; i < g.row[v + 1]; i++) p[uf_find(p, v)] = uf_find(p, g.col[i]);
    for (uint32_t v = 0; v < g.n; v++) comps += uf_find(p, v) == v;
    assert_true(comps > 2);
    struct tally t = {.ns = 3,
                      .s = {{"kernel_hooking", MW_OP_ST_GLOBAL, 0x140, 0, 0},
                            {"kernel_hooking", MW_OP_LD_GLOBAL, 0x60, 0, 0},
                            {"initialize", MW_OP_ST_GLOBAL, 0x90, 0, 0}}};
    struct cc_roots r = {0, malloc(g.n * sizeof *r.addr), 0};
    void *both[2] = {&t, &r};
    struct kstat ks[2];
    int nk = walk("graph.cc", "tiny", 4, ks, 2, cc_both, both);
    assert_int_equal((nk - 1) % 4, 0);
    int iters = (nk - 1) / 4;
    assert_true(iters >= 2);
    static const char *const seq[4] = {"kernel_hooking", "kernel_update", "kernel_pointer_jumping", "kernel_update"};
    assert_string_equal(t.names[0], "initialize");
    for (int i = 1; i < nk; i++) assert_string_equal(t.names[i], seq[(i - 1) % 4]);
    assert_int_equal(r.n, comps);
    assert_int_equal(t.s[0].lanes, g.m);
    assert_int_equal(t.s[2].lanes, g.m); /* edge_src[i] = tid for every edge */
    /* the first hooking sees no masked edge; later ones skip the masked ones */
    assert_int_equal(at(&ks[1], 0x60)->n, g.m / 2 / 32 * 2);
    assert_true(t.s[1].lanes == (uint64_t)g.m * iters);
    /* hooking: 2048 edges, two per thread: one 1024-thread block; mask[eid] is 2 bytes apart (one line),
     * edge_src[eid] 16 bytes apart (512 B: four lines) */
    check_shape(&ks[1].k, 1, 1, 1024, 1);
    check_shape(&ks[0].k, 1, 1, 256, 1);
    assert_int_equal(at(&ks[1], 0x60)->max_lines, 1);
    assert_int_equal(at(&ks[1], 0x80)->max_lines, 4);
    assert_int_equal(at(&ks[1], 0x80)->min_lines, 4);
    free(r.addr), free(p);
    tally_free(&t);
    mw_wl_graph_free(&g);
    check_determinism("graph.cc");
}


/* ---- DC ---- */

/* Every atomicAdd lands on vplist[dest]: per vertex, as many as its in-degree (the occurrences of v among the
 * edge targets); vplist's base is where initialize stores thread 0's zero. */
struct dc_count {
    uint64_t base;
    uint32_t *hits, n;
    uint64_t atoms, stray;
};
static void dc_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    struct dc_count *c = arg;
    if (strcmp(k->name, "initialize") == 0 && in->op == MW_OP_ST_GLOBAL && (in->mask & 1u) && !c->base)
        c->base = in->addr[0];
    if (strcmp(k->name, "kernel") != 0 || in->op != MW_OP_ATOMIC) return;
    for (int l = 0; l < MW_WARP_SIZE; l++)
        if (in->mask >> l & 1u) {
            uint64_t v = (in->addr[l] - c->base) / 4;
            c->atoms++;
            if (v < c->n && in->addr[l] >= c->base && (in->addr[l] - c->base) % 4 == 0) c->hits[v]++;
            else c->stray++;
        }
}
static void test_dc(void **state)
{
    (void)state;
    struct mw_graph g;
    struct mw_err e = {0};
    assert_int_equal(mw_wl_graph_input("tiny", 2, &g, &e), 0);
    uint32_t *indeg = calloc(g.n, sizeof *indeg);
    for (uint32_t i = 0; i < g.m; i++) indeg[g.col[i]]++;
    struct dc_count c = {0, calloc(g.n, sizeof *c.hits), g.n, 0, 0};
    struct kstat ks[2];
    assert_int_equal(walk("graph.dc", "tiny", 2, ks, 2, dc_cb, &c), 2);
    assert_string_equal(ks[0].k.name, "initialize");
    assert_string_equal(ks[1].k.name, "kernel");
    check_shape(&ks[1].k, 1, 1, 256, 1);
    assert_int_equal(c.atoms, g.m);
    assert_int_equal(c.stray, 0);
    assert_memory_equal(c.hits, indeg, g.n * sizeof *indeg);
    /* thread 0: vlist[tid], vlist[tid + 1], then one elist[i] per out-edge; vlist loads: 32 x 8 B = 2 lines */
    assert_int_equal(ks[1].thread_loads0, 2 + (g.row[1] - g.row[0]));
    assert_int_equal(at(&ks[1], 0x30)->max_lines, 2);
    assert_int_equal(at(&ks[1], 0x70)->n, at(&ks[1], 0x90)->n);
    /* the edge loop runs, per warp, as often as the warp's largest degree */
    uint64_t trips = 0;
    for (uint32_t w = 0; w < g.n / 32; w++) {
        uint32_t mx = 0;
        for (uint32_t v = 32 * w; v < 32 * w + 32; v++) mx = deg(&g, v) > mx ? deg(&g, v) : mx;
        trips += mx;
    }
    assert_int_equal(at(&ks[1], 0x90)->n, trips);
    free(c.hits), free(indeg);
    mw_wl_graph_free(&g);
    check_determinism("graph.dc");
}


/* ---- BC ---- */

/* tiny runs roots 0 and 1. Per root: kernel_init, a forward phase per BFS level 0 .. depth (the last finds
 * nothing), a backward phase per level depth .. 1, kernel_backsum_phase. Forward adds sigma[u] into sigma[w]
 * once per shortest-path DAG edge (dist[w] = dist[u] + 1); backward does the double-precision dependency update
 * once per DAG edge as well; backsum updates every reached vertex but the root. */
static void test_bc(void **state)
{
    (void)state;
    struct mw_graph g;
    struct mw_err e = {0};
    assert_int_equal(mw_wl_graph_input("tiny", 3, &g, &e), 0);
    int *d = malloc(g.n * sizeof *d);
    const char *names[128];
    int nexp = 0;
    uint64_t dag = 0, reached = 0;
    for (uint32_t r = 0; r < 2; r++) {
        int depth = hops(&g, r, d);
        names[nexp++] = "kernel_init";
        for (int c = 0; c <= depth; c++) names[nexp++] = "kernel_forward_phase";
        for (int c = depth; c >= 1; c--) names[nexp++] = "kernel_backward_phase";
        names[nexp++] = "kernel_backsum_phase";
        for (uint32_t u = 0; u < g.n; u++) {
            if (d[u] < 0) continue;
            reached += u != r;
            for (uint32_t i = g.row[u]; i < g.row[u + 1]; i++) dag += d[g.col[i]] == d[u] + 1;
        }
    }
    assert_true(dag > g.m / 8);
    assert_true(deg(&g, 0) > 0 && deg(&g, 1) > 0);
    struct tally t = {.ns = 4,
                      .s = {{"kernel_forward_phase", MW_OP_ATOMIC, ANY_PC, 0, 0},
                            {"kernel_backward_phase", MW_OP_SFU, 0x120, 0, 0},
                            {"kernel_backsum_phase", MW_OP_ST_GLOBAL, ANY_PC, 0, 0},
                            {"kernel_backward_phase", MW_OP_DP, ANY_PC, 0, 0}}};
    struct kstat ks[2];
    int nk = walk("graph.bc", "tiny", 3, ks, 2, tally_cb, &t);
    assert_int_equal(nk, nexp);
    for (int i = 0; i < nk; i++) assert_string_equal(t.names[i], names[i]);
    assert_int_equal(t.s[0].lanes, dag);
    assert_int_equal(t.s[1].lanes, dag);
    assert_int_equal(t.s[2].lanes, reached);
    assert_int_equal(t.s[3].insts, 9 * t.s[1].insts); /* per DAG-edge warp step: 9 double-precision ops */
    /* kernel_init: three coalesced stores per warp (32 x 4 B: one line); the root's two */
    check_shape(&ks[0].k, 1, 1, 256, 1);
    assert_int_equal(ks[0].stores, 3 * 8 + 2);
    assert_int_equal(at(&ks[0], 0x30)->max_lines, 1);
    /* the first forward phase: only the root walks its edges, one sigma atomic per neighbour */
    assert_int_equal(at(&ks[1], 0x130)->n, deg(&g, 0));
    tally_free(&t);
    free(d);
    mw_wl_graph_free(&g);
    check_determinism("graph.bc");
}


/* ---- TC ---- */

static uint64_t align256(uint64_t x) { return (x + 255) & ~255ull; }

struct tc_check {
    const struct mw_graph *g;
    uint32_t *srt;            /* each neighbour list sorted */
    uint64_t elist;           /* base of elist: after vplist, tcount and vlist (cudaMalloc order) */
    uint64_t a_idx[MW_WARP_SIZE];
    uint64_t matches, outside, st_local, ld_local, sort_mem, step2_atoms, step3_atoms, step3_lines;
};
static uint32_t owner(const struct mw_graph *g, uint64_t i)
{
    uint32_t lo = 0, hi = g->n; /* the u with row[u] <= i < row[u + 1] */
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (g->row[mid] <= i) lo = mid;
        else hi = mid;
    }
    return lo;
}
static void tc_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    struct tc_check *c = arg;
    if (strcmp(k->name, "kernel_step1") == 0) {
        c->st_local += in->op == MW_OP_ST_LOCAL ? (uint64_t)__builtin_popcount(in->mask) : 0;
        c->ld_local += in->op == MW_OP_LD_LOCAL ? (uint64_t)__builtin_popcount(in->mask) : 0;
        if ((in->op == MW_OP_LD_GLOBAL || in->op == MW_OP_ST_GLOBAL) && in->width == 8 && in->pc >= 0x100)
            for (int l = 0; l < MW_WARP_SIZE; l++)
                if (in->mask >> l & 1u) {
                    uint64_t i = (in->addr[l] - c->elist) / 8;
                    c->sort_mem++;
                    if (in->addr[l] < c->elist || i >= c->g->m || owner(c->g, i) % 32 != (uint32_t)l) c->outside++;
                }
    }
    if (strcmp(k->name, "kernel_step2") == 0) {
        if (in->op == MW_OP_ATOMIC) c->step2_atoms += (uint64_t)__builtin_popcount(in->mask);
        if (in->pc == 0x100)
            for (int l = 0; l < MW_WARP_SIZE; l++) c->a_idx[l] = (in->addr[l] - c->elist) / 8;
        if (in->pc == 0x120)
            for (int l = 0; l < MW_WARP_SIZE; l++)
                if (in->mask >> l & 1u) c->matches += c->srt[c->a_idx[l]] == c->srt[(in->addr[l] - c->elist) / 8];
    }
    if (strcmp(k->name, "kernel_step3") == 0 && in->op == MW_OP_ATOMIC)
        c->step3_atoms += (uint64_t)__builtin_popcount(in->mask), c->step3_lines += lines_of(in);
}
static int cmp32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* tiny: 128 vertices, 512 stored edges. Every triangle u < v < w is found once by each of its three edges'
 * merges (only the endpoint with the smaller id intersects), so equal pairs read by the merge = 3 x the
 * brute-force triangle count; step2 adds twice per edge u < v (both directions stored: m atomics); the quicksort
 * of step1 touches only its own vertex's list and pops every range it pushes. */
static void test_tc(void **state)
{
    (void)state;
    struct mw_graph g;
    assert_int_equal(mw_wl_graph_rmat(128, 512, 2, &g), 0);
    uint64_t tri = 0;
    for (uint32_t u = 0; u < g.n; u++)
        for (uint32_t i = g.row[u]; i < g.row[u + 1]; i++)
            for (uint32_t j = g.row[u]; j < g.row[u + 1]; j++) {
                uint32_t v = g.col[i], x = g.col[j];
                if (u < v && v < x && has_edge(&g, v, x)) tri++;
            }
    assert_true(tri > 10);
    struct tc_check c = {.g = &g, .srt = malloc(g.m * sizeof *c.srt)};
    memcpy(c.srt, g.col, g.m * sizeof *c.srt);
    for (uint32_t u = 0; u < g.n; u++) qsort(c.srt + g.row[u], deg(&g, u), sizeof *c.srt, cmp32);
    c.elist = 0x10000000ull + align256(g.n * 4) + align256(4) + align256((g.n + 1) * 8);
    struct kstat ks[4];
    assert_int_equal(walk("graph.tc", "tiny", 2, ks, 4, tc_cb, &c), 4);
    assert_string_equal(ks[1].k.name, "kernel_step1");
    assert_string_equal(ks[3].k.name, "kernel_step3");
    check_shape(&ks[2].k, 1, 1, 128, 1);
    assert_int_equal(c.matches, 3 * tri);
    assert_int_equal(c.step2_atoms, g.m);
    assert_int_equal(c.step3_atoms, g.n);
    assert_int_equal(c.step3_lines, g.n / 32); /* one address, d_tcount */
    assert_true(c.sort_mem > g.m);
    assert_int_equal(c.outside, 0);
    assert_true(c.st_local > 0);
    assert_int_equal(c.st_local, c.ld_local);
    free(c.srt);
    mw_wl_graph_free(&g);
    check_determinism("graph.tc");
}


/* ---- GC ---- */

/* The colour of each vertex read back from the stream: launch k of `kernel` stores vplist[vid] = k (vplist is
 * the first allocation, 0x10000000). */
struct gc_check {
    uint32_t *color, n, launch;
    uint64_t recolour, stray, over_lanes;
    uint32_t last_id;
};
static void gc_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    struct gc_check *c = arg;
    if (strcmp(k->name, "kernel") != 0) return;
    if (k->id != c->last_id) c->last_id = k->id, c->launch++;
    if (in->op != MW_OP_ST_GLOBAL) return;
    if (in->width == 1) {
        c->over_lanes += (uint64_t)__builtin_popcount(in->mask);
        return;
    }
    for (int l = 0; l < MW_WARP_SIZE; l++)
        if (in->mask >> l & 1u) {
            uint64_t v = (in->addr[l] - 0x10000000ull) / 4;
            if (v >= c->n) c->stray++;
            else if (c->color[v] != UINT32_MAX) c->recolour++;
            else c->color[v] = c->launch - 1;
        }
}

/* Every vertex gets exactly one colour, no edge joins two vertices of one colour, the last launch colours the
 * last vertices, and each round's losers (uncoloured afterwards) each clear *device_over once. */
static void test_gc(void **state)
{
    (void)state;
    struct mw_graph g;
    struct mw_err e = {0};
    assert_int_equal(mw_wl_graph_input("tiny", 6, &g, &e), 0);
    struct gc_check c = {.color = malloc(g.n * sizeof *c.color), .n = g.n};
    for (uint32_t v = 0; v < g.n; v++) c.color[v] = UINT32_MAX;
    struct kstat ks[2];
    int nk = walk("graph.gc", "tiny", 6, ks, 2, gc_cb, &c);
    assert_int_equal(c.launch, nk - 1);
    assert_int_equal(c.stray, 0);
    assert_int_equal(c.recolour, 0);
    uint32_t maxc = 0;
    uint64_t losers = 0;
    for (uint32_t v = 0; v < g.n; v++) {
        assert_true(c.color[v] != UINT32_MAX);
        if (c.color[v] > maxc) maxc = c.color[v];
        losers += c.color[v];
        for (uint32_t i = g.row[v]; i < g.row[v + 1]; i++) assert_true(c.color[g.col[i]] != c.color[v]);
    }
    assert_int_equal(nk - 1, maxc + 1);
    assert_true(maxc >= 3);
    assert_int_equal(c.over_lanes, losers); /* v loses in rounds 0 .. color[v] - 1 */
    /* round 0: every vertex reads vplist[tid] (one line per warp) and, being uncoloured, its randlist[vid] */
    check_shape(&ks[1].k, 1, 1, 256, 1);
    assert_int_equal(at(&ks[1], 0x30)->n, 8);
    assert_int_equal(at(&ks[1], 0x30)->max_lines, 1);
    assert_int_equal(at(&ks[1], 0x80)->n, 8);
    free(c.color);
    mw_wl_graph_free(&g);
    check_determinism("graph.gc");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rmat),
        cmocka_unit_test(test_sssp),
        cmocka_unit_test(test_cc),
        cmocka_unit_test(test_dc),
        cmocka_unit_test(test_bc),
        cmocka_unit_test(test_tc),
        cmocka_unit_test(test_gc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
