/* Rodinia models of the rodinia-a group (SRAD v1/v2, BACKPROP, NW, LUD, GAUSSIAN) checked against facts derived by
 * hand from the CUDA kernels: launch sequences and shapes, loads and stores per thread, distinct 128 B lines per
 * warp access (coalescing), shared-memory footprints, determinism. */
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

/* The i-th global load (or store) of a kernel in program order (the models' PCs grow with program order). */
static const struct pcstat *nth_mem(const struct kstat *s, uint8_t op, int i)
{
    uint64_t pcs[MAXPC];
    int n = 0;
    for (int j = 0; j < s->npc; j++)
        if (s->pc[j].op == op) pcs[n++] = s->pc[j].pc;
    for (int a = 1; a < n; a++)
        for (int b = a; b > 0 && pcs[b - 1] > pcs[b]; b--) {
            uint64_t x = pcs[b];
            pcs[b] = pcs[b - 1], pcs[b - 1] = x;
        }
    if (i >= n) fail_msg("%s has only %d instructions of op %d", s->k.name, n, op);
    return at(s, pcs[i]);
}
#define LDG(s, i) nth_mem(s, MW_OP_LD_GLOBAL, i)
#define STG(s, i) nth_mem(s, MW_OP_ST_GLOBAL, i)

/* Per-kernel-name totals over a whole run: thread (lane) counts of global loads and stores, shared accesses,
 * the address range of global accesses, and a hash of the instruction stream. */
#define MAXNAMES 8
struct tally {
    struct {
        char name[64];
        uint64_t launches, ld_lanes, st_lanes, lds_lanes, sts_lanes, bars;
        uint64_t shmax;         /* highest shared byte address touched + 4 */
        uint64_t gmin, gmax;    /* global addresses */
    } k[MAXNAMES];
    int n;
    uint32_t last_id;
    uint64_t hash;
};
static void tally_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    struct tally *t = arg;
    int i = 0;
    while (i < t->n && strcmp(t->k[i].name, k->name) != 0) i++;
    if (i == t->n) {
        assert_true(t->n < MAXNAMES);
        memset(&t->k[i], 0, sizeof t->k[i]);
        snprintf(t->k[i].name, sizeof t->k[i].name, "%.63s", k->name);
        t->k[i].gmin = UINT64_MAX;
        t->n++;
    }
    if (k->id != t->last_id) t->k[i].launches++, t->last_id = k->id;
    uint64_t lanes = (uint64_t)__builtin_popcount(in->mask);
    switch (in->op) {
    case MW_OP_LD_GLOBAL: t->k[i].ld_lanes += lanes; break;
    case MW_OP_ST_GLOBAL: t->k[i].st_lanes += lanes; break;
    case MW_OP_LD_SHARED: t->k[i].lds_lanes += lanes; break;
    case MW_OP_ST_SHARED: t->k[i].sts_lanes += lanes; break;
    case MW_OP_BARRIER: t->k[i].bars++; break;
    default: break;
    }
    t->hash = t->hash * 1099511628211ull ^ in->pc ^ (uint64_t)in->mask << 20 ^ in->op;
    if (mw_op_is_mem(in->op))
        for (int l = 0; l < MW_WARP_SIZE; l++) {
            if (!(in->mask >> l & 1u)) continue;
            uint64_t a = in->addr[l];
            t->hash = t->hash * 31 + a;
            if (in->op == MW_OP_LD_SHARED || in->op == MW_OP_ST_SHARED) {
                if (a + in->width > t->k[i].shmax) t->k[i].shmax = a + in->width;
                assert_true(a + in->width <= k->shmem);
            } else if (mw_op_is_global_mem(in->op)) {
                if (a < t->k[i].gmin) t->k[i].gmin = a;
                if (a > t->k[i].gmax) t->k[i].gmax = a;
            }
        }
}
static const void *tk(const struct tally *t, const char *name)
{
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->k[i].name, name) == 0) return &t->k[i];
    fail_msg("no kernel %s", name);
    return NULL;
}
#define TK(t, name) ((const __typeof__((t)->k[0]) *)tk(t, name))

