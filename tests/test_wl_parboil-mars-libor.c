/* Parboil SPMV and LBM, LIBOR Monte Carlo and Mars inverted index, checked against facts derived by hand from
 * their CUDA sources: launch shapes and sequences, loads per thread, distinct 128 B lines per warp instruction,
 * counts recomputed here from the same seeded inputs, determinism. */
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
static uint64_t stream_hash(const char *name, const char *size, uint64_t seed)
{
    uint64_t h = 14695981039346656037ull;
    struct kstat ks[1];
    walk(name, size, seed, ks, 1, hash_cb, &h);
    return h;
}

/* ---- SPMV ---- */
/* spmv_jds PCs (16 B apart): prologue d_data 9, d_index 11, x_vec 13, d_index[jds_ptr[1] + ix] 20; loop
 * (from 40) d_data 41, d_index 45, x_vec 47; tail (from 60) d_data 61, x_vec 63; d_perm 72, store 74. */
#define SP_LOOP 40
#define SP_TAIL 60
#define SP_FINAL 70
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spmv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
