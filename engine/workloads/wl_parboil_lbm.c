/* Parboil LBM (benchmarks/lbm/src/cuda: performStreamCollide_kernel in lbm_kernel.cu, the lattice layout of
 * layout_config.h and lbm.h): a D3Q19 lid-driven cavity, one thread per cell of an x row (block = SIZE_X, grid =
 * SIZE_Y x SIZE_Z), Parboil's structure-of-arrays grid with rows padded to 128 floats, the SCATTER variant
 * (19 loads of the cell's own values plus its flags, 19 stores into the neighbours), one launch per time step
 * with the host swapping the source and destination grids. */
#include "kgen.h"
#include "wl_pml.h"
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>

enum { C, N, S, E, W, T, B, NE, NW, SE, SW, NT, NB, ST, SB, ET, EB, WT, WB, FLAGS, N_CELL_ENTRIES };
enum { OBSTACLE = 1, ACCEL = 2 };

struct lbm_dom {
    int64_t X, Y, Z;      /* SIZE_X, SIZE_Y, SIZE_Z */
    int64_t PX, PY, PZ;   /* padded: X + 8 (128 B rows), Y, Z + 4 */
    int64_t tpc;          /* TOTAL_PADDED_CELLS */
    uint8_t *flags;       /* per cell (x fastest) */
};
struct lbm_step {
    const struct lbm_dom *d;
    uint64_t src, dst;    /* grid pointers after += REAL_MARGIN */
};

/* CALC_INDEX(x, y, z, e) */
static int64_t cidx(const struct lbm_dom *d, int64_t x, int64_t y, int64_t z, int64_t e)
{
    return d->tpc * e + x + y * d->PX + z * d->PX * d->PY;
}
static uint8_t cell_flags(const struct mw_tctx *t, const struct lbm_dom *d)
{
    return d->flags[((int64_t)t->ctaid[1] * d->Y + t->ctaid[0]) * d->X + t->tid[0]];
}

/* SWEEP_X = threadIdx.x, SWEEP_Y = blockIdx.x, SWEEP_Z = blockIdx.y */
#define SRC(e)                                                                                               \
    static uint64_t a_src_##e(const struct mw_tctx *t, int64_t it, const void *p)                            \
    {                                                                                                        \
        (void)it;                                                                                            \
        const struct lbm_step *s = p;                                                                        \
        return s->src + (uint64_t)cidx(s->d, t->tid[0], t->ctaid[0], t->ctaid[1], e) * 4;                    \
    }
#define DST(e, dx, dy, dz)                                                                                   \
    static uint64_t a_dst_##e(const struct mw_tctx *t, int64_t it, const void *p)                            \
    {                                                                                                        \
        (void)it;                                                                                            \
        const struct lbm_step *s = p;                                                                        \
        return s->dst + (uint64_t)cidx(s->d, (int64_t)t->tid[0] + (dx), (int64_t)t->ctaid[0] + (dy),         \
                                       (int64_t)t->ctaid[1] + (dz), e) * 4;                                  \
    }
SRC(C) SRC(N) SRC(S) SRC(E) SRC(W) SRC(T) SRC(B) SRC(NE) SRC(NW) SRC(SE) SRC(SW) SRC(NT) SRC(NB) SRC(ST) SRC(SB)
SRC(ET) SRC(EB) SRC(WT) SRC(WB) SRC(FLAGS)
DST(C, 0, 0, 0) DST(N, 0, 1, 0) DST(S, 0, -1, 0) DST(E, 1, 0, 0) DST(W, -1, 0, 0) DST(T, 0, 0, 1) DST(B, 0, 0, -1)
DST(NE, 1, 1, 0) DST(NW, -1, 1, 0) DST(SE, 1, -1, 0) DST(SW, -1, -1, 0) DST(NT, 0, 1, 1) DST(NB, 0, 1, -1)
DST(ST, 0, -1, 1) DST(SB, 0, -1, -1) DST(ET, 1, 0, 1) DST(EB, 1, 0, -1) DST(WT, -1, 0, 1) DST(WB, -1, 0, -1)

static bool p_obst(const struct mw_tctx *t, int64_t it, const void *p)
{
    (void)it;
    return cell_flags(t, ((const struct lbm_step *)p)->d) & OBSTACLE;
}
static bool p_fluid(const struct mw_tctx *t, int64_t it, const void *p) { return !p_obst(t, it, p); }
static bool p_accel(const struct mw_tctx *t, int64_t it, const void *p)
{
    (void)it;
    uint8_t f = cell_flags(t, ((const struct lbm_step *)p)->d);
    return !(f & OBSTACLE) && (f & ACCEL);
}

