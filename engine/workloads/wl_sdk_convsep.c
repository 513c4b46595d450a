/* CUDA SDK convolutionSeparable (3_Imaging/convolutionSeparable): a 17-tap separable filter (KERNEL_RADIUS 8,
 * taps in __constant__ memory, FFMA constant operands) over an imageW x imageH float image, as the sample runs
 * it: convolutionRowsKernel (16 x 4 threads, grid (imageW / 128, imageH / 4), a 4 x 160 float shared tile: 8
 * result steps of 16 columns plus a 16-column halo each side) into d_Buffer, then convolutionColumnsKernel
 * (16 x 8 threads, grid (imageW / 16, imageH / 64), a 16 x 81 float tile: 8 result steps of 8 rows plus 8-row
 * halos) into d_Output. Each thread loads 8 main elements and 2 halo elements (halo loads guarded by the image
 * edge, the shared store always done), synchronizes, then for each of its 8 results reads 17 shared words and
 * stores one. Every loop of the source is #pragma unroll'ed, so the model has no loop branches: one static
 * instruction per unrolled step. The sample's image is 3072 x 3072 and it runs the pair 1 + 16 times; the model
 * runs the pair once (one pass is 23.3 M warp instructions at the default size). Registers per thread are
 * estimates of the sm_20 compile. */
#include "kloop.h"
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>

#define R 8 /* KERNEL_RADIUS */
#define RX 16 /* ROWS_BLOCKDIM_X */
#define RY 4
#define CX 16 /* COLUMNS_BLOCKDIM_X */
#define CY 8
#define STEPS 8 /* RESULT_STEPS */
#define RW ((STEPS + 2) * RX)     /* row tile width: 160 */
#define CH ((STEPS + 2) * CY + 1) /* column tile row: 81 */

struct cs {
    struct mw_kl_hdr h;
    int64_t w, hgt;
    uint64_t src, dst;
};

#define TX ((int64_t)t->tid[0])
#define TY ((int64_t)t->tid[1])
#define F4(base, idx) ((base) + (uint64_t)(idx)*4u)
/* rows: baseX = (blockIdx.x * 8 - 1) * 16 + tx, baseY = blockIdx.y * 4 + ty; columns: baseX = blockIdx.x * 16 + tx,
 * baseY = (blockIdx.y * 8 - 1) * 8 + ty; pitch = imageW */
#define RBX (((int64_t)t->ctaid[0] * STEPS - 1) * RX + TX)
#define RBY ((int64_t)t->ctaid[1] * RY + TY)
#define CBX ((int64_t)t->ctaid[0] * CX + TX)
#define CBY (((int64_t)t->ctaid[1] * STEPS - 1) * CY + TY)
/* element i of a thread: rows d_Src[baseY * pitch + baseX + 16 i], columns d_Src[(baseY + 8 i) * pitch + baseX] */
#define RG(base, i) F4(base, RBY * P->w + RBX + (i)*RX)
#define CG(base, i) F4(base, (CBY + (i)*CY) * P->w + CBX)
/* shared: rows s_Data[ty][tx + 16 i + j], columns s_Data[tx][ty + 8 i + j] */
#define RS(i, j) F4(0, TY * RW + TX + (i)*RX + (j))
#define CS(i, j) F4(0, TX * CH + TY + (i)*CY + (j))

