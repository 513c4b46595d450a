/* CUDA SDK samples of the GPGPU-Sim era (the CUDA 4.x SDK on sm_20), one kernel shape each: vectorAdd, scalarProd
 * (scalarProdGPU), BlackScholes (BlackScholesGPU, the grid-stride float version of the 4.x SDK) and reduction
 * (reduce6, the kernel the 4.x sample runs by default, with the GPU's final pass over the partial sums). Each
 * model is one pass of the sample's timed loop (the samples repeat it 1 to 512 times to time it). Registers per
 * thread are estimates of the sm_20 compile (not measured). */
#include "kloop.h"
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>

static void free_owned(void *p) { free(p); }

/* One launch of `h` (a kloop program) named `name` on a 1-D grid. */
static int add_launch(struct mw_kgen_program *p, const char *name, uint32_t grid, uint32_t block, uint32_t regs,
                      uint32_t shmem, const struct mw_kl_hdr *h, struct mw_err *e)
{
    struct mw_kgen_kernel *k = mw_kgen_append(p);
    if (!k) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    snprintf(k->k.name, sizeof k->k.name, "%s", name);
    k->k.grid[0] = grid, k->k.grid[1] = 1, k->k.grid[2] = 1;
    k->k.block[0] = block, k->k.block[1] = 1, k->k.block[2] = 1;
    k->k.nregs = regs;
    k->k.shmem = shmem;
    mw_kloop_kernel(k, h);
    k->lane_affine = true; /* every address below: a base + 4 * (tid.x or gtid + warp-uniform terms) */
    return 0;
}

static int fail(struct mw_kgen_program *p, void *d, int rc)
{
    free(p->kernels), free(d);
    return rc;
}

#define TID ((int64_t)t->tid[0])
#define BID ((int64_t)t->ctaid[0])
#define F4(base, idx) ((base) + (uint64_t)(idx)*4u)

/* ------------------------------------------------------------------------------------------------------------
 * vectorAdd (0_Simple/vectorAdd): C[i] = A[i] + B[i] for i = blockDim.x * blockIdx.x + threadIdx.x < numElements;
 * 256 threads a block, ceil(numElements / 256) blocks; the sample's numElements is 50000 (196 blocks).
 * ------------------------------------------------------------------------------------------------------------ */
struct va {
    struct mw_kl_hdr h;
    int64_t n;
    uint64_t A, B, C;
};
MW_KL_PRED(va_in, struct va, (int64_t)t->gtid < P->n)
MW_KL_ADDR(va_a, struct va, F4(P->A, t->gtid))
MW_KL_ADDR(va_b, struct va, F4(P->B, t->gtid))
MW_KL_ADDR(va_c, struct va, F4(P->C, t->gtid))

/* r1 tid, r2 ctaid, r3 i, r4 i < n, r5 byte offset, r6/r7/r10 element addresses */
static const struct mw_kl_op va_ops[] = {
    KL_ALU(1, 0, 0), KL_ALU(2, 0, 0), KL_ALU(3, 2, 1), KL_ALU(4, 3, 0),
    KL_IF(va_in, 4),
    KL_ALU(5, 3, 0), KL_ALU(6, 5, 0), KL_ALU(7, 5, 0), KL_LDG(8, 6, va_a, NULL), KL_LDG(9, 7, va_b, NULL),
    KL_ALU(8, 8, 9), KL_ALU(10, 5, 0), KL_STG(8, 10, va_c, NULL),
    KL_END,
};

int mw_wl_sdk_vectoradd(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    (void)seed;
    static const int64_t elems[4] = {5000, 20000, 50000, 50000};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct va *d = calloc(1, sizeof *d);
    if (!d) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    struct mw_kgen_program p = {.owned = d, .free_owned = free_owned};
    int64_t n = elems[sz];
    uint64_t bytes = ((uint64_t)n * 4 + 255) & ~255ull;
    d->h = (struct mw_kl_hdr){va_ops, (int)(sizeof va_ops / sizeof va_ops[0])};
    d->n = n, d->A = 0x10000000ull, d->B = d->A + bytes, d->C = d->B + bytes;
    int rc = add_launch(&p, "vectorAdd", (uint32_t)((n + 255) / 256), 256, 8, 0, &d->h, e);
    if (rc < 0) return fail(&p, d, rc);
    return mw_kgen_workload(w, "sdk.vectoradd", &p, e);
}

