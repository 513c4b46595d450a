/* Rodinia models KMEANS, B+TREE, STREAMCLUSTER, CFD, PARTICLEFILTER and HEARTWALL checked against facts derived
 * by hand from the CUDA sources: launch shapes and sequences, loads per thread, distinct 128 B lines per warp
 * instruction, counts recomputed here from the same seeded inputs, determinism. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "workload.h"
#include "workloads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wlwalk.h"

/* A hash of the whole instruction stream (PCs, masks, ops, addresses) and per-kernel lane counts by PC. */
struct hashcb {
    uint64_t hash;
};
static void hash_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    (void)k;
    struct hashcb *c = arg;
    c->hash = c->hash * 1099511628211ull ^ in->pc ^ (uint64_t)in->mask << 20 ^ in->op;
    if (mw_op_is_mem(in->op) && in->op != MW_OP_LD_CONST) /* constant loads carry no address */
        for (int l = 0; l < MW_WARP_SIZE; l++)
            if (in->mask >> l & 1u) c->hash = c->hash * 31 + in->addr[l];
}
static uint64_t stream_hash(const char *name, const char *size, uint64_t seed)
{
    struct hashcb c = {0};
    walk(name, size, seed, NULL, 0, hash_cb, &c);
    return c.hash;
}

/* KMEANS tiny: 2048 points, 8 features, 3 clusters, two iterations. ceil(2048/256) = 8 blocks, rounded up to a
 * 3x3 square: invert_mapping runs 9 CTAs of 256 (the last one idle), kmeansPoint a 3x3 grid. invert_mapping
 * reads input[point_id*8 + i]: lanes 32 B apart, 8 lines per warp load, and writes output[point_id + npoints*i]:
 * one line. kmeansPoint fetches point_id + j*npoints (one line) nclusters*nfeatures = 24 times per thread and
 * stores membership[point_id] once. */
static void test_kmeans(void **state)
{
    (void)state;
    struct kstat ks[3];
    assert_int_equal(walk("rodinia.kmeans", "tiny", 1, ks, 3, NULL, NULL), 3);
    assert_string_equal(ks[0].k.name, "invert_mapping");
    check_shape(&ks[0].k, 9, 1, 256, 1);
    assert_string_equal(ks[1].k.name, "kmeansPoint");
    check_shape(&ks[1].k, 3, 3, 256, 1);
    check_shape(&ks[2].k, 3, 3, 256, 1);
    assert_int_equal(ks[0].thread_loads0, 8);
    assert_int_equal(at(&ks[0], BODY(5, 0))->min_lines, 8); /* after invert_mapping's 5 */
    assert_int_equal(at(&ks[0], BODY(5, 0))->max_lines, 8);
    assert_int_equal(at(&ks[0], BODY(5, 0))->n, 64 * 8);
    assert_int_equal(at(&ks[0], BODY(5, 1))->op, MW_OP_ST_GLOBAL);
    assert_int_equal(at(&ks[0], BODY(5, 1))->max_lines, 1);
    for (int i = 1; i < 3; i++) {
        assert_int_equal(ks[i].thread_loads0, 3 * 8);
        assert_int_equal(ks[i].loads, 64 * 3 * 8);
        assert_int_equal(ks[i].stores, 64);
        assert_int_equal(at(&ks[i], BODY(8, 0))->max_lines, 1); /* kmeansPoint: 8, 11 in the body */
        assert_int_equal(at(&ks[i], EPI(8, 11, 1))->max_lines, 1);
    }
    struct mw_kernel k[12];
    /* kdd_cup: 494020 points -> 1930 blocks -> 44 x 44 */
    assert_int_equal(shapes("rodinia.kmeans", "paper", k, 12), 11);
    check_shape(&k[0], 44 * 44, 1, 256, 1);
    check_shape(&k[1], 44, 44, 256, 1);
    assert_true(stream_hash("rodinia.kmeans", "tiny", 1) == stream_hash("rodinia.kmeans", "tiny", 1));
}

/* B+TREE tiny: keys 0..19999 inserted in order into an order-508 tree: every leaf but the last holds 254 keys
 * (a full leaf of 507 splits at cut(507) = 254), so leaf j holds [254j, 254j + 253]; 78 leaves under the root,
 * height 1, knodes breadth-first (root 0, leaves 1..78), 4084 B each. findK's CTA b must read the leaf of its key
 * and load records[key] (records hold the keys in order); findRangeK's end walk must reach the leaf of end. */
