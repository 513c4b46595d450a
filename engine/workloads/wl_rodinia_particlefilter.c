/* Rodinia PARTICLEFILTER, float version (cuda/particlefilter/ex_particle_CUDA_float_seq.cu; its arrays are
 * double): per frame likelihood_kernel (particle motion, the 69-pixel disk gather from the video, weights and a
 * shared-memory tree of partial sums), sum_kernel, normalize_weights_kernel (thread 0 builds the CDF) and
 * find_index_kernel (each particle's linear CDF search), 512-thread CTAs. The host runs the same filter on the
 * seeded synthetic video (a disk moving +1 x, -2 y per frame, noise) so the gathers and CDF searches are real. */
#include "wl_rodinia_lgen.h"
#include "workloads.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PF_TPB 512
#define PF_R 5 /* the disk's radius */
#define PF_DIAM (2 * PF_R - 1)

struct pf {
    int64_t X, Y, nfr, np, ones, max_size;
    int32_t objxy[2 * PF_DIAM * PF_DIAM];
    uint64_t arrayX, arrayY, xj, yj, cdf, u, lik, w, video, objxy_d, ind, seed, psum;
};
/* one frame's launches: the rounded particle positions likelihood_kernel sees, find_index's CDF indices */
struct pf_frame {
    const struct pf *g;
    int64_t k;
    int32_t *rx, *ry; /* dev_round_double(arrayX[i]), (arrayY[i]) */
    int32_t *idx;     /* find_index: first x with CDF[x] >= u[i], -1 if none */
};
struct pf_owned {
    struct pf g;
    struct pf_frame *fr;
    struct lg_kernel *lk; /* 4 per frame */
    int nfr;
};

/* ---- the host side: Rodinia's LCG, Box-Muller, video and filter ---- */
static double randu(int32_t *s, int64_t i)
{
    int32_t num = (int32_t)(1103515245u * (uint32_t)s[i] + 12345u);
    s[i] = num % INT_MAX;
    return fabs(s[i] / (double)INT_MAX);
}
static double randn(int32_t *s, int64_t i)
{
    double u = randu(s, i), v = randu(s, i);
    return sqrt(-2 * log(u)) * cos(2 * 3.14159265358979323846 * v);
}
/* Rodinia's roundDouble returns newValue++ (the old value) above .5 too: a truncation */
static double round_d(double v) { return (int)v; }

static void video(uint8_t *I, int64_t X, int64_t Y, int64_t nfr, int32_t *seed)
{
    int64_t max = X * Y * nfr, x0 = (int64_t)round_d(Y / 2.0), y0 = (int64_t)round_d(X / 2.0);
    uint8_t *m = calloc((size_t)max, 1);
    if (!m) return;
    I[x0 * Y * nfr + y0 * nfr] = 1;
    for (int64_t k = 1; k < nfr; k++) {
        int64_t xk = llabs(x0 + (k - 1)), yk = llabs(y0 - 2 * (k - 1)), pos = yk * Y * nfr + xk * nfr + k;
        I[pos >= max ? 0 : pos] = 1;
    }
    for (int64_t z = 0; z < nfr; z++) /* imdilate_disk with radius 5 */
        for (int64_t x = 0; x < X; x++)
            for (int64_t y = 0; y < Y; y++) {
                if (I[x * Y * nfr + y * nfr + z] != 1) continue;
                for (int64_t a = x - PF_R < 0 ? 0 : x - PF_R; a < (x + PF_R > X ? X : x + PF_R); a++)
                    for (int64_t b = y - PF_R < 0 ? 0 : y - PF_R; b < (y + PF_R > Y ? Y : y + PF_R); b++)
                        if (sqrt((double)((a - x) * (a - x) + (b - y) * (b - y))) < PF_R) m[a * Y * nfr + b * nfr + z] = 1;
            }
    for (int64_t i = 0; i < max; i++) { /* setIf 0 -> 100, 1 -> 228, then noise from seed[0] */
        uint8_t v = m[i] ? 228 : 100;
        I[i] = (uint8_t)(v + (uint8_t)(int)(5 * randn(seed, 0)));
    }
    free(m);
}

