/* Rodinia LEUKOCYTE, detection stage (cuda/leukocyte: GICOV_kernel and dilate_kernel in find_ellipse_kernel.cu):
 * GICOV_kernel: one block per image column i (blockIdx.x + MaxR) and one thread per row j (threadIdx.x + MaxR),
 *   MaxR = MAX_RAD + 2 = 22; for each of NCIRCLES = 7 circles of radius 8, 10, ..., 20 and NPOINTS = 150 points on
 *   it: p = grad_x[x * grad_m + y] * cos + grad_y[...] * sin with (x, y) = (i + tX, j + tY) (texture fetches;
 *   tX, tY and the angles in constant memory), running mean and variance; the largest mean^2 / var is stored to
 *   gicov[i * grad_m + j]. Neighbouring blocks (on other SMs) read the same gradient columns.
 * dilate_kernel: one thread per pixel (i = tid % img_m, j = tid / img_m, 176 threads per block, blocks rounded
 *   to nearest): the maximum of the GICOV image over the 25 x 25 disk structuring element (radius 12), as texture
 *   fetches of strel and img, stored to dilated[i * img_n + j] (a column walk: uncoalesced, as in the source).
 * The tracking stage (IMGVF_kernel, one block per cell over later frames) is not modelled. Texture fetches are
 * global loads; registers are estimates. The gradient image size is ours (the AVI frame's is not simulated). */
#include "kloop.h"
#include "workloads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NPOINTS 150
#define NCIRCLES 7
#define MAXR 22 /* MAX_RAD + 2 */
#define STREL 25
#define DIL_THREADS 176

struct lk {
    struct mw_kl_hdr h;
    int64_t m, n;                /* grad_m (rows), grad_n (columns) */
    uint64_t gx, gy, gicov, strel, dil;
    int32_t tx[NCIRCLES * NPOINTS], ty[NCIRCLES * NPOINTS];
    uint8_t disk[STREL * STREL];
};

#define F4(b, i) ((b) + (uint64_t)(i) * 4u)
#define GI ((int64_t)t->ctaid[0] + MAXR)
#define GJ ((int64_t)t->tid[0] + MAXR)
#define GADDR ((GI + P->tx[lc[0] * NPOINTS + lc[1]]) * P->m + GJ + P->ty[lc[0] * NPOINTS + lc[1]])
MW_KL_ADDR(a_gx, struct lk, F4(P->gx, GADDR))
MW_KL_ADDR(a_gy, struct lk, F4(P->gy, GADDR))
MW_KL_ADDR(a_gicov, struct lk, F4(P->gicov, GI * P->m + GJ))

/* dilate: thread id, its pixel (i row, j column), the element (el_i, el_j) = (lc[0], lc[1]) */
#define TIDD ((int64_t)t->gtid)
#define DI (TIDD % P->m)
#define DJ (TIDD / P->m)
#define DY (DI - STREL / 2 + lc[0])
#define DX (DJ - STREL / 2 + lc[1])
MW_KL_PRED(p_row, struct lk, DY >= 0 && DY < P->m)
MW_KL_PRED(p_col, struct lk, DX >= 0 && DX < P->n)
MW_KL_PRED(p_el, struct lk, DX >= 0 && DX < P->n && P->disk[lc[0] * STREL + lc[1]])
MW_KL_ADDR(a_strel, struct lk, F4(P->strel, lc[0] * STREL + lc[1]))
MW_KL_ADDR(a_img, struct lk, F4(P->gicov, DX * P->m + DY))
MW_KL_ADDR(a_dil, struct lk, F4(P->dil, DI * P->n + DJ))

#define KL_LDC(d, s) MW_KL_I(MW_OP_LD_CONST, 4, 1, 1, d, s, 0, NULL, NULL)

static const struct mw_kl_op gicov_ops[] = {
    KL_ALU(1, 0, 0), KL_ALU(2, 0, 0), KL_ALU(3, 0, 0), /* i, j, max_GICOV */
    KL_LOOPN(NCIRCLES, 4),
    KL_ALU(5, 0, 0), KL_ALU(6, 0, 0), KL_ALU(7, 0, 0), /* sum, M2, mean */
    KL_LOOPN(NPOINTS, 8),
    KL_LDC(9, 8), KL_LDC(10, 8), KL_ALU(11, 2, 9), KL_ALU(12, 1, 10), KL_ALU(13, 12, 11),
    KL_LDG(14, 13, a_gx, NULL), KL_LDC(15, 8), KL_LDG(16, 13, a_gy, NULL), KL_LDC(17, 8),
    KL_ALU(18, 14, 15), KL_ALU(18, 16, 17), KL_ALU(5, 5, 18), KL_ALU(19, 18, 7), KL_ALU(20, 8, 0),
    KL_SFU(20, 20), KL_ALU(7, 19, 20), KL_ALU(21, 18, 7), KL_ALU(6, 19, 21), KL_ALU(8, 8, 0),
    KL_END,
    KL_ALU(7, 5, 0), KL_ALU(22, 6, 0), KL_ALU(23, 7, 7), KL_SFU(24, 22), KL_ALU(23, 23, 24), KL_ALU(3, 3, 23),
    KL_ALU(4, 4, 0),
    KL_END,
    KL_ALU(25, 1, 2), KL_STG(3, 25, a_gicov, NULL),
};

