/* SHOC SpMV (src/cuda/level1/spmv/Spmv.cu: spmv_csr_scalar_kernel, spmv_csr_vector_kernel; util.h:
 * initRandomMatrix): y = A x with A in CSR, a seeded random square matrix whose entries are nonzero with
 * probability 1 % (SHOC's "random" input: n^2 / 100 nonzeros), BLOCK_SIZE 128. The scalar kernel runs a thread per
 * row (its val/cols walks diverge across the warp: the OAWS paper's SPMV); the vector kernel a warp per row with a
 * shared-memory reduction. SHOC launches each `iterations` (100) times per pass; the sizes here launch fewer. The
 * x gathers are SHOC's texture fetches, modelled as global loads (as rodinia.kmeans models tex1Dfetch). */
#include "kgen.h"
#include "wl_pml.h"
#include "workloads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define WARP 32
#define BLOCK 128

struct shoc_spmv {
    uint32_t dim;
    uint32_t *row, *col;                /* CSR: rowDelimiters, cols */
    uint64_t val, cols, vec, out, rowd; /* device arrays */
};

static void shoc_spmv_free(void *p)
{
    struct shoc_spmv *m = p;
    if (!m) return;
    free(m->row), free(m->col);
    free(m);
}

/* initRandomMatrix: entry (i, j) in row-major order is nonzero with probability nnz / dim^2 until nnz are placed;
 * when the entries left equal those still to place, all the rest are taken. The Bernoulli walk is drawn as
 * geometric gaps (the same distribution), from the run's seed. */
static void place(uint32_t *row, uint32_t *col, uint32_t dim, uint32_t *r, uint64_t *k, uint64_t e)
{
    while (*r < e / dim) row[++*r] = (uint32_t)*k; /* rows before e's row end here */
    col[(*k)++] = (uint32_t)(e % dim);
}

int mw_wl_shoc_spmv_matrix(uint32_t dim, uint64_t seed, uint32_t **row_out, uint32_t **col_out)
{
    uint64_t nnz = (uint64_t)dim * dim / 100, total = (uint64_t)dim * dim;
    double lq = log1p(-(double)nnz / (double)total);
    uint32_t *row = malloc(((size_t)dim + 1) * sizeof *row), *col = malloc((size_t)(nnz ? nnz : 1) * sizeof *col);
    if (!row || !col) {
        free(row), free(col);
        return -1;
    }
    uint64_t s = seed * 0x9e3779b97f4a7c15ull ^ (uint64_t)dim * 0xd1b54a32d192ed03ull ^ 0x53484f43u;
    uint64_t pos = 0, k = 0; /* next candidate entry, entries placed */
    uint32_t r = 0;
    row[0] = 0;
    while (k < nnz) {
        double u = pml_unif(&s);
        uint64_t gap = u > 0 ? (uint64_t)floor(log(u) / lq) : 0;
        if (pos + gap >= total - (nnz - k)) { /* SHOC's fillRemaining: the last nnz - k entries */
            for (uint64_t e = total - (nnz - k); e < total; e++) place(row, col, dim, &r, &k, e);
            break;
        }
        pos += gap;
        place(row, col, dim, &r, &k, pos++);
    }
    while (r < dim) row[++r] = (uint32_t)nnz;
    *row_out = row, *col_out = col;
    return 0;
}

/* ---- spmv_csr_scalar_kernel: a thread per row ----
 * Registers: r1 myRow, r2 pred, r3 &rowDelimiters[myRow], r4 j, r5 end, r6 t, r7 j < end, r8 &cols[j], r9 col,
 * r10 &val[j], r11 val, r12 x, r13 &out[myRow]. */
struct sc_warp {
    int step;
    uint32_t lm; /* the lanes in this loop iteration */
    uint32_t j[WARP], end[WARP];
};
enum { SC_LOOP = 9, SC_AFTER = 17, SC_END = 19 };
#define PC(n) ((uint64_t)(n) * 16u)

static uint32_t loop_mask(const struct sc_warp *w, uint32_t mask)
{
    uint32_t m = 0;
    PML_LANES(mask, l) if (w->j[l] < w->end[l]) m |= 1u << l;
    return m;
}

