/* CUDA SDK models (sdk.*) checked against facts derived by hand from the samples' CUDA kernels: launch sequences and
 * shapes, loads and stores per thread, distinct 128 B lines per warp access (coalescing), shared-memory footprints
 * and bank conflicts, barriers, determinism. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "workload.h"
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wlwalk.h"

/* Per-launch totals: lanes of each access kind, SFU lanes, barrier warp instructions, the line counts of global
 * accesses, the worst shared-memory bank conflict (distinct words in one bank), a hash of the stream. */
#define MAXL 8
struct lt {
    struct mw_kernel k;
    uint64_t warp_insts, loads0; /* loads0: global loads of thread 0 of CTA 0 */
    uint64_t ld, st, lds, sts, sfu, bars, lds_insts, sts_insts;
    uint32_t ld_minl, ld_maxl, st_minl, st_maxl, ld_width;
    uint32_t lds_ways, sts_ways;
    uint64_t shmax, gmin; /* gmin: lowest global load address */
};
struct tally {
    struct lt k[MAXL];
    uint64_t hash;
    uint64_t bins64[64];   /* histogram64Kernel's byte-counter increments per bin */
    uint64_t first_ld[MAXL]; /* address of lane 0's first global load in CTA 1, warp 0 */
};

static uint32_t bank_ways(const struct mw_inst *in)
{
    uint64_t words[MW_WARP_SIZE];
    int n = 0;
    uint32_t best = 0;
    for (int l = 0; l < MW_WARP_SIZE; l++) {
        if (!(in->mask >> l & 1u)) continue;
        uint64_t w = in->addr[l] / 4;
        bool dup = false;
        for (int i = 0; i < n; i++) dup |= words[i] == w;
        if (!dup) words[n++] = w;
    }
    for (int i = 0; i < n; i++) {
        uint32_t c = 0;
        for (int j = 0; j < n; j++) c += words[j] % 32 == words[i] % 32;
        if (c > best) best = c;
    }
    return best;
}

static void tally_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    struct tally *t = arg;
    assert_true(walk_kernel < MAXL);
    struct lt *s = &t->k[walk_kernel];
    if (s->ld_minl == 0) s->ld_minl = s->st_minl = 99, s->gmin = UINT64_MAX, s->k = *k;
    s->warp_insts++;
    uint64_t lanes = (uint64_t)__builtin_popcount(in->mask);
    t->hash = t->hash * 1099511628211ull ^ in->pc ^ (uint64_t)in->mask << 20 ^ in->op;
    if (mw_op_is_mem(in->op))
        for (int l = 0; l < MW_WARP_SIZE; l++)
            if (in->mask >> l & 1u) t->hash = t->hash * 31 + in->addr[l];
    switch (in->op) {
    case MW_OP_LD_GLOBAL:
    case MW_OP_ST_GLOBAL: {
        uint32_t n = lines_of(in);
        bool ld = in->op == MW_OP_LD_GLOBAL;
        if (ld) {
            s->ld += lanes, s->ld_width = in->width;
            if (n < s->ld_minl) s->ld_minl = n;
            if (n > s->ld_maxl) s->ld_maxl = n;
            if (walk_cta == 0 && walk_warp == 0 && (in->mask & 1u)) s->loads0++;
            if (walk_cta == 1 && walk_warp == 0 && !t->first_ld[walk_kernel] && (in->mask & 1u))
                t->first_ld[walk_kernel] = in->addr[0];
        } else {
            s->st += lanes;
            if (n < s->st_minl) s->st_minl = n;
            if (n > s->st_maxl) s->st_maxl = n;
        }
        for (int l = 0; l < MW_WARP_SIZE && ld; l++)
            if ((in->mask >> l & 1u) && in->addr[l] < s->gmin) s->gmin = in->addr[l];
        break;
    }
    case MW_OP_LD_SHARED:
    case MW_OP_ST_SHARED: {
        bool ld = in->op == MW_OP_LD_SHARED;
        uint32_t ways = bank_ways(in);
        if (ld) s->lds += lanes, s->lds_insts++, s->lds_ways = ways > s->lds_ways ? ways : s->lds_ways;
        else s->sts += lanes, s->sts_insts++, s->sts_ways = ways > s->sts_ways ? ways : s->sts_ways;
        for (int l = 0; l < MW_WARP_SIZE; l++) {
            if (!(in->mask >> l & 1u)) continue;
            assert_true(in->addr[l] + in->width <= k->shmem);
            if (in->addr[l] + in->width > s->shmax) s->shmax = in->addr[l] + in->width;
            if (!ld && in->width == 1 && walk_kernel == 0) t->bins64[in->addr[l] / 64]++;
        }
        break;
    }
    case MW_OP_SFU: s->sfu += lanes; break;
    case MW_OP_BARRIER: s->bars++; break;
    default: break;
    }
}

