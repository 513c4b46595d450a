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

#define FOR_LANES(m, l)                                                                                      \
    for (int l = 0; l < MW_WARP_SIZE; l++)                                                                   \
        if ((m) >> l & 1u)

/* Lane and instruction counts of one (kernel name, op[, pc]) selection over a whole run, the launch order, the
 * highest shared-memory byte touched, and a hash of the instruction stream. */
#define ANY_PC UINT64_MAX
struct sel {
    const char *kname;
    uint8_t op;
    uint64_t pc;
    uint64_t lanes, insts;
    int only; /* 0: every launch; k: launch k - 1 only */
};
struct tally {
    struct sel s[10];
    int ns;
    uint64_t hash, shmax;
    char names[4096][40]; /* launch order */
    int nk;
    uint32_t last_id;
    bool started;
};
static void tally_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    struct tally *t = arg;
    if ((!t->started || k->id != t->last_id) && t->nk < 4096) {
        snprintf(t->names[t->nk++], sizeof t->names[0], "%.39s", k->name);
        t->last_id = k->id, t->started = true;
    }
    for (int i = 0; i < t->ns; i++) {
        struct sel *s = &t->s[i];
        if (strcmp(k->name, s->kname) == 0 && in->op == s->op && (s->pc == ANY_PC || in->pc == s->pc) &&
            (!s->only || walk_kernel + 1 == (uint32_t)s->only))
            s->lanes += (uint64_t)__builtin_popcount(in->mask), s->insts++;
    }
    t->hash = t->hash * 1099511628211ull ^ in->pc ^ (uint64_t)in->mask << 20 ^ in->op;
    if (mw_op_is_mem(in->op) && in->op != MW_OP_LD_CONST) /* constant loads carry no address */
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
    t->s[0] = (struct sel){"DijkstraKernel1", MW_OP_ATOMIC, ANY_PC, 0, 0, 0};
    t->s[1] = (struct sel){"DijkstraKernel2", MW_OP_ST_GLOBAL, 0x50, 0, 0, 0};
    t->s[2] = (struct sel){"DijkstraKernel1", MW_OP_ST_GLOBAL, ANY_PC, 0, 0, 0};
    t->s[3] = (struct sel){"DijkstraKernel1", MW_OP_LD_GLOBAL, 0x90, 0, 0, 0};
    t->s[4] = (struct sel){"DijkstraKernel2", MW_OP_ST_GLOBAL, 0x90, 0, 0, 0};
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

/* ---- rodinia.mergesort ---- */

struct msck {
    struct tally *t;
    uint64_t n, in_base, out_base, res_base;
    uint32_t last_piv[MW_WARP_SIZE][2]; /* bucketcount: per lane the previous pivot index and loads so far */
    uint64_t piv_loads, bad_steps;
    uint8_t *out_seen, *pack_seen;
    uint64_t dup, out_min, out_max, pack_stores;
    uint64_t pass_st_lanes[40];
    int pass, hist_rounds;
};
static void ms_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    struct msck *c = arg;
    tally_cb(c->t, k, in);
    if (strcmp(k->name, "bucketcount") == 0 && in->op == MW_OP_LD_GLOBAL && (in->pc == 0xa0 || in->pc == 0xc0)) {
        /* pivot loads: 511 first, then idx +- 256, 128, ..., 1 */
        FOR_LANES(in->mask, l)
        {
            uint32_t idx = (uint32_t)((in->addr[l] - (c->res_base)) / 4);
            uint32_t step = c->last_piv[l][1];
            if (in->pc == 0xa0) {
                if (idx != 511) c->bad_steps++;
                c->last_piv[l][1] = 1;
            } else {
                uint32_t jump = 256u >> (step - 1), prev = c->last_piv[l][0];
                if (idx != prev + jump && idx + jump != prev) c->bad_steps++;
                c->last_piv[l][1] = step + 1;
            }
            c->last_piv[l][0] = idx;
            c->piv_loads++;
        }
    }
    if (strcmp(k->name, "bucketsort") == 0 && in->op == MW_OP_ST_GLOBAL)
        FOR_LANES(in->mask, l)
        {
            uint64_t i = (in->addr[l] - c->out_base) / 4;
            if (i < c->out_min) c->out_min = i;
            if (i > c->out_max) c->out_max = i;
            if (c->out_seen[i]++) c->dup++;
        }
    if (strcmp(k->name, "mergepack") == 0 && in->op == MW_OP_ST_GLOBAL)
        FOR_LANES(in->mask, l)
        {
            /* the final list is d_input or d_output, as the number of passes falls */
            uint64_t i = (in->addr[l] - (in->addr[l] >= c->out_base ? c->out_base : c->in_base)) / 4;
            if (i >= c->n || c->pack_seen[i]++) c->dup++;
            c->pack_stores++;
        }
    if (strcmp(k->name, "mergeSortPass") == 0 && in->op == MW_OP_ST_GLOBAL)
        c->pass_st_lanes[c->t->nk - 6] += (uint64_t)__builtin_popcount(in->mask);
}

