/* Internal layout of the simulated machine, shared by the engine's units (sm.c, ldst.c, l1d.c, icnt.c,
 * l2.c, sim.c). Policies never include this: they read engine facts through sim.h. */
#ifndef MW_SIM_INTERNAL_H
#define MW_SIM_INTERNAL_H

#include <string.h>

#include "config.h"
#include "dram.h"
#include "mem_req.h"
#include "policy.h"
#include "sim.h"
#include "stats.h"
#include "workload.h"

/* ---- stats ------------------------------------------------------------------------------------------- */
#define MW_SM_STATS(X)                                                                                    \
    X(warp_insts, "warp instructions issued", "inst", SUM)                                               \
    X(thread_insts, "thread instructions issued (active lanes)", "inst", SUM)                           \
    X(active_cycles, "cycles with at least one resident warp", "core cycles", SUM)                      \
    X(ctas_launched, "CTAs launched", "CTA", SUM)                                                        \
    X(issue_slots, "scheduler cycles (schedulers x cycles)", "slot", SUM)                               \
    X(issued, "scheduler cycles that issued", "slot", SUM)                                              \
    X(stall_idle, "scheduler cycles with no resident warp", "slot", SUM)                                \
    X(stall_ibuffer, "scheduler cycles whose best warp had no decoded instruction", "slot", SUM)         \
    X(stall_barrier, "scheduler cycles whose best warp waited at a barrier", "slot", SUM)               \
    X(stall_scoreboard_mem, "scheduler cycles whose best warp waited on a load's register", "slot", SUM) \
    X(stall_scoreboard_alu, "scheduler cycles whose best warp waited on an ALU result", "slot", SUM)     \
    X(stall_pipe, "scheduler cycles whose best warp found its ALU/SFU pipe busy", "slot", SUM)          \
    X(stall_ldst, "scheduler cycles whose best warp found the LDST unit busy", "slot", SUM)             \
    X(stall_policy, "scheduler cycles whose ready warps were all held back by the scheduler policy", "slot", SUM) \
    X(ldst_busy, "cycles the LDST unit held an instruction", "core cycles", SUM)                       \
    X(ldst_stall_line_alloc, "LDST cycles stalled: no L1D line could be reserved", "core cycles", SUM)  \
    X(ldst_stall_mshr, "LDST cycles stalled: no MSHR entry or merge slot", "core cycles", SUM)          \
    X(ldst_stall_miss_queue, "LDST cycles stalled: miss queue full", "core cycles", SUM)                \
    X(global_loads, "global/local load warp instructions", "inst", SUM)                                 \
    X(global_stores, "global/local store warp instructions", "inst", SUM)                               \
    X(atomics, "atomic warp instructions", "inst", SUM)                                                  \
    X(shared_accesses, "shared-memory warp instructions", "inst", SUM)                                  \
    X(shared_bank_conflicts, "extra LDST cycles from shared-memory bank conflicts", "core cycles", SUM) \
    X(coalesced_reqs, "memory requests made by the coalescer", "req", SUM)                              \
    X(load_latency_sum, "sum over load requests of creation-to-data latency", "core cycles", SUM)       \
    X(load_latency_count, "load requests whose latency was measured", "req", SUM)                       \
    X(load_latency_max, "largest load request latency", "core cycles", MAX)
MW_STATS_DECLARE(sm, MW_SM_STATS)

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
    X(sector_misses, "misses on a present line lacking sectors", "req", SUM)
MW_STATS_DECLARE(l1d, MW_L1D_STATS)

#define MW_ICNT_STATS(X)                                                                                  \
    X(packets, "packets delivered", "packet", SUM)                                                       \
    X(flits, "flits delivered", "flit", SUM)
MW_STATS_DECLARE(icnt, MW_ICNT_STATS)