/* ------------------------------------------------------------------------------------------------------------
 * scalarProd (scalarProdGPU<<<128, 256>>>): vectorN dot products of elementN floats. Block b takes vectors
 * b, b + 128, ...; per vector each thread sums ACCUM_N / 256 = 4 accumulators iAccum = tid + 256 k, each over
 * d_A[pos] * d_B[pos] for pos = vectorBase + iAccum + 1024 m (m < elementN / 1024), stores it to accumResult[],
 * then the block reduces the 1024 accumulators by a tree (strides 512 .. 1, a __syncthreads before each step)
 * and thread 0 writes d_C[vec]. The sample: 256 vectors of 4096 elements.
 * ------------------------------------------------------------------------------------------------------------ */
#define ACCUM_N 1024
struct sp {
    struct mw_kl_hdr h;
    int64_t vecn, elemn, grid;
    uint64_t A, B, C;
};
#define SP_VEC (BID + lc[0] * P->grid)
MW_KL_TRIPS(sp_vecs, struct sp, BID < P->vecn ? (P->vecn - BID + P->grid - 1) / P->grid : 0)
MW_KL_TRIPS(sp_accs, struct sp, (ACCUM_N - TID + 255) / 256)
MW_KL_TRIPS(sp_elems, struct sp, (P->elemn - (TID + lc[1] * 256) + ACCUM_N - 1) / ACCUM_N)
MW_KL_ADDR(sp_a, struct sp, F4(P->A, P->elemn * SP_VEC + TID + lc[1] * 256 + lc[2] * ACCUM_N))
MW_KL_ADDR(sp_b, struct sp, F4(P->B, P->elemn * SP_VEC + TID + lc[1] * 256 + lc[2] * ACCUM_N))
MW_KL_ADDR(sp_acc, struct sp, F4(0, TID + lc[1] * 256))
#define SP_STRIDE ((int64_t)(ACCUM_N / 2) >> lc[1])
MW_KL_PRED(sp_red, struct sp, TID < SP_STRIDE)
MW_KL_TRIPS(sp_redn, struct sp, (SP_STRIDE - TID + 255) / 256)
MW_KL_ADDR(sp_lo, struct sp, F4(0, TID + lc[2] * 256))
MW_KL_ADDR(sp_hi, struct sp, F4(0, SP_STRIDE + TID + lc[2] * 256))
MW_KL_PRED(sp_t0, struct sp, TID == 0)
MW_KL_ADDR(sp_zero, struct sp, 0)
MW_KL_ADDR(sp_c, struct sp, F4(P->C, SP_VEC))

/* r1 tid, r2 vec, r3 vectorBase, r4 vectorEnd, r5 iAccum, r6 sum, r7 pos, r8/r9 loads, r10 stride, r11 index */
static const struct mw_kl_op sp_ops[] = {
    KL_ALU(1, 0, 0), KL_ALU(2, 0, 0),
    KL_LOOP(sp_vecs, NULL, 2),
    KL_ALU(3, 2, 0), KL_ALU(4, 3, 0), KL_ALU(5, 1, 0),
    KL_LOOP(sp_accs, NULL, 5),
    KL_ALU(6, 0, 0), KL_ALU(7, 3, 5),
    KL_LOOP(sp_elems, NULL, 7),
    KL_ALU(11, 7, 0), KL_LDG(8, 11, sp_a, NULL), KL_LDG(9, 11, sp_b, NULL), KL_ALU(6, 8, 9), KL_ALU(7, 7, 0),
    KL_ALU(12, 7, 4),
    KL_END,
    KL_ALU(11, 5, 0), KL_STS(6, 11, sp_acc, NULL), KL_ALU(5, 5, 0), KL_ALU(12, 5, 0),
    KL_END,
    KL_ALU(10, 0, 0),
    KL_LOOPN(10, 10),
    KL_BAR, KL_ALU(5, 1, 0), KL_ALU(12, 5, 10),
    KL_LOOP(sp_redn, sp_red, 12),
    KL_ALU(11, 5, 0), KL_ALU(13, 11, 10), KL_LDS(8, 11, sp_lo, NULL), KL_LDS(9, 13, sp_hi, NULL), KL_ALU(8, 8, 9),
    KL_STS(8, 11, sp_lo, NULL), KL_ALU(5, 5, 0), KL_ALU(12, 5, 10),
    KL_END,
    KL_ALU(10, 10, 0), KL_ALU(12, 10, 0),
    KL_END,
    KL_BAR, KL_ALU(12, 1, 0),
    KL_IF(sp_t0, 12), KL_LDS(8, 0, sp_zero, NULL), KL_ALU(11, 2, 0), KL_STG(8, 11, sp_c, NULL), KL_END,
    KL_ALU(2, 2, 0), KL_ALU(12, 2, 0),
    KL_END,
};

