/* GraphBig betweenness centrality (gpu_bench/gpu_BetweennessCentr/betweenness.cu, after Sariyuce et al.): for each
 * root in turn, kernel_init, one kernel_forward_phase per BFS level (discover the next level, count shortest
 * paths with atomicAdd into sigma) until a level discovers nothing, one kernel_backward_phase per level back up
 * (accumulate dependencies delta in double precision), then kernel_backsum_phase adds delta into BC. GraphBig
 * runs every vertex as a root; the smaller sizes run the first one or two roots (the paper size runs all). Concurrent
 * discoverers of a vertex all see it undiscovered and all store its distance. */
#include "wl_graph.h"

#include <stdlib.h>

enum { K_INIT, K_FWD, K_BWD, K_SUM };

struct bc {
    struct mw_graph g;
    uint32_t nroots;
    int32_t *lv;      /* nroots x n BFS levels (-1 unreachable) */
    uint64_t bcv, delta, dist, sigma, over, vlist, elist;
    struct bc_launch *l;
};
struct bc_launch {
    uint64_t nthreads;
    const struct bc *b;
    uint32_t root, curr;
};

static void bc_free(void *p)
{
    struct bc *b = p;
    if (!b) return;
    mw_wl_graph_free(&b->g);
    free(b->lv), free(b->l), free(b);
}

/* kernel_init: dist[tid] = INF; sigma[tid] = 0; delta[tid] = 0; if (tid == root) { dist = 0; sigma = 1; } */
static int gen_init(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                    struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct bc_launch *L = k->data;
    const struct bc *b = L->b;
    struct gr_warp *w = scratch;
    CO_BEGIN(w);
    gr_tids(w->v, t0, mask);
    GR_PROLOGUE(w, o, mask);
    gi_stx(o, 0x30, mask, 4, 2, 0, b->dist, w->v);
    CO_YIELD(w);
    gi_stx(o, 0x40, mask, 4, 2, 0, b->sigma, w->v);
    CO_YIELD(w);
    gi_stx(o, 0x50, mask, 4, 2, 0, b->delta, w->v);
    CO_YIELD(w);
    GR_WHERE(w->a, mask, l, w->v[l] == L->root);
    gi_br(o, 0x60, mask, 1, 0);
    CO_YIELD(w);
    if (w->a) {
        gi_stx(o, 0x70, w->a, 4, 2, 0, b->dist, w->v);
        CO_YIELD(w);
        gi_stx(o, 0x80, w->a, 4, 2, 0, b->sigma, w->v);
        CO_YIELD(w);
    }
    CO_END(w);
}
enum { INIT_INSTS = 0x90 / 16 }; /* gen_init's code: its last PC is 0x80, its EXIT after it */

/* Both phases open with: if (dist[tid] != level) return; the edge range of tid (lanes w->a), or to done. */
#define LEVEL_RANGE(level)                                                                                   \
    do {                                                                                                     \
        gr_tids(w->v, t0, mask);                                                                             \
        GR_PROLOGUE(w, o, mask);                                                                             \
        gi_ldx(o, 0x30, mask, 4, 3, 2, b->dist, w->v); /* dist[tid] */                                       \
        CO_YIELD(w);                                                                                         \
        GR_WHERE(w->a, mask, l, lv[w->v[l]] == (level));                                                     \
        gi_br(o, 0x40, mask, 3, 0);                                                                          \
        CO_YIELD(w);                                                                                         \
        if (!w->a) goto done;                                                                                \
        GR_FLAGGED_RANGE(w, o, g, w->a, b->vlist);                                                           \
    } while (0)

/* Both phases' edge loop opens with (from pc at): i < end, else to `out`; w = elist[i]; dist[w] and the branch
 * on it, the lanes whose w is at `level` in w->c. */
