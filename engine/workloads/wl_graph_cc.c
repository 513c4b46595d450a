/* GraphBig connected components (gpu_bench/gpu_ConnectedComp/connected_comp.cu, after Soman et al.): edge-parallel
 * hooking (two edges per thread, CHUNK_SZ) writes shadow[min] = max on even and shadow[max] = min on odd
 * iterations for edges whose endpoints' parents differ and masks the edges whose parents agree; kernel_update
 * copies shadow into parents; kernel_pointer_jumping walks every vertex up to its root. The host repeats hooking,
 * update, pointer jumping, update until no edge hooks. Concurrent hooks of one root: the highest edge id wins. */
#include "wl_graph.h"

#include <stdlib.h>

#define CHUNK_SZ 2

struct cc {
    struct mw_graph g;
    uint32_t iters;
    uint32_t *esrc;   /* source vertex of each edge (d_edge_src) */
    uint16_t *meq;    /* iteration in which edge e found its endpoints' parents equal (and was masked) */
    uint32_t *ph;     /* iters x n: parents when hooking of iteration i runs */
    uint32_t *pj;     /* iters x n: parents when pointer jumping of iteration i runs */
    uint64_t parents, shadow, emask, edge_src, over, vlist, elist;
    struct cc_launch *l;
};
struct cc_launch {
    uint64_t nthreads;
    const struct cc *c;
    uint32_t it;
    bool second; /* kernel_update after pointer jumping */
};

static void cc_free(void *p)
{
    struct cc *c = p;
    if (!c) return;
    mw_wl_graph_free(&c->g);
    free(c->esrc), free(c->meq), free(c->ph), free(c->pj), free(c->l), free(c);
}

static int cc_run(struct cc *c)
{
    const struct mw_graph *g = &c->g;
    size_t cap = 4;
    uint32_t *par = malloc((size_t)g->n * sizeof *par), *sh = malloc((size_t)g->n * sizeof *sh);
    c->esrc = malloc((size_t)g->m * sizeof *c->esrc);
    c->meq = malloc((size_t)g->m * sizeof *c->meq);
    c->ph = malloc(cap * g->n * sizeof *c->ph);
    c->pj = malloc(cap * g->n * sizeof *c->pj);
    int rc = -1;
    if (!par || !sh || !c->esrc || !c->meq || !c->ph || !c->pj) goto out;
    for (uint32_t v = 0; v < g->n; v++) {
        par[v] = sh[v] = v;
        for (uint32_t i = g->row[v]; i < g->row[v + 1]; i++) c->esrc[i] = v;
    }
    for (uint32_t e = 0; e < g->m; e++) c->meq[e] = UINT16_MAX;
    for (uint32_t it = 0;; it++) {
        if (it >= UINT16_MAX - 1) goto out;
        if (it == cap) {
            uint32_t *a = realloc(c->ph, 2 * cap * g->n * sizeof *a);
            if (a) c->ph = a;
            uint32_t *b = a ? realloc(c->pj, 2 * cap * g->n * sizeof *b) : NULL;
            if (!b) goto out;
            c->pj = b, cap *= 2;
        }
        memcpy(c->ph + (size_t)it * g->n, par, (size_t)g->n * sizeof *par);
        bool hooked = false;
        for (uint32_t e = 0; e < g->m; e++) {
            if (c->meq[e] < it) continue;
            uint32_t ps = par[c->esrc[e]], pd = par[g->col[e]];
            if (ps == pd) {
                c->meq[e] = (uint16_t)it;
                continue;
            }
            uint32_t mn = ps < pd ? ps : pd, mx = ps < pd ? pd : ps;
            if (it % 2 == 0) sh[mn] = mx;
            else sh[mx] = mn;
            hooked = true;
        }
        memcpy(par, sh, (size_t)g->n * sizeof *par);
        memcpy(c->pj + (size_t)it * g->n, par, (size_t)g->n * sizeof *par);
        for (uint32_t v = 0; v < g->n; v++) {
            uint32_t p = par[v];
            while (par[p] != p) p = par[p];
            sh[v] = p;
        }
        memcpy(par, sh, (size_t)g->n * sizeof *par);
        if (!hooked) {
            c->iters = it + 1;
            break;
        }
    }
    rc = 0;
out:
    free(par), free(sh);
    return rc;
}

