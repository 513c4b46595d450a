/* Rodinia NW (cuda/nw: needle_cuda_shared_1 and needle_cuda_shared_2 in needle_kernel.cu): Needleman-Wunsch on a
 * (dim + 1)^2 score matrix in 16x16 blocks of one 16-thread CTA each, processed by anti-diagonals of blocks: the
 * host launches shared_1 for diagonals 1 .. dim/16 of the top-left half (i blocks each), then shared_2 for the
 * bottom-right half. Each block stages its reference tile and the north/west borders in shared memory and sweeps
 * its 16x16 cells by 31 inner anti-diagonals. Registers per thread are estimates (not measured). */
#include "kloop.h"
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>

#define BS 16 /* BLOCK_SIZE */

struct nw {
    struct mw_kl_hdr h;
    int64_t cols, i, bw; /* max_cols (dim + 1), the launch's diagonal i, block_width */
    bool second;         /* needle_cuda_shared_2 */
    uint64_t ref, mat;   /* referrence_cuda, matrix_cuda */
};

#define TX ((int64_t)t->tid[0])
#define BXI ((int64_t)t->ctaid[0])
#define B_X (P->second ? BXI + P->bw - P->i : BXI)
#define B_Y (P->second ? P->bw - BXI - 1 : P->i - 1 - BXI)
#define CORNER (P->cols * BS * B_Y + BS * B_X)
#define F4(base, idx) ((base) + (uint64_t)(idx)*4u)
/* int temp[BS + 1][BS + 1], then int ref[BS][BS] */
#define SH_T(y, x) ((uint64_t)(((y) * (BS + 1) + (x)) * 4))
#define SH_R(y, x) ((uint64_t)((BS + 1) * (BS + 1) * 4 + ((y)*BS + (x)) * 4))

MW_KL_PRED(p_tx0, struct nw, TX == 0)
MW_KL_ADDR(a_nw, struct nw, F4(P->mat, CORNER))                                     /* matrix[index_nw] */
MW_KL_ADDR(a_ref, struct nw, F4(P->ref, CORNER + TX + P->cols + 1 + P->cols * lc[0])) /* index + cols * ty */
MW_KL_ADDR(a_w, struct nw, F4(P->mat, CORNER + P->cols + P->cols * TX))            /* index_w + cols * tx */
MW_KL_ADDR(a_n, struct nw, F4(P->mat, CORNER + TX + 1))                            /* index_n */
MW_KL_ADDR(a_out, struct nw, F4(P->mat, CORNER + TX + P->cols + 1 + P->cols * lc[0]))
MW_KL_ADDR(s_t00, struct nw, SH_T(0, 0))
MW_KL_ADDR(s_ref, struct nw, SH_R(lc[0], TX))
MW_KL_ADDR(s_west, struct nw, SH_T(TX + 1, 0))
MW_KL_ADDR(s_north, struct nw, SH_T(0, TX + 1))
MW_KL_ADDR(s_out, struct nw, SH_T(lc[0] + 1, TX + 1))
/* the two sweeps: step m = lc for the first (cells (m - tx + 1, tx + 1)), m = BS - 2 - lc for the second (cells
 * (BS - tx, tx + BS - m)); thread tx works while tx <= m */