#define BT_N 20000u
#define BT_BASE 0x10000000ull
#define BT_KNODES (BT_BASE + ((BT_N * 4 + 255) & ~255u))
struct btcount {
    uint32_t nrec, nleaf, nend, bad_leaf, bad_end;
    uint64_t rec[32];
    uint32_t cta_of_leafload;
};
static uint32_t leaf_of(int32_t key) { return 1 + ((uint32_t)key / 254 < 77 ? (uint32_t)key / 254 : 77); }
static void bt_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    struct btcount *c = arg;
    int l = __builtin_ctz(in->mask ? in->mask : 1);
    if (strcmp(k->name, "findK") == 0) {
        if (in->pc == 27 * 16 && in->op == MW_OP_LD_GLOBAL) {
            assert_int_equal(__builtin_popcount(in->mask), 1);
            if (c->nrec < 32) c->rec[c->nrec] = in->addr[l];
            c->nrec++;
        }
        if (in->pc == 22 * 16 && in->op == MW_OP_LD_GLOBAL) { /* 16 warps per CTA, in CTA order */
            uint32_t bid = c->nleaf++ / 16;
            if ((in->addr[l] - BT_KNODES) / 4084 != leaf_of(mw_wl_btree_query(1, 0, bid, BT_N))) c->bad_leaf++;
        }
    } else if (in->pc == 49 * 16 && in->op == MW_OP_LD_GLOBAL) {
        uint32_t bid = c->nend++ / 16;
        int32_t s = mw_wl_btree_query(1, 1, bid, BT_N), en = s + 100;
        if (en >= (int32_t)BT_N) en = BT_N - 1;
        if ((in->addr[l] - BT_BASE) / 4084 != leaf_of(en)) c->bad_end++;
    }
}
static void test_btree(void **state)
{
    (void)state;
    struct kstat ks[2];
    struct btcount c;
    memset(&c, 0, sizeof c);
    assert_int_equal(walk("rodinia.btree", "tiny", 1, ks, 2, bt_cb, &c), 2);
    assert_string_equal(ks[0].k.name, "findRangeK");
    check_shape(&ks[0].k, 12, 1, 508, 1);
    assert_string_equal(ks[1].k.name, "findK");
    check_shape(&ks[1].k, 20, 1, 508, 1);
    /* every key is present: one record load per CTA, at records + 4 * key */
    assert_int_equal(c.nrec, 20);
    for (uint32_t i = 0; i < 20; i++) assert_true(c.rec[i] == BT_BASE + 4ull * (uint32_t)mw_wl_btree_query(1, 0, i, BT_N));
    assert_int_equal(c.nleaf, 20 * 16);
    assert_int_equal(c.bad_leaf, 0);
    assert_int_equal(c.nend, 12 * 16);
    assert_int_equal(c.bad_end, 0);
    /* thread 0 of CTA 0, one level then the leaf: curr, keys[0], key, keys[1] (keys[0] = INT_MIN <= key), the
     * thid == 0 reload of offset; at the leaf curr, keys[0], key; plus offset and indices[0] at the root when
     * key < 254 (the slot of the first leaf) */
    int32_t k0 = mw_wl_btree_query(1, 0, 0, BT_N);
    assert_int_equal(ks[1].thread_loads0, 8 + (k0 < 254 ? 2 : 0));
    /* stores per CTA: offset and curr per level, ans */
    assert_int_equal(ks[1].stores, 20 * 3);
    /* findRangeK: offset, offset_2, currKnode, lastKnode per level, Recstart, Reclen */
    assert_int_equal(ks[0].stores, 12 * 6);
    /* the root's keys[thid]: 32 consecutive words at knodes + 2040 + 128 w, 2040 = 120 mod 128: two lines */
    assert_int_equal(at(&ks[1], 2 * 16)->min_lines, 2);
    assert_int_equal(at(&ks[1], 2 * 16)->max_lines, 2);
    assert_int_equal(at(&ks[1], 0)->max_lines, 1);
    assert_true(stream_hash("rodinia.btree", "tiny", 1) == stream_hash("rodinia.btree", "tiny", 1));
    assert_true(stream_hash("rodinia.btree", "tiny", 1) != stream_hash("rodinia.btree", "tiny", 2));
    struct mw_kernel k[2];
    assert_int_equal(shapes("rodinia.btree", "paper", k, 2), 2);
    check_shape(&k[0], 6000, 1, 508, 1);
    check_shape(&k[1], 10000, 1, 508, 1);
}

/* STREAMCLUSTER tiny: 1024 points of 8 dimensions, three pgain launches of kernel_compute_cost, ceil(1024/512) = 2
 * CTAs of 512. Per thread: d_dist's two loads per dimension (coord[i*num + tid] coalesced, coord[i*num + x] one
 * word for the warp), p[tid].weight and p[tid].cost (Point is 32 B: 8 lines per warp), then either the switch path
 * (cost reloaded after the bool store, lower[K]) or the else path (assign, center_table[assign], lower[c]): every
 * thread takes exactly one, so the two paths' stores cover the 1024 points in each launch. */
