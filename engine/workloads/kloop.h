/* Structured kernel programs for the built-in models whose CUDA source has several loops, nested loops or
 * if/else regions (NW, LUD, the SRAD reduction): a flat list of instruction templates with LOOP/IF ... END
 * brackets, run per warp on kgen's custom hook. Each memory template computes one thread's address from the
 * thread's CUDA indices and the counters of the enclosing loops, as the CUDA index expression does. */
#ifndef MW_KLOOP_H
#define MW_KLOOP_H

#include "kgen.h"

#define MW_KL_MAXDEPTH 8

/* lc[0] is the outermost enclosing loop's counter (0, 1, ...), lc[d] the loop nested d deep. */
typedef uint64_t (*mw_kl_addr_fn)(const struct mw_tctx *t, const int64_t *lc, const void *d);
typedef bool (*mw_kl_pred_fn)(const struct mw_tctx *t, const int64_t *lc, const void *d);
typedef int64_t (*mw_kl_trips_fn)(const struct mw_tctx *t, const int64_t *lc, const void *d);

enum mw_kl_kind {
    MW_KL_INST, /* one warp instruction for the lanes of the region that pass pred */
    MW_KL_LOOP, /* counted loop over the lanes passing pred: trips(first such lane) or n iterations; the
                 * warp-uniform trip count is a simplification (no per-lane trip counts) */
    MW_KL_IF,   /* region for the lanes passing pred: one branch instruction, then the body (skipped if empty) */
    MW_KL_END,  /* closes the innermost LOOP (back-edge branch per iteration) or IF (reconvergence) */
};

struct mw_kl_op {
    uint8_t kind, op, width, ndst, nsrc; /* op/width/ndst/nsrc/dst/src as in struct mw_inst */
    uint16_t dst[2], src[4];
    mw_kl_addr_fn addr;                  /* memory instructions */
    mw_kl_pred_fn pred;                  /* NULL = every lane of the enclosing region */
    mw_kl_trips_fn trips;                /* LOOP: trip count; NULL = n */
    int32_t n;
};

/* A launch's data (what the callbacks receive as d) starts with this header naming its program. */
struct mw_kl_hdr {
    const struct mw_kl_op *ops;
    int nops;
};

/* Make k run the program of `data` (k->custom, k->data, k->scratch_bytes, k->ninsts). An op's PC is its index
 * times 16 (a LOOP op emits nothing: its END is the loop's branch), the EXIT after the last op. */
void mw_kloop_kernel(struct mw_kgen_kernel *k, const struct mw_kl_hdr *data);

/* Callback definitions: `expr` sees t (the thread), lc (loop counters) and P (the launch data, type T). */
#define MW_KL_FN(ret, name, T, expr)                                                                          \
    static ret name(const struct mw_tctx *t, const int64_t *lc, const void *d)                               \
    {                                                                                                        \
        const T *P = d;                                                                                      \
        (void)t, (void)lc, (void)P;                                                                          \
        return (expr);                                                                                       \
    }
#define MW_KL_ADDR(name, T, expr) MW_KL_FN(uint64_t, name, T, expr)
#define MW_KL_PRED(name, T, expr) MW_KL_FN(bool, name, T, expr)
#define MW_KL_TRIPS(name, T, expr) MW_KL_FN(int64_t, name, T, expr)

#define MW_KL_I(o, w, nd, ns, d0, s0, s1, fn, p) {MW_KL_INST, o, w, nd, ns, {d0}, {s0, s1}, fn, p, NULL, 0}
#define KL_ALU(d, s1, s2) MW_KL_I(MW_OP_ALU, 0, 1, 2, d, s1, s2, NULL, NULL)
#define KL_ALUP(d, s1, s2, p) MW_KL_I(MW_OP_ALU, 0, 1, 2, d, s1, s2, NULL, p)
#define KL_DP(d, s1, s2) MW_KL_I(MW_OP_DP, 0, 1, 2, d, s1, s2, NULL, NULL)
#define KL_SFU(d, s1) MW_KL_I(MW_OP_SFU, 0, 1, 1, d, s1, 0, NULL, NULL)
#define KL_SFUP(d, s1, p) MW_KL_I(MW_OP_SFU, 0, 1, 1, d, s1, 0, NULL, p)
#define KL_LDG(d, a, fn, p) MW_KL_I(MW_OP_LD_GLOBAL, 4, 1, 1, d, a, 0, fn, p)
#define KL_STG(v, a, fn, p) MW_KL_I(MW_OP_ST_GLOBAL, 4, 0, 2, 0, a, v, fn, p)
#define KL_LDS(d, a, fn, p) MW_KL_I(MW_OP_LD_SHARED, 4, 1, 1, d, a, 0, fn, p)
#define KL_STS(v, a, fn, p) MW_KL_I(MW_OP_ST_SHARED, 4, 0, 2, 0, a, v, fn, p)
#define KL_BAR MW_KL_I(MW_OP_BARRIER, 0, 0, 0, 0, 0, 0, NULL, NULL)
#define KL_LOOP(trips, p, s) {MW_KL_LOOP, MW_OP_BRANCH, 0, 0, 1, {0}, {s}, NULL, p, trips, 0}
#define KL_LOOPN(n, s) {MW_KL_LOOP, MW_OP_BRANCH, 0, 0, 1, {0}, {s}, NULL, NULL, NULL, n}
#define KL_IF(p, s) {MW_KL_IF, MW_OP_BRANCH, 0, 0, 1, {0}, {s}, NULL, p, NULL, 0}
#define KL_END {MW_KL_END, MW_OP_BRANCH, 0, 0, 0, {0}, {0}, NULL, NULL, NULL, 0}

#endif
