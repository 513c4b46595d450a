/* Mars similarity score (mars.ss), checked against facts worked out by hand from the SimilarityScore sample
 * (main.cu, map.cu, compare.cu) and the Mars runtime's MAP_GROUP sequence: launch shapes and order, the map
 * kernels' instructions per thread from the loop trip counts, a chosen thread's row loads, the rows' coalescing,
 * the emitted bytes, the sort and the key groups recomputed here from the seeded matrix, determinism. */
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

/* tiny: 32 documents of 256 floats: 32 * 31 / 2 = 496 pair records, one a map thread, 2 blocks of 256 threads */
#define NDOC 32
#define DIM 256
#define NREC (NDOC * (NDOC - 1) / 2)
#define MATRIX 0x10000000ull /* the first cudaMalloc: d_matrix */

/* Per kernel (the first 64 launches) and instruction index (< 128): warp instructions, active lanes, lines. */
#define NK 64
#define NPC 128
struct cell {
    uint8_t op, width;
    uint64_t n, lanes;
    uint32_t min_lines, max_lines;
};
struct walkst {
    struct mw_kernel k[NK];
    struct cell c[NK][NPC];
    uint64_t w0_insts[NK];            /* warp 0 of CTA 0 */
    uint64_t t100_a[DIM / 4], t100_b[DIM / 4]; /* Mapper thread 100's row loads */
    int na, nb;
    uint32_t w0_a_lines, w0_b_lines;  /* Mapper warp 0's first row loads */
    uint64_t hash;
};

static void cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    struct walkst *s = arg;
    s->hash = s->hash * 1099511628211ull ^ in->pc ^ (uint64_t)in->mask << 20 ^ in->op;
    if (mw_op_is_mem(in->op))
        for (int l = 0; l < MW_WARP_SIZE; l++)
            if (in->mask >> l & 1u) s->hash = s->hash * 31 + in->addr[l];
    if (walk_kernel >= NK) return;
    s->k[walk_kernel] = *k;
    if (walk_cta == 0 && walk_warp == 0) s->w0_insts[walk_kernel]++;
    if (in->op == MW_OP_EXIT) return;
    assert_true(in->pc % 16 == 0 && in->pc / 16 < NPC);
    struct cell *c = &s->c[walk_kernel][in->pc / 16];
    if (!c->n) c->op = in->op, c->width = in->width, c->min_lines = 99;
    assert_int_equal(c->op, in->op);
    c->n++;
    c->lanes += (uint64_t)__builtin_popcount(in->mask);
    if (mw_op_is_global_mem(in->op)) {
        uint32_t ln = lines_of(in);
        if (ln < c->min_lines) c->min_lines = ln;
        if (ln > c->max_lines) c->max_lines = ln;
    }
    if (strcmp(k->name, "Mapper") == 0 && walk_cta == 0) {
        /* thread 100: warp 3, lane 4 */
        if (walk_warp == 3 && (in->mask >> 4 & 1u)) {
            if (in->pc == 28 * 16 && s->na < DIM / 4) s->t100_a[s->na++] = in->addr[4];
            if (in->pc == 29 * 16 && s->nb < DIM / 4) s->t100_b[s->nb++] = in->addr[4];
        }
        if (walk_warp == 0 && in->pc == 28 * 16 && !s->w0_a_lines) s->w0_a_lines = lines_of(in);
        if (walk_warp == 0 && in->pc == 29 * 16 && !s->w0_b_lines) s->w0_b_lines = lines_of(in);
    }
}

static const struct cell *at_pc(const struct walkst *s, int k, int idx)
{
    const struct cell *c = &s->c[k][idx];
    if (!c->n) fail_msg("no instruction at index %d of kernel %d (%s)", idx, k, s->k[k].name);
    return c;
}

/* compare.cu's order as getCompareValue applies it: 1 when a scores below b (within 1e-7: 0) */
static float g_score[NREC];
static int by_score(const void *a, const void *b)
{
    float x = g_score[*(const int *)a], y = g_score[*(const int *)b];
    return x > y ? -1 : x < y ? 1 : 0;
}

