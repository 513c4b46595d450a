/* Parboil SPMV and LBM, LIBOR Monte Carlo and Mars inverted index, checked against facts derived by hand from
 * their CUDA sources: launch shapes and sequences, loads per thread, distinct 128 B lines per warp instruction,
 * counts recomputed here from the same seeded inputs, determinism. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "kgen.h"
#include "workload.h"
#include "workloads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wlwalk.h"

static uint64_t mix(uint64_t h, const struct mw_inst *in)
{
    h = h * 1099511628211ull ^ in->pc ^ (uint64_t)in->mask << 20 ^ in->op;
    if (mw_op_is_mem(in->op))
        for (int l = 0; l < MW_WARP_SIZE; l++)
            if (in->mask >> l & 1u) h = h * 31 + in->addr[l];
    return h;
}
static void hash_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    (void)k;
    *(uint64_t *)arg = mix(*(uint64_t *)arg, in);
}

/* The per-PC table of wlwalk.h keeps 64 PCs a kernel; LBM and LIBOR have hundreds, so these tests use their own: per
 * kernel and PC (PC / 16 < 4096) the warp instructions, active lanes and distinct 128 B lines. */
#define NPCS 4096
struct bpc {
    uint8_t op;
    uint64_t n, lanes;
    uint32_t min_lines, max_lines;
};
struct bstat {
    struct mw_kernel k;
    struct bpc *pc; /* NPCS */
    uint64_t warp_insts, ld_lanes, st_lanes;
};
/* walk's callback that fills the dense table of the first maxk kernels, then passes the instruction on to cb. */
struct bwalk_ctx {
    struct bstat *ks;
    int maxk;
    inst_cb cb;
    void *arg;
};
static void bstat_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    struct bwalk_ctx *x = arg;
    if (x->cb) x->cb(x->arg, k, in);
    if (walk_kernel >= (uint32_t)x->maxk) return;
    struct bstat *s = &x->ks[walk_kernel];
    if (!s->pc) { /* the kernel's first instruction */
        s->k = *k;
        s->pc = calloc(NPCS, sizeof *s->pc);
        assert_non_null(s->pc);
    }
    s->warp_insts++;
    assert_true(in->pc % 16 == 0 && in->pc / 16 < NPCS);
    struct bpc *p = &s->pc[in->pc / 16];
    if (p->n == 0) p->op = in->op, p->min_lines = 99;
    assert_int_equal(p->op, in->op);
    p->n++;
    p->lanes += (uint64_t)__builtin_popcount(in->mask);
    if (mw_op_is_global_mem(in->op)) {
        uint32_t ln = lines_of(in);
        if (ln < p->min_lines) p->min_lines = ln;
        if (ln > p->max_lines) p->max_lines = ln;
        if (mw_op_is_load(in->op)) s->ld_lanes += (uint64_t)__builtin_popcount(in->mask);
        else s->st_lanes += (uint64_t)__builtin_popcount(in->mask);
    }
}
static int bwalk(const char *name, const char *size, uint64_t seed, struct bstat *ks, int maxk, inst_cb cb, void *arg)
{
    memset(ks, 0, (size_t)maxk * sizeof *ks);
    struct bwalk_ctx x = {ks, maxk, cb, arg};
    int nk = walk(name, size, seed, NULL, 0, bstat_cb, &x);
    for (int i = 0; i < nk && i < maxk; i++) assert_non_null(ks[i].pc); /* every warp ends with an EXIT */
    return nk;
}
static void bfree(struct bstat *ks, int n)
{
    for (int i = 0; i < n; i++) free(ks[i].pc);
}
static const struct bpc *bat(const struct bstat *s, uint32_t idx)
{
    assert_true(idx < NPCS);
    if (!s->pc[idx].n) fail_msg("no instruction at pc 0x%x in %s", idx * 16, s->k.name);
    return &s->pc[idx];
}