struct sccount {
    uint64_t sw_lanes[4], keep_lanes[4];
    int launch;
    uint64_t last_id;
};
static void sc_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    struct sccount *c = arg;
    int i = (int)k->id - 1;
    if (i > 3) return;
    /* the epilogue (after 7 prologue and 6 body instructions): the switch path's store at 6, the else path's at 19 */
    if (in->pc == EPI(7, 6, 6)) c->sw_lanes[i] += (uint64_t)__builtin_popcount(in->mask);
    if (in->pc == EPI(7, 6, 19)) c->keep_lanes[i] += (uint64_t)__builtin_popcount(in->mask);
}
static void test_streamcluster(void **state)
{
    (void)state;
    struct kstat ks[3];
    struct sccount c;
    memset(&c, 0, sizeof c);
    assert_int_equal(walk("rodinia.streamcluster", "tiny", 1, ks, 3, sc_cb, &c), 3);
    uint64_t sw = 0;
    for (int i = 0; i < 3; i++) {
        assert_string_equal(ks[i].k.name, "kernel_compute_cost");
        check_shape(&ks[i].k, 2, 1, 512, 1);
        assert_true(ks[i].thread_loads0 == 2 * 8 + 2 + 2 || ks[i].thread_loads0 == 2 * 8 + 2 + 3);
        assert_int_equal(c.sw_lanes[i] + c.keep_lanes[i], 1024);
        sw += c.sw_lanes[i];
        assert_int_equal(at(&ks[i], BODY(7, 0))->max_lines, 1); /* 7 in the prologue, 6 in the body */
        assert_int_equal(at(&ks[i], BODY(7, 1))->max_lines, 1);
        assert_int_equal(at(&ks[i], BODY(7, 0))->n, 32 * 8);
        assert_int_equal(at(&ks[i], EPI(7, 6, 1))->min_lines, 8);
        assert_int_equal(at(&ks[i], EPI(7, 6, 1))->max_lines, 8);
        assert_int_equal(at(&ks[i], EPI(7, 6, 6))->op, MW_OP_ST_GLOBAL);
    }
    /* some point gains from opening a feasible centre, not all of them */
    assert_true(sw > 0 && sw < 3 * 1024);
    assert_true(stream_hash("rodinia.streamcluster", "tiny", 1) == stream_hash("rodinia.streamcluster", "tiny", 1));
    assert_true(stream_hash("rodinia.streamcluster", "tiny", 1) != stream_hash("rodinia.streamcluster", "tiny", 2));
}

/* CFD tiny: 1500 elements padded to nelr = 1536 (8 CTAs of 192), one iteration: 3 initialize_variables, then
 * step_factor and 3 x (compute_flux, time_step). compute_flux's neighbour loop (body, 4 faces) loads nb and the
 * face normal for every thread, then the five variables of nb for the faces with nb >= 0 (a gather at
 * variables[nb + v*nelr]), the wing terms where nb == -1 and the far-field terms where nb == -2: the lanes of
 * each path equal the faces of that kind in the seeded mesh, recounted here, and the gathered addresses sum to
 * the neighbours' indices. time_step loads 11 and stores 5 words per thread, all coalesced. */
