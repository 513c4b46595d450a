/* Lane-affine address generation in kgen (kgen.h, mw_kgen_kernel.lane_affine): a kernel that declares its address
 * functions affine in the lane gets each warp's addresses from lanes 0 and 1 when the warp's threads lie in one
 * row of the block, and from per-lane calls otherwise. Checked on hand-built kernels whose addresses are worked
 * out below, and on every built-in workload against the per-lane reference (mw_kgen_per_lane). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "kgen.h"
#include "workload.h"
#include "workloads.h"
#include "wlwalk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool g_lt40(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it, (void)d;
    return t->gtid < 40;
}
/* 1-D: 0x1000 + 8 * gtid + 0x100 * it */
static uint64_t a_1d(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)d;
    return 0x1000 + 8 * t->gtid + 0x100 * (uint64_t)it;
}
/* 2-D: 0x1000 * tid.y + 4 * tid.x */
static uint64_t a_2d(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it, (void)d;
    return 0x1000 * (uint64_t)t->tid[1] + 4 * (uint64_t)t->tid[0];
}

static const struct mw_tinst body_1d[] = {MW_T_LD(2, 1, a_1d)};
static const struct mw_tinst body_2d[] = {MW_T_LD(2, 1, a_2d)};

static void add(struct mw_kgen_program *p, uint32_t bx, uint32_t by, const struct mw_tinst *body, mw_pred_fn guard)
{
    struct mw_kgen_kernel *k = mw_kgen_append(p);
    assert_non_null(k);
    snprintf(k->k.name, sizeof k->k.name, "k%u", p->nkernels);
    k->k.grid[0] = k->k.grid[1] = k->k.grid[2] = 1;
    k->k.block[0] = bx, k->k.block[1] = by, k->k.block[2] = 1;
    k->k.nregs = 4;
    k->body = body, k->nbody = 1, k->iters = 2;
    k->guard = guard;
    k->lane_affine = true;
}

/* The loads of warp `wi` of the kernel's only CTA, in order (at most 2 here: one per iteration). */
static int loads(struct mw_workload *w, uint32_t wi, struct mw_inst *out)
{
    struct mw_err e = {0};
    void *st = NULL;
    assert_int_equal(w->ops->cta_open(w, 0, &st, &e), 0);
    struct mw_inst in;
    int n = 0, rc;
    while ((rc = w->ops->warp_next(w, st, wi, &in, &e)) == 1 && in.op != MW_OP_EXIT)
        if (in.op == MW_OP_LD_GLOBAL) {
            assert_true(n < 2);
            out[n++] = in;
        }
    assert_true(rc >= 0);
    w->ops->cta_close(w, st);
    return n;
}

static void test_hand_built(void **state)
{
    (void)state;
    struct mw_kgen_program p = {0};
    add(&p, 64, 1, body_1d, g_lt40); /* warp 1: threads 32..63, one row; gtid < 40 leaves lanes 0..7 */
    add(&p, 48, 1, body_1d, g_lt40); /* warp 1: threads 32..47 in row 0, the rest past the block (48 threads) */
    add(&p, 16, 2, body_2d, NULL);   /* warp 0: lanes 0..15 row 0, lanes 16..31 row 1: not one row */
    struct mw_workload w;
    struct mw_err e = {0};
    assert_int_equal(mw_kgen_workload(&w, "affine", &p, &e), 0);
    struct mw_kernel k;
    struct mw_inst in[2];

    /* kernel 1, block 64. Warp 0: every lane, lane l at 0x1000 + 8 l + 0x100 it (row: from lanes 0 and 1).
     * Warp 1: mask 0xff (gtid 32..39), lane l < 8 at 0x1000 + 8 (32 + l) + 0x100 it = 0x1100 + 8 l + 0x100 it,
     * the others 0. */
    assert_int_equal(w.ops->next_kernel(&w, &k, &e), 1);
    assert_int_equal(loads(&w, 0, in), 2);
    for (int it = 0; it < 2; it++) {
        assert_int_equal(in[it].mask, 0xffffffffu);
        assert_int_equal(in[it].lane_affine, 1); /* every lane, from lanes 0 and 1: marked for the coalescer */
        for (int l = 0; l < 32; l++) assert_int_equal(in[it].addr[l], 0x1000 + 8 * l + 0x100 * it);
    }
    assert_int_equal(loads(&w, 1, in), 2);
    for (int it = 0; it < 2; it++) {
        assert_int_equal(in[it].mask, 0xffu);
        assert_int_equal(in[it].lane_affine, 0); /* not every lane */
        for (int l = 0; l < 32; l++) assert_int_equal(in[it].addr[l], l < 8 ? 0x1100 + 8 * l + 0x100 * it : 0);
    }

    /* kernel 2, block 48: warp 1's lanes 16..31 would be threads 48..63 (tid.x 0..15 of a second row, past the
     * block), so the warp is not one row; lanes 0..7 (gtid 32..39) as above, mask 0xff. */
    assert_int_equal(w.ops->next_kernel(&w, &k, &e), 1);
    assert_int_equal(loads(&w, 1, in), 2);
    for (int it = 0; it < 2; it++) {
        assert_int_equal(in[it].mask, 0xffu);
        for (int l = 0; l < 32; l++) assert_int_equal(in[it].addr[l], l < 8 ? 0x1100 + 8 * l + 0x100 * it : 0);
    }

    /* kernel 3, block 16 x 2: lane l < 16 at 4 l, lane l >= 16 (tid.y 1, tid.x l - 16) at 0x1000 + 4 (l - 16);
     * lanes 0 and 1 alone would give 4 l for every lane. */
    assert_int_equal(w.ops->next_kernel(&w, &k, &e), 1);
    assert_int_equal(loads(&w, 0, in), 2);
    for (int it = 0; it < 2; it++) {
        assert_int_equal(in[it].mask, 0xffffffffu);
        assert_int_equal(in[it].lane_affine, 0); /* per lane */
        for (int l = 0; l < 32; l++) assert_int_equal(in[it].addr[l], l < 16 ? 4 * l : 0x1000 + 4 * (l - 16));
    }
    assert_int_equal(w.ops->next_kernel(&w, &k, &e), 0);
    mw_workload_close(&w);
}

