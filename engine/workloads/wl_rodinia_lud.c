/* Rodinia LUD (cuda/lud/cuda: lud_diagonal, lud_perimeter, lud_internal in lud_kernel.cu): in-place blocked LU
 * decomposition of a dim x dim matrix with 16x16 blocks. Per block step at offset i the host launches
 * lud_diagonal (one 16-thread CTA factoring the diagonal block in shared memory), lud_perimeter (one 32-thread CTA
 * per block of the step's row and column: threads 0-15 the row block, 16-31 the column block) and lud_internal
 * (16x16 threads per trailing block, a rank-16 update from shared tiles); a last lud_diagonal closes. Registers
 * per thread are estimates (not measured). */
#include "kloop.h"
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>

#define BS 16 /* BLOCK_SIZE */

struct lud {
    struct mw_kl_hdr h;
    int64_t dim, off;
    uint64_t m;
};

#define TX ((int64_t)t->tid[0])
#define TY ((int64_t)t->tid[1])
#define BX ((int64_t)t->ctaid[0])
#define BY ((int64_t)t->ctaid[1])
#define M(row, col) (P->m + (uint64_t)((row)*P->dim + (col)) * 4u) /* m[row * matrix_dim + col] */
#define SH(arr, y, x) ((uint64_t)(((arr)*BS * BS + (y)*BS + (x)) * 4))
#define OFF (P->off)
#define IDX (TX - BS) /* the column half's idx */

/* ---- lud_diagonal: shadow[16][16] ---- */
MW_KL_ADDR(d_ld, struct lud, M(OFF + lc[0], OFF + TX))
MW_KL_ADDR(d_sh_ld, struct lud, SH(0, lc[0], TX))
MW_KL_PRED(d_p1, struct lud, TX > lc[0])
MW_KL_TRIPS(d_n1, struct lud, lc[0])
MW_KL_TRIPS(d_n2, struct lud, lc[0] + 1)
MW_KL_ADDR(d_acc1, struct lud, SH(0, TX, lc[0]))         /* shadow[tx][i] */
MW_KL_ADDR(d_a1, struct lud, SH(0, TX, lc[1]))           /* shadow[tx][j] */
MW_KL_ADDR(d_b1, struct lud, SH(0, lc[1], lc[0]))        /* shadow[j][i] */
MW_KL_ADDR(d_ii, struct lud, SH(0, lc[0], lc[0]))        /* shadow[i][i] */
MW_KL_ADDR(d_acc2, struct lud, SH(0, lc[0] + 1, TX))     /* shadow[i+1][tx] */
MW_KL_ADDR(d_a2, struct lud, SH(0, lc[0] + 1, lc[1]))    /* shadow[i+1][j] */
MW_KL_ADDR(d_b2, struct lud, SH(0, lc[1], TX))           /* shadow[j][tx] */
MW_KL_ADDR(d_sh_st, struct lud, SH(0, lc[0] + 1, TX))
MW_KL_ADDR(d_st, struct lud, M(OFF + 1 + lc[0], OFF + TX)) /* rows 1 .. 15 written back */