#define MW_L2_STATS(X)                                                                                    \
    X(accesses, "requests looked up (reads, writes, atomics)", "req", SUM)                              \
    X(hits, "lookups that hit", "req", SUM)                                                              \
    X(misses, "lookups that missed", "req", SUM)                                                         \
    X(reads, "read lookups", "req", SUM)                                                                 \
    X(writes, "write lookups", "req", SUM)                                                               \
    X(mshr_merges, "read misses merged into an MSHR entry (inter-core locality when SMs differ)", "req", SUM) \
    X(merges_cross_sm, "merges whose SM differs from the entry's first requester", "req", SUM)           \
    X(reservation_fail, "cycles the pipeline head could not reserve MSHR / miss queue", "L2 cycles", SUM) \
    X(writebacks, "dirty lines written back to DRAM", "line", SUM)                                      \
    X(fills, "lines filled from DRAM", "line", SUM)
MW_STATS_DECLARE(l2, MW_L2_STATS)

/* ---- cache tag array (L1D and L2) --------------------------------------------------------------------- */
struct mw_line {
    uint64_t tag;         /* line address */
    uint64_t last_access, fill_time;
    uint64_t pc;
    uint32_t hits;
    uint16_t warp;
    uint8_t valid;        /* sectors valid (bit per 32 B) */
    uint8_t pending;      /* sectors being filled (allocate-on-miss reservation) */
    uint8_t dirty;        /* L2 only */
    uint8_t used;         /* way holds a tag */
};
struct mw_tags {
    int sets, assoc, line_shift;
    struct mw_line *lines; /* sets * assoc */
    uint64_t *keys;        /* sets * assoc: the way's tag while used, MW_NO_TAG when not (a dense copy for lookups) */
    uint8_t *meta;         /* replacement policy's per-line bytes */
    size_t meta_bytes;
};

/* ---- L1D MSHR ----------------------------------------------------------------------------------------- */
#define MW_MSHR_WAITERS_MAX 64
#define MW_MSHR_NO_LINE UINT64_MAX /* no line address: lines are aligned */
struct mw_mshr {
    uint64_t line;        /* 0 = free when valid == 0 */
    uint8_t valid;
    uint8_t sectors;      /* sectors requested from L2 */
    uint16_t nwait;
    uint16_t inflight;    /* requests to L2 not yet answered */
    int way;              /* reserved way (allocate-on-miss) or -1 */
    uint32_t waiters[MW_MSHR_WAITERS_MAX]; /* load tracker ids */
    uint64_t t_create[MW_MSHR_WAITERS_MAX];
    uint64_t pc;
    uint16_t warp;
};

/* A load instruction in flight: its destination registers become readable when every request is back. */
struct mw_tracker {
    uint16_t warp;
    uint8_t ndst, live;
    uint16_t dst[MW_INST_MAX_DST];
    int outstanding;
    uint64_t ready;       /* latest data arrival so far */
    uint32_t next_free;
};

/* An instruction held by the LDST unit, its coalesced requests going to L1D one per cycle. */
struct mw_ldst_slot {
    bool valid;
    uint16_t warp;
    uint8_t op;
    uint8_t flags;
    uint64_t pc;
    uint32_t tracker;     /* loads */
    int nreq, next;
    uint32_t lanes_total;
    struct mw_coal_req reqs[MW_WARP_SIZE * 2];
    uint8_t verdict[MW_WARP_SIZE * 2];
    uint32_t misses;
    uint64_t sets_seen[4];
    uint64_t issue_cycle;
};

/* ---- SM ------------------------------------------------------------------------------------------------- */
enum mw_warp_state { MW_W_FREE = 0, MW_W_ACTIVE, MW_W_BARRIER, MW_W_EXITED };
#define MW_IB_MAX 16

struct mw_warp {
    uint8_t state;
    uint8_t stream_done;  /* workload has no more instructions */
    uint8_t ib_head, ib_n;
    uint16_t cta_slot;
    uint32_t warp_in_cta;
    uint64_t age;         /* global launch sequence */
    uint64_t wake;        /* head instruction cannot issue before this cycle (registers) */
    uint32_t pending_loads, pending_stores;
    uint64_t insts;
    uint64_t reg_ready[MW_REG_COUNT];
    struct mw_inst ib[MW_IB_MAX];
};

