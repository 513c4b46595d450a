/* Rodinia SRAD v1 (cuda/srad/srad_v1: extract, prepare, reduce, srad, srad2, compress): speckle-reducing diffusion
 * of an Nr x Nc image stored column by column (element ei = row + Nr * col), one 512-thread CTA per 512 elements.
 * The host runs extract, then per iteration prepare, the chain of reduce launches (each summing 512 partial sums
 * per block in shared memory until one block remains), srad and srad2, and finally compress. Neighbour indices come
 * from the iN / iS / jW / jE arrays (row or column +-1, clamped at the edges). Registers per thread are estimates
 * (not measured). */
#include "kloop.h"
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>

#define NT 512 /* NUMBER_THREADS */

struct sr1 {
    struct mw_kl_hdr h;
    int64_t nr, nc, ne;
    int64_t no, mul;  /* reduce: d_no, d_mul */
    uint64_t I, iN, iS, jE, jW, sums, sums2, dN, dS, dE, dW, c; /* the kernels' parameters */
};

#define TX ((int64_t)t->tid[0])
#define BX ((int64_t)t->ctaid[0])
#define GXD ((int64_t)t->nctaid[0])
#define EI (BX * NT + TX)
#define F4(base, idx) ((base) + (uint64_t)(idx)*4u)
#define ROW (EI % P->nr)
#define COL (EI / P->nr)
/* the index arrays' contents: iN[i] = i - 1, iS[i] = i + 1, jW[j] = j - 1, jE[j] = j + 1, clamped */
#define CLAMP(v, hi) ((v) < 0 ? 0 : (v) > (hi) ? (hi) : (v))
#define I_N CLAMP(ROW - 1, P->nr - 1)
#define I_S CLAMP(ROW + 1, P->nr - 1)
#define J_W CLAMP(COL - 1, P->nc - 1)
#define J_E CLAMP(COL + 1, P->nc - 1)

MW_KL_PRED(p_ei, struct sr1, EI < P->ne)
MW_KL_ADDR(a_I, struct sr1, F4(P->I, EI))

/* ---- extract: I[ei] = exp(I[ei] / 255); compress: I[ei] = log(I[ei]) * 255 ---- */
static const struct mw_kl_op extract_ops[] = {
    KL_ALU(1, 0, 0), KL_ALU(2, 0, 0), KL_ALU(3, 2, 1), KL_ALU(4, 3, 0),
    KL_IF(p_ei, 4),  KL_ALU(5, 3, 0), KL_LDG(6, 5, a_I, NULL), KL_ALU(6, 6, 0), KL_ALU(6, 6, 0), KL_SFU(6, 6),
    KL_STG(6, 5, a_I, NULL), KL_END,
};
static const struct mw_kl_op compress_ops[] = {
    KL_ALU(1, 0, 0), KL_ALU(2, 0, 0), KL_ALU(3, 2, 1), KL_ALU(4, 3, 0),
    KL_IF(p_ei, 4),  KL_ALU(5, 3, 0), KL_LDG(6, 5, a_I, NULL), KL_SFU(6, 6), KL_ALU(6, 6, 0), KL_ALU(6, 6, 0),
    KL_STG(6, 5, a_I, NULL), KL_END,
};

/* ---- prepare: sums[ei] = I[ei]; sums2[ei] = I[ei] * I[ei] (I reloaded: the store to sums may alias it) ---- */
MW_KL_ADDR(a_sums, struct sr1, F4(P->sums, EI))
MW_KL_ADDR(a_sums2, struct sr1, F4(P->sums2, EI))
static const struct mw_kl_op prepare_ops[] = {
    KL_ALU(1, 0, 0), KL_ALU(2, 0, 0), KL_ALU(3, 2, 1), KL_ALU(4, 3, 0),
    KL_IF(p_ei, 4),  KL_ALU(5, 3, 0), KL_LDG(6, 5, a_I, NULL), KL_STG(6, 5, a_sums, NULL),
    KL_LDG(6, 5, a_I, NULL), KL_ALU(7, 6, 6), KL_STG(7, 5, a_sums2, NULL), KL_END,
};

