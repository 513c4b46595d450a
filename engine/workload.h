/* What the engine consumes: kernels, each a grid of CTAs, each CTA a set of per-warp instruction streams.
 * Three front-ends implement struct mw_workload_ops: Accel-Sim traces, built-in kernel models, Lua generators. */
#ifndef MW_WORKLOAD_H
#define MW_WORKLOAD_H

#include "common.h"

#include <string.h>

enum mw_op {
    MW_OP_NOP = 0,
    MW_OP_ALU,      /* int / fp32 */
    MW_OP_DP,       /* fp64 */
    MW_OP_SFU,      /* transcendental, conversions */
    MW_OP_TENSOR,   /* HMMA / IMMA */
    MW_OP_BRANCH,   /* control flow (no divergence model beyond the active mask) */
    MW_OP_BARRIER,  /* CTA-wide __syncthreads */
    MW_OP_MEMBAR,   /* memory fence: waits for the warp's outstanding stores */
    MW_OP_EXIT,     /* warp done */
    MW_OP_LD_GLOBAL,
    MW_OP_ST_GLOBAL,
    MW_OP_ATOMIC,   /* global atomic / reduction: performed at L2, bypasses L1D */
    MW_OP_LD_LOCAL, /* local memory: cached like global in L1D */
    MW_OP_ST_LOCAL,
    MW_OP_LD_SHARED,
    MW_OP_ST_SHARED,
    MW_OP_LD_CONST,
    MW_OP_COUNT
};
extern const char *const mw_op_names[MW_OP_COUNT];

static inline bool mw_op_is_global_mem(int op)
{
    return op == MW_OP_LD_GLOBAL || op == MW_OP_ST_GLOBAL || op == MW_OP_ATOMIC || op == MW_OP_LD_LOCAL ||
           op == MW_OP_ST_LOCAL;
}
static inline bool mw_op_is_mem(int op) { return op >= MW_OP_LD_GLOBAL; }
static inline bool mw_op_is_load(int op)
{
    return op == MW_OP_LD_GLOBAL || op == MW_OP_LD_LOCAL || op == MW_OP_LD_SHARED || op == MW_OP_LD_CONST ||
           op == MW_OP_ATOMIC;
}

enum mw_inst_flags {
    MW_IF_BYPASS_L1 = 1u << 0, /* LDG.E.STRONG.GPU, .CV, .VOLATILE: do not cache in L1D */
    MW_IF_CG = 1u << 1,        /* .CG (cache global): skips L1D when l1d.bypass_cg (GPGPU-Sim 3.x), else cached */
};

#define MW_INST_MAX_DST 4
#define MW_INST_MAX_SRC 6
#define MW_REG_UNIFORM_BASE 256 /* uniform registers UR0.. map to 256.. */
#define MW_REG_COUNT 320

struct mw_inst {
    uint64_t pc;
    uint32_t mask;   /* active lanes */
    uint8_t op;      /* enum mw_op */
    uint8_t width;   /* bytes accessed per lane (memory ops) */
    uint8_t flags;   /* enum mw_inst_flags */
    uint8_t ndst, nsrc;
    uint8_t lane_affine; /* 1: all 32 lanes active, lane l at addr[0] + l * (addr[1] - addr[0]) (a generator's
                          * promise, read by the coalescer only; the SM clears it before asking the workload) */
    uint16_t dst[MW_INST_MAX_DST];
    uint16_t src[MW_INST_MAX_SRC];
    uint64_t id;     /* set by the SM at issue (0 before): the instruction's id in the run, increasing in issue
                      * order; its memory events carry it */
    uint64_t addr[MW_WARP_SIZE]; /* one per active lane (memory ops only) */
};

/* The PCs of the built-in models and the Lua generators are byte offsets in the kernel's code at this many bytes
 * per static instruction, from 0 for the kernel's first instruction, one per static instruction, laid out as the
 * compiled kernel has them (the EXIT last), so that instruction fetch can scale them to the machine's instruction
 * size and place each kernel's code at its own base. Trace PCs are the traced ones. */
#define MW_WL_INST_BYTES 16

/* Fill `out` as the EXIT of a warp whose active lanes are `mask`, at `pc` (the end of the kernel's code: one PC
 * for every warp of the kernel). */
static inline void mw_inst_exit(struct mw_inst *out, uint32_t mask, uint64_t pc)
{
    memset(out, 0, offsetof(struct mw_inst, addr));
    out->op = MW_OP_EXIT;
    out->mask = mask;
    out->pc = pc;
}

struct mw_kernel {
    char name[128];
    uint32_t id;            /* 1-based launch order */
    uint32_t grid[3], block[3];
    uint32_t nregs;         /* registers per thread */
    uint32_t shmem;         /* shared memory bytes per CTA */
    uint64_t shmem_base, local_base; /* generic-address windows (traces) */
    uint64_t code_base;     /* set by the engine: start of the kernel's code addresses (one range per name) */
};

static inline uint32_t mw_kernel_ctas(const struct mw_kernel *k) { return k->grid[0] * k->grid[1] * k->grid[2]; }
static inline uint32_t mw_kernel_cta_threads(const struct mw_kernel *k)
{
    return k->block[0] * k->block[1] * k->block[2];
}
static inline uint32_t mw_kernel_cta_warps(const struct mw_kernel *k)
{
    return (mw_kernel_cta_threads(k) + MW_WARP_SIZE - 1) / MW_WARP_SIZE;
}

struct mw_workload;
struct mw_workload_ops {
    const char *kind; /* "trace", "builtin", "lua" */
    /* Advance to the next kernel launch: 1 = k filled, 0 = no more kernels, <0 = error (e filled). */
    int (*next_kernel)(struct mw_workload *w, struct mw_kernel *k, struct mw_err *e);
    /* Open CTA `cta` (linear id, x fastest) of the current kernel. CTAs are opened in increasing order. */
    int (*cta_open)(struct mw_workload *w, uint32_t cta, void **cta_state, struct mw_err *e);
    /* Next instruction of warp `warp` (0-based in the CTA): 1 = filled, 0 = warp finished, <0 = error. */
    int (*warp_next)(struct mw_workload *w, void *cta_state, uint32_t warp, struct mw_inst *out, struct mw_err *e);
    void (*cta_close)(struct mw_workload *w, void *cta_state);
    void (*destroy)(struct mw_workload *w);
};

struct mw_workload {
    const struct mw_workload_ops *ops;
    void *self;
    char name[128];
};

/* Open a built-in workload by name ("micro.colstride", later "polybench.atax"); size may be NULL. */
int mw_workload_open_builtin(struct mw_workload *w, const char *name, const char *size, uint64_t seed,
                             struct mw_err *e);
/* Open an Accel-Sim trace: kernelslist.g or the folder holding it. */
int mw_workload_open_trace(struct mw_workload *w, const char *path, struct mw_err *e);
void mw_workload_close(struct mw_workload *w);

/* Registry of built-in workloads, for list-workloads. */
struct mw_builtin_desc {
    const char *name, *suite, *desc;
    const char *sizes; /* "default|small|paper" */
    int (*open)(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
};
extern const struct mw_builtin_desc mw_builtin_workloads[];
extern const int mw_builtin_nworkloads;

#endif
