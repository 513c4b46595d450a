/* Rodinia HOTSPOT (cuda/hotspot: calculate_temp): 16x16 blocks, each loading a tile of temperature and power
 * into shared memory, running `iteration` (pyramid height) stencil steps on the tile and writing back the inner
 * (16 - 2 * iteration)^2 points; the host launches one kernel per pyramid of time steps, swapping the buffers. */
#include "kgen.h"
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>

#define BS 16 /* BLOCK_SIZE */

struct hs {
    int64_t rows, cols, iteration, border, small;
    uint64_t power, src, dst;
};
/* shared memory: temp_on_cuda, power_on_cuda, temp_t */
#define SH_TEMP 0u
#define SH_POWER (BS * BS * 4u)
#define SH_TT (2u * BS * BS * 4u)

static int64_t blk_y(const struct mw_tctx *t, const struct hs *h) { return h->small * t->ctaid[1] - h->border; }
static int64_t blk_x(const struct mw_tctx *t, const struct hs *h) { return h->small * t->ctaid[0] - h->border; }
static int64_t yidx(const struct mw_tctx *t, const struct hs *h) { return blk_y(t, h) + t->tid[1]; }
static int64_t xidx(const struct mw_tctx *t, const struct hs *h) { return blk_x(t, h) + t->tid[0]; }
static void valid(const struct mw_tctx *t, const struct hs *h, int64_t *ymin, int64_t *ymax, int64_t *xmin,
                  int64_t *xmax)
{
    int64_t by = blk_y(t, h), bx = blk_x(t, h);
    *ymin = by < 0 ? -by : 0;
    *ymax = by + BS - 1 > h->rows - 1 ? BS - 1 - (by + BS - 1 - h->rows + 1) : BS - 1;
    *xmin = bx < 0 ? -bx : 0;
    *xmax = bx + BS - 1 > h->cols - 1 ? BS - 1 - (bx + BS - 1 - h->cols + 1) : BS - 1;
}
#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))

static bool p_load(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    const struct hs *h = d;
    return IN_RANGE(yidx(t, h), 0, h->rows - 1) && IN_RANGE(xidx(t, h), 0, h->cols - 1);
}
static bool computed(const struct mw_tctx *t, int64_t i, const struct hs *h)
{
    int64_t ymin, ymax, xmin, xmax, tx = t->tid[0], ty = t->tid[1];
    valid(t, h, &ymin, &ymax, &xmin, &xmax);
    return IN_RANGE(tx, i + 1, BS - i - 2) && IN_RANGE(ty, i + 1, BS - i - 2) && IN_RANGE(tx, xmin, xmax) &&
           IN_RANGE(ty, ymin, ymax);
}
static bool p_comp(const struct mw_tctx *t, int64_t it, const void *d) { return computed(t, it, d); }
static bool p_notlast(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)t;
    return it < ((const struct hs *)d)->iteration - 1;
}
static bool p_copy(const struct mw_tctx *t, int64_t it, const void *d) { return p_notlast(t, it, d) && p_comp(t, it, d); }
static bool p_final(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    return computed(t, ((const struct hs *)d)->iteration - 1, d);
}

static uint64_t a_src(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    const struct hs *h = d;
    return h->src + (uint64_t)(h->cols * yidx(t, h) + xidx(t, h)) * 4;
}
static uint64_t a_power(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    const struct hs *h = d;
    return h->power + (uint64_t)(h->cols * yidx(t, h) + xidx(t, h)) * 4;
}
static uint64_t a_dst(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    const struct hs *h = d;
    return h->dst + (uint64_t)(h->cols * yidx(t, h) + xidx(t, h)) * 4;
}
/* shared tiles [ty][tx] and the clamped neighbours */
static uint64_t sh(uint32_t base, int64_t y, int64_t x) { return base + (uint64_t)(y * BS + x) * 4; }
static int64_t clamp(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }
#define SH_FN(name, base, yexpr, xexpr)                                                                      \
    static uint64_t name(const struct mw_tctx *t, int64_t it, const void *d)                                \
    {                                                                                                        \
        (void)it;                                                                                            \
        int64_t ymin, ymax, xmin, xmax, ty = t->tid[1], tx = t->tid[0];                                      \
        valid(t, d, &ymin, &ymax, &xmin, &xmax);                                                             \
        (void)ymin, (void)ymax, (void)xmin, (void)xmax;                                                      \
        return sh(base, yexpr, xexpr);                                                                       \
    }
SH_FN(s_temp, SH_TEMP, ty, tx)
SH_FN(s_power, SH_POWER, ty, tx)
SH_FN(s_tt, SH_TT, ty, tx)
SH_FN(s_n, SH_TEMP, clamp(ty - 1, ymin, BS), tx)
SH_FN(s_s, SH_TEMP, clamp(ty + 1, -1, ymax), tx)
SH_FN(s_w, SH_TEMP, ty, clamp(tx - 1, xmin, BS))
SH_FN(s_e, SH_TEMP, ty, clamp(tx + 1, -1, xmax))