static int64_t disk(int32_t *objxy)
{
    int64_t n = 0;
    for (int x = 0; x < PF_DIAM; x++)
        for (int y = 0; y < PF_DIAM; y++)
            if (sqrt((double)((x - PF_R + 1) * (x - PF_R + 1) + (y - PF_R + 1) * (y - PF_R + 1))) < PF_R)
                objxy[2 * n] = y - (PF_R - 1), objxy[2 * n + 1] = x - (PF_R - 1), n++;
    return n;
}

/* ind[i * countOnes + y] before and after the max_size test */
static int64_t ind_raw(const struct pf *g, int64_t k, int32_t rx, int32_t ry, int64_t y)
{
    int64_t ix = rx + g->objxy[2 * y + 1], iy = ry + g->objxy[2 * y];
    return llabs(ix * g->Y * g->nfr + iy * g->nfr + k);
}
static int64_t ind_of(const struct pf *g, int64_t k, int32_t rx, int32_t ry, int64_t y)
{
    int64_t v = ind_raw(g, k, rx, ry, y);
    return v >= g->max_size ? 0 : v;
}

/* The filter over frames 1 .. nfr-1 as the kernels compute it (the CDF from all normalised weights, u1 from
 * block 0's draw), recording what each frame's launches address. */
static int filter(struct pf_owned *o, const uint8_t *I, int32_t *seed)
{
    const struct pf *g = &o->g;
    int64_t np = g->np;
    double *ax = malloc((size_t)np * sizeof *ax), *ay = malloc((size_t)np * sizeof *ay);
    double *xj = malloc((size_t)np * sizeof *xj), *yj = malloc((size_t)np * sizeof *yj);
    double *w = malloc((size_t)np * sizeof *w), *cdf = malloc((size_t)np * sizeof *cdf);
    int rc = -1;
    if (!ax || !ay || !xj || !yj || !w || !cdf) goto out;
    for (int64_t i = 0; i < np; i++) xj[i] = round_d(g->Y / 2.0), yj[i] = round_d(g->X / 2.0);
    for (int f = 0; f < o->nfr; f++) {
        struct pf_frame *fr = &o->fr[f];
        double sum = 0;
        for (int64_t i = 0; i < np; i++) {
            ax[i] = xj[i], ay[i] = yj[i];
            ax[i] += 1.0 + 5.0 * randn(seed, i);
            ay[i] += -2.0 + 2.0 * randn(seed, i);
            fr->rx[i] = (int32_t)round_d(ax[i]), fr->ry[i] = (int32_t)round_d(ay[i]);
            double l = 0;
            for (int64_t y = 0; y < g->ones; y++) {
                double p = I[ind_of(g, fr->k, fr->rx[i], fr->ry[i], y)];
                l += ((p - 100) * (p - 100) - (p - 228) * (p - 228)) / 50.0;
            }
            w[i] = 1 / (double)np * exp(l / (double)g->ones);
            sum += w[i];
        }
        for (int64_t i = 0; i < np; i++) w[i] /= sum;
        cdf[0] = w[0];
        for (int64_t i = 1; i < np; i++) cdf[i] = w[i] + cdf[i - 1];
        double u1 = 1 / (double)np * randu(seed, 0);
        for (int64_t i = 0; i < np; i++) {
            double u = u1 + (double)i / (double)np;
            int64_t x = 0;
            while (x < np && !(cdf[x] >= u)) x++;
            fr->idx[i] = x < np ? (int32_t)x : -1;
            int64_t j = x < np ? x : np - 1;
            xj[i] = ax[j], yj[i] = ay[j];
        }
    }
    rc = 0;
out:
    free(ax), free(ay), free(xj), free(yj), free(w), free(cdf);
    return rc;
}