/* initialize: parents[tid] = shadow[tid] = tid; for (i = start; i < end; i++) { mask[i] = false;
 * edge_src[i] = tid; } */
static int gen_init(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                    struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct cc *c = ((const struct cc_launch *)k->data)->c;
    const struct mw_graph *g = &c->g;
    struct gr_warp *w = scratch;
    CO_BEGIN(w);
    gr_tids(w->v, t0, mask);
    GR_PROLOGUE(w, o, mask);
    gi_stx(o, 0x30, mask, 8, 2, 1, c->parents, w->v);
    CO_YIELD(w);
    gi_stx(o, 0x40, mask, 8, 2, 1, c->shadow, w->v);
    CO_YIELD(w);
    gr_ranges(w, g, mask);
    GR_VLIST(w, o, 0x50, mask, 3, 2, c->vlist);
    for (w->it = 0;; w->it++) {
        w->b = gr_edge_lanes(w, mask, NULL);
        gi_br(o, 0x70, mask, 3, 4);
        CO_YIELD(w);
        if (!w->b) break;
        gi_stx(o, 0x80, w->b, 1, 3, 0, c->emask, w->z); /* mask[i] = false */
        CO_YIELD(w);
        gi_stx(o, 0x90, w->b, 8, 5, 1, c->edge_src, w->z); /* edge_src[i] = tid */
        CO_YIELD(w);
        gi_alu(o, 0xa0, w->b, 3, 3, 0);
        CO_YIELD(w);
    }
    CO_END(w);
}
enum { INIT_INSTS = 0xb0 / 16 }; /* gen_init's code: its last PC is 0xa0, its EXIT after it */

/* kernel_hooking: for (eid = 2 tid; eid < min(2 tid + 2, edge_cnt); eid++) { if (mask[eid]) continue;
 * src = edge_src[eid]; dest = elist[eid]; if (parents[src] != parents[dest]) { shadow[even ? min : max] =
 * even ? max : min; *over = false; } else mask[eid] = true; } */
