/* Rodinia SRAD v2 (cuda/srad/srad_v2: srad_cuda_1 and srad_cuda_2 in srad_kernel.cu): 16x16 blocks over a
 * rows x cols image, each staging the tile and its four neighbouring edges in shared memory; the host loop runs
 * both kernels once per iteration. Registers per thread are estimates of the sm_20 compile (not measured). */
#include "kloop.h"
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>

#define BS 16 /* BLOCK_SIZE */

struct sr2 {
    struct mw_kl_hdr h;
    int64_t cols, rows;
    uint64_t J, C, E, W, S, N; /* J_cuda, C_cuda, E_C, W_C, S_C, N_C */
};

#define TX ((int64_t)t->tid[0])
#define TY ((int64_t)t->tid[1])
#define BX ((int64_t)t->ctaid[0])
#define BY ((int64_t)t->ctaid[1])
#define GX ((int64_t)t->nctaid[0])
#define GY ((int64_t)t->nctaid[1])
#define BASE (P->cols * BS * BY + BS * BX)
#define F4(base, idx) ((uint64_t)((int64_t)(base) + (int64_t)(idx)*4))
/* shared arrays, [BS][BS] floats each, in declaration order */
#define SH(arr, y, x) ((uint64_t)((arr) * BS * BS * 4 + ((y)*BS + (x)) * 4))
enum { K1_TEMP, K1_RESULT, K1_NORTH, K1_SOUTH, K1_EAST, K1_WEST };
enum { K2_SOUTH, K2_EAST, K2_CTEMP, K2_CRESULT, K2_TEMP };

/* ---- srad_cuda_1 ---- */
MW_KL_ADDR(a_index, struct sr2, F4(P->J, BASE + P->cols * TY + TX))
MW_KL_ADDR(a_n, struct sr2, F4(P->J, BASE + TX - P->cols))          /* index_n: a row above the tile */
MW_KL_ADDR(a_s, struct sr2, F4(P->J, BASE + P->cols * BS + TX))     /* index_s: a row below */
MW_KL_ADDR(a_w, struct sr2, F4(P->J, BASE + P->cols * TY - 1))      /* index_w: one word per row of threads */
MW_KL_ADDR(a_e, struct sr2, F4(P->J, BASE + P->cols * TY + BS))
MW_KL_ADDR(a_n0, struct sr2, F4(P->J, BS * BX + TX))                /* by == 0: the image's first row */
MW_KL_ADDR(a_slast, struct sr2, F4(P->J, P->cols * BS * (GY - 1) + BS * BX + P->cols * (BS - 1) + TX))
MW_KL_ADDR(a_w0, struct sr2, F4(P->J, P->cols * BS * BY + P->cols * TY))
MW_KL_ADDR(a_elast, struct sr2, F4(P->J, P->cols * BS * BY + BS * (GX - 1) + P->cols * TY + BS - 1))
#define OUT(name, arr) MW_KL_ADDR(name, struct sr2, F4(P->arr, BASE + P->cols * TY + TX))
OUT(a_c, C) OUT(a_ec, E) OUT(a_wc, W) OUT(a_sc, S) OUT(a_nc, N)
MW_KL_PRED(p_by0, struct sr2, BY == 0)
MW_KL_PRED(p_bylast, struct sr2, BY != 0 && BY == GY - 1)  /* else if */
MW_KL_PRED(p_bx0, struct sr2, BX == 0)
MW_KL_PRED(p_bxlast, struct sr2, BX != 0 && BX == GX - 1)
MW_KL_ADDR(s_temp, struct sr2, SH(K1_TEMP, TY, TX))
MW_KL_ADDR(s_result, struct sr2, SH(K1_RESULT, TY, TX))
MW_KL_ADDR(s_north, struct sr2, SH(K1_NORTH, TY, TX))
MW_KL_ADDR(s_south, struct sr2, SH(K1_SOUTH, TY, TX))
MW_KL_ADDR(s_east, struct sr2, SH(K1_EAST, TY, TX))
MW_KL_ADDR(s_west, struct sr2, SH(K1_WEST, TY, TX))
/* The kernel's nine border cases select, per thread, north[][] or temp[ty-1][], south[][] or temp[ty+1][],
 * west[][] or temp[][tx-1], east[][] or temp[][tx+1]; modelled as one load each with the selected address. */