/* ---- the kernels: i = blockDim.x * blockIdx.x + threadIdx.x ---- */
#define FR ((const struct pf_frame *)d)
#define G (FR->g)
#define I_ ((int64_t)t->gtid)
#define D8(base, idx) ((base) + (uint64_t)(idx)*8u)
static bool p_in(const struct mw_tctx *t, const int64_t *v, const void *d) { (void)v; return I_ < G->np; }
static bool p_i0(const struct mw_tctx *t, const int64_t *v, const void *d) { (void)v, (void)d; return t->gtid == 0; }
static bool p_t0(const struct mw_tctx *t, const int64_t *v, const void *d) { (void)v, (void)d; return t->tid[0] == 0; }
/* the tree: if (threadIdx.x < s), s = blockDim.x / 2 >> v[0] */
static bool p_tree(const struct mw_tctx *t, const int64_t *v, const void *d)
{
    (void)d;
    return t->tid[0] < (t->ntid[0] / 2 >> v[0]);
}
static bool p_far(const struct mw_tctx *t, const int64_t *v, const void *d)
{
    return p_in(t, v, d) && ind_raw(G, FR->k, FR->rx[I_], FR->ry[I_], v[0]) >= G->max_size;
}
static int64_t n_ones(const struct mw_tctx *t, const int64_t *v, const void *d) { return p_in(t, v, d) ? G->ones : 0; }
static int64_t n_tree(const struct mw_tctx *t, const int64_t *v, const void *d)
{
    (void)v, (void)d;
    int64_t n = 0;
    for (uint32_t s = t->ntid[0] / 2; s > 0; s >>= 1) n++;
    return n;
}
static int64_t n_blocks(const struct mw_tctx *t, const int64_t *v, const void *d)
{
    (void)v;
    return t->gtid == 0 ? (G->np + PF_TPB - 1) / PF_TPB : 0;
}
static int64_t n_cdf(const struct mw_tctx *t, const int64_t *v, const void *d)
{
    (void)v;
    return t->gtid == 0 ? G->np - 1 : 0;
}
/* find_index: CDF[x] is read up to the first x with CDF[x] >= u[i], all Nparticles when none is */
static int64_t n_search(const struct mw_tctx *t, const int64_t *v, const void *d)
{
    if (!p_in(t, v, d)) return 0;
    return FR->idx[I_] < 0 ? G->np : FR->idx[I_] + 1;
}

#define A1(name, field)                                                                                      \
    static uint64_t name(const struct mw_tctx *t, const int64_t *v, const void *d)                          \
    {                                                                                                        \
        (void)v;                                                                                             \
        return D8(G->field, I_);                                                                             \
    }
A1(a_ax, arrayX) A1(a_ay, arrayY) A1(a_xj, xj) A1(a_yj, yj) A1(a_u, u) A1(a_lik, lik) A1(a_w, w)
static uint64_t a_seed(const struct mw_tctx *t, const int64_t *v, const void *d) { (void)v; return G->seed + (uint64_t)I_ * 4; }
static uint64_t a_seed0(const struct mw_tctx *t, const int64_t *v, const void *d) { (void)t, (void)v; return G->seed; }
static uint64_t a_u0(const struct mw_tctx *t, const int64_t *v, const void *d) { (void)t, (void)v; return G->u; }
static uint64_t a_ps0(const struct mw_tctx *t, const int64_t *v, const void *d) { (void)t, (void)v; return G->psum; }
static uint64_t a_psb(const struct mw_tctx *t, const int64_t *v, const void *d) { (void)v; return D8(G->psum, t->ctaid[0]); }
static uint64_t a_psx(const struct mw_tctx *t, const int64_t *v, const void *d) { (void)t; return D8(G->psum, v[0]); }
/* objxy[y * 2 + 1], objxy[y * 2] */
static uint64_t a_ox(const struct mw_tctx *t, const int64_t *v, const void *d) { (void)t; return G->objxy_d + (uint64_t)(2 * v[0] + 1) * 4; }
static uint64_t a_oy(const struct mw_tctx *t, const int64_t *v, const void *d) { (void)t; return G->objxy_d + (uint64_t)(2 * v[0]) * 4; }
/* ind[i * countOnes + y] and I[ind[...]] */
static uint64_t a_ind(const struct mw_tctx *t, const int64_t *v, const void *d) { return G->ind + (uint64_t)(I_ * G->ones + v[0]) * 4; }
static uint64_t a_pix(const struct mw_tctx *t, const int64_t *v, const void *d)
{
    return G->video + (uint64_t)ind_of(G, FR->k, FR->rx[I_], FR->ry[I_], v[0]);
}
/* shared: buffer[threadIdx.x], buffer[threadIdx.x + s], buffer[0]; normalize's sumWeights and u1 */
static uint64_t s_buf(const struct mw_tctx *t, const int64_t *v, const void *d) { (void)v, (void)d; return (uint64_t)t->tid[0] * 8; }
static uint64_t s_bufs(const struct mw_tctx *t, const int64_t *v, const void *d) { return s_buf(t, v, d) + (uint64_t)(t->ntid[0] / 2 >> v[0]) * 8; }
static uint64_t s_0(const struct mw_tctx *t, const int64_t *v, const void *d) { (void)t, (void)v, (void)d; return 0; }
static uint64_t s_8(const struct mw_tctx *t, const int64_t *v, const void *d) { (void)t, (void)v, (void)d; return 8; }
/* normalize's CDF loop from x = 1: weights[x], CDF[x]; weights[0], CDF[0] before it */
static uint64_t a_wx(const struct mw_tctx *t, const int64_t *v, const void *d) { (void)t; return D8(G->w, v[0] + 1); }
static uint64_t a_cx(const struct mw_tctx *t, const int64_t *v, const void *d) { (void)t; return D8(G->cdf, v[0] + 1); }
static uint64_t a_w0(const struct mw_tctx *t, const int64_t *v, const void *d) { (void)t, (void)v; return G->w; }
static uint64_t a_c0(const struct mw_tctx *t, const int64_t *v, const void *d) { (void)t, (void)v; return G->cdf; }
/* find_index: CDF[x], then arrayX[index], arrayY[index] */
static uint64_t a_cdf(const struct mw_tctx *t, const int64_t *v, const void *d) { (void)t; return D8(G->cdf, v[0]); }
static int64_t found(const struct mw_tctx *t, const void *d) { return FR->idx[I_] < 0 ? G->np - 1 : FR->idx[I_]; }
static uint64_t a_axj(const struct mw_tctx *t, const int64_t *v, const void *d) { (void)v; return D8(G->arrayX, found(t, d)); }
static uint64_t a_ayj(const struct mw_tctx *t, const int64_t *v, const void *d) { (void)v; return D8(G->arrayY, found(t, d)); }
#undef A1