struct mw_cta_slot {
    bool valid;
    uint32_t cta_id;      /* linear id in the kernel */
    uint32_t nwarps, warps_exited, warps_at_barrier;
    uint32_t first_warp;  /* SM-local id of its first warp */
    void *stream;         /* workload's CTA state */
    uint32_t regs, threads, shmem;
};

struct mw_sm {
    int id;
    struct mw_warp *warps;
    int nwarps;           /* slots */
    struct mw_cta_slot *ctas;
    int resident_ctas, resident_warps, resident_threads;
    int64_t free_regs, free_shmem;
    uint16_t **sched_warps; int *sched_nwarps; /* static warp -> scheduler split */
    uint64_t *live;       /* per scheduler, live_words words: bit i set while warp sched_warps[k][i] is active or at a barrier */
    int live_words;
    int nsched;
    uint64_t *sp_free, *sfu_free, *dp_free, *tensor_free; /* per pipe: next cycle it accepts */
    int last_stall[16];   /* per scheduler: reason of the last evaluated cycle, for clock jumps */
    /* A scheduler that found no ready warp sleeps until the earliest known wake-up (register ready, pipe
     * free) unless something wakes it first (data back, barrier release, LDST slot freed, CTA launch). */
    uint64_t sched_sleep[16];
    bool sched_dirty[16];
    /* LDST */
    struct mw_ldst_slot *slots;
    int nslots, slots_used, slot_rr;
    uint64_t ldst_free;   /* shared-memory / constant ops occupy the unit until then */
    /* The head request's last attempt failed for want of a line or an MSHR entry without consulting any policy
     * hook (that stall cause, else 0): retrying gives the same failure until a reply, a flush or a new
     * instruction clears it, so retries only count the stall and the clock may jump over them. */
    int ldst_parked;
    int park_set;         /* the L1D set of the parked request: only a fill there (or a freed MSHR) can change its fate */
    bool ldst_hooked;     /* a policy hook was consulted during the current access attempt */
    /* L1D */
    struct mw_tags l1;
    struct mw_mshr *mshr;
    uint64_t *mshr_key;   /* per entry: its line while valid, MW_MSHR_NO_LINE when free; a dense copy for
                           * lookups, which would otherwise stride over the entries' large waiter arrays */
    int mshr_used;
    struct mw_req_fifo missq;
    struct mw_tracker *trk;
    uint32_t trk_free, trk_cap;
    struct mw_sm_stats st;
    struct mw_l1d_stats l1st;
    uint64_t next_ready;  /* earliest cycle any warp may issue, from the last scan */
    bool busy;            /* did anything this cycle */
    /* An SM that did nothing and can do nothing on its own before core cycle `sleep_until` is not ticked until
     * then, unless a reply, a CTA launch or an L1D flush wakes it; `slept` counts the cycles it skipped (or a
     * whole-GPU clock jump skipped), which mw_sm_settle accounts exactly as the last evaluated cycle before the
     * SM changes or its stats are read. */
    uint64_t sleep_until, slept;
};

/* ---- interconnect ---------------------------------------------------------------------------------------- */
struct mw_xbar {
    int nsrc, ndst;
    int flit, latency, credits_init;
    uint64_t period_fs;          /* interconnect clock period: arrival times are kept in fs */
    struct mw_req_fifo *inq;     /* per source */
    struct mw_req_fifo *arrive;  /* per destination, in arrival order; req->t_ready = arrival time (fs) */
    uint64_t *src_busy, *dst_busy;
    int *credits;                /* per destination, flits */
    int rr;
    int queued;                  /* packets waiting in inq */
    uint64_t *waiting;           /* bit per source: its inq is not empty */
    int inflight;
    struct mw_icnt_stats st;
};

/* ---- L2 slice and memory partition ------------------------------------------------------------------------ */
struct mw_l2mshr {             /* free, and its line, per mw_l2.mshr_key */
    uint16_t nwait;
    struct mw_req *wait_head, *wait_tail; /* merged requests (linked via next) */
    uint16_t first_sm;
    uint64_t age_sum;
    uint8_t sectors;        /* sectors being fetched */
    struct mw_req *dram_req;/* the read in flight to DRAM (its merge/age fields are kept current) */
};

