/* GraphBig SSSP, topology-driven thread-centric (gpu_bench/gpu_SSSP/sssp_topo_thread_centric.cu): one thread per
 * vertex; `kernel` relaxes the out-edges of the masked vertices with atomicMin into update[], `kernel2` folds
 * update[] into the distances and re-masks the improved vertices; the host repeats both until nothing changes.
 * Edge weights are GraphBig's (all 1), so iteration k relaxes exactly the vertices k hops from the root. */
#include "wl_graph.h"

#include <stdlib.h>

struct sssp {
    struct mw_graph g;
    uint32_t root, iters;
    size_t words;   /* 64-bit words per vertex bitmap */
    uint64_t *act;  /* iters + 1 bitmaps: mask[v] at the start of iteration k (the last one empty) */
    uint64_t vpl, mask, update, epl, over, vlist, elist;
    struct gr_init init;
    struct sssp_launch *l;
};
struct sssp_launch {
    uint64_t nthreads;
    const struct sssp *s;
    uint32_t k;
};

static void sssp_free(void *p)
{
    struct sssp *s = p;
    if (!s) return;
    mw_wl_graph_free(&s->g);
    free(s->act), free(s->l), free(s);
}

/* Bellman-Ford as the two kernels run it: relax from dist[] of the masked vertices into upd[], then fold. */
static int sssp_run(struct sssp *s)
{
    const struct mw_graph *g = &s->g;
    uint32_t *dist = malloc((size_t)g->n * sizeof *dist), *upd = malloc((size_t)g->n * sizeof *upd);
    int rc = -1;
    s->words = ((size_t)g->n + 63) / 64;
    size_t cap = 8;
    s->act = calloc(cap * s->words, sizeof *s->act);
    if (!dist || !upd || !s->act) goto out;
    for (uint32_t v = 0; v < g->n; v++) dist[v] = upd[v] = GR_INF;
    dist[s->root] = 0;
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
                    if (dist[v] + 1 < upd[g->col[i]]) upd[g->col[i]] = dist[v] + 1;
        bool changed = false;
        for (uint32_t v = 0; v < g->n; v++) {
            if (dist[v] > upd[v]) dist[v] = upd[v], gr_setbit(next, v), changed = true;
            else upd[v] = dist[v];
        }
        if (!changed) {
            s->iters = k + 1;
            break;
        }
    }
    rc = 0;
out:
    free(dist), free(upd);
    return rc;
}

/* kernel: if (mask[tid]) { start = vlist[tid]; end = vlist[tid + 1]; cost = vplist[tid];
 * for (i = start; i < end; i++) atomicMin(&update[elist[i]], cost + eplist[i]); mask[tid] = false; } */
static int gen_relax(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                     struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct sssp_launch *L = k->data;
    const struct sssp *s = L->s;
    const struct mw_graph *g = &s->g;
    struct gr_warp *w = scratch;
    CO_BEGIN(w);
    gr_tids(w->v, t0, mask);
    GR_PROLOGUE(w, o, mask);
    gi_ldx(o, 0x30, mask, 1, 3, 2, s->mask, w->v); /* mask[tid] */
    CO_YIELD(w);
    w->a = gr_bits(s->act + (size_t)L->k * s->words, w->v, mask);
    gi_br(o, 0x40, mask, 3, 0);
    CO_YIELD(w);
    if (!w->a) goto done;
    GR_FLAGGED_RANGE(w, o, g, w->a, s->vlist); /* start, end */
    gi_alu(o, 0x80, w->a, 7, 1, 0);
    CO_YIELD(w);
    gi_ldx(o, 0x90, w->a, 4, 8, 7, s->vpl, w->v); /* cost = vplist[tid] */
    CO_YIELD(w);
    for (w->it = 0;; w->it++) {
        w->b = gr_edge_lanes(w, w->a, NULL);
        gi_br(o, 0xa0, w->a, 5, 6); /* i < end */
        CO_YIELD(w);
        if (!w->b) break;
        GR_ELIST(w, o, 0xb0, w->b, 9, 5, s->elist); /* vid = elist[i] */
        gi_ldx(o, 0xd0, w->b, 4, 12, 9, s->epl, w->z); /* eplist[i] */
        CO_YIELD(w);
        gi_alu(o, 0xe0, w->b, 13, 8, 12); /* cost + eplist[i] */
        CO_YIELD(w);
        gi_alu(o, 0xf0, w->b, 14, 10, 0); /* &update[vid] */
        CO_YIELD(w);
        gi_atom(o, 0x100, w->b, 0, 14, 13);
        FOR_LANES(w->b, l) o->addr[l] = s->update + (uint64_t)g->col[w->z[l]] * 4;
        CO_YIELD(w);
        gi_alu(o, 0x110, w->b, 5, 5, 0); /* i++ */
        CO_YIELD(w);
    }
    gi_stx(o, 0x120, w->a, 1, 2, 0, s->mask, w->v); /* mask[tid] = false */
    CO_YIELD(w);
done:
    CO_END(w);
}
enum { RELAX_INSTS = 0x130 / 16 }; /* gen_relax's code: its last PC is 0x120, its EXIT after it */