int mw_wl_sdk_scalarprod(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    (void)seed;
    static const int64_t vecs[4] = {32, 256, 256, 256}, elems[4] = {1024, 1024, 4096, 4096};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct sp *d = calloc(1, sizeof *d);
    if (!d) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    struct mw_kgen_program p = {.owned = d, .free_owned = free_owned};
    uint64_t bytes = ((uint64_t)vecs[sz] * elems[sz] * 4 + 255) & ~255ull;
    d->h = (struct mw_kl_hdr){sp_ops, (int)(sizeof sp_ops / sizeof sp_ops[0])};
    d->vecn = vecs[sz], d->elemn = elems[sz], d->grid = 128;
    d->A = 0x10000000ull, d->B = d->A + bytes, d->C = d->B + bytes; /* cudaMalloc order: d_A, d_B, d_C */
    int rc = add_launch(&p, "scalarProdGPU", 128, 256, 14, ACCUM_N * 4, &d->h, e);
    if (rc < 0) return fail(&p, d, rc);
    return mw_kgen_workload(w, "sdk.scalarprod", &p, e);
}

/* ------------------------------------------------------------------------------------------------------------
 * BlackScholes (BlackScholesGPU<<<480, 128>>> of the 4.x SDK): for opt = tid; opt < optN; opt += 61440 (the
 * grid's threads), load d_StockPrice[opt], d_OptionStrike[opt], d_OptionYears[opt], price the call and the put
 * (sqrtf(T); d1 = (__logf(S / X) + (R + 0.5 V^2) T) / (V sqrtT) with full-precision divisions; two cumulative
 * normals, each 1 / (1 + 0.2316419 |d|), __expf and a degree-5 polynomial; __expf(-R T)) and store
 * d_CallResult[opt], d_PutResult[opt]: 10 SFU operations an option (sqrt as rsqrt + reciprocal, a reciprocal per
 * division, the log and three exponentials), the ALU work between them approximating the sm_20 compile (each
 * full-precision division a reciprocal and a Newton step, no slow path). The sample: 4,000,000 options, 512
 * launches timed.
 * ------------------------------------------------------------------------------------------------------------ */
struct bs {
    struct mw_kl_hdr h;
    int64_t optn, nthreads;
    uint64_t call, put, S, X, T;
};
#define BS_OPT ((int64_t)t->gtid + lc[0] * P->nthreads)
MW_KL_TRIPS(bs_trips, struct bs, (P->optn - (int64_t)t->gtid + P->nthreads - 1) / P->nthreads)
MW_KL_PRED(bs_in, struct bs, BS_OPT < P->optn)
MW_KL_ADDR(bs_s, struct bs, F4(P->S, BS_OPT))
MW_KL_ADDR(bs_x, struct bs, F4(P->X, BS_OPT))
MW_KL_ADDR(bs_t, struct bs, F4(P->T, BS_OPT))
MW_KL_ADDR(bs_call, struct bs, F4(P->call, BS_OPT))
MW_KL_ADDR(bs_put, struct bs, F4(P->put, BS_OPT))

