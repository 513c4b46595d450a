/* Accel-Sim SASS trace front-end (kernelslist.g + kernel-N.traceg[.xz], NVBit tracer versions 1..6):
 * the extra API beyond mw_workload_open_trace (workload.h): per-kernel header facts, memcpy commands and a
 * whole-trace summary used by tests and `moonwarp trace-info`. Format from Accel-Sim's tracer and trace parser. */
#ifndef MW_TRACE_H
#define MW_TRACE_H

#include "workload.h"

/*
 * What the reader hands to the engine (decisions documented here once):
 *
 * - Kernels come in kernelslist.g order. mw_kernel.id is the 1-based launch order; the header's own
 *   "-kernel id" is kept in mw_trace_kernel_info.trace_id. Every kernel file named in kernelslist.g is checked
 *   to exist when the trace is opened ("kernel-1.traceg" may be stored as "kernel-1.traceg.xz").
 * - MemcpyHtoD/DtoH lines are parsed and kept (mw_trace_memcpys); they do not take simulated time.
 * - Unknown kernel-header keys are errors naming the key: a newer tracer that adds a header key may also have
 *   changed the instruction-line layout, and silently guessing would produce wrong addresses.
 * - Streaming: a thread block's instructions are read from the file when cta_open asks for it and freed by
 *   cta_close; the kernel file is never loaded whole. A TB absent from the file (the post-processor drops empty
 *   ones) opens as a CTA whose warps have no instructions. A TB that appears after a higher-numbered one is an
 *   error (the post-processor always writes increasing linear ids).
 * - Addresses are stored as the trace compresses them (base+stride, base+deltas, or a list) and expanded per
 *   lane only in warp_next. Mode 1 (base+stride) gives the k-th active lane base + k*stride.
 * - Generic LD/ST/ATOM/RED are resolved by the first active lane's address: within 16 MiB above the kernel's
 *   "-shmem base_addr" is shared, within 16 MiB above "-local mem base_addr" is local, anything else global.
 *   Shared and local addresses are then given as offsets in their window, like LDS/LDL addresses in traces.
 *   LD_LOCAL/ST_LOCAL addresses are therefore per-thread local offsets (all threads of a kernel share one
 *   offset range); mapping them to distinct DRAM locations per thread is the consumer's job.
 * - Constant loads (LDC, ULDC) are MW_OP_LD_CONST with no addresses (NVBit reports none): addr[] is zero.
 * - Shared-memory atomics (ATOMS, generic ATOM to shared) are MW_OP_LD_SHARED; RED to shared is ST_SHARED.
 * - An EXIT that is not the last instruction of its warp's stream (a predicated or partial exit) is given as
 *   MW_OP_BRANCH, because MW_OP_EXIT means "this warp is done".
 * - Registers: R255/RZ, UR63/URZ and predicates are dropped (no dependence through them); uniform registers
 *   map to MW_REG_UNIFORM_BASE + n. Registers beyond MW_INST_MAX_DST/MW_INST_MAX_SRC are ignored.
 * - MW_IF_BYPASS_L1 is set on global loads/stores whose opcode carries .CG, .CV, .VOLATILE, .MMIO, .NA,
 *   .BYPASS (LDGSTS) or .STRONG.GPU / .STRONG.SYS.
 */

struct mw_trace_memcpy {
    uint64_t addr, bytes;
    uint32_t before_kernel; /* number of kernel launches listed before it */
    bool to_device;         /* MemcpyHtoD */
};

/* Facts of the current kernel's header that struct mw_kernel does not carry. */
struct mw_trace_kernel_info {
    char name[512];          /* full (mangled) name; mw_kernel.name is truncated to 127 chars */
    char file[512];          /* the kernel trace file being read */
    char nvbit_version[32];
    uint32_t trace_id;       /* "-kernel id" */
    uint32_t binary_version; /* "-binary version": 61, 70, 75, 80, 86, 90 ... (0 = absent: no arch check) */
    uint32_t tracer_version; /* "-accelsim tracer version" (0 = absent: legacy lines with a TB/warp prefix) */
    uint32_t lineinfo;       /* "-enable lineinfo": lines start with a source line number */
    uint64_t stream_id;
    uint32_t cluster[3];     /* "-cluster dim" (sm_90), 0 when absent */
    /* streaming counters for this kernel so far */
    uint32_t tbs_read;       /* thread blocks parsed from the file */
    uint64_t warps_read, insts_read;
};

/* The current kernel of an open trace workload (NULL if w is not a trace or no kernel is open). */
const struct mw_trace_kernel_info *mw_trace_kernel_info(const struct mw_workload *w);
/* Memcpy commands of kernelslist.g in file order (NULL/0 if w is not a trace). */
const struct mw_trace_memcpy *mw_trace_memcpys(const struct mw_workload *w, size_t *n);

/* Per-kernel totals, as the engine would see them (mid-stream EXITs counted as branches). */
struct mw_trace_kernel_summary {
    struct mw_kernel k;
    struct mw_trace_kernel_info info;
    uint32_t ctas;           /* grid size */
    uint32_t tbs;            /* thread blocks present in the file */
    uint64_t warps;          /* warp sections present in the file */
    uint64_t insts;          /* warp instructions */
    uint64_t op[MW_OP_COUNT];
    uint64_t mem_lanes;      /* active lanes of memory instructions (thread-level accesses) */
};

struct mw_trace_summary {
    uint32_t nkernels;
    struct mw_trace_kernel_summary *kernels; /* nkernels entries, owned: mw_trace_summary_free */
    uint32_t nmemcpy;
    uint64_t memcpy_bytes;
    uint64_t insts, op[MW_OP_COUNT];
};

/* Read a whole trace (path: kernelslist.g or its folder), streaming, and count. 0 or <0 with e filled. */
int mw_trace_stats(const char *path, struct mw_trace_summary *out, struct mw_err *e);
void mw_trace_summary_free(struct mw_trace_summary *s);

/* Class of a SASS opcode (with or without modifiers) for binary version `sm` (0 = any), as the reader maps
 * it; generic LD/ST/ATOM/RED report their global class. -1 if the table does not know it for that sm. */
int mw_trace_op_class(const char *opcode, unsigned sm);

/* .mwtrace, a binary cache of each parsed kernel file (trace_cache.c): off unless set here (the simulation sets it
 * from trace.cache / trace.cache_dir). dir "" = beside the kernel file when its folder is writable, else
 * $XDG_CACHE_HOME/moonwarp or ~/.cache/moonwarp. Set before the first kernel is read. */
void mw_trace_set_cache(struct mw_workload *w, bool on, const char *dir);
/* Where the current kernel was read from: */
enum mw_trace_source { MW_TRACE_FROM_TEXT = 0, MW_TRACE_CACHE_BUILT = 1, MW_TRACE_FROM_CACHE = 2 };
/* -1 if w is not a trace or no kernel is open. */
int mw_trace_source(const struct mw_workload *w);

#endif