#define EDGE_DIST(at, level, out)                                                                            \
    do {                                                                                                     \
        w->b = gr_edge_lanes(w, w->a, g->col);                                                               \
        gi_br(o, (at), w->a, 5, 6);                                                                          \
        CO_YIELD(w);                                                                                         \
        if (!w->b) goto out;                                                                                 \
        GR_ELIST(w, o, (at) + 0x10, w->b, 7, 5, b->elist); /* w = elist[i] */                                \
        gi_alu(o, (at) + 0x30, w->b, 9, 8, 0);                                                               \
        CO_YIELD(w);                                                                                         \
        gi_ldx(o, (at) + 0x40, w->b, 4, 10, 9, b->dist, w->z); /* dist[w] */                                 \
        CO_YIELD(w);                                                                                         \
        GR_WHERE(w->c, w->b, l, lv[w->z[l]] == (level));                                                     \
        gi_br(o, (at) + 0x50, w->b, 10, 0);                                                                  \
        CO_YIELD(w);                                                                                         \
    } while (0)

/* kernel_forward_phase: if (dist[tid] != curr) return; for (i = start; i < end; i++) { w = elist[i];
 * if (dist[w] == INF) { dist[w] = curr + 1; *over = false; } if (dist[w] == curr + 1)
 * atomicAdd(&sigma[w], sigma[u]); } */
static int gen_fwd(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                   struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct bc_launch *L = k->data;
    const struct bc *b = L->b;
    const struct mw_graph *g = &b->g;
    const int32_t *lv = b->lv + (size_t)L->root * g->n;
    struct gr_warp *w = scratch;
    CO_BEGIN(w);
    LEVEL_RANGE((int32_t)L->curr);
    for (w->it = 0;; w->it++) {
        EDGE_DIST(0x80, (int32_t)L->curr + 1, done); /* the branch: == INF */
        if (w->c) {
            gi_stx(o, 0xe0, w->c, 4, 9, 11, b->dist, w->z); /* dist[w] = curr + 1 */
            CO_YIELD(w);
            gi_flag(o, 0xf0, w->c, b->over); /* *over = false */
            CO_YIELD(w);
        }
        gi_br(o, 0x100, w->b, 10, 0); /* == curr + 1 */
        CO_YIELD(w);
        if (w->c) {
            gi_ldx(o, 0x110, w->c, 4, 12, 2, b->sigma, w->v); /* sigma[u] */
            CO_YIELD(w);
            gi_alu(o, 0x120, w->c, 13, 8, 0); /* &sigma[w] */
            CO_YIELD(w);
            gi_atom(o, 0x130, w->c, 0, 13, 12);
            gi_addr(o, w->c, b->sigma, w->z, 4);
            CO_YIELD(w);
        }
        gi_alu(o, 0x140, w->b, 5, 5, 0); /* i++ */
        CO_YIELD(w);
    }
done:
    CO_END(w);
}
enum { FWD_INSTS = 0x150 / 16 }; /* gen_fwd's code: its last PC is 0x140, its EXIT after it */

/* kernel_backward_phase: if (dist[tid] != curr - 1) return; for (...) { w = elist[i]; if (dist[w] == curr)
 * sum += 1.0 * sigma[u] / sigma[w] * (1.0 + delta[w]); } delta[u] += sum; (double-precision arithmetic) */