struct mw_l2 {
    int id, partition;
    struct mw_tags tags;
    struct mw_req_fifo pipe;    /* lookup pipeline; req->t_ready = time (fs) it reaches the tags */
    struct mw_l2mshr *mshr;
    uint64_t *mshr_key;         /* per entry: its line while in use, MW_MSHR_NO_LINE when free */
    int mshr_used;
    struct mw_req_fifo missq;   /* toward DRAM (reads and writebacks) */
    struct mw_req_fifo to_dram; /* L2->DRAM latency pipe */
    struct mw_req_fifo from_dram;/* DRAM->L2 latency pipe */
    struct mw_req_fifo replies; /* waiting for the reply network */
    struct mw_l2_stats st;
    uint64_t wake_fs;           /* not ticked before this time unless a request arrives or DRAM data is queued */
};

/* ---- the simulation ---------------------------------------------------------------------------------------- */
struct mw_clock {
    uint64_t period_fs, next_fs, cycle;
};
enum { MW_CLK_CORE = 0, MW_CLK_ICNT, MW_CLK_L2, MW_CLK_DRAM, MW_CLK_N };

struct mw_gpu_stats {
    uint64_t kernels, ctas;
};

struct mw_sim {
    struct mw_config cfg;
    struct mw_workload wl;
    bool have_wl, started, done, kernel_active, wl_done, failed;
    volatile int interrupt;
    struct mw_err fail_err;
    struct mw_kernel kern;
    uint32_t next_cta, kernel_ctas, ctas_done;
    uint64_t warp_seq;
    struct mw_policy_inst pol[MW_PT_COUNT];
    uint32_t ev_mask;
    uint64_t window, next_window;
    struct mw_clock clk[MW_CLK_N];
    uint64_t now_fs;
    struct mw_req_pool pool;
    struct mw_sm *sms;
    int nsms;
    struct mw_xbar req_net, reply_net;
    struct mw_l2 *l2;
    int nslices;
    struct mw_dram **dram;
    uint64_t *dram_wake;         /* per channel: DRAM cycle before which it has nothing to do unless offered a request */
    int nparts;
    struct mw_gpu_stats gst;
    uint64_t kernel_start_cycle;
    /* derived constants */
    int l1_sets, l1_line_shift;
    uint32_t cta_order_rr;
    mw_progress_fn progress;
    void *progress_ud;
    int progress_ms;
};

/* units */
int mw_tags_init(struct mw_tags *t, int sets, int assoc, int line_bytes, size_t meta_bytes);
void mw_tags_fini(struct mw_tags *t);
static inline struct mw_line *mw_tags_line(struct mw_tags *t, int set, int way) { return &t->lines[set * t->assoc + way]; }
#define MW_NO_TAG UINT64_MAX
/* Way `way` of `set` now holds `line` (used), or is emptied (all of its state cleared). */
static inline void mw_tags_take(struct mw_tags *t, int set, int way, uint64_t line)
{
    struct mw_line *l = mw_tags_line(t, set, way);
    l->used = 1;
    l->tag = line;
    t->keys[set * t->assoc + way] = line;
}
static inline void mw_tags_clear(struct mw_tags *t, int set, int way)
{
    memset(mw_tags_line(t, set, way), 0, sizeof(struct mw_line));
    t->keys[set * t->assoc + way] = MW_NO_TAG;
}
int mw_tags_find(const struct mw_tags *t, int set, uint64_t line); /* way or -1 */