#define LDG(d, a, fn, p) {MW_OP_LD_GLOBAL, 4, 1, 1, {d}, {a}, fn, p}
#define STG(v, a, fn, p) {MW_OP_ST_GLOBAL, 4, 0, 2, {0}, {a, v}, fn, p}
#define LDS(d, a, fn, p) {MW_OP_LD_SHARED, 4, 1, 1, {d}, {a}, fn, p}
#define STS(v, a, fn, p) {MW_OP_ST_SHARED, 4, 0, 2, {0}, {a, v}, fn, p}
#define ALUP(d, s1, s2, p) {MW_OP_ALU, 0, 1, 2, {d}, {s1, s2}, NULL, p}
#define BARP(p) {MW_OP_BARRIER, 0, 0, 0, {0}, {0}, NULL, p}

static const struct mw_tinst pro[] = {
    MW_T_ALU(1, 0, 0),  MW_T_ALU(2, 0, 0),  MW_T_ALU(3, 1, 0),  MW_T_ALU(4, 2, 0),  MW_T_ALU(5, 3, 4),
    MW_T_SFU(20, 0),    MW_T_SFU(21, 0),    MW_T_SFU(22, 0),    MW_T_SFU(23, 0),
    LDG(6, 5, a_src, p_load), LDG(7, 5, a_power, p_load), STS(6, 8, s_temp, p_load), STS(7, 8, s_power, p_load),
    MW_T_BAR,           MW_T_ALU(9, 3, 0),  MW_T_ALU(10, 3, 0), MW_T_ALU(11, 4, 0), MW_T_ALU(12, 4, 0),
    MW_T_ALU(13, 9, 1), MW_T_ALU(14, 10, 1), MW_T_ALU(15, 11, 2), MW_T_ALU(16, 12, 2)};
static const struct mw_tinst body[] = {
    ALUP(17, 1, 2, NULL),      LDS(24, 8, s_temp, p_comp), LDS(25, 13, s_s, p_comp),  LDS(26, 14, s_n, p_comp),
    LDS(27, 8, s_power, p_comp), LDS(28, 15, s_e, p_comp), LDS(29, 16, s_w, p_comp),  ALUP(25, 25, 26, p_comp),
    ALUP(25, 25, 24, p_comp),  ALUP(28, 28, 29, p_comp),  ALUP(28, 28, 24, p_comp),   ALUP(30, 25, 21, p_comp),
    ALUP(30, 28, 20, p_comp),  ALUP(30, 27, 30, p_comp),  ALUP(31, 24, 22, p_comp),   ALUP(30, 30, 31, p_comp),
    ALUP(30, 30, 23, p_comp),  STS(30, 8, s_tt, p_comp),  MW_T_BAR,                   LDS(24, 8, s_tt, p_copy),
    STS(24, 8, s_temp, p_copy), BARP(p_notlast)};
static const struct mw_tinst epi[] = {LDS(24, 8, s_tt, p_final), STG(24, 5, a_dst, p_final)};

static void free_owned(void *p) { free(p); }

int mw_wl_rodinia_hotspot(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    (void)seed;
    /* grid side, pyramid height, simulated time steps (Rodinia's run: 512 2 2) */
    static const int64_t side[4] = {64, 256, 512, 1024}, pyr[4] = {2, 2, 2, 2}, steps[4] = {2, 2, 4, 2};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    int64_t n = side[sz], P = pyr[sz], total = steps[sz];
    int nl = (int)((total + P - 1) / P);
    struct hs *hp = calloc((size_t)nl, sizeof *hp);
    struct mw_kgen_program p = {.owned = hp, .free_owned = free_owned};
    if (!hp) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    uint64_t bytes = ((uint64_t)n * n * 4 + 255) & ~255ull;
    uint64_t temp[2] = {0x10000000ull, 0x10000000ull + bytes}, power = 0x10000000ull + 2 * bytes;
    int64_t border = P * 2 / 2, small = BS - P * 2;
    uint32_t cols = (uint32_t)(n / small + (n % small ? 1 : 0)), rows = cols;
    int src = 1, dst = 0; /* MatrixTemp[0] holds the input; the host swaps src and dst before each launch */
    for (int i = 0; i < nl; i++) {
        int64_t t = (int64_t)i * P;
        int tmp = src;
        src = dst, dst = tmp;
        hp[i] = (struct hs){n, n, total - t < P ? total - t : P, border, small, power, temp[src], temp[dst]};
        struct mw_kgen_kernel *k = mw_kgen_append(&p);
        if (!k) {
            free(p.kernels), free(hp);
            return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
        }
        snprintf(k->k.name, sizeof k->k.name, "calculate_temp");
        k->k.grid[0] = cols, k->k.grid[1] = rows, k->k.grid[2] = 1;
        k->k.block[0] = BS, k->k.block[1] = BS, k->k.block[2] = 1;
        k->k.nregs = 32;
        k->k.shmem = 3 * BS * BS * 4;
        k->pro = pro, k->npro = (int)(sizeof pro / sizeof pro[0]);
        k->body = body, k->nbody = (int)(sizeof body / sizeof body[0]);
        k->epi = epi, k->nepi = (int)(sizeof epi / sizeof epi[0]);
        k->iters = hp[i].iteration;
        k->data = &hp[i];
    }
    return mw_kgen_workload(w, "rodinia.hotspot", &p, e);
}
