/* CUDA SDK histogram (3_Imaging/histogram, the 4.x SDK's kernels): the sample bins byteCount random bytes
 * (rand() % 256) with histogram64() and then with histogram256(), each a partial-histogram kernel and a merge:
 *  - histogram64Kernel: 64 threads a block, ceil(byteCount / (64 * 252)) blocks; each thread owns a column of
 *    one-byte counters in a 64 x 64 B shared array (s_Hist[bin * 64 + threadPos], threadPos a permutation of
 *    threadIdx.x that spreads a warp over the banks), reads uint4 words (16 bytes) grid-stride and increments
 *    the counter of the top 6 bits of each byte (a byte load and a byte store each); then each thread sums one
 *    bin's 64 counters (16 unrolled steps of 4 bytes) into d_PartialHistograms[blockIdx.x * 64 + tid].
 *  - mergeHistogram64Kernel: 64 blocks of 256, each summing one bin over the partial histograms (reads 256 B
 *    apart: 32 lines a warp) and reducing the 256 sums by a shared tree.
 *  - histogram256Kernel: 240 blocks of 192 threads (6 warps), a 256-bin uint histogram per warp in shared memory;
 *    each thread reads one uint (4 bytes) grid-stride and adds each byte with the tag loop of the 4.x SDK (no
 *    shared atomics: read the counter, write (count + 1) with the lane's tag in the top 5 bits, read it back and
 *    retry while another lane's write won): lanes of a warp hitting the same bin serialise, one pass each, so the
 *    loop runs as many passes as the bin's multiplicity in the warp; the lane that wins a pass is taken to be the
 *    lowest-numbered one. Then each thread sums bins tid and tid + 192 over the 6 warp histograms.
 *  - mergeHistogram256Kernel: 256 blocks of 256 over the 240 partial histograms.
 * The bytes come from the run's seed (a splitmix64 stream; the bins and so the shared addresses and the retry
 * passes depend on it). The sample bins 64 MB and times each pair 1 + 16 times; the model runs each pair once.
 * #pragma unroll'ed loops have one static instruction per step. Registers per thread are estimates of the sm_20
 * compile. */
#include "kloop.h"
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>

#define B64 64         /* HISTOGRAM64_THREADBLOCK_SIZE = HISTOGRAM64_BIN_COUNT */
#define WARPS 6        /* WARP_COUNT */
#define T256 (WARPS * 32) /* HISTOGRAM256_THREADBLOCK_SIZE */
#define PARTIAL256 240 /* PARTIAL_HISTOGRAM256_COUNT */
#define MERGE 256      /* MERGE_THREADBLOCK_SIZE */

struct hg {
    struct mw_kl_hdr h;
    uint64_t seed;
    int64_t count;   /* dataCount (uint4 or uint words) or histogramCount (merges) */
    int64_t nthreads; /* the grid's threads (grid-stride kernels) */
    uint64_t data, partial, hist;
    const uint8_t *bytes; /* the input */
    const uint8_t *rank;  /* per byte k of word i: how many lower lanes of its warp (words 32 j .. 32 j + 31) add
                           * byte k of their word to the same bin (histogram256Kernel's tag loop) */
};

/* word i (4 bytes, little-endian) of the input */
static uint32_t word(uint64_t seed, uint64_t i)
{
    uint64_t z = seed * 0x9e3779b97f4a7c15ull + i * 0xbf58476d1ce4e5b9ull + 0x94d049bb133111ebull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)(z ^ (z >> 31));
}
uint32_t mw_wl_histogram_byte(uint64_t seed, uint64_t b) { return word(seed, b / 4) >> (8 * (b % 4)) & 0xffu; }

#define TID ((int64_t)t->tid[0])
#define BID ((int64_t)t->ctaid[0])
#define F4(base, idx) ((base) + (uint64_t)(idx)*4u)
/* the grid-stride position of a thread at iteration lc[0] */
#define POS ((int64_t)t->gtid + lc[0] * P->nthreads)
MW_KL_TRIPS(g_trips, struct hg, (P->count - (int64_t)t->gtid + P->nthreads - 1) / P->nthreads)
MW_KL_PRED(g_in, struct hg, POS < P->count)

