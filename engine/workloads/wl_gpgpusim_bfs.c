/* BFS of the ISPASS-2009 suite that ships with GPGPU-Sim (Bakhoda et al.; benchmarks/CUDA/BFS): Harish and
 * Narayanan's first CUDA BFS (HiPC'07), the ancestor of Rodinia's. How it differs from rodinia.bfs
 * (wl_rodinia_bfs.c):
 *  - one kernel, `Kernel`, per host iteration (Rodinia: Kernel + Kernel2); no updating mask: a frontier thread
 *    clears its own mask, sets its own visited flag, and for each unvisited neighbour writes cost, sets the
 *    neighbour's mask directly and stores *g_over = true;
 *  - MAX_THREADS_PER_BLOCK 256 (Rodinia: 512), tid = blockIdx.x * 256 + threadIdx.x;
 *  - device arrays nodes (8 B Node {starting, no_of_edges}), edges, mask, visited, cost, over (Rodinia adds the
 *    updating mask);
 *  - the shipped input data/graph65536.txt: 65,536 nodes, 393,216 stored edges (6 per node on average, random
 *    targets, degrees 1 to about 20), source 0; stood in for by the graph mw_wl_bfs_graph draws at n = 65,536,
 *    avg 6 (random pairs: a few nodes without an edge, which the file does not seem to have).
 *
 * Which threads see a neighbour's mask or visited flag set within one launch is a race in the CUDA source. The
 * model takes the order every resident warp has: a thread's mask load and its mask/visited stores are its first
 * memory instructions, long before any thread's loop loads a neighbour's visited flag. So launch L processes the
 * nodes at BFS level L, a neighbour counts as visited when its level is at most L, and the costs come out as BFS
 * levels; the host loop runs maxlevel + 1 launches (the last finds nothing and leaves *g_over false). The run-ahead
 * of CTAs that start after others have stored (a second wave reading a mask set in the same launch) is not
 * modelled.
 *
 * The loop `for (i = nodes[tid].starting; i < nodes[tid].no_of_edges + nodes[tid].starting; i++)` reloads both
 * fields for every test after the first: the store to g_cost (int) may alias them. cost[tid] is reloaded per
 * update for the same reason. */
#include "wl_graph.h"

#include <stdio.h>
#include <stdlib.h>

#define GBFS_THREADS 256 /* MAX_THREADS_PER_BLOCK of bfs.cu */

struct gbfs {
    struct mw_graph g;
    uint32_t src;
    int32_t *level, maxl;
    uint64_t nodes, edges, mask, visited, cost, over; /* device arrays */
    struct gbfs_launch *l;
};
struct gbfs_launch {
    uint64_t nthreads; /* first: the guard tid < n reads it */
    const struct gbfs *b;
    int32_t L;
};

static void gbfs_free(void *p)
{
    struct gbfs *b = p;
    if (!b) return;
    mw_wl_graph_free(&b->g);
    free(b->level), free(b->l), free(b);
}

/* Kernel: if (tid < n && mask[tid]) { mask[tid] = false; visited[tid] = true; for (i = nodes[tid].starting;
 * i < nodes[tid].no_of_edges + nodes[tid].starting; i++) { id = edges[i]; if (!visited[id]) { cost[id] =
 * cost[tid] + 1; mask[id] = true; *over = true; } } } */