static uint64_t stream_hash(const char *name, const char *size, uint64_t seed)
{
    uint64_t h = 14695981039346656037ull;
    walk(name, size, seed, NULL, 0, hash_cb, &h);
    return h;
}

/* ---- SPMV ---- */
/* spmv_jds PCs (16 B apart): prologue d_data 9, d_index 11, x_vec 13, d_index[jds_ptr[1] + ix] 20; loop
 * (from 21) d_data 22, d_index 26, x_vec 28; tail (from 35) d_data 36, x_vec 38; d_perm 44, store 46. */
#define SP_LOOP 21
#define SP_TAIL 35
#define SP_FINAL 42
static bool sp_is_x(uint64_t pc) { return pc == 13 * 16 || pc == (SP_LOOP + 7) * 16 || pc == (SP_TAIL + 3) * 16; }

struct sp_count {
    uint64_t x_lanes, x_min, x_max;
    uint64_t *addrs;
    size_t naddr, cap;
};
static void sp_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    struct sp_count *c = arg;
    if (k->id != 1 || in->op != MW_OP_LD_GLOBAL || !sp_is_x(in->pc)) return;
    for (int l = 0; l < MW_WARP_SIZE; l++) {
        if (!(in->mask >> l & 1u)) continue;
        c->x_lanes++;
        if (in->addr[l] < c->x_min) c->x_min = in->addr[l];
        if (in->addr[l] > c->x_max) c->x_max = in->addr[l];
        if (c->naddr == c->cap) {
            c->cap = c->cap ? 2 * c->cap : 4096;
            c->addrs = realloc(c->addrs, c->cap * sizeof *c->addrs);
            assert_non_null(c->addrs);
        }
        c->addrs[c->naddr++] = in->addr[l];
    }
}
static int cmp_desc(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x > y ? -1 : x < y;
}

/* tiny: 2048 rows, mean 8 entries a row; 2048 * 32 threads fit on the GPU at once, so compute_active_thread picks
 * 32-thread blocks, one per warp group (64). The JDS loop runs bound = the group's longest row times for every
 * thread of a group; the x_vec gathers of real entries are exactly the matrix's nonzeros, the rest are padding
 * reads of x_vec[-1]. */