/* ---- histogram64Kernel ---- */
static int64_t thread_pos(int64_t tid) { return (tid & ~63ll) | (tid & 15) << 2 | (tid & 48) >> 4; }
MW_KL_ADDR(h64_data, struct hg, P->data + (uint64_t)POS * 16u)
MW_KL_ADDR(h64_part, struct hg, F4(P->partial, BID * B64 + TID))
MW_KL_ADDR(h64_z0, struct hg, F4(0, TID + 0 * B64))
MW_KL_ADDR(h64_z1, struct hg, F4(0, TID + 1 * B64))
MW_KL_ADDR(h64_z2, struct hg, F4(0, TID + 2 * B64))
MW_KL_ADDR(h64_z3, struct hg, F4(0, TID + 3 * B64))
MW_KL_ADDR(h64_z4, struct hg, F4(0, TID + 4 * B64))
MW_KL_ADDR(h64_z5, struct hg, F4(0, TID + 5 * B64))
MW_KL_ADDR(h64_z6, struct hg, F4(0, TID + 6 * B64))
MW_KL_ADDR(h64_z7, struct hg, F4(0, TID + 7 * B64))
MW_KL_ADDR(h64_z8, struct hg, F4(0, TID + 8 * B64))
MW_KL_ADDR(h64_z9, struct hg, F4(0, TID + 9 * B64))
MW_KL_ADDR(h64_z10, struct hg, F4(0, TID + 10 * B64))
MW_KL_ADDR(h64_z11, struct hg, F4(0, TID + 11 * B64))
MW_KL_ADDR(h64_z12, struct hg, F4(0, TID + 12 * B64))
MW_KL_ADDR(h64_z13, struct hg, F4(0, TID + 13 * B64))
MW_KL_ADDR(h64_z14, struct hg, F4(0, TID + 14 * B64))
MW_KL_ADDR(h64_z15, struct hg, F4(0, TID + 15 * B64))
MW_KL_ADDR(h64_b0, struct hg, (uint64_t)(thread_pos(TID) + (int64_t)(P->bytes[POS * 16 + 0] >> 2) * B64))
MW_KL_ADDR(h64_b1, struct hg, (uint64_t)(thread_pos(TID) + (int64_t)(P->bytes[POS * 16 + 1] >> 2) * B64))
MW_KL_ADDR(h64_b2, struct hg, (uint64_t)(thread_pos(TID) + (int64_t)(P->bytes[POS * 16 + 2] >> 2) * B64))
MW_KL_ADDR(h64_b3, struct hg, (uint64_t)(thread_pos(TID) + (int64_t)(P->bytes[POS * 16 + 3] >> 2) * B64))
MW_KL_ADDR(h64_b4, struct hg, (uint64_t)(thread_pos(TID) + (int64_t)(P->bytes[POS * 16 + 4] >> 2) * B64))
MW_KL_ADDR(h64_b5, struct hg, (uint64_t)(thread_pos(TID) + (int64_t)(P->bytes[POS * 16 + 5] >> 2) * B64))
MW_KL_ADDR(h64_b6, struct hg, (uint64_t)(thread_pos(TID) + (int64_t)(P->bytes[POS * 16 + 6] >> 2) * B64))
MW_KL_ADDR(h64_b7, struct hg, (uint64_t)(thread_pos(TID) + (int64_t)(P->bytes[POS * 16 + 7] >> 2) * B64))
MW_KL_ADDR(h64_b8, struct hg, (uint64_t)(thread_pos(TID) + (int64_t)(P->bytes[POS * 16 + 8] >> 2) * B64))
MW_KL_ADDR(h64_b9, struct hg, (uint64_t)(thread_pos(TID) + (int64_t)(P->bytes[POS * 16 + 9] >> 2) * B64))
MW_KL_ADDR(h64_b10, struct hg, (uint64_t)(thread_pos(TID) + (int64_t)(P->bytes[POS * 16 + 10] >> 2) * B64))
MW_KL_ADDR(h64_b11, struct hg, (uint64_t)(thread_pos(TID) + (int64_t)(P->bytes[POS * 16 + 11] >> 2) * B64))
MW_KL_ADDR(h64_b12, struct hg, (uint64_t)(thread_pos(TID) + (int64_t)(P->bytes[POS * 16 + 12] >> 2) * B64))
MW_KL_ADDR(h64_b13, struct hg, (uint64_t)(thread_pos(TID) + (int64_t)(P->bytes[POS * 16 + 13] >> 2) * B64))
MW_KL_ADDR(h64_b14, struct hg, (uint64_t)(thread_pos(TID) + (int64_t)(P->bytes[POS * 16 + 14] >> 2) * B64))
MW_KL_ADDR(h64_b15, struct hg, (uint64_t)(thread_pos(TID) + (int64_t)(P->bytes[POS * 16 + 15] >> 2) * B64))
/* the sum: s_HistBase[pos + j] with s_HistBase = s_Hist + tid * 64, pos = (4 (tid & 15) + 4 i) & 63 */
MW_KL_ADDR(h64_s0_0, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 0) & 63) + 0))
MW_KL_ADDR(h64_s0_1, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 0) & 63) + 1))
MW_KL_ADDR(h64_s0_2, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 0) & 63) + 2))
MW_KL_ADDR(h64_s0_3, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 0) & 63) + 3))
MW_KL_ADDR(h64_s1_0, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 1) & 63) + 0))
MW_KL_ADDR(h64_s1_1, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 1) & 63) + 1))
MW_KL_ADDR(h64_s1_2, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 1) & 63) + 2))
MW_KL_ADDR(h64_s1_3, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 1) & 63) + 3))
MW_KL_ADDR(h64_s2_0, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 2) & 63) + 0))
MW_KL_ADDR(h64_s2_1, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 2) & 63) + 1))
MW_KL_ADDR(h64_s2_2, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 2) & 63) + 2))
MW_KL_ADDR(h64_s2_3, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 2) & 63) + 3))
MW_KL_ADDR(h64_s3_0, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 3) & 63) + 0))
MW_KL_ADDR(h64_s3_1, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 3) & 63) + 1))
MW_KL_ADDR(h64_s3_2, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 3) & 63) + 2))
MW_KL_ADDR(h64_s3_3, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 3) & 63) + 3))
MW_KL_ADDR(h64_s4_0, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 4) & 63) + 0))
MW_KL_ADDR(h64_s4_1, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 4) & 63) + 1))
MW_KL_ADDR(h64_s4_2, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 4) & 63) + 2))
MW_KL_ADDR(h64_s4_3, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 4) & 63) + 3))
MW_KL_ADDR(h64_s5_0, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 5) & 63) + 0))
MW_KL_ADDR(h64_s5_1, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 5) & 63) + 1))
MW_KL_ADDR(h64_s5_2, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 5) & 63) + 2))
MW_KL_ADDR(h64_s5_3, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 5) & 63) + 3))
MW_KL_ADDR(h64_s6_0, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 6) & 63) + 0))
MW_KL_ADDR(h64_s6_1, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 6) & 63) + 1))
MW_KL_ADDR(h64_s6_2, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 6) & 63) + 2))
MW_KL_ADDR(h64_s6_3, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 6) & 63) + 3))
MW_KL_ADDR(h64_s7_0, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 7) & 63) + 0))
MW_KL_ADDR(h64_s7_1, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 7) & 63) + 1))
MW_KL_ADDR(h64_s7_2, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 7) & 63) + 2))
MW_KL_ADDR(h64_s7_3, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 7) & 63) + 3))
MW_KL_ADDR(h64_s8_0, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 8) & 63) + 0))
MW_KL_ADDR(h64_s8_1, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 8) & 63) + 1))
MW_KL_ADDR(h64_s8_2, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 8) & 63) + 2))
MW_KL_ADDR(h64_s8_3, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 8) & 63) + 3))
MW_KL_ADDR(h64_s9_0, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 9) & 63) + 0))
MW_KL_ADDR(h64_s9_1, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 9) & 63) + 1))
MW_KL_ADDR(h64_s9_2, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 9) & 63) + 2))
MW_KL_ADDR(h64_s9_3, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 9) & 63) + 3))
MW_KL_ADDR(h64_s10_0, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 10) & 63) + 0))
MW_KL_ADDR(h64_s10_1, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 10) & 63) + 1))
MW_KL_ADDR(h64_s10_2, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 10) & 63) + 2))
MW_KL_ADDR(h64_s10_3, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 10) & 63) + 3))
MW_KL_ADDR(h64_s11_0, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 11) & 63) + 0))
MW_KL_ADDR(h64_s11_1, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 11) & 63) + 1))
MW_KL_ADDR(h64_s11_2, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 11) & 63) + 2))
MW_KL_ADDR(h64_s11_3, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 11) & 63) + 3))
MW_KL_ADDR(h64_s12_0, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 12) & 63) + 0))
MW_KL_ADDR(h64_s12_1, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 12) & 63) + 1))
MW_KL_ADDR(h64_s12_2, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 12) & 63) + 2))
MW_KL_ADDR(h64_s12_3, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 12) & 63) + 3))
MW_KL_ADDR(h64_s13_0, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 13) & 63) + 0))
MW_KL_ADDR(h64_s13_1, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 13) & 63) + 1))
MW_KL_ADDR(h64_s13_2, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 13) & 63) + 2))
MW_KL_ADDR(h64_s13_3, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 13) & 63) + 3))
MW_KL_ADDR(h64_s14_0, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 14) & 63) + 0))
MW_KL_ADDR(h64_s14_1, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 14) & 63) + 1))
MW_KL_ADDR(h64_s14_2, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 14) & 63) + 2))
MW_KL_ADDR(h64_s14_3, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 14) & 63) + 3))
MW_KL_ADDR(h64_s15_0, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 15) & 63) + 0))
MW_KL_ADDR(h64_s15_1, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 15) & 63) + 1))
MW_KL_ADDR(h64_s15_2, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 15) & 63) + 2))
MW_KL_ADDR(h64_s15_3, struct hg, (uint64_t)(TID * B64 + ((4 * (TID & 15) + 4 * 15) & 63) + 3))

