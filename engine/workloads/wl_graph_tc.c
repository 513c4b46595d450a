/* GraphBig triangle counting (gpu_bench/gpu_TriangleCount/triangle_count.cu, after Schank): kernel_step1 sorts
 * every vertex's neighbour list in place with a per-thread quicksort (random pivots, a 2048-entry range stack in
 * local memory), kernel_step2 intersects the sorted lists of u and v for every edge u < v with a merge loop and
 * adds the common-neighbour count to both endpoints with atomicAdd, kernel_step3 halves and sums the counts.
 * The quicksort runs lane by lane on the generated (unsorted) lists; divergent lanes reconverge at loop exits. */
#include "wl_graph.h"

#include <stdlib.h>

#define QS_STACK 2048   /* STACK_SZ: the local array's size, which sets the local-memory layout */
#define QS_DEPTH 192    /* ranges the model keeps per lane; random pivots stay far below */
#define QS_SEED 123
#define LOCAL_BASE 0xc0000000ull

struct tc {
    uint64_t nthreads;
    struct mw_graph g;
    uint32_t *work;  /* neighbour lists as step1 sorts them */
    uint32_t *srt;   /* sorted lists (step2's view) */
    uint64_t vpl, tcount, vlist, elist;
    struct gr_init init;
};

struct qs_warp {
    int line;
    uint32_t A, B, C, D, E;
    int r;
    uint64_t v[MW_WARP_SIZE], seed[MW_WARP_SIZE], left[MW_WARP_SIZE];
    uint32_t start[MW_WARP_SIZE], len[MW_WARP_SIZE], pos[MW_WARP_SIZE], right[MW_WARP_SIZE], pivot[MW_WARP_SIZE];
    uint32_t stack[MW_WARP_SIZE][QS_DEPTH];
};

