/* GraphBig graph colouring, topology-driven thread-centric (gpu_bench/gpu_GraphColoring/gc_topo_thread_centric.cu,
 * after Grosset et al.): each launch gives colour `color` to every uncoloured vertex whose random number beats
 * those of all its neighbours not coloured in earlier rounds (a Jones-Plassmann independent set); the host
 * launches with color = 0, 1, ... until a round leaves nothing uncoloured. The random numbers come from the
 * workload seed (GraphBig: srand(123), rand()). */
#include "wl_graph.h"

#include <stdlib.h>

struct gc {
    uint64_t nthreads;
    struct mw_graph g;
    uint32_t rounds;
    uint32_t *rnd;    /* randlist */
    uint32_t *color;  /* round in which each vertex is coloured */
    uint64_t vpl, rand, over, vlist, elist;
    struct gr_init init;
    struct gc_launch *l;
};
struct gc_launch {
    uint64_t nthreads;
    const struct gc *c;
    uint32_t k;
};

static void gc_free(void *p)
{
    struct gc *c = p;
    if (!c) return;
    mw_wl_graph_free(&c->g);
    free(c->rnd), free(c->color), free(c->l), free(c);
}

/* Does neighbour d of v (not coloured before round k) stop v from taking colour k? */
static bool larger(const struct gc *c, uint32_t v, uint32_t d)
{
    return c->rnd[d] > c->rnd[v] || (c->rnd[d] == c->rnd[v] && d < v);
}

static void gc_run(struct gc *c)
{
    const struct mw_graph *g = &c->g;
    for (uint32_t v = 0; v < g->n; v++) c->color[v] = UINT32_MAX;
    for (uint32_t k = 0;; k++) {
        bool left = false;
        for (uint32_t v = 0; v < g->n; v++) {
            if (c->color[v] < k) continue;
            bool found = false;
            for (uint32_t i = g->row[v]; i < g->row[v + 1] && !found; i++) {
                uint32_t d = g->col[i];
                if (c->color[d] < k) continue; /* vplist[dest] < color */
                found = larger(c, v, d);
            }
            if (!found) c->color[v] = k;
            else left = true;
        }
        if (!left) {
            c->rounds = k + 1;
            return;
        }
    }
}

/* kernel: if (vplist[tid] == INF) { local_rand = randlist[tid]; for (i = start; i < end; i++) { dest = elist[i];
 * if (vplist[dest] < color) continue; if (randlist[dest] > local_rand || (== && dest < vid)) { found; break; } }
 * if (!found) vplist[vid] = color; else *over = false; } */