/* the halos: left/upper if baseX (baseY) >= 0, right/lower if imageW - baseX > 144 (imageH - baseY > 72) */
MW_KL_PRED(p_rleft, struct cs, RBX >= 0)
MW_KL_PRED(p_rright, struct cs, P->w - RBX > (STEPS + 1) * RX)
MW_KL_PRED(p_cup, struct cs, CBY >= 0)
MW_KL_PRED(p_cdown, struct cs, P->hgt - CBY > (STEPS + 1) * CY)
MW_KL_ADDR(r_in0, struct cs, RG(P->src, 0))
MW_KL_ADDR(r_st0, struct cs, RS(0, 0))
MW_KL_ADDR(c_in0, struct cs, CG(P->src, 0))
MW_KL_ADDR(c_st0, struct cs, CS(0, 0))
MW_KL_ADDR(r_in1, struct cs, RG(P->src, 1))
MW_KL_ADDR(r_st1, struct cs, RS(1, 0))
MW_KL_ADDR(c_in1, struct cs, CG(P->src, 1))
MW_KL_ADDR(c_st1, struct cs, CS(1, 0))
MW_KL_ADDR(r_in2, struct cs, RG(P->src, 2))
MW_KL_ADDR(r_st2, struct cs, RS(2, 0))
MW_KL_ADDR(c_in2, struct cs, CG(P->src, 2))
MW_KL_ADDR(c_st2, struct cs, CS(2, 0))
MW_KL_ADDR(r_in3, struct cs, RG(P->src, 3))
MW_KL_ADDR(r_st3, struct cs, RS(3, 0))
MW_KL_ADDR(c_in3, struct cs, CG(P->src, 3))
MW_KL_ADDR(c_st3, struct cs, CS(3, 0))
MW_KL_ADDR(r_in4, struct cs, RG(P->src, 4))
MW_KL_ADDR(r_st4, struct cs, RS(4, 0))
MW_KL_ADDR(c_in4, struct cs, CG(P->src, 4))
MW_KL_ADDR(c_st4, struct cs, CS(4, 0))
MW_KL_ADDR(r_in5, struct cs, RG(P->src, 5))
MW_KL_ADDR(r_st5, struct cs, RS(5, 0))
MW_KL_ADDR(c_in5, struct cs, CG(P->src, 5))
MW_KL_ADDR(c_st5, struct cs, CS(5, 0))
MW_KL_ADDR(r_in6, struct cs, RG(P->src, 6))
MW_KL_ADDR(r_st6, struct cs, RS(6, 0))
MW_KL_ADDR(c_in6, struct cs, CG(P->src, 6))
MW_KL_ADDR(c_st6, struct cs, CS(6, 0))
MW_KL_ADDR(r_in7, struct cs, RG(P->src, 7))
MW_KL_ADDR(r_st7, struct cs, RS(7, 0))
MW_KL_ADDR(c_in7, struct cs, CG(P->src, 7))
MW_KL_ADDR(c_st7, struct cs, CS(7, 0))
MW_KL_ADDR(r_in8, struct cs, RG(P->src, 8))
MW_KL_ADDR(r_st8, struct cs, RS(8, 0))
MW_KL_ADDR(c_in8, struct cs, CG(P->src, 8))
MW_KL_ADDR(c_st8, struct cs, CS(8, 0))
MW_KL_ADDR(r_in9, struct cs, RG(P->src, 9))
MW_KL_ADDR(r_st9, struct cs, RS(9, 0))
MW_KL_ADDR(c_in9, struct cs, CG(P->src, 9))
MW_KL_ADDR(c_st9, struct cs, CS(9, 0))
MW_KL_ADDR(r_out1, struct cs, RG(P->dst, 1))
MW_KL_ADDR(c_out1, struct cs, CG(P->dst, 1))
MW_KL_ADDR(r_out2, struct cs, RG(P->dst, 2))
MW_KL_ADDR(c_out2, struct cs, CG(P->dst, 2))
MW_KL_ADDR(r_out3, struct cs, RG(P->dst, 3))
MW_KL_ADDR(c_out3, struct cs, CG(P->dst, 3))
MW_KL_ADDR(r_out4, struct cs, RG(P->dst, 4))
MW_KL_ADDR(c_out4, struct cs, CG(P->dst, 4))
MW_KL_ADDR(r_out5, struct cs, RG(P->dst, 5))
MW_KL_ADDR(c_out5, struct cs, CG(P->dst, 5))
MW_KL_ADDR(r_out6, struct cs, RG(P->dst, 6))
MW_KL_ADDR(c_out6, struct cs, CG(P->dst, 6))
MW_KL_ADDR(r_out7, struct cs, RG(P->dst, 7))
MW_KL_ADDR(c_out7, struct cs, CG(P->dst, 7))
MW_KL_ADDR(r_out8, struct cs, RG(P->dst, 8))
MW_KL_ADDR(c_out8, struct cs, CG(P->dst, 8))
/* the 17 taps of result i: s_Data[..][.. + i * step + j] for j = -8 .. 8 */
MW_KL_ADDR(r_s1_0, struct cs, RS(1, -8))
MW_KL_ADDR(r_s1_1, struct cs, RS(1, -7))
MW_KL_ADDR(r_s1_2, struct cs, RS(1, -6))
MW_KL_ADDR(r_s1_3, struct cs, RS(1, -5))
MW_KL_ADDR(r_s1_4, struct cs, RS(1, -4))
MW_KL_ADDR(r_s1_5, struct cs, RS(1, -3))
MW_KL_ADDR(r_s1_6, struct cs, RS(1, -2))
MW_KL_ADDR(r_s1_7, struct cs, RS(1, -1))
MW_KL_ADDR(r_s1_8, struct cs, RS(1, 0))
MW_KL_ADDR(r_s1_9, struct cs, RS(1, 1))
MW_KL_ADDR(r_s1_10, struct cs, RS(1, 2))
MW_KL_ADDR(r_s1_11, struct cs, RS(1, 3))
MW_KL_ADDR(r_s1_12, struct cs, RS(1, 4))
MW_KL_ADDR(r_s1_13, struct cs, RS(1, 5))
MW_KL_ADDR(r_s1_14, struct cs, RS(1, 6))
MW_KL_ADDR(r_s1_15, struct cs, RS(1, 7))
MW_KL_ADDR(r_s1_16, struct cs, RS(1, 8))
MW_KL_ADDR(r_s2_0, struct cs, RS(2, -8))
MW_KL_ADDR(r_s2_1, struct cs, RS(2, -7))
MW_KL_ADDR(r_s2_2, struct cs, RS(2, -6))
MW_KL_ADDR(r_s2_3, struct cs, RS(2, -5))
MW_KL_ADDR(r_s2_4, struct cs, RS(2, -4))
MW_KL_ADDR(r_s2_5, struct cs, RS(2, -3))
MW_KL_ADDR(r_s2_6, struct cs, RS(2, -2))
MW_KL_ADDR(r_s2_7, struct cs, RS(2, -1))
MW_KL_ADDR(r_s2_8, struct cs, RS(2, 0))
MW_KL_ADDR(r_s2_9, struct cs, RS(2, 1))
MW_KL_ADDR(r_s2_10, struct cs, RS(2, 2))
MW_KL_ADDR(r_s2_11, struct cs, RS(2, 3))
MW_KL_ADDR(r_s2_12, struct cs, RS(2, 4))
MW_KL_ADDR(r_s2_13, struct cs, RS(2, 5))
MW_KL_ADDR(r_s2_14, struct cs, RS(2, 6))
MW_KL_ADDR(r_s2_15, struct cs, RS(2, 7))
MW_KL_ADDR(r_s2_16, struct cs, RS(2, 8))
MW_KL_ADDR(r_s3_0, struct cs, RS(3, -8))
MW_KL_ADDR(r_s3_1, struct cs, RS(3, -7))
MW_KL_ADDR(r_s3_2, struct cs, RS(3, -6))
MW_KL_ADDR(r_s3_3, struct cs, RS(3, -5))
MW_KL_ADDR(r_s3_4, struct cs, RS(3, -4))
MW_KL_ADDR(r_s3_5, struct cs, RS(3, -3))
MW_KL_ADDR(r_s3_6, struct cs, RS(3, -2))
MW_KL_ADDR(r_s3_7, struct cs, RS(3, -1))
MW_KL_ADDR(r_s3_8, struct cs, RS(3, 0))
MW_KL_ADDR(r_s3_9, struct cs, RS(3, 1))
MW_KL_ADDR(r_s3_10, struct cs, RS(3, 2))
MW_KL_ADDR(r_s3_11, struct cs, RS(3, 3))
MW_KL_ADDR(r_s3_12, struct cs, RS(3, 4))
MW_KL_ADDR(r_s3_13, struct cs, RS(3, 5))
MW_KL_ADDR(r_s3_14, struct cs, RS(3, 6))
MW_KL_ADDR(r_s3_15, struct cs, RS(3, 7))
MW_KL_ADDR(r_s3_16, struct cs, RS(3, 8))
MW_KL_ADDR(r_s4_0, struct cs, RS(4, -8))
MW_KL_ADDR(r_s4_1, struct cs, RS(4, -7))
MW_KL_ADDR(r_s4_2, struct cs, RS(4, -6))
MW_KL_ADDR(r_s4_3, struct cs, RS(4, -5))
MW_KL_ADDR(r_s4_4, struct cs, RS(4, -4))
MW_KL_ADDR(r_s4_5, struct cs, RS(4, -3))
MW_KL_ADDR(r_s4_6, struct cs, RS(4, -2))
MW_KL_ADDR(r_s4_7, struct cs, RS(4, -1))
MW_KL_ADDR(r_s4_8, struct cs, RS(4, 0))
MW_KL_ADDR(r_s4_9, struct cs, RS(4, 1))
MW_KL_ADDR(r_s4_10, struct cs, RS(4, 2))
MW_KL_ADDR(r_s4_11, struct cs, RS(4, 3))
MW_KL_ADDR(r_s4_12, struct cs, RS(4, 4))
MW_KL_ADDR(r_s4_13, struct cs, RS(4, 5))
MW_KL_ADDR(r_s4_14, struct cs, RS(4, 6))
MW_KL_ADDR(r_s4_15, struct cs, RS(4, 7))
MW_KL_ADDR(r_s4_16, struct cs, RS(4, 8))
MW_KL_ADDR(r_s5_0, struct cs, RS(5, -8))
MW_KL_ADDR(r_s5_1, struct cs, RS(5, -7))
MW_KL_ADDR(r_s5_2, struct cs, RS(5, -6))
MW_KL_ADDR(r_s5_3, struct cs, RS(5, -5))
MW_KL_ADDR(r_s5_4, struct cs, RS(5, -4))
MW_KL_ADDR(r_s5_5, struct cs, RS(5, -3))
MW_KL_ADDR(r_s5_6, struct cs, RS(5, -2))
MW_KL_ADDR(r_s5_7, struct cs, RS(5, -1))
MW_KL_ADDR(r_s5_8, struct cs, RS(5, 0))
MW_KL_ADDR(r_s5_9, struct cs, RS(5, 1))
MW_KL_ADDR(r_s5_10, struct cs, RS(5, 2))
MW_KL_ADDR(r_s5_11, struct cs, RS(5, 3))
MW_KL_ADDR(r_s5_12, struct cs, RS(5, 4))
MW_KL_ADDR(r_s5_13, struct cs, RS(5, 5))
MW_KL_ADDR(r_s5_14, struct cs, RS(5, 6))
MW_KL_ADDR(r_s5_15, struct cs, RS(5, 7))
MW_KL_ADDR(r_s5_16, struct cs, RS(5, 8))
MW_KL_ADDR(r_s6_0, struct cs, RS(6, -8))
MW_KL_ADDR(r_s6_1, struct cs, RS(6, -7))
MW_KL_ADDR(r_s6_2, struct cs, RS(6, -6))
MW_KL_ADDR(r_s6_3, struct cs, RS(6, -5))
MW_KL_ADDR(r_s6_4, struct cs, RS(6, -4))
MW_KL_ADDR(r_s6_5, struct cs, RS(6, -3))
MW_KL_ADDR(r_s6_6, struct cs, RS(6, -2))
MW_KL_ADDR(r_s6_7, struct cs, RS(6, -1))
MW_KL_ADDR(r_s6_8, struct cs, RS(6, 0))
MW_KL_ADDR(r_s6_9, struct cs, RS(6, 1))
MW_KL_ADDR(r_s6_10, struct cs, RS(6, 2))
MW_KL_ADDR(r_s6_11, struct cs, RS(6, 3))
MW_KL_ADDR(r_s6_12, struct cs, RS(6, 4))
MW_KL_ADDR(r_s6_13, struct cs, RS(6, 5))
MW_KL_ADDR(r_s6_14, struct cs, RS(6, 6))
MW_KL_ADDR(r_s6_15, struct cs, RS(6, 7))
MW_KL_ADDR(r_s6_16, struct cs, RS(6, 8))
MW_KL_ADDR(r_s7_0, struct cs, RS(7, -8))
MW_KL_ADDR(r_s7_1, struct cs, RS(7, -7))
MW_KL_ADDR(r_s7_2, struct cs, RS(7, -6))
MW_KL_ADDR(r_s7_3, struct cs, RS(7, -5))
MW_KL_ADDR(r_s7_4, struct cs, RS(7, -4))
MW_KL_ADDR(r_s7_5, struct cs, RS(7, -3))
MW_KL_ADDR(r_s7_6, struct cs, RS(7, -2))
MW_KL_ADDR(r_s7_7, struct cs, RS(7, -1))
MW_KL_ADDR(r_s7_8, struct cs, RS(7, 0))
MW_KL_ADDR(r_s7_9, struct cs, RS(7, 1))
MW_KL_ADDR(r_s7_10, struct cs, RS(7, 2))
MW_KL_ADDR(r_s7_11, struct cs, RS(7, 3))
MW_KL_ADDR(r_s7_12, struct cs, RS(7, 4))
MW_KL_ADDR(r_s7_13, struct cs, RS(7, 5))
MW_KL_ADDR(r_s7_14, struct cs, RS(7, 6))
MW_KL_ADDR(r_s7_15, struct cs, RS(7, 7))
MW_KL_ADDR(r_s7_16, struct cs, RS(7, 8))
MW_KL_ADDR(r_s8_0, struct cs, RS(8, -8))
MW_KL_ADDR(r_s8_1, struct cs, RS(8, -7))
MW_KL_ADDR(r_s8_2, struct cs, RS(8, -6))
MW_KL_ADDR(r_s8_3, struct cs, RS(8, -5))
MW_KL_ADDR(r_s8_4, struct cs, RS(8, -4))
MW_KL_ADDR(r_s8_5, struct cs, RS(8, -3))
MW_KL_ADDR(r_s8_6, struct cs, RS(8, -2))
MW_KL_ADDR(r_s8_7, struct cs, RS(8, -1))
MW_KL_ADDR(r_s8_8, struct cs, RS(8, 0))
MW_KL_ADDR(r_s8_9, struct cs, RS(8, 1))
MW_KL_ADDR(r_s8_10, struct cs, RS(8, 2))
MW_KL_ADDR(r_s8_11, struct cs, RS(8, 3))
MW_KL_ADDR(r_s8_12, struct cs, RS(8, 4))
MW_KL_ADDR(r_s8_13, struct cs, RS(8, 5))
MW_KL_ADDR(r_s8_14, struct cs, RS(8, 6))
MW_KL_ADDR(r_s8_15, struct cs, RS(8, 7))
MW_KL_ADDR(r_s8_16, struct cs, RS(8, 8))
MW_KL_ADDR(c_s1_0, struct cs, CS(1, -8))
MW_KL_ADDR(c_s1_1, struct cs, CS(1, -7))
MW_KL_ADDR(c_s1_2, struct cs, CS(1, -6))
MW_KL_ADDR(c_s1_3, struct cs, CS(1, -5))
MW_KL_ADDR(c_s1_4, struct cs, CS(1, -4))
MW_KL_ADDR(c_s1_5, struct cs, CS(1, -3))
MW_KL_ADDR(c_s1_6, struct cs, CS(1, -2))
MW_KL_ADDR(c_s1_7, struct cs, CS(1, -1))
MW_KL_ADDR(c_s1_8, struct cs, CS(1, 0))
MW_KL_ADDR(c_s1_9, struct cs, CS(1, 1))
MW_KL_ADDR(c_s1_10, struct cs, CS(1, 2))
MW_KL_ADDR(c_s1_11, struct cs, CS(1, 3))
MW_KL_ADDR(c_s1_12, struct cs, CS(1, 4))
MW_KL_ADDR(c_s1_13, struct cs, CS(1, 5))
MW_KL_ADDR(c_s1_14, struct cs, CS(1, 6))
MW_KL_ADDR(c_s1_15, struct cs, CS(1, 7))
MW_KL_ADDR(c_s1_16, struct cs, CS(1, 8))
MW_KL_ADDR(c_s2_0, struct cs, CS(2, -8))
MW_KL_ADDR(c_s2_1, struct cs, CS(2, -7))
MW_KL_ADDR(c_s2_2, struct cs, CS(2, -6))
MW_KL_ADDR(c_s2_3, struct cs, CS(2, -5))
MW_KL_ADDR(c_s2_4, struct cs, CS(2, -4))
MW_KL_ADDR(c_s2_5, struct cs, CS(2, -3))
MW_KL_ADDR(c_s2_6, struct cs, CS(2, -2))
MW_KL_ADDR(c_s2_7, struct cs, CS(2, -1))
MW_KL_ADDR(c_s2_8, struct cs, CS(2, 0))
MW_KL_ADDR(c_s2_9, struct cs, CS(2, 1))
MW_KL_ADDR(c_s2_10, struct cs, CS(2, 2))
MW_KL_ADDR(c_s2_11, struct cs, CS(2, 3))
MW_KL_ADDR(c_s2_12, struct cs, CS(2, 4))
MW_KL_ADDR(c_s2_13, struct cs, CS(2, 5))
MW_KL_ADDR(c_s2_14, struct cs, CS(2, 6))
MW_KL_ADDR(c_s2_15, struct cs, CS(2, 7))
MW_KL_ADDR(c_s2_16, struct cs, CS(2, 8))
MW_KL_ADDR(c_s3_0, struct cs, CS(3, -8))
MW_KL_ADDR(c_s3_1, struct cs, CS(3, -7))
MW_KL_ADDR(c_s3_2, struct cs, CS(3, -6))
MW_KL_ADDR(c_s3_3, struct cs, CS(3, -5))
MW_KL_ADDR(c_s3_4, struct cs, CS(3, -4))
MW_KL_ADDR(c_s3_5, struct cs, CS(3, -3))
MW_KL_ADDR(c_s3_6, struct cs, CS(3, -2))
MW_KL_ADDR(c_s3_7, struct cs, CS(3, -1))
MW_KL_ADDR(c_s3_8, struct cs, CS(3, 0))
MW_KL_ADDR(c_s3_9, struct cs, CS(3, 1))
MW_KL_ADDR(c_s3_10, struct cs, CS(3, 2))
MW_KL_ADDR(c_s3_11, struct cs, CS(3, 3))
MW_KL_ADDR(c_s3_12, struct cs, CS(3, 4))
MW_KL_ADDR(c_s3_13, struct cs, CS(3, 5))
MW_KL_ADDR(c_s3_14, struct cs, CS(3, 6))
MW_KL_ADDR(c_s3_15, struct cs, CS(3, 7))
MW_KL_ADDR(c_s3_16, struct cs, CS(3, 8))
MW_KL_ADDR(c_s4_0, struct cs, CS(4, -8))
MW_KL_ADDR(c_s4_1, struct cs, CS(4, -7))
MW_KL_ADDR(c_s4_2, struct cs, CS(4, -6))
MW_KL_ADDR(c_s4_3, struct cs, CS(4, -5))
MW_KL_ADDR(c_s4_4, struct cs, CS(4, -4))
MW_KL_ADDR(c_s4_5, struct cs, CS(4, -3))
MW_KL_ADDR(c_s4_6, struct cs, CS(4, -2))
MW_KL_ADDR(c_s4_7, struct cs, CS(4, -1))
MW_KL_ADDR(c_s4_8, struct cs, CS(4, 0))
MW_KL_ADDR(c_s4_9, struct cs, CS(4, 1))
MW_KL_ADDR(c_s4_10, struct cs, CS(4, 2))
MW_KL_ADDR(c_s4_11, struct cs, CS(4, 3))
MW_KL_ADDR(c_s4_12, struct cs, CS(4, 4))
MW_KL_ADDR(c_s4_13, struct cs, CS(4, 5))
MW_KL_ADDR(c_s4_14, struct cs, CS(4, 6))
MW_KL_ADDR(c_s4_15, struct cs, CS(4, 7))
MW_KL_ADDR(c_s4_16, struct cs, CS(4, 8))
MW_KL_ADDR(c_s5_0, struct cs, CS(5, -8))
MW_KL_ADDR(c_s5_1, struct cs, CS(5, -7))
MW_KL_ADDR(c_s5_2, struct cs, CS(5, -6))
MW_KL_ADDR(c_s5_3, struct cs, CS(5, -5))
MW_KL_ADDR(c_s5_4, struct cs, CS(5, -4))
MW_KL_ADDR(c_s5_5, struct cs, CS(5, -3))
MW_KL_ADDR(c_s5_6, struct cs, CS(5, -2))
MW_KL_ADDR(c_s5_7, struct cs, CS(5, -1))
MW_KL_ADDR(c_s5_8, struct cs, CS(5, 0))
MW_KL_ADDR(c_s5_9, struct cs, CS(5, 1))
MW_KL_ADDR(c_s5_10, struct cs, CS(5, 2))
MW_KL_ADDR(c_s5_11, struct cs, CS(5, 3))
MW_KL_ADDR(c_s5_12, struct cs, CS(5, 4))
MW_KL_ADDR(c_s5_13, struct cs, CS(5, 5))
MW_KL_ADDR(c_s5_14, struct cs, CS(5, 6))
MW_KL_ADDR(c_s5_15, struct cs, CS(5, 7))
MW_KL_ADDR(c_s5_16, struct cs, CS(5, 8))
MW_KL_ADDR(c_s6_0, struct cs, CS(6, -8))
MW_KL_ADDR(c_s6_1, struct cs, CS(6, -7))
MW_KL_ADDR(c_s6_2, struct cs, CS(6, -6))
MW_KL_ADDR(c_s6_3, struct cs, CS(6, -5))
MW_KL_ADDR(c_s6_4, struct cs, CS(6, -4))
MW_KL_ADDR(c_s6_5, struct cs, CS(6, -3))
MW_KL_ADDR(c_s6_6, struct cs, CS(6, -2))
MW_KL_ADDR(c_s6_7, struct cs, CS(6, -1))
MW_KL_ADDR(c_s6_8, struct cs, CS(6, 0))
MW_KL_ADDR(c_s6_9, struct cs, CS(6, 1))
MW_KL_ADDR(c_s6_10, struct cs, CS(6, 2))
MW_KL_ADDR(c_s6_11, struct cs, CS(6, 3))
MW_KL_ADDR(c_s6_12, struct cs, CS(6, 4))
MW_KL_ADDR(c_s6_13, struct cs, CS(6, 5))
MW_KL_ADDR(c_s6_14, struct cs, CS(6, 6))
MW_KL_ADDR(c_s6_15, struct cs, CS(6, 7))
MW_KL_ADDR(c_s6_16, struct cs, CS(6, 8))
MW_KL_ADDR(c_s7_0, struct cs, CS(7, -8))
MW_KL_ADDR(c_s7_1, struct cs, CS(7, -7))
MW_KL_ADDR(c_s7_2, struct cs, CS(7, -6))
MW_KL_ADDR(c_s7_3, struct cs, CS(7, -5))
MW_KL_ADDR(c_s7_4, struct cs, CS(7, -4))
MW_KL_ADDR(c_s7_5, struct cs, CS(7, -3))
MW_KL_ADDR(c_s7_6, struct cs, CS(7, -2))
MW_KL_ADDR(c_s7_7, struct cs, CS(7, -1))
MW_KL_ADDR(c_s7_8, struct cs, CS(7, 0))
MW_KL_ADDR(c_s7_9, struct cs, CS(7, 1))
MW_KL_ADDR(c_s7_10, struct cs, CS(7, 2))
MW_KL_ADDR(c_s7_11, struct cs, CS(7, 3))
MW_KL_ADDR(c_s7_12, struct cs, CS(7, 4))
MW_KL_ADDR(c_s7_13, struct cs, CS(7, 5))
MW_KL_ADDR(c_s7_14, struct cs, CS(7, 6))
MW_KL_ADDR(c_s7_15, struct cs, CS(7, 7))
MW_KL_ADDR(c_s7_16, struct cs, CS(7, 8))
MW_KL_ADDR(c_s8_0, struct cs, CS(8, -8))
MW_KL_ADDR(c_s8_1, struct cs, CS(8, -7))
MW_KL_ADDR(c_s8_2, struct cs, CS(8, -6))
MW_KL_ADDR(c_s8_3, struct cs, CS(8, -5))
MW_KL_ADDR(c_s8_4, struct cs, CS(8, -4))
MW_KL_ADDR(c_s8_5, struct cs, CS(8, -3))
MW_KL_ADDR(c_s8_6, struct cs, CS(8, -2))
MW_KL_ADDR(c_s8_7, struct cs, CS(8, -1))
MW_KL_ADDR(c_s8_8, struct cs, CS(8, 0))
MW_KL_ADDR(c_s8_9, struct cs, CS(8, 1))
MW_KL_ADDR(c_s8_10, struct cs, CS(8, 2))
MW_KL_ADDR(c_s8_11, struct cs, CS(8, 3))
MW_KL_ADDR(c_s8_12, struct cs, CS(8, 4))
MW_KL_ADDR(c_s8_13, struct cs, CS(8, 5))
MW_KL_ADDR(c_s8_14, struct cs, CS(8, 6))
MW_KL_ADDR(c_s8_15, struct cs, CS(8, 7))
MW_KL_ADDR(c_s8_16, struct cs, CS(8, 8))

