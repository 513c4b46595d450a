/* Rodinia HEARTWALL (cuda/heartwall/kernel.cu, main.cu): one `kernel` launch per video frame, one 256-thread
 * CTA per tracked point (20 endocardial + 31 epicardial). Frame 0 copies each point's 51x51 template out of the
 * frame; later frames copy the 81x81 search area, convolve it with the rotated template (shared memory), build
 * the padded cumulative sums (vertical and horizontal) of the area and of its square, normalise, mask with a
 * 10x10 window around the previous position and search the maximum; every 10th frame blends the template with
 * the frame at the updated position. Every phase is a strided loop ei = tx, tx + 256, ... over a column-major
 * matrix with the source's index expressions and bounds, barriers between phases.
 * Simplifications: the point positions move by a seeded offset in [-2, 2] at the update frames (the real ones
 * follow the max search on the video); d_Row/d_Col only change there, as in the source, so the offsets reach the
 * addresses from the blend of frame 10 on. The default size shrinks the template and search area (tSize 10,
 * sSize 16 instead of 25, 40: every size derived from them as main.cu does) and samples the two convolutions'
 * inner loops (every 2nd ja and ia, index expressions unchanged); tiny, small and paper walk them fully. Integer
 * division/modulo by the runtime sizes is modelled as a fixed ALU sequence. */
#include "wl_rodinia_lgen.h"
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HW_TPB 256
#define HW_MAXP 51
#define HW_SHMEM (2601 * 4 + 51 * 4 * 2 + 131 * 4 * 2 + 3 * 4) /* the kernel's __shared__ arrays and scalars */
/* shared-memory byte offsets */
#define S_MOD 0u
#define S_PSUM (2601u * 4)
#define S_PSQR (S_PSUM + 51u * 4)
#define S_MAXV (S_PSQR + 51u * 4)
#define S_MAXC (S_MAXV + 131u * 4)
#define S_FIN (S_MAXC + 131u * 4) /* in_final_sum, in_sqr_final_sum, denomT */

/* per-point device arrays, in main.cu's cudaMalloc order (each allocated for all points in turn) */
enum { A_IN2, A_CONV, A_PAD, A_PSEL, A_SUBH, A_HSEL, A_SUB2, A_SQR, A_SQS2, A_INSQR, A_TMASK, A_MCONV, A_N };

struct hw {
    int64_t in_r, in_e, in2_r, in2_e, conv_r, conv_e, pad_add, pad_r, pad_e, psel_r, psel_e, psel_rowlow, subh_r,
        subh_e, hsel_r, hsel_e, hsel_collow, sub2_r, sub2_e, tm_r, tm_e, mask, mc_off, s_size, t_size;
    int64_t fr_rows, fr_cols, no_frames, sconv, smask;
    int npts, nendo;
    uint64_t frame, row[2], col[2], trow[2], tcol[2], T[2], arr[A_N], astride[A_N];
};
/* one launch: frame_no and d_Row/d_Col as this launch reads them (after the update for the update frames) */
struct hw_frame {
    const struct hw *g;
    int64_t f;
    int32_t row[HW_MAXP], col[HW_MAXP];   /* d_Row, d_Col as the tracking phases read them */
    int32_t nrow[HW_MAXP], ncol[HW_MAXP]; /* after the update (the blend's position) */
};
struct hw_owned {
    struct hw g;
    struct hw_frame *fr;
    struct lg_kernel *lk;
    int nfr;
};

#define FR ((const struct hw_frame *)d)
#define G (FR->g)
#define BX ((int64_t)t->ctaid[0])
#define TX ((int64_t)t->tid[0])
#define EPI (BX >= G->nendo)
#define PNO (EPI ? BX - G->nendo : BX)
#define EI (TX + HW_TPB * v[0])
#define W4(base, idx) ((base) + (uint64_t)(int64_t)(idx)*4u)
#define ARR(a, idx) W4(G->arr[a] + (uint64_t)BX * G->astride[a], idx)
#define DIN(idx) W4(G->T[EPI] + (uint64_t)(PNO * G->in_e) * 4u, idx)
#define FRM(r, c) W4(G->frame, (c)*G->fr_rows + (r))
#define ROW (FR->row[BX])
#define COL (FR->col[BX])
#define FN(ret, name, expr)                                                                                  \
    static ret name(const struct mw_tctx *t, const int64_t *v, const void *d)                                \
    {                                                                                                        \
        (void)t, (void)v, (void)d;                                                                           \
        return (expr);                                                                                       \
    }
#define ADDR(name, expr) FN(uint64_t, name, expr)
#define PRED(name, expr) FN(bool, name, expr)
#define TRIPS(name, expr) FN(int64_t, name, expr)
/* while (ei_new < n) { ...; ei_new += NUMBER_THREADS; } from ei_new = tx */
#define STRIDED(name, n) TRIPS(name, TX < (n) ? ((n)-TX + HW_TPB - 1) / HW_TPB : 0)

