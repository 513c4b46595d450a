/* The coalesced requests of the models whose DyCache class differs from the paper's (BP, GE, HP, LUD, NW, PF, SC,
 * GC), checked against the request sizes worked out by hand from the CUDA sources' element sizes and per-lane
 * addresses: every global load of a model goes through the engine's coalescer (GTX480: 128 B lines, requests
 * shrunk to an aligned 32 or 64 B block) and the 32 / 64 / 128 B requests of chosen loads are counted. These are
 * what DyCache's fine-grain ratio sees (docs/papers/dycache.md, the coalescing paragraphs). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "coalescer.h"
#include "simrun.h"
#include "wlwalk.h"

/* Requests by size per (kernel name, PC) of global loads and stores, over a whole walk. */
#define MAXROWS 256
struct row {
    char name[48];
    uint64_t pc;
    uint8_t op;
    uint64_t insts, r32, r64, r128;
};
struct coal {
    struct mw_coalescer co;
    int only_kernel; /* -1: every launch, else only this 0-based launch */
    struct row r[MAXROWS];
    int n;
};

static void coal_init(struct coal *c, int only_kernel)
{
    memset(c, 0, sizeof *c);
    struct mw_config cfg;
    sr_config(&cfg, NULL, 0);
    struct mw_err e;
    if (mw_config_validate(&cfg, &e)) fail_msg("config: %s", e.msg);
    struct mw_set_index idx;
    mw_set_index_init(&idx, &cfg);
    mw_coalescer_init(&c->co, &cfg, &idx);
    c->only_kernel = only_kernel;
}

static void coal_cb(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    struct coal *c = arg;
    if (in->op != MW_OP_LD_GLOBAL && in->op != MW_OP_ST_GLOBAL) return;
    if (c->only_kernel >= 0 && (int)walk_kernel != c->only_kernel) return;
    int i = 0;
    while (i < c->n && !(c->r[i].pc == in->pc && strcmp(c->r[i].name, k->name) == 0)) i++;
    if (i == c->n) {
        assert_true(c->n < MAXROWS);
        snprintf(c->r[i].name, sizeof c->r[i].name, "%.47s", k->name);
        c->r[i].pc = in->pc, c->r[i].op = in->op;
        c->n++;
    }
    struct row *r = &c->r[i];
    struct mw_coal_req q[MW_WARP_SIZE * 2];
    int nq = mw_coalesce(&c->co, in, q);
    r->insts++;
    for (int j = 0; j < nq; j++) {
        if (q[j].size == 32) r->r32++;
        else if (q[j].size == 64) r->r64++;
        else if (q[j].size == 128) r->r128++;
        else fail_msg("request of %u B", q[j].size);
    }
}

/* The i-th global access of kind `op` of kernel `name` in PC order (program order in these models). */
static const struct row *nth(const struct coal *c, const char *name, uint8_t op, int i)
{
    const struct row *sorted[MAXROWS];
    int n = 0;
    for (int j = 0; j < c->n; j++)
        if (c->r[j].op == op && strcmp(c->r[j].name, name) == 0) sorted[n++] = &c->r[j];
    for (int a = 1; a < n; a++)
        for (int b = a; b > 0 && sorted[b - 1]->pc > sorted[b]->pc; b--) {
            const struct row *x = sorted[b];
            sorted[b] = sorted[b - 1], sorted[b - 1] = x;
        }
    if (i >= n) fail_msg("%s has only %d accesses of op %d", name, n, op);
    return sorted[i];
}
#define LD(c, name, i) nth(c, name, MW_OP_LD_GLOBAL, i)
#define ST(c, name, i) nth(c, name, MW_OP_ST_GLOBAL, i)

static void sizes(const struct row *r, uint64_t r32, uint64_t r64, uint64_t r128)
{
    assert_int_equal(r->r32, r32);
    assert_int_equal(r->r64, r64);
    assert_int_equal(r->r128, r128);
}

