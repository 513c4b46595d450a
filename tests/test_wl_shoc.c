/* SHOC SpMV (shoc.spmv) checked against facts derived by hand from SHOC's Spmv.cu and util.h: the random matrix's
 * size and CSR shape, launch shapes, loop trip counts per warp recomputed from the same seeded matrix, distinct
 * 128 B lines of the scalar kernel's divergent walks and the vector kernel's coalesced ones, determinism. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "kgen.h"
#include "workload.h"
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wlwalk.h"

/* sites (PC / 16) of spmv_csr_scalar_kernel: rowDelimiters 4, 5; loop from 9: cols 10, val 12, x 13; store 18.
 * spmv_csr_vector_kernel: rowDelimiters 6, 7; loop from 11: cols 12, val 14, x 15; store 43. */
static void test_matrix(void **state)
{
    (void)state;
    uint32_t *row, *col;
    const uint32_t n = 1024;
    assert_int_equal(mw_wl_shoc_spmv_matrix(n, 1, &row, &col), 0);
    /* nItems = numRows * numRows / 100 = 1048576 / 100 = 10485 */
    assert_int_equal(row[0], 0);
    assert_int_equal(row[n], 10485);
    uint32_t maxlen = 0, empty = 0;
    for (uint32_t r = 0; r < n; r++) {
        assert_true(row[r + 1] >= row[r]);
        uint32_t len = row[r + 1] - row[r];
        if (len > maxlen && r < n - 8) maxlen = len;
        empty += len == 0;
        for (uint32_t i = row[r]; i < row[r + 1]; i++) {
            assert_true(col[i] < n);
            if (i > row[r]) assert_true(col[i] > col[i - 1]); /* row-major walk: increasing columns */
        }
    }
    /* a row is Binomial(1024, 0.01): mean 10.24, sd 3.2; over 1024 rows the longest stays below 10 + 8 sd and
     * an empty row has probability 3.4e-5. The last rows are excepted: when the walk reaches the end short of
     * nItems, SHOC fills the remaining entries (the deficit, ~sqrt(nItems)), so the last row may be dense. */
    assert_true(maxlen > 15 && maxlen < 36);
    assert_true(empty < 3);
    uint32_t *row2, *col2;
    assert_int_equal(mw_wl_shoc_spmv_matrix(n, 2, &row2, &col2), 0);
    assert_true(memcmp(col, col2, 10485 * sizeof *col) != 0); /* another seed, another matrix */
    free(row), free(col), free(row2), free(col2);
}

static uint64_t hash_of(const char *size, uint64_t seed);

static void test_kernels(void **state)
{
    (void)state;
    const uint32_t n = 1024;
    uint32_t *row, *col;
    assert_int_equal(mw_wl_shoc_spmv_matrix(n, 1, &row, &col), 0);
    uint64_t trips = 0, vtrips = 0;
    for (uint32_t w = 0; w < n / 32; w++) { /* scalar: a warp loops as long as its longest row */
        uint32_t m = 0;
        for (uint32_t r = w * 32; r < w * 32 + 32; r++)
            if (row[r + 1] - row[r] > m) m = row[r + 1] - row[r];
        trips += m;
    }
    for (uint32_t r = 0; r < n; r++) vtrips += (row[r + 1] - row[r] + 31) / 32; /* vector: 32 entries a trip */

    struct kstat ks[2];
    assert_int_equal(walk("shoc.spmv", "tiny", 1, ks, 2, NULL, NULL), 2);
    assert_string_equal(ks[0].k.name, "spmv_csr_scalar_kernel");
    assert_string_equal(ks[1].k.name, "spmv_csr_vector_kernel");
    check_shape(&ks[0].k, 8, 1, 128, 1);   /* ceil(1024 / 128) */
    check_shape(&ks[1].k, 256, 1, 128, 1); /* ceil(1024 / (128 / 32)) */
    assert_int_equal(ks[1].k.shmem, 512);  /* partialSums[128] floats */
    /* scalar */
    assert_int_equal(at(&ks[0], 10 * 16)->n, trips);
    assert_int_equal(at(&ks[0], 12 * 16)->n, trips);
    assert_int_equal(at(&ks[0], 13 * 16)->n, trips);
    assert_int_equal(ks[0].thread_loads0, 2 + 3ull * (row[1] - row[0]));
    assert_int_equal(at(&ks[0], 4 * 16)->max_lines, 1); /* rowDelimiters[myRow]: 32 words from a line start */
    assert_int_equal(at(&ks[0], 5 * 16)->max_lines, 2); /* rowDelimiters[myRow + 1]: shifted by one word */
    /* cols[j]: 32 consecutive rows of ~10.24 entries span ~32 x 41 B = 1311 B, about 11 lines */
    assert_true(at(&ks[0], 10 * 16)->max_lines >= 8 && at(&ks[0], 10 * 16)->max_lines <= 32);
    assert_int_equal(at(&ks[0], 18 * 16)->op, MW_OP_ST_GLOBAL);
    assert_int_equal(at(&ks[0], 18 * 16)->n, n / 32);
    /* vector */
    assert_int_equal(at(&ks[1], 12 * 16)->n, vtrips);
    assert_true(at(&ks[1], 12 * 16)->max_lines <= 2); /* 32 consecutive words of one row */
    assert_int_equal(at(&ks[1], 6 * 16)->max_lines, 1);
    assert_int_equal(at(&ks[1], 43 * 16)->n, n); /* out[myRow] by lane 0 of every warp */
    assert_int_equal(at(&ks[1], 43 * 16)->max_lines, 1);
    free(row), free(col);
    /* default: 8192 rows, 2 launches of each kernel */
    struct mw_kernel k[4];
    assert_int_equal(shapes("shoc.spmv", "default", k, 4), 4);
    check_shape(&k[0], 64, 1, 128, 1);
    check_shape(&k[2], 2048, 1, 128, 1);
    assert_true(hash_of("tiny", 1) == hash_of("tiny", 1));
    assert_true(hash_of("tiny", 1) != hash_of("tiny", 2));
}

static void hash_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    (void)k;
    uint64_t *h = arg;
    *h = (*h ^ in->pc ^ in->mask ^ (uint64_t)in->op << 40) * 1099511628211ull;
    if (!mw_op_is_mem(in->op)) return; /* addresses are filled for memory instructions only */
    for (int l = 0; l < MW_WARP_SIZE; l++)
        if (in->mask >> l & 1u) *h = (*h ^ in->addr[l]) * 1099511628211ull;
}
static uint64_t hash_of(const char *size, uint64_t seed)
{
    uint64_t h = 14695981039346656037ull;
    walk("shoc.spmv", size, seed, NULL, 0, hash_cb, &h);
    return h;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrix),
        cmocka_unit_test(test_kernels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