PRED(p_t0, TX == 0)
PRED(p_t1, TX == 1)

/* ---- frame 0: tx 0 records the start position, then the template copy d_in[col*in_rows+row] ---- */
ADDR(a_row, W4(G->row[EPI], PNO))
ADDR(a_col, W4(G->col[EPI], PNO))
ADDR(a_trow, W4(G->trow[EPI], PNO * G->no_frames + FR->f))
ADDR(a_tcol, W4(G->tcol[EPI], PNO * G->no_frames + FR->f))
ADDR(a_trow_prev, W4(G->trow[EPI], PNO * G->no_frames + FR->f - 1))
ADDR(a_tcol_prev, W4(G->tcol[EPI], PNO * G->no_frames + FR->f - 1))
STRIDED(n_in, G->in_e)
/* ori_row = d_Row - 25 + row - 1 (25 hard-coded in the source) */
ADDR(a_tpl_frame, FRM(ROW - 25 + EI % G->in_r - 1, COL - 25 + EI / G->in_r - 1))
ADDR(a_din, DIN(EI))

/* ---- tracking frames ---- */
/* search area: d_in2[ei] = frame[(col + in2_collow - 1) * frame_rows + row + in2_rowlow - 1] */
STRIDED(n_in2, G->in2_e)
ADDR(a_area_frame, FRM(EI % G->in2_r + ROW - G->s_size - 1, EI / G->in2_r + COL - G->s_size - 1))
ADDR(a_in2, ARR(A_IN2, EI))
/* rotated template into shared: d_in_mod_temp[ei] = d_in[rot_col*in_rows + rot_row] */
ADDR(a_din_rot, DIN((G->in_r - 1 - EI / G->in_r) * G->in_r + G->in_r - 1 - EI % G->in_r))
ADDR(s_mod, S_MOD + 4u * (uint64_t)EI)
/* the full convolution: i = ic + ioffset (0), j = jc + joffset (0), 1-based */
STRIDED(n_conv, G->conv_e)
static int64_t cv_i(const struct mw_tctx *t, const int64_t *v, const struct hw *g)
{
    return (TX + HW_TPB * v[0]) % g->conv_r + 1;
}
static int64_t cv_j(const struct mw_tctx *t, const int64_t *v, const struct hw *g)
{
    return (TX + HW_TPB * v[0]) / g->conv_r + 1;
}
static int64_t lo(int64_t x, int64_t n) { return n < x + 1 ? x + 1 - n : 1; }
static int64_t hi(int64_t x, int64_t n) { return n < x ? n : x; }
static int64_t sampled(int64_t a, int64_t b, int64_t s) { return b < a ? 0 : (b - a + s) / s; }
#define CJ cv_j(t, v, G)
#define CI cv_i(t, v, G)
#define JA (lo(CJ, G->in2_r) + G->sconv * v[1])
#define IA (lo(CI, G->in2_r) + G->sconv * v[2])
TRIPS(n_cja, sampled(lo(CJ, G->in2_r), hi(CJ, G->in_r), G->sconv))
TRIPS(n_cia, sampled(lo(CI, G->in2_r), hi(CI, G->in_r), G->sconv))
ADDR(s_cv_tpl, S_MOD + 4u * (uint64_t)(G->in_r * (JA - 1) + IA - 1))
ADDR(a_cv_in2, ARR(A_IN2, G->in2_r * (CJ + 1 - JA - 1) + CI + 1 - IA - 1))
ADDR(a_conv, ARR(A_CONV, EI))
/* padding: d_in2_pad_cumv[ei] = inside ? src[(col - add) * src_rows + row - add] : 0 */
STRIDED(n_pad, G->pad_e)
#define PROW (EI % G->pad_r)
#define PCOL (EI / G->pad_r)
PRED(p_pad_in, PROW > G->pad_add - 1 && PROW < G->pad_add + G->in2_r && PCOL > G->pad_add - 1 &&
                   PCOL < G->pad_add + G->in2_r)