#define CFD_NELR 1536
#define CFD_VARS (0x10000000ull + CFD_NELR * 4ull + CFD_NELR * 16ull + CFD_NELR * 48ull)
struct cfdcount {
    uint64_t nk[4], nb_lanes, nb_sum, wing, far, flux_ld0, time_ld, time_st, bad_lines;
    uint64_t hash;
};
static void cfd_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    struct cfdcount *c = arg;
    hash_cb(&c->hash, k, in);
    if (in->op == MW_OP_EXIT) {
        int which = strcmp(k->name, "cuda_initialize_variables") == 0 ? 0
                    : strcmp(k->name, "cuda_compute_step_factor") == 0 ? 1
                    : strcmp(k->name, "cuda_compute_flux") == 0        ? 2
                                                                       : 3;
        c->nk[which]++;
        return;
    }
    if (strcmp(k->name, "cuda_compute_flux") == 0) {
        if (k->id != 5) return; /* the first flux launch */
        /* 40 instructions in the prologue: body 11 loads nb's first variable, body 70 is the first wing term,
         * body 76 the first far-field term */
        if (in->pc == BODY(40, 11)) {
            for (int l = 0; l < 32; l++)
                if (in->mask >> l & 1u) c->nb_lanes++, c->nb_sum += (in->addr[l] - CFD_VARS) / 4;
        }
        if (in->pc == BODY(40, 70)) c->wing += (uint64_t)__builtin_popcount(in->mask);
        if (in->pc == BODY(40, 76)) c->far += (uint64_t)__builtin_popcount(in->mask);
        if (in->op == MW_OP_LD_GLOBAL && in->pc < BODY(40, 0)) c->flux_ld0++;
    } else if (strcmp(k->name, "cuda_time_step") == 0) {
        if (in->op == MW_OP_LD_GLOBAL) c->time_ld++;
        if (in->op == MW_OP_ST_GLOBAL) c->time_st++;
        if (mw_op_is_global_mem(in->op) && lines_of(in) != 1) c->bad_lines++;
    }
}
static void test_cfd(void **state)
{
    (void)state;
    struct cfdcount c;
    memset(&c, 0, sizeof c);
    assert_int_equal(walk("rodinia.cfd", "tiny", 3, NULL, 0, cfd_cb, &c), 3 + 1 + 3 * 2);
    /* warps per kernel: 8 CTAs x 6 warps */
    assert_int_equal(c.nk[0], 3 * 48);
    assert_int_equal(c.nk[1], 48);
    assert_int_equal(c.nk[2], 3 * 48);
    assert_int_equal(c.nk[3], 3 * 48);
    int32_t *nbr = malloc(4 * CFD_NELR * sizeof *nbr);
    mw_wl_cfd_mesh(1500, CFD_NELR, 3, nbr);
    uint64_t nb = 0, sum = 0, wing = 0, far = 0;
    for (int i = 0; i < 4 * CFD_NELR; i++) {
        if (nbr[i] >= 0) nb++, sum += (uint64_t)nbr[i];
        wing += nbr[i] == -1, far += nbr[i] == -2;
    }
    free(nbr);
    assert_true(wing > 0 && far > 0);
    assert_int_equal(c.nb_lanes, nb);
    assert_int_equal(c.nb_sum, sum);
    assert_int_equal(c.wing, wing);
    assert_int_equal(c.far, far);
    assert_int_equal(c.flux_ld0, 48 * 5); /* the element's five variables */
    assert_int_equal(c.time_ld, 3 * 48 * 11);
    assert_int_equal(c.time_st, 3 * 48 * 5);
    assert_int_equal(c.bad_lines, 0);
    struct cfdcount c2, c3;
    memset(&c2, 0, sizeof c2), memset(&c3, 0, sizeof c3);
    walk("rodinia.cfd", "tiny", 3, NULL, 0, cfd_cb, &c2);
    walk("rodinia.cfd", "tiny", 4, NULL, 0, cfd_cb, &c3);
    assert_true(c.hash == c2.hash);
    assert_true(c.hash != c3.hash);
    struct mw_kernel k[8];
    assert_int_equal(shapes("rodinia.cfd", "paper", k, 8), 3 + 2000 * 7);
    check_shape(&k[4], 506, 1, 192, 1); /* 97046 elements -> nelr 97152 */
    assert_string_equal(k[4].name, "cuda_compute_flux");
}

/* PARTICLEFILTER tiny: a 64x64 video of 2 frames, 320 particles: one frame (k = 1) of likelihood_kernel,
 * sum_kernel, normalize_weights_kernel, find_index_kernel, each one CTA of 512 (10 warps with particles, 6
 * without). Device arrays in cudaMalloc order: arrayX, arrayY, xj, yj, CDF, u, likelihood, weights (2560 B
 * each), I (8192 B), objxy (552 B), ind, seed, partial_sums. The radius-5 disk has 69 pixels: each particle
 * gathers 69 pixels of frame 1 at the disk's offsets (x-major) around its rounded position; from those pixels
 * the test recomputes the weights exp(likelihood), the CDF, and checks every particle's search: it reads CDF[0..j]
 * (one word for the warp) and then arrayX[j], arrayY[j], with CDF[j] >= u[i] >= i/Np and CDF[j-1] < u[i] <
 * (i+1)/Np. ind[i*69 + y] is stored 276 B apart per lane: 32 lines per warp. */
