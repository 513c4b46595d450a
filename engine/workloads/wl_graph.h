/* Shared by the GraphBig-style graph kernel models (engine/workloads/wl_graph_*.c): the seeded R-MAT input, the named
 * sizes, device-array placement, and small helpers that write one warp instruction. Each kernel generator is
 * written as a resumable function (CO_BEGIN / CO_YIELD / CO_END) whose locals live in the warp's scratch, so the
 * SIMT loops of the CUDA source read as loops. */
#ifndef MW_WL_GRAPH_H
#define MW_WL_GRAPH_H

#include "kgen.h"
#include "workloads.h"

#include <stddef.h>
#include <string.h>

#define GR_MAX_THREADS 1024 /* devProp.maxThreadsPerBlock on the GTX480: the block size GraphBig picks */
#define GR_INF 0xffffff00u  /* MY_INFINITY of cudaGraph.h */

/* mw_wl_graph_input with the default size's graph shrunk 2^default_shift times (same mean degree), for kernels
 * whose work per vertex is much larger than the others'. */
int gr_input(const char *size, uint64_t seed, unsigned default_shift, struct mw_graph *g, struct mw_err *e);
/* An R-MAT graph of n[size] vertices and m[size] stored edges (sizes indexed by enum mw_kgen_size). */
int gr_input_sized(const char *size, uint64_t seed, const uint32_t n[4], const uint32_t m[4], struct mw_graph *g,
                   struct mw_err *e);

/* The graph.* models' sizes: enum mw_kgen_size's four, then `ldbc` (engine/workloads/wl_graph_ldbc.c): GraphBig's
 * LDBC social graph, 1 M vertices, LDBC's Facebook degree distribution at a mean of 28.82 stored edges per vertex. */
#define GR_SIZE_LDBC 4
#define GR_LDBC_VERTICES 1000000u
#define GR_LDBC_MEAN 28.82
/* The size index of `size` (GR_SIZE_LDBC for "ldbc"), or an error for an unknown name. */
int gr_size(const char *size, struct mw_err *e);
/* The graph of `size`: the LDBC graph for "ldbc", else gr_input_sized's R-MAT graph of n[size], m[size]. */
int gr_input_graph(const char *size, uint64_t seed, const uint32_t n[4], const uint32_t m[4], struct mw_graph *g,
                   struct mw_err *e);
/* One degree from LDBC's Facebook distribution scaled to `mean` (a percentile bucket, then uniform within it). */
uint32_t gr_ldbc_degree(uint64_t *s, double mean);
/* n vertices with degrees from gr_ldbc_degree(mean), stubs paired at random, self-loops and repeated pairs
 * dropped; CSR with both directions of each edge. Seeded, deterministic. -1 on bad arguments or no memory. */
int mw_wl_graph_ldbc(uint32_t n, double mean, uint64_t seed, struct mw_graph *g);

/* BFS levels from r into lv (-1: unreachable), with q a queue of g->n vertices; returns the deepest level. */
int32_t gr_levels(const struct mw_graph *g, uint32_t r, int32_t *lv, uint32_t *q);

/* The source vertex of SSSP: GraphBig's run uses --root 31; the first vertex from 31 on with an edge. */
uint32_t gr_root(const struct mw_graph *g);

/* GraphBig's launch shape: min(n, 1024) threads per block, ceil(n / threads) blocks. */
void gr_shape(struct mw_kernel *k, const char *name, uint64_t nthreads, uint32_t nregs);

/* Device memory in cudaMalloc order, 256-byte aligned, from 0x10000000. */
static inline uint64_t gr_alloc(uint64_t *top, uint64_t bytes)
{
    uint64_t a = *top;
    *top += (bytes + 255) & ~255ull;
    return a;
}

/* Resumable generator: `line` in the warp state records where to continue. Every CO_YIELD takes its own
 * __COUNTER__ value, so one macro below may yield several times. */
#define CO_BEGIN(w) switch ((w)->line) { case 0:
#define CO_YIELD_AT(w, n) do { (w)->line = (n); return 1; case (n):; } while (0)
#define CO_YIELD(w) CO_YIELD_AT(w, __COUNTER__ + 1)
#define CO_END(w) ; } (w)->line = -1; return 0 /* the ; lets a label stand right before it */