static int gen_hook(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                    struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct cc_launch *L = k->data;
    const struct cc *c = L->c;
    const struct mw_graph *g = &c->g;
    const uint32_t *par = c->ph + (size_t)L->it * g->n;
    struct gr_warp *w = scratch;
    CO_BEGIN(w);
    FOR_LANES(mask, l) w->v[l] = (t0->gtid + (uint64_t)l) * CHUNK_SZ;
    gi_alu(o, 0x00, mask, 1, 0, 0);
    CO_YIELD(w);
    gi_alu(o, 0x10, mask, 2, 1, 0); /* chunk_id = tid * CHUNK_SZ */
    CO_YIELD(w);
    gi_br(o, 0x20, mask, 2, 0);
    CO_YIELD(w);
    gi_alu(o, 0x30, mask, 3, 2, 0); /* end_id = min(chunk_id + CHUNK_SZ, edge_cnt) */
    CO_YIELD(w);
    for (w->it = 0;; w->it++) {
        w->a = 0;
        FOR_LANES(mask, l) if (w->v[l] + (uint64_t)w->it < g->m && w->it < CHUNK_SZ) w->a |= 1u << l, w->z[l] = w->v[l] + (uint64_t)w->it;
        gi_br(o, 0x40, mask, 2, 3);
        CO_YIELD(w);
        if (!w->a) break;
        gi_alu(o, 0x50, w->a, 4, 2, 0);
        CO_YIELD(w);
        gi_ldx(o, 0x60, w->a, 1, 5, 4, c->emask, w->z); /* mask[eid] */
        CO_YIELD(w);
        GR_WHERE(w->b, w->a, l, c->meq[w->z[l]] >= L->it);
        gi_br(o, 0x70, w->a, 5, 0);
        CO_YIELD(w);
        if (!w->b) goto next;
        gi_ldx(o, 0x80, w->b, 8, 6, 4, c->edge_src, w->z); /* src = edge_src[eid] */
        CO_YIELD(w);
        gi_ldx(o, 0x90, w->b, 8, 7, 4, c->elist, w->z); /* dest = elist[eid] */
        CO_YIELD(w);
        gi_alu(o, 0xa0, w->b, 8, 6, 0);
        CO_YIELD(w);
        gi_ld(o, 0xb0, w->b, 8, 9, 8); /* parents[src] */
        FOR_LANES(w->b, l) o->addr[l] = c->parents + (uint64_t)c->esrc[w->z[l]] * 8;
        CO_YIELD(w);
        gi_alu(o, 0xc0, w->b, 10, 7, 0);
        CO_YIELD(w);
        gi_ld(o, 0xd0, w->b, 8, 11, 10); /* parents[dest] */
        FOR_LANES(w->b, l) o->addr[l] = c->parents + (uint64_t)g->col[w->z[l]] * 8;
        CO_YIELD(w);
        GR_WHERE(w->c, w->b, l, c->meq[w->z[l]] > L->it);
        w->d = w->b & ~w->c;
        gi_br(o, 0xe0, w->b, 9, 11);
        CO_YIELD(w);
        if (w->c) {
            gi_alu(o, 0xf0, w->c, 12, 9, 11); /* min, max */
            CO_YIELD(w);
            gi_alu(o, 0x100, w->c, 13, 9, 11);
            CO_YIELD(w);
            gi_alu(o, 0x110, w->c, 14, 12, 13); /* &shadow[even ? min : max] */
            CO_YIELD(w);
            gi_st(o, 0x120, w->c, 8, 14, 13);
            FOR_LANES(w->c, l) {
                uint32_t ps = par[c->esrc[w->z[l]]], pd = par[g->col[w->z[l]]];
                uint32_t to = (L->it % 2 == 0) == (ps < pd) ? ps : pd;
                o->addr[l] = c->shadow + (uint64_t)to * 8;
            }
            CO_YIELD(w);
            gi_flag(o, 0x130, w->c, c->over); /* *d_over = false */
            CO_YIELD(w);
        }
        if (w->d) {
            gi_stx(o, 0x140, w->d, 1, 4, 0, c->emask, w->z); /* mask[eid] = true */
            CO_YIELD(w);
        }
    next:
        gi_alu(o, 0x150, w->a, 2, 2, 0);
        CO_YIELD(w);
    }
    CO_END(w);
}
enum { HOOK_INSTS = 0x160 / 16 }; /* gen_hook's code: its last PC is 0x150, its EXIT after it */

/* kernel_update: parents[tid] = shadow[tid] */
static int gen_update(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                      struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct cc *c = ((const struct cc_launch *)k->data)->c;
    struct gr_warp *w = scratch;
    CO_BEGIN(w);
    gr_tids(w->v, t0, mask);
    GR_PROLOGUE(w, o, mask);
    gi_ldx(o, 0x30, mask, 8, 3, 2, c->shadow, w->v);
    CO_YIELD(w);
    gi_stx(o, 0x40, mask, 8, 2, 3, c->parents, w->v);
    CO_YIELD(w);
    CO_END(w);
}
enum { UPDATE_INSTS = 0x50 / 16 }; /* gen_update's code: its last PC is 0x40, its EXIT after it */

/* kernel_pointer_jumping: parent = parents[tid]; while (parents[parent] != parent) parent = parents[parent];
 * shadow[tid] = parent; */
