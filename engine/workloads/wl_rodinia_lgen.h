/* Loop programs for the Rodinia models whose kernels nest loops, put barriers inside loops or leave loops
 * per lane (PARTICLEFILTER, HEARTWALL): a flat list of instruction templates with LOOP / END brackets, run per
 * warp by a kgen custom generator. Each lane leaves a loop when the loop counter reaches its own trip count;
 * templates see the thread's CUDA indices and the counters of the enclosing loops (v[0] outermost). */
#ifndef MW_WL_RODINIA_LGEN_H
#define MW_WL_RODINIA_LGEN_H

#include "kgen.h"

#include <string.h>

typedef uint64_t (*lg_addr_fn)(const struct mw_tctx *t, const int64_t *v, const void *d);
typedef bool (*lg_pred_fn)(const struct mw_tctx *t, const int64_t *v, const void *d);
typedef int64_t (*lg_trips_fn)(const struct mw_tctx *t, const int64_t *v, const void *d);

enum { LG_INST, LG_LOOP, LG_END };
struct lg_op {
    uint8_t kind, op, width, ndst, nsrc;
    uint16_t dst, src[2];
    lg_addr_fn addr;   /* memory instructions */
    lg_pred_fn pred;   /* NULL: every lane of the enclosing loop */
    lg_trips_fn trips; /* LG_LOOP: the lane's trip count */
};

/* Template shorthands: loads write d from address register a; stores read a and v. */
#define LG_LD(op_, w, d, a, fn, p) {LG_INST, op_, w, 1, 1, d, {a, 0}, fn, p, NULL}
#define LG_ST(op_, w, v, a, fn, p) {LG_INST, op_, w, 0, 2, 0, {a, v}, fn, p, NULL}
#define LG_LDG(w, d, a, fn, p) LG_LD(MW_OP_LD_GLOBAL, w, d, a, fn, p)
#define LG_STG(w, v, a, fn, p) LG_ST(MW_OP_ST_GLOBAL, w, v, a, fn, p)
#define LG_LDS(w, d, a, fn, p) LG_LD(MW_OP_LD_SHARED, w, d, a, fn, p)
#define LG_STS(w, v, a, fn, p) LG_ST(MW_OP_ST_SHARED, w, v, a, fn, p)
#define LG_ALU(d, s1, s2, p) {LG_INST, MW_OP_ALU, 0, 1, 2, d, {s1, s2}, NULL, p, NULL}
#define LG_DP(d, s1, s2, p) {LG_INST, MW_OP_DP, 0, 1, 2, d, {s1, s2}, NULL, p, NULL}
#define LG_SFU(d, s1, p) {LG_INST, MW_OP_SFU, 0, 1, 1, d, {s1, 0}, NULL, p, NULL}
#define LG_BRA(s1, p) {LG_INST, MW_OP_BRANCH, 0, 0, 1, 0, {s1, 0}, NULL, p, NULL}
#define LG_BAR {LG_INST, MW_OP_BARRIER, 0, 0, 0, 0, {0, 0}, NULL, NULL, NULL}
#define LG_LOOP(fn) {LG_LOOP, 0, 0, 0, 0, 0, {0, 0}, NULL, NULL, fn}
#define LG_END(s1) {LG_END, MW_OP_BRANCH, 0, 0, 1, 0, {s1, 0}, NULL, NULL, NULL}

/* What a kernel's `data` points to: the program and the data its templates read. */
struct lg_kernel {
    const struct lg_op *ops;
    int nops;
    const void *d;
};

#define LG_DEPTH 6
struct lg_warp {
    int init, pc, depth;
    int64_t v[LG_DEPTH];
    uint32_t mask[LG_DEPTH + 1]; /* mask[0] the warp's lanes; mask[d + 1] those inside loop d */
    int start[LG_DEPTH];
    struct mw_tctx t[MW_WARP_SIZE];
};

static inline int lg_skip(const struct lg_kernel *p, int pc)
{
    for (int n = 0; pc < p->nops; pc++) {
        if (p->ops[pc].kind == LG_LOOP) n++;
        else if (p->ops[pc].kind == LG_END && --n == 0) return pc + 1;
    }
    return p->nops;
}

static inline uint32_t lg_lanes(const struct lg_kernel *p, const struct lg_warp *w, const struct lg_op *op,
                                uint32_t m)
{
    uint32_t r = 0;
    for (int l = 0; l < MW_WARP_SIZE; l++)
        if ((m >> l & 1u) && op->trips(&w->t[l], w->v, p->d) > w->v[w->depth - 1]) r |= 1u << l;
    return r;
}

/* kgen custom generator: instruction pc = 16 * template index; a loop's END is its compare-and-branch. A kernel
 * running it declares ninsts = nops (the EXIT after the last template). */
static inline int lg_next(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                          struct mw_inst *o, struct mw_err *e)
{
    const struct lg_kernel *p = k->data;
    struct lg_warp *w = scratch;
    if (!w->init) {
        uint32_t cta = t0->ctaid[0] + k->k.grid[0] * (t0->ctaid[1] + k->k.grid[1] * t0->ctaid[2]);
        for (uint32_t l = 0; l < MW_WARP_SIZE; l++) mw_kgen_thread(&k->k, cta, t0->warp, l, &w->t[l]);
        w->mask[0] = mask;
        w->init = 1;
    }
    while (w->pc < p->nops) {
        const struct lg_op *op = &p->ops[w->pc];
        uint32_t m = w->mask[w->depth];
        if (op->kind == LG_LOOP) {
            if (w->depth >= LG_DEPTH) return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "loops nested too deep");
            w->v[w->depth++] = 0;
            uint32_t in = lg_lanes(p, w, op, m);
            if (!in) {
                w->depth--;
                w->pc = lg_skip(p, w->pc);
                continue;
            }
            w->start[w->depth - 1] = w->pc + 1;
            w->mask[w->depth] = in;
            w->pc++;
            continue;
        }
        memset(o, 0, offsetof(struct mw_inst, addr));
        o->pc = (uint64_t)w->pc * 16;
        o->op = op->op, o->width = op->width, o->ndst = op->ndst, o->nsrc = op->nsrc;
        o->dst[0] = op->dst, o->src[0] = op->src[0], o->src[1] = op->src[1];
        if (op->kind == LG_END) {
            int d = w->depth - 1;
            o->mask = m;
            w->v[d]++;
            /* the LOOP template's trip function decides who stays */
            uint32_t in = lg_lanes(p, w, &p->ops[w->start[d] - 1], m);
            if (in) w->mask[w->depth] = in, w->pc = w->start[d];
            else w->depth--, w->pc++;
            return 1;
        }
        if (op->pred)
            for (int l = 0; l < MW_WARP_SIZE; l++)
                if ((m >> l & 1u) && !op->pred(&w->t[l], w->v, p->d)) m &= ~(1u << l);
        w->pc++;
        if (!m) continue;
        o->mask = m;
        if (op->addr)
            for (int l = 0; l < MW_WARP_SIZE; l++) o->addr[l] = (m >> l & 1u) ? op->addr(&w->t[l], w->v, p->d) : 0;
        return 1;
    }
    return 0;
}

#endif