ADDR(a_pad_src, ARR(A_IN2, (PCOL - G->pad_add) * G->in2_r + PROW - G->pad_add))
ADDR(a_pad_sqr, ARR(A_SQR, (PCOL - G->pad_add) * G->in2_r + PROW - G->pad_add))
ADDR(a_pad, ARR(A_PAD, EI))
/* vertical cumulative sum: thread ei owns column ei, position = ei*rows + v[1] */
STRIDED(n_padcols, G->pad_r)
TRIPS(n_padrows, G->pad_r)
ADDR(a_cumv, ARR(A_PAD, EI * G->pad_r + v[1]))
/* d_in2_pad_cumv_sel[ei] = pad[(col + 0) * pad_rows + row + sel_rowlow - 1] */
STRIDED(n_psel, G->psel_e)
ADDR(a_psel_src, ARR(A_PAD, EI / G->psel_r * G->pad_r + EI % G->psel_r + G->psel_rowlow - 1))
ADDR(a_psel, ARR(A_PSEL, EI))
/* d_in2_sub_cumh[ei] = pad[col * pad_rows + row] (sel2: rows 1 .. pad_rows - in_rows - 1) */
STRIDED(n_subh, G->subh_e)
ADDR(a_subh_src, ARR(A_PAD, EI / G->subh_r * G->pad_r + EI % G->subh_r))
ADDR(a_subh, ARR(A_SUBH, EI))
ADDR(a_psel_e, ARR(A_PSEL, EI))
/* horizontal cumulative sum: thread ei owns row ei, position = ei + v[1]*rows */
STRIDED(n_subhrows, G->subh_r)
TRIPS(n_subhcols, G->subh_e / G->subh_r)
ADDR(a_cumh, ARR(A_SUBH, EI + v[1] * G->subh_r))
/* d_in2_sub_cumh_sel[ei] = sub_cumh[(col + in_cols) * rows + row] */
STRIDED(n_hsel, G->hsel_e)
ADDR(a_hsel_src, ARR(A_SUBH, (EI / G->hsel_r + G->hsel_collow - 1) * G->subh_r + EI % G->hsel_r))
ADDR(a_hsel, ARR(A_HSEL, EI))
/* d_in2_sub2[ei] (or d_in2_sqr_sub2) = sub_cumh[col * rows + row] */
STRIDED(n_sub2, G->sub2_e)
ADDR(a_sub2_src, ARR(A_SUBH, EI / G->sub2_r * G->subh_r + EI % G->sub2_r))
ADDR(a_sub2, ARR(A_SUB2, EI))
ADDR(a_sqs2, ARR(A_SQS2, EI))
ADDR(a_hsel_e, ARR(A_HSEL, EI))
ADDR(a_sqr, ARR(A_SQR, EI))
/* template statistics */
ADDR(a_insqr, ARR(A_INSQR, EI))
STRIDED(n_incols, G->in_r)
TRIPS(n_inrows, G->in_r)
ADDR(a_din_col, DIN(EI * G->in_r + v[1]))
ADDR(a_insqr_row, ARR(A_INSQR, EI + G->in_r * v[1]))
ADDR(s_psum, S_PSUM + 4u * (uint64_t)EI)
ADDR(s_psqr, S_PSQR + 4u * (uint64_t)EI)
TRIPS(n_fin0, TX == 0 ? G->in_r : 0)
TRIPS(n_fin1, TX == 1 ? G->in_r : 0)
ADDR(s_psum_i, S_PSUM + 4u * (uint64_t)v[0])
ADDR(s_psqr_i, S_PSQR + 4u * (uint64_t)v[0])
ADDR(s_fin, S_FIN)
ADDR(s_fin2, S_FIN + 4)
ADDR(s_den, S_FIN + 8)
ADDR(a_conv_e, ARR(A_CONV, EI))
/* mask: d_tMask[ei] = (ei == location), then the 10x10 mask convolution (offsets 5, 5) */
STRIDED(n_tm, G->tm_e)
ADDR(a_tm, ARR(A_TMASK, EI))
#define MJ (EI / G->tm_r + 1 + G->mc_off)
#define MI (EI % G->tm_r + 1 + G->mc_off)
#define MJA (lo(MJ, G->mask) + G->smask * v[1])
#define MIA (lo(MI, G->mask) + G->smask * v[2])
TRIPS(n_mja, sampled(lo(MJ, G->mask), hi(MJ, G->tm_r), G->smask))
TRIPS(n_mia, sampled(lo(MI, G->mask), hi(MI, G->tm_r), G->smask))
ADDR(a_mc_tm, ARR(A_TMASK, G->tm_r * (MJA - 1) + MIA - 1))
ADDR(a_mconv, ARR(A_MCONV, EI))
/* max search: thread ei scans d_mask_conv[ei*rows + i], i < cols */
STRIDED(n_mrows, G->tm_r)
TRIPS(n_mcols, G->tm_r)
ADDR(a_mconv_row, ARR(A_MCONV, EI * G->tm_r + v[1]))
ADDR(s_maxv, S_MAXV + 4u * (uint64_t)EI)
ADDR(s_maxc, S_MAXC + 4u * (uint64_t)EI)
TRIPS(n_fmax, TX == 0 ? G->tm_r : 0)
ADDR(s_maxv_i, S_MAXV + 4u * (uint64_t)v[0])
ADDR(s_maxc_i, S_MAXC + 4u * (uint64_t)v[0])
/* update frames: d_in[ei] = alpha*d_in[ei] + (1-alpha)*frame[...] at the new d_Row/d_Col */
ADDR(a_upd_frame, FRM(FR->nrow[BX] - 25 + EI % G->in_r - 1, FR->ncol[BX] - 25 + EI / G->in_r - 1))