/* HOTSPOT tiny: a 64 x 64 grid (rows 256 B = two lines), pyramid height 2: 6 x 6 CTAs of 16 x 16, the tile of CTA
 * (bx, by) at columns 12 bx - 2 .. 12 bx + 13 and rows 12 by - 2 .. 12 by + 13, loads only inside the grid. A warp
 * is two rows (256 B apart: separate requests); a row's columns, as bytes within its line:
 * bx 0: columns 0-13, bytes 0-55 (sectors 0-1): 64 B;    bx 1: 10-25, bytes 40-103 (1-3): 128 B;
 * bx 2: 22-37: bytes 88-127 of the first line (2-3): 64 B, and 0-23 of the second (0): 32 B;
 * bx 3: 34-49, bytes 8-71 of the second line (0-2): 128 B;  bx 4: 46-61, bytes 56-119 (1-3): 128 B;
 * bx 5: 58-63, bytes 104-127 (3): 32 B.
 * Valid rows per column of CTAs: 14 (by 0: rows 0-13) + 4 x 16 + 6 (by 5: rows 58-63) = 84. So per load:
 * 32 B: 2 x 84 = 168, 64 B: 2 x 84 = 168, 128 B: 3 x 84 = 252. Warps with no row inside the grid issue nothing:
 * 36 x 8 warps less 6 (by 0, warp 0: rows -2, -1) and 6 x 5 (by 5, warps 3-7) = 252 warp instructions. */
static void test_hotspot(void **state)
{
    (void)state;
    struct coal c;
    coal_init(&c, -1);
    assert_int_equal(walk("rodinia.hotspot", "tiny", 1, NULL, 0, coal_cb, &c), 1);
    for (int i = 0; i < 2; i++) { /* temp_src[index], power[index] */
        const struct row *r = LD(&c, "calculate_temp", i);
        assert_int_equal(r->insts, 252);
        sizes(r, 168, 168, 252);
    }
}

/* BACKPROP tiny: in = 256, 16 CTAs of 16 x 16. bpnn_layerforward_CUDA's input_hidden_cuda[index], index =
 * 272 by + 17 ty + tx + 18 floats: warp w (ty = 2w, 2w + 1) reads floats s .. s + 15 and s + 17 .. s + 32,
 * s = 272 by + 34 w + 18: 33 floats, always two lines. With o = s mod 32 = (16 by + 2 w + 18) mod 32, the first
 * line holds floats o .. 31 and the second 0 .. o: o in 0-7 gives 128 + 32 B, 8-15 128 + 64, 16-23 64 + 128,
 * 24-31 32 + 128. by even: o = 18, 20, 22 (w 0-2: 64 + 128), 24 .. 30 (w 3-6), 0 (w 7): 5 x 32, 3 x 64, 8 x 128;
 * by odd: o = 2, 4, 6 (128 + 32), 8 .. 14 (128 + 64), 16 (w 7: 64 + 128): 3 x 32, 5 x 64, 8 x 128. 8 CTAs of each:
 * 64 / 64 / 128. input_cuda[16 by + ty + 1] by lanes 0 and 16 (tx == 0): floats 16 by + 2w + 1 and + 2; by even:
 * one sector but w = 3 (floats 7, 8: sectors 0-1, 64 B) and w = 7 (15, 16: sectors 1-2, 128 B); by odd: floats
 * 17 + 2w, 18 + 2w: w = 3 (23, 24: sectors 2-3, 64 B), w = 7 (31, 32: two lines, 2 x 32 B), else 32 B. In all:
 * 32 B 8 x 6 + 8 x 8 = 112, 64 B 16, 128 B 8. */
static void test_backprop(void **state)
{
    (void)state;
    struct coal c;
    coal_init(&c, -1);
    assert_int_equal(walk("rodinia.backprop", "tiny", 1, NULL, 0, coal_cb, &c), 2);
    const struct row *in = LD(&c, "bpnn_layerforward_CUDA", 0), *w = LD(&c, "bpnn_layerforward_CUDA", 1);
    assert_int_equal(in->insts, 16 * 8);
    sizes(in, 112, 16, 8);
    assert_int_equal(w->insts, 16 * 8);
    sizes(w, 64, 64, 128);
    sizes(ST(&c, "bpnn_layerforward_CUDA", 0), 64, 64, 128); /* the same rows stored */
    /* bpnn_adjust_weights_cuda's delta[tx + 1]: 16 words from byte 4 (sectors 0-2), both half-warps: 128 B */
    sizes(LD(&c, "bpnn_adjust_weights_cuda", 0), 0, 0, 16 * 8);
}