static const struct mw_kl_op rows_ops[] = {
    /* r1 tx, r2 ty, r3/r4 ctaid, r5 baseX, r6 baseY, r7 &d_Src[..], r8 &d_Dst[..], r9 &s_Data[..] */
    KL_ALU(1, 0, 0), KL_ALU(2, 0, 0), KL_ALU(3, 0, 0), KL_ALU(4, 0, 0), KL_ALU(5, 3, 1), KL_ALU(6, 4, 2),
    KL_ALU(7, 6, 5), KL_ALU(7, 7, 0), KL_ALU(8, 6, 5), KL_ALU(8, 8, 0), KL_ALU(9, 2, 1), KL_ALU(9, 9, 0),
    /* main data (i = 1 .. 8), then the two halos (predicated loads, the stores always done) */
    KL_LDG(11, 7, r_in1, NULL), KL_STS(11, 9, r_st1, NULL),
    KL_LDG(12, 7, r_in2, NULL), KL_STS(12, 9, r_st2, NULL),
    KL_LDG(13, 7, r_in3, NULL), KL_STS(13, 9, r_st3, NULL),
    KL_LDG(14, 7, r_in4, NULL), KL_STS(14, 9, r_st4, NULL),
    KL_LDG(15, 7, r_in5, NULL), KL_STS(15, 9, r_st5, NULL),
    KL_LDG(16, 7, r_in6, NULL), KL_STS(16, 9, r_st6, NULL),
    KL_LDG(17, 7, r_in7, NULL), KL_STS(17, 9, r_st7, NULL),
    KL_LDG(18, 7, r_in8, NULL), KL_STS(18, 9, r_st8, NULL),
    KL_ALU(19, 5, 0), KL_LDG(20, 7, r_in0, p_rleft), KL_STS(20, 9, r_st0, NULL),
    KL_ALU(19, 5, 0), KL_LDG(21, 7, r_in9, p_rright), KL_STS(21, 9, r_st9, NULL),
    KL_BAR,
    /* result 1 */
    KL_LDS(22, 9, r_s1_0, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s1_1, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s1_2, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s1_3, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s1_4, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s1_5, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s1_6, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s1_7, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s1_8, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s1_9, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s1_10, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s1_11, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s1_12, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s1_13, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s1_14, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s1_15, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s1_16, NULL), KL_ALU(23, 23, 22),
    KL_STG(23, 8, r_out1, NULL),
    /* result 2 */
    KL_LDS(22, 9, r_s2_0, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s2_1, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s2_2, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s2_3, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s2_4, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s2_5, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s2_6, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s2_7, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s2_8, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s2_9, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s2_10, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s2_11, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s2_12, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s2_13, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s2_14, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s2_15, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s2_16, NULL), KL_ALU(23, 23, 22),
    KL_STG(23, 8, r_out2, NULL),
    /* result 3 */
    KL_LDS(22, 9, r_s3_0, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s3_1, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s3_2, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s3_3, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s3_4, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s3_5, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s3_6, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s3_7, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s3_8, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s3_9, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s3_10, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s3_11, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s3_12, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s3_13, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s3_14, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s3_15, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s3_16, NULL), KL_ALU(23, 23, 22),
    KL_STG(23, 8, r_out3, NULL),
    /* result 4 */
    KL_LDS(22, 9, r_s4_0, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s4_1, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s4_2, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s4_3, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s4_4, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s4_5, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s4_6, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s4_7, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s4_8, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s4_9, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s4_10, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s4_11, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s4_12, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s4_13, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s4_14, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s4_15, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s4_16, NULL), KL_ALU(23, 23, 22),
    KL_STG(23, 8, r_out4, NULL),
    /* result 5 */
    KL_LDS(22, 9, r_s5_0, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s5_1, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s5_2, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s5_3, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s5_4, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s5_5, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s5_6, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s5_7, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s5_8, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s5_9, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s5_10, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s5_11, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s5_12, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s5_13, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s5_14, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s5_15, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s5_16, NULL), KL_ALU(23, 23, 22),
    KL_STG(23, 8, r_out5, NULL),
    /* result 6 */
    KL_LDS(22, 9, r_s6_0, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s6_1, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s6_2, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s6_3, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s6_4, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s6_5, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s6_6, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s6_7, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s6_8, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s6_9, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s6_10, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s6_11, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s6_12, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s6_13, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s6_14, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s6_15, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s6_16, NULL), KL_ALU(23, 23, 22),
    KL_STG(23, 8, r_out6, NULL),
    /* result 7 */
    KL_LDS(22, 9, r_s7_0, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s7_1, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s7_2, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s7_3, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s7_4, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s7_5, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s7_6, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s7_7, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s7_8, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s7_9, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s7_10, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s7_11, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s7_12, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s7_13, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s7_14, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s7_15, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s7_16, NULL), KL_ALU(23, 23, 22),
    KL_STG(23, 8, r_out7, NULL),
    /* result 8 */
    KL_LDS(22, 9, r_s8_0, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s8_1, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s8_2, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s8_3, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s8_4, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s8_5, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s8_6, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s8_7, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s8_8, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s8_9, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s8_10, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s8_11, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s8_12, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s8_13, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s8_14, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, r_s8_15, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, r_s8_16, NULL), KL_ALU(23, 23, 22),
    KL_STG(23, 8, r_out8, NULL),
};