/* Registers: r1 tx, r2 ei, r3 loop test, r4-r9 bases, r10-r19 index arithmetic, r20-r29 values, r30 the sum. */
#define A(dd, s1, s2) LG_ALU(dd, s1, s2, NULL)
#define LDC(dd, p) {LG_INST, MW_OP_LD_CONST, 4, 1, 1, dd, {0, 0}, NULL, p, NULL}
#define BAR LG_BAR
/* (ei+1) % rows and (ei+1) / rows by a runtime divisor (reciprocal, multiply, correction), the wrap fix */
#define IDX A(10, 2, 0), LG_SFU(11, 10, NULL), A(12, 11, 10), A(12, 12, 10), A(13, 12, 10), A(13, 13, 12), \
    A(14, 13, 10), A(15, 14, 10), A(16, 15, 14), A(17, 16, 15)
/* loop head: ei = tx (+ NUMBER_THREADS at the end), compare and branch */
#define HEAD A(2, 1, 0), A(3, 2, 0)
#define TAIL A(2, 2, 0), A(3, 2, 0), LG_END(3)
/* a matrix copy: index, source address, load, destination address, store */
#define COPY(n, src, dst) HEAD, LG_LOOP(n), IDX, A(18, 16, 17), A(18, 18, 5), LG_LDG(4, 20, 18, src, NULL), \
    A(19, 2, 6), LG_STG(4, 20, 19, dst, NULL), TAIL
/* dst[ei] = a[ei] - b[ei] */
#define SUB(n, a, b, dst) HEAD, LG_LOOP(n), A(18, 2, 5), LG_LDG(4, 20, 18, a, NULL), A(19, 2, 6), \
    LG_LDG(4, 21, 19, b, NULL), A(20, 20, 21), LG_STG(4, 20, 19, dst, NULL), TAIL
/* the padded copy of src: a load inside the area, 0 outside, one store */
#define PAD(src) HEAD, LG_LOOP(n_pad), IDX, A(18, 16, 0), A(18, 17, 18), A(18, 18, 16), LG_BRA(18, NULL), \
    A(19, 16, 17), A(19, 19, 5), LG_LDG(4, 20, 19, src, p_pad_in), A(21, 2, 6), LG_STG(4, 20, 21, a_pad, NULL), TAIL
/* a serial scan of `inner` positions per thread: load, add, store */
#define SCAN(n, inner, a) HEAD, LG_LOOP(n), A(30, 0, 0), A(18, 2, 5), LG_LOOP(inner), LG_LDG(4, 20, 18, a, NULL), \
    A(30, 30, 20), LG_STG(4, 30, 18, a, NULL), A(18, 18, 0), A(22, 18, 0), LG_END(22), TAIL
/* the two convolutions' nested loops around one multiply-add */
#define CONVHEAD IDX, A(18, 16, 0), A(18, 18, 0), A(19, 17, 0), A(19, 19, 0), A(18, 18, 19), A(19, 16, 17), \
    A(30, 0, 0)