#define PF_NP 320
#define PF_B 0x10000000ull
#define PF_ARR(n) (PF_B + (n)*2560ull)
#define PF_VID PF_ARR(8)
#define PF_IND (PF_VID + 8192 + 768)
struct pfcount {
    uint64_t hash;
    int nk;
    char names[4][128];
    uint32_t nregs[4], shmem[4];
    uint64_t pix[PF_NP][69];
    int npix[PF_NP];
    int ncdf[PF_NP], gather[PF_NP], gathery[PF_NP];
    uint64_t bad_cdf_lines, ind_st, ind_lines32, cdf_st, cdf_st_lanes, sum_ld, lds, bars_like, bad_u;
};
static void pf_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    struct pfcount *c = arg;
    hash_cb(&c->hash, k, in);
    int kid = (int)k->id - 1;
    if (kid < 4 && in->op == MW_OP_EXIT && walk_cta == 0 && walk_warp == 0) {
        snprintf(c->names[kid], 128, "%s", k->name);
        c->nregs[kid] = k->nregs, c->shmem[kid] = k->shmem;
    }
    if (in->op == MW_OP_EXIT) return;
    uint32_t base = walk_cta * 512 + walk_warp * 32;
    if (strcmp(k->name, "likelihood_kernel") == 0) {
        if (in->op == MW_OP_BARRIER && walk_warp == 15) c->bars_like++;
        if (in->op == MW_OP_LD_SHARED) c->lds++;
        if (in->op == MW_OP_LD_GLOBAL && in->width == 1)
            for (int l = 0; l < 32; l++)
                if (in->mask >> l & 1u) {
                    uint32_t i = base + (uint32_t)l;
                    assert_true(i < PF_NP && c->npix[i] < 69);
                    c->pix[i][c->npix[i]++] = in->addr[l];
                }
        if (in->op == MW_OP_ST_GLOBAL && in->addr[__builtin_ctz(in->mask)] >= PF_IND &&
            in->addr[__builtin_ctz(in->mask)] < PF_IND + PF_NP * 276ull) {
            c->ind_st++;
            if (in->mask == 0xffffffffu && lines_of(in) == 32) c->ind_lines32++;
        }
    } else if (strcmp(k->name, "sum_kernel") == 0) {
        if (in->op == MW_OP_LD_GLOBAL) c->sum_ld += (uint64_t)__builtin_popcount(in->mask);
    } else if (strcmp(k->name, "normalize_weights_kernel") == 0) {
        if (in->op == MW_OP_ST_GLOBAL && in->addr[__builtin_ctz(in->mask)] >= PF_ARR(4) &&
            in->addr[__builtin_ctz(in->mask)] < PF_ARR(5))
            c->cdf_st++, c->cdf_st_lanes += (uint64_t)__builtin_popcount(in->mask);
    } else if (strcmp(k->name, "find_index_kernel") == 0 && in->op == MW_OP_LD_GLOBAL) {
        for (int l = 0; l < 32; l++) {
            if (!(in->mask >> l & 1u)) continue;
            uint32_t i = base + (uint32_t)l;
            uint64_t a = in->addr[l];
            if (a >= PF_ARR(4) && a < PF_ARR(5)) {
                if (a != PF_ARR(4) + 8ull * (uint64_t)c->ncdf[i]) c->bad_cdf_lines++; /* CDF[x], x = 0, 1, ... */
                c->ncdf[i]++;
            } else if (a >= PF_ARR(0) && a < PF_ARR(1)) c->gather[i] = (int)((a - PF_ARR(0)) / 8);
            else if (a >= PF_ARR(1) && a < PF_ARR(2)) c->gathery[i] = (int)((a - PF_ARR(1)) / 8);
            else if (!(a >= PF_ARR(5) && a < PF_ARR(6)) || a != PF_ARR(5) + 8ull * i) c->bad_u++;
        }
        if (in->addr[__builtin_ctz(in->mask)] >= PF_ARR(4) && in->addr[__builtin_ctz(in->mask)] < PF_ARR(5) &&
            lines_of(in) != 1)
            c->bad_cdf_lines++;
    }
}
static void test_particlefilter(void **state)
{
    (void)state;
    struct pfcount *c = calloc(1, sizeof *c);
    assert_int_equal(walk("rodinia.particlefilter", "tiny", 1, NULL, 0, pf_cb, c), 4);
    static const char *const names[4] = {"likelihood_kernel", "sum_kernel", "normalize_weights_kernel",
                                         "find_index_kernel"};
    for (int i = 0; i < 4; i++) assert_string_equal(c->names[i], names[i]);
    assert_int_equal(c->shmem[0], 512 * 8);
    /* the disk's offsets, x-major as getneighbors: (x - 4) * IszY * Nfr + (y - 4) * Nfr, IszY = 64, Nfr = 2 */
    int64_t off[69];
    int n = 0;
    for (int x = 0; x < 9; x++)
        for (int y = 0; y < 9; y++)
            if ((x - 4) * (x - 4) + (y - 4) * (y - 4) < 25) off[n++] = (x - 4) * 128 + (y - 4) * 2;
    assert_int_equal(n, 69);
    uint8_t *I = malloc(64 * 64 * 2);
    mw_wl_particlefilter_video(64, 64, 2, I);
    double w[PF_NP], cdf[PF_NP], sum = 0;
    for (int i = 0; i < PF_NP; i++) {
        assert_int_equal(c->npix[i], 69);
        double l = 0;
        for (int y = 0; y < 69; y++) {
            int64_t a = (int64_t)(c->pix[i][y] - PF_VID);
            assert_true(a % 2 == 1); /* frame 1 */
            assert_true(a - (int64_t)(c->pix[i][0] - PF_VID) == off[y] - off[0]);
            double p = I[a];
            l += ((p - 100) * (p - 100) - (p - 228) * (p - 228)) / 50.0;
        }
        w[i] = exp(l / 69), sum += w[i];
    }
    free(I);
    for (int i = 0; i < PF_NP; i++) cdf[i] = w[i] / sum + (i ? cdf[i - 1] : 0);
    int moved = 0;
    for (int i = 0; i < PF_NP; i++) {
        int j = c->gather[i];
        assert_int_equal(c->gathery[i], j);
        assert_true(c->ncdf[i] == j + 1 || (c->ncdf[i] == PF_NP && j == PF_NP - 1));
        assert_true(cdf[j] >= (double)i / PF_NP - 1e-9 || j == PF_NP - 1);
        assert_true(j == 0 || cdf[j - 1] < (double)(i + 1) / PF_NP + 1e-9);
        moved += j != i;
    }
    assert_true(moved > 0); /* resampling picked heavier particles */
    assert_int_equal(c->bad_cdf_lines, 0);
    assert_int_equal(c->bad_u, 0);
    /* ind stores: 69 per warp with particles (plus rare max_size fixes), full warps 32 lines */
    assert_true(c->ind_st >= 10 * 69);
    assert_true(c->ind_lines32 >= 10 * 69);
    /* the CDF: CDF[0] then x = 1 .. Np-1 by thread 0 alone */
    assert_int_equal(c->cdf_st, PF_NP);
    assert_int_equal(c->cdf_st_lanes, PF_NP);
    assert_int_equal(c->sum_ld, 1); /* num_blocks = 1 partial sum */
    /* 4 barriers around the tree (after the motion, after buffer = 0, after buffer = weights, at the end), 9 in it:
     * the last warp, with no particle, passes them all */
    assert_int_equal(c->bars_like, 4 + 9);
    /* the tree reads buffer[tid] and buffer[tid + s] for tid < s: 2 * (8 + 4 + 2 + 1 + 1 * 5) warp loads, then
     * buffer[0] by thread 0 */
    assert_int_equal(c->lds, 2 * (8 + 4 + 2 + 1 + 5) + 1);
    uint64_t h = c->hash;
    memset(c, 0, sizeof *c);
    walk("rodinia.particlefilter", "tiny", 1, NULL, 0, pf_cb, c);
    assert_true(c->hash == h);
    memset(c, 0, sizeof *c);
    walk("rodinia.particlefilter", "tiny", 2, NULL, 0, pf_cb, c);
    assert_true(c->hash != h);
    free(c);
    struct mw_kernel k[8];
    assert_int_equal(shapes("rodinia.particlefilter", "paper", k, 8), 4 * 9);
    check_shape(&k[0], 2, 1, 512, 1);
    check_shape(&k[7], 2, 1, 512, 1);
    assert_string_equal(k[7].name, "find_index_kernel");
}