/* Registers: r1-r3 x y z, r4 cell index, r5/r6 grid base and element address, r10-r28 the 19 values (C .. WB),
 * r29 flags, r30 rho, r31-r33 ux uy uz, r34 u2, r35 temp_base, r36 temp1, r37 temp2, r38/r39 temporaries,
 * r40 store address. */
#define V(e) (10 + (e))
#define AL(d, a, b, p) {MW_OP_ALU, 0, 1, 2, {d}, {a, b}, NULL, p}
#define SF(d, a, p) {MW_OP_SFU, 0, 1, 1, {d}, {a}, NULL, p}
#define BR(s, p) {MW_OP_BRANCH, 0, 0, 1, {0}, {s}, NULL, p}
#define LDE(e) AL(6, 6, 0, NULL), {MW_OP_LD_GLOBAL, 4, 1, 1, {V(e)}, {6}, a_src_##e, NULL}
#define STE(e) AL(40, 40, 0, NULL), {MW_OP_ST_GLOBAL, 4, 0, 2, {0}, {40, V(e)}, a_dst_##e, NULL}
/* new f = temp2 * f + temp1 * (u (4.5 u +- 3) - u2), u one velocity (axis) or a sum of two (diagonal) */
#define AXIS(e, u) AL(38, u, u, p_fluid), AL(38, 38, u, p_fluid), AL(38, 38, 34, p_fluid), AL(39, 37, V(e), p_fluid), \
                   AL(V(e), 36, 38, p_fluid)
#define DIAG(e, u1, u2) AL(39, u1, u2, p_fluid), AXIS(e, 39)