static int gen_jump(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                    struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct cc_launch *L = k->data;
    const struct cc *c = L->c;
    const uint32_t *par = c->pj + (size_t)L->it * c->g.n;
    struct gr_warp *w = scratch;
    CO_BEGIN(w);
    gr_tids(w->v, t0, mask);
    FOR_LANES(mask, l) w->x[l] = par[w->v[l]];
    GR_PROLOGUE(w, o, mask);
    gi_ldx(o, 0x30, mask, 8, 3, 2, c->parents, w->v); /* parent = parents[tid] */
    CO_YIELD(w);
    for (w->a = mask; w->a;) {
        gi_alu(o, 0x40, w->a, 4, 3, 0);
        CO_YIELD(w);
        gi_ldx(o, 0x50, w->a, 8, 5, 4, c->parents, w->x); /* parents[parent] */
        CO_YIELD(w);
        FOR_LANES(w->a, l) {
            if (par[w->x[l]] == w->x[l]) w->a &= ~(1u << l);
            else w->x[l] = par[w->x[l]];
        }
        gi_br(o, 0x60, mask, 5, 3);
        CO_YIELD(w);
        if (!w->a) break;
        gi_alu(o, 0x70, w->a, 3, 5, 0);
        CO_YIELD(w);
    }
    gi_alu(o, 0x80, mask, 6, 1, 0);
    CO_YIELD(w);
    gi_stx(o, 0x90, mask, 8, 6, 3, c->shadow, w->v); /* shadow[tid] = parent */
    CO_YIELD(w);
    CO_END(w);
}
enum { JUMP_INSTS = 0xa0 / 16 }; /* gen_jump's code: its last PC is 0x90, its EXIT after it */

int mw_wl_graph_cc(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    struct cc *c = calloc(1, sizeof *c);
    if (!c) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    int rc = mw_wl_graph_input(size, seed, &c->g, e);
    if (rc < 0) {
        free(c);
        return rc;
    }
    struct mw_kgen_program p = {.owned = c, .free_owned = cc_free};
    const struct mw_graph *g = &c->g;
    if (cc_run(c) != 0) goto oom;
    uint64_t top = 0x10000000ull; /* cuda_connected_comp's cudaMalloc order, then cudaGraphCopy */
    c->parents = gr_alloc(&top, (uint64_t)g->n * 8);
    c->shadow = gr_alloc(&top, (uint64_t)g->n * 8);
    c->emask = gr_alloc(&top, g->m);
    c->edge_src = gr_alloc(&top, (uint64_t)g->m * 8);
    c->over = gr_alloc(&top, 1);
    gr_alloc_graph(&top, g, &c->vlist, &c->elist);
    /* l[0]: initialize; then per iteration hooking, update, pointer jumping, update */
    c->l = calloc(1 + 4 * (size_t)c->iters, sizeof *c->l);
    if (!c->l) goto oom;
    uint64_t nchunks = ((uint64_t)g->m + CHUNK_SZ - 1) / CHUNK_SZ;
    c->l[0] = (struct cc_launch){g->n, c, 0, false};
    if (!gr_kernel(&p, "initialize", g->n, 16, &c->l[0], gen_init, INIT_INSTS)) goto oom;
    for (uint32_t it = 0; it < c->iters; it++) {
        struct cc_launch *L = &c->l[1 + 4 * (size_t)it];
        L[0] = (struct cc_launch){nchunks, c, it, false};
        L[1] = (struct cc_launch){g->n, c, it, false};
        L[2] = (struct cc_launch){g->n, c, it, false};
        L[3] = (struct cc_launch){g->n, c, it, true};
        if (!gr_kernel(&p, "kernel_hooking", nchunks, 20, &L[0], gen_hook, HOOK_INSTS) ||
            !gr_kernel(&p, "kernel_update", g->n, 8, &L[1], gen_update, UPDATE_INSTS) ||
            !gr_kernel(&p, "kernel_pointer_jumping", g->n, 10, &L[2], gen_jump, JUMP_INSTS) ||
            !gr_kernel(&p, "kernel_update", g->n, 8, &L[3], gen_update, UPDATE_INSTS))
            goto oom;
    }
    return mw_kgen_workload(w, "graph.cc", &p, e);
oom:
    return gr_fail(&p, e);
}