#define FOR_LANES(m, l)                                                                                      \
    for (int l = 0; l < MW_WARP_SIZE; l++)                                                                   \
        if ((m) >> l & 1u)

static inline void gi_head(struct mw_inst *o, uint64_t pc, uint8_t op, uint32_t mask)
{
    memset(o, 0, offsetof(struct mw_inst, addr));
    o->pc = pc, o->op = op, o->mask = mask;
}
/* d = f(s1, s2) */
static inline void gi_alu(struct mw_inst *o, uint64_t pc, uint32_t mask, uint16_t d, uint16_t s1, uint16_t s2)
{
    gi_head(o, pc, MW_OP_ALU, mask);
    o->ndst = 1, o->dst[0] = d, o->nsrc = 2, o->src[0] = s1, o->src[1] = s2;
}
static inline void gi_op(struct mw_inst *o, uint64_t pc, uint8_t op, uint32_t mask, uint16_t d, uint16_t s1,
                         uint16_t s2)
{
    gi_alu(o, pc, mask, d, s1, s2);
    o->op = op;
}
/* compare-and-branch on s1, s2 */
static inline void gi_br(struct mw_inst *o, uint64_t pc, uint32_t mask, uint16_t s1, uint16_t s2)
{
    gi_head(o, pc, MW_OP_BRANCH, mask);
    o->nsrc = 2, o->src[0] = s1, o->src[1] = s2;
}
/* d = [a] (the caller fills o->addr for the lanes of mask) */
static inline void gi_ld(struct mw_inst *o, uint64_t pc, uint32_t mask, uint8_t width, uint16_t d, uint16_t a)
{
    gi_head(o, pc, MW_OP_LD_GLOBAL, mask);
    o->width = width, o->ndst = 1, o->dst[0] = d, o->nsrc = 1, o->src[0] = a;
}
/* [a] = v */
static inline void gi_st(struct mw_inst *o, uint64_t pc, uint32_t mask, uint8_t width, uint16_t a, uint16_t v)
{
    gi_head(o, pc, MW_OP_ST_GLOBAL, mask);
    o->width = width, o->nsrc = 2, o->src[0] = a, o->src[1] = v;
}
/* atomic on [a] with v; d = 0 for a reduction whose result is unused (RED) */
static inline void gi_atom(struct mw_inst *o, uint64_t pc, uint32_t mask, uint16_t d, uint16_t a, uint16_t v)
{
    gi_head(o, pc, MW_OP_ATOMIC, mask);
    o->width = 4, o->nsrc = 2, o->src[0] = a, o->src[1] = v;
    if (d) o->ndst = 1, o->dst[0] = d;
}
static inline void gi_addr(struct mw_inst *o, uint32_t mask, uint64_t base, const uint64_t *idx, unsigned scale)
{
    FOR_LANES(mask, l) o->addr[l] = base + idx[l] * scale;
}
/* d = base[idx] with elements of `width` bytes */
static inline void gi_ldx(struct mw_inst *o, uint64_t pc, uint32_t mask, uint8_t width, uint16_t d, uint16_t a,
                          uint64_t base, const uint64_t *idx)
{
    gi_ld(o, pc, mask, width, d, a);
    gi_addr(o, mask, base, idx, width);
}
/* base[idx] = v with elements of `width` bytes */
static inline void gi_stx(struct mw_inst *o, uint64_t pc, uint32_t mask, uint8_t width, uint16_t a, uint16_t v,
                          uint64_t base, const uint64_t *idx)
{
    gi_st(o, pc, mask, width, a, v);
    gi_addr(o, mask, base, idx, width);
}
/* *flag = true or false: a one-byte store of every lane of mask to the same address (d_over, changed) */
static inline void gi_flag(struct mw_inst *o, uint64_t pc, uint32_t mask, uint64_t flag)
{
    gi_st(o, pc, mask, 1, 0, 0);
    FOR_LANES(mask, l) o->addr[l] = flag;
}