static const struct mw_kl_op cols_ops[] = {
    /* r1 tx, r2 ty, r3/r4 ctaid, r5 baseX, r6 baseY, r7 &d_Src[..], r8 &d_Dst[..], r9 &s_Data[..] */
    KL_ALU(1, 0, 0), KL_ALU(2, 0, 0), KL_ALU(3, 0, 0), KL_ALU(4, 0, 0), KL_ALU(5, 3, 1), KL_ALU(6, 4, 2),
    KL_ALU(7, 6, 5), KL_ALU(7, 7, 0), KL_ALU(8, 6, 5), KL_ALU(8, 8, 0), KL_ALU(9, 2, 1), KL_ALU(9, 9, 0),
    /* main data (i = 1 .. 8), then the two halos (predicated loads, the stores always done) */
    KL_LDG(11, 7, c_in1, NULL), KL_STS(11, 9, c_st1, NULL),
    KL_LDG(12, 7, c_in2, NULL), KL_STS(12, 9, c_st2, NULL),
    KL_LDG(13, 7, c_in3, NULL), KL_STS(13, 9, c_st3, NULL),
    KL_LDG(14, 7, c_in4, NULL), KL_STS(14, 9, c_st4, NULL),
    KL_LDG(15, 7, c_in5, NULL), KL_STS(15, 9, c_st5, NULL),
    KL_LDG(16, 7, c_in6, NULL), KL_STS(16, 9, c_st6, NULL),
    KL_LDG(17, 7, c_in7, NULL), KL_STS(17, 9, c_st7, NULL),
    KL_LDG(18, 7, c_in8, NULL), KL_STS(18, 9, c_st8, NULL),
    KL_ALU(19, 5, 0), KL_LDG(20, 7, c_in0, p_cup), KL_STS(20, 9, c_st0, NULL),
    KL_ALU(19, 5, 0), KL_LDG(21, 7, c_in9, p_cdown), KL_STS(21, 9, c_st9, NULL),
    KL_BAR,
    /* result 1 */
    KL_LDS(22, 9, c_s1_0, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s1_1, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s1_2, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s1_3, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s1_4, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s1_5, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s1_6, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s1_7, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s1_8, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s1_9, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s1_10, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s1_11, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s1_12, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s1_13, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s1_14, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s1_15, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s1_16, NULL), KL_ALU(23, 23, 22),
    KL_STG(23, 8, c_out1, NULL),
    /* result 2 */
    KL_LDS(22, 9, c_s2_0, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s2_1, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s2_2, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s2_3, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s2_4, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s2_5, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s2_6, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s2_7, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s2_8, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s2_9, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s2_10, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s2_11, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s2_12, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s2_13, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s2_14, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s2_15, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s2_16, NULL), KL_ALU(23, 23, 22),
    KL_STG(23, 8, c_out2, NULL),
    /* result 3 */
    KL_LDS(22, 9, c_s3_0, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s3_1, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s3_2, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s3_3, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s3_4, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s3_5, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s3_6, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s3_7, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s3_8, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s3_9, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s3_10, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s3_11, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s3_12, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s3_13, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s3_14, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s3_15, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s3_16, NULL), KL_ALU(23, 23, 22),
    KL_STG(23, 8, c_out3, NULL),
    /* result 4 */
    KL_LDS(22, 9, c_s4_0, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s4_1, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s4_2, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s4_3, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s4_4, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s4_5, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s4_6, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s4_7, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s4_8, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s4_9, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s4_10, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s4_11, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s4_12, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s4_13, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s4_14, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s4_15, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s4_16, NULL), KL_ALU(23, 23, 22),
    KL_STG(23, 8, c_out4, NULL),
    /* result 5 */
    KL_LDS(22, 9, c_s5_0, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s5_1, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s5_2, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s5_3, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s5_4, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s5_5, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s5_6, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s5_7, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s5_8, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s5_9, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s5_10, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s5_11, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s5_12, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s5_13, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s5_14, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s5_15, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s5_16, NULL), KL_ALU(23, 23, 22),
    KL_STG(23, 8, c_out5, NULL),
    /* result 6 */
    KL_LDS(22, 9, c_s6_0, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s6_1, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s6_2, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s6_3, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s6_4, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s6_5, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s6_6, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s6_7, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s6_8, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s6_9, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s6_10, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s6_11, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s6_12, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s6_13, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s6_14, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s6_15, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s6_16, NULL), KL_ALU(23, 23, 22),
    KL_STG(23, 8, c_out6, NULL),
    /* result 7 */
    KL_LDS(22, 9, c_s7_0, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s7_1, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s7_2, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s7_3, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s7_4, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s7_5, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s7_6, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s7_7, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s7_8, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s7_9, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s7_10, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s7_11, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s7_12, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s7_13, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s7_14, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s7_15, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s7_16, NULL), KL_ALU(23, 23, 22),
    KL_STG(23, 8, c_out7, NULL),
    /* result 8 */
    KL_LDS(22, 9, c_s8_0, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s8_1, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s8_2, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s8_3, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s8_4, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s8_5, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s8_6, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s8_7, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s8_8, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s8_9, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s8_10, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s8_11, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s8_12, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s8_13, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s8_14, NULL), KL_ALU(23, 23, 22), KL_LDS(22, 9, c_s8_15, NULL), KL_ALU(23, 23, 22),
    KL_LDS(22, 9, c_s8_16, NULL), KL_ALU(23, 23, 22),
    KL_STG(23, 8, c_out8, NULL),
};

