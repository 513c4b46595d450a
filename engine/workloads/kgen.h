/* Building blocks for built-in kernel models: a kernel is a prologue, a loop body run `iters` times and an
 * epilogue of instruction templates, laid out in that order from PC 0 with the loop branch after the body; each
 * memory template computes one thread's address from the thread's CUDA indices and the loop counter, exactly as
 * the CUDA source's index expression. Kernels whose addresses depend on data (BFS, SpMV, graphs) supply their own
 * per-warp generator instead. */
#ifndef MW_KGEN_H
#define MW_KGEN_H

#include "workload.h"

/* One thread's CUDA built-ins. */
struct mw_tctx {
    uint32_t tid[3], ctaid[3], ntid[3], nctaid[3];
    uint32_t lane, warp;  /* warp within the CTA */
    uint64_t gtid;        /* ctaid.x * ntid.x + tid.x (the usual 1-D global index) */
};

typedef uint64_t (*mw_addr_fn)(const struct mw_tctx *t, int64_t it, const void *data);
typedef bool (*mw_pred_fn)(const struct mw_tctx *t, int64_t it, const void *data);

struct mw_tinst {
    uint8_t op;           /* enum mw_op */
    uint8_t width;        /* bytes per lane (memory) */
    uint8_t ndst, nsrc;
    uint16_t dst[2], src[4];
    mw_addr_fn addr;      /* memory ops */
    mw_pred_fn active;    /* NULL = every thread that passes the kernel guard */
};

/* Tests set this to make kgen call every address function per lane (the reference for lane_affine). */
extern bool mw_kgen_per_lane;

/* Shorthands for template tables. */
#define MW_T_ALU(d, s1, s2) {MW_OP_ALU, 0, 1, 2, {d}, {s1, s2}, NULL, NULL}
#define MW_T_SFU(d, s1) {MW_OP_SFU, 0, 1, 1, {d}, {s1}, NULL, NULL}
#define MW_T_LD(d, a, fn) {MW_OP_LD_GLOBAL, 4, 1, 1, {d}, {a}, fn, NULL}
#define MW_T_ST(v, a, fn) {MW_OP_ST_GLOBAL, 4, 0, 2, {0}, {a, v}, fn, NULL}
#define MW_T_BAR {MW_OP_BARRIER, 0, 0, 0, {0}, {0}, NULL, NULL}

struct mw_kgen_warp; /* generator state of one warp */

struct mw_kgen_kernel {
    struct mw_kernel k;                  /* name, grid, block, nregs, shmem */
    const struct mw_tinst *pro, *body, *epi;
    int npro, nbody, nepi;
    int64_t iters;                       /* body trip count, unless iters_fn */
    int64_t (*iters_fn)(const struct mw_tctx *t, const void *data); /* per warp, from its first thread */
    mw_pred_fn guard;                    /* thread runs at all (if (i < N) ...); NULL = all threads */
    const void *data;
    /* Data-dependent kernels: a generator replacing the templates. `scratch` is per warp, zeroed at CTA
     * start, `scratch_bytes` long. Return 1 = instruction filled, 0 = warp done, <0 = error. */
    int (*custom)(const struct mw_kgen_kernel *k, const struct mw_tctx *lane0, uint32_t mask, void *scratch,
                  struct mw_inst *out, struct mw_err *e);
    size_t scratch_bytes;
    /* The kernel's code size in static instructions: its PCs are below ninsts * MW_WL_INST_BYTES and its EXIT is
     * at ninsts * MW_WL_INST_BYTES. kgen lays out a template kernel itself (prologue from 0, the body, the loop
     * branch, the epilogue, the EXIT) and sets ninsts; a custom generator declares it and numbers its sites
     * densely from 0 in the compiled code's order. An instruction at or past the EXIT (a custom kernel that did
     * not declare its size) is an error. */
    uint32_t ninsts;
    /* true: every template's address function (for a kloop program, every op's) is affine in the lane, that is
     * a sum of terms each of which is a warp-uniform value (grid and block sizes, ctaid, tid.y, tid.z, the loop
     * counters, launch data) or such a value times one of tid.x, lane, gtid, in wrapping 64-bit arithmetic (no
     * division, modulo, comparison, narrowing cast or array lookup on those three). In a warp whose 32 threads
     * lie in one row of the block (mw_kgen_warp_in_row), kgen and kloop then compute the lanes' addresses as
     * a0 + l * (a1 - a0) from lanes 0 and 1 instead of calling the function per lane: the same addresses
     * (tests/test_kgen_affine.c checks every kernel that declares it against the per-lane calls). */
    bool lane_affine;
};

/* A launch sequence of kernels (the workload's kernel list; a kernel may appear several times). */
struct mw_kgen_program {
    struct mw_kgen_kernel *kernels;
    int nkernels;
    void *owned;                         /* freed with the workload (inputs, graphs) */
    void (*free_owned)(void *);
};

/* Wrap a program as a workload (takes ownership of p's arrays, which must be malloc'ed). */
int mw_kgen_workload(struct mw_workload *w, const char *name, struct mw_kgen_program *p, struct mw_err *e);

/* The named sizes of the benchmark models: NULL or "" means default. */
enum mw_kgen_size { MW_SIZE_TINY, MW_SIZE_SMALL, MW_SIZE_DEFAULT, MW_SIZE_PAPER };
/* Parse `size` (tiny|small|default|paper): the enum value, or <0 with e filled. */
int mw_kgen_size(const char *size, struct mw_err *e);

/* Append one zeroed kernel launch to p (p->kernels grows, malloc'ed); NULL when out of memory. */
struct mw_kgen_kernel *mw_kgen_append(struct mw_kgen_program *p);

/* Fill the CUDA indices of thread `lane` of warp `warp` of CTA `cta` (linear id). */
void mw_kgen_thread(const struct mw_kernel *k, uint32_t cta, uint32_t warp, uint32_t lane, struct mw_tctx *t);

/* Whether warp `warp`'s 32 threads lie in one row of a block `bx` threads wide (tid.x, gtid and lane then run up by
 * one across the lanes, tid.y and tid.z are the same): where lane_affine applies. */
static inline bool mw_kgen_warp_in_row(uint32_t warp, uint32_t bx)
{
    return bx && (uint64_t)warp * MW_WARP_SIZE % bx + MW_WARP_SIZE - 1 < bx;
}

/* The lane addresses of an access affine in the lane: a + l * s for the lanes in mask, 0 for the others. */
static inline void mw_kgen_fill_affine(uint64_t *addr, uint32_t mask, uint64_t a, uint64_t s)
{
    if (mask == 0xffffffffu) { /* two lanes at a time */
        typedef uint64_t v2 __attribute__((vector_size(16)));
        v2 x = {a, a + s}, d = {2 * s, 2 * s};
        for (int l = 0; l < MW_WARP_SIZE; l += 2, x += d) memcpy(&addr[l], &x, sizeof x);
        return;
    }
    for (int l = 0; l < MW_WARP_SIZE; l++, a += s) addr[l] = (mask >> l & 1u) ? a : 0;
}

#endif