/* (threadIdx.x < 64 always holds in a 64-thread block: no branch around the sum) */
static const struct mw_kl_op h64_ops[] = {
    /* r1 tid, r2 ctaid, r3 threadPos, r4 pos, r5 grid stride; zero the counters (16 words a thread) */
    KL_ALU(1, 0, 0), KL_ALU(2, 0, 0), KL_ALU(3, 1, 0), KL_ALU(3, 3, 1), KL_ALU(4, 2, 1), KL_ALU(5, 0, 0),
    KL_STS(0, 6, h64_z0, NULL), KL_STS(0, 6, h64_z1, NULL), KL_STS(0, 6, h64_z2, NULL), KL_STS(0, 6, h64_z3, NULL),
    KL_STS(0, 6, h64_z4, NULL), KL_STS(0, 6, h64_z5, NULL), KL_STS(0, 6, h64_z6, NULL), KL_STS(0, 6, h64_z7, NULL),
    KL_STS(0, 6, h64_z8, NULL), KL_STS(0, 6, h64_z9, NULL), KL_STS(0, 6, h64_z10, NULL), KL_STS(0, 6, h64_z11, NULL),
    KL_STS(0, 6, h64_z12, NULL), KL_STS(0, 6, h64_z13, NULL), KL_STS(0, 6, h64_z14, NULL),
    KL_STS(0, 6, h64_z15, NULL),
    KL_BAR, KL_ALU(7, 4, 0),
    KL_LOOP(g_trips, NULL, 7), KL_IF(g_in, 7),
    KL_ALU(8, 4, 0), MW_KL_I(MW_OP_LD_GLOBAL, 16, 1, 1, 10, 8, 0, h64_data, NULL),
    /* per byte: extract the 6-bit bin, address s_ThreadBase[bin * 64], ++ */
    KL_ALU(20, 10, 0), KL_ALU(21, 20, 3), MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 22, 21, 0, h64_b0, NULL),
    KL_ALU(22, 22, 0), MW_KL_I(MW_OP_ST_SHARED, 1, 0, 2, 0, 21, 22, h64_b0, NULL),
    KL_ALU(20, 10, 0), KL_ALU(21, 20, 3), MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 22, 21, 0, h64_b1, NULL),
    KL_ALU(22, 22, 0), MW_KL_I(MW_OP_ST_SHARED, 1, 0, 2, 0, 21, 22, h64_b1, NULL),
    KL_ALU(20, 10, 0), KL_ALU(21, 20, 3), MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 22, 21, 0, h64_b2, NULL),
    KL_ALU(22, 22, 0), MW_KL_I(MW_OP_ST_SHARED, 1, 0, 2, 0, 21, 22, h64_b2, NULL),
    KL_ALU(20, 10, 0), KL_ALU(21, 20, 3), MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 22, 21, 0, h64_b3, NULL),
    KL_ALU(22, 22, 0), MW_KL_I(MW_OP_ST_SHARED, 1, 0, 2, 0, 21, 22, h64_b3, NULL),
    KL_ALU(20, 10, 0), KL_ALU(21, 20, 3), MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 22, 21, 0, h64_b4, NULL),
    KL_ALU(22, 22, 0), MW_KL_I(MW_OP_ST_SHARED, 1, 0, 2, 0, 21, 22, h64_b4, NULL),
    KL_ALU(20, 10, 0), KL_ALU(21, 20, 3), MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 22, 21, 0, h64_b5, NULL),
    KL_ALU(22, 22, 0), MW_KL_I(MW_OP_ST_SHARED, 1, 0, 2, 0, 21, 22, h64_b5, NULL),
    KL_ALU(20, 10, 0), KL_ALU(21, 20, 3), MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 22, 21, 0, h64_b6, NULL),
    KL_ALU(22, 22, 0), MW_KL_I(MW_OP_ST_SHARED, 1, 0, 2, 0, 21, 22, h64_b6, NULL),
    KL_ALU(20, 10, 0), KL_ALU(21, 20, 3), MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 22, 21, 0, h64_b7, NULL),
    KL_ALU(22, 22, 0), MW_KL_I(MW_OP_ST_SHARED, 1, 0, 2, 0, 21, 22, h64_b7, NULL),
    KL_ALU(20, 10, 0), KL_ALU(21, 20, 3), MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 22, 21, 0, h64_b8, NULL),
    KL_ALU(22, 22, 0), MW_KL_I(MW_OP_ST_SHARED, 1, 0, 2, 0, 21, 22, h64_b8, NULL),
    KL_ALU(20, 10, 0), KL_ALU(21, 20, 3), MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 22, 21, 0, h64_b9, NULL),
    KL_ALU(22, 22, 0), MW_KL_I(MW_OP_ST_SHARED, 1, 0, 2, 0, 21, 22, h64_b9, NULL),
    KL_ALU(20, 10, 0), KL_ALU(21, 20, 3), MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 22, 21, 0, h64_b10, NULL),
    KL_ALU(22, 22, 0), MW_KL_I(MW_OP_ST_SHARED, 1, 0, 2, 0, 21, 22, h64_b10, NULL),
    KL_ALU(20, 10, 0), KL_ALU(21, 20, 3), MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 22, 21, 0, h64_b11, NULL),
    KL_ALU(22, 22, 0), MW_KL_I(MW_OP_ST_SHARED, 1, 0, 2, 0, 21, 22, h64_b11, NULL),
    KL_ALU(20, 10, 0), KL_ALU(21, 20, 3), MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 22, 21, 0, h64_b12, NULL),
    KL_ALU(22, 22, 0), MW_KL_I(MW_OP_ST_SHARED, 1, 0, 2, 0, 21, 22, h64_b12, NULL),
    KL_ALU(20, 10, 0), KL_ALU(21, 20, 3), MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 22, 21, 0, h64_b13, NULL),
    KL_ALU(22, 22, 0), MW_KL_I(MW_OP_ST_SHARED, 1, 0, 2, 0, 21, 22, h64_b13, NULL),
    KL_ALU(20, 10, 0), KL_ALU(21, 20, 3), MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 22, 21, 0, h64_b14, NULL),
    KL_ALU(22, 22, 0), MW_KL_I(MW_OP_ST_SHARED, 1, 0, 2, 0, 21, 22, h64_b14, NULL),
    KL_ALU(20, 10, 0), KL_ALU(21, 20, 3), MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 22, 21, 0, h64_b15, NULL),
    KL_ALU(22, 22, 0), MW_KL_I(MW_OP_ST_SHARED, 1, 0, 2, 0, 21, 22, h64_b15, NULL),
    KL_END, KL_ALU(4, 4, 5), KL_ALU(7, 4, 0), KL_END,
    KL_BAR, KL_ALU(14, 1, 0), KL_ALU(15, 1, 0), KL_ALU(16, 0, 0),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 17, 14, 0, h64_s0_0, NULL), KL_ALU(16, 16, 17),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 18, 14, 0, h64_s0_1, NULL), KL_ALU(16, 16, 18),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 19, 14, 0, h64_s0_2, NULL), KL_ALU(16, 16, 19),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 20, 14, 0, h64_s0_3, NULL), KL_ALU(16, 16, 20), KL_ALU(15, 15, 0),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 17, 14, 0, h64_s1_0, NULL), KL_ALU(16, 16, 17),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 18, 14, 0, h64_s1_1, NULL), KL_ALU(16, 16, 18),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 19, 14, 0, h64_s1_2, NULL), KL_ALU(16, 16, 19),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 20, 14, 0, h64_s1_3, NULL), KL_ALU(16, 16, 20), KL_ALU(15, 15, 0),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 17, 14, 0, h64_s2_0, NULL), KL_ALU(16, 16, 17),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 18, 14, 0, h64_s2_1, NULL), KL_ALU(16, 16, 18),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 19, 14, 0, h64_s2_2, NULL), KL_ALU(16, 16, 19),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 20, 14, 0, h64_s2_3, NULL), KL_ALU(16, 16, 20), KL_ALU(15, 15, 0),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 17, 14, 0, h64_s3_0, NULL), KL_ALU(16, 16, 17),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 18, 14, 0, h64_s3_1, NULL), KL_ALU(16, 16, 18),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 19, 14, 0, h64_s3_2, NULL), KL_ALU(16, 16, 19),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 20, 14, 0, h64_s3_3, NULL), KL_ALU(16, 16, 20), KL_ALU(15, 15, 0),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 17, 14, 0, h64_s4_0, NULL), KL_ALU(16, 16, 17),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 18, 14, 0, h64_s4_1, NULL), KL_ALU(16, 16, 18),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 19, 14, 0, h64_s4_2, NULL), KL_ALU(16, 16, 19),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 20, 14, 0, h64_s4_3, NULL), KL_ALU(16, 16, 20), KL_ALU(15, 15, 0),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 17, 14, 0, h64_s5_0, NULL), KL_ALU(16, 16, 17),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 18, 14, 0, h64_s5_1, NULL), KL_ALU(16, 16, 18),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 19, 14, 0, h64_s5_2, NULL), KL_ALU(16, 16, 19),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 20, 14, 0, h64_s5_3, NULL), KL_ALU(16, 16, 20), KL_ALU(15, 15, 0),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 17, 14, 0, h64_s6_0, NULL), KL_ALU(16, 16, 17),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 18, 14, 0, h64_s6_1, NULL), KL_ALU(16, 16, 18),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 19, 14, 0, h64_s6_2, NULL), KL_ALU(16, 16, 19),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 20, 14, 0, h64_s6_3, NULL), KL_ALU(16, 16, 20), KL_ALU(15, 15, 0),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 17, 14, 0, h64_s7_0, NULL), KL_ALU(16, 16, 17),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 18, 14, 0, h64_s7_1, NULL), KL_ALU(16, 16, 18),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 19, 14, 0, h64_s7_2, NULL), KL_ALU(16, 16, 19),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 20, 14, 0, h64_s7_3, NULL), KL_ALU(16, 16, 20), KL_ALU(15, 15, 0),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 17, 14, 0, h64_s8_0, NULL), KL_ALU(16, 16, 17),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 18, 14, 0, h64_s8_1, NULL), KL_ALU(16, 16, 18),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 19, 14, 0, h64_s8_2, NULL), KL_ALU(16, 16, 19),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 20, 14, 0, h64_s8_3, NULL), KL_ALU(16, 16, 20), KL_ALU(15, 15, 0),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 17, 14, 0, h64_s9_0, NULL), KL_ALU(16, 16, 17),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 18, 14, 0, h64_s9_1, NULL), KL_ALU(16, 16, 18),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 19, 14, 0, h64_s9_2, NULL), KL_ALU(16, 16, 19),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 20, 14, 0, h64_s9_3, NULL), KL_ALU(16, 16, 20), KL_ALU(15, 15, 0),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 17, 14, 0, h64_s10_0, NULL), KL_ALU(16, 16, 17),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 18, 14, 0, h64_s10_1, NULL), KL_ALU(16, 16, 18),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 19, 14, 0, h64_s10_2, NULL), KL_ALU(16, 16, 19),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 20, 14, 0, h64_s10_3, NULL), KL_ALU(16, 16, 20), KL_ALU(15, 15, 0),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 17, 14, 0, h64_s11_0, NULL), KL_ALU(16, 16, 17),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 18, 14, 0, h64_s11_1, NULL), KL_ALU(16, 16, 18),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 19, 14, 0, h64_s11_2, NULL), KL_ALU(16, 16, 19),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 20, 14, 0, h64_s11_3, NULL), KL_ALU(16, 16, 20), KL_ALU(15, 15, 0),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 17, 14, 0, h64_s12_0, NULL), KL_ALU(16, 16, 17),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 18, 14, 0, h64_s12_1, NULL), KL_ALU(16, 16, 18),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 19, 14, 0, h64_s12_2, NULL), KL_ALU(16, 16, 19),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 20, 14, 0, h64_s12_3, NULL), KL_ALU(16, 16, 20), KL_ALU(15, 15, 0),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 17, 14, 0, h64_s13_0, NULL), KL_ALU(16, 16, 17),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 18, 14, 0, h64_s13_1, NULL), KL_ALU(16, 16, 18),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 19, 14, 0, h64_s13_2, NULL), KL_ALU(16, 16, 19),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 20, 14, 0, h64_s13_3, NULL), KL_ALU(16, 16, 20), KL_ALU(15, 15, 0),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 17, 14, 0, h64_s14_0, NULL), KL_ALU(16, 16, 17),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 18, 14, 0, h64_s14_1, NULL), KL_ALU(16, 16, 18),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 19, 14, 0, h64_s14_2, NULL), KL_ALU(16, 16, 19),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 20, 14, 0, h64_s14_3, NULL), KL_ALU(16, 16, 20), KL_ALU(15, 15, 0),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 17, 14, 0, h64_s15_0, NULL), KL_ALU(16, 16, 17),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 18, 14, 0, h64_s15_1, NULL), KL_ALU(16, 16, 18),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 19, 14, 0, h64_s15_2, NULL), KL_ALU(16, 16, 19),
    MW_KL_I(MW_OP_LD_SHARED, 1, 1, 1, 20, 14, 0, h64_s15_3, NULL), KL_ALU(16, 16, 20), KL_ALU(15, 15, 0),
    KL_ALU(18, 2, 1), KL_STG(16, 18, h64_part, NULL),
};