int mw_sm_init(struct mw_sim *s, struct mw_sm *sm, int id, struct mw_err *e);
void mw_sm_fini(struct mw_sm *sm);
void mw_sm_cycle(struct mw_sim *s, struct mw_sm *sm);
bool mw_sm_can_take_cta(struct mw_sim *s, struct mw_sm *sm);
int mw_sm_launch_cta(struct mw_sim *s, struct mw_sm *sm, uint32_t cta, struct mw_err *e);
void mw_sm_reply(struct mw_sim *s, struct mw_sm *sm, struct mw_req *r);
void mw_sm_jump(struct mw_sim *s, struct mw_sm *sm, uint64_t cycles);
/* Account the cycles a sleeping SM skipped (mw_sm_settle), or that and end its sleep (mw_sm_wake). */
static inline void mw_sm_settle(struct mw_sim *s, struct mw_sm *sm)
{
    if (sm->slept) {
        mw_sm_jump(s, sm, sm->slept);
        sm->slept = 0;
    }
}
static inline void mw_sm_wake(struct mw_sim *s, struct mw_sm *sm)
{
    mw_sm_settle(s, sm);
    sm->sleep_until = 0;
}
void mw_sm_warp_mem_done(struct mw_sim *s, struct mw_sm *sm, int w);
void mw_sm_wake_all(struct mw_sm *sm);
int mw_ldst_init(struct mw_sim *s, struct mw_sm *sm, struct mw_err *e);
void mw_ldst_fini(struct mw_sm *sm);

/* ldst.c */
void mw_ldst_cycle(struct mw_sim *s, struct mw_sm *sm);
bool mw_ldst_can_accept(struct mw_sim *s, struct mw_sm *sm, const struct mw_inst *in);
void mw_ldst_issue(struct mw_sim *s, struct mw_sm *sm, int w, const struct mw_inst *in);
int mw_coalesce(const struct mw_sim *s, const struct mw_inst *in, struct mw_coal_req *out);
bool mw_ldst_idle(const struct mw_sm *sm);
bool mw_ldst_waits(const struct mw_sm *sm);
void mw_ldst_jump(struct mw_sm *sm, uint64_t cycles);

/* Cross-domain hand-offs carry absolute times in femtoseconds (req->t_ready); a consumer takes an item once
 * s->now_fs has reached it, whatever its own clock. */
int mw_xbar_init(struct mw_xbar *x, int nsrc, int ndst, const struct mw_config *c, uint64_t period_fs);
void mw_xbar_fini(struct mw_xbar *x);
static inline bool mw_xbar_can_inject(const struct mw_xbar *x, int src) { return !mw_fifo_full(&x->inq[src]); }
void mw_xbar_inject(struct mw_xbar *x, int src, struct mw_req *r, int dst, int bytes);
void mw_xbar_cycle(struct mw_xbar *x, uint64_t now);
/* The packet at the head of dst's arrivals if it has arrived by now_fs, else NULL. */
static inline struct mw_req *mw_xbar_peek(struct mw_xbar *x, int dst, uint64_t now_fs)
{
    return x->arrive[dst].head_ready <= now_fs ? x->arrive[dst].head : NULL;
}
struct mw_req *mw_xbar_pop(struct mw_xbar *x, int dst);
uint64_t mw_xbar_next_event(const struct mw_xbar *x, uint64_t now, uint64_t now_fs); /* fs */

int mw_l2_init(struct mw_sim *s, struct mw_l2 *l2, int id, struct mw_err *e);
void mw_l2_fini(struct mw_sim *s, struct mw_l2 *l2);
void mw_l2_cycle(struct mw_sim *s, struct mw_l2 *l2, uint64_t now);
uint64_t mw_l2_next_event(const struct mw_sim *s, const struct mw_l2 *l2); /* fs */
bool mw_l2_idle(const struct mw_l2 *l2);

/* address mapping */
int mw_addr_slice(const struct mw_sim *s, uint64_t addr);
uint64_t mw_addr_local(const struct mw_sim *s, uint64_t addr);      /* partition-local (DRAM) address */
uint64_t mw_addr_slice_local(const struct mw_sim *s, uint64_t addr);/* slice-local (L2 set index) address */

/* events */
void mw_emit(struct mw_sim *s, const struct mw_event *ev);
static inline bool mw_wants(const struct mw_sim *s, int kind) { return (s->ev_mask >> kind) & 1u; }

static inline uint64_t mw_core_now(const struct mw_sim *s) { return s->clk[MW_CLK_CORE].cycle; }

#endif