/* Same stream for the same seed; these kernels' addresses do not depend on data, so another seed gives the
 * same stream too. */
static void check_determinism(const char *name, const struct tally *t1)
{
    struct kstat ks[1];
    struct tally t2, t3;
    memset(&t2, 0, sizeof t2), memset(&t3, 0, sizeof t3);
    walk(name, "tiny", 1, ks, 0, tally_cb, &t2);
    walk(name, "tiny", 2, ks, 0, tally_cb, &t3);
    assert_true(t1->hash == t2.hash);
    assert_true(t1->hash == t3.hash);
    assert_true(t1->hash != 0);
}

/* SRAD v2 tiny: 64 x 64 image, one iteration: srad_cuda_1 then srad_cuda_2 on a 4 x 4 grid of 16 x 16 blocks.
 * srad_cuda_1 reads per thread J[index_n], J[index_s], J[index_w], J[index_e], J[index] (5 loads), plus the
 * image-edge reloads of blocks with by == 0 (north), by == gridDim.y - 1 (south), bx == 0 (west),
 * bx == gridDim.x - 1 (east), and stores C, E, W, S, N. A warp is two rows of 16 threads: J[index] covers two
 * 64 B row segments (2 lines); index_n = base + tx - cols does not depend on ty (1 line); index_w and index_e
 * depend only on ty (2 words, 2 lines). srad_cuda_2 loads J[index], C south, C east, C[index] and N, S, W, E
 * (8 per thread), plus the south and east edge reloads, and stores J. Block (0,0) sits on the north and west
 * edges: thread 0 does 7 loads in srad_cuda_1. */
static void test_srad_v2(void **state)
{
    (void)state;
    struct kstat ks[2];
    struct tally t;
    memset(&t, 0, sizeof t);
    assert_int_equal(walk("rodinia.srad_v2", "tiny", 1, ks, 2, tally_cb, &t), 2);
    assert_string_equal(ks[0].k.name, "srad_cuda_1");
    assert_string_equal(ks[1].k.name, "srad_cuda_2");
    check_shape(&ks[0].k, 4, 4, 16, 16);
    check_shape(&ks[1].k, 4, 4, 16, 16);
    assert_int_equal(ks[0].k.shmem, 6 * 16 * 16 * 4);
    assert_int_equal(ks[1].k.shmem, 5 * 16 * 16 * 4);
    assert_int_equal(ks[0].thread_loads0, 7);
    const uint64_t T = 64 * 64, edge = 4 * 256; /* threads of the blocks along one edge */
    assert_int_equal(TK(&t, "srad_cuda_1")->ld_lanes, 5 * T + 4 * edge);
    assert_int_equal(TK(&t, "srad_cuda_1")->st_lanes, 5 * T);
    assert_int_equal(TK(&t, "srad_cuda_2")->ld_lanes, 8 * T + 2 * edge);
    assert_int_equal(TK(&t, "srad_cuda_2")->st_lanes, T);
    /* __syncthreads: 4 per warp in srad_cuda_1, 5 in srad_cuda_2 */
    assert_int_equal(TK(&t, "srad_cuda_1")->bars, 4 * 16 * 8);
    assert_int_equal(TK(&t, "srad_cuda_2")->bars, 5 * 16 * 8);
    /* the tile's shared arrays are all touched: 6 and 5 arrays of 1 KB */
    assert_int_equal(TK(&t, "srad_cuda_1")->shmax, 6 * 1024);
    assert_int_equal(TK(&t, "srad_cuda_2")->shmax, 5 * 1024);
    /* the north row of block row 0 is read one image row before J: the lowest address is J - cols * 4, J being
     * the lowest address srad_cuda_2 touches */
    assert_int_equal(TK(&t, "srad_cuda_1")->gmin, TK(&t, "srad_cuda_2")->gmin - 64 * 4);
    /* loads in program order: n, s, n (by == 0), s (last), w, e, w (bx == 0), e (last), index */
    const struct kstat *k1 = &ks[0];
    assert_int_equal(LDG(k1, 0)->max_lines, 1);
    assert_int_equal(LDG(k1, 1)->max_lines, 1);
    assert_int_equal(LDG(k1, 2)->n, 4 * 8); /* four blocks on the north edge, 8 warps each */
    assert_int_equal(LDG(k1, 4)->min_lines, 2);
    assert_int_equal(LDG(k1, 4)->max_lines, 2);
    assert_int_equal(LDG(k1, 5)->max_lines, 2);
    assert_int_equal(LDG(k1, 8)->min_lines, 2);
    assert_int_equal(LDG(k1, 8)->max_lines, 2);
    for (int i = 0; i < 5; i++) assert_int_equal(STG(k1, i)->max_lines, 2);
    const struct kstat *k2 = &ks[1];
    assert_int_equal(LDG(k2, 0)->max_lines, 2);      /* J[index] */
    assert_int_equal(LDG(k2, 1)->max_lines, 1);      /* C[index_s] */
    assert_int_equal(LDG(k2, 2)->n, 4 * 8);          /* south edge reload */
    assert_int_equal(LDG(k2, 3)->max_lines, 2);      /* C[index_e] */
    assert_int_equal(STG(k2, 0)->n, 16 * 8);
    check_determinism("rodinia.srad_v2", &t);
    /* Rodinia's run: 2048 x 2048, two iterations */
    struct mw_kernel k[8];
    assert_int_equal(shapes("rodinia.srad_v2", "paper", k, 8), 4);
    check_shape(&k[0], 128, 128, 16, 16);
    assert_string_equal(k[3].name, "srad_cuda_2");
}