static void test_mergesort(void **state)
{
    (void)state;
    const uint64_t seed = 7, n = 16384;
    /* device arrays (256 B aligned, cudaMalloc order): d_input, d_output of n + 4096 floats, d_Result1024,
     * l_pivotpoints */
    uint64_t lb = ((n + 4096) * 4 + 255) & ~255ull;
    struct msck c = {.n = n, .in_base = 0x10000000ull, .out_base = 0x10000000ull + lb,
                     .res_base = 0x10000000ull + 2 * lb + 4096, .out_min = UINT64_MAX};
    c.t = tally_new();
    c.out_seen = calloc(n + 4096, 1), c.pack_seen = calloc(n, 1);
    c.t->ns = 6;
    c.t->s[0] = (struct sel){"histogram1024Kernel", MW_OP_ATOMIC, ANY_PC, 0, 0, 0};
    c.t->s[1] = (struct sel){"histogram1024Kernel", MW_OP_LD_GLOBAL, ANY_PC, 0, 0, 0};
    c.t->s[2] = (struct sel){"histogram1024Kernel", MW_OP_LD_SHARED, 0xe0, 0, 0, 0};
    c.t->s[3] = (struct sel){"bucketcount", MW_OP_ST_GLOBAL, ANY_PC, 0, 0, 0};
    c.t->s[4] = (struct sel){"bucketsort", MW_OP_LD_GLOBAL, ANY_PC, 0, 0, 0};
    c.t->s[5] = (struct sel){"mergepack", MW_OP_LD_GLOBAL, ANY_PC, 0, 0, 0};
    struct kstat ks[6];
    int nk = walk("rodinia.mergesort", "tiny", seed, ks, 6, ms_cb, &c);
    const char *head[] = {"histogram1024Kernel", "bucketcount", "bucketprefixoffset", "bucketsort", "mergeSortFirst"};
    for (int i = 0; i < 5; i++) assert_string_equal(c.t->names[i], head[i]);
    for (int i = 5; i < nk - 1; i++) assert_string_equal(c.t->names[i], "mergeSortPass");
    assert_string_equal(c.t->names[nk - 1], "mergepack");
    /* histogram: 64 CTAs x 192 threads, six 1024-bin warp histograms (24 KB); every element read once; one
     * atomicAdd per bin per CTA */
    check_shape(&ks[0].k, 64, 1, 192, 1);
    assert_int_equal(ks[0].k.shmem, 6 * 1024 * 4);
    assert_int_equal(c.t->s[1].lanes, n);
    assert_int_equal(c.t->s[0].lanes, 64 * 1024);
    /* the collision loop runs, per warp step, as many rounds as the most frequent bin among its lanes */
    float mn = 2, mx = -1;
    for (uint32_t i = 0; i < n; i++) {
        float x = mw_wl_mergesort_value(seed, i);
        mn = x < mn ? x : mn, mx = x > mx ? x : mx;
    }
    uint64_t rounds = 0;
    for (uint64_t base = 0; base < n; base += 32) {
        uint32_t bins[32], most = 0;
        for (int l = 0; l < 32; l++)
            bins[l] = (uint32_t)((mw_wl_mergesort_value(seed, (uint32_t)(base + l)) - mn) / (mx - mn) * 1024.0f) & 0x3ffu;
        for (int l = 0; l < 32; l++) {
            uint32_t m = 0;
            for (int j = 0; j < 32; j++) m += bins[j] == bins[l];
            most = m > most ? m : most;
        }
        rounds += most;
    }
    assert_int_equal(c.t->s[2].insts, rounds);
    /* bucketcount: ceil(n / (32 * 128)) = 4 CTAs of one warp, a 1024-word counter each; per element the input
     * and 10 pivot loads (511, then +-256 ... +-1), one indice store; 1024 prefix stores per CTA */
    check_shape(&ks[1].k, 4, 1, 32, 1);
    assert_int_equal(ks[1].k.shmem, 4096);
    assert_int_equal(c.piv_loads, 10 * n);
    assert_int_equal(c.bad_steps, 0);
    assert_int_equal(at(&ks[1], 0xa0)->max_lines, 1); /* every lane reads pivot 511 */
    assert_int_equal(c.t->s[3].lanes, n + 4 * 1024);
    check_shape(&ks[2].k, 8, 1, 128, 1);
    /* bucketsort: every element scattered once to its own slot; the buckets' padding adds at most 3 per bucket */
    assert_int_equal(c.t->s[4].lanes, 2 * n + 2 * 4 * 1024); /* l_offsets and prefix, 1024 each per CTA; input, indice per element */
    assert_int_equal(c.dup, 0);
    assert_true(c.out_max + 1 - c.out_min >= n && c.out_max < n + 3 * 1024);
    /* mergeSortFirst: one float4 per thread, 16 B lanes: 4 lines per warp access */
    assert_int_equal(at(&ks[4], 0x30)->max_lines, 4);
    assert_int_equal(at(&ks[4], 0xe0)->max_lines, 4);
    /* each pass writes every float4 of the padded list once; the passes double the run length until one thread
     * covers the largest bucket */
    uint64_t list4 = ks[4].k.grid[0] * 256ull; /* upper bound */
    for (int i = 5; i < nk - 1; i++) {
        assert_true(c.pass_st_lanes[i - 5] * 4 >= n && c.pass_st_lanes[i - 5] <= list4);
        assert_int_equal(c.pass_st_lanes[i - 5], c.pass_st_lanes[0]);
    }
    assert_true(nk - 6 >= 2);
    /* mergepack: n elements read and written once, to exactly [0, n) */
    assert_int_equal(c.t->s[5].lanes, n);
    assert_int_equal(c.pack_stores, n);
    assert_int_equal(c.t->shmax, 6 * 1024 * 4);
    free(c.t), free(c.out_seen), free(c.pack_seen);
    check_determinism("rodinia.mergesort", true);
}