/* Walk a workload into t (the models have more PCs than wlwalk's per-PC tables hold: per-launch totals only). */
static int run(const char *name, const char *size, uint64_t seed, struct tally *t)
{
    struct kstat none[1];
    memset(t, 0, sizeof *t);
    return walk(name, size, seed, none, 0, tally_cb, t);
}

/* The same seed gives the same stream; these models' addresses do not depend on data, so another seed gives the
 * same stream too (histogram's do: checked there). */
static void check_determinism(const char *name, const struct tally *t1, bool seeded)
{
    struct tally t2, t3;
    run(name, "tiny", 1, &t2);
    run(name, "tiny", 2, &t3);
    assert_true(t1->hash == t2.hash);
    assert_true(seeded ? t1->hash != t3.hash : t1->hash == t3.hash);
    assert_true(t1->hash != 0);
}

/* vectorAdd tiny: 5000 elements, 256 threads a block: ceil(5000 / 256) = 20 blocks; the last block has 5000 - 19 *
 * 256 = 136 threads in range: warps 0-3 full, warp 4 with 8 lanes, warps 5-7 none. Per thread in range two loads
 * and a store, each a warp's 32 consecutive floats: one 128 B line (the arrays are 256 B aligned). Warp
 * instructions: 4 index instructions, the branch of if (i < n), 8 in the body, the EXIT: 14 for the 157 warps
 * with lanes in range, 6 for the 3 without. */
static void test_vectoradd(void **state)
{
    (void)state;
    struct tally t;
    assert_int_equal(run("sdk.vectoradd", "tiny", 1, &t), 1);
    assert_string_equal(t.k[0].k.name, "vectorAdd");
    check_shape(&t.k[0].k, 20, 1, 256, 1);
    assert_int_equal(t.k[0].k.shmem, 0);
    assert_int_equal(t.k[0].ld, 2 * 5000);
    assert_int_equal(t.k[0].st, 5000);
    assert_int_equal(t.k[0].ld_maxl, 1);
    assert_int_equal(t.k[0].st_maxl, 1);
    assert_int_equal(t.k[0].loads0, 2);
    assert_int_equal(t.k[0].warp_insts, 157 * 14 + 3 * 6);
    check_determinism("sdk.vectoradd", &t, false);
    struct mw_kernel k[2];
    assert_int_equal(shapes("sdk.vectoradd", "default", k, 2), 1);
    check_shape(&k[0], 196, 1, 256, 1); /* 50000 elements */
}

/* scalarProd: scalarProdGPU<<<128, 256>>>, 4 KB of shared memory (accumResult[1024]). Tiny: 32 vectors of 1024:
 * blocks 0-31 one vector each, blocks 32-127 none; each thread fills 4 accumulators (iAccum = tid + 256 k) of one
 * element each: 8 loads a thread, one line a warp load. The tree: strides 512 .. 1 (10 steps, a __syncthreads
 * before each, one after) reads 2 * 1023 words and writes 1023, after 1024 accumulator stores; thread 0 reads
 * accumResult[0] and stores d_C[vec]. Strides 512 and 256 keep every warp busy (tid < stride, warp-uniform): a warp
 * reads accumResult[tid] and [tid + stride], 32 consecutive words, no bank conflict. Small: 256 vectors of 1024,
 * two vectors a block (vec = blockIdx.x, blockIdx.x + 128). */