MW_KL_ADDR(s_nsel, struct sr2, TY == 0 ? SH(K1_NORTH, TY, TX) : SH(K1_TEMP, TY - 1, TX))
MW_KL_ADDR(s_ssel, struct sr2, TY == BS - 1 ? SH(K1_SOUTH, TY, TX) : SH(K1_TEMP, TY + 1, TX))
MW_KL_ADDR(s_wsel, struct sr2, TX == 0 ? SH(K1_WEST, TY, TX) : SH(K1_TEMP, TY, TX - 1))
MW_KL_ADDR(s_esel, struct sr2, TX == BS - 1 ? SH(K1_EAST, TY, TX) : SH(K1_TEMP, TY, TX + 1))

/* r1 tx, r2 ty, r3 bx, r4 by, r5 tile base, r6 index, r9 shared [ty][tx] offset, r10.. values */
static const struct mw_kl_op srad1_ops[] = {
    KL_ALU(1, 0, 0),   KL_ALU(2, 0, 0),   KL_ALU(3, 0, 0),    KL_ALU(4, 0, 0),    KL_ALU(5, 3, 4),
    KL_ALU(6, 5, 2),   KL_ALU(6, 6, 1),   KL_ALU(7, 5, 1),    KL_ALU(8, 7, 0),    KL_ALU(9, 2, 1),
    KL_LDG(10, 7, a_n, NULL),             KL_LDG(11, 8, a_s, NULL),               KL_STS(10, 9, s_north, NULL),
    KL_STS(11, 9, s_south, NULL),         KL_ALU(12, 4, 0),
    KL_IF(p_by0, 12),  KL_LDG(10, 1, a_n0, NULL),             KL_STS(10, 9, s_north, NULL),             KL_END,
    KL_IF(p_bylast, 12), KL_LDG(11, 1, a_slast, NULL),        KL_STS(11, 9, s_south, NULL),             KL_END,
    KL_BAR,
    KL_ALU(13, 5, 2),  KL_ALU(14, 13, 0), KL_LDG(15, 13, a_w, NULL),              KL_LDG(16, 14, a_e, NULL),
    KL_STS(15, 9, s_west, NULL),          KL_STS(16, 9, s_east, NULL),            KL_ALU(12, 3, 0),
    KL_IF(p_bx0, 12),  KL_LDG(15, 2, a_w0, NULL),             KL_STS(15, 9, s_west, NULL),              KL_END,
    KL_IF(p_bxlast, 12), KL_LDG(16, 2, a_elast, NULL),        KL_STS(16, 9, s_east, NULL),              KL_END,
    KL_BAR,
    KL_LDG(17, 6, a_index, NULL),         KL_STS(17, 9, s_temp, NULL),            KL_BAR,
    KL_LDS(18, 9, s_temp, NULL),          KL_ALU(12, 1, 2),   KL_ALU(19, 2, 1),   KL_ALU(20, 9, 12),
    KL_LDS(10, 20, s_nsel, NULL),         KL_LDS(11, 20, s_ssel, NULL),           KL_LDS(15, 19, s_wsel, NULL),
    KL_LDS(16, 19, s_esel, NULL),
    /* n, s, w, e = neighbour - jc; g2 = (n n + s s + w w + e e) / (jc jc); l = (n + s + w + e) / jc */
    KL_ALU(10, 10, 18), KL_ALU(11, 11, 18), KL_ALU(15, 15, 18), KL_ALU(16, 16, 18), KL_ALU(21, 10, 10),
    KL_ALU(21, 11, 21), KL_ALU(21, 15, 21), KL_ALU(21, 16, 21), KL_ALU(22, 18, 18), KL_SFU(23, 22),
    KL_ALU(21, 21, 23), KL_ALU(24, 10, 11), KL_ALU(24, 24, 15), KL_ALU(24, 24, 16), KL_SFU(23, 18),
    KL_ALU(24, 24, 23),
    /* num = 0.5 g2 - l l / 16, den = 1 + .25 l, qsqr = num / (den den): double-precision constants */
    KL_SFU(25, 21),    KL_SFU(26, 24),    KL_DP(25, 25, 0),   KL_DP(27, 26, 26),  KL_DP(25, 27, 25),
    KL_DP(26, 26, 0),  KL_DP(26, 26, 26), KL_SFU(27, 26),     KL_DP(25, 25, 27),  KL_DP(25, 25, 26),
    KL_SFU(25, 25),
    /* den = (qsqr - q0sqr) / (q0sqr (1 + q0sqr)); c = 1.0 / (1.0 + den), saturated */
    KL_ALU(26, 25, 0), KL_ALU(26, 26, 0), KL_SFU(26, 26),     KL_DP(26, 26, 0),   KL_SFU(27, 26),
    KL_DP(26, 27, 26), KL_SFU(26, 26),    KL_ALU(26, 26, 0),  KL_ALU(26, 26, 0),
    KL_STS(26, 9, s_result, NULL),        KL_BAR,             KL_LDS(26, 9, s_result, NULL),
    KL_ALU(28, 6, 0),  KL_STG(26, 28, a_c, NULL),             KL_ALU(29, 6, 0),   KL_STG(16, 29, a_ec, NULL),
    KL_ALU(29, 6, 0),  KL_STG(15, 29, a_wc, NULL),            KL_ALU(29, 6, 0),   KL_STG(11, 29, a_sc, NULL),
    KL_ALU(29, 6, 0),  KL_STG(10, 29, a_nc, NULL),
};