/* ---- lonestar.sp ---- */

/* SP on the formula of a seed (N variables, M clauses, 3 literals), from eta drawn as the model draws them: the
 * number of calc_pi_values/update_eta pairs until max eps <= 0.01 (nothing satisfied yet). */
static int sp_iterations(uint64_t seed, uint32_t N, uint32_t M)
{
    uint32_t E = 3 * M, *var = malloc(E * 4);
    bool *neg = malloc(E);
    float *eta = malloc(E * 4), *p0 = malloc(E * 4), *ps = malloc(E * 4), *pu = malloc(E * 4);
    for (uint32_t c = 0; c < M; c++)
        for (int k = 0; k < 3; k++) mw_wl_sp_literal(seed, N, c, k, &var[3 * c + k], &neg[3 * c + k]);
    /* the model's eta draw: splitmix64 from seed ^ "etaEtaEt", top 24 bits */
    uint64_t z = seed ^ 0x6574614574614574ull;
    for (uint32_t e = 0; e < E; e++) {
        uint64_t x = (z += 0x9e3779b97f4a7c15ull);
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
        eta[e] = (float)((x ^ (x >> 31)) >> 40) / (float)(1u << 24);
    }
    int it = 0;
    float maxeps;
    do {
        for (uint32_t e = 0; e < E; e++) { /* over the other clauses b of variable var[e] */
            float a0 = 1, vs = 1, vu = 1;
            for (uint32_t f = 0; f < E; f++) {
                if (var[f] != var[e] || f / 3 == e / 3) continue;
                a0 *= 1 - eta[f];
                if (neg[f] == neg[e]) vs *= 1 - eta[f];
                else vu *= 1 - eta[f];
            }
            p0[e] = a0, pu[e] = (1 - vu) * vs, ps[e] = (1 - vs) * vu;
        }
        maxeps = 0;
        for (uint32_t e = 0; e < E; e++) {
            float ne = 1;
            for (uint32_t f = e / 3 * 3; f < e / 3 * 3 + 3; f++)
                if (f != e) ne *= pu[f] / (p0[f] + ps[f] + pu[f]);
            if (fabsf(ne - eta[e]) > maxeps) maxeps = fabsf(ne - eta[e]);
            eta[e] = ne;
        }
        it++;
    } while (maxeps > 0.01f && it <= 1000);
    free(var), free(neg), free(eta), free(p0), free(ps), free(pu);
    return it;
}

