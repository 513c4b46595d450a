/* SSSP of the GPGPU-Sim-era benchmark collections: Harish and Narayanan's CUDA SSSP (HiPC'07, "Accelerating large
 * graph algorithms on the GPU using CUDA"), the two-kernel mask structure of Rodinia BFS. 512-thread CTAs, one
 * thread per vertex; Kernel1 relaxes the out-edges of the masked vertices with atomicMin into the updating cost,
 * Kernel2 folds the updating cost into the cost, re-masks the improved vertices and sets the over flag; the host
 * repeats both until nothing improves. Which SSSP the thesis ran is not named beyond "GPGPU-Sim"; the SSSP these
 * collections carry is this one (the Kernel/Kernel2 pair of Rodinia BFS is derived from it).
 *
 * Input: the seeded R-MAT graph of the graph models (hub vertices whose neighbour lists many SMs read at once)
 * with a seeded integer weight 1..10 per stored edge; the source is vertex 0, or the first vertex after it with an
 * edge (R-MAT leaves some vertices isolated). */
#include "wl_graph.h"

#include <stdio.h>
#include <stdlib.h>

#define SSSP_THREADS 512 /* MAX_THREADS_PER_BLOCK */
#define SSSP_INF 0x7fffffffu

struct gsssp {
    struct mw_graph g;
    uint32_t *w;        /* per stored edge, 1..10 */
    uint32_t root, iters;
    size_t words;
    uint64_t *act;      /* iters + 1 bitmaps: mask[v] when Kernel1 of iteration k starts */
    uint64_t nodes, edges, weights, mask, cost, upd, over;
    struct gsssp_launch *l;
};
struct gsssp_launch {
    uint64_t nthreads;  /* first: the guard tid < n reads it */
    const struct gsssp *s;
    uint32_t k;
};

static void gsssp_free(void *p)
{
    struct gsssp *s = p;
    if (!s) return;
    mw_wl_graph_free(&s->g);
    free(s->w), free(s->act), free(s->l), free(s);
}

/* The weight of stored edge i (exported for the tests through mw_wl_gsssp_weight). */
uint32_t mw_wl_gsssp_weight(uint64_t seed, uint32_t i)
{
    uint64_t s = seed * 0x9e3779b97f4a7c15ull + 0x5353535ull + (uint64_t)i * 0xd1b54a32d192ed03ull;
    return (uint32_t)(gr_splitmix(&s) % 10) + 1;
}

/* The two kernels' Bellman-Ford, run on the host to know each launch's mask. */
static int gsssp_run(struct gsssp *s)
{
    const struct mw_graph *g = &s->g;
    uint32_t *cost = malloc((size_t)g->n * sizeof *cost), *upd = malloc((size_t)g->n * sizeof *upd);
    int rc = -1;
    s->words = ((size_t)g->n + 63) / 64;
    size_t cap = 8;
    s->act = calloc(cap * s->words, sizeof *s->act);
    if (!cost || !upd || !s->act) goto out;
    for (uint32_t v = 0; v < g->n; v++) cost[v] = upd[v] = SSSP_INF;
    cost[s->root] = upd[s->root] = 0;
    gr_setbit(s->act, s->root);
    for (uint32_t k = 0;; k++) {
        if (k + 2 > cap) {
            uint64_t *a = realloc(s->act, 2 * cap * s->words * sizeof *a);
            if (!a) goto out;
            memset(a + cap * s->words, 0, cap * s->words * sizeof *a);
            s->act = a, cap *= 2;
        }
        const uint64_t *cur = s->act + k * s->words;
        uint64_t *next = s->act + (k + 1) * s->words;
        for (uint32_t v = 0; v < g->n; v++)
            if (gr_bit(cur, v))
                for (uint32_t i = g->row[v]; i < g->row[v + 1]; i++)
                    if (cost[v] + s->w[i] < upd[g->col[i]]) upd[g->col[i]] = cost[v] + s->w[i];
        bool over = false;
        for (uint32_t v = 0; v < g->n; v++) {
            if (cost[v] > upd[v]) cost[v] = upd[v], gr_setbit(next, v), over = true;
            upd[v] = cost[v];
        }
        if (!over) {
            s->iters = k + 1;
            break;
        }
    }
    rc = 0;
out:
    free(cost), free(upd);
    return rc;
}