/* ---- reduce(Ne, no, mul, sums, sums2): psum[512], psum2[512] in shared memory ---- */
#define NF (NT - (GXD * NT - P->no)) /* elements of the last block */
static int64_t df_of(int64_t nf)
{
    int64_t df = 0;
    for (int64_t i = 2; i <= NT; i *= 2)
        if (nf >= i) df = i;
    return df;
}
static int64_t log2_of(int64_t v)
{
    int64_t n = 0;
    while ((2ll << n) <= v) n++;
    return n;
}
#define STEP (2ll << lc[0]) /* i = 2, 4, ... */
MW_KL_PRED(r_in, struct sr1, EI < P->no)
MW_KL_ADDR(r_ld, struct sr1, F4(P->sums, EI * P->mul))
MW_KL_ADDR(r_ld2, struct sr1, F4(P->sums2, EI * P->mul))
MW_KL_ADDR(s_p, struct sr1, (uint64_t)TX * 4)
MW_KL_ADDR(s_p2, struct sr1, (uint64_t)(NT + TX) * 4)
MW_KL_PRED(r_full, struct sr1, NF == NT || BX != GXD - 1)
MW_KL_PRED(r_part, struct sr1, !(NF == NT || BX != GXD - 1))
MW_KL_PRED(r_add, struct sr1, (TX + 1) % STEP == 0)
MW_KL_PRED(r_add_part, struct sr1, (TX + 1) % STEP == 0 && TX < df_of(NF))
MW_KL_ADDR(s_q, struct sr1, (uint64_t)(TX - STEP / 2) * 4)
MW_KL_ADDR(s_q2, struct sr1, (uint64_t)(NT + TX - STEP / 2) * 4)
MW_KL_PRED(r_last, struct sr1, TX == NT - 1)
MW_KL_PRED(r_tail, struct sr1, TX == df_of(NF) - 1)
MW_KL_TRIPS(r_n_part, struct sr1, log2_of(df_of(NF)))
MW_KL_TRIPS(r_n_tail, struct sr1, NF - df_of(NF))
MW_KL_ADDR(r_tl, struct sr1, F4(P->sums, BX * NT + df_of(NF) + lc[0])) /* sums[i], i = bx * 512 + df .. */
MW_KL_ADDR(r_tl2, struct sr1, F4(P->sums2, BX * NT + df_of(NF) + lc[0]))
MW_KL_ADDR(r_out, struct sr1, F4(P->sums, BX * P->mul * NT))
MW_KL_ADDR(r_out2, struct sr1, F4(P->sums2, BX * P->mul * NT))

#define TREE(pred)                                                                                           \
    KL_ALU(11, 10, 1), KL_ALU(11, 11, 0), KL_IF(pred, 11), KL_ALU(12, 5, 10), KL_LDS(13, 5, s_p, NULL),      \
        KL_LDS(14, 12, s_q, NULL), KL_ALU(13, 13, 14), KL_STS(13, 5, s_p, NULL), KL_LDS(13, 5, s_p2, NULL),    \
        KL_LDS(14, 12, s_q2, NULL), KL_ALU(13, 13, 14), KL_STS(13, 5, s_p2, NULL), KL_END, KL_BAR,             \
        KL_ALU(10, 10, 10)