/* ---- mergeHistogram64Kernel / mergeHistogram256Kernel: block b sums bin b of the count partial histograms of
 * `bins` bins (i = tid, tid + 256, ...), then a tree over data[256] (a __syncthreads before each of the 8 steps,
 * the step's lanes predicated) and thread 0 stores d_Histogram[b] ---- */
struct mg {
    struct hg g;
    int64_t bins;
};
MW_KL_PRED(m_any, struct mg, TID < P->g.count)
MW_KL_TRIPS(m_trips, struct mg, (P->g.count - TID + MERGE - 1) / MERGE)
MW_KL_PRED(m_in, struct mg, TID + lc[0] * MERGE < P->g.count)
MW_KL_ADDR(m_part, struct mg, F4(P->g.partial, BID + (TID + lc[0] * MERGE) * P->bins))
MW_KL_ADDR(m_me, struct mg, F4(0, TID))
MW_KL_PRED(m_t0, struct mg, TID == 0)
MW_KL_ADDR(m_zero, struct mg, 0)
MW_KL_ADDR(m_hist, struct mg, F4(P->g.hist, BID))
MW_KL_PRED(m_p128, struct mg, TID < 128)
MW_KL_ADDR(m_s128, struct mg, F4(0, TID + 128))
MW_KL_PRED(m_p64, struct mg, TID < 64)
MW_KL_ADDR(m_s64, struct mg, F4(0, TID + 64))
MW_KL_PRED(m_p32, struct mg, TID < 32)
MW_KL_ADDR(m_s32, struct mg, F4(0, TID + 32))
MW_KL_PRED(m_p16, struct mg, TID < 16)
MW_KL_ADDR(m_s16, struct mg, F4(0, TID + 16))
MW_KL_PRED(m_p8, struct mg, TID < 8)
MW_KL_ADDR(m_s8, struct mg, F4(0, TID + 8))
MW_KL_PRED(m_p4, struct mg, TID < 4)
MW_KL_ADDR(m_s4, struct mg, F4(0, TID + 4))
MW_KL_PRED(m_p2, struct mg, TID < 2)
MW_KL_ADDR(m_s2, struct mg, F4(0, TID + 2))
MW_KL_PRED(m_p1, struct mg, TID < 1)
MW_KL_ADDR(m_s1, struct mg, F4(0, TID + 1))
static const struct mw_kl_op merge_ops[] = {
    KL_ALU(1, 0, 0), KL_ALU(2, 0, 0), KL_ALU(3, 0, 0), KL_ALU(4, 1, 0),
    KL_LOOP(m_trips, m_any, 4), KL_IF(m_in, 4), KL_ALU(5, 4, 0), KL_ALU(5, 5, 2), KL_LDG(6, 5, m_part, NULL),
    KL_ALU(3, 3, 6), KL_END, KL_ALU(4, 4, 0), KL_END,
    KL_ALU(7, 1, 0), KL_STS(3, 7, m_me, NULL),
    KL_BAR, KL_ALUP(8, 1, 0, m_p128), MW_KL_I(MW_OP_LD_SHARED, 4, 1, 1, 9, 7, 0, m_s128, m_p128),
    MW_KL_I(MW_OP_LD_SHARED, 4, 1, 1, 10, 7, 0, m_me, m_p128), KL_ALUP(10, 10, 9, m_p128),
    MW_KL_I(MW_OP_ST_SHARED, 4, 0, 2, 0, 7, 10, m_me, m_p128),
    KL_BAR, KL_ALUP(8, 1, 0, m_p64), MW_KL_I(MW_OP_LD_SHARED, 4, 1, 1, 9, 7, 0, m_s64, m_p64),
    MW_KL_I(MW_OP_LD_SHARED, 4, 1, 1, 10, 7, 0, m_me, m_p64), KL_ALUP(10, 10, 9, m_p64),
    MW_KL_I(MW_OP_ST_SHARED, 4, 0, 2, 0, 7, 10, m_me, m_p64),
    KL_BAR, KL_ALUP(8, 1, 0, m_p32), MW_KL_I(MW_OP_LD_SHARED, 4, 1, 1, 9, 7, 0, m_s32, m_p32),
    MW_KL_I(MW_OP_LD_SHARED, 4, 1, 1, 10, 7, 0, m_me, m_p32), KL_ALUP(10, 10, 9, m_p32),
    MW_KL_I(MW_OP_ST_SHARED, 4, 0, 2, 0, 7, 10, m_me, m_p32),
    KL_BAR, KL_ALUP(8, 1, 0, m_p16), MW_KL_I(MW_OP_LD_SHARED, 4, 1, 1, 9, 7, 0, m_s16, m_p16),
    MW_KL_I(MW_OP_LD_SHARED, 4, 1, 1, 10, 7, 0, m_me, m_p16), KL_ALUP(10, 10, 9, m_p16),
    MW_KL_I(MW_OP_ST_SHARED, 4, 0, 2, 0, 7, 10, m_me, m_p16),
    KL_BAR, KL_ALUP(8, 1, 0, m_p8), MW_KL_I(MW_OP_LD_SHARED, 4, 1, 1, 9, 7, 0, m_s8, m_p8),
    MW_KL_I(MW_OP_LD_SHARED, 4, 1, 1, 10, 7, 0, m_me, m_p8), KL_ALUP(10, 10, 9, m_p8),
    MW_KL_I(MW_OP_ST_SHARED, 4, 0, 2, 0, 7, 10, m_me, m_p8),
    KL_BAR, KL_ALUP(8, 1, 0, m_p4), MW_KL_I(MW_OP_LD_SHARED, 4, 1, 1, 9, 7, 0, m_s4, m_p4),
    MW_KL_I(MW_OP_LD_SHARED, 4, 1, 1, 10, 7, 0, m_me, m_p4), KL_ALUP(10, 10, 9, m_p4),
    MW_KL_I(MW_OP_ST_SHARED, 4, 0, 2, 0, 7, 10, m_me, m_p4),
    KL_BAR, KL_ALUP(8, 1, 0, m_p2), MW_KL_I(MW_OP_LD_SHARED, 4, 1, 1, 9, 7, 0, m_s2, m_p2),
    MW_KL_I(MW_OP_LD_SHARED, 4, 1, 1, 10, 7, 0, m_me, m_p2), KL_ALUP(10, 10, 9, m_p2),
    MW_KL_I(MW_OP_ST_SHARED, 4, 0, 2, 0, 7, 10, m_me, m_p2),
    KL_BAR, KL_ALUP(8, 1, 0, m_p1), MW_KL_I(MW_OP_LD_SHARED, 4, 1, 1, 9, 7, 0, m_s1, m_p1),
    MW_KL_I(MW_OP_LD_SHARED, 4, 1, 1, 10, 7, 0, m_me, m_p1), KL_ALUP(10, 10, 9, m_p1),
    MW_KL_I(MW_OP_ST_SHARED, 4, 0, 2, 0, 7, 10, m_me, m_p1),
    KL_ALU(11, 1, 0), KL_IF(m_t0, 11), KL_LDS(12, 0, m_zero, NULL), KL_STG(12, 2, m_hist, NULL), KL_END,
};

