/* The template-driven kernel generator behind the built-in workloads (see kgen.h). */
#include "kgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gen_warp {
    uint8_t phase;  /* 0 prologue, 1 body, 2 epilogue, 3 exit sent */
    int idx;
    int64_t iter, iters;
    uint32_t mask;  /* lanes that exist and pass the guard */
    bool row;       /* the 32 threads are consecutive in one row of the block (lane_affine applies) */
    struct mw_tctx t[MW_WARP_SIZE];
    void *scratch;
};

struct gen_cta {
    uint32_t cta, nwarps;
    struct gen_warp *w;
};

bool mw_kgen_per_lane;

struct gen {
    struct mw_kgen_program p;
    int next;   /* next kernel index */
    int cur;
};

void mw_kgen_thread(const struct mw_kernel *k, uint32_t cta, uint32_t warp, uint32_t lane, struct mw_tctx *t)
{
    memset(t, 0, sizeof *t);
    for (int i = 0; i < 3; i++) t->ntid[i] = k->block[i], t->nctaid[i] = k->grid[i];
    t->ctaid[0] = cta % k->grid[0];
    t->ctaid[1] = cta / k->grid[0] % k->grid[1];
    t->ctaid[2] = cta / (k->grid[0] * k->grid[1]);
    uint32_t lin = warp * MW_WARP_SIZE + lane;
    t->tid[0] = lin % k->block[0];
    t->tid[1] = lin / k->block[0] % k->block[1];
    t->tid[2] = lin / (k->block[0] * k->block[1]);
    t->lane = lane;
    t->warp = warp;
    t->gtid = (uint64_t)t->ctaid[0] * k->block[0] + t->tid[0];
}

static int next_kernel(struct mw_workload *w, struct mw_kernel *k, struct mw_err *e)
{
    (void)e;
    struct gen *g = w->self;
    if (g->next >= g->p.nkernels) return 0;
    g->cur = g->next++;
    *k = g->p.kernels[g->cur].k;
    k->id = (uint32_t)g->cur + 1;
    return 1;
}

static int cta_open(struct mw_workload *w, uint32_t cta, void **state, struct mw_err *e)
{
    struct gen *g = w->self;
    const struct mw_kgen_kernel *kk = &g->p.kernels[g->cur];
    struct gen_cta *c = calloc(1, sizeof *c);
    if (!c) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    c->cta = cta;
    c->nwarps = mw_kernel_cta_warps(&kk->k);
    c->w = calloc(c->nwarps, sizeof *c->w);
    if (!c->w) {
        free(c);
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    }
    uint32_t threads = mw_kernel_cta_threads(&kk->k);
    for (uint32_t wi = 0; wi < c->nwarps; wi++) {
        struct gen_warp *gw = &c->w[wi];
        for (uint32_t l = 0; l < MW_WARP_SIZE; l++) {
            mw_kgen_thread(&kk->k, cta, wi, l, &gw->t[l]);
            if (wi * MW_WARP_SIZE + l < threads && (!kk->guard || kk->guard(&gw->t[l], 0, kk->data)))
                gw->mask |= 1u << l;
        }
        gw->row = kk->lane_affine && !kk->custom && !mw_kgen_per_lane && mw_kgen_warp_in_row(wi, kk->k.block[0]);
        gw->iters = kk->iters_fn ? kk->iters_fn(&gw->t[0], kk->data) : kk->iters;
        if (kk->scratch_bytes) {
            gw->scratch = calloc(1, kk->scratch_bytes);
            if (!gw->scratch) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
        }
    }
    *state = c;
    return 0;
}

static void cta_close(struct mw_workload *w, void *state)
{
    (void)w;
    struct gen_cta *c = state;
    if (!c) return;
    for (uint32_t i = 0; i < c->nwarps; i++) free(c->w[i].scratch);
    free(c->w);
    free(c);
}

/* Emit template `ti` for the lanes of `gw` that are active; returns false if no lane is. */
static bool emit(const struct mw_kgen_kernel *kk, struct gen_warp *gw, const struct mw_tinst *ti, uint64_t pc,
                 struct mw_inst *out)
{
    uint32_t mask = gw->mask;
    if (ti->active)
        for (int l = 0; l < MW_WARP_SIZE; l++)
            if ((mask >> l & 1u) && !ti->active(&gw->t[l], gw->iter, kk->data)) mask &= ~(1u << l);
    if (!mask) return false;
    out->pc = pc;
    out->mask = mask;
    out->op = ti->op;
    out->width = ti->width;
    out->flags = 0;
    out->lane_affine = 0;
    out->ndst = ti->ndst;
    out->nsrc = ti->nsrc;
    memcpy(out->dst, ti->dst, sizeof ti->dst);
    memcpy(out->src, ti->src, sizeof ti->src);
    if (!ti->addr) return true;
    if (gw->row) {
        uint64_t a = ti->addr(&gw->t[0], gw->iter, kk->data), s = ti->addr(&gw->t[1], gw->iter, kk->data) - a;
        mw_kgen_fill_affine(out->addr, mask, a, s);
        out->lane_affine = mask == 0xffffffffu;
        return true;
    }
    for (int l = 0; l < MW_WARP_SIZE; l++)
        out->addr[l] = (mask >> l & 1u) ? ti->addr(&gw->t[l], gw->iter, kk->data) : 0;
    return true;
}