/* BACKPROP tiny: 256 inputs, 16 hidden units: grid (1, 16) of 16 x 16 blocks, 1088 B of shared memory
 * (input_node[16], weight_matrix[16][16]). layerforward: threads with tx == 0 load input_cuda[index_in], every
 * thread loads and stores input_hidden_cuda[index] (index = 17 * 16 by + 17 ty + tx + 18: a warp's two rows of 16
 * words one word apart span 33 words, always 2 lines), tx == 0 stores hidden_partial_sum[by * 16 + ty] (2 words,
 * 1 line). The tree: step i (power_two = 2^i) adds weight_matrix[ty + 2^(i-1)][tx] in the 16 / 2^i rows with
 * ty % 2^i == 0: 128 + 64 + 32 + 16 partner loads per block, 8 __syncthreads per warp. adjust_weights: per thread
 * delta, ly, oldw, w, then delta, ly, oldw again after the store to w (7 loads, 2 stores); the 16 threads with
 * ty == 0 of block 0 also update w[index_x] and oldw[index_x] (5 loads, 2 stores). */
static void test_backprop(void **state)
{
    (void)state;
    struct kstat ks[2];
    struct tally t;
    memset(&t, 0, sizeof t);
    assert_int_equal(walk("rodinia.backprop", "tiny", 1, ks, 2, tally_cb, &t), 2);
    assert_string_equal(ks[0].k.name, "bpnn_layerforward_CUDA");
    assert_string_equal(ks[1].k.name, "bpnn_adjust_weights_cuda");
    check_shape(&ks[0].k, 1, 16, 16, 16);
    check_shape(&ks[1].k, 1, 16, 16, 16);
    assert_int_equal(ks[0].k.shmem, (16 + 16 * 16) * 4);
    const uint64_t B = 16, T = 16 * 256;
    const __typeof__(t.k[0]) *f = TK(&t, "bpnn_layerforward_CUDA"), *a = TK(&t, "bpnn_adjust_weights_cuda");
    assert_int_equal(f->ld_lanes, T + B * 16);
    assert_int_equal(f->st_lanes, T + B * 16);
    assert_int_equal(f->lds_lanes, B * (256 * 3 + 2 * (128 + 64 + 32 + 16) + 16));
    assert_int_equal(f->bars, B * 8 * 8);
    assert_int_equal(f->shmax, (16 + 16 * 16) * 4);
    assert_int_equal(ks[0].thread_loads0, 2);
    assert_int_equal(LDG(&ks[0], 0)->n, B * 8);       /* input_cuda: every warp holds two tx == 0 threads */
    assert_true(LDG(&ks[0], 0)->max_lines <= 2);
    assert_int_equal(LDG(&ks[0], 1)->min_lines, 2);   /* input_hidden_cuda[index] */
    assert_int_equal(LDG(&ks[0], 1)->max_lines, 2);
    assert_int_equal(STG(&ks[0], 0)->max_lines, 2);
    assert_int_equal(STG(&ks[0], 1)->max_lines, 1);   /* hidden_partial_sum */
    assert_int_equal(a->ld_lanes, 7 * T + 5 * 16);
    assert_int_equal(a->st_lanes, 2 * T + 2 * 16);
    assert_int_equal(a->lds_lanes, 0);
    assert_int_equal(ks[1].thread_loads0, 7 + 5);
    assert_int_equal(LDG(&ks[1], 0)->max_lines, 1);   /* delta[tx + 1]: 16 words */
    assert_int_equal(LDG(&ks[1], 2)->max_lines, 2);   /* oldw[index] */
    check_determinism("rodinia.backprop", &t);
    struct mw_kernel k[4];
    assert_int_equal(shapes("rodinia.backprop", "paper", k, 4), 2);
    check_shape(&k[1], 1, 4096, 16, 16); /* backprop 65536 */
}