/* The cumulative normal of register d into register o (scratch r40..r44): K = 1 / (1 + 0.2316419 |d|),
 * RSQRT2PI * __expf(-0.5 d d) * K * polynomial(K), 1 - cnd if d > 0. */
#define BS_CND(o, d)                                                                                            \
    KL_ALU(40, d, 0), KL_ALU(40, 40, 0), KL_SFU(41, 40), KL_ALU(42, d, d), KL_ALU(42, 42, 0), KL_SFU(42, 42),      \
        KL_ALU(43, 41, 0), KL_ALU(43, 43, 41), KL_ALU(43, 43, 41), KL_ALU(43, 43, 41), KL_ALU(43, 43, 41),         \
        KL_ALU(43, 43, 41), KL_ALU(44, 42, 0), KL_ALU(o, 44, 43), KL_ALU(44, o, 0), KL_ALU(o, d, 44)

/* r1 tid, r2 opt, r3 S, r4 X, r5 T, r6 sqrtT, r7 S/X, r8 log, r9 d1, r10 d2, r11 cnd1, r12 cnd2, r13 expRT */
static const struct mw_kl_op bs_ops[] = {
    KL_ALU(1, 0, 0), KL_ALU(2, 0, 0), KL_ALU(2, 2, 1), KL_ALU(14, 0, 0), KL_ALU(15, 2, 0),
    KL_LOOP(bs_trips, NULL, 15),
    KL_IF(bs_in, 15),
    KL_ALU(16, 2, 0), KL_ALU(17, 16, 0), KL_LDG(5, 17, bs_t, NULL), KL_ALU(18, 16, 0), KL_LDG(4, 18, bs_x, NULL),
    KL_ALU(19, 16, 0), KL_LDG(3, 19, bs_s, NULL),
    /* sqrtT = sqrtf(T) */
    KL_SFU(6, 5), KL_SFU(6, 6), KL_ALU(6, 6, 0),
    /* S / X: reciprocal, Newton step, range check of the division */
    KL_SFU(20, 4), KL_ALU(21, 20, 4), KL_ALU(21, 21, 20), KL_ALU(7, 3, 21), KL_ALU(22, 7, 4), KL_ALU(7, 22, 21),
    KL_ALU(23, 4, 0), KL_ALU(23, 23, 0),
    /* __logf, (R + 0.5 V V) T, V sqrtT, the division, d2 */
    KL_SFU(8, 7), KL_ALU(8, 8, 0), KL_ALU(24, 5, 0), KL_ALU(8, 8, 24), KL_ALU(25, 6, 0), KL_SFU(26, 25),
    KL_ALU(9, 8, 26), KL_ALU(10, 9, 25),
    BS_CND(11, 9), BS_CND(12, 10),
    /* expRT = __expf(-R T), the call and the put */
    KL_ALU(27, 5, 0), KL_SFU(13, 27), KL_ALU(28, 4, 13), KL_ALU(29, 28, 12), KL_ALU(29, 3, 11),
    KL_ALU(30, 12, 0), KL_ALU(31, 11, 0), KL_ALU(30, 28, 30), KL_ALU(30, 3, 31),
    KL_ALU(32, 16, 0), KL_STG(29, 32, bs_call, NULL), KL_ALU(33, 16, 0), KL_STG(30, 33, bs_put, NULL),
    KL_END,
    KL_ALU(2, 2, 14), KL_ALU(15, 2, 0),
    KL_END,
};

