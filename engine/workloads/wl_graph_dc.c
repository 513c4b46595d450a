/* GraphBig degree centrality, topology-driven thread-centric (gpu_bench/gpu_DegreeCentr/degree_centr.cu): one
 * thread per vertex walks its out-edges and counts each target's in-degree with atomicAdd(&vplist[dest], 1). */
#include "wl_graph.h"

#include <stdlib.h>

struct dc {
    uint64_t nthreads;
    struct mw_graph g;
    uint64_t vpl, vlist, elist;
    struct gr_init init;
};

static void dc_free(void *p)
{
    struct dc *d = p;
    if (!d) return;
    mw_wl_graph_free(&d->g);
    free(d);
}

/* kernel: for (i = vlist[tid]; i < vlist[tid + 1]; i++) atomicAdd(&vplist[elist[i]], 1); */
static int gen_dc(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                  struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct dc *d = k->data;
    const struct mw_graph *g = &d->g;
    struct gr_warp *w = scratch;
    CO_BEGIN(w);
    gr_tids(w->v, t0, mask);
    GR_PROLOGUE(w, o, mask);
    gr_ranges(w, g, mask);
    GR_VLIST(w, o, 0x30, mask, 3, 2, d->vlist); /* start, end */
    for (w->it = 0;; w->it++) {
        w->b = gr_edge_lanes(w, mask, NULL);
        gi_br(o, 0x50, mask, 3, 4);
        CO_YIELD(w);
        if (!w->b) break;
        GR_ELIST(w, o, 0x60, w->b, 5, 3, d->elist); /* dest = elist[i] */
        gi_alu(o, 0x80, w->b, 7, 6, 0); /* &vplist[dest] */
        CO_YIELD(w);
        gi_atom(o, 0x90, w->b, 0, 7, 0);
        FOR_LANES(w->b, l) o->addr[l] = d->vpl + (uint64_t)g->col[w->z[l]] * 4;
        CO_YIELD(w);
        gi_alu(o, 0xa0, w->b, 3, 3, 0); /* i++ */
        CO_YIELD(w);
    }
    CO_END(w);
}
enum { DC_INSTS = 0xb0 / 16 }; /* gen_dc's code: its last PC is 0xa0, its EXIT after it */

int mw_wl_graph_dc(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    struct dc *d = calloc(1, sizeof *d);
    if (!d) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    int rc = mw_wl_graph_input(size, seed, &d->g, e);
    if (rc < 0) {
        free(d);
        return rc;
    }
    struct mw_kgen_program p = {.owned = d, .free_owned = dc_free};
    const struct mw_graph *g = &d->g;
    d->nthreads = g->n;
    uint64_t top = 0x10000000ull; /* cuda_degree_centr: vplist, then cudaGraphCopy */
    d->vpl = gr_alloc(&top, (uint64_t)g->n * 4);
    gr_alloc_graph(&top, g, &d->vlist, &d->elist);
    d->init = (struct gr_init){g->n, 1, {d->vpl}, {4}};
    if (!gr_launch_init(&p, 8, &d->init) || !gr_kernel(&p, "kernel", g->n, 12, d, gen_dc, DC_INSTS))
        return gr_fail(&p, e);
    return mw_kgen_workload(w, "graph.dc", &p, e);
}