/* ---- histogram256Kernel ---- */
#define WARP_BASE ((int64_t)t->warp * 256) /* s_WarpHist = s_Hist + (threadIdx.x >> 5) * 256 */
MW_KL_ADDR(h256_data, struct hg, F4(P->data, POS))
MW_KL_ADDR(h256_z0, struct hg, F4(0, TID + 0 * T256))
MW_KL_ADDR(h256_z1, struct hg, F4(0, TID + 1 * T256))
MW_KL_ADDR(h256_z2, struct hg, F4(0, TID + 2 * T256))
MW_KL_ADDR(h256_z3, struct hg, F4(0, TID + 3 * T256))
MW_KL_ADDR(h256_z4, struct hg, F4(0, TID + 4 * T256))
MW_KL_ADDR(h256_z5, struct hg, F4(0, TID + 5 * T256))
MW_KL_ADDR(h256_z6, struct hg, F4(0, TID + 6 * T256))
MW_KL_ADDR(h256_z7, struct hg, F4(0, TID + 7 * T256))

/* Byte k of the word lane l of the thread's warp reads at iteration it, or -1 when the lane is past the data. */
static int bin_of(const struct mw_tctx *t, const struct hg *P, int64_t it, int l, int k)
{
    int64_t pos = (int64_t)t->ctaid[0] * t->ntid[0] + t->warp * 32 + l + it * P->nthreads;
    if (t->warp * 32 + l >= (int64_t)t->ntid[0] || pos >= P->count) return -1;
    return (int)P->bytes[pos * 4 + k];
}
static int64_t rank_of(const struct mw_tctx *t, const struct hg *P, int64_t it, int k)
{
    return P->rank[((int64_t)t->gtid + it * P->nthreads) * 4 + k];
}
/* The tag loop's passes for the warp: the largest multiplicity of a bin among its lanes. */
static int64_t passes(const struct mw_tctx *t, const struct hg *P, int64_t it, int k)
{
    int64_t best = 0;
    for (int l = 0; l < 32; l++)
        if (bin_of(t, P, it, l, k) >= 0) {
            int64_t pos = (int64_t)t->ctaid[0] * t->ntid[0] + t->warp * 32 + l + it * P->nthreads;
            if (P->rank[pos * 4 + k] + 1 > best) best = P->rank[pos * 4 + k] + 1;
        }
    return best;
}
MW_KL_TRIPS(h256_n0, struct hg, passes(t, P, lc[0], 0))
MW_KL_PRED(h256_p0, struct hg, rank_of(t, P, lc[0], 0) >= lc[1])
MW_KL_ADDR(h256_b0, struct hg, F4(0, WARP_BASE + bin_of(t, P, lc[0], (int)t->lane, 0)))
MW_KL_TRIPS(h256_n1, struct hg, passes(t, P, lc[0], 1))
MW_KL_PRED(h256_p1, struct hg, rank_of(t, P, lc[0], 1) >= lc[1])
MW_KL_ADDR(h256_b1, struct hg, F4(0, WARP_BASE + bin_of(t, P, lc[0], (int)t->lane, 1)))
MW_KL_TRIPS(h256_n2, struct hg, passes(t, P, lc[0], 2))
MW_KL_PRED(h256_p2, struct hg, rank_of(t, P, lc[0], 2) >= lc[1])
MW_KL_ADDR(h256_b2, struct hg, F4(0, WARP_BASE + bin_of(t, P, lc[0], (int)t->lane, 2)))
MW_KL_TRIPS(h256_n3, struct hg, passes(t, P, lc[0], 3))
MW_KL_PRED(h256_p3, struct hg, rank_of(t, P, lc[0], 3) >= lc[1])
MW_KL_ADDR(h256_b3, struct hg, F4(0, WARP_BASE + bin_of(t, P, lc[0], (int)t->lane, 3)))
MW_KL_TRIPS(h256_bins, struct hg, (256 - TID + T256 - 1) / T256)
MW_KL_ADDR(h256_part, struct hg, F4(P->partial, BID * 256 + TID + lc[0] * T256))
MW_KL_ADDR(h256_s0, struct hg, F4(0, TID + lc[0] * T256 + 0 * 256))
MW_KL_ADDR(h256_s1, struct hg, F4(0, TID + lc[0] * T256 + 1 * 256))
MW_KL_ADDR(h256_s2, struct hg, F4(0, TID + lc[0] * T256 + 2 * 256))
MW_KL_ADDR(h256_s3, struct hg, F4(0, TID + lc[0] * T256 + 3 * 256))
MW_KL_ADDR(h256_s4, struct hg, F4(0, TID + lc[0] * T256 + 4 * 256))
MW_KL_ADDR(h256_s5, struct hg, F4(0, TID + lc[0] * T256 + 5 * 256))