/* GAUSSIAN small: Size = 64 (rows 256 B), the first Fan2 (t = 0): 16 x 16 CTAs of 4 x 4 threads, x = 4 bx + tx
 * along the rows (x < 63: bx 15 has 3 rows), y = 4 by + ty along the columns. m[64 (x + 1)] is one word per row:
 * 16 x (15 x 4 + 3) = 1008 requests of 32 B; the pivot row a[y .. y + 3] is 16 B at byte 16 by: one 32 B request
 * per CTA (256); a[x + 1][y .. y + 3] is 16 B in each of the CTA's rows: 1008 x 32 B, and the same stored. */
static void test_gaussian(void **state)
{
    (void)state;
    struct coal c;
    coal_init(&c, 1);
    walk("rodinia.gaussian", "small", 1, NULL, 0, coal_cb, &c);
    sizes(LD(&c, "Fan2", 0), 1008, 0, 0);
    sizes(LD(&c, "Fan2", 1), 256, 0, 0);
    sizes(LD(&c, "Fan2", 2), 1008, 0, 0);
    sizes(ST(&c, "Fan2", 0), 1008, 0, 0);
    assert_int_equal(LD(&c, "Fan2", 2)->insts, 256);
}

/* LUD tiny: dim = 64; every global access is a row of 16 words at a column that is a multiple of 16 (64 B
 * aligned): one 64 B request per 16 lanes. Load lanes (test_wl_rodinia-a.c): lud_diagonal 4 x 256, lud_perimeter
 * 6 x (2 x 8 x 16 + 2 x 16 x 16), lud_internal 14 x 3 x 256: 16,384 lanes, 1,024 requests, all 64 B. */
static void test_lud(void **state)
{
    (void)state;
    struct coal c;
    coal_init(&c, -1);
    assert_int_equal(walk("rodinia.lud", "tiny", 1, NULL, 0, coal_cb, &c), 10);
    uint64_t r32 = 0, r64 = 0, r128 = 0;
    for (int i = 0; i < c.n; i++)
        if (c.r[i].op == MW_OP_LD_GLOBAL) r32 += c.r[i].r32, r64 += c.r[i].r64, r128 += c.r[i].r128;
    assert_int_equal(r64, 1024);
    assert_int_equal(r32 + r128, 0);
    sizes(LD(&c, "lud_internal", 2), 0, 14 * 8 * 2, 0); /* m[...] -= sum: two 64 B rows per warp */
}

/* NW tiny: dim = 64, cols = 65 (rows 260 B). The west column matrix_cuda[index_w + cols * tx]: 16 lanes, each in
 * its own row and line: 16 requests of 32 B per CTA; needle_cuda_shared_1 runs 1 + 2 + 3 + 4 = 10 CTAs (its third
 * load in program order: corner, reference rows, west, north), needle_cuda_shared_2 3 + 2 + 1 = 6 (reference rows,
 * corner, west, north). The corner, one lane: one 32 B request per CTA. */
static void test_nw(void **state)
{
    (void)state;
    struct coal c;
    coal_init(&c, -1);
    assert_int_equal(walk("rodinia.nw", "tiny", 1, NULL, 0, coal_cb, &c), 7);
    sizes(LD(&c, "needle_cuda_shared_1", 2), 10 * 16, 0, 0);
    sizes(LD(&c, "needle_cuda_shared_2", 2), 6 * 16, 0, 0);
    sizes(LD(&c, "needle_cuda_shared_1", 0), 10, 0, 0);
    sizes(LD(&c, "needle_cuda_shared_2", 1), 6, 0, 0);
}