#define TRACK_OPS                                                                                            \
    /* d_common / d_unique fields, tx */                                                                     \
    A(1, 0, 0), LDC(4, NULL), LDC(5, NULL), LDC(6, NULL), LDC(7, NULL), LDC(8, NULL),                        \
    LG_LDG(4, 9, 4, a_row, NULL), LG_LDG(4, 10, 4, a_col, NULL), A(9, 9, 7), A(10, 10, 7),                   \
    COPY(n_in2, a_area_frame, a_in2), BAR,                                                                   \
    HEAD, LG_LOOP(n_in), IDX, A(18, 16, 0), A(18, 17, 18), A(18, 18, 8), LG_LDG(4, 20, 18, a_din_rot, NULL), \
        A(19, 2, 0), LG_STS(4, 20, 19, s_mod, NULL), TAIL, BAR,                                              \
    HEAD, LG_LOOP(n_conv), CONVHEAD,                                                                         \
        LG_LOOP(n_cja), A(21, 19, 0), A(22, 18, 0),                                                          \
            LG_LOOP(n_cia), A(23, 22, 0), LG_LDS(4, 24, 23, s_cv_tpl, NULL), A(25, 21, 0),                   \
            LG_LDG(4, 26, 25, a_cv_in2, NULL), A(30, 24, 26), A(27, 23, 0), LG_END(27),                      \
        A(28, 21, 0), LG_END(28),                                                                            \
        A(19, 2, 6), LG_STG(4, 30, 19, a_conv, NULL), TAIL, BAR,                                             \
    PAD(a_pad_src), BAR, SCAN(n_padcols, n_padrows, a_cumv), BAR,                                            \
    COPY(n_psel, a_psel_src, a_psel), BAR, COPY(n_subh, a_subh_src, a_subh), BAR,                            \
    SUB(n_subh, a_psel_e, a_subh, a_subh), BAR, SCAN(n_subhrows, n_subhcols, a_cumh), BAR,                   \
    COPY(n_hsel, a_hsel_src, a_hsel), BAR, COPY(n_sub2, a_sub2_src, a_sub2), BAR,                            \
    SUB(n_sub2, a_hsel_e, a_sub2, a_sub2), BAR,                                                              \
    HEAD, LG_LOOP(n_in2), A(18, 2, 5), LG_LDG(4, 20, 18, a_in2, NULL), A(20, 20, 20), A(19, 2, 6),           \
        LG_STG(4, 20, 19, a_sqr, NULL), TAIL, BAR,                                                           \
    PAD(a_pad_sqr), BAR, SCAN(n_padcols, n_padrows, a_cumv), BAR,                                            \
    COPY(n_psel, a_psel_src, a_psel), BAR, COPY(n_subh, a_subh_src, a_subh), BAR,                            \
    SUB(n_subh, a_psel_e, a_subh, a_subh), SCAN(n_subhrows, n_subhcols, a_cumh), BAR,                        \
    COPY(n_hsel, a_hsel_src, a_hsel), BAR, COPY(n_sub2, a_sub2_src, a_sqs2), BAR,                            \
    SUB(n_sub2, a_hsel_e, a_sqs2, a_sqs2), BAR,                                                              \
    /* sqrt(max(0, sqr_sub2 - sub2^2 / in_elem)) */                                                          \
    HEAD, LG_LOOP(n_sub2), A(18, 2, 5), LG_LDG(4, 20, 18, a_sub2, NULL), LG_LDG(4, 21, 18, a_sqs2, NULL),    \
        A(20, 20, 20), LG_SFU(22, 0, NULL), A(20, 20, 22), A(21, 21, 20), A(21, 21, 0), LG_SFU(21, 21, NULL), \
        A(21, 21, 0), LG_STG(4, 21, 18, a_sqs2, NULL), TAIL, BAR,                                            \
    HEAD, LG_LOOP(n_in), A(18, 2, 8), LG_LDG(4, 20, 18, a_din, NULL), A(20, 20, 20), A(19, 2, 6),            \
        LG_STG(4, 20, 19, a_insqr, NULL), TAIL, BAR,                                                         \
    HEAD, LG_LOOP(n_incols), A(30, 0, 0), A(18, 2, 8), LG_LOOP(n_inrows), LG_LDG(4, 20, 18, a_din_col, NULL), \
        A(30, 30, 20), A(18, 18, 0), A(22, 18, 0), LG_END(22), A(19, 2, 0),                                  \
        LG_STS(4, 30, 19, s_psum, NULL), TAIL, BAR,                                                          \
    HEAD, LG_LOOP(n_incols), A(30, 0, 0), A(18, 2, 6), LG_LOOP(n_inrows), LG_LDG(4, 20, 18, a_insqr_row, NULL), \
        A(30, 30, 20), A(18, 18, 0), A(22, 18, 0), LG_END(22), A(19, 2, 0),                                  \
        LG_STS(4, 30, 19, s_psqr, NULL), TAIL, BAR,                                                          \
    A(3, 1, 0), LG_BRA(3, NULL), A(30, 0, 0), A(18, 0, 0),                                                   \
    LG_LOOP(n_fin0), LG_LDS(4, 20, 18, s_psum_i, NULL), A(30, 30, 20), A(18, 18, 0), A(22, 18, 0), LG_END(22), \
    LG_STS(4, 30, 0, s_fin, p_t0),                                                                           \
    LG_LOOP(n_fin1), LG_LDS(4, 20, 18, s_psqr_i, NULL), A(30, 30, 20), A(18, 18, 0), A(22, 18, 0), LG_END(22), \
    LG_STS(4, 30, 0, s_fin2, p_t1), BAR,                                                                     \
    /* tx 0: mean, variance, deviation, denomT */                                                            \
    LG_LDS(4, 20, 0, s_fin, p_t0), LG_LDS(4, 21, 0, s_fin2, p_t0), LG_SFU(22, 0, p_t0), LG_ALU(20, 20, 22, p_t0), \
    LG_ALU(23, 20, 20, p_t0), LG_ALU(21, 21, 22, p_t0), LG_ALU(21, 21, 23, p_t0), LG_SFU(21, 21, p_t0),     \
    LG_SFU(24, 0, p_t0), LG_ALU(24, 24, 21, p_t0), LG_STS(4, 24, 0, s_den, p_t0), BAR,                      \
    LG_LDS(4, 24, 0, s_den, NULL), HEAD, LG_LOOP(n_sub2), A(18, 2, 6), LG_LDG(4, 20, 18, a_sqs2, NULL),      \
        A(20, 20, 24), LG_STG(4, 20, 18, a_sqs2, NULL), TAIL, BAR,                                           \
    LG_LDS(4, 25, 0, s_fin, NULL), HEAD, LG_LOOP(n_conv), A(18, 2, 6), LG_LDG(4, 20, 18, a_conv_e, NULL),    \
        LG_LDG(4, 21, 18, a_sub2, NULL), A(21, 21, 25), A(21, 21, 0), A(20, 20, 21),                         \
        LG_STG(4, 20, 18, a_conv_e, NULL), TAIL, BAR,                                                        \
    HEAD, LG_LOOP(n_sub2), A(18, 2, 6), LG_LDG(4, 20, 18, a_conv_e, NULL), LG_LDG(4, 21, 18, a_sqs2, NULL),  \
        LG_SFU(22, 21, NULL), A(20, 20, 22), A(20, 20, 21), LG_STG(4, 20, 18, a_sqs2, NULL), TAIL, BAR,       \
    /* the mask position from the previous frame's tracked location */                                      \
    LG_LDG(4, 11, 4, a_trow_prev, NULL), LG_LDG(4, 12, 4, a_tcol_prev, NULL), LG_LDG(4, 9, 4, a_row, NULL),  \
    LG_LDG(4, 10, 4, a_col, NULL), A(11, 11, 9), A(12, 12, 10), A(13, 12, 11),                               \
    HEAD, LG_LOOP(n_tm), A(18, 2, 13), A(19, 2, 6), LG_STG(4, 18, 19, a_tm, NULL), TAIL, BAR,                \
    HEAD, LG_LOOP(n_tm), CONVHEAD,                                                                           \
        LG_LOOP(n_mja), A(21, 19, 0), A(22, 18, 0),                                                          \
            LG_LOOP(n_mia), A(23, 22, 21), LG_LDG(4, 26, 23, a_mc_tm, NULL), A(30, 30, 26), A(27, 23, 0),    \
            LG_END(27),                                                                                      \
        A(28, 21, 0), LG_END(28),                                                                            \
        A(19, 2, 6), LG_LDG(4, 20, 19, a_sqs2, NULL), A(20, 20, 30), LG_STG(4, 20, 19, a_mconv, NULL), TAIL, \
    BAR,                                                                                                     \
    HEAD, LG_LOOP(n_mrows), A(18, 2, 6), LG_LOOP(n_mcols), LG_LDG(4, 20, 18, a_mconv_row, NULL),             \
        A(20, 20, 0), A(21, 20, 29), A(29, 29, 20), A(28, 28, 18), A(18, 18, 0), A(22, 18, 0), LG_END(22),   \
        A(19, 2, 0), LG_STS(4, 28, 19, s_maxc, NULL), LG_STS(4, 29, 19, s_maxv, NULL), TAIL, BAR,            \
    /* tx 0: the block's maximum, its row and column, the tracked location */                               \
    A(3, 1, 0), LG_BRA(3, NULL), A(18, 0, 0),                                                                \
    LG_LOOP(n_fmax), LG_LDS(4, 20, 18, s_maxv_i, NULL), A(21, 20, 29), LG_LDS(4, 22, 18, s_maxc_i, NULL),    \
        A(29, 29, 20), A(28, 28, 22), A(18, 18, 0), A(23, 18, 0), LG_END(23),                                \
    LG_ALU(10, 28, 0, p_t0), LG_SFU(11, 10, p_t0), LG_ALU(12, 11, 10, p_t0), LG_ALU(13, 12, 10, p_t0),       \
    LG_ALU(14, 13, 12, p_t0), LG_ALU(15, 14, 0, p_t0), LG_ALU(16, 15, 0, p_t0), LG_LDG(4, 17, 4, a_row, p_t0), \
    LG_LDG(4, 18, 4, a_col, p_t0), LG_ALU(17, 17, 15, p_t0), LG_ALU(18, 18, 16, p_t0),                       \
    LG_STG(4, 17, 4, a_trow, p_t0), LG_STG(4, 18, 4, a_tcol, p_t0), BAR