static int gen_scalar(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                      struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct shoc_spmv *m = k->data;
    struct sc_warp *w = scratch;
    uint32_t row0 = (uint32_t)t0->gtid, lm;
    int st = w->step++;
    uint64_t pc = PC(st);
    switch (st) {
    case 0: pml_alu(o, pc, MW_OP_ALU, mask, 1, 0, 0); return 1; /* myRow = blockIdx.x * blockDim.x + threadIdx.x */
    case 1: pml_alu(o, pc, MW_OP_ALU, mask, 2, 1, 0); return 1; /* myRow < dim */
    case 2: pml_branch(o, pc, mask, 2); return 1;
    case 3: pml_alu(o, pc, MW_OP_ALU, mask, 3, 1, 0); return 1;
    case 4:
        pml_ld(o, pc, MW_OP_LD_GLOBAL, 4, mask, 4, 3); /* start = rowDelimiters[myRow] */
        PML_LANES(mask, l) o->addr[l] = m->rowd + ((uint64_t)row0 + (uint64_t)l) * 4;
        return 1;
    case 5:
        pml_ld(o, pc, MW_OP_LD_GLOBAL, 4, mask, 5, 3); /* end = rowDelimiters[myRow + 1] */
        PML_LANES(mask, l) {
            o->addr[l] = m->rowd + ((uint64_t)row0 + (uint64_t)l + 1) * 4;
            w->j[l] = m->row[row0 + (uint32_t)l], w->end[l] = m->row[row0 + (uint32_t)l + 1];
        }
        return 1;
    case 6: pml_alu(o, pc, MW_OP_ALU, mask, 6, 0, 0); return 1;  /* t = 0 */
    case 7: pml_alu(o, pc, MW_OP_ALU, mask, 7, 4, 5); return 1;  /* j < end */
    case 8:
        pml_branch(o, pc, mask, 7);
        if (!loop_mask(w, mask)) w->step = SC_AFTER;
        return 1;
    case SC_LOOP: w->lm = loop_mask(w, mask); pml_alu(o, pc, MW_OP_ALU, w->lm, 8, 4, 0); return 1;
    case SC_LOOP + 1:
        lm = w->lm;
        pml_ld(o, pc, MW_OP_LD_GLOBAL, 4, lm, 9, 8); /* col = cols[j] */
        PML_LANES(lm, l) o->addr[l] = m->cols + (uint64_t)w->j[l] * 4;
        return 1;
    case SC_LOOP + 2: lm = w->lm; pml_alu(o, pc, MW_OP_ALU, lm, 10, 4, 0); return 1;
    case SC_LOOP + 3:
        lm = w->lm;
        pml_ld(o, pc, MW_OP_LD_GLOBAL, 4, lm, 11, 10); /* val[j] */
        PML_LANES(lm, l) o->addr[l] = m->val + (uint64_t)w->j[l] * 4;
        return 1;
    case SC_LOOP + 4:
        lm = w->lm;
        pml_ld(o, pc, MW_OP_LD_GLOBAL, 4, lm, 12, 9); /* vecTexReader(col) */
        PML_LANES(lm, l) o->addr[l] = m->vec + (uint64_t)m->col[w->j[l]] * 4;
        return 1;
    case SC_LOOP + 5: lm = w->lm; pml_alu(o, pc, MW_OP_ALU, lm, 6, 11, 12); return 1; /* t += v * x */
    case SC_LOOP + 6:
        lm = w->lm;
        pml_alu(o, pc, MW_OP_ALU, lm, 7, 4, 5); /* j++, j < end */
        PML_LANES(lm, l) w->j[l]++;
        return 1;
    case SC_LOOP + 7:
        pml_branch(o, pc, w->lm, 7);
        if (loop_mask(w, mask)) w->step = SC_LOOP;
        return 1;
    case SC_AFTER: pml_alu(o, pc, MW_OP_ALU, mask, 13, 1, 0); return 1;
    case SC_AFTER + 1:
        pml_st(o, pc, MW_OP_ST_GLOBAL, 4, mask, 13, 6); /* out[myRow] = t */
        PML_LANES(mask, l) o->addr[l] = m->out + ((uint64_t)row0 + (uint64_t)l) * 4;
        return 1;
    default: return 0;
    }
}

/* ---- spmv_csr_vector_kernel: a warp per row, 4 rows per 128-thread block ----
 * Registers: r1 t, r2 id, r3 myRow, r4 pred, r5 &rowDelimiters[myRow], r6 warpStart, r7 warpEnd, r8 mySum, r9 j,
 * r10 j < warpEnd, r11 &cols[j], r12 col, r13 &val[j], r14 val, r15 x, r16 partial, r17 other, r18 &out. */
struct vc_warp {
    int step;
    uint32_t row, j0, end, it; /* the warp's row, its entries [j0, end), loop trips done */
};
enum { VC_LOOP = 11, VC_RED = 19, VC_OUT = VC_RED + 1 + 20, VC_END = VC_OUT + 4 };

static uint32_t vc_mask(const struct vc_warp *w, uint32_t mask)
{
    uint32_t m = 0;
    PML_LANES(mask, l) if (w->j0 + w->it * WARP + (uint32_t)l < w->end) m |= 1u << l;
    return m;
}