int mw_wl_sdk_blackscholes(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    (void)seed;
    static const int64_t opts[4] = {100000, 1000000, 4000000, 4000000};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct bs *d = calloc(1, sizeof *d);
    if (!d) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    struct mw_kgen_program p = {.owned = d, .free_owned = free_owned};
    uint64_t bytes = ((uint64_t)opts[sz] * 4 + 255) & ~255ull, a = 0x10000000ull;
    d->h = (struct mw_kl_hdr){bs_ops, (int)(sizeof bs_ops / sizeof bs_ops[0])};
    d->optn = opts[sz], d->nthreads = 480 * 128;
    /* cudaMalloc order: d_CallResult, d_PutResult, d_StockPrice, d_OptionStrike, d_OptionYears */
    d->call = a, d->put = a + bytes, d->S = a + 2 * bytes, d->X = a + 3 * bytes, d->T = a + 4 * bytes;
    int rc = add_launch(&p, "BlackScholesGPU", 480, 128, 20, 0, &d->h, e);
    if (rc < 0) return fail(&p, d, rc);
    return mw_kgen_workload(w, "sdk.blackscholes", &p, e);
}

/* ------------------------------------------------------------------------------------------------------------
 * reduction (the 4.x sample's default: kernel 6, int, n = 2^24, 256 threads, at most 64 blocks, GPU final
 * pass): reduce6<blockSize, nIsPow2 = true> sums g_idata[i] and g_idata[i + blockSize] for i = blockIdx.x *
 * 2 blockSize + tid, stepping by 2 blockSize gridDim.x, stores the sum to sdata[tid], then a tree with a
 * __syncthreads per step while the stride is 64 or more (strides blockSize / 2 .. 64), the last warp's steps
 * (32 .. 1, each smem[tid] += smem[tid + s] where blockSize >= 2 s) without barriers, and thread 0 stores
 * g_odata[blockIdx.x]. The host then reduces the partial sums the same way until one is left: 64 partial sums
 * take one reduce6<32> block. Shared memory: blockSize ints, 2 * blockSize for blockSize <= 32.
 * ------------------------------------------------------------------------------------------------------------ */