static int gen_bwd(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                   struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct bc_launch *L = k->data;
    const struct bc *b = L->b;
    const struct mw_graph *g = &b->g;
    const int32_t *lv = b->lv + (size_t)L->root * g->n;
    struct gr_warp *w = scratch;
    CO_BEGIN(w);
    LEVEL_RANGE((int32_t)L->curr - 1);
    gi_alu(o, 0x80, w->a, 20, 0, 0); /* sum = 0 */
    CO_YIELD(w);
    for (w->it = 0;; w->it++) {
        EDGE_DIST(0x90, (int32_t)L->curr, sum_up);
        if (!w->c) goto next;
        gi_ldx(o, 0xf0, w->c, 4, 11, 2, b->sigma, w->v); /* sigma[u] */
        CO_YIELD(w);
        gi_ldx(o, 0x100, w->c, 4, 12, 9, b->sigma, w->z); /* sigma[w] */
        CO_YIELD(w);
        gi_ldx(o, 0x110, w->c, 4, 13, 9, b->delta, w->z); /* delta[w] */
        CO_YIELD(w);
        gi_op(o, 0x120, MW_OP_SFU, w->c, 14, 11, 0); /* (double)sigma[u] */
        CO_YIELD(w);
        gi_op(o, 0x130, MW_OP_SFU, w->c, 15, 12, 0); /* (double)sigma[w] */
        CO_YIELD(w);
        gi_op(o, 0x140, MW_OP_SFU, w->c, 16, 13, 0); /* (double)delta[w] */
        CO_YIELD(w);
        /* the double division (reciprocal and Newton steps), then (1.0 + delta) and the products */
        for (w->d = 0; w->d < 6; w->d++) {
            gi_op(o, 0x150 + 0x10 * (uint64_t)w->d, MW_OP_DP, w->c, 17, w->d ? 17 : 14, 15);
            CO_YIELD(w);
        }
        gi_op(o, 0x1b0, MW_OP_DP, w->c, 18, 16, 0); /* 1.0 + delta[w] */
        CO_YIELD(w);
        gi_op(o, 0x1c0, MW_OP_DP, w->c, 19, 17, 18);
        CO_YIELD(w);
        gi_op(o, 0x1d0, MW_OP_SFU, w->c, 21, 20, 0); /* (double)sum */
        CO_YIELD(w);
        gi_op(o, 0x1e0, MW_OP_DP, w->c, 21, 21, 19);
        CO_YIELD(w);
        gi_op(o, 0x1f0, MW_OP_SFU, w->c, 20, 21, 0); /* sum = (float) */
        CO_YIELD(w);
    next:
        gi_alu(o, 0x200, w->b, 5, 5, 0); /* i++ */
        CO_YIELD(w);
    }
sum_up:
    gi_ldx(o, 0x210, w->a, 4, 22, 2, b->delta, w->v); /* delta[u] += sum */
    CO_YIELD(w);
    gi_alu(o, 0x220, w->a, 22, 22, 20);
    CO_YIELD(w);
    gi_stx(o, 0x230, w->a, 4, 2, 22, b->delta, w->v);
    CO_YIELD(w);
done:
    CO_END(w);
}
enum { BWD_INSTS = 0x240 / 16 }; /* gen_bwd's code: its last PC is 0x230, its EXIT after it */

/* kernel_backsum_phase: if (tid == root || dist[tid] == INF) return; BC[tid] += delta[tid]; */
static int gen_sum(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                   struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct bc_launch *L = k->data;
    const struct bc *b = L->b;
    const int32_t *lv = b->lv + (size_t)L->root * b->g.n;
    struct gr_warp *w = scratch;
    CO_BEGIN(w);
    gr_tids(w->v, t0, mask);
    GR_WHERE(w->a, mask, l, w->v[l] != L->root);
    gi_alu(o, 0x00, mask, 1, 0, 0);
    CO_YIELD(w);
    gi_br(o, 0x10, mask, 1, 0); /* tid >= vertex_cnt, tid == root */
    CO_YIELD(w);
    if (!w->a) goto done;
    gi_alu(o, 0x20, w->a, 2, 1, 0);
    CO_YIELD(w);
    gi_ldx(o, 0x30, w->a, 4, 3, 2, b->dist, w->v); /* dist[tid] */
    CO_YIELD(w);
    GR_WHERE(w->b, w->a, l, lv[w->v[l]] >= 0);
    gi_br(o, 0x40, w->a, 3, 0);
    CO_YIELD(w);
    if (!w->b) goto done;
    gi_ldx(o, 0x50, w->b, 4, 4, 2, b->delta, w->v); /* delta[tid] */
    CO_YIELD(w);
    gi_ldx(o, 0x60, w->b, 4, 5, 2, b->bcv, w->v); /* BC[tid] */
    CO_YIELD(w);
    gi_alu(o, 0x70, w->b, 5, 5, 4);
    CO_YIELD(w);
    gi_stx(o, 0x80, w->b, 4, 2, 5, b->bcv, w->v);
    CO_YIELD(w);
done:
    CO_END(w);
}
enum { SUM_INSTS = 0x90 / 16 }; /* gen_sum's code: its last PC is 0x80, its EXIT after it */