/* ---- srad_cuda_2 ---- */
MW_KL_ADDR(b_index, struct sr2, F4(P->J, BASE + P->cols * TY + TX))
MW_KL_ADDR(b_cs, struct sr2, F4(P->C, BASE + P->cols * BS + TX))
MW_KL_ADDR(b_cslast, struct sr2, F4(P->C, P->cols * BS * (GY - 1) + BS * BX + P->cols * (BS - 1) + TX))
MW_KL_ADDR(b_ce, struct sr2, F4(P->C, BASE + P->cols * TY + BS))
MW_KL_ADDR(b_celast, struct sr2, F4(P->C, P->cols * BS * BY + BS * (GX - 1) + P->cols * TY + BS - 1))
MW_KL_ADDR(b_c, struct sr2, F4(P->C, BASE + P->cols * TY + TX))
MW_KL_ADDR(b_n, struct sr2, F4(P->N, BASE + P->cols * TY + TX))
MW_KL_ADDR(b_s, struct sr2, F4(P->S, BASE + P->cols * TY + TX))
MW_KL_ADDR(b_w, struct sr2, F4(P->W, BASE + P->cols * TY + TX))
MW_KL_ADDR(b_e, struct sr2, F4(P->E, BASE + P->cols * TY + TX))
MW_KL_PRED(p_bylast2, struct sr2, BY == GY - 1)
MW_KL_PRED(p_bxlast2, struct sr2, BX == GX - 1)
MW_KL_ADDR(s2_south, struct sr2, SH(K2_SOUTH, TY, TX))
MW_KL_ADDR(s2_east, struct sr2, SH(K2_EAST, TY, TX))
MW_KL_ADDR(s2_ctemp, struct sr2, SH(K2_CTEMP, TY, TX))
MW_KL_ADDR(s2_cresult, struct sr2, SH(K2_CRESULT, TY, TX))
MW_KL_ADDR(s2_temp, struct sr2, SH(K2_TEMP, TY, TX))
/* se / e / s / interior: cs = south_c[ty][tx] or c_cuda_temp[ty+1][tx], ce = east_c[ty][tx] or [ty][tx+1] */
MW_KL_ADDR(s2_cssel, struct sr2, TY == BS - 1 ? SH(K2_SOUTH, TY, TX) : SH(K2_CTEMP, TY + 1, TX))
MW_KL_ADDR(s2_cesel, struct sr2, TX == BS - 1 ? SH(K2_EAST, TY, TX) : SH(K2_CTEMP, TY, TX + 1))

