/* Micro-kernels for testing the model: coalesced streaming loads, a column-strided load whose 32 lanes all
 * map to one L1D set (the BICG kernel_2 pattern, Choo Ch.4), a loop re-reading a small array, and ALU work. */
#include "kgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct micro {
    uint64_t total_threads;
    int64_t iters;
    uint64_t stride_bytes; /* colstride: bytes between consecutive threads' rows */
    uint64_t reuse_bytes;  /* reuse: array size */
};

#define A_BASE 0x10000000ull
#define B_BASE 0x40000000ull

static uint64_t stream_ld(const struct mw_tctx *t, int64_t it, const void *d)
{
    const struct micro *m = d;
    return A_BASE + ((uint64_t)it * m->total_threads + t->gtid) * 4;
}
static uint64_t out_st(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it, (void)d;
    return B_BASE + t->gtid * 4;
}
static uint64_t col_ld(const struct mw_tctx *t, int64_t it, const void *d)
{
    const struct micro *m = d;
    return A_BASE + t->gtid * m->stride_bytes + (uint64_t)it * 4;
}
static uint64_t reuse_ld(const struct mw_tctx *t, int64_t it, const void *d)
{
    const struct micro *m = d;
    return A_BASE + ((t->gtid + (uint64_t)it * 32) * 4) % m->reuse_bytes;
}

/* registers: r1 address, r2 loaded value, r3 accumulator, r4 temp */
static const struct mw_tinst stream_body[] = {MW_T_LD(2, 1, stream_ld), MW_T_ALU(3, 3, 2), MW_T_ALU(1, 1, 4)};
static const struct mw_tinst col_body[] = {MW_T_LD(2, 1, col_ld), MW_T_ALU(3, 3, 2), MW_T_ALU(1, 1, 4)};
static const struct mw_tinst reuse_body[] = {MW_T_LD(2, 1, reuse_ld), MW_T_ALU(3, 3, 2), MW_T_ALU(1, 1, 4)};
static const struct mw_tinst compute_body[] = {MW_T_ALU(2, 2, 3), MW_T_ALU(3, 3, 2), MW_T_ALU(4, 4, 2),
                                               MW_T_ALU(5, 5, 4)};
static const struct mw_tinst pro[] = {MW_T_ALU(1, 0, 0), MW_T_ALU(4, 0, 0)};
static const struct mw_tinst epi[] = {MW_T_ST(3, 1, out_st)};

static void free_owned(void *p) { free(p); }

enum { K_STREAM, K_COL, K_REUSE, K_COMPUTE };

static int size_scale(const char *size, int *scale, struct mw_err *e)
{
    if (!size || !*size || strcmp(size, "default") == 0) *scale = 4;
    else if (strcmp(size, "small") == 0) *scale = 1;
    else if (strcmp(size, "tiny") == 0) *scale = 0;
    else return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "unknown size '%s' (tiny|small|default)", size);
    return 0;
}

static int open_micro(struct mw_workload *w, int kind, const char *name, const char *size, struct mw_err *e)
{
    int scale = 0;
    int rc = size_scale(size, &scale, e);
    if (rc) return rc;
    struct micro *m = calloc(1, sizeof *m);
    struct mw_kgen_kernel *k = calloc(1, sizeof *k);
    if (!m || !k) {
        free(m), free(k);
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    }
    /* tiny: one CTA of one warp; small: one CTA per SM; default: four waves of CTAs */
    uint32_t ctas = scale == 0 ? 1 : (uint32_t)(15 * scale * 2);
    uint32_t threads = scale == 0 ? 32 : 256;
    snprintf(k->k.name, sizeof k->k.name, "%s", name);
    k->k.grid[0] = ctas, k->k.grid[1] = k->k.grid[2] = 1;
    k->k.block[0] = threads, k->k.block[1] = k->k.block[2] = 1;
    k->k.nregs = 16;
    m->total_threads = (uint64_t)ctas * threads;
    m->stride_bytes = 4096; /* = 32 sets x 128 B: every lane of a warp in one set (Choo Ch.3) */
    m->reuse_bytes = 4096;
    k->data = m;
    k->pro = pro, k->npro = 2;
    k->epi = epi, k->nepi = 1;
    switch (kind) {
    case K_STREAM: k->body = stream_body, k->nbody = 3, k->iters = scale == 0 ? 1 : 32; break;
    case K_COL: /* the pathological pattern: a quarter of the CTAs keeps the default run to seconds */
        k->body = col_body, k->nbody = 3, k->iters = scale == 0 ? 1 : 32;
        if (scale > 1) k->k.grid[0] = ctas / 4;
        break;
    case K_REUSE: k->body = reuse_body, k->nbody = 3, k->iters = scale == 0 ? 4 : 128; break;
    default: k->body = compute_body, k->nbody = 4, k->iters = scale == 0 ? 4 : 256; k->epi = NULL, k->nepi = 0; break;
    }
    struct mw_kgen_program p = {.kernels = k, .nkernels = 1, .owned = m, .free_owned = free_owned};
    return mw_kgen_workload(w, name, &p, e);
}

int mw_wl_micro_stream(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    (void)seed;
    return open_micro(w, K_STREAM, "micro.stream", size, e);
}
int mw_wl_micro_colstride(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    (void)seed;
    return open_micro(w, K_COL, "micro.colstride", size, e);
}
int mw_wl_micro_reuse(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    (void)seed;
    return open_micro(w, K_REUSE, "micro.reuse", size, e);
}
int mw_wl_micro_compute(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    (void)seed;
    return open_micro(w, K_COMPUTE, "micro.compute", size, e);
}