#define P p_in
#define LD8(d_, a, fn, p) LG_LDG(8, d_, a, fn, p)
#define ST8(v_, a, fn, p) LG_STG(8, v_, a, fn, p)
#define DPP(d_, s1, s2) LG_DP(d_, s1, s2, P)
/* d_randu(seed, i): the LCG in integers (num % INT_MAX), the store, then the division by M */
#define RANDU(r, fa, fs, p) LG_LDG(4, 40, 1, fa, p), LG_ALU(40, 40, 0, p), LG_ALU(41, 40, 0, p), LG_ALU(41, 41, 40, p), \
    LG_ALU(40, 40, 41, p), LG_STG(4, 40, 1, fs, p), LG_SFU(r, 40, p), LG_DP(r, r, 0, p), LG_DP(r, r, 0, p),       \
    LG_DP(r, r, 0, p), LG_DP(r, r, 0, p)
/* d_randn: two draws, log, cos(2 pi v), sqrt: about 30 fp64 operations */
#define RANDN(r) RANDU(42, a_seed, a_seed, P), RANDU(43, a_seed, a_seed, P), LG_SFU(44, 42, P), DPP(44, 44, 42),     \
    DPP(44, 44, 44), DPP(44, 44, 0), DPP(44, 44, 44), DPP(44, 44, 0), DPP(44, 44, 44), DPP(44, 44, 0),              \
    DPP(44, 44, 0), DPP(45, 43, 0), DPP(45, 45, 0), DPP(45, 45, 45), DPP(45, 45, 0), DPP(45, 45, 45),               \
    DPP(45, 45, 0), DPP(45, 45, 45), DPP(45, 45, 0), LG_SFU(46, 44, P), DPP(46, 46, 44), DPP(46, 46, 46),           \
    DPP(46, 46, 0), DPP(r, 46, 45)
/* a double division (reciprocal estimate and Newton steps) */
#define DDIV(r, a, b, p) LG_SFU(47, b, p), LG_DP(47, 47, b, p), LG_DP(47, 47, 47, p), LG_DP(47, 47, b, p),        \
    LG_DP(47, 47, 47, p), LG_DP(r, a, 47, p), LG_DP(48, r, b, p), LG_DP(r, 48, 47, p)
/* dev_round_double: (int) v, the fraction test, the conversion back */
#define ROUND(r, s) LG_SFU(r, s, P), LG_SFU(49, r, P), DPP(49, s, 49), LG_DP(49, 49, 0, P), LG_ALU(r, r, 49, P)

/* Registers: r1 i, r2 guard, r3-r6 positions, r8 1/Np, r10-r13 addresses, r20/r21 rounded position, r22-r27
 * index arithmetic, r30 the sum, r31-r35 pixel terms, r36-r39 likelihood and weight, r40-r49 temporaries. */
