/* The L1 data cache of one SM: its tag array and set-index function, MSHRs (merging requests to a line in
 * flight), the miss queue toward the interconnect, the access path of one coalesced request (stores write
 * through and invalidate; loads consult the bypass, granularity and replacement decision points and reserve
 * line / MSHR / miss-queue slot, or fail with a stall cause) and the fill path. It calls no unit upstream:
 * completed loads are handed back to the caller (the LDST unit). */
#ifndef MW_L1D_H
#define MW_L1D_H

#include "lineset.h"
#include "mem_req.h"
#include "policy.h"
#include "simctx.h"
#include "slotmap.h"
#include "stats.h"
#include "tags.h"

#define MW_L1D_STATS(X)                                                                                   \
    X(accesses, "load requests that probed L1D (hits + misses)", "req", SUM)                            \
    X(hits, "load requests that found their sectors", "req", SUM)                                       \
    X(misses, "load requests that missed (incl. merged into a pending fill)", "req", SUM)               \
    X(hit_reserved, "misses to a line already being filled", "req", SUM)                                \
    X(mshr_merges, "misses merged into an existing MSHR entry", "req", SUM)                             \
    X(bypasses, "load requests sent past L1D by the bypass policy or the instruction", "req", SUM)      \
    X(line_alloc_fail, "reservation failures: no evictable line in the set", "attempt", SUM)           \
    X(mshr_fail, "reservation failures: no MSHR entry or merge slot", "attempt", SUM)                  \
    X(miss_queue_fail, "reservation failures: miss queue full", "attempt", SUM)                         \
    X(fills, "lines (or sectors) filled", "fill", SUM)                                                   \
    X(evictions, "valid lines evicted", "line", SUM)                                                     \
    X(stores, "store requests (write-through, no allocate)", "req", SUM)                                \
    X(store_invalidates, "lines invalidated by a store", "line", SUM)                                   \
    X(sector_misses, "misses on a present line lacking sectors", "req", SUM)                            \
    X(victim_hits, "load requests served by the replacement policy's victim storage", "req", SUM)       \
    X(injected_reads, "line reads injected by a policy (mw_inject)", "req", SUM)                        \
    X(injected_writes, "line writes injected by a policy (mw_inject)", "req", SUM)                     \
    X(gpgpusim_accesses, "GPGPU-Sim accounting: hits + misses + pending hits, stores included", "req", SUM) \
    X(gpgpusim_misses, "GPGPU-Sim accounting: load misses, sector misses, stores to an absent line", "req", SUM) \
    X(gpgpusim_pending_hits, "GPGPU-Sim accounting: loads merged into a line or MSHR entry in flight", "req", SUM) \
    X(gpgpusim_reservation_fails, "GPGPU-Sim accounting: attempts that could not reserve (retries counted)", "attempt", SUM) \
    X(chunk_partial_hits, "chunked: requests finding part of their chunks (invalidated, fetched whole)", "req", SUM) \
    X(chunk_evictions, "chunked: valid 32 B chunks evicted or invalidated", "chunk", SUM)                 \
    X(chunk_pending_waits, "chunked: attempts waiting for a fill of part of their chunks", "attempt", SUM) \
    X(gran_switches, "granularity changes (mw_l1d_set_granularity)", "switch", SUM)                     \
    X(gran_flushes, "granularity changes to a larger granule, which flush the L1D", "flush", SUM)       \
    X(victim_iw, "load misses that evicted a line allocated by the same warp (Choo: intra-warp)", "req", SUM) \
    X(victim_xw, "load misses that evicted a line of another warp of the same CTA (cross-warp)", "req", SUM) \
    X(victim_xb, "load misses that evicted a line of a warp of another CTA (cross-block)", "req", SUM) \
    X(evict_reuse0, "valid lines evicted without a hit since their fill (Reuse0)", "line", SUM)          \
    X(mshr_occupancy, "MSHR entries in use, summed over core cycles (l1d.mshr_mean_occupancy)", "entry-cycle", SUM) \
    X(victim_iw_coincident, "victim_iw misses whose victim the same dynamic load allocated (Choo: coincident)", "req", SUM) \
    X(miss_cold, "l1d.classify_misses: misses to a line never filled into this L1D before (cold)", "req", SUM) \
    X(miss_2c, "l1d.classify_misses: misses to a line filled into this L1D before (capacity / conflict)", "req", SUM)
MW_STATS_DECLARE(l1d, MW_L1D_STATS)