static int gen_vector(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                      struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct shoc_spmv *m = k->data;
    struct vc_warp *w = scratch;
    uint64_t t_base = (uint64_t)(t0->tid[0] & ~(uint32_t)(WARP - 1)) * 4; /* partialSums[t] of lane 0 */
    uint32_t lm;
    int st = w->step++;
    uint64_t pc = PC(st);
    if (st >= VC_RED + 1 && st < VC_OUT) { /* if (id < s) partialSums[t] += partialSums[t + s], s = 16 .. 1 */
        int r = (st - VC_RED - 1) / 4, part = (st - VC_RED - 1) % 4;
        uint32_t s = 16u >> r, red = mask & ((1u << s) - 1);
        switch (part) {
        case 0:
            pml_ld(o, pc, MW_OP_LD_SHARED, 4, red, 16, 0);
            PML_LANES(red, l) o->addr[l] = t_base + (uint64_t)l * 4;
            return 1;
        case 1:
            pml_ld(o, pc, MW_OP_LD_SHARED, 4, red, 17, 0);
            PML_LANES(red, l) o->addr[l] = t_base + ((uint64_t)l + s) * 4;
            return 1;
        case 2: pml_alu(o, pc, MW_OP_ALU, red, 16, 16, 17); return 1;
        default:
            pml_st(o, pc, MW_OP_ST_SHARED, 4, red, 0, 16);
            PML_LANES(red, l) o->addr[l] = t_base + (uint64_t)l * 4;
            return 1;
        }
    }
    switch (st) {
    case 0:
        w->row = (uint32_t)(t0->gtid / WARP);
        w->j0 = m->row[w->row], w->end = m->row[w->row + 1];
        pml_alu(o, pc, MW_OP_ALU, mask, 1, 0, 0); /* t = threadIdx.x */
        return 1;
    case 1: pml_alu(o, pc, MW_OP_ALU, mask, 2, 1, 0); return 1; /* id = t & (warpSize - 1) */
    case 2: pml_alu(o, pc, MW_OP_ALU, mask, 3, 1, 0); return 1; /* myRow = blockIdx.x * warpsPerBlock + t / 32 */
    case 3: pml_alu(o, pc, MW_OP_ALU, mask, 4, 3, 0); return 1; /* myRow < dim */
    case 4: pml_branch(o, pc, mask, 4); return 1;
    case 5: pml_alu(o, pc, MW_OP_ALU, mask, 5, 3, 0); return 1;
    case 6:
        pml_ld(o, pc, MW_OP_LD_GLOBAL, 4, mask, 6, 5); /* warpStart = rowDelimiters[myRow] */
        PML_LANES(mask, l) o->addr[l] = m->rowd + (uint64_t)w->row * 4;
        return 1;
    case 7:
        pml_ld(o, pc, MW_OP_LD_GLOBAL, 4, mask, 7, 5); /* warpEnd = rowDelimiters[myRow + 1] */
        PML_LANES(mask, l) o->addr[l] = m->rowd + ((uint64_t)w->row + 1) * 4;
        return 1;
    case 8: pml_alu(o, pc, MW_OP_ALU, mask, 8, 0, 0); return 1;  /* mySum = 0 */
    case 9: pml_alu(o, pc, MW_OP_ALU, mask, 9, 6, 2); return 1;  /* j = warpStart + id, j < warpEnd */
    case 10:
        pml_branch(o, pc, mask, 9);
        if (!vc_mask(w, mask)) w->step = VC_RED;
        return 1;
    case VC_LOOP: lm = vc_mask(w, mask); pml_alu(o, pc, MW_OP_ALU, lm, 11, 9, 0); return 1;
    case VC_LOOP + 1:
        lm = vc_mask(w, mask);
        pml_ld(o, pc, MW_OP_LD_GLOBAL, 4, lm, 12, 11); /* col = cols[j] */
        PML_LANES(lm, l) o->addr[l] = m->cols + ((uint64_t)w->j0 + w->it * WARP + (uint64_t)l) * 4;
        return 1;
    case VC_LOOP + 2: lm = vc_mask(w, mask); pml_alu(o, pc, MW_OP_ALU, lm, 13, 9, 0); return 1;
    case VC_LOOP + 3:
        lm = vc_mask(w, mask);
        pml_ld(o, pc, MW_OP_LD_GLOBAL, 4, lm, 14, 13); /* val[j] */
        PML_LANES(lm, l) o->addr[l] = m->val + ((uint64_t)w->j0 + w->it * WARP + (uint64_t)l) * 4;
        return 1;
    case VC_LOOP + 4:
        lm = vc_mask(w, mask);
        pml_ld(o, pc, MW_OP_LD_GLOBAL, 4, lm, 15, 12); /* vecTexReader(col) */
        PML_LANES(lm, l) o->addr[l] = m->vec + (uint64_t)m->col[w->j0 + w->it * WARP + (uint32_t)l] * 4;
        return 1;
    case VC_LOOP + 5: lm = vc_mask(w, mask); pml_alu(o, pc, MW_OP_ALU, lm, 8, 14, 15); return 1; /* mySum += */
    case VC_LOOP + 6: lm = vc_mask(w, mask); pml_alu(o, pc, MW_OP_ALU, lm, 10, 9, 7); return 1; /* j += 32 */
    case VC_LOOP + 7:
        lm = vc_mask(w, mask);
        pml_branch(o, pc, lm, 10);
        w->it++;
        if (vc_mask(w, mask)) w->step = VC_LOOP;
        return 1;
    case VC_RED:
        pml_st(o, pc, MW_OP_ST_SHARED, 4, mask, 0, 8); /* partialSums[t] = mySum */
        PML_LANES(mask, l) o->addr[l] = t_base + (uint64_t)l * 4;
        return 1;
    case VC_OUT: pml_branch(o, pc, mask, 2); return 1; /* if (id == 0) */
    case VC_OUT + 1:
        pml_ld(o, pc, MW_OP_LD_SHARED, 4, mask & 1u, 16, 0);
        o->addr[0] = t_base;
        return 1;
    case VC_OUT + 2: pml_alu(o, pc, MW_OP_ALU, mask & 1u, 18, 3, 0); return 1;
    case VC_OUT + 3:
        pml_st(o, pc, MW_OP_ST_GLOBAL, 4, mask & 1u, 18, 16); /* out[myRow] = partialSums[t] */
        o->addr[0] = m->out + (uint64_t)w->row * 4;
        return 1;
    default: return 0;
    }
}