static void test_sp(void **state)
{
    (void)state;
    const uint64_t seed = 2;
    const uint32_t N = 250, M = 950, E = 3 * M;
    int it = sp_iterations(seed, N, M);
    assert_true(it > 3 && it < 1000);
    /* hand count for the first calc_pi_values (nothing satisfied): edge a -> j reads the eta of every other edge
     * of variable j: sum over variables of deg (deg - 1); update_eta reads pi_0, pi_S, pi_U of the 2 other edges
     * of its clause */
    uint32_t *deg = calloc(N, 4);
    for (uint32_t c = 0; c < M; c++)
        for (int k = 0; k < 3; k++) {
            uint32_t v;
            bool ng;
            mw_wl_sp_literal(seed, N, c, k, &v, &ng);
            deg[v]++;
        }
    uint64_t pairs = 0;
    for (uint32_t v = 0; v < N; v++) pairs += (uint64_t)deg[v] * (deg[v] ? deg[v] - 1 : 0);
    struct tally *t = tally_new();
    t->ns = 7;
    t->s[0] = (struct sel){"calc_pi_values", MW_OP_LD_GLOBAL, 0x130, 0, 0, 1};
    t->s[1] = (struct sel){"update_eta", MW_OP_LD_GLOBAL, 0x140, 0, 0, 2};
    t->s[6] = (struct sel){"calc_pi_values", MW_OP_ST_GLOBAL, ANY_PC, 0, 0, 1};
    t->s[2] = (struct sel){"update_bias", MW_OP_ATOMIC, 0x220, 0, 0, 0};
    t->s[3] = (struct sel){"decimate_2", MW_OP_ST_GLOBAL, 0x60, 0, 0, 0};
    t->s[4] = (struct sel){"update_eta", MW_OP_ST_GLOBAL, ANY_PC, 0, 0, 0};
    t->s[5] = (struct sel){"calc_pi_values", MW_OP_ST_GLOBAL, ANY_PC, 0, 0, 0};
    struct kstat ks[3];
    int nk = walk("lonestar.sp", "tiny", seed, ks, 3, tally_cb, t);
    /* converge: it pairs; update_bias; decimate_2 (this seed is not paramagnetic); the one round of tiny ends */
    for (int i = 0; i < it; i++) {
        assert_string_equal(t->names[2 * i], "calc_pi_values");
        assert_string_equal(t->names[2 * i + 1], "update_eta");
    }
    assert_string_equal(t->names[2 * it], "update_bias");
    assert_string_equal(t->names[2 * it + 1], "decimate_2");
    assert_int_equal(nk, 2 * it + 2);
    /* the first launch's eta loads; the first update_eta's pi_0 loads; the first launch's pi stores */
    assert_int_equal(t->s[0].lanes, pairs);
    assert_int_equal(t->s[1].lanes, 2 * E);
    assert_int_equal(t->s[6].lanes, 3 * E);
    assert_int_equal(t->s[2].lanes, N);       /* one atomicAdd(bias_len) per unsatisfied variable */
    assert_int_equal(t->s[3].lanes, N / 100); /* canfix = 1 % of the variables */
    /* per launch the stores of every unsatisfied edge: 3 pi arrays, 1 eta */
    assert_true(t->s[5].lanes >= 3ull * E * it && t->s[4].lanes >= (uint64_t)E * it);
    check_shape(&ks[0].k, 45, 1, 384, 1);
    check_shape(&ks[1].k, 45, 1, 384, 1);
    assert_int_equal(at(&ks[0], 0x30)->max_lines, 1); /* ed.dst[edndx]: 32 consecutive ints */
    assert_int_equal(at(&ks[1], 0x200)->max_lines, 1); /* ed.eta[edndx] store */
    free(deg), free(t);
    check_determinism("lonestar.sp", true);
}

/* ---- lonestar.pta ---- */