/* frame_no % 10 == 0: d_Row = tRowLoc[...] by every thread, then the template blend, which reloads d_Row and
 * d_Col each iteration (the stores to d_in may alias them) */
#define UPDATE_OPS                                                                                           \
    LG_LDG(4, 11, 4, a_trow, NULL), LG_LDG(4, 12, 4, a_tcol, NULL), LG_STG(4, 11, 4, a_row, NULL),           \
    LG_STG(4, 12, 4, a_col, NULL), HEAD, LG_LOOP(n_in), LG_LDG(4, 9, 4, a_row, NULL),                        \
    LG_LDG(4, 10, 4, a_col, NULL), IDX, A(18, 16, 9), A(19, 17, 10), A(18, 18, 19), A(20, 2, 8),             \
    LG_LDG(4, 21, 20, a_din, NULL), LG_LDG(4, 22, 18, a_upd_frame, NULL), A(21, 21, 0), A(21, 21, 22),       \
    LG_STG(4, 21, 20, a_din, NULL), TAIL

static const struct lg_op first_k[] = {
    A(1, 0, 0), LDC(4, NULL), LDC(8, NULL), LG_ALU(3, 1, 0, NULL), LG_BRA(3, NULL),
    LG_LDG(4, 9, 4, a_row, p_t0), LG_STG(4, 9, 4, a_trow, p_t0), LG_LDG(4, 10, 4, a_col, p_t0),
    LG_STG(4, 10, 4, a_tcol, p_t0),
    HEAD, LG_LOOP(n_in), IDX, LG_LDG(4, 9, 4, a_row, NULL), LG_LDG(4, 10, 4, a_col, NULL), A(18, 16, 9),
    A(19, 17, 10), A(18, 18, 19), LG_LDG(4, 20, 18, a_tpl_frame, NULL), A(19, 16, 17), A(19, 19, 8),
    LG_STG(4, 20, 19, a_din, NULL), TAIL};