static void tc_free(void *p)
{
    struct tc *t = p;
    if (!t) return;
    mw_wl_graph_free(&t->g);
    free(t->work), free(t->srt), free(t);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Local memory interleaves threads word by word: slot s of lane l of global warp W. */
static uint64_t local_addr(const struct mw_tctx *t0, int l, uint32_t slot)
{
    return LOCAL_BASE + ((t0->gtid / MW_WARP_SIZE) * QS_STACK + slot) * (8 * MW_WARP_SIZE) + (uint64_t)l * 8;
}

/* kernel_step1: quicksort(&elist[vlist[tid]], degree(tid)):
 * for (;;) { for (; left + 1 < len; len++) { pivot = a[left + seed % (len - left)]; seed = seed * 69069 + 1;
 *   stack[pos++] = len; for (right = left - 1;;) { while (a[++right] < pivot); while (pivot < a[--len]);
 *   if (right >= len) break; swap(a[right], a[len]); } } if (pos == 0) break; left = len; len = stack[--pos]; } */
static int gen_sort(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                    struct mw_inst *o, struct mw_err *e)
{
    const struct tc *t = k->data;
    const struct mw_graph *g = &t->g;
    struct qs_warp *w = scratch;
    uint32_t *a;
    CO_BEGIN(w);
    FOR_LANES(mask, l) {
        w->v[l] = t0->gtid + (uint64_t)l;
        w->start[l] = g->row[w->v[l]], w->len[l] = g->row[w->v[l] + 1] - w->start[l];
        w->left[l] = 0, w->pos[l] = 0, w->seed[l] = QS_SEED;
        memcpy(t->work + w->start[l], g->col + w->start[l], w->len[l] * sizeof *t->work);
    }
    GR_PROLOGUE(w, o, mask);
    GR_VLIST(w, o, 0x30, mask, 3, 2, t->vlist);
    gi_alu(o, 0x50, mask, 5, 3, 4); /* len = degree */
    CO_YIELD(w);
    for (w->A = mask; w->A;) {
        for (;;) { /* for (; left + 1 < len; len++) */
            w->B = 0;
            FOR_LANES(w->A, l) if (w->left[l] + 1 < w->len[l]) w->B |= 1u << l;
            gi_br(o, 0x60, w->A, 6, 5);
            CO_YIELD(w);
            if (!w->B) break;
            FOR_LANES(w->B, l) if (w->pos[l] >= QS_DEPTH)
                return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "graph.tc: quicksort ranges deeper than %d", QS_DEPTH);
            gi_br(o, 0x70, w->B, 7, 0); /* pos == STACK_SZ */
            CO_YIELD(w);
            for (w->r = 0; w->r < 8; w->r++) { /* 64-bit seed % (len - left): the division subroutine */
                gi_alu(o, 0x80 + 0x10 * (uint64_t)w->r, w->B, 8, w->r ? 8 : 9, 5);
                CO_YIELD(w);
            }
            gi_alu(o, 0x100, w->B, 10, 8, 2);
            CO_YIELD(w);
            gi_ld(o, 0x110, w->B, 8, 11, 10); /* pivot */
            FOR_LANES(w->B, l) {
                uint64_t i = w->left[l] + w->seed[l] % (w->len[l] - w->left[l]);
                o->addr[l] = t->elist + (w->start[l] + i) * 8;
                w->pivot[l] = t->work[w->start[l] + i];
                w->seed[l] = w->seed[l] * 69069 + 1;
            }
            CO_YIELD(w);
            gi_alu(o, 0x120, w->B, 9, 9, 0); /* seed = seed * 69069 + 1 */
            CO_YIELD(w);
            gi_head(o, 0x130, MW_OP_ST_LOCAL, w->B); /* stack[pos++] = len */
            o->width = 8, o->nsrc = 2, o->src[0] = 7, o->src[1] = 5;
            FOR_LANES(w->B, l) o->addr[l] = local_addr(t0, l, w->pos[l]), w->stack[l][w->pos[l]++] = w->len[l];
            CO_YIELD(w);
            gi_alu(o, 0x140, w->B, 12, 6, 0); /* right = left - 1 */
            FOR_LANES(w->B, l) w->right[l] = (uint32_t)w->left[l] - 1;
            CO_YIELD(w);
            for (w->C = w->B; w->C;) {
                for (w->D = w->C; w->D;) { /* while (a[++right] < pivot) */
                    gi_alu(o, 0x150, w->D, 12, 12, 0);
                    CO_YIELD(w);
                    gi_ld(o, 0x160, w->D, 8, 13, 12);
                    FOR_LANES(w->D, l) o->addr[l] = t->elist + (uint64_t)(w->start[l] + ++w->right[l]) * 8;
                    CO_YIELD(w);
                    a = t->work;
                    FOR_LANES(w->D, l) if (!(a[w->start[l] + w->right[l]] < w->pivot[l])) w->D &= ~(1u << l);
                    gi_br(o, 0x170, w->C, 13, 11);
                    CO_YIELD(w);
                }
                for (w->E = w->C; w->E;) { /* while (pivot < a[--len]) */
                    gi_alu(o, 0x180, w->E, 5, 5, 0);
                    CO_YIELD(w);
                    gi_ld(o, 0x190, w->E, 8, 14, 5);
                    FOR_LANES(w->E, l) o->addr[l] = t->elist + (uint64_t)(w->start[l] + --w->len[l]) * 8;
                    CO_YIELD(w);
                    a = t->work;
                    FOR_LANES(w->E, l) if (!(w->pivot[l] < a[w->start[l] + w->len[l]])) w->E &= ~(1u << l);
                    gi_br(o, 0x1a0, w->C, 14, 11);
                    CO_YIELD(w);
                }
                FOR_LANES(w->C, l) if (w->right[l] >= w->len[l]) w->C &= ~(1u << l);
                gi_br(o, 0x1b0, w->B, 12, 5); /* right >= len */
                CO_YIELD(w);
                if (!w->C) break;
                gi_st(o, 0x1c0, w->C, 8, 12, 14); /* a[right] = a[len] */
                FOR_LANES(w->C, l) o->addr[l] = t->elist + (uint64_t)(w->start[l] + w->right[l]) * 8;
                CO_YIELD(w);
                gi_st(o, 0x1d0, w->C, 8, 5, 13); /* a[len] = temp */
                a = t->work;
                FOR_LANES(w->C, l) {
                    o->addr[l] = t->elist + (uint64_t)(w->start[l] + w->len[l]) * 8;
                    uint32_t x = a[w->start[l] + w->right[l]];
                    a[w->start[l] + w->right[l]] = a[w->start[l] + w->len[l]], a[w->start[l] + w->len[l]] = x;
                }
                CO_YIELD(w);
            }
            gi_alu(o, 0x1e0, w->B, 5, 5, 0); /* len++ */
            FOR_LANES(w->B, l) w->len[l]++;
            CO_YIELD(w);
        }
        gi_br(o, 0x1f0, w->A, 7, 0); /* pos == 0 */
        FOR_LANES(w->A, l) if (w->pos[l] == 0) w->A &= ~(1u << l);
        CO_YIELD(w);
        if (!w->A) break;
        gi_alu(o, 0x200, w->A, 6, 5, 7); /* left = len; --pos */
        FOR_LANES(w->A, l) w->left[l] = w->len[l], w->pos[l]--;
        CO_YIELD(w);
        gi_head(o, 0x210, MW_OP_LD_LOCAL, w->A); /* len = stack[pos] */
        o->width = 8, o->ndst = 1, o->dst[0] = 5, o->nsrc = 1, o->src[0] = 7;
        FOR_LANES(w->A, l) o->addr[l] = local_addr(t0, l, w->pos[l]), w->len[l] = w->stack[l][w->pos[l]];
        CO_YIELD(w);
    }
    FOR_LANES(mask, l) /* the lanes' lists must now be step2's sorted lists */
        if (memcmp(t->work + g->row[w->v[l]], t->srt + g->row[w->v[l]],
                   (g->row[w->v[l] + 1] - g->row[w->v[l]]) * sizeof *t->work) != 0)
            return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "graph.tc: vertex %llu left unsorted",
                              (unsigned long long)w->v[l]);
    CO_END(w);
}
enum { SORT_INSTS = 0x220 / 16 }; /* gen_sort's code: its last PC is 0x210, its EXIT after it */

