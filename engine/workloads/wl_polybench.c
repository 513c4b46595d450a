/* PolyBench/GPU 1.0 (Grauer-Gray et al.) CUDA kernels: ATAX, BICG, MVT, GESUMMV, SYRK, SYR2K, GEMM, 2MM, 3MM,
 * 2DCONV, 3DCONV and FDTD-2D, with the suite's launch shapes (256x1 blocks for the 1-D kernels, 32x8 for the
 * 2-D ones), its per-thread index expressions and loop bounds, and its kernel launch sequences. */
#include "kgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The PTX these kernels compile to reloads and stores the accumulator (`c[i*N+j] += ...`) in every iteration,
 * because the output array may alias the inputs (Choo's SYRK load sequence {1, {2,3,4}^N}); the models keep
 * that load/store. Registers: r1 thread index, r2/r3/r8/r9 operand addresses, r4/r5/r10/r11 loaded operands,
 * r6 product, r7 accumulator. */

/* Parameters of one launch: guard bounds, loop trip count, operand arrays with their row lengths. */
struct pb {
    uint64_t n0, n1;           /* guard: i < n0 (and j < n1 for the 2-D kernels) */
    uint64_t x, xld, y, yld;   /* operands */
    uint64_t z, zld, w, wld;   /* second pair (GESUMMV's B, SYR2K's b and a) */
    uint64_t acc, accld;       /* accumulated output */
    uint64_t acc2;             /* GESUMMV's y */
    /* stencils */
    uint64_t ni, nj, nk;
    int64_t p;                 /* launch argument: 3DCONV's i, FDTD-2D's t */
};

#define GX(t) ((uint64_t)(t)->ctaid[0] * (t)->ntid[0] + (t)->tid[0])
#define GY(t) ((uint64_t)(t)->ctaid[1] * (t)->ntid[1] + (t)->tid[1])
#define F4(base, idx) ((base) + (uint64_t)(idx)*4u)
#define K ((uint64_t)it)

#define ADDR(name, expr)                                                                                     \
    static uint64_t name(const struct mw_tctx *t, int64_t it, const void *d)                                \
    {                                                                                                        \
        const struct pb *P = d;                                                                              \
        (void)t, (void)it, (void)P;                                                                          \
        return (expr);                                                                                       \
    }
#define PRED(name, expr)                                                                                     \
    static bool name(const struct mw_tctx *t, int64_t it, const void *d)                                    \
    {                                                                                                        \
        const struct pb *P = d;                                                                              \
        (void)t, (void)it, (void)P;                                                                          \
        return (expr);                                                                                       \
    }

#define LD(dst, a, fn) {MW_OP_LD_GLOBAL, 4, 1, 1, {dst}, {a}, fn, NULL}
#define LDP(dst, a, fn, pr) {MW_OP_LD_GLOBAL, 4, 1, 1, {dst}, {a}, fn, pr}
#define ST(v, a, fn) {MW_OP_ST_GLOBAL, 4, 0, 2, {0}, {a, v}, fn, NULL}
#define STP(v, a, fn, pr) {MW_OP_ST_GLOBAL, 4, 0, 2, {0}, {a, v}, fn, pr}
#define ALU(d, s1, s2) MW_T_ALU(d, s1, s2)

/* ---- 1-D kernels (i = blockIdx.x * blockDim.x + threadIdx.x, loop over the other dimension) ---- */
PRED(g_1d, GX(t) < P->n0)
ADDR(a_rowx, F4(P->x, GX(t) * P->xld + K))  /* X[i*ld + loop]: each lane its own row, fully divergent */
ADDR(a_colx, F4(P->x, K * P->xld + GX(t)))  /* X[loop*ld + i]: consecutive lanes, coalesced */
ADDR(a_rowz, F4(P->z, GX(t) * P->zld + K))
ADDR(a_vecy, F4(P->y, K))                   /* y[loop]: warp-uniform */
ADDR(a_acc1, F4(P->acc, GX(t)))
ADDR(a_acc2, F4(P->acc2, GX(t)))

static const struct mw_tinst pro_1d[] = {ALU(1, 0, 0), ALU(1, 1, 0), ALU(2, 1, 0), ALU(3, 0, 0)};
/* acc[i] += X[..] * y[loop] */
static const struct mw_tinst body_rowx_vec[] = {LD(4, 2, a_rowx), LD(5, 3, a_vecy), ALU(6, 4, 5), LD(7, 1, a_acc1),
                                                ALU(7, 7, 6),     ST(7, 1, a_acc1), ALU(2, 2, 0), ALU(3, 3, 0)};
static const struct mw_tinst body_colx_vec[] = {LD(4, 2, a_colx), LD(5, 3, a_vecy), ALU(6, 4, 5), LD(7, 1, a_acc1),
                                                ALU(7, 7, 6),     ST(7, 1, a_acc1), ALU(2, 2, 0), ALU(3, 3, 0)};
/* BICG kernel1: s[j] += r[i] * A[i*NY + j] (the vector first) */
static const struct mw_tinst body_vec_colx[] = {LD(5, 3, a_vecy), LD(4, 2, a_colx), ALU(6, 5, 4), LD(7, 1, a_acc1),
                                                ALU(7, 7, 6),     ST(7, 1, a_acc1), ALU(2, 2, 0), ALU(3, 3, 0)};
/* GESUMMV: tmp[i] += a[i*N+j]*x[j]; y[i] += b[i*N+j]*x[j] (x reloaded after the store to tmp) */
static const struct mw_tinst body_gesummv[] = {
    LD(4, 2, a_rowx), LD(5, 3, a_vecy), ALU(6, 4, 5), LD(7, 1, a_acc1), ALU(7, 7, 6), ST(7, 1, a_acc1),
    LD(10, 8, a_rowz), LD(5, 3, a_vecy), ALU(6, 10, 5), LD(11, 1, a_acc2), ALU(11, 11, 6), ST(11, 1, a_acc2),
    ALU(2, 2, 0), ALU(8, 8, 0), ALU(3, 3, 0)};
/* y[i] = ALPHA * tmp[i] + BETA * y[i] */
static const struct mw_tinst epi_gesummv[] = {LD(7, 1, a_acc1), LD(11, 1, a_acc2), ALU(6, 7, 0), ALU(6, 11, 6),
                                              ST(6, 1, a_acc2)};

/* ---- 2-D kernels (j = x index, i = y index, loop k) ---- */
PRED(g_2d, GY(t) < P->n0 && GX(t) < P->n1)
ADDR(m_xi, F4(P->x, GY(t) * P->xld + K))    /* x[i*ld + k]: uniform across a warp's row of 32 threads */
ADDR(m_yk, F4(P->y, K * P->yld + GX(t)))    /* y[k*ld + j]: coalesced row */
ADDR(m_yj, F4(P->y, GX(t) * P->yld + K))    /* y[j*ld + k]: column-strided, fully divergent */
ADDR(m_zi, F4(P->z, GY(t) * P->zld + K))
ADDR(m_wj, F4(P->w, GX(t) * P->wld + K))
ADDR(m_acc, F4(P->acc, GY(t) * P->accld + GX(t)))

static const struct mw_tinst pro_2d[] = {ALU(1, 0, 0), ALU(12, 0, 0), ALU(1, 1, 12), ALU(2, 1, 0), ALU(3, 12, 0)};
/* c[i*N+j] *= beta, then the loop */
static const struct mw_tinst pro_2d_beta[] = {ALU(1, 0, 0),     ALU(12, 0, 0), ALU(1, 1, 12), ALU(2, 1, 0),
                                              ALU(3, 12, 0),    LD(7, 1, m_acc), ALU(7, 7, 0), ST(7, 1, m_acc)};
/* GEMM / 2MM / 3MM: acc[i][j] += (alpha *) x[i][k] * y[k][j] */
static const struct mw_tinst body_mm[] = {LD(4, 2, m_xi), LD(5, 3, m_yk), ALU(6, 4, 0), ALU(6, 6, 5), LD(7, 1, m_acc),
                                          ALU(7, 7, 6),   ST(7, 1, m_acc), ALU(2, 2, 0), ALU(3, 3, 0)};
/* SYRK: c[i][j] += alpha * a[i][k] * a[j][k] */
static const struct mw_tinst body_syrk[] = {LD(4, 2, m_xi), LD(5, 3, m_yj), ALU(6, 4, 0), ALU(6, 6, 5), LD(7, 1, m_acc),
                                            ALU(7, 7, 6),   ST(7, 1, m_acc), ALU(2, 2, 0), ALU(3, 3, 0)};
/* SYR2K: c[i][j] += alpha * a[i][k] * b[j][k] + alpha * b[i][k] * a[j][k] */
static const struct mw_tinst body_syr2k[] = {
    LD(4, 2, m_xi),  LD(5, 3, m_yj), ALU(6, 4, 0),   ALU(6, 6, 5),   LD(10, 8, m_zi), LD(11, 9, m_wj),
    ALU(13, 10, 0),  ALU(6, 13, 11), LD(7, 1, m_acc), ALU(7, 7, 6),   ST(7, 1, m_acc), ALU(2, 2, 0),
    ALU(3, 3, 0),    ALU(8, 8, 0),   ALU(9, 9, 0)};

/* ---- 2DCONV: B[i][j] = sum of the 3x3 neighbourhood of A, interior points only ---- */
PRED(g_conv2, GY(t) < P->ni - 1 && GX(t) < P->nj - 1 && GY(t) > 0 && GX(t) > 0)
#define C2(name, di, dj) ADDR(name, F4(P->x, (GY(t) + (di)) * P->nj + GX(t) + (dj)))
C2(c2_mm, -1, -1) C2(c2_m0, -1, 0) C2(c2_mp, -1, 1) C2(c2_0m, 0, -1) C2(c2_00, 0, 0) C2(c2_0p, 0, 1)
C2(c2_pm, 1, -1) C2(c2_p0, 1, 0) C2(c2_pp, 1, 1)
ADDR(c2_out, F4(P->y, GY(t) * P->nj + GX(t)))
static const struct mw_tinst body_conv2[] = {
    ALU(1, 0, 0),     ALU(12, 0, 0),    ALU(1, 1, 12),    ALU(2, 1, 0),     LD(4, 2, c2_mm), LD(5, 2, c2_m0),
    ALU(6, 4, 0),     ALU(6, 5, 6),     LD(4, 2, c2_mp),  LD(5, 2, c2_0m),  ALU(6, 4, 6),    ALU(6, 5, 6),
    LD(4, 2, c2_00),  LD(5, 2, c2_0p),  ALU(6, 4, 6),     ALU(6, 5, 6),     LD(4, 2, c2_pm), LD(5, 2, c2_p0),
    ALU(6, 4, 6),     ALU(6, 5, 6),     LD(4, 2, c2_pp),  ALU(6, 4, 6),     ALU(3, 1, 0),    ST(6, 3, c2_out)};

/* ---- 3DCONV: one launch per plane i (1 .. NI-2); k = x index, j = y index; the source's 15 terms ---- */
PRED(g_conv3, P->p < (int64_t)P->ni - 1 && GY(t) < P->nj - 1 && GX(t) < P->nk - 1 && P->p > 0 && GY(t) > 0 &&
                  GX(t) > 0)
#define C3(name, di, dj, dk)                                                                                 \
    ADDR(name, F4(P->x, (uint64_t)(P->p + (di)) * P->nk * P->nj + (GY(t) + (dj)) * P->nk + GX(t) + (dk)))
C3(c3_a, -1, -1, -1) C3(c3_b, 1, -1, -1) C3(c3_c, 0, -1, 0) C3(c3_d, 0, 0, 0) C3(c3_e, 0, 1, 0)
C3(c3_f, -1, -1, 1) C3(c3_g, 1, -1, 1) C3(c3_h, -1, 0, 1) C3(c3_i, 1, 0, 1) C3(c3_j, -1, 1, 1) C3(c3_k, 1, 1, 1)
ADDR(c3_out, F4(P->y, (uint64_t)P->p * P->nk * P->nj + GY(t) * P->nk + GX(t)))
static const struct mw_tinst body_conv3[] = {
    ALU(1, 0, 0),    ALU(12, 0, 0),   ALU(1, 1, 12),   ALU(2, 1, 0),    LD(4, 2, c3_a),  LD(5, 2, c3_b),
    ALU(6, 4, 0),    ALU(6, 5, 6),    LD(4, 2, c3_a),  LD(5, 2, c3_b),  ALU(6, 4, 6),    ALU(6, 5, 6),
    LD(4, 2, c3_a),  LD(5, 2, c3_b),  ALU(6, 4, 6),    ALU(6, 5, 6),    LD(4, 2, c3_c),  LD(5, 2, c3_d),
    ALU(6, 4, 6),    ALU(6, 5, 6),    LD(4, 2, c3_e),  LD(5, 2, c3_f),  ALU(6, 4, 6),    ALU(6, 5, 6),
    LD(4, 2, c3_g),  LD(5, 2, c3_h),  ALU(6, 4, 6),    ALU(6, 5, 6),    LD(4, 2, c3_i),  LD(5, 2, c3_j),
    ALU(6, 4, 6),    ALU(6, 5, 6),    LD(4, 2, c3_k),  ALU(6, 4, 6),    ALU(3, 1, 0),    ST(6, 3, c3_out)};

/* ---- FDTD-2D: per time step t, three kernels over (i = y, j = x); x = ex, y = ey, z = hz, w = _fict_ ---- */
PRED(g_fd, GY(t) < P->ni && GX(t) < P->nj)
PRED(g_fd2, GY(t) < P->ni && GX(t) < P->nj && GX(t) > 0)
PRED(p_row0, GY(t) == 0)
PRED(p_rown, GY(t) != 0)
ADDR(fd_fict, F4(P->w, (uint64_t)P->p))
ADDR(fd_ey, F4(P->y, GY(t) * P->nj + GX(t)))
ADDR(fd_ey_n, F4(P->y, (GY(t) + 1) * P->nj + GX(t)))
ADDR(fd_hz, F4(P->z, GY(t) * P->nj + GX(t)))
ADDR(fd_hz_up, F4(P->z, (GY(t) - 1) * P->nj + GX(t)))
ADDR(fd_hz_left, F4(P->z, GY(t) * P->nj + GX(t) - 1))
ADDR(fd_ex, F4(P->x, GY(t) * (P->nj + 1) + GX(t)))
ADDR(fd_ex_r, F4(P->x, GY(t) * (P->nj + 1) + GX(t) + 1))
/* step 1: ey[i][j] = i == 0 ? _fict_[t] : ey[i][j] - 0.5 * (hz[i][j] - hz[i-1][j]) */
static const struct mw_tinst body_fd1[] = {
    ALU(1, 0, 0), ALU(12, 0, 0), ALU(1, 1, 12), ALU(2, 1, 0), {MW_OP_BRANCH, 0, 0, 1, {0}, {12}, NULL, NULL},
    LDP(4, 0, fd_fict, p_row0), STP(4, 2, fd_ey, p_row0),
    LDP(4, 2, fd_ey, p_rown), LDP(5, 2, fd_hz, p_rown), LDP(6, 2, fd_hz_up, p_rown),
    {MW_OP_ALU, 0, 1, 2, {5}, {5, 6}, NULL, p_rown}, {MW_OP_ALU, 0, 1, 2, {4}, {4, 5}, NULL, p_rown},
    STP(4, 2, fd_ey, p_rown)};
/* step 2: ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j-1]), j > 0 */
static const struct mw_tinst body_fd2[] = {ALU(1, 0, 0),          ALU(12, 0, 0),         ALU(1, 1, 12),
                                           ALU(2, 1, 0),          ALU(3, 1, 12),         LD(4, 3, fd_ex),
                                           LD(5, 2, fd_hz),       LD(6, 2, fd_hz_left),  ALU(5, 5, 6),
                                           ALU(4, 4, 5),          ST(4, 3, fd_ex)};
/* step 3: hz[i][j] -= 0.7 * (ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j]) */
static const struct mw_tinst body_fd3[] = {ALU(1, 0, 0),         ALU(12, 0, 0),        ALU(1, 1, 12),
                                           ALU(2, 1, 0),         ALU(3, 1, 12),        LD(4, 2, fd_hz),
                                           LD(5, 3, fd_ex_r),    LD(6, 3, fd_ex),      ALU(5, 5, 6),
                                           LD(6, 2, fd_ey_n),    ALU(5, 5, 6),         LD(6, 2, fd_ey),
                                           ALU(5, 5, 6),         ALU(4, 4, 5),         ST(4, 2, fd_hz)};

#define N_(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Device arrays are laid out one after another, 256 B aligned, like consecutive cudaMalloc calls. */
struct arena {
    uint64_t next;
};
static uint64_t alloc_f32(struct arena *a, uint64_t n)
{
    uint64_t base = a->next;
    a->next += (n * 4 + 255) & ~255ull;
    return base;
}

static uint32_t cdiv(uint64_t a, uint64_t b) { return (uint32_t)((a + b - 1) / b); }

/* Launch parameters live in one owned array, filled while kernels are appended. */
struct build {
    struct mw_kgen_program p;
    struct pb *params;
    int nparams, cap;
    bool choo; /* size `choo`: the paper geometry with shortened loops and grid rows (CHOO_* below) */
    uint32_t n; /* size `mid`: N (0 = the size table's) */
};

/* Size `choo` (Choo 2016's reproduction): `paper`'s arrays, row pitch, thread strides and block shape, so that a
 * warp's column-strided lines fall in the sets they fall in at the thesis's inputs (N = 4096 for the 1-D kernels:
 * a warp load's 32 lines in one set; SYRK N = 1024 and SYR2K N = 2048: 4 KB and 8 KB pitches, one set), with the
 * loops and the grid shortened, which is what makes the runs affordable: 1-D kernels (grid 16 x 1, as at `paper`)
 * loop CHOO_ITERS_1D times instead of N; 2-D kernels loop CHOO_ITERS_2D times and launch at most CHOO_COLS x
 * CHOO_ROWS CTAs (the first rows and columns of the output; 128 CTAs fill the 15 SMs once). A column-strided
 * line holds 32 iterations of one thread's loads, so 32 iterations keep one line's worth of per-thread reuse. */
#define CHOO_ITERS_1D 128
#define CHOO_ITERS_2D 32
#define CHOO_COLS 32
#define CHOO_ROWS 4

static void free_owned(void *p) { free(p); }

static struct pb *new_params(struct build *b)
{
    if (b->nparams == b->cap) return NULL;
    struct pb *q = &b->params[b->nparams++];
    memset(q, 0, sizeof *q);
    return q;
}

static struct mw_kgen_kernel *launch(struct build *b, const char *name, uint32_t gx, uint32_t gy, uint32_t bx,
                                     uint32_t by, uint32_t nregs, const struct pb *data, mw_pred_fn guard)
{
    struct mw_kgen_kernel *k = mw_kgen_append(&b->p);
    if (!k) return NULL;
    snprintf(k->k.name, sizeof k->k.name, "%s", name);
    if (b->choo && gy > 1) gx = gx > CHOO_COLS ? CHOO_COLS : gx, gy = gy > CHOO_ROWS ? CHOO_ROWS : gy;
    k->k.grid[0] = gx, k->k.grid[1] = gy, k->k.grid[2] = 1;
    k->k.block[0] = bx, k->k.block[1] = by, k->k.block[2] = 1;
    k->k.nregs = nregs;
    k->data = data;
    k->guard = guard;
    k->lane_affine = true; /* every ADDR below: base + 4 * (a linear combination of GX, GY, the loop counter) */
    return k;
}

#define SET(k, part, arr) ((k)->part = (arr), (k)->n##part = N_(arr))

enum bench { ATAX, BICG, MVT, GESUMMV, SYRK, SYR2K, GEMM, MM2, MM3, CONV2D, CONV3D, FDTD2D };

/* Sizes per benchmark: tiny, small, default, paper (PolyBench/GPU 1.0's own defines). The 1-D kernels launch
 * N/256 CTAs that each loop N times over a column-strided load: their default N = 3840 is the smallest that puts
 * a CTA on each of the GTX480's 15 SMs (19-41 M cycles); `paper` is the full N = 4096 (16 CTAs). */
static const uint32_t sizes[][4] = {
    [ATAX] = {256, 384, 3840, 4096},   [BICG] = {256, 384, 3840, 4096},   [MVT] = {256, 384, 3840, 4096},
    [GESUMMV] = {256, 384, 3840, 4096}, [SYRK] = {32, 64, 128, 1024},      [SYR2K] = {32, 64, 96, 2048},
    [GEMM] = {64, 128, 192, 512},      [MM2] = {64, 128, 192, 2048},      [MM3] = {64, 128, 192, 512},
    [CONV2D] = {64, 512, 1024, 4096},  [CONV3D] = {16, 64, 128, 256},     [FDTD2D] = {64, 256, 512, 2048},
};
static const uint32_t fdtd_tmax[4] = {1, 2, 4, 500};
/* Size `mid`, for the OAWS paper's range: its benchmarks "execute between 70 million and 1.5 billion
 * instructions" (Sec. 5, thread instructions), and for SYRK, SYR2K and FDTD-2D `default` is below that (21 M, 14 M, 42 M) and `paper`
 * far above (about 10.8 G, 138 G, 84 G). `mid` is the smallest power of two N above `default` whose run lies in
 * the range, the rest as `default` (FDTD-2D's 4 time steps): SYRK and SYR2K N = 256, FDTD-2D N = 1024. The paper
 * gives no N; this is the input its range admits, not a fit to its results. */
static const uint32_t mid_n[FDTD2D + 1] = {[SYRK] = 256, [SYR2K] = 256, [FDTD2D] = 1024};

static int build_bench(struct build *b, enum bench which, int sz)
{
    uint64_t n = b->n ? b->n : sizes[which][sz];
    struct arena ar = {0x10000000ull};
    struct mw_kgen_kernel *k;
    struct pb *q, *q2, *q3;
#define NEWQ(v)                                                                                              \
    do {                                                                                                     \
        if (!(v = new_params(b))) return -1;                                                                 \
    } while (0)
#define LAUNCH(...)                                                                                          \
    do {                                                                                                     \
        if (!(k = launch(b, __VA_ARGS__))) return -1;                                                        \
    } while (0)
    switch (which) {
    case ATAX: { /* NX = NY = n; A, x, y, tmp */
        uint64_t A = alloc_f32(&ar, n * n), x = alloc_f32(&ar, n), y = alloc_f32(&ar, n), tmp = alloc_f32(&ar, n);
        NEWQ(q);
        *q = (struct pb){.n0 = n, .x = A, .xld = n, .y = x, .acc = tmp};
        LAUNCH("atax_kernel1", cdiv(n, 256), 1, 256, 1, 12, q, g_1d);
        SET(k, pro, pro_1d), SET(k, body, body_rowx_vec), k->iters = (int64_t)n;
        NEWQ(q2);
        *q2 = (struct pb){.n0 = n, .x = A, .xld = n, .y = tmp, .acc = y};
        LAUNCH("atax_kernel2", cdiv(n, 256), 1, 256, 1, 12, q2, g_1d);
        SET(k, pro, pro_1d), SET(k, body, body_colx_vec), k->iters = (int64_t)n;
        break;
    }
    case BICG: { /* A, r, s, p, q */
        uint64_t A = alloc_f32(&ar, n * n), r = alloc_f32(&ar, n), s = alloc_f32(&ar, n), p = alloc_f32(&ar, n),
                 qv = alloc_f32(&ar, n);
        NEWQ(q);
        *q = (struct pb){.n0 = n, .x = A, .xld = n, .y = r, .acc = s};
        LAUNCH("bicg_kernel1", cdiv(n, 256), 1, 256, 1, 12, q, g_1d);
        SET(k, pro, pro_1d), SET(k, body, body_vec_colx), k->iters = (int64_t)n;
        NEWQ(q2);
        *q2 = (struct pb){.n0 = n, .x = A, .xld = n, .y = p, .acc = qv};
        LAUNCH("bicg_kernel2", cdiv(n, 256), 1, 256, 1, 12, q2, g_1d);
        SET(k, pro, pro_1d), SET(k, body, body_rowx_vec), k->iters = (int64_t)n;
        break;
    }
    case MVT: { /* a, x1, x2, y_1, y_2 */
        uint64_t A = alloc_f32(&ar, n * n), x1 = alloc_f32(&ar, n), x2 = alloc_f32(&ar, n), y1 = alloc_f32(&ar, n),
                 y2 = alloc_f32(&ar, n);
        NEWQ(q);
        *q = (struct pb){.n0 = n, .x = A, .xld = n, .y = y1, .acc = x1};
        LAUNCH("mvt_kernel1", cdiv(n, 256), 1, 256, 1, 12, q, g_1d);
        SET(k, pro, pro_1d), SET(k, body, body_rowx_vec), k->iters = (int64_t)n;
        NEWQ(q2);
        *q2 = (struct pb){.n0 = n, .x = A, .xld = n, .y = y2, .acc = x2};
        LAUNCH("mvt_kernel2", cdiv(n, 256), 1, 256, 1, 12, q2, g_1d);
        SET(k, pro, pro_1d), SET(k, body, body_colx_vec), k->iters = (int64_t)n;
        break;
    }
    case GESUMMV: { /* A, B, x, y, tmp */
        uint64_t A = alloc_f32(&ar, n * n), B = alloc_f32(&ar, n * n), x = alloc_f32(&ar, n),
                 y = alloc_f32(&ar, n), tmp = alloc_f32(&ar, n);
        NEWQ(q);
        *q = (struct pb){.n0 = n, .x = A, .xld = n, .z = B, .zld = n, .y = x, .acc = tmp, .acc2 = y};
        LAUNCH("gesummv_kernel", cdiv(n, 256), 1, 256, 1, 16, q, g_1d);
        SET(k, pro, pro_1d), SET(k, body, body_gesummv), SET(k, epi, epi_gesummv), k->iters = (int64_t)n;
        break;
    }
    case SYRK: { /* N = M = n; A (N x M), C (N x N) */
        uint64_t A = alloc_f32(&ar, n * n), C = alloc_f32(&ar, n * n);
        NEWQ(q);
        *q = (struct pb){.n0 = n, .n1 = n, .x = A, .xld = n, .y = A, .yld = n, .acc = C, .accld = n};
        LAUNCH("syrk_kernel", cdiv(n, 32), cdiv(n, 8), 32, 8, 16, q, g_2d);
        SET(k, pro, pro_2d_beta), SET(k, body, body_syrk), k->iters = (int64_t)n;
        break;
    }
    case SYR2K: { /* A, B (N x M), C (N x N) */
        uint64_t A = alloc_f32(&ar, n * n), B = alloc_f32(&ar, n * n), C = alloc_f32(&ar, n * n);
        NEWQ(q);
        *q = (struct pb){.n0 = n, .n1 = n, .x = A, .xld = n, .y = B, .yld = n, .z = B, .zld = n, .w = A,
                         .wld = n, .acc = C, .accld = n};
        LAUNCH("syr2k_kernel", cdiv(n, 32), cdiv(n, 8), 32, 8, 20, q, g_2d);
        SET(k, pro, pro_2d_beta), SET(k, body, body_syr2k), k->iters = (int64_t)n;
        break;
    }
    case GEMM: { /* NI = NJ = NK = n; C = alpha A B + beta C */
        uint64_t A = alloc_f32(&ar, n * n), B = alloc_f32(&ar, n * n), C = alloc_f32(&ar, n * n);
        NEWQ(q);
        *q = (struct pb){.n0 = n, .n1 = n, .x = A, .xld = n, .y = B, .yld = n, .acc = C, .accld = n};
        LAUNCH("gemm_kernel", cdiv(n, 32), cdiv(n, 8), 32, 8, 16, q, g_2d);
        SET(k, pro, pro_2d_beta), SET(k, body, body_mm), k->iters = (int64_t)n;
        break;
    }
    case MM2: { /* C = A B; E = C D */
        uint64_t A = alloc_f32(&ar, n * n), B = alloc_f32(&ar, n * n), C = alloc_f32(&ar, n * n),
                 D = alloc_f32(&ar, n * n), E = alloc_f32(&ar, n * n);
        NEWQ(q);
        *q = (struct pb){.n0 = n, .n1 = n, .x = A, .xld = n, .y = B, .yld = n, .acc = C, .accld = n};
        LAUNCH("mm2_kernel1", cdiv(n, 32), cdiv(n, 8), 32, 8, 16, q, g_2d);
        SET(k, pro, pro_2d), SET(k, body, body_mm), k->iters = (int64_t)n;
        NEWQ(q2);
        *q2 = (struct pb){.n0 = n, .n1 = n, .x = C, .xld = n, .y = D, .yld = n, .acc = E, .accld = n};
        LAUNCH("mm2_kernel2", cdiv(n, 32), cdiv(n, 8), 32, 8, 16, q2, g_2d);
        SET(k, pro, pro_2d), SET(k, body, body_mm), k->iters = (int64_t)n;
        break;
    }
    case MM3: { /* E = A B; F = C D; G = E F */
        uint64_t A = alloc_f32(&ar, n * n), B = alloc_f32(&ar, n * n), C = alloc_f32(&ar, n * n),
                 D = alloc_f32(&ar, n * n), E = alloc_f32(&ar, n * n), F = alloc_f32(&ar, n * n),
                 G = alloc_f32(&ar, n * n);
        NEWQ(q);
        *q = (struct pb){.n0 = n, .n1 = n, .x = A, .xld = n, .y = B, .yld = n, .acc = E, .accld = n};
        LAUNCH("mm3_kernel1", cdiv(n, 32), cdiv(n, 8), 32, 8, 16, q, g_2d);
        SET(k, pro, pro_2d), SET(k, body, body_mm), k->iters = (int64_t)n;
        NEWQ(q2);
        *q2 = (struct pb){.n0 = n, .n1 = n, .x = C, .xld = n, .y = D, .yld = n, .acc = F, .accld = n};
        LAUNCH("mm3_kernel2", cdiv(n, 32), cdiv(n, 8), 32, 8, 16, q2, g_2d);
        SET(k, pro, pro_2d), SET(k, body, body_mm), k->iters = (int64_t)n;
        NEWQ(q3);
        *q3 = (struct pb){.n0 = n, .n1 = n, .x = E, .xld = n, .y = F, .yld = n, .acc = G, .accld = n};
        LAUNCH("mm3_kernel3", cdiv(n, 32), cdiv(n, 8), 32, 8, 16, q3, g_2d);
        SET(k, pro, pro_2d), SET(k, body, body_mm), k->iters = (int64_t)n;
        break;
    }
    case CONV2D: { /* NI = NJ = n */
        uint64_t A = alloc_f32(&ar, n * n), B = alloc_f32(&ar, n * n);
        NEWQ(q);
        *q = (struct pb){.ni = n, .nj = n, .x = A, .y = B};
        LAUNCH("Convolution2D_kernel", cdiv(n, 32), cdiv(n, 8), 32, 8, 16, q, g_conv2);
        SET(k, pro, body_conv2);
        break;
    }
    case CONV3D: { /* NI = NJ = NK = n; one launch per i in 1 .. NI-2 */
        uint64_t A = alloc_f32(&ar, n * n * n), B = alloc_f32(&ar, n * n * n);
        for (uint64_t i = 1; i < n - 1; i++) {
            NEWQ(q);
            *q = (struct pb){.ni = n, .nj = n, .nk = n, .x = A, .y = B, .p = (int64_t)i};
            LAUNCH("convolution3D_kernel", cdiv(n, 32), cdiv(n, 8), 32, 8, 20, q, g_conv3);
            SET(k, pro, body_conv3);
        }
        break;
    }
    case FDTD2D: { /* NX = NY = n; tmax steps of three kernels */
        uint32_t tmax = fdtd_tmax[sz];
        uint64_t fict = alloc_f32(&ar, tmax), ex = alloc_f32(&ar, n * (n + 1)), ey = alloc_f32(&ar, (n + 1) * n),
                 hz = alloc_f32(&ar, n * n);
        for (uint32_t t = 0; t < tmax; t++) {
            NEWQ(q);
            *q = (struct pb){.ni = n, .nj = n, .x = ex, .y = ey, .z = hz, .w = fict, .p = t};
            LAUNCH("fdtd_step1_kernel", cdiv(n, 32), cdiv(n, 8), 32, 8, 12, q, g_fd);
            SET(k, pro, body_fd1);
            LAUNCH("fdtd_step2_kernel", cdiv(n, 32), cdiv(n, 8), 32, 8, 12, q, g_fd2);
            SET(k, pro, body_fd2);
            LAUNCH("fdtd_step3_kernel", cdiv(n, 32), cdiv(n, 8), 32, 8, 12, q, g_fd);
            SET(k, pro, body_fd3);
        }
        break;
    }
    }
    return 0;
#undef NEWQ
#undef LAUNCH
}

static int open_pb(struct mw_workload *w, enum bench which, const char *name, const char *size, struct mw_err *e)
{
    bool choo = size && strcmp(size, "choo") == 0, mid = size && strcmp(size, "mid") == 0;
    if (mid && !mid_n[which])
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s: size 'mid' is SYRK's, SYR2K's and FDTD-2D's only", name);
    int sz = choo ? MW_SIZE_PAPER : mid ? MW_SIZE_DEFAULT : mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct build b = {0};
    b.choo = choo;
    b.n = mid ? mid_n[which] : 0;
    b.cap = which == CONV3D ? (int)sizes[CONV3D][sz] : which == FDTD2D ? (int)fdtd_tmax[sz] : 3;
    b.params = calloc((size_t)b.cap, sizeof *b.params);
    if (!b.params || build_bench(&b, which, sz) != 0) {
        free(b.params);
        free(b.p.kernels);
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (int i = 0; choo && i < b.p.nkernels; i++) {
        int64_t cap = b.p.kernels[i].k.grid[1] > 1 ? CHOO_ITERS_2D : CHOO_ITERS_1D;
        if (b.p.kernels[i].iters > cap) b.p.kernels[i].iters = cap;
    }
    b.p.owned = b.params;
    b.p.free_owned = free_owned;
    return mw_kgen_workload(w, name, &b.p, e);
}

#define OPENER(fn, which, name)                                                                              \
    int fn(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)                         \
    {                                                                                                        \
        (void)seed;                                                                                          \
        return open_pb(w, which, name, size, e);                                                             \
    }
OPENER(mw_wl_polybench_atax, ATAX, "polybench.atax")
OPENER(mw_wl_polybench_bicg, BICG, "polybench.bicg")
OPENER(mw_wl_polybench_mvt, MVT, "polybench.mvt")
OPENER(mw_wl_polybench_gesummv, GESUMMV, "polybench.gesummv")
OPENER(mw_wl_polybench_syrk, SYRK, "polybench.syrk")
OPENER(mw_wl_polybench_syr2k, SYR2K, "polybench.syr2k")
OPENER(mw_wl_polybench_gemm, GEMM, "polybench.gemm")
OPENER(mw_wl_polybench_2mm, MM2, "polybench.2mm")
OPENER(mw_wl_polybench_3mm, MM3, "polybench.3mm")
OPENER(mw_wl_polybench_2dconv, CONV2D, "polybench.2dconv")
OPENER(mw_wl_polybench_3dconv, CONV3D, "polybench.3dconv")
OPENER(mw_wl_polybench_fdtd2d, FDTD2D, "polybench.fdtd2d")