static int gen_gc(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                  struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct gc_launch *L = k->data;
    const struct gc *c = L->c;
    const struct mw_graph *g = &c->g;
    struct gr_warp *w = scratch;
    CO_BEGIN(w);
    gr_tids(w->v, t0, mask);
    GR_PROLOGUE(w, o, mask);
    gi_ldx(o, 0x30, mask, 4, 3, 2, c->vpl, w->v); /* vplist[tid] */
    CO_YIELD(w);
    GR_WHERE(w->a, mask, l, c->color[w->v[l]] >= L->k);
    gi_br(o, 0x40, mask, 3, 0);
    CO_YIELD(w);
    if (!w->a) goto done;
    GR_FLAGGED_RANGE(w, o, g, w->a, c->vlist);
    gi_ldx(o, 0x80, w->a, 4, 7, 2, c->rand, w->v); /* local_rand = randlist[vid] */
    CO_YIELD(w);
    w->b = w->a; /* lanes still scanning */
    w->d = 0;    /* lanes that found a larger neighbour */
    for (w->it = 0;; w->it++) {
        FOR_LANES(w->b, l) if (w->x[l] + (uint64_t)w->it >= w->y[l]) w->b &= ~(1u << l);
        gi_br(o, 0x90, w->a, 5, 6);
        CO_YIELD(w);
        if (!w->b) break;
        FOR_LANES(w->b, l) w->z[l] = g->col[w->x[l] + (uint64_t)w->it];
        GR_ELIST(w, o, 0xa0, w->b, 8, 5, c->elist); /* dest = elist[i] */
        gi_alu(o, 0xc0, w->b, 10, 9, 0);
        CO_YIELD(w);
        gi_ldx(o, 0xd0, w->b, 4, 11, 10, c->vpl, w->z); /* vplist[dest] */
        CO_YIELD(w);
        GR_WHERE(w->c, w->b, l, c->color[w->z[l]] >= L->k);
        gi_br(o, 0xe0, w->b, 11, 0); /* < color: continue */
        CO_YIELD(w);
        if (w->c) {
            gi_ldx(o, 0xf0, w->c, 4, 12, 10, c->rand, w->z); /* randlist[dest] */
            CO_YIELD(w);
            FOR_LANES(w->c, l) if (larger(c, (uint32_t)w->v[l], (uint32_t)w->z[l])) w->d |= 1u << l, w->b &= ~(1u << l);
            gi_br(o, 0x100, w->c, 12, 7); /* larger: found_larger = true; break */
            CO_YIELD(w);
        }
        gi_alu(o, 0x110, w->b, 5, 5, 0); /* i++ */
        CO_YIELD(w);
    }
    gi_br(o, 0x120, w->a, 13, 0); /* found_larger == false */
    CO_YIELD(w);
    if (w->a & ~w->d) {
        gi_stx(o, 0x130, w->a & ~w->d, 4, 2, 0, c->vpl, w->v); /* vplist[vid] = color */
        CO_YIELD(w);
    }
    if (w->d) {
        gi_flag(o, 0x140, w->d, c->over); /* *device_over = false */
        CO_YIELD(w);
    }
done:
    CO_END(w);
}
enum { GC_INSTS = 0x150 / 16 }; /* gen_gc's code: its last PC is 0x140, its EXIT after it */

int mw_wl_graph_gc(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    struct gc *c = calloc(1, sizeof *c);
    if (!c) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    /* default: one round per colour makes the run long, so a smaller graph (scale 14, mean degree 8) */
    static const uint32_t nv[4] = {256, 4096, 16384, 1000}, ne[4] = {2048, 32768, 131072, 29790};
    int rc = gr_input_graph(size, seed, nv, ne, &c->g, e);
    if (rc < 0) {
        free(c);
        return rc;
    }
    struct mw_kgen_program p = {.owned = c, .free_owned = gc_free};
    const struct mw_graph *g = &c->g;
    c->nthreads = g->n;
    c->rnd = malloc((size_t)g->n * sizeof *c->rnd);
    c->color = malloc((size_t)g->n * sizeof *c->color);
    if (!c->rnd || !c->color) goto oom;
    uint64_t s = seed ^ 0x7b; /* SEED 123 */
    for (uint32_t v = 0; v < g->n; v++) c->rnd[v] = (uint32_t)(gr_splitmix(&s) >> 33); /* rand(): 0 .. 2^31 - 1 */
    gc_run(c);
    uint64_t top = 0x10000000ull; /* cuda_graph_coloring's cudaMalloc order, then cudaGraphCopy */
    c->vpl = gr_alloc(&top, (uint64_t)g->n * 4);
    c->rand = gr_alloc(&top, (uint64_t)g->n * 4);
    c->over = gr_alloc(&top, 1);
    gr_alloc_graph(&top, g, &c->vlist, &c->elist);
    c->init = (struct gr_init){g->n, 1, {c->vpl}, {4}};
    c->l = calloc(c->rounds, sizeof *c->l);
    if (!c->l || !gr_launch_init(&p, 8, &c->init)) goto oom;
    for (uint32_t k = 0; k < c->rounds; k++) {
        c->l[k] = (struct gc_launch){g->n, c, k};
        if (!gr_kernel(&p, "kernel", g->n, 16, &c->l[k], gen_gc, GC_INSTS)) goto oom;
    }
    return mw_kgen_workload(w, "graph.gc", &p, e);
oom:
    return gr_fail(&p, e);
}