static void test_spmv(void **state)
{
    (void)state;
    const uint32_t n = 2048, avg = 8;
    uint32_t *row, *col;
    assert_int_equal(mw_wl_spmv_matrix(n, avg, 1, &row, &col), 0);
    uint64_t nnz = row[n], colsum = 0;
    for (uint64_t i = 0; i < nnz; i++) colsum += col[i];
    uint32_t *len = malloc(n * sizeof *len);
    for (uint32_t r = 0; r < n; r++) {
        len[r] = row[r + 1] - row[r];
        for (uint32_t i = row[r] + 1; i < row[r + 1]; i++) assert_true(col[i] > col[i - 1]); /* no repeats */
    }
    qsort(len, n, sizeof *len, cmp_desc);
    uint64_t padded = 0, loop_warps = 0, tail_warps = 0;
    for (uint32_t g = 0; g < n / 32; g++) {
        uint32_t b = len[g * 32];
        padded += 32ull * b;
        loop_warps += b > 2 ? b - 2 : 0;
        tail_warps += b > 1;
    }
    assert_true(len[0] > 4 * avg); /* skewed: the longest row is far above the mean */
    assert_true(padded > nnz);

    struct kstat ks[2];
    struct sp_count c = {.x_min = UINT64_MAX};
    assert_int_equal(walk("parboil.spmv", "tiny", 1, ks, 2, sp_cb, &c), 2);
    assert_string_equal(ks[0].k.name, "spmv_jds");
    check_shape(&ks[0].k, 64, 1, 32, 1);
    check_shape(&ks[1].k, 64, 1, 32, 1);
    /* nonzeros touched = nnz; padding lanes read x_vec[-1], the lowest address */
    assert_int_equal(c.x_lanes, padded);
    uint64_t pad = 0, sum = 0;
    for (size_t i = 0; i < c.naddr; i++) {
        if (c.addrs[i] == c.x_min) pad++;
        else sum += (c.addrs[i] - c.x_min) / 4 - 1;
    }
    assert_int_equal(c.x_lanes - pad, nnz);
    assert_int_equal(sum, colsum);
    assert_true(c.x_max < c.x_min + 4 + 4ull * n);
    /* loop trip counts per warp group */
    assert_int_equal(at(&ks[0], (SP_LOOP + 1) * 16)->n, loop_warps);
    assert_int_equal(at(&ks[0], (SP_TAIL + 1) * 16)->n, tail_warps);
    assert_int_equal(at(&ks[0], (SP_FINAL + 4) * 16)->op, MW_OP_ST_GLOBAL);
    /* thread 0 is in the longest group: 3 + 1 + 3 (bound - 2) + 2 loads, then d_perm */
    assert_int_equal(ks[0].thread_loads0, 3ull * len[0] + 1);
    /* d_data / d_index: 32 consecutive words of one diagonal, one line; d_perm too */
    static const int coal[] = {9, 11, 20, SP_LOOP + 1, SP_LOOP + 5, SP_TAIL + 1, SP_FINAL + 2};
    for (size_t i = 0; i < sizeof coal / sizeof coal[0]; i++) {
        assert_int_equal(at(&ks[0], coal[i] * 16u)->min_lines, 1);
        assert_int_equal(at(&ks[0], coal[i] * 16u)->max_lines, 1);
    }
    /* the gathers and the permuted store scatter */
    assert_true(at(&ks[0], (SP_LOOP + 7) * 16)->max_lines > 8);
    assert_true(at(&ks[0], (SP_FINAL + 4) * 16)->max_lines > 8);
    free(c.addrs), free(len), free(row), free(col);

    /* paper: Dubcova3's 146689 rows = 4585 groups, too many threads for one wave: 192-thread blocks, 50 launches */
    struct mw_kernel k[1];
    assert_int_equal(shapes("parboil.spmv", "paper", k, 1), 50);
    check_shape(&k[0], 765, 1, 192, 1);
    /* determinism */
    assert_true(stream_hash("parboil.spmv", "tiny", 1) == stream_hash("parboil.spmv", "tiny", 1));
    assert_true(stream_hash("parboil.spmv", "tiny", 1) != stream_hash("parboil.spmv", "tiny", 2));
}

/* ---- LBM ---- */
/* performStreamCollide_kernel's instruction indices (PC / 16): loads of C at 6, of element e >= 1 at 8 + 2 (e - 1),
 * of the flags at 44; the obstacle swaps from 47, rho from 57, the ACCEL assignments from 116; stores of C at 234
 * and of e >= 1 at 236 + 2 (e - 1). */
enum { L_C, L_N, L_S, L_E, L_W, L_T, L_B, L_NE, L_NW, L_SE, L_SW, L_NT, L_NB, L_ST, L_SB, L_ET, L_EB, L_WT, L_WB };
static uint32_t lbm_ld(int e) { return e == 0 ? 6 : 8 + 2 * (e - 1); }
static uint32_t lbm_st(int e) { return e == 0 ? 234 : 236 + 2 * (e - 1); }
struct lbm_addr {
    uint64_t st_c1, ld_c1, ld_c2;
};
static void lbm_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    struct lbm_addr *a = arg;
    if (!(in->mask & 1u)) return;
    if (k->id == 1 && in->pc == lbm_st(0) * 16 && !a->st_c1) a->st_c1 = in->addr[0];
    if (k->id == 1 && in->pc == lbm_ld(0) * 16 && !a->ld_c1) a->ld_c1 = in->addr[0];
    if (k->id == 2 && in->pc == lbm_ld(0) * 16 && !a->ld_c2) a->ld_c2 = in->addr[0];
}