static const struct mw_kl_op reduce_ops[] = {
    KL_ALU(1, 0, 0),  KL_ALU(2, 0, 0),  KL_ALU(3, 2, 1),  KL_ALU(4, 3, 0),  KL_ALU(5, 1, 0),  KL_ALU(9, 2, 0),
    KL_IF(r_in, 4),   KL_ALU(6, 3, 0),  KL_LDG(7, 6, r_ld, NULL),             KL_LDG(8, 6, r_ld2, NULL),
    KL_STS(7, 5, s_p, NULL),            KL_STS(8, 5, s_p2, NULL),             KL_END,
    KL_BAR,
    KL_IF(r_full, 9),
    KL_LOOPN(9, 10),  TREE(r_add),      KL_END,
    KL_ALU(15, 1, 0), KL_IF(r_last, 15), KL_LDS(13, 5, s_p, NULL), KL_LDS(14, 5, s_p2, NULL), KL_ALU(16, 2, 0),
    KL_STG(13, 16, r_out, NULL),        KL_STG(14, 16, r_out2, NULL),         KL_END,
    KL_END,
    KL_IF(r_part, 9),
    KL_LOOPN(9, 17),  KL_ALU(18, 17, 0), KL_ALU(17, 17, 17), KL_END, /* the df search */
    KL_LOOP(r_n_part, NULL, 10),        TREE(r_add_part),   KL_END,
    KL_ALU(15, 1, 18), KL_IF(r_tail, 15), KL_LDS(13, 5, s_p, NULL), KL_LDS(14, 5, s_p2, NULL), KL_ALU(6, 3, 18),
    KL_LOOP(r_n_tail, NULL, 6),         KL_LDG(19, 6, r_tl, NULL),            KL_LDG(20, 6, r_tl2, NULL),
    KL_ALU(13, 13, 19), KL_ALU(14, 14, 20), KL_ALU(6, 6, 0), KL_END,
    KL_ALU(16, 2, 0), KL_STG(13, 16, r_out, NULL),        KL_STG(14, 16, r_out2, NULL),             KL_END,
    KL_END,
};

/* ---- srad: derivatives, diffusion coefficient ---- */
MW_KL_ADDR(a_iN, struct sr1, F4(P->iN, ROW))
MW_KL_ADDR(a_iS, struct sr1, F4(P->iS, ROW))
MW_KL_ADDR(a_jW, struct sr1, F4(P->jW, COL))
MW_KL_ADDR(a_jE, struct sr1, F4(P->jE, COL))
MW_KL_ADDR(a_In, struct sr1, F4(P->I, I_N + P->nr * COL))
MW_KL_ADDR(a_Is, struct sr1, F4(P->I, I_S + P->nr * COL))
MW_KL_ADDR(a_Iw, struct sr1, F4(P->I, ROW + P->nr * J_W))
MW_KL_ADDR(a_Ie, struct sr1, F4(P->I, ROW + P->nr * J_E))
MW_KL_ADDR(a_dN, struct sr1, F4(P->dN, EI))
MW_KL_ADDR(a_dS, struct sr1, F4(P->dS, EI))
MW_KL_ADDR(a_dW, struct sr1, F4(P->dW, EI))
MW_KL_ADDR(a_dE, struct sr1, F4(P->dE, EI))
MW_KL_ADDR(a_c, struct sr1, F4(P->c, EI))

