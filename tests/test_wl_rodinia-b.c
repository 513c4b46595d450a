/* Rodinia models KMEANS, B+TREE, STREAMCLUSTER, CFD, PARTICLEFILTER and HEARTWALL checked against facts derived
 * by hand from the CUDA sources: launch shapes and sequences, loads per thread, distinct 128 B lines per warp
 * instruction, counts recomputed here from the same seeded inputs, determinism. */
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

/* A hash of the whole instruction stream (PCs, masks, ops, addresses) and per-kernel lane counts by PC. */
struct hashcb {
    uint64_t hash;
};
static void hash_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    (void)k;
    struct hashcb *c = arg;
    c->hash = c->hash * 1099511628211ull ^ in->pc ^ (uint64_t)in->mask << 20 ^ in->op;
    if (mw_op_is_mem(in->op))
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
    assert_int_equal(at(&ks[0], BODY(0))->min_lines, 8);
    assert_int_equal(at(&ks[0], BODY(0))->max_lines, 8);
    assert_int_equal(at(&ks[0], BODY(0))->n, 64 * 8);
    assert_int_equal(at(&ks[0], BODY(1))->op, MW_OP_ST_GLOBAL);
    assert_int_equal(at(&ks[0], BODY(1))->max_lines, 1);
    for (int i = 1; i < 3; i++) {
        assert_int_equal(ks[i].thread_loads0, 3 * 8);
        assert_int_equal(ks[i].loads, 64 * 3 * 8);
        assert_int_equal(ks[i].stores, 64);
        assert_int_equal(at(&ks[i], BODY(0))->max_lines, 1);
        assert_int_equal(at(&ks[i], 0x8000 + 16)->max_lines, 1);
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
    if (in->pc == 0x8060) c->sw_lanes[i] += (uint64_t)__builtin_popcount(in->mask);
    if (in->pc == 0x8130) c->keep_lanes[i] += (uint64_t)__builtin_popcount(in->mask);
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
        assert_int_equal(at(&ks[i], BODY(0))->max_lines, 1);
        assert_int_equal(at(&ks[i], BODY(1))->max_lines, 1);
        assert_int_equal(at(&ks[i], BODY(0))->n, 32 * 8);
        assert_int_equal(at(&ks[i], 0x8010)->min_lines, 8);
        assert_int_equal(at(&ks[i], 0x8010)->max_lines, 8);
        assert_int_equal(at(&ks[i], 0x8060)->op, MW_OP_ST_GLOBAL);
    }
    /* some point gains from opening a feasible centre, not all of them */
    assert_true(sw > 0 && sw < 3 * 1024);
    assert_true(stream_hash("rodinia.streamcluster", "tiny", 1) == stream_hash("rodinia.streamcluster", "tiny", 1));
    assert_true(stream_hash("rodinia.streamcluster", "tiny", 1) != stream_hash("rodinia.streamcluster", "tiny", 2));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kmeans),
        cmocka_unit_test(test_btree),
        cmocka_unit_test(test_streamcluster),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