static const struct mw_kl_op h256_ops[] = {
    /* r1 tid, r2 ctaid, r3 &s_WarpHist, r4 pos, r5 stride, r6 tag; zero the 6 x 256 counters (8 a thread) */
    KL_ALU(1, 0, 0), KL_ALU(2, 0, 0), KL_ALU(3, 1, 0), KL_ALU(4, 2, 1), KL_ALU(5, 0, 0), KL_ALU(8, 1, 0),
    KL_STS(0, 8, h256_z0, NULL), KL_STS(0, 8, h256_z1, NULL), KL_STS(0, 8, h256_z2, NULL),
    KL_STS(0, 8, h256_z3, NULL), KL_STS(0, 8, h256_z4, NULL), KL_STS(0, 8, h256_z5, NULL),
    KL_STS(0, 8, h256_z6, NULL), KL_STS(0, 8, h256_z7, NULL),
    KL_ALU(6, 1, 0), KL_BAR, KL_ALU(7, 4, 0),
    KL_LOOP(g_trips, NULL, 7), KL_IF(g_in, 7),
    KL_ALU(9, 4, 0), KL_LDG(10, 9, h256_data, NULL),
    /* per byte: the bin, then do { count = (s[bin] & TAG_MASK) + 1 | tag; s[bin] = count; } while (s[bin] != count) */
    KL_ALU(11, 10, 0), KL_ALU(12, 11, 3), KL_LOOP(h256_n0, NULL, 12),
    KL_LDS(13, 12, h256_b0, h256_p0), KL_ALUP(13, 13, 0, h256_p0), KL_ALUP(13, 13, 0, h256_p0),
    KL_ALUP(13, 13, 6, h256_p0), KL_STS(13, 12, h256_b0, h256_p0), KL_LDS(14, 12, h256_b0, h256_p0),
    KL_ALUP(15, 14, 13, h256_p0), KL_END,
    KL_ALU(11, 10, 0), KL_ALU(12, 11, 3), KL_LOOP(h256_n1, NULL, 12),
    KL_LDS(13, 12, h256_b1, h256_p1), KL_ALUP(13, 13, 0, h256_p1), KL_ALUP(13, 13, 0, h256_p1),
    KL_ALUP(13, 13, 6, h256_p1), KL_STS(13, 12, h256_b1, h256_p1), KL_LDS(14, 12, h256_b1, h256_p1),
    KL_ALUP(15, 14, 13, h256_p1), KL_END,
    KL_ALU(11, 10, 0), KL_ALU(12, 11, 3), KL_LOOP(h256_n2, NULL, 12),
    KL_LDS(13, 12, h256_b2, h256_p2), KL_ALUP(13, 13, 0, h256_p2), KL_ALUP(13, 13, 0, h256_p2),
    KL_ALUP(13, 13, 6, h256_p2), KL_STS(13, 12, h256_b2, h256_p2), KL_LDS(14, 12, h256_b2, h256_p2),
    KL_ALUP(15, 14, 13, h256_p2), KL_END,
    KL_ALU(11, 10, 0), KL_ALU(12, 11, 3), KL_LOOP(h256_n3, NULL, 12),
    KL_LDS(13, 12, h256_b3, h256_p3), KL_ALUP(13, 13, 0, h256_p3), KL_ALUP(13, 13, 0, h256_p3),
    KL_ALUP(13, 13, 6, h256_p3), KL_STS(13, 12, h256_b3, h256_p3), KL_LDS(14, 12, h256_b3, h256_p3),
    KL_ALUP(15, 14, 13, h256_p3), KL_END,
    KL_END, KL_ALU(4, 4, 5), KL_ALU(7, 4, 0), KL_END,
    KL_BAR, KL_ALU(16, 1, 0), KL_LOOP(h256_bins, NULL, 16), KL_ALU(17, 0, 0),
    KL_LDS(18, 16, h256_s0, NULL), KL_ALU(18, 18, 0), KL_ALU(17, 17, 18), KL_LDS(18, 16, h256_s1, NULL),
    KL_ALU(18, 18, 0), KL_ALU(17, 17, 18), KL_LDS(18, 16, h256_s2, NULL), KL_ALU(18, 18, 0), KL_ALU(17, 17, 18),
    KL_LDS(18, 16, h256_s3, NULL), KL_ALU(18, 18, 0), KL_ALU(17, 17, 18), KL_LDS(18, 16, h256_s4, NULL),
    KL_ALU(18, 18, 0), KL_ALU(17, 17, 18), KL_LDS(18, 16, h256_s5, NULL), KL_ALU(18, 18, 0), KL_ALU(17, 17, 18),
    KL_ALU(19, 2, 16), KL_STG(17, 19, h256_part, NULL), KL_ALU(16, 16, 0), KL_END,
};