/* PARTICLEFILTER tiny: 320 particles (10 full warps of one 512-thread CTA), one frame, countOnes = 69 (the disk
 * of radius 5: 9 + 2 x 9 + 2 x 9 + 2 x 7 + 2 x 5 points). ind[i * 69 + y] is stored and later loaded by every
 * particle for every y, lanes 276 B apart: each lane its own line, 32 requests of 32 B per warp instruction,
 * 10 x 69 x 32 = 22,080 each. find_index_kernel's CDF[x] is one 8 B word for every active lane: one 32 B request
 * per warp instruction. */
static void test_particlefilter(void **state)
{
    (void)state;
    struct coal c;
    coal_init(&c, -1);
    assert_int_equal(walk("rodinia.particlefilter", "tiny", 1, NULL, 0, coal_cb, &c), 4);
    const struct row *st = NULL, *ld = NULL, *cdf = NULL;
    for (int i = 0; i < c.n; i++) { /* the ind accesses: the ones with 69 per warp */
        const struct row *r = &c.r[i];
        if (strcmp(r->name, "likelihood_kernel") == 0 && r->insts == 10 * 69 && r->r32 == 10 * 69 * 32) {
            if (r->op == MW_OP_ST_GLOBAL) st = r;
            else ld = r;
        }
    }
    assert_non_null(st);
    assert_non_null(ld);
    sizes(st, 22080, 0, 0);
    sizes(ld, 22080, 0, 0);
    cdf = LD(&c, "find_index_kernel", 1); /* u[i], then the CDF scan */
    assert_true(cdf->insts > 10);
    sizes(cdf, cdf->insts, 0, 0);
    sizes(LD(&c, "find_index_kernel", 0), 0, 0, 2 * 10); /* u[i]: 8 B consecutive, 256 B per warp */
}

/* STREAMCLUSTER tiny: 1,024 points of 8 dimensions, 3 launches of 2 CTAs of 512 (96 warp instructions per
 * access). Per dimension coord_d[i * 1024 + tid] (32 consecutive words, 128 B aligned: one 128 B request) and
 * coord_d[i * 1024 + x] (one word: 32 B): 8 x 96 = 768 of each; p[tid].weight and p[tid].cost, 4 B fields of
 * 32 B Points: each line holds 4 lanes' fields at bytes 0, 32, 64, 96 (24, 56, 88, 120): eight 128 B requests per
 * warp, 768. */
static void test_streamcluster(void **state)
{
    (void)state;
    struct coal c;
    coal_init(&c, -1);
    assert_int_equal(walk("rodinia.streamcluster", "tiny", 1, NULL, 0, coal_cb, &c), 3);
    sizes(LD(&c, "kernel_compute_cost", 0), 0, 0, 768);
    sizes(LD(&c, "kernel_compute_cost", 1), 768, 0, 0);
    sizes(LD(&c, "kernel_compute_cost", 2), 0, 0, 768);
    sizes(LD(&c, "kernel_compute_cost", 3), 0, 0, 768);
}

/* GRAPH COLOURING tiny: 256 vertices, one CTA of 256 threads per round: vplist[tid] is 32 consecutive words per
 * warp, one 128 B request, 8 per round. */
static void test_graph_gc(void **state)
{
    (void)state;
    struct coal c;
    coal_init(&c, -1);
    int nk = walk("graph.gc", "tiny", 1, NULL, 0, coal_cb, &c);
    assert_true(nk >= 2); /* initialize, then the rounds */
    const struct row *r = LD(&c, "kernel", 0);
    assert_int_equal(r->insts, 8 * (uint64_t)(nk - 1));
    sizes(r, 0, 0, r->insts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hotspot),       cmocka_unit_test(test_backprop), cmocka_unit_test(test_gaussian),
        cmocka_unit_test(test_lud),           cmocka_unit_test(test_nw),       cmocka_unit_test(test_particlefilter),
        cmocka_unit_test(test_streamcluster), cmocka_unit_test(test_graph_gc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