/* NW tiny: dim = 64, a 65 x 65 score matrix, block_width = 4: needle_cuda_shared_1 with grids of 1, 2, 3, 4 blocks
 * of 16 threads, then needle_cuda_shared_2 with 3, 2, 1, 16 blocks in all. 2180 B of shared memory (int
 * temp[17][17], ref[16][16]). Per block: 16 reference rows loaded (16 x 16 cells), the west column (each lane its
 * own row: 16 lines), the north row, the corner by thread 0; the sweeps compute 16 + 15 anti-diagonals, 1 + 2 +
 * ... + 16 + 15 + ... + 1 = 256 cells, one __syncthreads after each plus 3 before; then 16 stores of a row each.
 * Every interior cell (r, c), 1 <= r, c <= 64, of the matrix is written exactly once over the run. */
struct nw_stores {
    uint64_t *a;
    size_t n, cap;
    uint64_t sweep_cells;
};
static void nw_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    (void)k;
    struct nw_stores *s = arg;
    if (in->op == MW_OP_ST_GLOBAL)
        for (int l = 0; l < MW_WARP_SIZE; l++)
            if (in->mask >> l & 1u) {
                if (s->n == s->cap) s->a = realloc(s->a, (s->cap = s->cap ? 2 * s->cap : 1024) * sizeof *s->a);
                s->a[s->n++] = in->addr[l];
            }
}
static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}
static void test_nw(void **state)
{
    (void)state;
    struct kstat ks[8];
    struct tally t;
    memset(&t, 0, sizeof t);
    assert_int_equal(walk("rodinia.nw", "tiny", 1, ks, 8, tally_cb, &t), 7);
    static const uint32_t grid[7] = {1, 2, 3, 4, 3, 2, 1};
    for (int i = 0; i < 7; i++) {
        check_shape(&ks[i].k, grid[i], 1, 16, 1);
        assert_string_equal(ks[i].k.name, i < 4 ? "needle_cuda_shared_1" : "needle_cuda_shared_2");
        assert_int_equal(ks[i].k.shmem, (17 * 17 + 16 * 16) * 4);
    }
    const __typeof__(t.k[0]) *k1 = TK(&t, "needle_cuda_shared_1"), *k2 = TK(&t, "needle_cuda_shared_2");
    assert_int_equal(k1->launches, 4);
    assert_int_equal(k2->launches, 3);
    /* loads per block: 16 x 16 reference cells + 16 west + 16 north + 1 corner */
    assert_int_equal(k1->ld_lanes + k2->ld_lanes, 16 * (256 + 16 + 16 + 1));
    assert_int_equal(k1->ld_lanes, 10 * (256 + 33));
    assert_int_equal(k1->st_lanes + k2->st_lanes, 64 * 64);
    assert_int_equal(k1->bars, 10 * (3 + 31));
    assert_int_equal(k2->bars, 6 * (3 + 31));
    /* shared stores per block: 256 ref + 16 west + 16 north + 1 corner + 256 computed cells */
    assert_int_equal(k1->sts_lanes, 10 * (256 + 33 + 256));
    /* shared loads: 4 per computed cell + 256 for the write-back */
    assert_int_equal(k2->lds_lanes, 6 * (4 * 256 + 256));
    assert_int_equal(k1->shmax, (17 * 17 + 16 * 16) * 4);
    assert_int_equal(ks[0].thread_loads0, 16 + 3);
    /* block (0,0): the corner, then the 16 reference rows, the west column (16 lines), the north row */
    assert_int_equal(LDG(&ks[0], 0)->max_lines, 1);
    assert_int_equal(LDG(&ks[0], 1)->n, 16);
    assert_true(LDG(&ks[3], 1)->max_lines <= 2);
    assert_int_equal(LDG(&ks[3], 2)->min_lines, 16);
    assert_true(LDG(&ks[3], 3)->max_lines <= 2);
    assert_true(STG(&ks[3], 0)->max_lines <= 2);
    /* needle_cuda_shared_2 loads the reference tile before the corner */
    assert_int_equal(LDG(&ks[4], 0)->n, 3 * 16);
    /* every interior cell written once: sorted store addresses are m0 + 4 (r * 65 + c), r, c = 0 .. 63 */
    struct nw_stores st = {0};
    walk("rodinia.nw", "tiny", 1, ks, 0, nw_cb, &st);
    assert_int_equal(st.n, 64 * 64);
    qsort(st.a, st.n, sizeof *st.a, cmp_u64);
    for (size_t i = 0; i < st.n; i++) assert_true(st.a[i] == st.a[0] + 4 * ((i / 64) * 65 + i % 64));
    free(st.a);
    check_determinism("rodinia.nw", &t);
    struct mw_kernel k[1];
    assert_int_equal(shapes("rodinia.nw", "paper", k, 1), 2 * 128 - 1); /* needle 2048 10 */
}