/* tiny: 120 x 6 x 4 cells, two time steps. Every cell loads its 19 values and its flags from its own row (x =
 * threadIdx.x, 128-float padded rows: one line per warp) and stores each value into the neighbour it streams to:
 * rows shifted by one cell straddle two lines, except the last warp (x = 96 .. 119) shifted right. Obstacle cells
 * (the box faces and the seeded spheres) take the swap branch, the others the collision, the lid planes its ACCEL
 * branch; the second step reads the grid the first one wrote. */
static void test_lbm(void **state)
{
    (void)state;
    const int64_t X = 120, Y = 6, Z = 4, cells = X * Y * Z;
    uint8_t *f = malloc((size_t)cells);
    mw_wl_lbm_flags(X, Y, Z, 1, f);
    uint64_t obst = 0, accel = 0;
    for (int64_t i = 0; i < cells; i++) {
        obst += f[i] & 1;
        accel += !(f[i] & 1) && (f[i] & 2);
    }
    free(f);
    assert_true(obst > 0 && obst < (uint64_t)cells && accel > 0);

    struct bstat ks[2];
    struct lbm_addr a = {0};
    assert_int_equal(bwalk("parboil.lbm", "tiny", 1, ks, 2, lbm_cb, &a), 2);
    for (int i = 0; i < 2; i++) {
        assert_string_equal(ks[i].k.name, "performStreamCollide_kernel");
        check_shape(&ks[i].k, (uint32_t)Y, (uint32_t)Z, (uint32_t)X, 1);
        assert_int_equal(ks[i].ld_lanes, 20 * cells);
        assert_int_equal(ks[i].st_lanes, 19 * cells);
    }
    const struct bstat *s = &ks[0];
    for (int e = 0; e < 19; e++) {
        assert_int_equal(bat(s, lbm_ld(e))->op, MW_OP_LD_GLOBAL);
        assert_int_equal(bat(s, lbm_ld(e))->max_lines, 1);
        assert_int_equal(bat(s, lbm_st(e))->op, MW_OP_ST_GLOBAL);
    }
    assert_int_equal(bat(s, 44)->max_lines, 1);
    static const int same_x[] = {L_C, L_N, L_S, L_T, L_B, L_NT, L_NB, L_ST, L_SB};
    static const int right[] = {L_E, L_NE, L_SE, L_ET, L_EB}, left[] = {L_W, L_NW, L_SW, L_WT, L_WB};
    for (int i = 0; i < 9; i++) assert_int_equal(bat(s, lbm_st(same_x[i]))->max_lines, 1);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(bat(s, lbm_st(right[i]))->min_lines, 1);
        assert_int_equal(bat(s, lbm_st(right[i]))->max_lines, 2);
        assert_int_equal(bat(s, lbm_st(left[i]))->min_lines, 2);
        assert_int_equal(bat(s, lbm_st(left[i]))->max_lines, 2);
    }
    /* the branches follow the flags */
    assert_int_equal(bat(s, 47)->lanes, obst);
    assert_int_equal(bat(s, 57)->lanes, (uint64_t)cells - obst);
    assert_int_equal(bat(s, 116)->lanes, accel);
    /* the host swaps the grids: step 2 reads where step 1 wrote, the cell's C value in place */
    assert_true(a.st_c1 != a.ld_c1);
    assert_true(a.ld_c2 == a.st_c1);
    bfree(ks, 2);

    struct mw_kernel k[1];
    assert_int_equal(shapes("parboil.lbm", "paper", k, 1), 100);
    check_shape(&k[0], 120, 150, 120, 1);
    /* the obstacle spheres are seeded */
    uint64_t h1 = 0, h2 = 0, h3 = 0;
    walk("parboil.lbm", "small", 1, NULL, 0, hash_cb, &h1);
    walk("parboil.lbm", "small", 1, NULL, 0, hash_cb, &h2);
    walk("parboil.lbm", "small", 2, NULL, 0, hash_cb, &h3);
    assert_true(h1 == h2 && h1 != h3);
}