static void test_scalarprod(void **state)
{
    (void)state;
    struct tally t;
    assert_int_equal(run("sdk.scalarprod", "tiny", 1, &t), 1);
    assert_string_equal(t.k[0].k.name, "scalarProdGPU");
    check_shape(&t.k[0].k, 128, 1, 256, 1);
    assert_int_equal(t.k[0].k.shmem, 4096);
    const uint64_t V = 32;
    assert_int_equal(t.k[0].ld, V * 2 * 1024);
    assert_int_equal(t.k[0].st, V);
    assert_int_equal(t.k[0].ld_maxl, 1);
    assert_int_equal(t.k[0].lds, V * (2 * 1023 + 1));
    assert_int_equal(t.k[0].sts, V * (1024 + 1023));
    assert_int_equal(t.k[0].bars, V * 8 * 11);
    assert_int_equal(t.k[0].lds_ways, 1);
    assert_int_equal(t.k[0].shmax, 4096);
    assert_int_equal(t.k[0].loads0, 8);
    check_determinism("sdk.scalarprod", &t, false);
    assert_int_equal(run("sdk.scalarprod", "small", 1, &t), 1);
    assert_int_equal(t.k[0].ld, 256 * 2 * 1024);
    assert_int_equal(t.k[0].st, 256);
    assert_int_equal(t.k[0].bars, 256 * 8 * 11);
    assert_int_equal(t.k[0].loads0, 16);
}

/* BlackScholes tiny: BlackScholesGPU<<<480, 128>>> over 100000 options, 61440 threads: threads 0 .. 38559 (1205
 * whole warps) price two options (opt = tid, tid + 61440), the others one. Per option three loads and two stores of
 * consecutive floats (one line a warp access) and 10 SFU operations: sqrtf(T) (rsqrt and reciprocal), the
 * reciprocals of the S / X and d1 divisions, __logf, two per cumulative normal (the reciprocal in K, __expf) and
 * __expf(-R T). */
static void test_blackscholes(void **state)
{
    (void)state;
    struct tally t;
    assert_int_equal(run("sdk.blackscholes", "tiny", 1, &t), 1);
    assert_string_equal(t.k[0].k.name, "BlackScholesGPU");
    check_shape(&t.k[0].k, 480, 1, 128, 1);
    const uint64_t N = 100000;
    assert_int_equal(t.k[0].ld, 3 * N);
    assert_int_equal(t.k[0].st, 2 * N);
    assert_int_equal(t.k[0].sfu, 10 * N);
    assert_int_equal(t.k[0].ld_maxl, 1);
    assert_int_equal(t.k[0].st_maxl, 1);
    assert_int_equal(t.k[0].loads0, 6);
    /* loads start at d_StockPrice, the third array of 100000 floats (400128 B with 256 B alignment) */
    assert_int_equal(t.k[0].gmin, 0x10000000ull + 2 * 400128);
    check_determinism("sdk.blackscholes", &t, false);
    struct mw_kernel k[2];
    assert_int_equal(shapes("sdk.blackscholes", "default", k, 2), 1);
    check_shape(&k[0], 480, 1, 128, 1);
}

/* reduction tiny: n = 2^16 ints. getNumBlocksAndThreads(6, 65536, 64, 256): 256 threads, min(64, 65536 / 512) = 64
 * blocks; each thread loads g_idata[i] and g_idata[i + 256] for i = 512 blockIdx.x + tid + 32768 j, j = 0, 1 (4
 * loads; all 65536 elements once, one line a warp load). Then 64 partial sums: 32 threads (nextPow2(32)), one
 * block, 2 * 32 ints of shared memory. reduce6<256>: __syncthreads after sdata[tid] = mySum and after the steps
 * tid < 128 and tid < 64 (3 a warp); shared reads 128 + 64 + 6 * 32 (the last warp's six steps, all 32 lanes) + 1
 * (thread 0's sdata[0]). reduce6<32>: one __syncthreads, the last warp's steps 16 .. 1 (5 * 32 reads) + 1. */