static const struct lg_op track_k[] = {TRACK_OPS};
static const struct lg_op track_upd_k[] = {TRACK_OPS, UPDATE_OPS};

#undef FR
#undef G

static void hw_free(void *p)
{
    struct hw_owned *o = p;
    if (!o) return;
    free(o->fr), free(o->lk), free(o);
}

/* Rodinia's start positions (main.cu) */
static const int32_t endo_row[20] = {369, 400, 429, 452, 476, 486, 479, 458, 433, 404,
                                     374, 346, 318, 294, 277, 269, 275, 287, 311, 339};
static const int32_t endo_col[20] = {408, 406, 397, 383, 354, 322, 294, 270, 250, 237,
                                     235, 241, 254, 273, 300, 328, 356, 383, 401, 411};
static const int32_t epi_row[31] = {390, 419, 448, 474, 501, 519, 535, 542, 543, 538, 528, 511, 491, 466, 438, 406,
                                    376, 347, 318, 291, 275, 259, 256, 252, 252, 257, 266, 283, 305, 331, 360};
static const int32_t epi_col[31] = {457, 454, 446, 431, 411, 388, 361, 331, 301, 273, 243, 218, 196, 178, 166, 157,
                                    155, 165, 177, 197, 218, 248, 276, 304, 333, 361, 391, 415, 434, 448, 455};

int mw_wl_heartwall_offset(uint64_t seed, int64_t frame, int point)
{
    uint64_t x = seed * 0x9E3779B97F4A7C15ull ^ (uint64_t)frame * 0xBF58476D1CE4E5B9ull ^ (uint64_t)point * 0x94D049BB133111EBull;
    x ^= x >> 31, x *= 0xD6E8FEB86659FD93ull, x ^= x >> 32;
    return (int)(x % 5) - 2;
}

#define N(a) (int)(sizeof(a) / sizeof((a)[0]))