/* r = the lanes of mask for which cond (on lane l) holds */
#define GR_WHERE(r, mask, l, cond)                                                                           \
    do {                                                                                                     \
        (r) = 0;                                                                                             \
        FOR_LANES(mask, l) if (cond) (r) |= 1u << l;                                                         \
    } while (0)

/* Each lane's thread id: one thread per vertex. */
static inline void gr_tids(uint64_t *v, const struct mw_tctx *t0, uint32_t mask)
{
    FOR_LANES(mask, l) v[l] = t0->gtid + (uint64_t)l;
}

/* Lanes of `mask` whose bit is set in a per-vertex bitmap. */
static inline uint32_t gr_bits(const uint64_t *bm, const uint64_t *v, uint32_t mask)
{
    uint32_t r = 0;
    FOR_LANES(mask, l) if (bm[v[l] >> 6] >> (v[l] & 63) & 1u) r |= 1u << l;
    return r;
}
static inline void gr_setbit(uint64_t *bm, uint64_t v) { bm[v >> 6] |= 1ull << (v & 63); }
static inline bool gr_bit(const uint64_t *bm, uint64_t v) { return bm[v >> 6] >> (v & 63) & 1u; }

/* The per-warp state most graph kernels need: resume point, lane masks, a loop counter, per-lane values. */
struct gr_warp {
    int line;
    uint32_t a, b, c, d;
    int64_t it;
    uint64_t v[MW_WARP_SIZE], x[MW_WARP_SIZE], y[MW_WARP_SIZE], z[MW_WARP_SIZE];
};

/* The out-edge range [x, y) of each lane's vertex v. */
static inline void gr_ranges(struct gr_warp *w, const struct mw_graph *g, uint32_t mask)
{
    FOR_LANES(mask, l) w->x[l] = g->row[w->v[l]], w->y[l] = g->row[w->v[l] + 1];
}
/* Lanes of mask whose edge x + it is before y; z = that edge's index, or with col its target col[edge]. */
static inline uint32_t gr_edge_lanes(struct gr_warp *w, uint32_t mask, const uint32_t *col)
{
    uint32_t r = 0;
    FOR_LANES(mask, l) if (w->x[l] + (uint64_t)w->it < w->y[l]) {
        uint64_t i = w->x[l] + (uint64_t)w->it;
        r |= 1u << l, w->z[l] = col ? col[i] : i;
    }
    return r;
}

/* The opening of a one-thread-per-vertex kernel, pc 0x00..0x20: r1 = tid = blockIdx.x * blockDim.x +
 * threadIdx.x; if (tid >= n) return; r2 = tid's element offset. */
#define GR_PROLOGUE(w, o, mask)                                                                              \
    do {                                                                                                     \
        gi_alu(o, 0x00, mask, 1, 0, 0);                                                                      \
        CO_YIELD(w);                                                                                         \
        gi_br(o, 0x10, mask, 1, 0);                                                                          \
        CO_YIELD(w);                                                                                         \
        gi_alu(o, 0x20, mask, 2, 1, 0);                                                                      \
        CO_YIELD(w);                                                                                         \
    } while (0)

/* start = vlist[v] into register r at pc, end = vlist[v + 1] into r + 1 at pc + 0x10, both from the offset in
 * register a: the bounds of a vertex's edge walk. */
#define GR_VLIST(w, o, pc, mask, r, a, vlist)                                                                \
    do {                                                                                                     \
        gi_ldx(o, pc, mask, 8, r, a, vlist, (w)->v);                                                         \
        CO_YIELD(w);                                                                                         \
        gi_ldx(o, (pc) + 0x10, mask, 8, (r) + 1, a, (vlist) + 8, (w)->v);                                    \
        CO_YIELD(w);                                                                                         \
    } while (0)

/* After the prologue, a load of tid's flag at 0x30 and its branch at 0x40: for the lanes of mask that passed,
 * r4 = tid's offset at 0x50 and the bounds of their edge walk into r5, r6 at 0x60, 0x70 (x, y set). */