/* Kernel1: tid = blockIdx.x * 512 + threadIdx.x; if (tid < n && mask[tid]) { end = m; if (tid < n - 1) end =
 * nodes[tid + 1]; for (i = nodes[tid]; i < end; i++) { id = edges[i]; atomicMin(&upd[id], cost[tid] +
 * weights[i]); } mask[tid] = false; } -- cost[tid] is reloaded every iteration: the atomic may alias it. */
static int gen_k1(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                  struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct gsssp_launch *L = k->data;
    const struct gsssp *s = L->s;
    const struct mw_graph *g = &s->g;
    struct gr_warp *w = scratch;
    CO_BEGIN(w);
    gr_tids(w->v, t0, mask);
    gi_alu(o, 0x00, mask, 1, 0, 0); /* tid */
    CO_YIELD(w);
    gi_br(o, 0x10, mask, 1, 0); /* tid < n */
    CO_YIELD(w);
    gi_ldx(o, 0x20, mask, 1, 2, 1, s->mask, w->v); /* mask[tid] */
    CO_YIELD(w);
    w->a = gr_bits(s->act + (size_t)L->k * s->words, w->v, mask);
    gi_br(o, 0x30, mask, 2, 0);
    CO_YIELD(w);
    if (!w->a) goto done;
    gr_ranges(w, g, w->a);
    GR_WHERE(w->b, w->a, l, w->v[l] + 1 < g->n); /* tid < n - 1 */
    gi_br(o, 0x40, w->a, 1, 0);
    CO_YIELD(w);
    if (w->b) {
        gi_ld(o, 0x50, w->b, 4, 3, 1); /* end = nodes[tid + 1] */
        FOR_LANES(w->b, l) o->addr[l] = s->nodes + (w->v[l] + 1) * 4;
        CO_YIELD(w);
    }
    gi_ldx(o, 0x60, w->a, 4, 4, 1, s->nodes, w->v); /* i = nodes[tid] */
    CO_YIELD(w);
    for (w->it = 0;; w->it++) {
        w->c = gr_edge_lanes(w, w->a, NULL);
        gi_br(o, 0x70, w->a, 4, 3); /* i < end */
        CO_YIELD(w);
        if (!w->c) break;
        gi_ldx(o, 0x80, w->c, 4, 5, 4, s->edges, w->z); /* id = edges[i] */
        CO_YIELD(w);
        gi_ldx(o, 0x90, w->c, 4, 6, 1, s->cost, w->v); /* cost[tid] */
        CO_YIELD(w);
        gi_ldx(o, 0xa0, w->c, 4, 7, 4, s->weights, w->z); /* weights[i] */
        CO_YIELD(w);
        gi_alu(o, 0xb0, w->c, 8, 6, 7);
        CO_YIELD(w);
        gi_atom(o, 0xc0, w->c, 0, 5, 8); /* atomicMin(&upd[id], ...) */
        FOR_LANES(w->c, l) o->addr[l] = s->upd + (uint64_t)g->col[w->z[l]] * 4;
        CO_YIELD(w);
        gi_alu(o, 0xd0, w->c, 4, 4, 0); /* i++ */
        CO_YIELD(w);
    }
    gi_stx(o, 0xe0, w->a, 1, 1, 0, s->mask, w->v); /* mask[tid] = false */
    CO_YIELD(w);
done:
    CO_END(w);
}
enum { K1_INSTS = 0xf0 / 16 };

/* Kernel2: if (tid < n) { if (cost[tid] > upd[tid]) { cost[tid] = upd[tid]; mask[tid] = true; *over = true; }
 * upd[tid] = cost[tid]; } */
static int gen_k2(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                  struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct gsssp_launch *L = k->data;
    const struct gsssp *s = L->s;
    struct gr_warp *w = scratch;
    CO_BEGIN(w);
    gr_tids(w->v, t0, mask);
    gi_alu(o, 0x00, mask, 1, 0, 0);
    CO_YIELD(w);
    gi_br(o, 0x10, mask, 1, 0);
    CO_YIELD(w);
    gi_ldx(o, 0x20, mask, 4, 2, 1, s->cost, w->v);
    CO_YIELD(w);
    gi_ldx(o, 0x30, mask, 4, 3, 1, s->upd, w->v);
    CO_YIELD(w);
    w->a = gr_bits(s->act + (size_t)(L->k + 1) * s->words, w->v, mask);
    gi_br(o, 0x40, mask, 2, 3);
    CO_YIELD(w);
    if (w->a) {
        gi_stx(o, 0x50, w->a, 4, 1, 3, s->cost, w->v);
        CO_YIELD(w);
        gi_stx(o, 0x60, w->a, 1, 1, 0, s->mask, w->v);
        CO_YIELD(w);
        gi_flag(o, 0x70, w->a, s->over);
        CO_YIELD(w);
        gi_alu(o, 0x80, w->a, 2, 3, 0); /* the new cost in the register stored below */
        CO_YIELD(w);
    }
    gi_stx(o, 0x90, mask, 4, 1, 2, s->upd, w->v); /* upd[tid] = cost[tid] */
    CO_YIELD(w);
    CO_END(w);
}
enum { K2_INSTS = 0xa0 / 16 };