int mw_wl_rodinia_heartwall(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    /* tiny: tSize 5, sSize 8, 1 endo + 1 epi point, frames 0 and 1; small: the same over frames 0-10 (frame 10
     * blends the templates); default: tSize 10, sSize 16, 51 points, frames 0 and 1, convolutions sampled by 2;
     * paper: Rodinia's run, test.avi 20 (tSize 25, sSize 40, 51 points, frames 0-19) */
    static const int tsz[4] = {5, 5, 10, 25}, ssz[4] = {8, 8, 16, 40}, nen[4] = {1, 1, 20, 20};
    static const int nep[4] = {1, 1, 31, 31}, nfr[4] = {2, 11, 2, 20}, sc[4] = {1, 1, 2, 1}, sm[4] = {1, 1, 2, 1};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct hw_owned *o = calloc(1, sizeof *o);
    struct mw_kgen_program p = {.owned = o, .free_owned = hw_free};
    if (!o) goto oom;
    struct hw *g = &o->g;
    g->t_size = tsz[sz], g->s_size = ssz[sz], g->nendo = nen[sz], g->npts = nen[sz] + nep[sz];
    g->sconv = sc[sz], g->smask = sm[sz];
    /* test.avi: 609 x 590 pixels (frame_rows = the height), 104 frames */
    g->fr_rows = 590, g->fr_cols = 609, g->no_frames = 104;
    g->in_r = 2 * g->t_size + 1, g->in_e = g->in_r * g->in_r;
    g->in2_r = 2 * g->s_size + 1, g->in2_e = g->in2_r * g->in2_r;
    g->conv_r = g->in_r + g->in2_r - 1, g->conv_e = g->conv_r * g->conv_r;
    g->pad_add = g->in_r, g->pad_r = g->in2_r + 2 * g->pad_add, g->pad_e = g->pad_r * g->pad_r;
    g->psel_rowlow = 1 + g->in_r, g->psel_r = g->pad_r - 1 - g->psel_rowlow + 1, g->psel_e = g->psel_r * g->pad_r;
    g->subh_r = g->pad_r - g->in_r - 1, g->subh_e = g->subh_r * g->pad_r;
    g->hsel_collow = 1 + g->in_r, g->hsel_r = g->subh_r, g->hsel_e = g->hsel_r * (g->pad_r - 1 - g->in_r);
    g->sub2_r = g->subh_r, g->sub2_e = g->sub2_r * (g->pad_r - g->in_r - 1);
    g->tm_r = g->in_r + g->in2_r - 1, g->tm_e = g->tm_r * g->tm_r;
    g->mask = 10, g->mc_off = (g->mask - 1) / 2 + ((g->mask - 1) % 2 > 0);
    /* device memory in cudaMalloc order, 256-byte aligned */
    uint64_t a = 0x10000000ull;
#define ALLOC(bytes) (a += ((uint64_t)(bytes) + 255) & ~255ull, a - (((uint64_t)(bytes) + 255) & ~255ull))
    g->frame = ALLOC(g->fr_rows * g->fr_cols * 4);
    int64_t n[2] = {g->nendo, g->npts - g->nendo};
    for (int s = 0; s < 2; s++) {
        g->row[s] = ALLOC(n[s] * 4), g->col[s] = ALLOC(n[s] * 4);
        g->trow[s] = ALLOC(n[s] * 4 * g->no_frames), g->tcol[s] = ALLOC(n[s] * 4 * g->no_frames);
    }
    g->T[0] = ALLOC(g->in_e * 4 * n[0]), g->T[1] = ALLOC(g->in_e * 4 * n[1]);
    const int64_t elems[A_N] = {g->in2_e, g->conv_e, g->pad_e, g->psel_e, g->subh_e, g->hsel_e,
                                g->sub2_e, g->in2_e, g->sub2_e, g->in_e, g->tm_e, g->tm_e};
    for (int k = 0; k < A_N; k++) {
        g->astride[k] = ((uint64_t)elems[k] * 4 + 255) & ~255ull;
        g->arr[k] = a, a += g->astride[k] * (uint64_t)g->npts;
    }
#undef ALLOC
    o->nfr = nfr[sz];
    o->fr = calloc((size_t)o->nfr, sizeof *o->fr);
    o->lk = calloc((size_t)o->nfr, sizeof *o->lk);
    if (!o->fr || !o->lk) goto oom;
    int32_t row[HW_MAXP], col[HW_MAXP];
    for (int b = 0; b < g->npts; b++) {
        bool epi = b >= g->nendo;
        int pn = epi ? b - g->nendo : b;
        row[b] = epi ? epi_row[pn] : endo_row[pn], col[b] = epi ? epi_col[pn] : endo_col[pn];
    }
    for (int f = 0; f < o->nfr; f++) {
        struct hw_frame *fr = &o->fr[f];
        fr->g = g, fr->f = f;
        bool upd = f != 0 && f % 10 == 0;
        for (int b = 0; b < g->npts; b++) {
            fr->row[b] = row[b], fr->col[b] = col[b];
            if (upd) /* d_Row = the tracked location of this frame: the blend and the later frames see it */
                row[b] += mw_wl_heartwall_offset(seed, f, 2 * b), col[b] += mw_wl_heartwall_offset(seed, f, 2 * b + 1);
            fr->nrow[b] = row[b], fr->ncol[b] = col[b];
        }
        const struct lg_op *prog = f == 0 ? first_k : upd ? track_upd_k : track_k;
        int nops = f == 0 ? N(first_k) : upd ? N(track_upd_k) : N(track_k);
        o->lk[f] = (struct lg_kernel){prog, nops, fr};
        struct mw_kgen_kernel *k = mw_kgen_append(&p);
        if (!k) goto oom;
        snprintf(k->k.name, sizeof k->k.name, "kernel");
        k->k.grid[0] = (uint32_t)g->npts, k->k.grid[1] = k->k.grid[2] = 1;
        k->k.block[0] = HW_TPB, k->k.block[1] = k->k.block[2] = 1;
        k->k.nregs = 30, k->k.shmem = HW_SHMEM; /* registers estimated */
        k->data = &o->lk[f];
        k->custom = lg_next;
        k->ninsts = (uint32_t)nops;
        k->scratch_bytes = sizeof(struct lg_warp);
    }
    return mw_kgen_workload(w, "rodinia.heartwall", &p, e);
oom:
    free(p.kernels);
    hw_free(o);
    return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
}