static const struct mw_tinst prog[] = {
    /* indices and the cell's base address */
    AL(1, 0, 0, NULL), AL(2, 0, 0, NULL), AL(3, 0, 0, NULL), AL(4, 2, 1, NULL), AL(4, 3, 4, NULL),
    AL(6, 4, 5, NULL), {MW_OP_LD_GLOBAL, 4, 1, 1, {V(C)}, {6}, a_src_C, NULL},
    LDE(N), LDE(S), LDE(E), LDE(W), LDE(T), LDE(B), LDE(NE), LDE(NW), LDE(SE), LDE(SW), LDE(NT), LDE(NB),
    LDE(ST), LDE(SB), LDE(ET), LDE(EB), LDE(WT), LDE(WB), AL(6, 6, 0, NULL),
    {MW_OP_LD_GLOBAL, 4, 1, 1, {29}, {6}, a_src_FLAGS, NULL},
    /* if (TEST_FLAG_SWEEP(srcGrid, OBSTACLE)): swap the nine opposite pairs */
    AL(38, 29, 0, NULL), BR(38, NULL),
    AL(V(N), V(S), 0, p_obst), AL(V(E), V(W), 0, p_obst), AL(V(T), V(B), 0, p_obst), AL(V(NE), V(SW), 0, p_obst),
    AL(V(NW), V(SE), 0, p_obst), AL(V(NT), V(SB), 0, p_obst), AL(V(NB), V(ST), 0, p_obst),
    AL(V(ET), V(WB), 0, p_obst), AL(V(EB), V(WT), 0, p_obst), BR(0, p_obst),
    /* else: rho, the velocity, the accelerated lid, the collision */
    AL(30, V(C), V(N), p_fluid), AL(30, 30, V(S), p_fluid), AL(30, 30, V(E), p_fluid), AL(30, 30, V(W), p_fluid),
    AL(30, 30, V(T), p_fluid), AL(30, 30, V(B), p_fluid), AL(30, 30, V(NE), p_fluid), AL(30, 30, V(NW), p_fluid),
    AL(30, 30, V(SE), p_fluid), AL(30, 30, V(SW), p_fluid), AL(30, 30, V(NT), p_fluid), AL(30, 30, V(NB), p_fluid),
    AL(30, 30, V(ST), p_fluid), AL(30, 30, V(SB), p_fluid), AL(30, 30, V(ET), p_fluid), AL(30, 30, V(EB), p_fluid),
    AL(30, 30, V(WT), p_fluid), AL(30, 30, V(WB), p_fluid),
    AL(31, V(E), V(W), p_fluid), AL(31, 31, V(NE), p_fluid), AL(31, 31, V(NW), p_fluid), AL(31, 31, V(SE), p_fluid),
    AL(31, 31, V(SW), p_fluid), AL(31, 31, V(ET), p_fluid), AL(31, 31, V(EB), p_fluid), AL(31, 31, V(WT), p_fluid),
    AL(31, 31, V(WB), p_fluid),
    AL(32, V(N), V(S), p_fluid), AL(32, 32, V(NE), p_fluid), AL(32, 32, V(NW), p_fluid), AL(32, 32, V(SE), p_fluid),
    AL(32, 32, V(SW), p_fluid), AL(32, 32, V(NT), p_fluid), AL(32, 32, V(NB), p_fluid), AL(32, 32, V(ST), p_fluid),
    AL(32, 32, V(SB), p_fluid),
    AL(33, V(T), V(B), p_fluid), AL(33, 33, V(NT), p_fluid), AL(33, 33, V(NB), p_fluid), AL(33, 33, V(ST), p_fluid),
    AL(33, 33, V(SB), p_fluid), AL(33, 33, V(ET), p_fluid), AL(33, 33, V(EB), p_fluid), AL(33, 33, V(WT), p_fluid),
    AL(33, 33, V(WB), p_fluid),
    /* ux /= rho; uy /= rho; uz /= rho (IEEE division: reciprocal and refinement) */
    SF(39, 30, p_fluid), AL(39, 39, 30, p_fluid), AL(31, 31, 39, p_fluid), AL(31, 31, 30, p_fluid),
    SF(39, 30, p_fluid), AL(39, 39, 30, p_fluid), AL(32, 32, 39, p_fluid), AL(32, 32, 30, p_fluid),
    SF(39, 30, p_fluid), AL(39, 39, 30, p_fluid), AL(33, 33, 39, p_fluid), AL(33, 33, 30, p_fluid),
    AL(38, 29, 0, p_fluid), BR(38, p_fluid), /* if (TEST_FLAG_SWEEP(srcGrid, ACCEL)) */
    AL(31, 0, 0, p_accel), AL(32, 0, 0, p_accel), AL(33, 0, 0, p_accel),
    AL(34, 31, 31, p_fluid), AL(34, 32, 32, p_fluid), AL(34, 33, 33, p_fluid), AL(34, 34, 0, p_fluid),
    AL(34, 34, 0, p_fluid), AL(35, 30, 0, p_fluid), AL(36, 35, 0, p_fluid), AL(37, 0, 0, p_fluid),
    AL(39, 37, V(C), p_fluid), AL(V(C), 36, 34, p_fluid), AL(36, 35, 0, p_fluid),
    AXIS(N, 32), AXIS(S, 32), AXIS(T, 33), AXIS(B, 33), AXIS(E, 31), AXIS(W, 31), AL(36, 35, 0, p_fluid),
    DIAG(NT, 32, 33), DIAG(NB, 32, 33), DIAG(ST, 32, 33), DIAG(SB, 32, 33), DIAG(NE, 31, 32), DIAG(SE, 31, 32),
    DIAG(ET, 31, 33), DIAG(EB, 31, 33), DIAG(NW, 31, 32), DIAG(SW, 31, 32), DIAG(WT, 31, 33), DIAG(WB, 31, 33),
    /* write the 19 values into the neighbours of the destination grid */
    AL(40, 4, 5, NULL), {MW_OP_ST_GLOBAL, 4, 0, 2, {0}, {40, V(C)}, a_dst_C, NULL},
    STE(N), STE(S), STE(E), STE(W), STE(T), STE(B), STE(NE), STE(NW), STE(SE), STE(SW), STE(NT), STE(NB),
    STE(ST), STE(SB), STE(ET), STE(EB), STE(WT), STE(WB),
};

struct lbm_owned {
    struct lbm_dom d;
    struct lbm_step *steps;
};
static void owned_free(void *p)
{
    struct lbm_owned *o = p;
    if (!o) return;
    free(o->d.flags), free(o->steps), free(o);
}

/* LBM_initializeSpecialCellsForLDC: the box's faces are obstacles, the planes next to the top and bottom ones
 * are accelerated (the moving lid); and the obstacle file, here a few seeded spheres inside the box. */