/* r1 tx, r2 array_offset, r3 loop i, r4 j, r5..: values */
static const struct mw_kl_op diag_ops[] = {
    KL_ALU(1, 0, 0),  KL_ALU(2, 0, 0),  KL_ALU(2, 2, 1),  KL_ALU(6, 1, 0),
    KL_LOOPN(BS, 3),  KL_LDG(5, 2, d_ld, NULL),          KL_ALU(7, 3, 6),   KL_STS(5, 7, d_sh_ld, NULL),
    KL_ALU(2, 2, 0),  KL_ALU(3, 3, 0),  KL_END,           KL_BAR,
    KL_LOOPN(BS - 1, 3), KL_ALU(8, 1, 3),
    KL_IF(d_p1, 8),   KL_ALU(9, 6, 3),  KL_LDS(10, 9, d_acc1, NULL),
    KL_LOOP(d_n1, NULL, 4),             KL_LDS(11, 9, d_a1, NULL),            KL_LDS(12, 4, d_b1, NULL),
    KL_ALU(10, 11, 12), KL_ALU(4, 4, 0), KL_END,
    KL_LDS(13, 3, d_ii, NULL),          KL_SFU(13, 13),   KL_ALU(10, 10, 13), KL_STS(10, 9, d_acc1, NULL),
    KL_END,           KL_BAR,
    KL_IF(d_p1, 8),   KL_ALU(9, 3, 6),  KL_LDS(10, 9, d_acc2, NULL),
    KL_LOOP(d_n2, NULL, 4),             KL_LDS(11, 9, d_a2, NULL),            KL_LDS(12, 4, d_b2, NULL),
    KL_ALU(10, 11, 12), KL_ALU(4, 4, 0), KL_END,
    KL_STS(10, 9, d_sh_st, NULL),       KL_END,           KL_BAR,           KL_ALU(3, 3, 0), KL_END,
    KL_ALU(2, 2, 0),  KL_LOOPN(BS - 1, 3), KL_ALU(7, 3, 6), KL_LDS(5, 7, d_sh_st, NULL),
    KL_STG(5, 2, d_st, NULL),           KL_ALU(2, 2, 0),  KL_ALU(3, 3, 0),  KL_END,
};

/* ---- lud_perimeter: dia, peri_row, peri_col [16][16]; block of 32 threads ---- */
enum { DIA, PROW, PCOL };
MW_KL_PRED(p_row, struct lud, TX < BS)
MW_KL_PRED(p_col, struct lud, TX >= BS)
MW_KL_ADDR(p_dia_lo, struct lud, M(OFF + lc[0], OFF + TX))                   /* dia rows 0 .. 7 */
MW_KL_ADDR(p_sdia_lo, struct lud, SH(DIA, lc[0], TX))
MW_KL_ADDR(p_prow, struct lud, M(OFF + lc[0], OFF + (BX + 1) * BS + TX))
MW_KL_ADDR(p_sprow, struct lud, SH(PROW, lc[0], TX))
MW_KL_ADDR(p_dia_hi, struct lud, M(OFF + BS / 2 + lc[0], OFF + IDX))         /* dia rows 8 .. 15 */
MW_KL_ADDR(p_sdia_hi, struct lud, SH(DIA, BS / 2 + lc[0], IDX))
MW_KL_ADDR(p_pcol, struct lud, M(OFF + (BX + 1) * BS + lc[0], OFF + IDX))
MW_KL_ADDR(p_spcol, struct lud, SH(PCOL, lc[0], IDX))
/* row half: for i = 1 .. 15, j < i: peri_row[i][idx] -= dia[i][j] * peri_row[j][idx] */
MW_KL_TRIPS(p_n_row, struct lud, lc[0] + 1)
MW_KL_ADDR(p_r_acc, struct lud, SH(PROW, lc[0] + 1, TX))
MW_KL_ADDR(p_r_dia, struct lud, SH(DIA, lc[0] + 1, lc[1]))
MW_KL_ADDR(p_r_row, struct lud, SH(PROW, lc[1], TX))
/* column half: for i = 0 .. 15, j < i: peri_col[idx][i] -= peri_col[idx][j] * dia[j][i]; /= dia[i][i] */
MW_KL_TRIPS(p_n_col, struct lud, lc[0])
MW_KL_ADDR(p_c_acc, struct lud, SH(PCOL, IDX, lc[0]))
MW_KL_ADDR(p_c_col, struct lud, SH(PCOL, IDX, lc[1]))
MW_KL_ADDR(p_c_dia, struct lud, SH(DIA, lc[1], lc[0]))
MW_KL_ADDR(p_c_ii, struct lud, SH(DIA, lc[0], lc[0]))
/* write back: peri_row rows 1 .. 15, peri_col rows 0 .. 15 */
MW_KL_ADDR(p_sr_out, struct lud, SH(PROW, lc[0] + 1, TX))
MW_KL_ADDR(p_r_out, struct lud, M(OFF + 1 + lc[0], OFF + (BX + 1) * BS + TX))
MW_KL_ADDR(p_sc_out, struct lud, SH(PCOL, lc[0], IDX))
MW_KL_ADDR(p_c_out, struct lud, M(OFF + (BX + 1) * BS + lc[0], OFF + IDX))