int mw_wl_graph_bc(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    static const uint32_t roots[5] = {2, 4, 1, 0, 1}; /* 0: every vertex, as GraphBig runs */
    int sz = gr_size(size, e);
    if (sz < 0) return sz;
    struct bc *b = calloc(1, sizeof *b);
    if (!b) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    int rc = gr_input(size, seed, 1, &b->g, e); /* default: scale 14, one root */
    if (rc < 0) {
        free(b);
        return rc;
    }
    struct mw_kgen_program p = {.owned = b, .free_owned = bc_free};
    const struct mw_graph *g = &b->g;
    b->nroots = roots[sz] && roots[sz] < g->n ? roots[sz] : g->n;
    uint32_t *q = malloc((size_t)g->n * sizeof *q), *depth = malloc(b->nroots * sizeof *depth);
    b->lv = malloc((size_t)b->nroots * g->n * sizeof *b->lv);
    size_t nl = 0;
    if (!q || !depth || !b->lv) goto oom;
    for (uint32_t r = 0; r < b->nroots; r++) {
        depth[r] = (uint32_t)gr_levels(g, r, b->lv + (size_t)r * g->n, q);
        nl += 2 * (size_t)depth[r] + 3;
    }
    uint64_t top = 0x10000000ull; /* cuda_betweenness_centr's cudaMalloc order, then cudaGraphCopy */
    b->bcv = gr_alloc(&top, (uint64_t)g->n * 4);
    b->delta = gr_alloc(&top, (uint64_t)g->n * 4);
    b->dist = gr_alloc(&top, (uint64_t)g->n * 4);
    b->sigma = gr_alloc(&top, (uint64_t)g->n * 4);
    b->over = gr_alloc(&top, 1);
    gr_alloc_graph(&top, g, &b->vlist, &b->elist);
    b->l = calloc(nl, sizeof *b->l);
    if (!b->l) goto oom;
    struct bc_launch *L = b->l;
    for (uint32_t r = 0; r < b->nroots; r++) {
        /* forward for curr = 0 .. depth (the last discovers nothing), backward for curr = depth .. 1 */
        *L = (struct bc_launch){g->n, b, r, 0};
        if (!gr_kernel(&p, "kernel_init", g->n, 10, L++, gen_init, INIT_INSTS)) goto oom;
        for (uint32_t c = 0; c <= depth[r]; c++) {
            *L = (struct bc_launch){g->n, b, r, c};
            if (!gr_kernel(&p, "kernel_forward_phase", g->n, 18, L++, gen_fwd, FWD_INSTS)) goto oom;
        }
        for (uint32_t c = depth[r]; c >= 1; c--) {
            *L = (struct bc_launch){g->n, b, r, c};
            if (!gr_kernel(&p, "kernel_backward_phase", g->n, 26, L++, gen_bwd, BWD_INSTS)) goto oom;
        }
        *L = (struct bc_launch){g->n, b, r, 0};
        if (!gr_kernel(&p, "kernel_backsum_phase", g->n, 10, L++, gen_sum, SUM_INSTS)) goto oom;
    }
    free(q), free(depth);
    return mw_kgen_workload(w, "graph.bc", &p, e);
oom:
    free(q), free(depth);
    return gr_fail(&p, e);
}