static const struct lg_op likelihood_k[] = {
    LG_ALU(1, 0, 0, NULL), LG_ALU(1, 1, 0, NULL), LG_ALU(2, 1, 0, NULL), LG_ALU(10, 1, 0, NULL), LG_BRA(2, NULL),
    LD8(3, 10, a_xj, P), LD8(4, 10, a_yj, P), ST8(3, 10, a_ax, P), ST8(4, 10, a_ay, P),
    DDIV(8, 0, 0, P), ST8(8, 10, a_w, P),
    RANDN(50), DPP(3, 3, 0), DPP(3, 50, 3), ST8(3, 10, a_ax, P),
    RANDN(51), DPP(4, 4, 0), DPP(4, 51, 4), ST8(4, 10, a_ay, P),
    LG_BAR,
    LD8(5, 10, a_ax, P), LD8(6, 10, a_ay, P), ROUND(20, 5), ROUND(21, 6), LG_ALU(11, 1, 0, P),
    LG_LOOP(n_ones),
        LG_LDG(4, 22, 12, a_ox, NULL), LG_LDG(4, 23, 12, a_oy, NULL), LG_ALU(22, 20, 22, NULL),
        LG_ALU(23, 21, 23, NULL), LG_ALU(24, 22, 0, NULL), LG_ALU(24, 23, 24, NULL), LG_ALU(24, 24, 0, NULL),
        LG_ALU(25, 24, 0, NULL), LG_STG(4, 25, 11, a_ind, NULL), LG_ALU(26, 25, 0, NULL), LG_BRA(26, NULL),
        LG_STG(4, 0, 11, a_ind, p_far), LG_ALU(11, 11, 0, NULL), LG_ALU(12, 12, 0, NULL),
    LG_END(12),
    LG_DP(30, 0, 0, P), LG_ALU(11, 1, 0, P),
    LG_LOOP(n_ones),
        LG_LDG(4, 31, 11, a_ind, NULL), LG_ALU(32, 31, 0, NULL), LG_LDG(1, 33, 32, a_pix, NULL),
        LG_ALU(34, 33, 0, NULL), LG_ALU(35, 33, 0, NULL), LG_SFU(34, 34, NULL), LG_SFU(35, 35, NULL),
        LG_DP(34, 34, 34, NULL), LG_DP(35, 35, 35, NULL), LG_DP(34, 34, 35, NULL), LG_DP(34, 34, 0, NULL),
        LG_DP(30, 30, 34, NULL), LG_ALU(11, 11, 0, NULL),
    LG_END(11),
    LG_SFU(36, 0, P), DDIV(36, 30, 36, P), ST8(36, 10, a_lik, P), LD8(37, 10, a_w, P),
    /* exp(): range reduction, polynomial, scaling */
    DPP(38, 36, 0), LG_SFU(39, 38, P), DPP(38, 39, 0), DPP(38, 36, 38), DPP(39, 38, 0), DPP(39, 39, 38),
    DPP(39, 39, 38), DPP(39, 39, 38), DPP(39, 39, 38), DPP(39, 39, 38), DPP(39, 39, 38), DPP(39, 39, 38),
    LG_ALU(39, 39, 0, P), DPP(37, 37, 39), ST8(37, 10, a_w, P),
    LG_STS(8, 0, 13, s_buf, NULL), LG_BAR, LD8(37, 10, a_w, P), LG_STS(8, 37, 13, s_buf, P), LG_BAR,
    LG_LOOP(n_tree),
        LG_ALU(14, 13, 0, NULL), LG_BRA(14, p_tree), LG_LDS(8, 41, 13, s_buf, p_tree),
        LG_LDS(8, 42, 14, s_bufs, p_tree), LG_DP(41, 41, 42, p_tree), LG_STS(8, 41, 13, s_buf, p_tree), LG_BAR,
        LG_ALU(15, 15, 0, NULL),
    LG_END(15),
    LG_LDS(8, 41, 13, s_0, p_t0), LG_STG(8, 41, 10, a_psb, p_t0), LG_BAR};