static int gen_kernel(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                      struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct gbfs_launch *L = k->data;
    const struct gbfs *b = L->b;
    const struct mw_graph *g = &b->g;
    struct gr_warp *w = scratch;
    CO_BEGIN(w);
    gr_tids(w->v, t0, mask);
    gi_alu(o, 0x00, mask, 1, 0, 0); /* tid */
    CO_YIELD(w);
    gi_br(o, 0x10, mask, 1, 0); /* tid < no_of_nodes */
    CO_YIELD(w);
    gi_ldx(o, 0x20, mask, 1, 2, 1, b->mask, w->v); /* g_graph_mask[tid] */
    CO_YIELD(w);
    GR_WHERE(w->a, mask, l, b->level[w->v[l]] == L->L);
    gi_br(o, 0x30, mask, 2, 0);
    CO_YIELD(w);
    if (!w->a) goto done;
    gi_stx(o, 0x40, w->a, 1, 1, 0, b->mask, w->v); /* g_graph_mask[tid] = false */
    CO_YIELD(w);
    gi_stx(o, 0x50, w->a, 1, 1, 0, b->visited, w->v); /* g_graph_visited[tid] = true */
    CO_YIELD(w);
    gr_ranges(w, g, w->a);
    gi_ld(o, 0x60, w->a, 4, 3, 1); /* i = nodes[tid].starting */
    FOR_LANES(w->a, l) o->addr[l] = b->nodes + w->v[l] * 8;
    CO_YIELD(w);
    gi_ld(o, 0x70, w->a, 4, 4, 1); /* nodes[tid].no_of_edges */
    FOR_LANES(w->a, l) o->addr[l] = b->nodes + w->v[l] * 8 + 4;
    CO_YIELD(w);
    gi_alu(o, 0x80, w->a, 5, 3, 4); /* end */
    CO_YIELD(w);
    w->it = 0;
    w->c = gr_edge_lanes(w, w->a, NULL);
    gi_br(o, 0x90, w->a, 3, 5); /* i < end */
    CO_YIELD(w);
    while (w->c) {
        gi_ldx(o, 0xa0, w->c, 4, 6, 3, b->edges, w->z); /* id = g_graph_edges[i] */
        CO_YIELD(w);
        gi_ld(o, 0xb0, w->c, 1, 7, 6); /* g_graph_visited[id] */
        FOR_LANES(w->c, l) o->addr[l] = b->visited + g->col[w->z[l]];
        CO_YIELD(w);
        GR_WHERE(w->d, w->c, l, b->level[g->col[w->z[l]]] > L->L);
        gi_br(o, 0xc0, w->c, 7, 0);
        CO_YIELD(w);
        if (w->d) {
            gi_ldx(o, 0xd0, w->d, 4, 8, 1, b->cost, w->v); /* g_cost[tid] */
            CO_YIELD(w);
            gi_alu(o, 0xe0, w->d, 8, 8, 0);
            CO_YIELD(w);
            gi_st(o, 0xf0, w->d, 4, 6, 8); /* g_cost[id] = g_cost[tid] + 1 */
            FOR_LANES(w->d, l) o->addr[l] = b->cost + (uint64_t)g->col[w->z[l]] * 4;
            CO_YIELD(w);
            gi_st(o, 0x100, w->d, 1, 6, 0); /* g_graph_mask[id] = true */
            FOR_LANES(w->d, l) o->addr[l] = b->mask + g->col[w->z[l]];
            CO_YIELD(w);
            gi_flag(o, 0x110, w->d, b->over); /* *g_over = true */
            CO_YIELD(w);
        }
        gi_alu(o, 0x120, w->c, 3, 3, 0); /* i++ */
        CO_YIELD(w);
        gi_ld(o, 0x130, w->c, 4, 4, 1); /* the loop test reloads nodes[tid].no_of_edges ... */
        FOR_LANES(w->c, l) o->addr[l] = b->nodes + w->v[l] * 8 + 4;
        CO_YIELD(w);
        gi_ld(o, 0x140, w->c, 4, 9, 1); /* ... and nodes[tid].starting */
        FOR_LANES(w->c, l) o->addr[l] = b->nodes + w->v[l] * 8;
        CO_YIELD(w);
        gi_alu(o, 0x150, w->c, 5, 4, 9);
        CO_YIELD(w);
        w->b = w->c;
        w->it++;
        w->c = gr_edge_lanes(w, w->b, NULL);
        gi_br(o, 0x160, w->b, 3, 5);
        CO_YIELD(w);
    }
done:
    CO_END(w);
}
enum { GBFS_INSTS = 0x170 / 16 };

static bool guard(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    return t->gtid < *(const uint64_t *)d;
}