struct ix_warp {
    int line;
    uint32_t a, b, c;
    int64_t it;
    uint64_t v[MW_WARP_SIZE], x[MW_WARP_SIZE], y[MW_WARP_SIZE], z[MW_WARP_SIZE];
    uint64_t i1[MW_WARP_SIZE], i2[MW_WARP_SIZE], e2[MW_WARP_SIZE]; /* merge cursors (edge indices), B's end */
};

/* kernel_step2: for (i = start; i < end; i++) { dest = elist[i]; if (tid > dest) continue;
 * cnt = get_intersect_cnt(&elist[start], deg(tid), &elist[vlist[dest]], deg(dest));
 * atomicAdd(&vplist[tid], cnt); atomicAdd(&vplist[dest], cnt); }
 * get_intersect_cnt: while (i1 < sizeA && i2 < sizeB) { if (A[i1] < B[i2]) i1++; else if (A[i1] > B[i2]) i2++;
 * else { ret++; i1++; i2++; } } */
static int gen_count(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                     struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct tc *t = k->data;
    const struct mw_graph *g = &t->g;
    const uint32_t *s = t->srt;
    struct ix_warp *w = scratch;
    CO_BEGIN(w);
    FOR_LANES(mask, l) w->v[l] = t0->gtid + (uint64_t)l, w->x[l] = g->row[w->v[l]], w->y[l] = g->row[w->v[l] + 1];
    GR_PROLOGUE(w, o, mask);
    GR_VLIST(w, o, 0x30, mask, 3, 2, t->vlist);
    gi_alu(o, 0x50, mask, 5, 3, 4);
    CO_YIELD(w);
    for (w->it = 0;; w->it++) {
        w->a = 0;
        FOR_LANES(mask, l) if (w->x[l] + (uint64_t)w->it < w->y[l]) w->a |= 1u << l;
        gi_br(o, 0x60, mask, 3, 5);
        CO_YIELD(w);
        if (!w->a) break;
        GR_ELIST(w, o, 0x70, w->a, 6, 3, t->elist); /* dest = elist[i] */
        w->b = 0;
        FOR_LANES(w->a, l) if ((w->z[l] = s[w->x[l] + (uint64_t)w->it]) > w->v[l]) w->b |= 1u << l;
        gi_br(o, 0x90, w->a, 1, 7); /* tid > dest: continue */
        CO_YIELD(w);
        if (!w->b) goto next;
        gi_alu(o, 0xa0, w->b, 8, 7, 0);
        CO_YIELD(w);
        gi_ldx(o, 0xb0, w->b, 8, 9, 8, t->vlist, w->z); /* dest_start = vlist[dest] */
        CO_YIELD(w);
        gi_ldx(o, 0xc0, w->b, 8, 10, 8, t->vlist + 8, w->z); /* vlist[dest + 1] */
        CO_YIELD(w);
        gi_alu(o, 0xd0, w->b, 11, 9, 10); /* sizes; ret = iter1 = iter2 = 0 */
        FOR_LANES(w->b, l) w->i1[l] = w->x[l], w->i2[l] = g->row[w->z[l]], w->e2[l] = g->row[w->z[l] + 1];
        CO_YIELD(w);
        for (;;) {
            w->c = 0;
            FOR_LANES(w->b, l) if (w->i1[l] < w->y[l] && w->i2[l] < w->e2[l]) w->c |= 1u << l;
            gi_br(o, 0xe0, w->b, 12, 13);
            CO_YIELD(w);
            if (!w->c) break;
            gi_alu(o, 0xf0, w->c, 14, 12, 0);
            CO_YIELD(w);
            gi_ld(o, 0x100, w->c, 8, 15, 14); /* setA[iter1] */
            FOR_LANES(w->c, l) o->addr[l] = t->elist + w->i1[l] * 8;
            CO_YIELD(w);
            gi_alu(o, 0x110, w->c, 16, 13, 9);
            CO_YIELD(w);
            gi_ld(o, 0x120, w->c, 8, 17, 16); /* setB[iter2] */
            FOR_LANES(w->c, l) o->addr[l] = t->elist + w->i2[l] * 8;
            CO_YIELD(w);
            gi_br(o, 0x130, w->c, 15, 17);
            CO_YIELD(w);
            gi_alu(o, 0x140, w->c, 12, 15, 17); /* the cursor (and count) updates */
            FOR_LANES(w->c, l) {
                uint32_t p = s[w->i1[l]], q = s[w->i2[l]];
                if (p < q) w->i1[l]++;
                else if (p > q) w->i2[l]++;
                else w->i1[l]++, w->i2[l]++;
            }
            CO_YIELD(w);
        }
        gi_alu(o, 0x150, w->b, 18, 2, 0);
        CO_YIELD(w);
        gi_atom(o, 0x160, w->b, 0, 18, 19); /* atomicAdd(&vplist[tid], cnt) */
        gi_addr(o, w->b, t->vpl, w->v, 4);
        CO_YIELD(w);
        gi_alu(o, 0x170, w->b, 20, 7, 0);
        CO_YIELD(w);
        gi_atom(o, 0x180, w->b, 0, 20, 19); /* atomicAdd(&vplist[dest], cnt) */
        gi_addr(o, w->b, t->vpl, w->z, 4);
        CO_YIELD(w);
    next:
        gi_alu(o, 0x190, w->a, 3, 3, 0); /* i++ */
        CO_YIELD(w);
    }
    CO_END(w);
}
enum { COUNT_INSTS = 0x1a0 / 16 }; /* gen_count's code: its last PC is 0x190, its EXIT after it */

