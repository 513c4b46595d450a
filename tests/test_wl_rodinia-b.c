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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kmeans),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