static void test_reduction(void **state)
{
    (void)state;
    struct tally t;
    assert_int_equal(run("sdk.reduction", "tiny", 1, &t), 2);
    assert_string_equal(t.k[0].k.name, "reduce6<int,256,true>");
    assert_string_equal(t.k[1].k.name, "reduce6<int,32,true>");
    check_shape(&t.k[0].k, 64, 1, 256, 1);
    check_shape(&t.k[1].k, 1, 1, 32, 1);
    assert_int_equal(t.k[0].k.shmem, 256 * 4);
    assert_int_equal(t.k[1].k.shmem, 2 * 32 * 4);
    assert_int_equal(t.k[0].ld, 65536);
    assert_int_equal(t.k[0].ld_maxl, 1);
    assert_int_equal(t.k[0].loads0, 4);
    assert_int_equal(t.k[0].st, 64);
    assert_int_equal(t.k[0].bars, 64 * 8 * 3);
    assert_int_equal(t.k[0].lds, 64 * (128 + 64 + 6 * 32 + 1));
    assert_int_equal(t.k[0].sts, 64 * (256 + 128 + 64 + 6 * 32));
    assert_int_equal(t.k[1].ld, 64);
    assert_int_equal(t.k[1].st, 1);
    assert_int_equal(t.k[1].bars, 1);
    assert_int_equal(t.k[1].lds, 5 * 32 + 1);
    /* the second pass reads the first pass's output, g_odata (after the 256 KB input) */
    assert_int_equal(t.k[1].gmin, 0x10000000ull + 65536 * 4);
    check_determinism("sdk.reduction", &t, false);
    /* 2^24 ints: 64 blocks of 256 (512 loop trips a thread), then the same 32-thread pass */
    struct mw_kernel k[4];
    assert_int_equal(shapes("sdk.reduction", "default", k, 4), 2);
    check_shape(&k[0], 64, 1, 256, 1);
    check_shape(&k[1], 1, 1, 32, 1);
}

/* transpose tiny: 128 x 128 floats, grid 4 x 4 of 32 x 16 threads, 2 elements a thread; a warp is one row of the
 * tile (tx = 0 .. 31). Naive: reads a row (1 line), writes a column (index_out = yIndex + 128 xIndex: 32 lines).
 * Coalesced: rows in, rows out (1 line each); its shared tile [32][32] is read down a column (tile[tx][ty + i]:
 * the 32 words are 32 apart, all in one bank: 32-way), the padded [32][33] tile has no conflict. The diagonal kernel
 * gives CTA (1, 0) the tile blockIdx_x = (1 + 0) % 4 = 1, blockIdx_y = 1: its first load is idata[32 + 128 * 32]. */
static void test_transpose(void **state)
{
    (void)state;
    struct tally t;
    assert_int_equal(run("sdk.transpose", "tiny", 1, &t), 4);
    static const char *const names[4] = {"transposeNaive", "transposeCoalesced", "transposeNoBankConflicts",
                                         "transposeDiagonal"};
    for (int i = 0; i < 4; i++) {
        assert_string_equal(t.k[i].k.name, names[i]);
        check_shape(&t.k[i].k, 4, 4, 32, 16);
        assert_int_equal(t.k[i].ld, 128 * 128);
        assert_int_equal(t.k[i].st, 128 * 128);
        assert_int_equal(t.k[i].ld_maxl, 1);
        assert_int_equal(t.k[i].loads0, 2);
    }
    assert_int_equal(t.k[0].k.shmem, 0);
    assert_int_equal(t.k[1].k.shmem, 32 * 32 * 4);
    assert_int_equal(t.k[2].k.shmem, 32 * 33 * 4);
    assert_int_equal(t.k[0].st_minl, 32);
    assert_int_equal(t.k[0].lds, 0);
    for (int i = 1; i < 4; i++) {
        assert_int_equal(t.k[i].st_maxl, 1);
        assert_int_equal(t.k[i].lds, 128 * 128);
        assert_int_equal(t.k[i].sts, 128 * 128);
        assert_int_equal(t.k[i].bars, 16 * 16);
        assert_int_equal(t.k[i].sts_ways, 1);
        assert_int_equal(t.k[i].lds_ways, i == 1 ? 32 : 1);
    }
    assert_int_equal(t.first_ld[1], 0x10000000ull + 32 * 4);          /* CTA (1, 0): tile (1, 0) */
    assert_int_equal(t.first_ld[3], 0x10000000ull + (32 + 128 * 32) * 4); /* diagonal: tile (1, 1) */
    check_determinism("sdk.transpose", &t, false);
    struct mw_kernel k[4];
    assert_int_equal(shapes("sdk.transpose", "default", k, 4), 4);
    check_shape(&k[0], 32, 32, 32, 16); /* 1024 x 1024 */
}