static const struct mw_kl_op peri_ops[] = {
    KL_ALU(1, 0, 0),  KL_ALU(2, 0, 0),  KL_ALU(3, 0, 0),  KL_ALU(4, 1, 0),  KL_ALU(20, 1, 0),
    KL_IF(p_row, 4),
    KL_ALU(5, 3, 1),  KL_LOOPN(BS / 2, 6), KL_LDG(7, 5, p_dia_lo, NULL),      KL_STS(7, 20, p_sdia_lo, NULL),
    KL_ALU(5, 5, 0),  KL_ALU(6, 6, 0),  KL_END,
    KL_ALU(5, 3, 2),  KL_LOOPN(BS, 6),  KL_LDG(7, 5, p_prow, NULL),           KL_STS(7, 20, p_sprow, NULL),
    KL_ALU(5, 5, 0),  KL_ALU(6, 6, 0),  KL_END,
    KL_END,
    KL_IF(p_col, 4),
    KL_ALU(5, 3, 1),  KL_LOOPN(BS / 2, 6), KL_LDG(7, 5, p_dia_hi, NULL),      KL_STS(7, 20, p_sdia_hi, NULL),
    KL_ALU(5, 5, 0),  KL_ALU(6, 6, 0),  KL_END,
    KL_ALU(5, 3, 2),  KL_LOOPN(BS, 6),  KL_LDG(7, 5, p_pcol, NULL),           KL_STS(7, 20, p_spcol, NULL),
    KL_ALU(5, 5, 0),  KL_ALU(6, 6, 0),  KL_END,
    KL_END,
    KL_BAR,
    KL_IF(p_row, 4),
    KL_LOOPN(BS - 1, 6), KL_ALU(8, 6, 1), KL_LDS(9, 8, p_r_acc, NULL),
    KL_LOOP(p_n_row, NULL, 10),         KL_LDS(11, 8, p_r_dia, NULL),         KL_LDS(12, 10, p_r_row, NULL),
    KL_ALU(9, 11, 12), KL_ALU(10, 10, 0), KL_END,
    KL_STS(9, 8, p_r_acc, NULL),        KL_ALU(6, 6, 0),  KL_END,
    KL_END,
    KL_IF(p_col, 4),
    KL_LOOPN(BS, 6),  KL_ALU(8, 6, 1),  KL_LDS(9, 8, p_c_acc, NULL),
    KL_LOOP(p_n_col, NULL, 10),         KL_LDS(11, 8, p_c_col, NULL),         KL_LDS(12, 10, p_c_dia, NULL),
    KL_ALU(9, 11, 12), KL_ALU(10, 10, 0), KL_END,
    KL_LDS(13, 6, p_c_ii, NULL),        KL_SFU(13, 13),   KL_ALU(9, 9, 13), KL_STS(9, 8, p_c_acc, NULL),
    KL_ALU(6, 6, 0),  KL_END,
    KL_END,
    KL_BAR,
    KL_IF(p_row, 4),
    KL_ALU(5, 3, 2),  KL_LOOPN(BS - 1, 6), KL_ALU(8, 6, 1), KL_LDS(7, 8, p_sr_out, NULL),
    KL_STG(7, 5, p_r_out, NULL),        KL_ALU(5, 5, 0),  KL_ALU(6, 6, 0),  KL_END,
    KL_END,
    KL_IF(p_col, 4),
    KL_ALU(5, 3, 2),  KL_LOOPN(BS, 6),  KL_ALU(8, 6, 1),  KL_LDS(7, 8, p_sc_out, NULL),
    KL_STG(7, 5, p_c_out, NULL),        KL_ALU(5, 5, 0),  KL_ALU(6, 6, 0),  KL_END,
    KL_END,
};