static bool g_row(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    return t->gtid < ((const struct shoc_spmv *)d)->dim;
}
static bool g_wrow(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    return t->gtid / WARP < ((const struct shoc_spmv *)d)->dim;
}

int mw_wl_shoc_spmv(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    /* SHOC's probSizes {1024, 8192, 12288, 16384} (-s 1..4): tiny = -s 1, default = -s 2, paper = -s 4 (the OAWS
     * paper does not give its size); launches of each kernel (SHOC: 100 per pass) */
    static const uint32_t dims[4] = {1024, 4096, 8192, 16384};
    static const int launches[4] = {1, 1, 2, 4};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct shoc_spmv *m = calloc(1, sizeof *m);
    if (!m) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    m->dim = dims[sz];
    struct mw_kgen_program p = {.owned = m, .free_owned = shoc_spmv_free};
    if (mw_wl_shoc_spmv_matrix(m->dim, seed, &m->row, &m->col) != 0) goto oom;
    uint64_t nnz = m->row[m->dim], a = 0x10000000ull;
#define ALLOC(f, bytes) (m->f = a, a += ((uint64_t)(bytes) + 255) & ~255ull)
    ALLOC(val, nnz * 4); /* cudaMalloc order of csrTest: d_val, d_cols, d_vec, d_out, d_rowDelimiters */
    ALLOC(cols, nnz * 4);
    ALLOC(vec, (uint64_t)m->dim * 4);
    ALLOC(out, (uint64_t)m->dim * 4);
    ALLOC(rowd, ((uint64_t)m->dim + 1) * 4);
#undef ALLOC
    for (int kind = 0; kind < 2; kind++)
        for (int i = 0; i < launches[sz]; i++) {
            struct mw_kgen_kernel *k = mw_kgen_append(&p);
            if (!k) goto oom;
            snprintf(k->k.name, sizeof k->k.name, kind ? "spmv_csr_vector_kernel" : "spmv_csr_scalar_kernel");
            /* nBlocksScalar = ceil(rows / 128), nBlocksVector = ceil(rows / (128 / 32)) */
            k->k.grid[0] = kind ? (m->dim + BLOCK / WARP - 1) / (BLOCK / WARP) : (m->dim + BLOCK - 1) / BLOCK;
            k->k.grid[1] = k->k.grid[2] = 1;
            k->k.block[0] = BLOCK, k->k.block[1] = k->k.block[2] = 1;
            k->k.nregs = 20;
            k->k.shmem = kind ? BLOCK * 4 : 0; /* __shared__ volatile float partialSums[BLOCK_SIZE] */
            k->data = m;
            k->guard = kind ? g_wrow : g_row;
            k->custom = kind ? gen_vector : gen_scalar;
            k->ninsts = kind ? VC_END : SC_END;
            k->scratch_bytes = kind ? sizeof(struct vc_warp) : sizeof(struct sc_warp);
        }
    return mw_kgen_workload(w, "shoc.spmv", &p, e);
oom:
    free(p.kernels);
    shoc_spmv_free(m);
    return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
}