#define GR_FLAGGED_RANGE(w, o, g, mask, vlist)                                                               \
    do {                                                                                                     \
        gr_ranges(w, g, mask);                                                                               \
        gi_alu(o, 0x50, mask, 4, 1, 0);                                                                      \
        CO_YIELD(w);                                                                                         \
        GR_VLIST(w, o, 0x60, mask, 5, 4, vlist);                                                             \
    } while (0)

/* dest = elist[i] of the lanes' current edges x + it: r = &elist[i] (from the cursor in register i) at pc,
 * r + 1 = elist[i] at pc + 0x10. */
#define GR_ELIST(w, o, pc, mask, r, i, elist)                                                                \
    do {                                                                                                     \
        gi_alu(o, pc, mask, r, i, 0);                                                                        \
        CO_YIELD(w);                                                                                         \
        gi_ld(o, (pc) + 0x10, mask, 8, (r) + 1, r);                                                          \
        FOR_LANES(mask, l) o->addr[l] = (elist) + ((w)->x[l] + (uint64_t)(w)->it) * 8;                      \
        CO_YIELD(w);                                                                                         \
    } while (0)

/* An initialize kernel: if (tid < n) { arr0[tid] = ...; arr1[tid] = ...; } (up to four arrays). */
struct gr_init {
    uint64_t nthreads; /* first in every launch's data: the guard tid < nthreads reads it */
    uint32_t nst;
    uint64_t base[4];
    uint8_t width[4];
};
int gr_gen_init(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                struct mw_inst *o, struct mw_err *e);
/* Append a launch of a custom generator over nthreads threads, GraphBig's shape; `data` starts with a uint64_t
 * thread count, the guard gtid < nthreads. `ninsts` is the generator's code size (its PCs are below ninsts * 16,
 * its EXIT at ninsts * 16). NULL when out of memory. */
struct mw_kgen_kernel *gr_launch(struct mw_kgen_program *p, const char *name, uint64_t nthreads, uint32_t nregs,
                                 const void *data,
                                 int (*gen)(const struct mw_kgen_kernel *, const struct mw_tctx *, uint32_t, void *,
                                            struct mw_inst *, struct mw_err *),
                                 uint32_t ninsts, size_t scratch);
/* gr_launch with struct gr_warp as the scratch */
struct mw_kgen_kernel *gr_kernel(struct mw_kgen_program *p, const char *name, uint64_t nthreads, uint32_t nregs,
                                 const void *data,
                                 int (*gen)(const struct mw_kgen_kernel *, const struct mw_tctx *, uint32_t, void *,
                                            struct mw_inst *, struct mw_err *),
                                 uint32_t ninsts);
/* Append the "initialize" launch of `init` (init->nthreads threads). NULL when out of memory. */
struct mw_kgen_kernel *gr_launch_init(struct mw_kgen_program *p, uint32_t nregs, const struct gr_init *init);

/* cudaGraphCopy's arrays, allocated after the model's own: vlist (n + 1 offsets), elist (m targets), 8 bytes
 * each. */
void gr_alloc_graph(uint64_t *top, const struct mw_graph *g, uint64_t *vlist, uint64_t *elist);
/* Out of memory while building p: free the launches and the model's state; the error code. */
int gr_fail(struct mw_kgen_program *p, struct mw_err *e);
/* The splitmix64 step the R-MAT generator draws from, for models that draw more per-vertex values. */
uint64_t gr_splitmix(uint64_t *s);
/* The generators' set of undirected pairs: hash has hsize slots (a power of two, at least twice the pairs),
 * zeroed, each holding a pair's key + 1. True when {u, v} was not there yet (it is now). */
bool gr_pair_new(uint64_t *hash, uint64_t hsize, uint32_t u, uint32_t v);
/* g (n vertices) in CSR from `pairs` undirected pairs (u[k * stride], v[k * stride]), both directions of each,
 * targets in pair order; 0, or -1 out of memory. */
int gr_csr_from_pairs(struct mw_graph *g, uint32_t n, const uint32_t *u, const uint32_t *v, size_t stride,
                      uint64_t pairs);

#endif