/* LUD tiny: dim = 64, 16x16 blocks, block steps at offsets 0, 16, 32 then a last lud_diagonal: 10 launches.
 * lud_diagonal (1 CTA of 16 threads, shadow[16][16]) loads the 16 rows of the diagonal block (one 64 B row segment,
 * one line, per load) and writes back rows 1 .. 15. lud_perimeter (g CTAs of 32 threads, 3 KB) loads the
 * diagonal block in two halves of 8 rows and the row and column blocks (16 rows each), and writes rows 1 .. 15 of
 * the row block and all 16 of the column block. lud_internal (g x g CTAs of 16 x 16) loads one element of the row
 * block and one of the column block per thread and updates its element (load + store). Over the run every element
 * is written but row 0: a step's first block row is final after the previous step's lud_internal wrote it. */
static uint64_t lud_diag_lds(void)
{
    uint64_t n = 0;
    for (int i = 0; i < 15; i++) {
        uint64_t thr = (uint64_t)(15 - i);  /* threads with tx > i */
        n += thr * (1 + 2 * (uint64_t)i + 1); /* shadow[tx][i], the j < i products, shadow[i][i] */
        n += thr * (1 + 2 * (uint64_t)(i + 1));
    }
    return n + 15 * 16; /* the write-back */
}
static void test_lud(void **state)
{
    (void)state;
    struct kstat ks[10];
    struct tally t;
    memset(&t, 0, sizeof t);
    assert_int_equal(walk("rodinia.lud", "tiny", 1, ks, 10, tally_cb, &t), 10);
    for (int s = 0; s < 3; s++) {
        uint32_t g = (uint32_t)(3 - s);
        assert_string_equal(ks[3 * s].k.name, "lud_diagonal");
        check_shape(&ks[3 * s].k, 1, 1, 16, 1);
        assert_string_equal(ks[3 * s + 1].k.name, "lud_perimeter");
        check_shape(&ks[3 * s + 1].k, g, 1, 32, 1);
        assert_string_equal(ks[3 * s + 2].k.name, "lud_internal");
        check_shape(&ks[3 * s + 2].k, g, g, 16, 16);
    }
    assert_string_equal(ks[9].k.name, "lud_diagonal");
    assert_int_equal(ks[0].k.shmem, 1024);
    assert_int_equal(ks[1].k.shmem, 3072);
    assert_int_equal(ks[2].k.shmem, 2048);
    const __typeof__(t.k[0]) *dg = TK(&t, "lud_diagonal"), *pe = TK(&t, "lud_perimeter"), *in = TK(&t, "lud_internal");
    assert_int_equal(dg->launches, 4);
    assert_int_equal(dg->ld_lanes, 4 * 256);
    assert_int_equal(dg->st_lanes, 4 * 15 * 16);
    assert_int_equal(dg->lds_lanes, 4 * lud_diag_lds());
    assert_int_equal(dg->bars, 4 * (1 + 2 * 15));
    const uint64_t pctas = 3 + 2 + 1, ictas = 9 + 4 + 1;
    assert_int_equal(pe->ld_lanes, pctas * (2 * 8 * 16 + 2 * 16 * 16));
    assert_int_equal(pe->st_lanes, pctas * (15 + 16) * 16);
    assert_int_equal(pe->shmax, 3072);
    assert_int_equal(in->ld_lanes, ictas * 3 * 256);
    assert_int_equal(in->st_lanes, ictas * 256);
    assert_int_equal(in->lds_lanes, ictas * 256 * 2 * 16);
    /* coalescing: diagonal rows and perimeter halves 1 line, the internal block's two rows per warp 2 lines */
    assert_int_equal(LDG(&ks[0], 0)->max_lines, 1);
    assert_int_equal(STG(&ks[0], 0)->max_lines, 1);
    for (int i = 0; i < 4; i++) assert_int_equal(LDG(&ks[1], i)->max_lines, 1);
    assert_int_equal(LDG(&ks[1], 0)->n, 3 * 8);
    assert_int_equal(LDG(&ks[1], 3)->n, 3 * 16);
    for (int i = 0; i < 3; i++) assert_int_equal(LDG(&ks[2], i)->min_lines, 2);
    assert_int_equal(STG(&ks[2], 0)->max_lines, 2);
    /* the written elements */
    struct nw_stores st = {0};
    walk("rodinia.lud", "tiny", 1, ks, 0, nw_cb, &st);
    assert_int_equal(st.n, 4 * 240 + pctas * 496 + ictas * 256);
    static bool written[64 * 64];
    memset(written, 0, sizeof written);
    for (size_t i = 0; i < st.n; i++) {
        uint64_t el = (st.a[i] - dg->gmin) / 4;
        assert_true(el < 64 * 64);
        written[el] = true;
    }
    for (int r = 0; r < 64; r++)
        for (int c = 0; c < 64; c++) assert_int_equal(written[r * 64 + c], r != 0);
    free(st.a);
    check_determinism("rodinia.lud", &t);
    struct mw_kernel k[1];
    assert_int_equal(shapes("rodinia.lud", "paper", k, 1), 3 * 15 + 1); /* lud_cuda -s 256 */
}