static void test_ss(void **state)
{
    (void)state;
    /* the matrix: rand() % 100 */
    for (uint32_t i = 0; i < NDOC * DIM; i++) {
        float v = mw_wl_ss_value(1, i);
        assert_true(v >= 0 && v <= 99 && v == floorf(v));
    }
    /* the score is the cosine a.b / (|a| |b|) of the two rows (checked in double) */
    for (uint32_t r = 0, i = 0; i < NDOC; i++)
        for (uint32_t j = i + 1; j < NDOC; j++, r++) {
            double up = 0, na = 0, nb = 0;
            for (uint32_t q = 0; q < DIM; q++) {
                double a = mw_wl_ss_value(1, i * DIM + q), b = mw_wl_ss_value(1, j * DIM + q);
                up += a * b, na += a * a, nb += b * b;
            }
            g_score[r] = mw_wl_ss_score(1, DIM, i, j);
            assert_true(fabs(g_score[r] - up / sqrt(na * nb)) < 1e-6);
        }
    /* the key groups: distinct scores (adjacent in score order more than 1e-7 apart) */
    int idx[NREC];
    for (int i = 0; i < NREC; i++) idx[i] = i;
    qsort(idx, NREC, sizeof *idx, by_score);
    uint64_t groups = 1;
    for (int i = 1; i < NREC; i++) groups += fabsf(g_score[idx[i]] - g_score[idx[i - 1]]) >= 0.0000001f;
    assert_true(groups > 100);

    struct walkst *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->hash = 14695981039346656037ull;
    int nk = walk("mars.ss", "tiny", 1, NULL, 0, cb, s);
    /* MapperCount, 3 prescans (512 counters: one block each), Mapper, initialize_kernel, bitonicKernel for
     * every (k, j) of R = 512 = 2^9 pointers (9 * 10 / 2 = 45), getChunkBoundary, prescan of the 496 flags,
     * writeBoundary, setBoundaryInt2 */
    assert_int_equal(nk, 1 + 3 + 1 + 1 + 45 + 1 + 1 + 1 + 1);
    assert_true(nk <= NK);
    static const char *const names[] = {"MapperCount", "prescan", "prescan", "prescan", "Mapper", "initialize_kernel"};
    for (int i = 0; i < 6; i++) assert_string_equal(s->k[i].name, names[i]);
    for (int i = 6; i < 51; i++) assert_string_equal(s->k[i].name, "bitonicKernel");
    assert_string_equal(s->k[51].name, "getChunkBoundary_kernel");
    assert_string_equal(s->k[52].name, "prescan");
    assert_string_equal(s->k[53].name, "writeBoundary_kernel");
    assert_string_equal(s->k[54].name, "setBoundaryInt2_kernel");

    /* shapes: ceil(496 / 256) = 2 map blocks of 256 threads; Mapper's GET_OUTPUT_BUF slots: 256 * 5 ints */
    check_shape(&s->k[0], 2, 1, 256, 1);
    check_shape(&s->k[4], 2, 1, 256, 1);
    assert_int_equal(s->k[4].shmem, 256 * 5 * 4);
    check_shape(&s->k[1], 1, 1, 256, 1);
    check_shape(&s->k[6], 512 / 256, 1, 256, 1);
    check_shape(&s->k[5], 1, 1, 512, 1); /* the 512 d_R entries: one 512-thread block */

    /* MapperCount: per record one int4 offset load and EmitInterCount's three read-modify-writes */
    const struct cell *c = at_pc(s, 0, 7);
    assert_int_equal(c->lanes, NREC);
    assert_int_equal(c->width, 16);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(at_pc(s, 0, 10 + 3 * i)->lanes, NREC);
        assert_int_equal(at_pc(s, 0, 12 + 3 * i)->lanes, NREC);
        assert_int_equal(at_pc(s, 0, 12 + 3 * i)->op, MW_OP_ST_GLOBAL);
    }
    /* warp 0 of MapperCount: 3 + IF + 2 + (offsets 3 + counters 9 + loop test 2) + loop branch + EXIT = 22 */
    assert_int_equal(s->w0_insts[0], 3 + 1 + 2 + (3 + 9 + 2) + 1 + 1);

    /* Mapper: col4 = 256 >> 2 = 64 float4 iterations of both rows, remainder 256 & 3 = 0 */
    assert_int_equal(at_pc(s, 4, 28)->lanes, (uint64_t)NREC * 64);
    assert_int_equal(at_pc(s, 4, 29)->lanes, (uint64_t)NREC * 64);
    assert_int_equal(at_pc(s, 4, 28)->width, 16);
    assert_int_equal(at_pc(s, 4, 48)->lanes, (uint64_t)NREC * 64); /* the loop's back-edge branch */
    assert_int_equal(s->c[4][50].n, 0);                              /* the remainder loop never runs */
    assert_int_equal(at_pc(s, 4, 57)->op, MW_OP_SFU);                /* sqrtf(doc1Down) */
    /* warp 0's instructions: 3 + IF + 6 + 16 (offsets, key, val, row pointers, sums) + 64 * (2 loads + 15
     * multiply-adds + 3 increments + branch) + 9 (the score, three shared stores) + 5 + EmitIntermediate's
     * 4-byte key copy 4 * (4 + branch) and 8-byte value copy 8 * (4 + branch) + 5 + the never-taken branch of
     * curIndex > 0 + 6 + the record loop's branch + EXIT */
    assert_int_equal(s->w0_insts[4], 3 + 1 + 6 + 16 + 64 * 21 + 9 + 5 + 4 * 5 + 8 * 5 + 5 + 1 + 6 + 1 + 1);
    /* the emitted bytes: the float score and the int2 (doc1, doc2), one byte a store */
    assert_int_equal(at_pc(s, 4, 73)->lanes, (uint64_t)NREC * 4);
    assert_int_equal(at_pc(s, 4, 79)->lanes, (uint64_t)NREC * 8);
    assert_int_equal(at_pc(s, 4, 73)->width, 1);
    assert_int_equal(at_pc(s, 4, 72)->op, MW_OP_LD_SHARED);

    /* thread 100's pair: records 0..30 are (0, 1..31), 31..60 (1, 2..31), 61..89 (2, 3..31), 90..117 (3, 4..31),
     * so record 100 is (3, 4 + 10) = (3, 14); its float4 loads walk rows 3 and 14 (1 KB each) 16 B at a time */
    assert_int_equal(s->na, 64);
    assert_int_equal(s->nb, 64);
    for (int i = 0; i < 64; i++) {
        assert_int_equal(s->t100_a[i], MATRIX + 3 * 1024 + 16 * (uint64_t)i);
        assert_int_equal(s->t100_b[i], MATRIX + 14 * 1024 + 16 * (uint64_t)i);
    }
    /* coalescing: warp 0 holds records 0..31 = (0, 1..31) and (1, 2): the doc1 rows are rows 0 and 1 (2 lines),
     * the doc2 rows are 1..31 and 2 again, 1 KB apart: 31 lines for 32 lanes */
    assert_int_equal(s->w0_a_lines, 2);
    assert_int_equal(s->w0_b_lines, 31);
    assert_int_equal(at_pc(s, 4, 29)->max_lines, NDOC - 1); /* rows 1..31: row 0 is never a doc2 */
    /* the last warp (records 480..495) spans doc1 = 25..30: 6 lines */
    assert_int_equal(at_pc(s, 4, 28)->max_lines, 6);

    /* the sort: every launch compares in the 256 threads of each pair whose partner is above (R / 2 = 256),
     * loading both int4 pointers; real keys (not the -1 padding) load two floats */
    uint64_t cmp = 0, keys = 0;
    for (int i = 6; i < 51; i++) {
        cmp += at_pc(s, i, 5)->lanes;
        if (s->c[i][11].n) keys += s->c[i][11].lanes;
        if (s->c[i][26].n) keys += s->c[i][26].lanes;
    }
    assert_int_equal(cmp, 45ull * 256);
    assert_true(keys > 0 && keys < cmp);
    /* the groups: one boundary written per distinct score, one range per group */
    assert_int_equal(at_pc(s, 53, 7)->lanes, groups);
    assert_int_equal(at_pc(s, 54, 8)->lanes, groups);
    assert_int_equal(at_pc(s, 51, 14)->lanes, NREC); /* a start flag per sorted record */
    assert_int_equal(at_pc(s, 51, 8)->lanes, NREC - 1); /* compare with the left neighbour from position 1 */

    /* determinism; another seed draws another matrix, so another sort */
    uint64_t h1 = s->hash;
    memset(s, 0, sizeof *s);
    s->hash = 14695981039346656037ull;
    walk("mars.ss", "tiny", 1, NULL, 0, cb, s);
    assert_true(s->hash == h1);
    memset(s, 0, sizeof *s);
    s->hash = 14695981039346656037ull;
    walk("mars.ss", "tiny", 2, NULL, 0, cb, s);
    assert_true(s->hash != h1);
    free(s);
}