/* convolutionSeparable tiny: 256 x 256. Rows: grid (256 / 128, 256 / 4) = (2, 64) of 16 x 4 threads, 4 x 160 floats
 * of shared memory; 8192 threads, each 8 main loads and 8 results. The left halo (baseX = (8 blockIdx.x - 1) 16 +
 * tx >= 0) loads only in the blocks with blockIdx.x = 1, the right one (256 - baseX > 144) only with blockIdx.x =
 * 0: one halo load a thread, 10 shared stores, 8 * 17 shared reads. A warp is two rows of 16 floats (64 B each,
 * 64 B aligned): 2 lines a load or store; the tile rows are 160 words apart, a multiple of 32: the two rows fall
 * on the same banks (2-way). Columns: grid (16, 4) of 16 x 8, 16 x 81 floats; 8192 threads; the upper halo (baseY =
 * (8 blockIdx.y - 1) 8 + ty >= 0) loads for blockIdx.y >= 1, the lower (256 - baseY > 72) for blockIdx.y <= 2:
 * 1.5 halo loads a thread on average; tile rows 81 words apart: bank (17 tx + ty + c) % 32, so lanes (tx, ty) and
 * (tx + 15, ty + 1) share a bank (17 * 15 + 1 = 256): 2-way, on every shared access of the kernel. */
static void test_convsep(void **state)
{
    (void)state;
    struct tally t;
    assert_int_equal(run("sdk.convsep", "tiny", 1, &t), 2);
    assert_string_equal(t.k[0].k.name, "convolutionRowsKernel");
    assert_string_equal(t.k[1].k.name, "convolutionColumnsKernel");
    check_shape(&t.k[0].k, 2, 64, 16, 4);
    check_shape(&t.k[1].k, 16, 4, 16, 8);
    assert_int_equal(t.k[0].k.shmem, 4 * 160 * 4);
    assert_int_equal(t.k[1].k.shmem, 16 * 81 * 4);
    const uint64_t T = 8192;
    assert_int_equal(t.k[0].ld, 9 * T);
    assert_int_equal(t.k[0].st, 8 * T);
    assert_int_equal(t.k[0].sts, 10 * T);
    assert_int_equal(t.k[0].lds, 8 * 17 * T);
    assert_int_equal(t.k[0].bars, 128 * 2);
    assert_int_equal(t.k[0].ld_minl, 2);
    assert_int_equal(t.k[0].ld_maxl, 2);
    assert_int_equal(t.k[0].st_maxl, 2);
    assert_int_equal(t.k[0].lds_ways, 2);
    assert_int_equal(t.k[0].shmax, 4 * 160 * 4);
    assert_int_equal(t.k[1].ld, 8 * T + 3 * T / 2);
    assert_int_equal(t.k[1].st, 8 * T);
    assert_int_equal(t.k[1].lds, 8 * 17 * T);
    assert_int_equal(t.k[1].ld_maxl, 2);
    assert_int_equal(t.k[1].lds_ways, 2);
    assert_int_equal(t.k[1].sts_ways, 2);
    /* block (0, 0) of the rows kernel: 8 main loads and the right halo */
    assert_int_equal(t.k[0].loads0, 9);
    /* rows read d_Input, columns read d_Buffer (after d_Input and d_Output) */
    assert_int_equal(t.k[0].gmin, 0x10000000ull);
    assert_int_equal(t.k[1].gmin, 0x10000000ull + 2 * 256 * 256 * 4);
    check_determinism("sdk.convsep", &t, false);
    struct mw_kernel k[2];
    assert_int_equal(shapes("sdk.convsep", "default", k, 2), 2);
    check_shape(&k[0], 24, 768, 16, 4); /* 3072 x 3072 */
    check_shape(&k[1], 192, 48, 16, 8);
}

/* histogram tiny: 64 KB. histogram64Kernel: ceil(65536 / (64 * 240)) = 5 blocks of 64, 4 KB of byte counters;
 * 4096 uint4 words over 320 threads (13 trips for threads 0 .. 255, 12 for the rest), each word one 16-byte load
 * (4 lines a warp) and 16 byte-counter increments (a byte load and store each) at s_Hist[(byte >> 2) * 64 +
 * threadPos]: the increments per bin are the histogram of the bytes' top 6 bits. Then 16 zeroing stores and 64
 * byte reads a thread, one partial-histogram store. mergeHistogram64Kernel: 64 blocks of 256 read 5 partial
 * sums each (lanes 256 B apart: 5 lines). histogram256Kernel: 240 blocks of 192, 6 KB; 16384 words over 46080
 * threads: one each for threads 0 .. 16383. A lane's tag loop makes rank + 1 passes (rank: lower lanes of its warp
 * with the same byte value), each 2 shared reads and a store; a warp makes as many passes as the largest
 * multiplicity among its lanes. mergeHistogram256Kernel: 256 blocks of 256 read 240 partial sums each. */