struct owned {
    struct mg d[4];
    uint8_t *bytes, *rank;
};
static void free_owned(void *p)
{
    struct owned *o = p;
    free(o->bytes), free(o->rank), free(o);
}

/* The input bytes of a seed and their ranks in their 32-word groups (the byte count is a multiple of 128). */
static int make_input(struct owned *o, int64_t bytes, uint64_t seed)
{
    o->bytes = malloc((size_t)bytes), o->rank = malloc((size_t)bytes);
    if (!o->bytes || !o->rank) return -1;
    for (int64_t i = 0; i < bytes / 4; i++) {
        uint32_t v = word(seed, (uint64_t)i);
        for (int k = 0; k < 4; k++) o->bytes[i * 4 + k] = (uint8_t)(v >> (8 * k));
    }
    for (int64_t g = 0; g < bytes; g += 128)
        for (int k = 0; k < 4; k++) {
            uint8_t seen[256] = {0};
            for (int l = 0; l < 32; l++) {
                int64_t b = g + l * 4 + k;
                o->rank[b] = seen[o->bytes[b]]++;
            }
        }
    return 0;
}

int mw_wl_sdk_histogram(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    static const int64_t bytes_of[4] = {64 << 10, 4 << 20, 64 << 20, 64 << 20};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    int64_t bytes = bytes_of[sz];
    /* histogramCount = iDivUp(byteCount, 64 * iSnapDown(255, 16)) */
    int64_t hc = (bytes + B64 * 240 - 1) / (B64 * 240);
    struct owned *o = calloc(1, sizeof *o);
    if (!o) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    if (make_input(o, bytes, seed) < 0) {
        free_owned(o);
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    }
    struct mg *d = o->d;
    struct mw_kgen_program p = {.owned = o, .free_owned = free_owned};
    /* device memory: d_Data, d_Histogram, then each init*'s d_PartialHistograms (64: 32768 x 64 words) */
    uint64_t data = 0x10000000ull, hist = data + (uint64_t)bytes, part64 = hist + 256 * 4,
             part256 = part64 + 32768ull * 64 * 4;
    d[0].g = (struct hg){{h64_ops, (int)(sizeof h64_ops / sizeof h64_ops[0])}, seed, bytes / 16, hc * B64, data,
                         part64, hist, o->bytes, o->rank};
    d[1].g = (struct hg){{merge_ops, (int)(sizeof merge_ops / sizeof merge_ops[0])}, seed, hc, 0, data, part64,
                         hist, o->bytes, o->rank};
    d[1].bins = 64;
    d[2].g = (struct hg){{h256_ops, (int)(sizeof h256_ops / sizeof h256_ops[0])}, seed, bytes / 4, PARTIAL256 * T256,
                         data, part256, hist, o->bytes, o->rank};
    d[3].g = (struct hg){{merge_ops, (int)(sizeof merge_ops / sizeof merge_ops[0])}, seed, PARTIAL256, 0, data, part256,
                         hist, o->bytes, o->rank};
    d[3].bins = 256;
    static const char *const names[4] = {"histogram64Kernel", "mergeHistogram64Kernel", "histogram256Kernel",
                                         "mergeHistogram256Kernel"};
    const uint32_t grid[4] = {(uint32_t)hc, 64, PARTIAL256, 256}, block[4] = {B64, MERGE, T256, MERGE};
    const uint32_t regs[4] = {20, 8, 16, 8}, shmem[4] = {B64 * 64, MERGE * 4, WARPS * 256 * 4, MERGE * 4};
    for (int i = 0; i < 4; i++) {
        struct mw_kgen_kernel *k = mw_kgen_append(&p);
        if (!k) {
            free(p.kernels), free_owned(o);
            return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
        }
        snprintf(k->k.name, sizeof k->k.name, "%s", names[i]);
        k->k.grid[0] = grid[i], k->k.grid[1] = 1, k->k.grid[2] = 1;
        k->k.block[0] = block[i], k->k.block[1] = 1, k->k.block[2] = 1;
        k->k.nregs = regs[i];
        k->k.shmem = shmem[i];
        mw_kloop_kernel(k, &d[i].g.h);
    }
    return mw_kgen_workload(w, "sdk.histogram", &p, e);
}