struct rd {
    struct mw_kl_hdr h;
    int64_t n, bs, grid;
    uint64_t in, out;
};
MW_KL_TRIPS(rd_trips, struct rd, (P->n - (BID * 2 * P->bs + TID) + 2 * P->bs * P->grid - 1) / (2 * P->bs * P->grid))
MW_KL_ADDR(rd_a, struct rd, F4(P->in, BID * 2 * P->bs + TID + lc[0] * 2 * P->bs * P->grid))
MW_KL_ADDR(rd_b, struct rd, F4(P->in, BID * 2 * P->bs + TID + P->bs + lc[0] * 2 * P->bs * P->grid))
MW_KL_ADDR(rd_s, struct rd, F4(0, TID))
#define RD_WSTAGE(s)                                                                                            \
    MW_KL_PRED(rd_b##s, struct rd, P->bs >= 2 * (s))                                                           \
    MW_KL_ADDR(rd_s##s, struct rd, F4(0, TID + (s)))
#define RD_BSTAGE(s) RD_WSTAGE(s) MW_KL_PRED(rd_p##s, struct rd, P->bs >= 2 * (s) && TID < (s))
RD_BSTAGE(256)
RD_BSTAGE(128)
RD_BSTAGE(64)
RD_WSTAGE(32)
RD_WSTAGE(16)
RD_WSTAGE(8)
RD_WSTAGE(4)
RD_WSTAGE(2)
RD_WSTAGE(1)
MW_KL_PRED(rd_w0, struct rd, TID < 32)
MW_KL_PRED(rd_t0, struct rd, TID == 0)
MW_KL_ADDR(rd_o, struct rd, F4(P->out, BID))

/* a tree step with a barrier (r5 mySum), compiled to predicated instructions, and one of the last warp's; the
 * steps a blockSize does not have are compiled out (their instructions run for no lane) */
#define RD_BSTEP(s)                                                                                             \
    MW_KL_I(MW_OP_LD_SHARED, 4, 1, 1, 7, 4, 0, rd_s##s, rd_p##s), MW_KL_I(MW_OP_ALU, 0, 1, 2, 5, 5, 7, NULL, rd_p##s), \
        MW_KL_I(MW_OP_ST_SHARED, 4, 0, 2, 0, 4, 5, rd_s, rd_p##s),                                                  \
        MW_KL_I(MW_OP_BARRIER, 0, 0, 0, 0, 0, 0, NULL, rd_b##s)
#define RD_WSTEP(s)                                                                                             \
    MW_KL_I(MW_OP_LD_SHARED, 4, 1, 1, 7, 4, 0, rd_s##s, rd_b##s), MW_KL_I(MW_OP_ALU, 0, 1, 2, 5, 5, 7, NULL, rd_b##s), \
        MW_KL_I(MW_OP_ST_SHARED, 4, 0, 2, 0, 4, 5, rd_s, rd_b##s)

/* r1 tid, r2 i, r3 gridSize, r4 &sdata[tid], r5 mySum, r6 predicate, r8/r9 loads */
static const struct mw_kl_op rd_ops[] = {
    KL_ALU(1, 0, 0), KL_ALU(2, 0, 0), KL_ALU(2, 2, 1), KL_ALU(3, 0, 0), KL_ALU(5, 0, 0), KL_ALU(6, 2, 0),
    KL_LOOP(rd_trips, NULL, 6),
    KL_ALU(10, 2, 0), KL_LDG(8, 10, rd_a, NULL), KL_LDG(9, 10, rd_b, NULL), KL_ALU(5, 5, 8), KL_ALU(5, 5, 9),
    KL_ALU(2, 2, 3), KL_ALU(6, 2, 0),
    KL_END,
    KL_ALU(4, 1, 0), KL_STS(5, 4, rd_s, NULL), KL_BAR,
    RD_BSTEP(256), RD_BSTEP(128), RD_BSTEP(64),
    KL_IF(rd_w0, 6),
    RD_WSTEP(32), RD_WSTEP(16), RD_WSTEP(8), RD_WSTEP(4), RD_WSTEP(2), RD_WSTEP(1),
    KL_END,
    KL_IF(rd_t0, 6), KL_LDS(5, 0, rd_s, NULL), KL_ALU(11, 0, 0), KL_STG(5, 11, rd_o, NULL), KL_END,
};

static uint32_t next_pow2(uint32_t x)
{
    uint32_t p = 1;
    while (p < x) p <<= 1;
    return p;
}

int mw_wl_sdk_reduction(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    (void)seed;
    static const int64_t elems[4] = {1 << 16, 1 << 20, 1 << 24, 1 << 24};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct rd *d = calloc(4, sizeof *d);
    if (!d) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    struct mw_kgen_program p = {.owned = d, .free_owned = free_owned};
    uint64_t idata = 0x10000000ull, odata = idata + (((uint64_t)elems[sz] * 4 + 255) & ~255ull);
    /* reduce(n) then, while more than cpuFinalThreshold = 1 partial sums are left, reduce them in place in
     * d_odata (getNumBlocksAndThreads: threads = n < 2 * maxThreads ? nextPow2((n + 1) / 2) : maxThreads,
     * blocks = min(maxBlocks, ceil(n / (2 threads)))) */
    int64_t s = elems[sz];
    for (int l = 0; l < 4 && s > 1; l++) {
        uint32_t threads = s < 512 ? next_pow2((uint32_t)((s + 1) / 2)) : 256;
        int64_t blocks = (s + threads * 2 - 1) / (threads * 2);
        if (blocks > 64) blocks = 64;
        d[l].h = (struct mw_kl_hdr){rd_ops, (int)(sizeof rd_ops / sizeof rd_ops[0])};
        d[l].n = s, d[l].bs = threads, d[l].grid = blocks;
        d[l].in = l == 0 ? idata : odata, d[l].out = odata;
        char name[64];
        snprintf(name, sizeof name, "reduce6<int,%u,true>", threads);
        int rc = add_launch(&p, name, (uint32_t)blocks, threads, 12, threads <= 32 ? 2 * threads * 4 : threads * 4,
                            &d[l].h, e);
        if (rc < 0) return fail(&p, d, rc);
        s = l == 0 ? blocks : (s + threads * 2 - 1) / (threads * 2); /* s = numBlocks, then the host's update */
    }
    return mw_kgen_workload(w, "sdk.reduction", &p, e);
}