static void test_histogram(void **state)
{
    (void)state;
    struct tally t;
    assert_int_equal(run("sdk.histogram", "tiny", 1, &t), 4);
    static const char *const names[4] = {"histogram64Kernel", "mergeHistogram64Kernel", "histogram256Kernel",
                                         "mergeHistogram256Kernel"};
    for (int i = 0; i < 4; i++) assert_string_equal(t.k[i].k.name, names[i]);
    check_shape(&t.k[0].k, 5, 1, 64, 1);
    check_shape(&t.k[1].k, 64, 1, 256, 1);
    check_shape(&t.k[2].k, 240, 1, 192, 1);
    check_shape(&t.k[3].k, 256, 1, 256, 1);
    assert_int_equal(t.k[0].k.shmem, 64 * 64);
    assert_int_equal(t.k[2].k.shmem, 6 * 256 * 4);
    /* histogram64Kernel */
    assert_int_equal(t.k[0].ld, 4096);
    assert_int_equal(t.k[0].ld_width, 16);
    assert_int_equal(t.k[0].ld_maxl, 4);
    assert_int_equal(t.k[0].loads0, 13);
    assert_int_equal(t.k[0].sts, 16 * 4096 + 16 * 320);
    assert_int_equal(t.k[0].lds, 16 * 4096 + 64 * 320);
    assert_int_equal(t.k[0].st, 320);
    uint64_t want[64] = {0};
    for (uint64_t b = 0; b < 65536; b++) want[mw_wl_histogram_byte(1, b) >> 2]++;
    for (int i = 0; i < 64; i++) assert_int_equal(t.bins64[i], want[i]);
    /* mergeHistogram64Kernel */
    assert_int_equal(t.k[1].ld, 64 * 5);
    assert_int_equal(t.k[1].ld_maxl, 5);
    assert_int_equal(t.k[1].st, 64);
    assert_int_equal(t.k[1].bars, 64 * 8 * 8);
    /* histogram256Kernel: the tag loop from the bytes' multiplicities in each warp's 32 words */
    uint64_t lane_passes = 0, warp_passes = 0;
    for (uint64_t g = 0; g < 16384 / 32; g++)
        for (int k = 0; k < 4; k++) {
            uint32_t cnt[256] = {0}, best = 0;
            for (int l = 0; l < 32; l++) {
                uint32_t m = ++cnt[mw_wl_histogram_byte(1, (g * 32 + l) * 4 + k)];
                lane_passes += m; /* rank + 1 */
                if (m > best) best = m;
            }
            warp_passes += best;
        }
    assert_true(warp_passes > 4 * 512); /* some warps retry */
    assert_int_equal(t.k[2].ld, 16384);
    assert_int_equal(t.k[2].ld_maxl, 1);
    assert_int_equal(t.k[2].sts, 8 * 192 * 240 + lane_passes);
    assert_int_equal(t.k[2].lds, 2 * lane_passes + 6 * 256 * 240);
    /* bins tid and tid + 192: warps 0, 1 two rounds of 6 reads, warps 2-5 one */
    assert_int_equal(t.k[2].lds_insts, 2 * warp_passes + 6 * 8 * 240);
    assert_int_equal(t.k[2].st, 256 * 240);
    /* mergeHistogram256Kernel */
    assert_int_equal(t.k[3].ld, 256 * 240);
    assert_int_equal(t.k[3].ld_maxl, 32);
    assert_int_equal(t.k[3].st, 256);
    check_determinism("sdk.histogram", &t, true);
    struct mw_kernel k[4];
    assert_int_equal(shapes("sdk.histogram", "default", k, 4), 4);
    check_shape(&k[0], 4370, 1, 64, 1); /* 64 MB: ceil(2^26 / 15360) */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectoradd), cmocka_unit_test(test_scalarprod), cmocka_unit_test(test_blackscholes),
        cmocka_unit_test(test_reduction), cmocka_unit_test(test_transpose),  cmocka_unit_test(test_convsep),
        cmocka_unit_test(test_histogram),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