void mw_wl_lbm_flags(int64_t X, int64_t Y, int64_t Z, uint64_t seed, uint8_t *f)
{
    uint64_t s = seed * 0x9e3779b97f4a7c15ull ^ 0x4c424du;
    int64_t nsph = 4, m = X < Y ? X : Y;
    m = m < Z ? m : Z;
    int64_t cx[4], cy[4], cz[4], r2[4];
    for (int64_t i = 0; i < nsph; i++) {
        int64_t r = m / 8 + 1;
        cx[i] = (int64_t)(pml_rand(&s) % (uint64_t)X), cy[i] = (int64_t)(pml_rand(&s) % (uint64_t)Y);
        cz[i] = (int64_t)(pml_rand(&s) % (uint64_t)Z), r2[i] = r * r;
    }
    for (int64_t z = 0; z < Z; z++)
        for (int64_t y = 0; y < Y; y++)
            for (int64_t x = 0; x < X; x++) {
                uint8_t v = 0;
                for (int64_t i = 0; i < nsph; i++) {
                    int64_t dx = x - cx[i], dy = y - cy[i], dz = z - cz[i];
                    if (dx * dx + dy * dy + dz * dz <= r2[i]) v |= OBSTACLE;
                }
                if (x == 0 || x == X - 1 || y == 0 || y == Y - 1 || z == 0 || z == Z - 1) v |= OBSTACLE;
                else if ((z == 1 || z == Z - 2) && x > 1 && x < X - 2 && y > 1 && y < Y - 2) v |= ACCEL;
                f[(z * Y + y) * X + x] = v;
            }
}

int mw_wl_parboil_lbm(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    /* SIZE_X stays 120 (it is the block size); paper: Parboil's "short" input, 120 x 120 x 150, 100 steps */
    static const int64_t ys[4] = {6, 16, 60, 120}, zs[4] = {4, 12, 16, 150}, nsteps[4] = {2, 2, 3, 100};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct lbm_owned *o = calloc(1, sizeof *o);
    if (!o) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    struct lbm_dom *d = &o->d;
    d->X = 120, d->Y = ys[sz], d->Z = zs[sz];
    d->PX = d->X + 8, d->PY = d->Y, d->PZ = d->Z + 4;
    d->tpc = d->PX * d->PY * d->PZ;
    d->flags = malloc((size_t)(d->X * d->Y * d->Z));
    o->steps = calloc((size_t)nsteps[sz], sizeof *o->steps);
    struct mw_kgen_program p = {.owned = o, .free_owned = owned_free};
    if (!d->flags || !o->steps) goto oom;
    mw_wl_lbm_flags(d->X, d->Y, d->Z, seed, d->flags);
    /* CUDA_LBM_allocateGrid: TOTAL_PADDED_CELLS * N_CELL_ENTRIES floats plus two margins of two planes, the
     * pointer advanced by REAL_MARGIN = CALC_INDEX(0, 0, 2, 0) */
    uint64_t bytes = (uint64_t)(d->tpc * N_CELL_ENTRIES + 2 * 2 * d->PX * d->PY * N_CELL_ENTRIES) * 4;
    uint64_t margin = (uint64_t)(2 * d->PX * d->PY) * 4;
    uint64_t grid[2] = {0x10000000ull + margin, 0x10000000ull + ((bytes + 255) & ~255ull) + margin};
    for (int64_t t = 0; t < nsteps[sz]; t++) {
        o->steps[t] = (struct lbm_step){d, grid[t & 1], grid[(t + 1) & 1]}; /* LBM_swapGrids after each step */
        struct mw_kgen_kernel *k = mw_kgen_append(&p);
        if (!k) goto oom;
        snprintf(k->k.name, sizeof k->k.name, "performStreamCollide_kernel");
        k->k.grid[0] = (uint32_t)d->Y, k->k.grid[1] = (uint32_t)d->Z, k->k.grid[2] = 1;
        k->k.block[0] = (uint32_t)d->X, k->k.block[1] = k->k.block[2] = 1;
        k->lane_affine = true; /* a_src_*, a_dst_*: base + 4 * cidx(tid.x (+ dx), uniform y and z, e) */
        k->k.nregs = 40; /* estimate: 19 values, the velocity and rho live across the collision */
        k->pro = prog, k->npro = (int)(sizeof prog / sizeof prog[0]);
        k->data = &o->steps[t];
    }
    return mw_kgen_workload(w, "parboil.lbm", &p, e);
oom:
    free(p.kernels);
    owned_free(o);
    return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
}