#define M1 (lc[0])
#define M2 (BS - 2 - lc[0])
MW_KL_PRED(p_m1, struct nw, TX <= M1)
MW_KL_PRED(p_m2, struct nw, TX <= M2)
#define CELL(name, m, yx, dy, dx, sh)                                                                         \
    MW_KL_ADDR(name, struct nw, sh(yx##_Y(m) + (dy), yx##_X(m) + (dx)))
#define S1_Y(m) ((m)-TX + 1)
#define S1_X(m) (TX + 1)
#define S2_Y(m) (BS - TX)
#define S2_X(m) (TX + BS - (m))
CELL(s1_nw, M1, S1, -1, -1, SH_T) CELL(s1_ref, M1, S1, -1, -1, SH_R) CELL(s1_w, M1, S1, 0, -1, SH_T)
CELL(s1_n, M1, S1, -1, 0, SH_T) CELL(s1_c, M1, S1, 0, 0, SH_T)
CELL(s2_nw, M2, S2, -1, -1, SH_T) CELL(s2_ref, M2, S2, -1, -1, SH_R) CELL(s2_w, M2, S2, 0, -1, SH_T)
CELL(s2_n, M2, S2, -1, 0, SH_T) CELL(s2_c, M2, S2, 0, 0, SH_T)

/* temp[y][x] = maximum(temp[y-1][x-1] + ref[y-1][x-1], temp[y][x-1] - penalty, temp[y-1][x] - penalty) */
#define SWEEP(n, p, nw, rf, w, nn, c)                                                                        \
    KL_LOOPN(n, 10), KL_ALU(11, 10, 1), KL_IF(p, 11), KL_ALU(12, 10, 1), KL_ALU(13, 12, 0),                  \
        KL_LDS(14, 13, nw, NULL), KL_LDS(15, 13, rf, NULL), KL_LDS(16, 13, w, NULL), KL_LDS(17, 13, nn, NULL), \
        KL_ALU(14, 14, 15), KL_ALU(16, 16, 0), KL_ALU(17, 17, 0), KL_ALU(18, 14, 16), KL_ALU(18, 18, 17),      \
        KL_STS(18, 13, c, NULL), KL_END, KL_BAR, KL_ALU(10, 10, 0), KL_END

/* r1 tx, r2 bx, r3 corner, r4 index, r5 ref/out address, r6 shared address */
#define PROLOGUE                                                                                             \
    KL_ALU(1, 0, 0), KL_ALU(2, 0, 0), KL_ALU(3, 2, 0), KL_ALU(3, 3, 0), KL_ALU(4, 3, 1), KL_ALU(7, 1, 0)
#define LOAD_REF                                                                                             \
    KL_ALU(5, 4, 0), KL_LOOPN(BS, 9), KL_LDG(8, 5, a_ref, NULL), KL_ALU(6, 9, 1), KL_STS(8, 6, s_ref, NULL), \
        KL_ALU(5, 5, 0), KL_ALU(9, 9, 0), KL_END
#define LOAD_NW KL_IF(p_tx0, 7), KL_LDG(8, 3, a_nw, NULL), KL_STS(8, 0, s_t00, NULL), KL_END
#define LOAD_W KL_ALU(5, 3, 1), KL_LDG(8, 5, a_w, NULL), KL_ALU(6, 1, 0), KL_STS(8, 6, s_west, NULL)
#define LOAD_N KL_LDG(8, 4, a_n, NULL), KL_STS(8, 6, s_north, NULL)
#define COMPUTE_STORE                                                                                        \
    SWEEP(BS, p_m1, s1_nw, s1_ref, s1_w, s1_n, s1_c), SWEEP(BS - 1, p_m2, s2_nw, s2_ref, s2_w, s2_n, s2_c),   \
        KL_ALU(5, 4, 0), KL_LOOPN(BS, 9), KL_ALU(6, 9, 1), KL_LDS(8, 6, s_out, NULL),                        \
        KL_STG(8, 5, a_out, NULL), KL_ALU(5, 5, 0), KL_ALU(9, 9, 0), KL_END

static const struct mw_kl_op nw1_ops[] = {
    PROLOGUE, LOAD_NW, LOAD_REF, KL_BAR, LOAD_W, KL_BAR, LOAD_N, KL_BAR, COMPUTE_STORE,
};
static const struct mw_kl_op nw2_ops[] = {
    PROLOGUE, LOAD_REF, KL_BAR, LOAD_NW, LOAD_W, KL_BAR, LOAD_N, KL_BAR, COMPUTE_STORE,
};

static void free_owned(void *p) { free(p); }

int mw_wl_rodinia_nw(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    (void)seed;
    /* sequence length (Rodinia's run: needle 2048 10) */
    static const int64_t dims[4] = {64, 256, 1024, 2048};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    int64_t dim = dims[sz], cols = dim + 1, bw = dim / BS, nl = 2 * bw - 1;
    struct nw *d = calloc((size_t)nl, sizeof *d);
    if (!d) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    struct mw_kgen_program p = {.owned = d, .free_owned = free_owned};
    uint64_t bytes = ((uint64_t)(cols * cols * 4) + 255) & ~255ull;
    uint64_t ref = 0x10000000ull, mat = ref + bytes;
    for (int64_t l = 0; l < nl; l++) {
        bool second = l >= bw;
        int64_t i = second ? bw - 1 - (l - bw) : l + 1; /* 1 .. bw, then bw - 1 .. 1 */
        d[l] = (struct nw){{second ? nw2_ops : nw1_ops, second ? (int)(sizeof nw2_ops / sizeof nw2_ops[0])
                                                               : (int)(sizeof nw1_ops / sizeof nw1_ops[0])},
                           cols, i, bw, second, ref, mat};
        struct mw_kgen_kernel *k = mw_kgen_append(&p);
        if (!k) {
            free(p.kernels), free(d);
            return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
        }
        snprintf(k->k.name, sizeof k->k.name, "%s", second ? "needle_cuda_shared_2" : "needle_cuda_shared_1");
        k->k.grid[0] = (uint32_t)i, k->k.grid[1] = k->k.grid[2] = 1;
        k->k.block[0] = BS, k->k.block[1] = k->k.block[2] = 1;
        k->k.nregs = 22;
        k->k.shmem = ((BS + 1) * (BS + 1) + BS * BS) * 4;
        mw_kloop_kernel(k, &d[l].h);
    }
    return mw_kgen_workload(w, "rodinia.nw", &p, e);
}