/* ---- LIBOR ---- */
/* The forward path of libor.cu from z = 0.3, L = 0.05, lambda = 0.2, delta = 0.25, and the portfolio's test
 * swapval < 0 for the 15 swaptions: how many take the branch. */
static int libor_taken(int N, int Nmat)
{
    static const int mat[15] = {4, 4, 4, 8, 8, 8, 20, 20, 20, 28, 28, 28, 40, 40, 40};
    static const float rate[15] = {.045f, .05f, .055f, .045f, .05f, .055f, .045f, .05f,
                                   .055f, .045f, .05f, .055f, .045f, .05f, .055f};
    float L[128], B[64], S[64], delta = 0.25f, lambda = 0.2f;
    for (int i = 0; i < N; i++) L[i] = 0.05f;
    for (int n = 0; n < Nmat; n++) {
        float sqez = sqrtf(delta) * 0.3f, v = 0.0f;
        for (int i = n + 1; i < N; i++) {
            float con1 = delta * lambda;
            v += con1 * L[i] / (1.0f + delta * L[i]);
            L[i] *= expf(con1 * v + lambda * (sqez - 0.5f * con1));
        }
    }
    float b = 1.0f, sum = 0.0f;
    for (int n = Nmat; n < N; n++) {
        b = b / (1.0f + delta * L[n]);
        sum += delta * b;
        B[n - Nmat] = b, S[n - Nmat] = sum;
    }
    int taken = 0;
    for (int i = 0; i < 15; i++) taken += B[mat[i] - 1] + rate[i] * S[mat[i] - 1] - 1.0f < 0;
    return taken;
}
struct lib_first {
    uint64_t a[4];  /* kernel 1, warps 0 and 1: the lane-0 addresses of the first two local stores */
    int n[2], w;
    uint64_t local, adjacent;
};
static void lib_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    struct lib_first *f = arg;
    if (in->op == MW_OP_LD_LOCAL || in->op == MW_OP_ST_LOCAL) {
        bool adj = true;
        for (int l = 1; l < MW_WARP_SIZE; l++) adj &= in->addr[l] == in->addr[0] + 4u * (uint32_t)l;
        f->local++, f->adjacent += adj;
    }
    if (k->id != 1) return;
    if (in->op == MW_OP_EXIT) f->w++;
    else if (in->op == MW_OP_ST_LOCAL && f->w < 2 && f->n[f->w] < 2) f->a[2 * f->w + f->n[f->w]++] = in->addr[0];
}

/* tiny: NN = 44 rates, NMAT = 4 steps (N - NMAT = 40 as in the benchmark), one block of 64 threads, a path each.
 * Local loads and stores per thread, from the loops of libor.cu with I = sum over n < NMAT of (N - 1 - n) inner
 * steps, M = N - NMAT and T swaptions in the money:
 *   KernelGPU2: LDL = 2 NMAT + I + M + 2 NOPT, STL = 2 N + I + 2 M;
 *   KernelGPU:  LDL = N + 3 NMAT + 4 I + 8 M + 2 NOPT - 1 + 2 T, STL = 3 N + 3 I + 9 M - 2 + 2 T + NMAT.
 * Every local access is one 128 B line (a warp's 32 threads, same word, adjacent), words of a thread
 * 64 threads * 4 B apart. */