/* kernel_step3: vplist[tid] = vplist[tid] / 2; atomicAdd(d_tcount, vplist[tid]); */
static int gen_sum(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                   struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct tc *t = k->data;
    struct gr_warp *w = scratch;
    CO_BEGIN(w);
    gr_tids(w->v, t0, mask);
    GR_PROLOGUE(w, o, mask);
    gi_ldx(o, 0x30, mask, 4, 3, 2, t->vpl, w->v);
    CO_YIELD(w);
    gi_alu(o, 0x40, mask, 3, 3, 0);
    CO_YIELD(w);
    gi_stx(o, 0x50, mask, 4, 2, 3, t->vpl, w->v);
    CO_YIELD(w);
    gi_atom(o, 0x60, mask, 0, 0, 3);
    FOR_LANES(mask, l) o->addr[l] = t->tcount;
    CO_YIELD(w);
    CO_END(w);
}
enum { SUM_INSTS = 0x70 / 16 }; /* gen_sum's code: its last PC is 0x60, its EXIT after it */

int mw_wl_graph_tc(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    struct tc *t = calloc(1, sizeof *t);
    if (!t) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    /* the work grows with the square of the degrees: sparser graphs than the other models' (mean degree 4; the
     * paper size keeps GraphBig's dataset/small counts) */
    static const uint32_t nv[4] = {128, 2048, 16384, 1000}, ne[4] = {512, 8192, 32768, 29790};
    int rc = gr_input_graph(size, seed, nv, ne, &t->g, e);
    if (rc < 0) {
        free(t);
        return rc;
    }
    struct mw_kgen_program p = {.owned = t, .free_owned = tc_free};
    const struct mw_graph *g = &t->g;
    t->nthreads = g->n;
    t->work = malloc(((size_t)g->m + 1) * sizeof *t->work);
    t->srt = malloc(((size_t)g->m + 1) * sizeof *t->srt);
    if (!t->work || !t->srt) goto oom;
    memcpy(t->srt, g->col, (size_t)g->m * sizeof *t->srt);
    for (uint32_t v = 0; v < g->n; v++) qsort(t->srt + g->row[v], g->row[v + 1] - g->row[v], sizeof *t->srt, cmp_u32);
    uint64_t top = 0x10000000ull; /* cuda_triangle_count: vplist, tcount, then cudaGraphCopy */
    t->vpl = gr_alloc(&top, (uint64_t)g->n * 4);
    t->tcount = gr_alloc(&top, 4);
    gr_alloc_graph(&top, g, &t->vlist, &t->elist);
    t->init = (struct gr_init){g->n, 1, {t->vpl}, {4}};
    if (!gr_launch_init(&p, 8, &t->init) ||
        !gr_launch(&p, "kernel_step1", g->n, 24, t, gen_sort, SORT_INSTS, sizeof(struct qs_warp)) ||
        !gr_launch(&p, "kernel_step2", g->n, 24, t, gen_count, COUNT_INSTS, sizeof(struct ix_warp)) ||
        !gr_kernel(&p, "kernel_step3", g->n, 8, t, gen_sum, SUM_INSTS))
        goto oom;
    return mw_kgen_workload(w, "graph.tc", &p, e);
oom:
    return gr_fail(&p, e);
}