static int emit_exit(const struct mw_kgen_kernel *kk, struct gen_warp *gw, struct mw_inst *out)
{
    gw->phase = 3;
    mw_inst_exit(out, gw->mask, (uint64_t)kk->ninsts * MW_WL_INST_BYTES);
    return 1;
}

/* Where a template kernel's parts start (in instructions): prologue at 0, then the body, its loop branch (when
 * there is a body), the epilogue. */
static int body_at(const struct mw_kgen_kernel *kk) { return kk->npro; }
static int branch_at(const struct mw_kgen_kernel *kk) { return kk->npro + kk->nbody; }
static int epi_at(const struct mw_kgen_kernel *kk) { return kk->npro + kk->nbody + (kk->nbody > 0); }
static uint64_t pc_of(int inst) { return (uint64_t)inst * MW_WL_INST_BYTES; }

static int warp_next(struct mw_workload *w, void *state, uint32_t warp, struct mw_inst *out, struct mw_err *e)
{
    struct gen *g = w->self;
    const struct mw_kgen_kernel *kk = &g->p.kernels[g->cur];
    struct gen_warp *gw = &((struct gen_cta *)state)->w[warp];
    if (kk->custom) {
        if (gw->phase == 3) return 0;
        if (gw->mask) {
            int rc = kk->custom(kk, &gw->t[0], gw->mask, gw->scratch, out, e);
            if (rc == 1 && out->pc >= pc_of((int)kk->ninsts))
                return mw_err_set(e, MW_EINVAL, NULL, 0, 0,
                                  "kernel %s: pc 0x%llx is past its code (%u instructions, EXIT at 0x%llx)",
                                  kk->k.name, (unsigned long long)out->pc, kk->ninsts,
                                  (unsigned long long)pc_of((int)kk->ninsts));
            if (rc != 0) return rc;
        }
        return emit_exit(kk, gw, out);
    }
    for (;;) {
        switch (gw->phase) {
        case 0:
            if (gw->idx < kk->npro) {
                int i = gw->idx++;
                if (emit(kk, gw, &kk->pro[i], pc_of(i), out)) return 1;
                continue;
            }
            gw->phase = 1, gw->idx = 0, gw->iter = 0;
            continue;
        case 1:
            if (gw->iter >= gw->iters || kk->nbody == 0) {
                gw->phase = 2, gw->idx = 0;
                continue;
            }
            if (gw->idx < kk->nbody) {
                int i = gw->idx++;
                if (emit(kk, gw, &kk->body[i], pc_of(body_at(kk) + i), out)) return 1;
                continue;
            }
            gw->idx = 0;
            gw->iter++;
            /* the loop's compare-and-branch */
            memset(out, 0, offsetof(struct mw_inst, addr));
            out->op = MW_OP_BRANCH;
            out->mask = gw->mask;
            out->pc = pc_of(branch_at(kk));
            if (gw->mask) return 1;
            continue;
        case 2:
            if (gw->idx < kk->nepi) {
                int i = gw->idx++;
                if (emit(kk, gw, &kk->epi[i], pc_of(epi_at(kk) + i), out)) return 1;
                continue;
            }
            return emit_exit(kk, gw, out);
        default:
            return 0;
        }
    }
}

static void destroy(struct mw_workload *w)
{
    struct gen *g = w->self;
    if (!g) return;
    if (g->p.free_owned) g->p.free_owned(g->p.owned);
    free(g->p.kernels);
    free(g);
}

static const struct mw_workload_ops gen_ops = {
    .kind = "builtin",
    .next_kernel = next_kernel,
    .cta_open = cta_open,
    .warp_next = warp_next,
    .cta_close = cta_close,
    .destroy = destroy,
};

int mw_kgen_workload(struct mw_workload *w, const char *name, struct mw_kgen_program *p, struct mw_err *e)
{
    struct gen *g = calloc(1, sizeof *g);
    if (!g) { /* the program is ours either way: freed as destroy() would */
        if (p->free_owned) p->free_owned(p->owned);
        free(p->kernels);
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (int i = 0; i < p->nkernels; i++) { /* a template kernel's EXIT follows its epilogue */
        struct mw_kgen_kernel *kk = &p->kernels[i];
        if (!kk->custom) kk->ninsts = (uint32_t)(epi_at(kk) + kk->nepi);
    }
    g->p = *p;
    memset(w, 0, sizeof *w);
    w->ops = &gen_ops;
    w->self = g;
    snprintf(w->name, sizeof w->name, "%s", name);
    return 0;
}

int mw_kgen_size(const char *size, struct mw_err *e)
{
    static const char *const names[] = {"tiny", "small", "default", "paper"};
    if (!size || !*size) return MW_SIZE_DEFAULT;
    for (int i = 0; i < 4; i++)
        if (strcmp(size, names[i]) == 0) return i;
    return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "unknown size '%s' (tiny|small|default|paper)", size);
}

struct mw_kgen_kernel *mw_kgen_append(struct mw_kgen_program *p)
{
    int n = p->nkernels;
    if ((n & (n - 1)) == 0) { /* capacity is the next power of two */
        struct mw_kgen_kernel *k = realloc(p->kernels, (size_t)(n ? 2 * n : 1) * sizeof *k);
        if (!k) return NULL;
        p->kernels = k;
    }
    memset(&p->kernels[n], 0, sizeof p->kernels[n]);
    p->nkernels = n + 1;
    return &p->kernels[n];
}