/* GAUSSIAN tiny: Size = 16, Fan1 and Fan2 for t = 0 .. 14 (30 launches). Fan1: one block of 512 threads, the
 * 15 - t threads below row t load a[i][t] and the pivot a[t][t] and store m[i][t]. Fan2: 4 x 4 grid of 4 x 4
 * blocks; threads with x < 15 - t and y < 16 - t load m[x+1+t][t], a[t][y+t], a[x+1+t][y+t] and store the latter:
 * sum over t of (15 - t)(16 - t) = 1360 updates; the y == 0 threads also load m, b[t], b[x+1+t] and store b
 * (120 in all). Coalescing at Size = 64 (rows 256 B apart): Fan1's column walk a[i][t] is one line per lane,
 * Fan2's 4 x 4 thread block touches 4 rows of m and a (4 lines) and one segment of the pivot row. */
static void test_gaussian(void **state)
{
    (void)state;
    struct kstat ks[2];
    struct tally t;
    memset(&t, 0, sizeof t);
    assert_int_equal(walk("rodinia.gaussian", "tiny", 1, ks, 2, tally_cb, &t), 30);
    check_shape(&ks[0].k, 1, 1, 512, 1);
    check_shape(&ks[1].k, 4, 4, 4, 4);
    assert_string_equal(ks[0].k.name, "Fan1");
    assert_string_equal(ks[1].k.name, "Fan2");
    const __typeof__(t.k[0]) *f1 = TK(&t, "Fan1"), *f2 = TK(&t, "Fan2");
    assert_int_equal(f1->launches, 15);
    assert_int_equal(f2->launches, 15);
    assert_int_equal(f1->ld_lanes, 2 * 120);
    assert_int_equal(f1->st_lanes, 120);
    assert_int_equal(f2->ld_lanes, 3 * 1360 + 3 * 120);
    assert_int_equal(f2->st_lanes, 1360 + 120);
    assert_int_equal(ks[0].thread_loads0, 2);
    /* at t = 0 only the first of Fan1's 16 warps has rows to do; rows 64 B apart: 15 rows in 8 lines */
    assert_int_equal(LDG(&ks[0], 0)->n, 1);
    assert_int_equal(LDG(&ks[0], 0)->max_lines, 8);
    check_determinism("rodinia.gaussian", &t);
    assert_int_equal(walk("rodinia.gaussian", "small", 1, ks, 2, NULL, NULL), 2 * 63);
    check_shape(&ks[1].k, 16, 16, 4, 4);
    assert_int_equal(LDG(&ks[0], 0)->n, 2);
    assert_int_equal(LDG(&ks[0], 0)->max_lines, 32); /* a[i][0], i = 1 .. 32 */
    assert_int_equal(LDG(&ks[0], 1)->max_lines, 1);  /* the pivot */
    assert_int_equal(LDG(&ks[1], 0)->max_lines, 4);  /* m[x+1][0] */
    assert_int_equal(LDG(&ks[1], 1)->max_lines, 1);  /* a[0][y .. y+3] */
    assert_int_equal(LDG(&ks[1], 2)->max_lines, 4);
    assert_int_equal(LDG(&ks[1], 2)->min_lines, 3);  /* the last block row: x = 60 .. 62 */
    struct mw_kernel k[2];
    assert_int_equal(shapes("rodinia.gaussian", "paper", k, 2), 2 * 207); /* matrix208 */
    check_shape(&k[1], 52, 52, 4, 4);
}

