/* Rodinia GAUSSIAN (cuda/gaussian/gaussian.cu: Fan1 and Fan2): forward elimination of a Size x Size system, the
 * host launching per column t = 0 .. Size-2 Fan1 (512-thread blocks, one thread per row below t computing the
 * multipliers m[i][t] down column t) then Fan2 (4x4 blocks over the trailing matrix, threadIdx.x along rows,
 * updating a and, in the yidx == 0 column, b). Registers per thread are estimates (not measured). */
#include "kloop.h"
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>

#define MAXBLOCK 512 /* MAXBLOCKSIZE */
#define BXY 4        /* BLOCK_SIZE_XY */

struct ga {
    struct mw_kl_hdr h;
    int64_t size, t;
    uint64_t m, a, b; /* m_cuda, a_cuda, b_cuda */
};

#define F4(base, idx) ((base) + (uint64_t)(idx)*4u)
#define XI ((int64_t)t->ctaid[0] * t->ntid[0] + t->tid[0])
#define YI ((int64_t)t->ctaid[1] * t->ntid[1] + t->tid[1])
#define N (P->size)
#define T (P->t)

/* ---- Fan1: m[Size * (i + t + 1) + t] = a[Size * (i + t + 1) + t] / a[Size * t + t] ---- */
MW_KL_PRED(f1_live, struct ga, XI < N - 1 - T)
MW_KL_ADDR(f1_a, struct ga, F4(P->a, N * (XI + T + 1) + T))
MW_KL_ADDR(f1_piv, struct ga, F4(P->a, N * T + T))
MW_KL_ADDR(f1_m, struct ga, F4(P->m, N * (XI + T + 1) + T))

static const struct mw_kl_op fan1_ops[] = {
    KL_ALU(1, 0, 0), KL_ALU(2, 0, 0), KL_ALU(3, 1, 2), KL_ALU(4, 3, 0),
    KL_IF(f1_live, 4),
    KL_ALU(5, 3, 0), KL_ALU(6, 0, 0), KL_LDG(7, 5, f1_a, NULL), KL_LDG(8, 6, f1_piv, NULL),
    /* IEEE division: reciprocal estimate and refinement */
    KL_SFU(9, 8),    KL_ALU(9, 9, 8), KL_ALU(10, 7, 9), KL_ALU(11, 10, 8), KL_ALU(10, 11, 9),
    KL_ALU(12, 5, 0), KL_STG(10, 12, f1_m, NULL),
    KL_END,
};

/* ---- Fan2: a[Size * (x + 1 + t) + (y + t)] -= m[Size * (x + 1 + t) + t] * a[Size * t + (y + t)];
 * if (y == 0) b[x + 1 + t] -= m[Size * (x + 1 + t) + (y + t)] * b[t] ---- */
MW_KL_PRED(f2_x, struct ga, XI < N - 1 - T)
MW_KL_PRED(f2_y, struct ga, YI < N - T)
MW_KL_PRED(f2_y0, struct ga, YI == 0)
MW_KL_ADDR(f2_mul, struct ga, F4(P->m, N * (XI + 1 + T) + T))
MW_KL_ADDR(f2_arow, struct ga, F4(P->a, N * T + (YI + T)))
MW_KL_ADDR(f2_a, struct ga, F4(P->a, N * (XI + 1 + T) + (YI + T)))
MW_KL_ADDR(f2_m, struct ga, F4(P->m, N * (XI + 1 + T) + (YI + T)))
MW_KL_ADDR(f2_bt, struct ga, F4(P->b, T))
MW_KL_ADDR(f2_b, struct ga, F4(P->b, XI + 1 + T))

static const struct mw_kl_op fan2_ops[] = {
    KL_ALU(1, 0, 0),  KL_ALU(2, 0, 0),  KL_ALU(3, 1, 2),  KL_ALU(4, 3, 0),
    KL_IF(f2_x, 4),
    KL_ALU(5, 0, 0),  KL_ALU(6, 0, 0),  KL_ALU(7, 5, 6),  KL_ALU(8, 7, 0),
    KL_IF(f2_y, 8),
    KL_ALU(9, 3, 0),  KL_ALU(10, 9, 0), KL_ALU(11, 7, 0), KL_ALU(12, 10, 11),
    KL_LDG(13, 10, f2_mul, NULL),       KL_LDG(14, 11, f2_arow, NULL),         KL_LDG(15, 12, f2_a, NULL),
    KL_ALU(15, 13, 14), KL_STG(15, 12, f2_a, NULL),
    KL_ALU(16, 7, 0),
    KL_IF(f2_y0, 16),
    KL_ALU(17, 3, 0), KL_LDG(18, 12, f2_m, NULL),           KL_LDG(19, 0, f2_bt, NULL),
    KL_LDG(20, 17, f2_b, NULL),         KL_ALU(20, 18, 19), KL_STG(20, 17, f2_b, NULL),
    KL_END,
    KL_END,
    KL_END,
};

static void free_owned(void *p) { free(p); }

int mw_wl_rodinia_gaussian(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    (void)seed;
    /* matrix Size (paper: Rodinia's matrix208 input) */
    static const int64_t sizes[4] = {16, 64, 160, 208};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    int64_t n = sizes[sz], nt = n - 1;
    struct ga *d = calloc((size_t)(2 * nt), sizeof *d);
    if (!d) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    struct mw_kgen_program p = {.owned = d, .free_owned = free_owned};
    uint64_t mat = ((uint64_t)(n * n * 4) + 255) & ~255ull, m = 0x10000000ull, a = m + mat, b = a + mat;
    uint32_t g1 = (uint32_t)((n + MAXBLOCK - 1) / MAXBLOCK), g2 = (uint32_t)((n + BXY - 1) / BXY);
    for (int64_t t = 0; t < nt; t++)
        for (int i = 0; i < 2; i++) {
            struct ga *dd = &d[2 * t + i];
            *dd = (struct ga){{i ? fan2_ops : fan1_ops, i ? (int)(sizeof fan2_ops / sizeof fan2_ops[0])
                                                          : (int)(sizeof fan1_ops / sizeof fan1_ops[0])},
                              n, t, m, a, b};
            struct mw_kgen_kernel *k = mw_kgen_append(&p);
            if (!k) {
                free(p.kernels), free(d);
                return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
            }
            snprintf(k->k.name, sizeof k->k.name, "%s", i ? "Fan2" : "Fan1");
            k->k.grid[0] = i ? g2 : g1, k->k.grid[1] = i ? g2 : 1, k->k.grid[2] = 1;
            k->k.block[0] = i ? BXY : MAXBLOCK, k->k.block[1] = i ? BXY : 1, k->k.block[2] = 1;
            k->k.nregs = i ? 12 : 8;
            mw_kloop_kernel(k, &dd->h);
            k->lane_affine = true; /* every address: a base + 4 * (N * (XI or YI + uniform terms) + uniform terms) */
        }
    return mw_kgen_workload(w, "rodinia.gaussian", &p, e);
}