/* sum_kernel: thread 0 adds the num_blocks = ceil(Nparticles / 512.0) partial sums into partial_sums[0] */
static const struct lg_op sum_k[] = {
    LG_ALU(1, 0, 0, NULL), LG_ALU(1, 1, 0, NULL), LG_ALU(2, 1, 0, NULL), LG_BRA(2, NULL), LG_SFU(3, 0, p_i0),
    DDIV(3, 3, 0, p_i0), LG_SFU(3, 3, p_i0), LG_SFU(4, 3, p_i0), LG_DP(5, 0, 0, p_i0),
    LG_LOOP(n_blocks), LG_LDG(8, 6, 7, a_psx, NULL), LG_DP(5, 5, 6, NULL), LG_ALU(7, 7, 0, NULL), LG_END(7),
    LG_STG(8, 5, 7, a_ps0, p_i0)};

/* normalize_weights_kernel: weights[i] /= partial_sums[0] (through shared sumWeights); thread 0 of block 0
 * builds the CDF serially and draws u[0]; every block then reads u1 = u[0] and writes u[i] = u1 + i / Np. */
static const struct lg_op normalize_k[] = {
    LG_ALU(1, 0, 0, NULL), LG_ALU(1, 1, 0, NULL), LG_ALU(10, 1, 0, NULL), LG_LDG(8, 3, 0, a_ps0, p_t0),
    LG_STS(8, 3, 0, s_8, p_t0), LG_BAR, LG_LDS(8, 3, 0, s_8, P), LD8(4, 10, a_w, P), DDIV(4, 4, 3, P),
    ST8(4, 10, a_w, P), LG_BAR,
    LG_LDG(8, 5, 0, a_w0, p_i0), LG_STG(8, 5, 0, a_c0, p_i0),
    LG_LOOP(n_cdf), LG_LDG(8, 6, 11, a_wx, NULL), LG_DP(5, 5, 6, NULL), LG_STG(8, 5, 11, a_cx, NULL),
        LG_ALU(11, 11, 0, NULL), LG_ALU(12, 11, 0, NULL), LG_END(12),
    RANDU(7, a_seed0, a_seed0, p_i0), DDIV(8, 0, 0, p_i0), LG_DP(7, 8, 7, p_i0), LG_STG(8, 7, 0, a_u0, p_i0),
    LG_BAR, LG_LDG(8, 9, 0, a_u0, p_t0), LG_STS(8, 9, 0, s_0, p_t0), LG_BAR,
    LG_LDS(8, 9, 0, s_0, P), LG_SFU(13, 1, P), DDIV(13, 13, 0, P), DPP(13, 9, 13), ST8(13, 10, a_u, P)};

/* find_index_kernel: the search loop's CDF[x] (one word for the warp), then the gather and xj/yj */
static const struct lg_op find_k[] = {
    LG_ALU(1, 0, 0, NULL), LG_ALU(1, 1, 0, NULL), LG_ALU(10, 1, 0, NULL), LG_ALU(2, 1, 0, NULL),
    LG_BRA(2, NULL), LD8(3, 10, a_u, P), LG_ALU(4, 0, 0, P), LG_ALU(11, 0, 0, P),
    LG_LOOP(n_search), LG_LDG(8, 5, 11, a_cdf, NULL), LG_DP(6, 5, 3, NULL), LG_BRA(6, NULL),
        LG_ALU(4, 4, 0, NULL), LG_ALU(11, 11, 0, NULL), LG_ALU(7, 4, 0, NULL), LG_END(7),
    LG_ALU(4, 4, 0, P), LG_ALU(12, 4, 0, P), LD8(8, 12, a_axj, P), LD8(9, 12, a_ayj, P), ST8(8, 10, a_xj, P),
    ST8(9, 10, a_yj, P), LG_BAR};
#undef P
#undef FR
#undef G
#undef I_

static void pf_free(void *p)
{
    struct pf_owned *o = p;
    if (!o) return;
    if (o->fr)
        for (int f = 0; f < o->nfr; f++) free(o->fr[f].rx), free(o->fr[f].ry), free(o->fr[f].idx);
    free(o->fr), free(o->lk);
    free(o);
}

#define N(a) (int)(sizeof(a) / sizeof((a)[0]))