/* FNV-1a over every field of every instruction of a workload (all kernels, CTAs, warps), and the count. */
struct digest {
    uint64_t h, n, mem, affine; /* affine: instructions marked lane_affine */
};
static void mix(struct digest *d, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) d->h = (d->h ^ b[i]) * 0x100000001b3ull;
}
static void digest_inst(void *arg, const struct mw_kernel *k, const struct mw_inst *in)
{
    (void)k;
    struct digest *d = arg;
    mix(d, &in->pc, sizeof in->pc);
    mix(d, &in->mask, sizeof in->mask);
    mix(d, &in->op, 5); /* op, width, flags, ndst, nsrc */
    mix(d, in->dst, sizeof in->dst[0] * in->ndst);
    mix(d, in->src, sizeof in->src[0] * in->nsrc);
    if (in->lane_affine) { /* the promise the coalescer relies on */
        assert_int_equal(in->mask, 0xffffffffu);
        for (int l = 0; l < MW_WARP_SIZE; l++)
            assert_int_equal(in->addr[l], in->addr[0] + (uint64_t)l * (in->addr[1] - in->addr[0]));
        d->affine++;
    }
    if (mw_op_is_global_mem(in->op)) {
        for (int l = 0; l < MW_WARP_SIZE; l++)
            if (in->mask >> l & 1u) mix(d, &in->addr[l], sizeof in->addr[l]);
        d->mem++;
    }
    d->n++;
}
static struct digest walk_all(const char *name, const char *size)
{
    struct digest d = {0xcbf29ce484222325ull, 0, 0, 0};
    walk(name, size, 1, NULL, 0, digest_inst, &d);
    return d;
}

/* Every built-in workload at its smallest size gives the same instructions with and without the lane-affine
 * path (only kernels that declare lane_affine differ in how their addresses are computed). */
static void test_builtins_match_per_lane(void **state)
{
    (void)state;
    int checked = 0, bad = 0;
    for (int i = 0; i < mw_builtin_nworkloads; i++) {
        const struct mw_builtin_desc *b = &mw_builtin_workloads[i];
        const char *size = strstr(b->sizes, "tiny") ? "tiny" : strstr(b->sizes, "small") ? "small" : NULL;
        mw_kgen_per_lane = false;
        struct digest fast = walk_all(b->name, size);
        mw_kgen_per_lane = true;
        struct digest ref = walk_all(b->name, size);
        mw_kgen_per_lane = false;
        if (fast.h != ref.h || fast.n != ref.n) {
            print_message("%s: instructions differ from the per-lane reference\n", b->name);
            bad++;
        }
        checked += fast.mem > 0;
    }
    assert_int_equal(bad, 0);
    assert_true(checked >= 20);
}

/* The models that declare lane_affine (PolyBench; Rodinia Gaussian, LUD, k-means and NN; the SDK transpose,
 * vectorAdd, scalarProd, BlackScholes and reduction; Parboil LBM; CFD's kernels but the flux one) at the small
 * size too: more CTAs, other edges. */
static void test_declared_small(void **state)
{
    (void)state;
    static const char *const names[] = {"polybench.atax", "polybench.gemm", "polybench.syr2k", "polybench.2dconv",
                                        "polybench.3dconv", "polybench.fdtd2d", "rodinia.gaussian", "rodinia.lud",
                                        "sdk.transpose",    "rodinia.kmeans",   "rodinia.nn",       "sdk.vectoradd",
                                        "sdk.scalarprod",   "sdk.blackscholes", "sdk.reduction",    "parboil.lbm",
                                        "rodinia.cfd"};
    int marked = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        mw_kgen_per_lane = false;
        struct digest fast = walk_all(names[i], "small");
        mw_kgen_per_lane = true;
        struct digest ref = walk_all(names[i], "small");
        mw_kgen_per_lane = false;
        assert_true(fast.mem > 0);
        assert_int_equal(ref.affine, 0); /* per lane: never marked */
        marked += fast.affine > 0;
        if (fast.h != ref.h || fast.n != ref.n)
            fail_msg("%s: instructions differ from the per-lane reference", names[i]);
    }
    assert_true(marked >= 15); /* full warps marked for the coalescer (LUD and Gaussian may have none) */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_built),
        cmocka_unit_test(test_builtins_match_per_lane),
        cmocka_unit_test(test_declared_small),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