/* SRAD v1 tiny: a 40 x 36 image (Ne = 1440, 3 blocks of 512 threads), one iteration: extract, prepare, reduce on
 * 3 blocks (no = 1440, mul = 1), reduce on 1 block (no = 3, mul = 512), srad, srad2, compress. reduce: threads
 * with ei < no load sums[ei * mul] and sums2[ei * mul]; a full block sums its 512 values by 9 tree steps (step i:
 * the 512 / i threads with (tx + 1) % i == 0 read psum[tx] and psum[tx - i/2] for both arrays) and thread 511
 * stores; the last block holds nf = 512 - (gridDim.x * 512 - no) values (416, then 3), runs the tree up to
 * df = 256 (then 2) and thread df - 1 adds sums[bx * 512 + df .. + nf - 1] one by one (160, then 1 pair of
 * loads). srad: I[ei], iN[row], I[north], iS[row], I[south], jW[col], I[west], jE[col], I[east] (9 loads), 5
 * stores; srad2: c[ei], iS, c[south], jE, c[east], dN, dS, dW, dE, I (10 loads; cW = c[ei] reused), 1 store. */
static void test_srad_v1(void **state)
{
    (void)state;
    struct kstat ks[7];
    struct tally t;
    memset(&t, 0, sizeof t);
    assert_int_equal(walk("rodinia.srad_v1", "tiny", 1, ks, 7, tally_cb, &t), 7);
    static const char *const seq[7] = {"extract", "prepare", "reduce", "reduce", "srad", "srad2", "compress"};
    for (int i = 0; i < 7; i++) {
        assert_string_equal(ks[i].k.name, seq[i]);
        check_shape(&ks[i].k, i == 3 ? 1 : 3, 1, 512, 1);
        assert_int_equal(ks[i].k.shmem, i == 2 || i == 3 ? 4096 : 0);
    }
    const uint64_t ne = 40 * 36;
    assert_int_equal(TK(&t, "extract")->ld_lanes, ne);
    assert_int_equal(TK(&t, "extract")->st_lanes, ne);
    assert_int_equal(TK(&t, "prepare")->ld_lanes, 2 * ne);
    assert_int_equal(TK(&t, "prepare")->st_lanes, 2 * ne);
    const __typeof__(t.k[0]) *r = TK(&t, "reduce");
    assert_int_equal(r->launches, 2);
    assert_int_equal(r->ld_lanes, 2 * ne + 2 * 160 + 2 * 3 + 2 * 1);
    assert_int_equal(r->st_lanes, 2 * 3 + 2 * 1);
    assert_int_equal(r->bars, 16 * (2 * (1 + 9) + (1 + 8) + (1 + 1)));
    assert_int_equal(r->lds_lanes, 2 * (4 * 511 + 2) + (4 * 255 + 2) + (4 * 1 + 2));
    assert_int_equal(r->sts_lanes, 2 * (ne + 3) + 2 * (2 * 511 + 255 + 1));
    assert_int_equal(r->shmax, 4096);
    assert_int_equal(LDG(&ks[2], 0)->max_lines, 1);
    assert_int_equal(LDG(&ks[2], 2)->n, 160);     /* the tail loop: one lane per iteration */
    assert_int_equal(LDG(&ks[3], 0)->max_lines, 3); /* sums[ei * 512], ei = 0 .. 2: 2 KB apart */
    assert_int_equal(LDG(&ks[3], 2)->n, 1);
    assert_int_equal(TK(&t, "srad")->ld_lanes, 9 * ne);
    assert_int_equal(TK(&t, "srad")->st_lanes, 5 * ne);
    assert_int_equal(TK(&t, "srad2")->ld_lanes, 10 * ne);
    assert_int_equal(TK(&t, "srad2")->st_lanes, ne);
    assert_int_equal(TK(&t, "compress")->st_lanes, ne);
    /* column-major neighbours: a warp of 32 consecutive elements spans at most two columns of 40 rows */
    for (int i = 0; i < 9; i++) assert_true(LDG(&ks[4], i)->max_lines <= 2);
    assert_int_equal(LDG(&ks[4], 0)->min_lines, 1);
    check_determinism("rodinia.srad_v1", &t);
    /* Rodinia's run: srad 100 0.5 502 458: 450 blocks, reduce on 450 then 1 block */
    struct mw_kernel k[8];
    assert_int_equal(shapes("rodinia.srad_v1", "paper", k, 8), 2 + 100 * 5);
    check_shape(&k[2], 450, 1, 512, 1);
    check_shape(&k[3], 1, 1, 512, 1);
    assert_string_equal(k[4].name, "srad");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_srad_v2), cmocka_unit_test(test_backprop), cmocka_unit_test(test_nw), cmocka_unit_test(test_lud), cmocka_unit_test(test_gaussian), cmocka_unit_test(test_srad_v1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
