/* CUDA SDK transpose (6_Advanced/transpose, transpose.cu): TILE_DIM 32, BLOCK_ROWS 16, a size_x x size_y float
 * matrix (1024 x 1024 on a GPU with 15 SMs of 32 cores), grid (size_x / 32, size_y / 32) of 32 x 16 threads, each
 * thread moving TILE_DIM / BLOCK_ROWS = 2 elements (the loops over i = 0, 16 are unrolled). The sample times
 * eight kernels in turn (simple copy, shared-memory copy, naive, coalesced, no-bank-conflict, coarse-grained,
 * fine-grained, diagonal), each launched 1 + 100 times. The model launches once each of the four full transposes,
 * in the sample's order: transposeNaive (rows read coalesced, columns written: 32 lines a warp store),
 * transposeCoalesced (through a 32 x 32 shared tile read down a column: 32-way bank conflicts),
 * transposeNoBankConflicts (the tile padded to 32 x 33) and transposeDiagonal (the same with CTAs reordered along
 * diagonals against partition camping). The copies move no data across rows and the coarse/fine-grained kernels
 * are partial transposes, so they are left out. Registers per thread are estimates of the sm_20 compile. */
#include "kloop.h"
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>

#define TILE 32
#define ROWS 16

struct tr {
    struct mw_kl_hdr h;
    int64_t w, hgt, pad; /* width, height, shared tile row length (32 or 33) */
    int diag;
    uint64_t in, out;
};

#define TX ((int64_t)t->tid[0])
#define TY ((int64_t)t->tid[1])
/* the CTA's tile: blockIdx, or for the diagonal kernel (width == height) blockIdx_y = blockIdx.x, blockIdx_x =
 * (blockIdx.x + blockIdx.y) % gridDim.x */
static int64_t bxs(const struct mw_tctx *t, const struct tr *P)
{
    return P->diag ? ((int64_t)t->ctaid[0] + t->ctaid[1]) % t->nctaid[0] : (int64_t)t->ctaid[0];
}
static int64_t bys(const struct mw_tctx *t, const struct tr *P)
{
    return P->diag ? (int64_t)t->ctaid[0] : (int64_t)t->ctaid[1];
}
#define BX bxs(t, P)
#define BY bys(t, P)
#define F4(base, idx) ((base) + (uint64_t)(idx)*4u)
/* index_in = xIndex + width * yIndex (tile (BX, BY)), index_out of the naive kernel = yIndex + height * xIndex,
 * index_out of the tiled kernels = (BY * 32 + tx) + height * (BX * 32 + ty) */
#define IN_IDX (BX * TILE + TX + P->w * (BY * TILE + TY))
#define NAIVE_OUT (BY * TILE + TY + P->hgt * (BX * TILE + TX))
#define TILED_OUT (BY * TILE + TX + P->hgt * (BX * TILE + TY))