/* The launches of b's graph from b->src (b owned by the program). */
static int gbfs_build(struct mw_workload *w, struct gbfs *b, struct mw_err *e)
{
    struct mw_kgen_program p = {.owned = b, .free_owned = gbfs_free};
    const struct mw_graph *g = &b->g;
    b->level = malloc(((size_t)g->n + 1) * sizeof *b->level);
    uint32_t *q = b->level ? malloc((size_t)g->n * sizeof *q) : NULL;
    if (!q) goto oom;
    b->maxl = gr_levels(g, b->src, b->level, q);
    free(q);
    uint64_t top = 0x10000000ull; /* bfs.cu's cudaMalloc order */
    b->nodes = gr_alloc(&top, (uint64_t)g->n * 8);
    b->edges = gr_alloc(&top, (uint64_t)g->m * 4);
    b->mask = gr_alloc(&top, g->n);
    b->visited = gr_alloc(&top, g->n);
    b->cost = gr_alloc(&top, (uint64_t)g->n * 4);
    b->over = gr_alloc(&top, 1);
    b->l = calloc((size_t)b->maxl + 1, sizeof *b->l);
    if (!b->l) goto oom;
    uint64_t n = g->n;
    for (int32_t L = 0; L <= b->maxl; L++) {
        b->l[L] = (struct gbfs_launch){n, b, L};
        struct mw_kgen_kernel *k = mw_kgen_append(&p);
        if (!k) goto oom;
        snprintf(k->k.name, sizeof k->k.name, "Kernel");
        k->k.grid[0] = (uint32_t)(n > GBFS_THREADS ? (n + GBFS_THREADS - 1) / GBFS_THREADS : 1);
        k->k.grid[1] = k->k.grid[2] = 1;
        k->k.block[0] = (uint32_t)(n > GBFS_THREADS ? GBFS_THREADS : n), k->k.block[1] = k->k.block[2] = 1;
        k->k.nregs = 16; /* estimated, as rodinia.bfs's Kernel */
        k->data = &b->l[L];
        k->guard = guard;
        k->custom = gen_kernel;
        k->ninsts = GBFS_INSTS;
        k->scratch_bytes = sizeof(struct gr_warp);
    }
    return mw_kgen_workload(w, "gpgpusim.bfs", &p, e);
oom:
    return gr_fail(&p, e);
}

int mw_wl_gpgpusim_bfs_on(struct mw_workload *w, const struct mw_graph *g, uint32_t src, struct mw_err *e)
{
    if (!g || g->n == 0 || src >= g->n)
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "gpgpusim.bfs: bad graph or source");
    for (uint32_t v = 0; v < g->n; v++)
        if (g->row[v] > g->row[v + 1]) return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "gpgpusim.bfs: row not increasing");
    for (uint32_t i = 0; i < g->row[g->n]; i++)
        if (g->col[i] >= g->n) return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "gpgpusim.bfs: edge target past n");
    struct gbfs *b = calloc(1, sizeof *b);
    if (!b) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    b->g.n = g->n, b->g.m = g->row[g->n], b->src = src;
    b->g.row = malloc(((size_t)g->n + 1) * sizeof *b->g.row);
    b->g.col = malloc(((size_t)b->g.m + 1) * sizeof *b->g.col);
    if (!b->g.row || !b->g.col) {
        gbfs_free(b);
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    }
    memcpy(b->g.row, g->row, ((size_t)g->n + 1) * sizeof *b->g.row);
    memcpy(b->g.col, g->col, (size_t)b->g.m * sizeof *b->g.col);
    return gbfs_build(w, b, e);
}

int mw_wl_gpgpusim_bfs(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    /* CTAs of 256: 8 / 64 / 256 / 256; default and paper are the shipped graph65536.txt (256 CTAs, past §2.1's
     * five-CTA rule, so the paper needs no larger input) */
    static const uint32_t nodes[4] = {2048, 16384, 65536, 65536};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct gbfs *b = calloc(1, sizeof *b);
    if (!b) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    b->g.n = nodes[sz];
    b->src = 0; /* the file's source node */
    if (mw_wl_bfs_graph(b->g.n, 6, seed, &b->g.row, &b->g.col, &b->g.m) != 0) {
        gbfs_free(b);
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    }
    return gbfs_build(w, b, e);
}