/* HEARTWALL tiny: tSize 5, sSize 8 (template 11x11 = 121, search area 17x17 = 289, convolution 27x27 = 729,
 * padded area 39x39 = 1521, selections 27x39 = 1053 and 27x27 = 729, mask 10x10 with offsets 5), the first endo
 * and epi points (369, 408) and (390, 457), frames 0 and 1 on a 590-row frame; one CTA of 256 per point.
 * Device arrays in cudaMalloc order, 256-byte aligned: frame, endoRow, endoCol, tEndoRowLoc, tEndoColLoc (104
 * frames), the same for epi, endoT, epiT, then each per-point array for both points. Frame 0 copies the template
 * d_in[ei] = frame[(Col - 25 + col - 1) * 590 + Row - 25 + row - 1]; frame 1 copies the area at
 * frame[(col + Col - 9) * 590 + row + Row - 9], reads every d_in2 element 121 times in the convolution (each
 * template element, in shared memory, 289 times) plus once for the padding and once for the square, stores each
 * d_conv element twice, scans the 39 padded columns twice with lanes 156 B apart (32 lines a warp) and passes 34
 * barriers. The mask convolution reads d_tMask (sum over i of the window length)^2 times; the max search reads
 * each d_mask_conv element once. small (frames 0-10): frame 10 also blends the template with the frame at the
 * position moved by the seeded offset, after tracking at the old one. */