/* r3 ei, r5 row, r6 col, r7 ei * 4 */
static const struct mw_kl_op srad_ops[] = {
    KL_ALU(1, 0, 0),  KL_ALU(2, 0, 0),  KL_ALU(3, 2, 1),  KL_ALU(4, 3, 0),  KL_SFU(5, 4),    KL_ALU(5, 5, 4),
    KL_ALU(6, 5, 0),  KL_ALU(5, 4, 6),  KL_ALU(8, 5, 0),  KL_ALU(5, 5, 8),  KL_ALU(6, 6, 8),  KL_ALU(9, 3, 0),
    KL_IF(p_ei, 9),
    KL_ALU(7, 3, 0),  KL_LDG(10, 7, a_I, NULL),          KL_ALU(11, 5, 0),  KL_ALU(12, 6, 0),
    KL_LDG(13, 11, a_iN, NULL),         KL_ALU(13, 13, 6), KL_LDG(14, 13, a_In, NULL),
    KL_LDG(15, 11, a_iS, NULL),         KL_ALU(15, 15, 6), KL_LDG(16, 15, a_Is, NULL),
    KL_LDG(17, 12, a_jW, NULL),         KL_ALU(17, 17, 5), KL_LDG(18, 17, a_Iw, NULL),
    KL_LDG(19, 12, a_jE, NULL),         KL_ALU(19, 19, 5), KL_LDG(20, 19, a_Ie, NULL),
    KL_ALU(14, 14, 10), KL_ALU(16, 16, 10), KL_ALU(18, 18, 10), KL_ALU(20, 20, 10),
    /* G2, L */
    KL_ALU(21, 14, 14), KL_ALU(21, 16, 21), KL_ALU(21, 18, 21), KL_ALU(21, 20, 21), KL_ALU(22, 10, 10),
    KL_SFU(23, 22),   KL_ALU(21, 21, 23), KL_ALU(24, 14, 16), KL_ALU(24, 24, 18), KL_ALU(24, 24, 20),
    KL_SFU(23, 10),   KL_ALU(24, 24, 23),
    /* num, den, qsqr in double precision, then den, c = 1.0 / (1.0 + den) */
    KL_SFU(25, 21),   KL_SFU(26, 24),   KL_DP(25, 25, 0), KL_DP(27, 26, 26), KL_DP(25, 27, 25), KL_DP(26, 26, 0),
    KL_DP(26, 26, 26), KL_SFU(27, 26),  KL_DP(25, 25, 27), KL_DP(25, 25, 26), KL_SFU(25, 25),
    KL_ALU(26, 25, 0), KL_ALU(26, 26, 0), KL_SFU(26, 26), KL_DP(26, 26, 0), KL_SFU(27, 26), KL_DP(26, 27, 26),
    KL_SFU(26, 26),   KL_ALU(26, 26, 0), KL_ALU(26, 26, 0),
    KL_STG(14, 7, a_dN, NULL),          KL_STG(16, 7, a_dS, NULL),            KL_STG(18, 7, a_dW, NULL),
    KL_STG(20, 7, a_dE, NULL),          KL_STG(26, 7, a_c, NULL),
    KL_END,
};

/* ---- srad2: divergence and image update ---- */
MW_KL_ADDR(a_cS, struct sr1, F4(P->c, I_S + P->nr * COL))
MW_KL_ADDR(a_cE, struct sr1, F4(P->c, ROW + P->nr * J_E))
static const struct mw_kl_op srad2_ops[] = {
    KL_ALU(1, 0, 0),  KL_ALU(2, 0, 0),  KL_ALU(3, 2, 1),  KL_ALU(4, 3, 0),  KL_SFU(5, 4),    KL_ALU(5, 5, 4),
    KL_ALU(6, 5, 0),  KL_ALU(5, 4, 6),  KL_ALU(8, 5, 0),  KL_ALU(5, 5, 8),  KL_ALU(6, 6, 8),  KL_ALU(9, 3, 0),
    KL_IF(p_ei, 9),
    KL_ALU(7, 3, 0),  KL_LDG(10, 7, a_c, NULL),          KL_ALU(11, 5, 0),  KL_ALU(12, 6, 0),
    KL_LDG(15, 11, a_iS, NULL),         KL_ALU(15, 15, 6), KL_LDG(16, 15, a_cS, NULL),
    KL_LDG(19, 12, a_jE, NULL),         KL_ALU(19, 19, 5), KL_LDG(20, 19, a_cE, NULL),
    KL_LDG(21, 7, a_dN, NULL),          KL_LDG(22, 7, a_dS, NULL),            KL_LDG(23, 7, a_dW, NULL),
    KL_LDG(24, 7, a_dE, NULL),          KL_ALU(25, 10, 21), KL_ALU(25, 16, 22), KL_ALU(25, 10, 23),
    KL_ALU(25, 20, 24), KL_LDG(26, 7, a_I, NULL),         KL_SFU(27, 25),   KL_SFU(28, 26),   KL_DP(27, 27, 0),
    KL_DP(27, 27, 28), KL_SFU(27, 27),  KL_STG(27, 7, a_I, NULL),
    KL_END,
};

static void free_owned(void *p) { free(p); }