/* Set index of a line address: the one function for the L1D (the coalescer and the policies' mw_l1d_set_of
 * use it too), chosen by l1d.index:
 *  linear      line number modulo the set count (any count: Linebacker's 48 sets);
 *  fermi_hash  GPGPU-Sim's FERMI_HASH_SET_FUNCTION (Nugteren et al., HPCA'14): the line number's low 5 bits XOR
 *              address bits 13, 14, 15, 17, 19; 64 sets add bit 12 on top (32 or 64 sets only);
 *  xor         GPGPU-Sim's BITWISE_XORING_FUNCTION: the linear index XOR the tag's low bits (a power-of-two
 *              count), the XOR indexing of IndXor (Choo's competitor);
 *  xor_fold    every bit of the line number folded in: the XOR of all its set-width chunks (a power-of-two
 *              count; a generic full fold, not Wang et al.'s FUP, whose function is not known here);
 *  mask        GPGPU-Sim 3.2.x's LINEAR_SET_FUNCTION (src/gpgpu-sim/gpu-cache.cc, l1d_cache_config::set_index):
 *              (addr >> line_sz_log2) & (nset - 1), a mask and not a modulo; equal to linear for a power-of-two
 *              count, and for others it reaches only the sets whose bits are all in sets - 1 (48 sets: mask 47 =
 *              0b101111, sets 0-15 and 32-47, 32 of 48). */
struct mw_set_index {
    int sets, shift, fn, set_bits;
};
static inline void mw_set_index_init(struct mw_set_index *x, const struct mw_config *c)
{
    x->sets = mw_l1d_sets(c);
    x->shift = __builtin_ctz((unsigned)c->l1d.line_bytes);
    x->fn = c->l1d.index;
    x->set_bits = __builtin_ctz((unsigned)x->sets);
}
static inline int mw_set_index_of(const struct mw_set_index *x, uint64_t line)
{
    switch (x->fn) {
    case MW_IDX_FERMI_HASH: {
        unsigned lower = (unsigned)(line >> x->shift) & 0x1f;
        unsigned upper = (unsigned)(((line >> 13) & 0x7) | ((line >> 14) & 0x8) | ((line >> 15) & 0x10));
        unsigned set = lower ^ upper;
        if (x->sets == 64) set |= (unsigned)((line >> 7) & 0x20);
        return (int)set;
    }
    case MW_IDX_XOR: {
        uint64_t mask = (uint64_t)x->sets - 1;
        return (int)(((line >> x->shift) & mask) ^ ((line >> (x->shift + x->set_bits)) & mask));
    }
    case MW_IDX_XOR_FOLD: {
        uint64_t mask = (uint64_t)x->sets - 1, n = line >> x->shift, set = 0;
        if (!x->set_bits) return 0; /* one set */
        for (; n; n >>= x->set_bits) set ^= n & mask;
        return (int)set;
    }
    case MW_IDX_MASK: return (int)((line >> x->shift) & ((uint64_t)x->sets - 1));
    default: return (int)((line >> x->shift) % (uint64_t)x->sets);
    }
}

#define MW_MSHR_WAITERS_MAX 64
#define MW_MSHR_NO_LINE UINT64_MAX /* no line address: lines are aligned */
/* An MSHR entry; it is in use while its key (mw_l1d.mshr_key) holds a line. */
struct mw_mshr {
    uint8_t sectors;      /* sectors requested from L2 */
    uint16_t nwait;
    uint16_t inflight;    /* requests to L2 not yet answered */
    int way;              /* reserved way (allocate-on-miss) or -1 */
    uint32_t waiters[MW_MSHR_WAITERS_MAX]; /* load tracker ids */
    uint64_t t_create[MW_MSHR_WAITERS_MAX];
    uint64_t pc;
    uint16_t warp;
};

struct mw_l1d {
    int sm;
    struct mw_tags tags;
    struct mw_set_index idx;
    struct mw_mshr *mshr;
    uint64_t *mshr_key;   /* per entry: its line while in use, MW_MSHR_NO_LINE when free; a dense array for
                           * lookups, which would otherwise stride over the entries' large waiter arrays */
    struct mw_slotmap mshr_map; /* line -> entry, and the free entries (lowest first) */
    int mshr_entries, mshr_used;
    uint64_t mshr_epoch;  /* changes whenever an MSHR entry is taken or freed (qualify caching) */
    uint64_t mshr_occ_t;  /* core cycle up to which st.mshr_occupancy counts (mw_l1d_mshr_occ) */
    struct mw_req_fifo missq;
    struct mw_req_fifo injq; /* policy-injected traffic, sent when the miss queue has nothing to send */
    size_t view_meta;     /* offset of the replacement policy's bytes in a line's policy bytes, (size_t)-1: none */
    struct mw_l1d_stats st;
    const struct mw_l1d_org *org; /* an organisation other than the line one (l1d.organisation), else NULL */
    void *org_state;
    int gran;                /* management granularity in bytes (the line size until a policy sets it) */
    struct mw_lineset filled; /* l1d.classify_misses: every line ever filled into this L1D (else empty) */
};

/* An L1D organisation other than the line one (l1d.organisation: chunked, engine/l1d_chunk.h), attached by the
 * simulation after mw_l1d_init. Its load() serves a cached load (the bypass verdict asked) and sets *bypass for a
 * probe-only verdict that misses; store() invalidates what a write-through store makes stale (returns whether
 * it did); fill() takes a fill of `sectors` of block `line`; flush() invalidates all not waiting for a fill;
 * lookup() answers mw_l1d_lookup. The line organisation's tag array stays empty. MSHRs, the miss queue and the
 * stats are the L1D's. */