#define HW_FR 0x10000000ull
static uint64_t hw_al(uint64_t b) { return (b + 255) & ~255ull; }
struct hwlay {
    uint64_t frame, row[2], col[2], trow[2], tcol[2], T[2], in2, conv, pad, psel, subh, hsel, sub2, sqr, sqs2, insqr,
        tmask, mconv, end;
};
static void hw_layout(struct hwlay *L)
{
    uint64_t a = HW_FR;
    L->frame = a, a += hw_al(590 * 609 * 4);
    for (int s = 0; s < 2; s++) {
        L->row[s] = a, a += 256;
        L->col[s] = a, a += 256;
        L->trow[s] = a, a += hw_al(104 * 4);
        L->tcol[s] = a, a += hw_al(104 * 4);
    }
    L->T[0] = a, a += hw_al(121 * 4);
    L->T[1] = a, a += hw_al(121 * 4);
    uint64_t *arr[12] = {&L->in2, &L->conv, &L->pad, &L->psel, &L->subh, &L->hsel, &L->sub2, &L->sqr, &L->sqs2,
                         &L->insqr, &L->tmask, &L->mconv};
    const uint64_t el[12] = {289, 729, 1521, 1053, 1053, 729, 729, 289, 729, 121, 729, 729};
    for (int k = 0; k < 12; k++) *arr[k] = a, a += 2 * hw_al(el[k] * 4);
    L->end = a;
}
#define HW_NK 11
struct hwcount {
    struct hwlay L;
    uint64_t hash;
    uint32_t grid[HW_NK], block[HW_NK], shmem[HW_NK];
    uint64_t *frame_ld[HW_NK][2];
    int nframe_ld[HW_NK][2];
    uint32_t in2_ld[2][289], tpl_lds[2][121], conv_st[2][729], mconv_ld[2][729];
    uint64_t tm_ld, bars[HW_NK], scan32_ld, scan32_st, in2_st_bad, trow_st[HW_NK][2], tpl_st[2][121];
};
static int hw_in(uint64_t a, uint64_t base, uint64_t n) { return a >= base && a < base + n * 4; }
static void hw_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    struct hwcount *c = arg;
    struct hwlay *L = &c->L;
    hash_cb(&c->hash, k, in);
    int f = (int)k->id - 1, b = (int)walk_cta;
    assert_true(f < HW_NK && b < 2);
    c->grid[f] = k->grid[0], c->block[f] = k->block[0], c->shmem[f] = k->shmem;
    if (in->op == MW_OP_BARRIER && b == 0 && walk_warp == 0) c->bars[f]++;
    if (in->op == MW_OP_LD_GLOBAL || in->op == MW_OP_ST_GLOBAL) {
        bool ld = in->op == MW_OP_LD_GLOBAL;
        uint64_t a0 = in->addr[__builtin_ctz(in->mask)];
        uint64_t in2 = L->in2 + (uint64_t)b * hw_al(289 * 4), pad = L->pad + (uint64_t)b * hw_al(1521 * 4);
        if (ld && hw_in(a0, pad, 1521) && lines_of(in) == 32) c->scan32_ld++;
        if (!ld && hw_in(a0, pad, 1521) && lines_of(in) == 32) c->scan32_st++;
        if (!ld && hw_in(a0, in2, 289) && lines_of(in) != 1) c->in2_st_bad++;
        for (int l = 0; l < 32; l++) {
            if (!(in->mask >> l & 1u)) continue;
            uint64_t a = in->addr[l];
            if (ld && hw_in(a, L->frame, 590 * 609)) {
                int n = c->nframe_ld[f][b]++;
                c->frame_ld[f][b] = realloc(c->frame_ld[f][b], (size_t)(n + 1) * 8);
                c->frame_ld[f][b][n] = (a - L->frame) / 4;
            } else if (ld && hw_in(a, in2, 289) && f == 1)
                c->in2_ld[b][(a - in2) / 4]++;
            else if (!ld && hw_in(a, L->conv + (uint64_t)b * hw_al(729 * 4), 729) && f == 1)
                c->conv_st[b][(a - L->conv - (uint64_t)b * hw_al(729 * 4)) / 4]++;
            else if (ld && hw_in(a, L->tmask + (uint64_t)b * hw_al(729 * 4), 729) && f == 1)
                c->tm_ld++;
            else if (ld && hw_in(a, L->mconv + (uint64_t)b * hw_al(729 * 4), 729) && f == 1)
                c->mconv_ld[b][(a - L->mconv - (uint64_t)b * hw_al(729 * 4)) / 4]++;
            else if (!ld && hw_in(a, L->trow[b], 104)) c->trow_st[f][b] = a;
            else if (!ld && hw_in(a, L->T[b], 121) && f == 0) c->tpl_st[b][(a - L->T[b]) / 4]++;
        }
    }
    if (in->op == MW_OP_LD_SHARED && f == 1)
        for (int l = 0; l < 32; l++)
            if ((in->mask >> l & 1u) && in->addr[l] < 121 * 4) c->tpl_lds[b][in->addr[l] / 4]++;
}
static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}
/* the frame words of a (2h+1)^2 window whose top-left pixel is (r0, c0), 0-based, column-major */
static void hw_win(uint64_t *out, int n, int64_t r0, int64_t c0)
{
    for (int cc = 0; cc < n; cc++)
        for (int r = 0; r < n; r++) out[cc * n + r] = (uint64_t)((c0 + cc) * 590 + r0 + r);
}
static void hw_same(uint64_t *got, int ngot, uint64_t *want, int nwant)
{
    assert_int_equal(ngot, nwant);
    qsort(got, (size_t)ngot, 8, cmp_u64);
    qsort(want, (size_t)nwant, 8, cmp_u64);
    for (int i = 0; i < ngot; i++) assert_true(got[i] == want[i]);
}
static void hw_free_count(struct hwcount *c)
{
    for (int f = 0; f < HW_NK; f++) free(c->frame_ld[f][0]), free(c->frame_ld[f][1]);
    memset(c, 0, sizeof *c);
    hw_layout(&c->L);
}
static void test_heartwall(void **state)
{
    (void)state;
    static const int64_t R[2] = {369, 390}, C[2] = {408, 457};
    struct hwcount *c = calloc(1, sizeof *c);
    hw_layout(&c->L);
    assert_int_equal(walk("rodinia.heartwall", "tiny", 1, NULL, 0, hw_cb, c), 2);
    uint64_t want[289 + 121];
    for (int f = 0; f < 2; f++) {
        assert_int_equal(c->grid[f], 2);
        assert_int_equal(c->block[f], 256);
        assert_int_equal(c->shmem[f], 2601 * 4 + 51 * 8 + 131 * 8 + 12);
    }
    assert_int_equal(c->bars[0], 0);
    assert_int_equal(c->bars[1], 34);
    for (int b = 0; b < 2; b++) {
        /* frame 0: the template window, stored once per element; tx 0 records the start at tRowLoc[pno*104 + 0] */
        hw_win(want, 11, R[b] - 26, C[b] - 26);
        hw_same(c->frame_ld[0][b], c->nframe_ld[0][b], want, 121);
        for (int i = 0; i < 121; i++) assert_int_equal(c->tpl_st[b][i], 1);
        assert_true(c->trow_st[0][b] == c->L.trow[b]);
        /* frame 1: the search area; the tracked location goes to tRowLoc[1] */
        hw_win(want, 17, R[b] - 9, C[b] - 9);
        hw_same(c->frame_ld[1][b], c->nframe_ld[1][b], want, 289);
        assert_true(c->trow_st[1][b] == c->L.trow[b] + 4);
        for (int i = 0; i < 289; i++) assert_int_equal(c->in2_ld[b][i], 121 + 1 + 1);
        for (int i = 0; i < 121; i++) assert_int_equal(c->tpl_lds[b][i], 289);
        for (int i = 0; i < 729; i++) assert_int_equal(c->conv_st[b][i], 2);
        for (int i = 0; i < 729; i++) assert_int_equal(c->mconv_ld[b][i], 1);
    }
    /* the two vertical scans: warp 0's 32 columns, 39 positions, a load and a store each */
    assert_int_equal(c->scan32_ld, 2 * 2 * 39);
    assert_int_equal(c->scan32_st, 2 * 2 * 39);
    assert_int_equal(c->in2_st_bad, 0);
    int64_t win = 0;
    for (int64_t i = 6; i <= 32; i++) win += (i < 27 ? i : 27) - (i - 9 > 1 ? i - 9 : 1) + 1;
    assert_int_equal(c->tm_ld, 2 * win * win);
    uint64_t h = c->hash;
    hw_free_count(c);
    walk("rodinia.heartwall", "tiny", 1, NULL, 0, hw_cb, c);
    assert_true(c->hash == h);
    hw_free_count(c);
    /* small: frames 0-10; frame 10 tracks at the start position, then blends at the moved one */
    for (uint64_t seed = 1; seed <= 2; seed++) {
        assert_int_equal(walk("rodinia.heartwall", "small", seed, NULL, 0, hw_cb, c), 11);
        for (int b = 0; b < 2; b++) {
            for (int f = 1; f < 10; f++) assert_int_equal(c->nframe_ld[f][b], 289);
            hw_win(want, 17, R[b] - 9, C[b] - 9);
            int64_t nr = R[b] + mw_wl_heartwall_offset(seed, 10, 2 * b);
            int64_t nc = C[b] + mw_wl_heartwall_offset(seed, 10, 2 * b + 1);
            hw_win(want + 289, 11, nr - 26, nc - 26);
            hw_same(c->frame_ld[10][b], c->nframe_ld[10][b], want, 289 + 121);
            assert_true(c->trow_st[10][b] == c->L.trow[b] + 40);
        }
        assert_int_equal(c->bars[10], 34);
        if (seed == 1) h = c->hash;
        hw_free_count(c);
    }
    assert_true(mw_wl_heartwall_offset(1, 10, 0) != mw_wl_heartwall_offset(2, 10, 0) ||
                mw_wl_heartwall_offset(1, 10, 1) != mw_wl_heartwall_offset(2, 10, 1));
    walk("rodinia.heartwall", "small", 2, NULL, 0, hw_cb, c);
    assert_true(c->hash != h);
    hw_free_count(c);
    free(c);
    struct mw_kernel k[20];
    assert_int_equal(shapes("rodinia.heartwall", "default", k, 20), 2);
    check_shape(&k[1], 51, 1, 256, 1);
    assert_int_equal(shapes("rodinia.heartwall", "paper", k, 20), 20);
    check_shape(&k[19], 51, 1, 256, 1);
    assert_int_equal(k[19].shmem, 11872);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kmeans),
        cmocka_unit_test(test_btree),
        cmocka_unit_test(test_streamcluster),
        cmocka_unit_test(test_cfd),
        cmocka_unit_test(test_particlefilter),
        cmocka_unit_test(test_heartwall),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