static void free_owned(void *p) { free(p); }

int mw_wl_sdk_convsep(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    (void)seed;
    static const int64_t side[4] = {256, 1024, 3072, 3072};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct cs *d = calloc(2, sizeof *d);
    if (!d) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    struct mw_kgen_program p = {.owned = d, .free_owned = free_owned};
    int64_t n = side[sz];
    uint64_t bytes = ((uint64_t)n * n * 4 + 255) & ~255ull;
    /* cudaMalloc order: d_Input, d_Output, d_Buffer; rows d_Input -> d_Buffer, columns d_Buffer -> d_Output */
    uint64_t input = 0x10000000ull, output = input + bytes, buffer = output + bytes;
    d[0] = (struct cs){{rows_ops, (int)(sizeof rows_ops / sizeof rows_ops[0])}, n, n, input, buffer};
    d[1] = (struct cs){{cols_ops, (int)(sizeof cols_ops / sizeof cols_ops[0])}, n, n, buffer, output};
    for (int i = 0; i < 2; i++) {
        struct mw_kgen_kernel *k = mw_kgen_append(&p);
        if (!k) {
            free(p.kernels), free(d);
            return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
        }
        snprintf(k->k.name, sizeof k->k.name, "%s", i ? "convolutionColumnsKernel" : "convolutionRowsKernel");
        k->k.grid[0] = (uint32_t)(i ? n / CX : n / (STEPS * RX));
        k->k.grid[1] = (uint32_t)(i ? n / (STEPS * CY) : n / RY);
        k->k.grid[2] = 1;
        k->k.block[0] = i ? CX : RX, k->k.block[1] = i ? CY : RY, k->k.block[2] = 1;
        k->k.nregs = i ? 18 : 16;
        k->k.shmem = i ? CX * CH * 4 : RY * RW * 4;
        mw_kloop_kernel(k, &d[i].h);
    }
    return mw_kgen_workload(w, "sdk.convsep", &p, e);
}
