/* The per-warp interpreter of structured kernel programs (see kloop.h): a region stack of LOOP/IF brackets, each
 * narrowing the active mask, on top of kgen's custom generator hook. */
#include "kloop.h"

#include <string.h>

struct kl_region {
    int start;          /* index of the LOOP/IF op */
    bool loop;
    int64_t i, n;       /* loops: current iteration, trip count */
    uint32_t outer;     /* mask of the enclosing region */
};

struct kl_warp {
    bool init;
    bool row;           /* lane_affine applies: the warp's 32 threads lie in one row of the block (kgen.h) */
    int ip, sp, nl;
    uint32_t mask;      /* lanes of the current region */
    struct kl_region st[MW_KL_MAXDEPTH];
    int64_t lc[MW_KL_MAXDEPTH];
    struct mw_tctx t[MW_WARP_SIZE];
};

static uint32_t lanes(const struct kl_warp *w, mw_kl_pred_fn pred, const void *d)
{
    uint32_t m = w->mask;
    if (!pred) return m;
    for (int l = 0; l < MW_WARP_SIZE; l++)
        if ((m >> l & 1u) && !pred(&w->t[l], w->lc, d)) m &= ~(1u << l);
    return m;
}

static int match_end(const struct mw_kl_hdr *h, int ip)
{
    int depth = 0;
    for (int i = ip; i < h->nops; i++) {
        if (h->ops[i].kind == MW_KL_LOOP || h->ops[i].kind == MW_KL_IF) depth++;
        else if (h->ops[i].kind == MW_KL_END && --depth == 0) return i;
    }
    return h->nops - 1;
}

static void branch(struct mw_inst *o, uint64_t pc, uint32_t mask, const struct mw_kl_op *op)
{
    memset(o, 0, offsetof(struct mw_inst, addr));
    o->pc = pc, o->op = MW_OP_BRANCH, o->mask = mask;
    o->nsrc = op->nsrc;
    memcpy(o->src, op->src, sizeof op->src);
}

static int gen(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
               struct mw_inst *o, struct mw_err *e)
{
    const struct mw_kl_hdr *h = k->data;
    struct kl_warp *w = scratch;
    if (!w->init) {
        uint32_t cta = t0->ctaid[0] + k->k.grid[0] * (t0->ctaid[1] + k->k.grid[1] * t0->ctaid[2]);
        w->row = k->lane_affine && !mw_kgen_per_lane && mw_kgen_warp_in_row(t0->warp, k->k.block[0]);
        uint32_t need = mask | (w->row ? 3u : 0u); /* lanes 0 and 1 give the others' addresses */
        for (int l = 0; l < MW_WARP_SIZE; l++)
            if (need >> l & 1u) mw_kgen_thread(&k->k, cta, t0->warp, (uint32_t)l, &w->t[l]);
        w->mask = mask;
        w->init = true;
    }
    for (;;) {
        if (w->ip >= h->nops) return 0;
        const struct mw_kl_op *op = &h->ops[w->ip];
        uint64_t pc = (uint64_t)w->ip * 16;
        switch (op->kind) {
        case MW_KL_INST: {
            uint32_t m = lanes(w, op->pred, h);
            w->ip++;
            if (!m) continue;
            memset(o, 0, offsetof(struct mw_inst, addr));
            o->pc = pc, o->mask = m, o->op = op->op, o->width = op->width;
            o->ndst = op->ndst, o->nsrc = op->nsrc;
            memcpy(o->dst, op->dst, sizeof op->dst);
            memcpy(o->src, op->src, sizeof op->src);
            if (op->addr && w->row) {
                uint64_t a = op->addr(&w->t[0], w->lc, h), st = op->addr(&w->t[1], w->lc, h) - a;
                mw_kgen_fill_affine(o->addr, m, a, st);
                o->lane_affine = m == 0xffffffffu;
            } else if (op->addr)
                for (int l = 0; l < MW_WARP_SIZE; l++)
                    o->addr[l] = (m >> l & 1u) ? op->addr(&w->t[l], w->lc, h) : 0;
            return 1;
        }
        case MW_KL_LOOP:
        case MW_KL_IF: {
            uint32_t m = lanes(w, op->pred, h);
            int64_t n = 1;
            if (op->kind == MW_KL_LOOP && m)
                n = op->trips ? op->trips(&w->t[__builtin_ctz(m)], w->lc, h) : op->n;
            if (!m || n <= 0) {
                w->ip = match_end(h, w->ip) + 1;
                if (op->kind == MW_KL_IF) { /* the branch around the empty region */
                    branch(o, pc, w->mask, op);
                    return 1;
                }
                continue;
            }
            if (w->sp >= MW_KL_MAXDEPTH)
                return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s: regions nested deeper than %d", k->k.name,
                                  MW_KL_MAXDEPTH);
            struct kl_region *r = &w->st[w->sp++];
            r->start = w->ip, r->loop = op->kind == MW_KL_LOOP, r->i = 0, r->n = n, r->outer = w->mask;
            if (r->loop) w->lc[w->nl++] = 0;
            uint32_t outer = w->mask;
            w->mask = m;
            w->ip++;
            if (!r->loop) {
                branch(o, pc, outer, op);
                return 1;
            }
            continue;
        }
        case MW_KL_END: {
            if (w->sp == 0) return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s: END without LOOP/IF", k->k.name);
            struct kl_region *r = &w->st[w->sp - 1];
            if (!r->loop) {
                w->sp--, w->mask = r->outer, w->ip++;
                continue;
            }
            branch(o, pc, w->mask, &h->ops[r->start]);
            if (++r->i < r->n) {
                w->lc[w->nl - 1] = r->i;
                w->ip = r->start + 1;
            } else {
                w->nl--, w->sp--, w->mask = r->outer, w->ip++;
            }
            return 1;
        }
        default: return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s: bad op kind %d", k->k.name, op->kind);
        }
    }
}

void mw_kloop_kernel(struct mw_kgen_kernel *k, const struct mw_kl_hdr *data)
{
    k->custom = gen;
    k->data = data;
    k->scratch_bytes = sizeof(struct kl_warp);
    k->ninsts = (uint32_t)data->nops;
}