static uint64_t t_splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void test_pta(void **state)
{
    (void)state;
    const uint64_t seed = 3;
    const uint32_t V = 512, W = 60 * 8;
    struct mw_graph g;
    assert_int_equal(mw_wl_graph_rmat(V, 4096, seed, &g), 0);
    /* difference propagation over the copy edges v -> z (z > v a neighbour) from x = &o for every fourth x: per
     * iteration the variables whose next difference set is not empty */
    uint8_t *pts = calloc(V * V, 1), *cur = calloc(V * V, 1), *nxt = calloc(V * V, 1);
    uint64_t z = seed ^ 0x707461ull;
    for (uint32_t v = 0; v < V; v += 4) {
        uint32_t o = (uint32_t)(t_splitmix(&z) % V);
        pts[v * V + o] = cur[v * V + o] = 1;
    }
    int iters = 0;
    uint64_t active = 0;
    for (;;) {
        bool any = false;
        for (uint32_t i = 0; i < V * V && !any; i++) any = cur[i];
        if (!any) break;
        iters++;
        for (uint32_t x = 0; x < V; x++)
            for (uint32_t i = g.row[x]; i < g.row[x + 1]; i++)
                if (g.col[i] > x)
                    for (uint32_t o = 0; o < V; o++) nxt[g.col[i] * V + o] |= cur[x * V + o];
        for (uint32_t v = 0; v < V; v++) {
            bool a = false;
            for (uint32_t o = 0; o < V; o++) {
                a |= nxt[v * V + o];
                cur[v * V + o] = nxt[v * V + o] && !pts[v * V + o];
                pts[v * V + o] |= cur[v * V + o];
                nxt[v * V + o] = 0;
            }
            active += a;
        }
    }
    assert_true(iters >= 3);
    struct tally *t = tally_new();
    t->ns = 3;
    t->s[0] = (struct sel){"copyInv_loadInv_store2storeInv", MW_OP_ATOMIC, 0x0, 0, 0, 1};
    t->s[1] = (struct sel){"updatePtsInformation", MW_OP_ST_GLOBAL, 0xd0, 0, 0, 0};
    t->s[2] = (struct sel){"updatePtsInformation", MW_OP_ATOMIC, 0x0, 0, 0, 0};
    struct kstat ks[2];
    int nk = walk("lonestar.pta", "tiny", seed, ks, 2, tally_cb, t);
    assert_int_equal(nk, 2 * iters);
    for (int i = 0; i < nk; i++)
        assert_string_equal(t->names[i], i % 2 ? "updatePtsInformation" : "copyInv_loadInv_store2storeInv");
    /* every warp takes variables until the worklist runs out: V grabs that get a variable, one more per warp */
    assert_int_equal(t->s[0].lanes, V + W);
    assert_int_equal(t->s[2].lanes, (uint64_t)iters * (V + W));
    /* the next difference's head reset: once per variable that had a non-empty next difference */
    assert_int_equal(t->s[1].lanes, active);
    /* 60 CTAs of (32, 8); each element access is one 128 B line */
    check_shape(&ks[0].k, 60, 1, 32, 8);
    assert_int_equal(at(&ks[0], 0x60)->max_lines, 1);
    assert_int_equal(at(&ks[0], 0xa0)->max_lines, 1);
    assert_int_equal(at(&ks[0], 0xf0)->max_lines, 1);
    assert_int_equal(at(&ks[1], 0x60)->max_lines, 1);
    free(pts), free(cur), free(nxt), free(t);
    mw_wl_graph_free(&g);
    check_determinism("lonestar.pta", true);
}

/* ---- rodinia.nn ---- */

static void test_nn(void **state)
{
    (void)state;
    struct tally *t = tally_new();
    t->ns = 3;
    t->s[0] = (struct sel){"euclid", MW_OP_LD_GLOBAL, ANY_PC, 0, 0, 0};
    t->s[1] = (struct sel){"euclid", MW_OP_ST_GLOBAL, ANY_PC, 0, 0, 0};
    t->s[2] = (struct sel){"euclid", MW_OP_SFU, ANY_PC, 0, 0, 0};
    struct kstat ks[1];
    assert_int_equal(walk("rodinia.nn", "tiny", 1, ks, 1, tally_cb, t), 1);
    /* 4096 records in 16 blocks of 256; two loads (lat, lng), one sqrt and one store per record */
    check_shape(&ks[0].k, 16, 1, 256, 1);
    assert_int_equal(t->s[0].lanes, 2 * 4096);
    assert_int_equal(t->s[1].lanes, 4096);
    assert_int_equal(t->s[2].lanes, 4096);
    assert_int_equal(ks[0].thread_loads0, 2);
    /* 8-byte records: a warp's lat (or lng) loads cover 256 B = 2 lines; the 4-byte distances one line */
    assert_int_equal(at(&ks[0], PRO(3))->max_lines, 2);
    assert_int_equal(at(&ks[0], PRO(4))->max_lines, 2);
    assert_int_equal(at(&ks[0], PRO(11))->max_lines, 1);
    /* default: Rodinia's 42,764 records, the last block partly idle */
    struct mw_kernel kk[1];
    assert_int_equal(shapes("rodinia.nn", "default", kk, 1), 1);
    check_shape(&kk[0], 168, 1, 256, 1);
    free(t);
    check_determinism("rodinia.nn", false);
}