int mw_wl_rodinia_srad_v1(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    (void)seed;
    /* rows, cols, iterations (Rodinia's run: srad 100 0.5 502 458) */
    static const int64_t rows[4] = {40, 128, 502, 502}, cols[4] = {36, 128, 458, 458}, iters[4] = {1, 1, 2, 100};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    int64_t nr = rows[sz], nc = cols[sz], ne = nr * nc, blocks = (ne + NT - 1) / NT;
    int nred = 0; /* reduce launches per iteration */
    for (int64_t b = blocks;; b = (b + NT - 1) / NT) {
        nred++;
        if (b == 1) break;
    }
    /* launch data: extract, prepare, the reduces, srad, srad2, compress (reused by every iteration) */
    int nd = 5 + nred;
    struct sr1 *d = calloc((size_t)nd, sizeof *d);
    if (!d) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    struct mw_kgen_program p = {.owned = d, .free_owned = free_owned};
    struct sr1 base = {.nr = nr, .nc = nc, .ne = ne};
    uint64_t a = 0x10000000ull;
#define ALLOC(f, bytes) (base.f = a, a += ((uint64_t)(bytes) + 255) & ~255ull)
    /* main.cu's cudaMalloc order; srad/srad2 take (dN, dS, dE, dW) but are passed d_dN, d_dS, d_dW, d_dE */
    ALLOC(I, ne * 4);
    ALLOC(iN, nr * 4);
    ALLOC(iS, nr * 4);
    ALLOC(jE, nc * 4);
    ALLOC(jW, nc * 4);
    ALLOC(sums, ne * 4);
    ALLOC(sums2, ne * 4);
    ALLOC(dN, ne * 4);
    ALLOC(dS, ne * 4);
    ALLOC(dE, ne * 4); /* d_dW */
    ALLOC(dW, ne * 4); /* d_dE */
    ALLOC(c, ne * 4);
#undef ALLOC
#define HDR(ops) ((struct mw_kl_hdr){ops, (int)(sizeof ops / sizeof ops[0])})
    for (int i = 0; i < nd; i++) d[i] = base;
    d[0].h = HDR(extract_ops), d[1].h = HDR(prepare_ops);
    uint32_t rgrid[8];
    int64_t b = blocks, no = ne, mul = 1;
    for (int r = 0; r < nred; r++) {
        d[2 + r].h = HDR(reduce_ops), d[2 + r].no = no, d[2 + r].mul = mul;
        rgrid[r] = (uint32_t)b;
        no = b, mul *= NT, b = (b + NT - 1) / NT;
    }
    d[2 + nred].h = HDR(srad_ops), d[3 + nred].h = HDR(srad2_ops), d[4 + nred].h = HDR(compress_ops);
#undef HDR
    static const char *const names[] = {"extract", "prepare", "reduce", "srad", "srad2", "compress"};
    static const uint32_t nregs[] = {8, 8, 14, 24, 18, 8};
    int seq_len = 2 + (int)iters[sz] * (3 + nred);
    for (int s = 0; s < seq_len; s++) {
        int di, kind; /* launch data index, kernel kind */
        if (s == 0) di = 0, kind = 0;
        else if (s == seq_len - 1) di = 4 + nred, kind = 5;
        else {
            int j = (s - 1) % (3 + nred);
            di = j == 0 ? 1 : j <= nred ? 1 + j : j + 1;
            kind = j == 0 ? 1 : j <= nred ? 2 : j == nred + 1 ? 3 : 4;
        }
        struct mw_kgen_kernel *k = mw_kgen_append(&p);
        if (!k) {
            free(p.kernels), free(d);
            return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
        }
        snprintf(k->k.name, sizeof k->k.name, "%s", names[kind]);
        k->k.grid[0] = kind == 2 ? rgrid[di - 2] : (uint32_t)blocks, k->k.grid[1] = k->k.grid[2] = 1;
        k->k.block[0] = NT, k->k.block[1] = k->k.block[2] = 1;
        k->k.nregs = nregs[kind];
        k->k.shmem = kind == 2 ? 2 * NT * 4 : 0;
        mw_kloop_kernel(k, &d[di].h);
    }
    return mw_kgen_workload(w, "rodinia.srad_v1", &p, e);
}