struct mw_l1d_access;
struct mw_l1d_org {
    int (*load)(struct mw_sim *s, struct mw_l1d *l1, struct mw_l1d_access *a, bool probe_only, bool *bypass);
    bool (*store)(struct mw_sim *s, struct mw_l1d *l1, const struct mw_coal_req *q);
    void (*fill)(struct mw_sim *s, struct mw_l1d *l1, int set, uint64_t line, uint8_t sectors);
    void (*flush)(struct mw_sim *s, struct mw_l1d *l1);
    int (*lookup)(const struct mw_l1d *l1, int set, uint64_t line, uint8_t sectors);
    void (*fini)(struct mw_l1d *l1);
};

/* l1d.classify_misses: count a load miss that l1d.misses counts as cold or capacity / conflict (2C) by whether
 * `line` was ever filled into this L1D (the set is NULL when the knob is off: nothing counted). */
static inline void mw_l1d_classify_miss(struct mw_l1d *l1, uint64_t line)
{
    if (!l1->filled.slot) return;
    if (mw_lineset_has(&l1->filled, line)) l1->st.miss_2c++;
    else l1->st.miss_cold++;
}

/* Bring st.mshr_occupancy up to the current core cycle; called before mshr_used changes and before the stats
 * are read, so the counter is exact without a per-cycle visit. */
static inline void mw_l1d_mshr_occ(const struct mw_sim *s, struct mw_l1d *l1)
{
    uint64_t t = mw_core_stamp(s);
    if (t > l1->mshr_occ_t) l1->st.mshr_occupancy += (uint64_t)l1->mshr_used * (t - l1->mshr_occ_t);
    l1->mshr_occ_t = t;
}
int mw_l1d_init(struct mw_sim *s, struct mw_l1d *l1, int sm, struct mw_err *e);
void mw_l1d_fini(struct mw_sim *s, struct mw_l1d *l1);

/* One coalesced request of a warp instruction, offered to the L1D. */
struct mw_l1d_access {
    int warp, op;
    uint64_t pc;
    uint8_t inst_flags;              /* enum mw_inst_flags of the instruction */
    const struct mw_coal_req *reqs;  /* the instruction's whole list */
    int index, n;                    /* this request's position in it */
    uint32_t tracker;                /* the load's completion tracker (LDST unit) */
    uint64_t inst;                   /* the instruction's id */
    uint8_t *rflags;                 /* in/out: this request's MW_RF_* flags */
    uint8_t *verdict;                /* in/out: this request's bypass state (0xff = not asked yet; 0x10 + cause
                                      * after a failed attempt to cache; MW_CACHE / MW_BYPASS) */
    /* out */
    bool hooked;                     /* a policy hook was consulted */
    bool miss;                       /* the request missed (counts toward the instruction's misses) */
    uint64_t data_at;                /* a hit: the cycle its data is ready, else MW_NEVER */
};
/* Try to serve the request this cycle: MW_STALL_NONE when done with it (hit, miss sent or merged, store or
 * bypass queued), else the cause it must retry for. */
int mw_l1d_access(struct mw_sim *s, struct mw_l1d *l1, struct mw_l1d_access *a);
#define MW_RF_PROBED 1u /* the victim storage was asked about this request */
/* Count `n` failed attempts of a cause (retries the clock skipped included). */
void mw_l1d_count_fail(struct mw_l1d *l1, int cause, uint64_t n);

/* A fill from L2 reached the SM. Fills the line, frees the MSHR entry when its last request is back, and
 * copies that entry's waiters (tracker ids and creation cycles) out; returns how many (0 while requests of the
 * entry are still in flight). *set is the fill's set; *freed whether an MSHR entry was freed. */
int mw_l1d_fill(struct mw_sim *s, struct mw_l1d *l1, struct mw_req *r, uint32_t *waiters, uint64_t *t_create,
                int *set, bool *freed);
/* The miss queue's head enters the request network if it can (one per cycle). True if one left. */
bool mw_l1d_drain(struct mw_sim *s, struct mw_l1d *l1);
/* Invalidate every line not waiting for a fill. */
void mw_l1d_flush_lines(struct mw_sim *s, struct mw_l1d *l1);
/* Evict one line (cause MW_EVICT_POLICY) unless it waits for a fill. */
bool mw_l1d_invalidate_line(struct mw_sim *s, struct mw_l1d *l1, int set, int way);
/* Queue one injected line request (read or write) behind the miss queue; its reply carries MW_RQ_INJECTED. */
struct mw_req *mw_l1d_inject(struct mw_sim *s, struct mw_l1d *l1, uint64_t line, bool write, uint32_t tag);
static inline int mw_l1d_set(const struct mw_l1d *l1, uint64_t line) { return mw_set_index_of(&l1->idx, line); }

#endif