static const struct mw_kl_op srad2_ops[] = {
    KL_ALU(1, 0, 0),   KL_ALU(2, 0, 0),   KL_ALU(3, 0, 0),    KL_ALU(4, 0, 0),    KL_ALU(5, 3, 4),
    KL_ALU(6, 5, 2),   KL_ALU(6, 6, 1),   KL_ALU(9, 2, 1),    KL_LDG(10, 6, b_index, NULL),
    KL_STS(10, 9, s2_temp, NULL),         KL_BAR,
    KL_ALU(7, 5, 1),   KL_LDG(11, 7, b_cs, NULL),             KL_STS(11, 9, s2_south, NULL),            KL_ALU(12, 4, 0),
    KL_IF(p_bylast2, 12), KL_LDG(11, 1, b_cslast, NULL),      KL_STS(11, 9, s2_south, NULL),            KL_END,
    KL_BAR,
    KL_ALU(8, 5, 2),   KL_LDG(13, 8, b_ce, NULL),             KL_STS(13, 9, s2_east, NULL),             KL_ALU(12, 3, 0),
    KL_IF(p_bxlast2, 12), KL_LDG(13, 2, b_celast, NULL),      KL_STS(13, 9, s2_east, NULL),             KL_END,
    KL_BAR,
    KL_LDG(14, 6, b_c, NULL),             KL_STS(14, 9, s2_ctemp, NULL),          KL_BAR,
    KL_LDS(15, 9, s2_ctemp, NULL),        KL_ALU(12, 1, 2),   KL_LDS(16, 9, s2_cssel, NULL),
    KL_LDS(17, 9, s2_cesel, NULL),
    /* d_sum = cn N + cs S + cw W + ce E */
    KL_LDG(18, 6, b_n, NULL),             KL_LDG(19, 6, b_s, NULL),               KL_LDG(20, 6, b_w, NULL),
    KL_LDG(21, 6, b_e, NULL),             KL_ALU(22, 15, 18), KL_ALU(22, 16, 19), KL_ALU(22, 15, 20),
    KL_ALU(22, 17, 21),
    /* temp + 0.25 lambda d_sum in double precision */
    KL_LDS(23, 9, s2_temp, NULL),         KL_SFU(24, 22),     KL_SFU(25, 23),     KL_DP(24, 24, 0),
    KL_DP(24, 24, 25), KL_SFU(24, 24),    KL_STS(24, 9, s2_cresult, NULL),        KL_BAR,
    KL_LDS(24, 9, s2_cresult, NULL),      KL_STG(24, 6, b_index, NULL),
};

static void free_owned(void *p) { free(p); }

int mw_wl_rodinia_srad_v2(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    (void)seed;
    /* rows = cols, iterations (Rodinia's run: srad 2048 2048 0 127 0 127 0.5 2) */
    static const int64_t side[4] = {64, 256, 512, 2048}, iters[4] = {1, 2, 2, 2};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    int64_t n = side[sz];
    struct sr2 *d = calloc(2, sizeof *d);
    if (!d) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    struct mw_kgen_program p = {.owned = d, .free_owned = free_owned};
    uint64_t bytes = ((uint64_t)n * n * 4 + 255) & ~255ull, a = 0x10000000ull;
    for (int i = 0; i < 2; i++) {
        d[i] = (struct sr2){{i ? srad2_ops : srad1_ops, i ? (int)(sizeof srad2_ops / sizeof srad2_ops[0])
                                                           : (int)(sizeof srad1_ops / sizeof srad1_ops[0])},
                            n, n, a, a + bytes, a + 2 * bytes, a + 3 * bytes, a + 4 * bytes, a + 5 * bytes};
    }
    for (int64_t it = 0; it < iters[sz]; it++)
        for (int i = 0; i < 2; i++) {
            struct mw_kgen_kernel *k = mw_kgen_append(&p);
            if (!k) {
                free(p.kernels), free(d);
                return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
            }
            snprintf(k->k.name, sizeof k->k.name, "%s", i ? "srad_cuda_2" : "srad_cuda_1");
            k->k.grid[0] = (uint32_t)(n / BS), k->k.grid[1] = (uint32_t)(n / BS), k->k.grid[2] = 1;
            k->k.block[0] = BS, k->k.block[1] = BS, k->k.block[2] = 1;
            k->k.nregs = i ? 18 : 24;
            k->k.shmem = (i ? 5 : 6) * BS * BS * 4;
            mw_kloop_kernel(k, &d[i].h);
        }
    return mw_kgen_workload(w, "rodinia.srad_v2", &p, e);
}