/* ---- rodinia.leukocyte ---- */

static void test_leukocyte(void **state)
{
    (void)state;
    const int64_t m = 64, n = 64; /* tiny: a 64 x 64 gradient image */
    struct tally *t = tally_new();
    t->ns = 5;
    t->s[0] = (struct sel){"GICOV_kernel", MW_OP_LD_GLOBAL, ANY_PC, 0, 0, 0};
    t->s[1] = (struct sel){"GICOV_kernel", MW_OP_ST_GLOBAL, ANY_PC, 0, 0, 0};
    t->s[2] = (struct sel){"GICOV_kernel", MW_OP_LD_CONST, ANY_PC, 0, 0, 0};
    t->s[3] = (struct sel){"dilate_kernel", MW_OP_LD_GLOBAL, ANY_PC, 0, 0, 0};
    t->s[4] = (struct sel){"dilate_kernel", MW_OP_ST_GLOBAL, ANY_PC, 0, 0, 0};
    struct kstat ks[2];
    assert_int_equal(walk("rodinia.leukocyte", "tiny", 1, ks, 2, tally_cb, t), 2);
    /* GICOV: blocks = n - 2 MaxR, threads = m - 2 MaxR (MaxR = 22); per pixel 7 circles x 150 points, two
     * gradient fetches and four constant loads (tX, tY, cos, sin) each; one store */
    check_shape(&ks[0].k, 20, 1, 20, 1);
    assert_int_equal(t->s[0].lanes, 20 * 20 * 7 * 150 * 2);
    assert_int_equal(t->s[2].lanes, 20 * 20 * 7 * 150 * 4);
    assert_int_equal(t->s[1].lanes, 20 * 20);
    assert_int_equal(ks[0].thread_loads0, 7 * 150 * 2);
    /* dilate: round(m n / 176) blocks of 176; per thread (i = tid % m, j = tid / m) a strel fetch for every
     * element whose row and column are inside the image, an image fetch where the disk (radius 12) is set */
    uint32_t blocks = (uint32_t)((double)(m * n) / 176 + 0.5);
    check_shape(&ks[1].k, blocks, 1, 176, 1);
    uint64_t loads = 0;
    for (int64_t tid = 0; tid < (int64_t)blocks * 176; tid++) {
        int64_t i = tid % m, j = tid / m;
        for (int a = 0; a < 25; a++) {
            int64_t y = i - 12 + a;
            if (y < 0 || y >= m) continue;
            for (int b = 0; b < 25; b++) {
                int64_t x = j - 12 + b;
                if (x < 0 || x >= n) continue;
                loads += 1 + ((a - 12) * (a - 12) + (b - 12) * (b - 12) <= 144);
            }
        }
    }
    assert_int_equal(t->s[3].lanes, loads);
    assert_int_equal(t->s[4].lanes, (uint64_t)blocks * 176);
    /* dilated[i * img_n + j]: a warp's 32 rows of one column, 32 lines */
    const struct pcstat *stp = NULL;
    for (int q = 0; q < ks[1].npc; q++)
        if (ks[1].pc[q].op == MW_OP_ST_GLOBAL) stp = &ks[1].pc[q];
    assert_non_null(stp);
    assert_int_equal(stp->max_lines, 32);
    free(t);
    check_determinism("rodinia.leukocyte", false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gsssp),
        cmocka_unit_test(test_mergesort),
        cmocka_unit_test(test_sp),
        cmocka_unit_test(test_pta),
        cmocka_unit_test(test_nn),
        cmocka_unit_test(test_leukocyte),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