static bool guard(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    return t->gtid < *(const uint64_t *)d;
}

static struct mw_kgen_kernel *launch(struct mw_kgen_program *p, const char *name, const struct gsssp_launch *L,
                                     uint32_t nregs,
                                     int (*gen)(const struct mw_kgen_kernel *, const struct mw_tctx *, uint32_t,
                                                void *, struct mw_inst *, struct mw_err *),
                                     uint32_t ninsts)
{
    struct mw_kgen_kernel *k = mw_kgen_append(p);
    if (!k) return NULL;
    uint64_t n = L->nthreads;
    snprintf(k->k.name, sizeof k->k.name, "%s", name);
    k->k.grid[0] = (uint32_t)(n > SSSP_THREADS ? (n + SSSP_THREADS - 1) / SSSP_THREADS : 1);
    k->k.grid[1] = k->k.grid[2] = 1;
    k->k.block[0] = (uint32_t)(n > SSSP_THREADS ? SSSP_THREADS : n), k->k.block[1] = k->k.block[2] = 1;
    k->k.nregs = nregs;
    k->data = L;
    k->guard = guard;
    k->custom = gen;
    k->ninsts = ninsts;
    k->scratch_bytes = sizeof(struct gr_warp);
    return k;
}

int mw_wl_gpgpusim_sssp(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    /* tiny/small as the graph models; default 2^16 vertices and 2^19 stored edges (mean degree 8, 4.25 MB of
     * arrays: well past the 768 KB L2); paper: the thesis names no input, so the default's graph doubled twice */
    static const uint32_t nv[4] = {256, 4096, 65536, 262144}, ne[4] = {2048, 32768, 524288, 2097152};
    struct gsssp *s = calloc(1, sizeof *s);
    if (!s) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    int rc = gr_input_sized(size, seed, nv, ne, &s->g, e);
    if (rc < 0) {
        free(s);
        return rc;
    }
    struct mw_kgen_program p = {.owned = s, .free_owned = gsssp_free};
    const struct mw_graph *g = &s->g;
    s->w = malloc(((size_t)g->m + 1) * sizeof *s->w);
    if (!s->w) goto oom;
    for (uint32_t i = 0; i < g->m; i++) s->w[i] = mw_wl_gsssp_weight(seed, i);
    for (s->root = 0; s->root + 1 < g->n && g->row[s->root + 1] == g->row[s->root]; s->root++) {}
    if (gsssp_run(s) != 0) goto oom;
    uint64_t top = 0x10000000ull; /* the host's cudaMalloc order */
    s->nodes = gr_alloc(&top, (uint64_t)g->n * 4);
    s->edges = gr_alloc(&top, (uint64_t)g->m * 4);
    s->weights = gr_alloc(&top, (uint64_t)g->m * 4);
    s->mask = gr_alloc(&top, g->n);
    s->cost = gr_alloc(&top, (uint64_t)g->n * 4);
    s->upd = gr_alloc(&top, (uint64_t)g->n * 4);
    s->over = gr_alloc(&top, 4);
    s->l = calloc(s->iters, sizeof *s->l);
    if (!s->l) goto oom;
    for (uint32_t k = 0; k < s->iters; k++) {
        s->l[k] = (struct gsssp_launch){g->n, s, k};
        if (!launch(&p, "DijkstraKernel1", &s->l[k], 16, gen_k1, K1_INSTS) ||
            !launch(&p, "DijkstraKernel2", &s->l[k], 8, gen_k2, K2_INSTS))
            goto oom;
    }
    return mw_kgen_workload(w, "gpgpusim.sssp", &p, e);
oom:
    return gr_fail(&p, e);
}