/* kernel2: if (vplist[tid] > update[tid]) { vplist[tid] = update[tid]; mask[tid] = true; *changed = true; }
 * else update[tid] = vplist[tid]; */
static int gen_fold(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                    struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct sssp_launch *L = k->data;
    const struct sssp *s = L->s;
    struct gr_warp *w = scratch;
    CO_BEGIN(w);
    gr_tids(w->v, t0, mask);
    GR_PROLOGUE(w, o, mask);
    gi_ldx(o, 0x30, mask, 4, 3, 2, s->vpl, w->v); /* vplist[tid] */
    CO_YIELD(w);
    gi_ldx(o, 0x40, mask, 4, 4, 2, s->update, w->v); /* update[tid] */
    CO_YIELD(w);
    w->a = gr_bits(s->act + (size_t)(L->k + 1) * s->words, w->v, mask);
    w->b = mask & ~w->a;
    gi_br(o, 0x50, mask, 3, 4);
    CO_YIELD(w);
    if (w->a) {
        gi_stx(o, 0x60, w->a, 4, 2, 4, s->vpl, w->v);
        CO_YIELD(w);
        gi_stx(o, 0x70, w->a, 1, 2, 0, s->mask, w->v);
        CO_YIELD(w);
        gi_flag(o, 0x80, w->a, s->over); /* *changed = true */
        CO_YIELD(w);
    }
    if (w->b) {
        gi_stx(o, 0x90, w->b, 4, 2, 3, s->update, w->v);
        CO_YIELD(w);
    }
    CO_END(w);
}
enum { FOLD_INSTS = 0xa0 / 16 }; /* gen_fold's code: its last PC is 0x90, its EXIT after it */

int mw_wl_graph_sssp(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    struct sssp *s = calloc(1, sizeof *s);
    if (!s) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    int rc = mw_wl_graph_input(size, seed, &s->g, e);
    if (rc < 0) {
        free(s);
        return rc;
    }
    struct mw_kgen_program p = {.owned = s, .free_owned = sssp_free};
    const struct mw_graph *g = &s->g;
    s->root = gr_root(g);
    if (sssp_run(s) != 0) goto oom;
    uint64_t top = 0x10000000ull; /* cuda_SSSP's cudaMalloc order, then cudaGraphCopy */
    s->vpl = gr_alloc(&top, (uint64_t)g->n * 4);
    s->mask = gr_alloc(&top, g->n);
    s->update = gr_alloc(&top, (uint64_t)g->n * 4);
    s->epl = gr_alloc(&top, (uint64_t)g->m * 4);
    s->over = gr_alloc(&top, 1);
    gr_alloc_graph(&top, g, &s->vlist, &s->elist);
    s->init = (struct gr_init){g->n, 3, {s->vpl, s->update, s->mask}, {4, 4, 1}};
    s->l = calloc(s->iters, sizeof *s->l);
    if (!s->l || !gr_launch_init(&p, 10, &s->init)) goto oom;
    for (uint32_t k = 0; k < s->iters; k++) {
        s->l[k] = (struct sssp_launch){g->n, s, k};
        if (!gr_kernel(&p, "kernel", g->n, 18, &s->l[k], gen_relax, RELAX_INSTS) ||
            !gr_kernel(&p, "kernel2", g->n, 10, &s->l[k], gen_fold, FOLD_INSTS))
            goto oom;
    }
    return mw_kgen_workload(w, "graph.sssp", &p, e);
oom:
    return gr_fail(&p, e);
}