/* small: 128 documents, 8128 records, 32 map blocks; 8192 counters scanned in 16 blocks, so each prefix sum is
 * the block scan, the scan of the 16 block sums and uniformAdd over 15 blocks; R = 8192 = 2^13: 91 sorts */
static void test_ss_small_shapes(void **state)
{
    (void)state;
    struct mw_kernel ks[128];
    int n = shapes("mars.ss", "small", ks, 128);
    assert_int_equal(n, 1 + 9 + 1 + 1 + 91 + 1 + 3 + 1 + 1);
    check_shape(&ks[0], 32, 1, 256, 1);
    check_shape(&ks[1], 16, 1, 256, 1);
    check_shape(&ks[2], 1, 1, 256, 1);
    assert_string_equal(ks[3].name, "uniformAdd");
    check_shape(&ks[3], 15, 1, 256, 1);
    assert_string_equal(ks[10].name, "Mapper");
    check_shape(&ks[12], 8192 / 256, 1, 256, 1);
}

/* run.sh's 1024 x 256 (paper) needs MarsSort's chunked path: refused with a message, not a crash */
static void test_ss_paper_refused(void **state)
{
    (void)state;
    struct mw_workload w;
    struct mw_err e = {0};
    assert_true(mw_workload_open_builtin(&w, "mars.ss", "paper", 1, &e) < 0);
    assert_non_null(strstr(e.msg, "chunked bitonic sort"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ss),
        cmocka_unit_test(test_ss_small_shapes),
        cmocka_unit_test(test_ss_paper_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