static void test_libor(void **state)
{
    (void)state;
    const uint64_t N = 44, Nmat = 4, M = N - Nmat, NOPT = 15, thr = 64;
    uint64_t I = 0;
    for (uint64_t n = 0; n < Nmat; n++) I += N - 1 - n;
    uint64_t T = (uint64_t)libor_taken((int)N, (int)Nmat);
    assert_int_equal(T, NOPT); /* the rates only grow along the path: every swaption is in the money */
    struct bstat ks[2];
    struct lib_first f = {0};
    assert_int_equal(bwalk("libor.libor", "tiny", 1, ks, 2, lib_cb, &f), 2);
    assert_string_equal(ks[0].k.name, "Pathcalc_Portfolio_KernelGPU2");
    assert_string_equal(ks[1].k.name, "Pathcalc_Portfolio_KernelGPU");
    uint64_t ldl[2] = {0}, stl[2] = {0}, stg[2] = {0}, dp[2] = {0};
    for (int kk = 0; kk < 2; kk++) {
        check_shape(&ks[kk].k, 1, 1, 64, 1);
        for (int i = 0; i < NPCS; i++) {
            const struct bpc *p = &ks[kk].pc[i];
            if (!p->n) continue;
            if (p->op == MW_OP_LD_LOCAL) ldl[kk] += p->lanes;
            if (p->op == MW_OP_ST_LOCAL) stl[kk] += p->lanes;
            if (p->op == MW_OP_ST_GLOBAL) stg[kk] += p->lanes;
            if (p->op == MW_OP_DP) dp[kk] += p->n;
            if (p->op == MW_OP_LD_LOCAL || p->op == MW_OP_ST_LOCAL || p->op == MW_OP_ST_GLOBAL) {
                assert_int_equal(p->min_lines, 1);
                assert_int_equal(p->max_lines, 1);
            }
            assert_true(p->op != MW_OP_LD_GLOBAL); /* the kernels read no global memory */
        }
        assert_true(dp[kk] > 0); /* 1.0 and 0.5 are double literals */
    }
    assert_int_equal(ldl[0], thr * (2 * Nmat + I + M + 2 * NOPT));
    assert_int_equal(stl[0], thr * (2 * N + I + 2 * M));
    assert_int_equal(ldl[1], thr * (N + 3 * Nmat + 4 * I + 8 * M + 2 * NOPT - 1 + 2 * T));
    assert_int_equal(stl[1], thr * (3 * N + 3 * I + 9 * M - 2 + 2 * T + Nmat));
    assert_int_equal(stg[0], thr);     /* d_v[path] */
    assert_int_equal(stg[1], 2 * thr); /* d_v[path], d_Lb[path] */
    /* KernelGPU2's frame: L[NN] then z[NN]; the init loop stores z[0] then L[0]. Warp 1's words follow warp 0's. */
    assert_true(f.local > 0);
    assert_int_equal(f.adjacent, f.local);
    assert_int_equal(f.n[0], 2);
    assert_int_equal(f.a[0] - f.a[1], N * thr * 4);
    assert_int_equal(f.a[2] - f.a[0], 32 * 4);
    bfree(ks, 2);

    struct mw_kernel k[2];
    assert_int_equal(shapes("libor.libor", "paper", k, 2), 2);
    check_shape(&k[0], 64, 1, 64, 1);
    check_shape(&k[1], 64, 1, 64, 1);
    assert_true(stream_hash("libor.libor", "tiny", 1) == stream_hash("libor.libor", "tiny", 1));
}

/* ---- Mars inverted index ---- */
/* The map kernels' code (wl_mars_iix.c's map_layout), in instructions: MapperCount's record loop from 4 and its
 * link handling from 62, Mapper's from 10 and 68. */
enum { MC_LOOP = 4, MC_LINK = 62, MP_LOOP = 10, MP_LINK = 68 };
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* tiny: 8 records of about 256 bytes, one map thread each (one 256-thread block). Recomputed here from the
 * documents with a plain pattern search for <a href="...">: the links, their urls, the distinct urls. The map
 * loop visits every byte of a record except the three after an "h" that starts "href" and the url it jumps over:
 * size - 3 links - url bytes iterations, plus the final loop test. MapperCount counts and Mapper emits one key a
 * link (16 key bytes copied byte by byte); the bitonic sort runs one launch per (k, j) over 2^L >= links
 * pointers, half of the threads comparing; one key boundary is written per distinct url. */