static const struct mw_kl_op dilate_ops[] = {
    KL_ALU(1, 0, 0), KL_ALU(2, 1, 0), KL_ALU(3, 1, 0), KL_ALU(4, 0, 0), /* thread_id, i, j, max */
    KL_LOOPN(STREL, 5),
    KL_ALU(6, 2, 5), KL_IF(p_row, 6),
    KL_LOOPN(STREL, 7),
    KL_ALU(8, 3, 7), KL_IF(p_col, 8), KL_ALU(9, 5, 7), KL_LDG(10, 9, a_strel, NULL), KL_END,
    KL_IF(p_el, 10), KL_ALU(11, 8, 6), KL_LDG(12, 11, a_img, NULL), KL_ALU(4, 4, 12), KL_END,
    KL_ALU(7, 7, 0),
    KL_END,
    KL_END,
    KL_ALU(5, 5, 0),
    KL_END,
    KL_ALU(13, 2, 3), KL_STG(4, 13, a_dil, NULL),
};

static void free_owned(void *p) { free(p); }

int mw_wl_rodinia_leukocyte(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    (void)seed;
    /* gradient image rows x columns; GICOV costs about 18,000 instructions per pixel, so the default is a
     * 96 x 160 image (52 threads by 116 blocks) */
    static const int64_t rows[4] = {64, 80, 96, 219}, cols[4] = {64, 96, 160, 640};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct lk *d = calloc(2, sizeof *d);
    if (!d) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    struct mw_kgen_program p = {.owned = d, .free_owned = free_owned};
    int64_t m = rows[sz], n = cols[sz];
    uint64_t img = ((uint64_t)(m * n) * 4 + 255) & ~255ull, top = 0x10000000ull;
    d[0].m = m, d[0].n = n;
    d[0].gx = top, top += img;
    d[0].gy = top, top += img;
    d[0].gicov = top, top += img;
    d[0].strel = top, top += 256 * 4;
    d[0].dil = top;
    /* the circles' sample offsets: radius 8 + 2k, theta = 2 pi n / NPOINTS, truncated as (int) */
    for (int k = 0; k < NCIRCLES; k++)
        for (int q = 0; q < NPOINTS; q++) {
            double th = 2.0 * 3.14159265358979323846 * q / NPOINTS, r = 8 + 2 * k;
            d[0].tx[k * NPOINTS + q] = (int32_t)(cos(th) * r);
            d[0].ty[k * NPOINTS + q] = (int32_t)(sin(th) * r);
        }
    for (int a = 0; a < STREL; a++)
        for (int b = 0; b < STREL; b++)
            d[0].disk[a * STREL + b] = (a - 12) * (a - 12) + (b - 12) * (b - 12) <= 144;
    d[1] = d[0];
    d[0].h = (struct mw_kl_hdr){gicov_ops, (int)(sizeof gicov_ops / sizeof gicov_ops[0])};
    d[1].h = (struct mw_kl_hdr){dilate_ops, (int)(sizeof dilate_ops / sizeof dilate_ops[0])};
    for (int kk = 0; kk < 2; kk++) {
        struct mw_kgen_kernel *k = mw_kgen_append(&p);
        if (!k) {
            free(p.kernels), free(d);
            return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
        }
        snprintf(k->k.name, sizeof k->k.name, "%s", kk ? "dilate_kernel" : "GICOV_kernel");
        if (!kk) {
            k->k.grid[0] = (uint32_t)(n - 2 * MAXR), k->k.block[0] = (uint32_t)(m - 2 * MAXR), k->k.nregs = 26;
        } else {
            k->k.grid[0] = (uint32_t)((double)(m * n) / DIL_THREADS + 0.5), k->k.block[0] = DIL_THREADS;
            k->k.nregs = 16;
        }
        k->k.grid[1] = k->k.grid[2] = 1, k->k.block[1] = k->k.block[2] = 1;
        mw_kloop_kernel(k, &d[kk].h);
    }
    return mw_kgen_workload(w, "rodinia.leukocyte", &p, e);
}