#define TR_STEP(i)                                                                                              \
    MW_KL_ADDR(a_in##i, struct tr, F4(P->in, IN_IDX + (i)*P->w))                                               \
    MW_KL_ADDR(a_nout##i, struct tr, F4(P->out, NAIVE_OUT + (i)))                                              \
    MW_KL_ADDR(a_tout##i, struct tr, F4(P->out, TILED_OUT + (i)*P->hgt))                                       \
    MW_KL_ADDR(s_row##i, struct tr, F4(0, (TY + (i)) * P->pad + TX))                                           \
    MW_KL_ADDR(s_col##i, struct tr, F4(0, TX * P->pad + TY + (i)))
TR_STEP(0)
TR_STEP(16)

/* r1 tx, r2 ty, r3 ctaid.x, r4 ctaid.y, r5 xIndex, r6 yIndex, r7 index_in, r8 index_out, r9/r10 addresses */
static const struct mw_kl_op naive_ops[] = {
    KL_ALU(1, 0, 0),  KL_ALU(2, 0, 0),  KL_ALU(3, 0, 0), KL_ALU(4, 0, 0), KL_ALU(5, 3, 1), KL_ALU(6, 4, 2),
    KL_ALU(7, 6, 5),  KL_ALU(8, 5, 6),  KL_ALU(9, 7, 0), KL_ALU(10, 8, 0),
    KL_LDG(11, 9, a_in0, NULL),  KL_STG(11, 10, a_nout0, NULL), KL_ALU(12, 9, 0), KL_LDG(13, 12, a_in16, NULL),
    KL_STG(13, 10, a_nout16, NULL),
};

/* the tiled kernels; the diagonal one first remaps its block indices (r3, r4) */
MW_KL_PRED(p_diag, struct tr, P->diag != 0)
static const struct mw_kl_op tiled_ops[] = {
    KL_ALU(1, 0, 0),  KL_ALU(2, 0, 0),  KL_ALU(3, 0, 0), KL_ALU(4, 0, 0),
    KL_ALUP(14, 3, 4, p_diag), KL_ALUP(15, 14, 0, p_diag), KL_ALUP(15, 15, 0, p_diag), KL_ALUP(4, 3, 0, p_diag),
    KL_ALUP(3, 15, 0, p_diag),
    KL_ALU(5, 3, 1),  KL_ALU(6, 4, 2),  KL_ALU(7, 6, 5), KL_ALU(5, 4, 1), KL_ALU(6, 3, 2), KL_ALU(8, 6, 5),
    KL_ALU(9, 7, 0),  KL_ALU(10, 2, 1), KL_ALU(11, 1, 2), KL_ALU(12, 8, 0),
    KL_LDG(13, 9, a_in0, NULL),  KL_STS(13, 10, s_row0, NULL), KL_LDG(13, 9, a_in16, NULL),
    KL_STS(13, 10, s_row16, NULL),
    KL_BAR,
    KL_LDS(14, 11, s_col0, NULL), KL_STG(14, 12, a_tout0, NULL), KL_LDS(15, 11, s_col16, NULL),
    KL_STG(15, 12, a_tout16, NULL),
};

static void free_owned(void *p) { free(p); }

int mw_wl_sdk_transpose(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    (void)seed;
    static const int64_t side[4] = {128, 512, 1024, 1024};
    static const char *const names[4] = {"transposeNaive", "transposeCoalesced", "transposeNoBankConflicts",
                                         "transposeDiagonal"};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct tr *d = calloc(4, sizeof *d);
    if (!d) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    struct mw_kgen_program p = {.owned = d, .free_owned = free_owned};
    int64_t n = side[sz];
    uint64_t bytes = ((uint64_t)n * n * 4 + 255) & ~255ull;
    for (int i = 0; i < 4; i++) {
        d[i].w = d[i].hgt = n;
        d[i].pad = i == 1 ? TILE : TILE + 1;
        d[i].diag = i == 3;
        d[i].in = 0x10000000ull, d[i].out = 0x10000000ull + bytes; /* cudaMalloc order: d_idata, d_odata */
        d[i].h = i == 0 ? (struct mw_kl_hdr){naive_ops, (int)(sizeof naive_ops / sizeof naive_ops[0])}
                        : (struct mw_kl_hdr){tiled_ops, (int)(sizeof tiled_ops / sizeof tiled_ops[0])};
        struct mw_kgen_kernel *k = mw_kgen_append(&p);
        if (!k) {
            free(p.kernels), free(d);
            return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
        }
        snprintf(k->k.name, sizeof k->k.name, "%s", names[i]);
        k->k.grid[0] = (uint32_t)(n / TILE), k->k.grid[1] = (uint32_t)(n / TILE), k->k.grid[2] = 1;
        k->k.block[0] = TILE, k->k.block[1] = ROWS, k->k.block[2] = 1;
        k->k.nregs = i == 0 ? 10 : 12;
        k->k.shmem = i == 0 ? 0 : (uint32_t)(TILE * d[i].pad * 4);
        mw_kloop_kernel(k, &d[i].h);
        k->lane_affine = true; /* every address linear in TX (BX, BY, TY and the loop counters are warp-uniform) */
    }
    return mw_kgen_workload(w, "sdk.transpose", &p, e);
}