static void test_iix(void **state)
{
    (void)state;
    char *text;
    uint64_t len;
    uint32_t *ro, *rs, *rf, nrec, nf;
    assert_int_equal(mw_wl_iix_docs(MW_SIZE_TINY, 1, &text, &len, &ro, &rs, &rf, &nrec, &nf), 0);
    assert_int_equal(nrec, 8);
    uint64_t links = 0, iters = 0;
    char *urls[4096];
    for (uint32_t r = 0; r < nrec; r++) {
        uint64_t lr = 0, ub = 0;
        for (uint32_t i = 0; i + 9 < rs[r]; i++) {
            const char *q = text + ro[r] + i;
            if (memcmp(q, "<a href=\"", 9) != 0) continue;
            const char *u = q + 9, *end = strchr(u, '"');
            assert_non_null(end);
            assert_true(links < 4096);
            urls[links] = strndup(u, (size_t)(end - u));
            ub += (uint64_t)(end - u), lr++, links++;
        }
        iters += rs[r] - 3 * lr - ub + 1;
    }
    assert_true(links > 4);
    qsort(urls, links, sizeof *urls, cmp_str);
    uint64_t groups = 0;
    for (uint64_t i = 0; i < links; i++) groups += i == 0 || strcmp(urls[i], urls[i - 1]) != 0;
    for (uint64_t i = 0; i < links; i++) free(urls[i]);
    free(text), free(ro), free(rs), free(rf);
    uint32_t R = 256, L = 8;
    while (R < links) R *= 2, L++;

    struct bstat ks[64];
    int nk = bwalk("mars.iix", "tiny", 1, ks, 64, NULL, NULL);
    assert_int_equal(nk, 1 + 3 + 1 + 1 + L * (L + 1) / 2 + 1 + 1 + 1 + 1);
    const struct bstat *mc = &ks[0], *mp = &ks[4];
    assert_string_equal(mc->k.name, "MapperCount");
    assert_string_equal(ks[1].k.name, "prescan");
    assert_string_equal(mp->k.name, "Mapper");
    check_shape(&mc->k, 1, 1, 256, 1);
    check_shape(&mp->k, 1, 1, 256, 1);
    assert_int_equal(mp->k.shmem, 256 * 4 * 5);
    /* the byte-wise scan: loop tests, one lane per record and iteration */
    assert_int_equal(bat(mc, MC_LOOP + 8)->lanes, iters);
    assert_int_equal(bat(mp, MP_LOOP + 8)->lanes, iters);
    /* every lane reads its own record: as many lines as lanes */
    assert_int_equal(bat(mc, MC_LOOP + 13)->max_lines, nrec);
    /* EmitInterCount and EmitIntermediate once a link */
    assert_int_equal(bat(mc, MC_LINK + 2)->lanes, links);
    assert_int_equal(bat(mp, MP_LINK + 12)->lanes, links);
    for (uint32_t i = 0; i < 16; i++) assert_int_equal(bat(mp, MP_LINK + 18 + 2 * i)->lanes, links);
    /* the sort */
    uint64_t cmp_lanes = 0;
    int nbit = 0;
    for (int i = 0; i < nk; i++)
        if (strcmp(ks[i].k.name, "bitonicKernel") == 0) {
            check_shape(&ks[i].k, R / 256, 1, 256, 1);
            cmp_lanes += bat(&ks[i], 3)->lanes;
            nbit++;
        }
    assert_int_equal(nbit, L * (L + 1) / 2);
    assert_int_equal(cmp_lanes, (uint64_t)nbit * R / 2);
    /* the groups */
    assert_string_equal(ks[nk - 2].k.name, "writeBoundary_kernel");
    assert_int_equal(bat(&ks[nk - 2], 6)->lanes, groups);
    assert_int_equal(bat(&ks[nk - 1], 7)->lanes, groups);
    bfree(ks, nk < 64 ? nk : 64);

    assert_true(stream_hash("mars.iix", "tiny", 1) == stream_hash("mars.iix", "tiny", 1));
    assert_true(stream_hash("mars.iix", "tiny", 1) != stream_hash("mars.iix", "tiny", 2));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spmv),
        cmocka_unit_test(test_lbm),
        cmocka_unit_test(test_libor),
        cmocka_unit_test(test_iix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