/* ---- lud_internal: peri_row, peri_col [16][16]; 16x16 threads per trailing block ---- */
#define GROW (OFF + (BY + 1) * BS)
#define GCOL (OFF + (BX + 1) * BS)
MW_KL_ADDR(i_row, struct lud, M(OFF + TY, GCOL + TX))
MW_KL_ADDR(i_col, struct lud, M(GROW + TY, OFF + TX))
MW_KL_ADDR(i_srow, struct lud, SH(0, TY, TX))
MW_KL_ADDR(i_scol, struct lud, SH(1, TY, TX))
MW_KL_ADDR(i_a, struct lud, SH(1, TY, lc[0]))   /* peri_col[ty][i] */
MW_KL_ADDR(i_b, struct lud, SH(0, lc[0], TX))   /* peri_row[i][tx] */
MW_KL_ADDR(i_m, struct lud, M(GROW + TY, GCOL + TX))

static const struct mw_kl_op internal_ops[] = {
    KL_ALU(1, 0, 0),  KL_ALU(2, 0, 0),  KL_ALU(3, 0, 0),  KL_ALU(4, 0, 0),  KL_ALU(5, 3, 0),  KL_ALU(6, 4, 0),
    KL_ALU(7, 2, 0),  KL_ALU(7, 7, 5),  KL_ALU(8, 6, 2),  KL_ALU(8, 8, 1),  KL_ALU(9, 2, 1),
    KL_LDG(10, 7, i_row, NULL),         KL_LDG(11, 8, i_col, NULL),           KL_STS(10, 9, i_srow, NULL),
    KL_STS(11, 9, i_scol, NULL),        KL_BAR,           KL_ALU(12, 0, 0),
    KL_LOOPN(BS, 13), KL_LDS(14, 2, i_a, NULL),          KL_LDS(15, 1, i_b, NULL),
    KL_ALU(12, 14, 15), KL_ALU(13, 13, 0), KL_END,
    KL_ALU(16, 6, 5), KL_LDG(17, 16, i_m, NULL),         KL_ALU(17, 17, 12), KL_STG(17, 16, i_m, NULL),
};

static void free_owned(void *p) { free(p); }

int mw_wl_rodinia_lud(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    (void)seed;
    /* matrix_dim (Rodinia's run: lud_cuda -s 256) */
    static const int64_t dims[4] = {64, 128, 384, 256};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    int64_t dim = dims[sz], steps = dim / BS - 1, nl = 3 * steps + 1;
    struct lud *d = calloc((size_t)nl, sizeof *d);
    if (!d) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    struct mw_kgen_program p = {.owned = d, .free_owned = free_owned};
    static const struct {
        const char *name;
        const struct mw_kl_op *ops;
        int nops;
        uint32_t nregs, shmem;
    } kinds[3] = {
        {"lud_diagonal", diag_ops, (int)(sizeof diag_ops / sizeof diag_ops[0]), 12, BS * BS * 4},
        {"lud_perimeter", peri_ops, (int)(sizeof peri_ops / sizeof peri_ops[0]), 18, 3 * BS * BS * 4},
        {"lud_internal", internal_ops, (int)(sizeof internal_ops / sizeof internal_ops[0]), 18, 2 * BS * BS * 4},
    };
    for (int64_t l = 0; l < nl; l++) {
        int kind = (int)(l % 3);
        int64_t off = l / 3 * BS, g = (dim - off) / BS - 1;
        d[l] = (struct lud){{kinds[kind].ops, kinds[kind].nops}, dim, off, 0x10000000ull};
        struct mw_kgen_kernel *k = mw_kgen_append(&p);
        if (!k) {
            free(p.kernels), free(d);
            return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
        }
        snprintf(k->k.name, sizeof k->k.name, "%s", kinds[kind].name);
        k->k.grid[0] = kind == 0 ? 1 : (uint32_t)g;
        k->k.grid[1] = kind == 2 ? (uint32_t)g : 1;
        k->k.grid[2] = 1;
        k->k.block[0] = kind == 1 ? 2 * BS : BS;
        k->k.block[1] = kind == 2 ? BS : 1;
        k->k.block[2] = 1;
        k->k.nregs = kinds[kind].nregs;
        k->k.shmem = kinds[kind].shmem;
        mw_kloop_kernel(k, &d[l].h);
        k->lane_affine = true; /* every address: M() or SH() of TX, TY, IDX = TX - BS and uniform terms */
    }
    return mw_kgen_workload(w, "rodinia.lud", &p, e);
}
