/* The launch plumbing shared by the GraphBig-style graph kernel models (engine/workloads/wl_graph_*.c): GraphBig's launch
 * shape and thread guard, device-array placement of cudaGraphCopy, and the generic initialize kernel. */
#include "wl_graph.h"

#include <stdio.h>
#include <stdlib.h>

int32_t gr_levels(const struct mw_graph *g, uint32_t r, int32_t *lv, uint32_t *q)
{
    uint32_t qh = 0, qt = 0;
    int32_t maxl = 0;
    for (uint32_t v = 0; v < g->n; v++) lv[v] = -1;
    lv[r] = 0, q[qt++] = r;
    while (qh < qt) {
        uint32_t v = q[qh++];
        for (uint32_t i = g->row[v]; i < g->row[v + 1]; i++)
            if (lv[g->col[i]] < 0) {
                lv[g->col[i]] = lv[v] + 1;
                if (lv[v] + 1 > maxl) maxl = lv[v] + 1;
                q[qt++] = g->col[i];
            }
    }
    return maxl;
}

uint32_t gr_root(const struct mw_graph *g)
{
    for (uint32_t i = 0; i < g->n; i++) {
        uint32_t v = (31 + i) % g->n;
        if (g->row[v + 1] > g->row[v]) return v;
    }
    return 0;
}

void gr_shape(struct mw_kernel *k, const char *name, uint64_t nthreads, uint32_t nregs)
{
    uint32_t t = nthreads > GR_MAX_THREADS ? GR_MAX_THREADS : (uint32_t)(nthreads ? nthreads : 1);
    snprintf(k->name, sizeof k->name, "%s", name);
    k->grid[0] = (uint32_t)((nthreads + t - 1) / t), k->grid[1] = k->grid[2] = 1;
    if (!k->grid[0]) k->grid[0] = 1;
    k->block[0] = t, k->block[1] = k->block[2] = 1;
    k->nregs = nregs;
}

/* Every launch's data starts with its thread count, so one guard serves every graph kernel. */
static bool gr_guard(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    return t->gtid < *(const uint64_t *)d;
}

struct mw_kgen_kernel *gr_launch(struct mw_kgen_program *p, const char *name, uint64_t nthreads, uint32_t nregs,
                                 const void *data,
                                 int (*gen)(const struct mw_kgen_kernel *, const struct mw_tctx *, uint32_t, void *,
                                            struct mw_inst *, struct mw_err *),
                                 uint32_t ninsts, size_t scratch)
{
    struct mw_kgen_kernel *k = mw_kgen_append(p);
    if (!k) return NULL;
    gr_shape(&k->k, name, nthreads, nregs);
    k->data = data;
    k->guard = gr_guard;
    k->custom = gen;
    k->ninsts = ninsts;
    k->scratch_bytes = scratch;
    return k;
}

struct mw_kgen_kernel *gr_kernel(struct mw_kgen_program *p, const char *name, uint64_t nthreads, uint32_t nregs,
                                 const void *data,
                                 int (*gen)(const struct mw_kgen_kernel *, const struct mw_tctx *, uint32_t, void *,
                                            struct mw_inst *, struct mw_err *),
                                 uint32_t ninsts)
{
    return gr_launch(p, name, nthreads, nregs, data, gen, ninsts, sizeof(struct gr_warp));
}

struct mw_kgen_kernel *gr_launch_init(struct mw_kgen_program *p, uint32_t nregs, const struct gr_init *init)
{
    /* gr_gen_init's code: the prologue (0x00..0x20), then an address and a store per array */
    return gr_kernel(p, "initialize", init->nthreads, nregs, init, gr_gen_init, 3 + 2 * init->nst);
}

void gr_alloc_graph(uint64_t *top, const struct mw_graph *g, uint64_t *vlist, uint64_t *elist)
{
    *vlist = gr_alloc(top, ((uint64_t)g->n + 1) * 8);
    *elist = gr_alloc(top, (uint64_t)g->m * 8);
}

int gr_fail(struct mw_kgen_program *p, struct mw_err *e)
{
    free(p->kernels);
    p->kernels = NULL, p->nkernels = 0;
    if (p->free_owned) p->free_owned(p->owned);
    return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
}

int gr_gen_init(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct gr_init *d = k->data;
    struct gr_warp *w = scratch;
    CO_BEGIN(w);
    gr_tids(w->v, t0, mask);
    GR_PROLOGUE(w, o, mask);
    for (w->it = 0; w->it < d->nst; w->it++) {
        gi_alu(o, 0x30 + 0x20 * (uint64_t)w->it, mask, 3, 2, 0);
        CO_YIELD(w);
        gi_stx(o, 0x40 + 0x20 * (uint64_t)w->it, mask, d->width[w->it], 3, 4, d->base[w->it], w->v);
        CO_YIELD(w);
    }
    CO_END(w);
}