int mw_wl_rodinia_particlefilter(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    /* video side, frames, particles. paper: Rodinia's run, -x 128 -y 128 -z 10 -np 1000. */
    static const int64_t side[4] = {64, 128, 128, 128}, frames[4] = {2, 3, 2, 10}, nps[4] = {320, 2048, 7680, 1000};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct pf_owned *o = calloc(1, sizeof *o);
    struct mw_kgen_program p = {.owned = o, .free_owned = pf_free};
    uint8_t *I = NULL;
    int32_t *sd = NULL;
    if (!o) goto oom;
    struct pf *g = &o->g;
    g->X = g->Y = side[sz], g->nfr = frames[sz], g->np = nps[sz];
    g->max_size = g->X * g->Y * g->nfr;
    g->ones = disk(g->objxy);
    o->nfr = (int)g->nfr - 1;
    o->fr = calloc((size_t)o->nfr, sizeof *o->fr);
    o->lk = calloc((size_t)o->nfr * 4, sizeof *o->lk);
    I = calloc((size_t)g->max_size, 1);
    sd = malloc((size_t)g->np * sizeof *sd);
    if (!o->fr || !o->lk || !I || !sd) goto oom;
    /* seed[i] = time(0) * i in Rodinia: here a seed-derived stand-in for time(0) */
    int32_t t0 = (int32_t)(1500000000u + (uint32_t)(seed * 2654435761u % 100000000u));
    for (int64_t i = 0; i < g->np; i++) sd[i] = (int32_t)((uint32_t)t0 * (uint32_t)i);
    video(I, g->X, g->Y, g->nfr, sd);
    for (int f = 0; f < o->nfr; f++) {
        struct pf_frame *fr = &o->fr[f];
        fr->g = g, fr->k = f + 1;
        fr->rx = malloc((size_t)g->np * sizeof *fr->rx);
        fr->ry = malloc((size_t)g->np * sizeof *fr->ry);
        fr->idx = malloc((size_t)g->np * sizeof *fr->idx);
        if (!fr->rx || !fr->ry || !fr->idx) goto oom;
    }
    if (filter(o, I, sd) != 0) goto oom;
    uint64_t a = 0x10000000ull, n8 = (uint64_t)g->np * 8;
#define ALLOC(f, bytes) (g->f = a, a += ((uint64_t)(bytes) + 255) & ~255ull)
    ALLOC(arrayX, n8);
    ALLOC(arrayY, n8);
    ALLOC(xj, n8);
    ALLOC(yj, n8);
    ALLOC(cdf, n8);
    ALLOC(u, n8);
    ALLOC(lik, n8);
    ALLOC(w, n8);
    ALLOC(video, g->max_size);
    ALLOC(objxy_d, g->ones * 8);
    ALLOC(ind, g->ones * g->np * 4);
    ALLOC(seed, g->np * 4);
    ALLOC(psum, n8);
#undef ALLOC
    static const char *const names[4] = {"likelihood_kernel", "sum_kernel", "normalize_weights_kernel",
                                         "find_index_kernel"};
    static const struct lg_op *const progs[4] = {likelihood_k, sum_k, normalize_k, find_k};
    static const int nops[4] = {N(likelihood_k), N(sum_k), N(normalize_k), N(find_k)};
    static const uint32_t regs[4] = {36, 14, 20, 18}, shm[4] = {PF_TPB * 8, 0, 16, 0}; /* registers estimated */
    for (int f = 0; f < o->nfr; f++)
        for (int j = 0; j < 4; j++) {
            struct lg_kernel *lk = &o->lk[4 * f + j];
            *lk = (struct lg_kernel){progs[j], nops[j], &o->fr[f]};
            struct mw_kgen_kernel *k = mw_kgen_append(&p);
            if (!k) goto oom;
            snprintf(k->k.name, sizeof k->k.name, "%s", names[j]);
            k->k.grid[0] = (uint32_t)((g->np + PF_TPB - 1) / PF_TPB), k->k.grid[1] = k->k.grid[2] = 1;
            k->k.block[0] = PF_TPB, k->k.block[1] = k->k.block[2] = 1;
            k->k.nregs = regs[j], k->k.shmem = shm[j];
            k->data = lk;
            k->custom = lg_next;
            k->ninsts = (uint32_t)nops[j];
            k->scratch_bytes = sizeof(struct lg_warp);
        }
    free(I), free(sd);
    return mw_kgen_workload(w, "rodinia.particlefilter", &p, e);
oom:
    free(I), free(sd);
    free(p.kernels);
    pf_free(o);
    return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
}

int mw_wl_particlefilter_video(int64_t X, int64_t Y, int64_t nfr, uint8_t *I)
{
    int32_t s0 = 0; /* seed[0] = time(0) * 0 */
    memset(I, 0, (size_t)(X * Y * nfr));
    video(I, X, Y, nfr, &s0);
    return 0;
}
