/* The SM: CTA residency, warps with their instruction buffers and register scoreboard, the warp schedulers
 * (warp w -> scheduler w % N, each asking the warp-scheduling decision point), the ALU/SFU/DP/tensor pipes,
 * barriers, warp and CTA completion, and its LDST unit (engine/ldst.h). It sleeps while it can do nothing. */
#ifndef MW_SM_H
#define MW_SM_H

#include "ldst.h"
#include "simctx.h"
#include "sm_stats.h"
#include "workload.h"

#include <string.h>

enum mw_warp_state { MW_W_FREE = 0, MW_W_ACTIVE, MW_W_BARRIER, MW_W_EXITED };

struct mw_warp {
    uint8_t state;
    uint8_t stream_done;  /* workload has no more instructions */
    uint8_t ib_head, ib_n;   /* decoded instructions: ib[ib_head .. ib_head + ib_n) */
    uint8_t ib_look;         /* with an L1I: 1 if the next instruction (fetched from the workload to learn its PC, not
                              * yet decoded) follows them */
    uint8_t imiss;           /* with an L1I: waiting for its code line */
    uint8_t out;             /* the stall reason it is out of its scheduler's scan for, 0 = in it (engine/sm.c) */
    uint16_t cta_slot;
    uint32_t warp_in_cta;
    uint64_t age;         /* global launch sequence */
    uint64_t wake;        /* head instruction cannot issue before this cycle (registers) */
    uint32_t pending_loads, pending_stores;
    uint64_t insts;
    /* the scheduling policy's remembered qualify verdict for the head instruction (0 none, 1 yes, 2 no) and
     * what it was given under (engine/sm.c qualified()) */
    uint8_t qv;
    uint8_t age_rank;     /* active: how many of the SM's active warps are older (mw_warp_age_rank) */
    uint8_t hv;           /* the head's registers were found ready (they stay so until the head changes: one writer
                           * per register in flight, as issue checks destinations too) */
    uint64_t q_mshr, q_issue, q_recheck, q_until;
    /* the cold part, in the SM's arrays (so that a scan over warps touches only the fields above): a ready cycle
     * per register, and the instruction ring of ib_cap slots (index & ib_mask) */
    uint64_t *reg_ready;
    struct mw_inst *ib;
};

struct mw_wait_heap {
    struct { uint64_t t; int w; } *v;
    int n, cap;
};

struct mw_cta_slot {
    bool valid;
    uint32_t cta_id;      /* linear id in the kernel */
    uint32_t nwarps, warps_exited, warps_at_barrier;
    uint32_t first_warp;  /* SM-local id of its first warp */
    void *stream;         /* workload's CTA state */
    uint32_t regs, threads, shmem;
    bool inactive;        /* deactivated by a policy (mw_cta_deactivate): its warps are not scheduled */
};

struct mw_sm {
    int id;
    struct mw_warp *warps;
    int nwarps;           /* slots */
    uint64_t *regs;       /* nwarps x MW_REG_COUNT: the warps' reg_ready rows */
    struct mw_inst *ibs;  /* nwarps x ib_cap: the warps' instruction rings */
    int ib_mask;          /* ib_cap - 1; ib_cap is a power of two above sm.ibuffer_size (decoded + look-ahead) */
    struct mw_cta_slot *ctas;
    int resident_ctas, resident_warps, resident_threads;
    int n_ranked;                /* active warps (launched, not exited): the next launched warp's age rank */
    int64_t free_regs, free_shmem;
    uint16_t **sched_warps; int *sched_nwarps; /* static warp -> scheduler split */
    uint64_t *live;       /* per scheduler, live_words words: bit i set while warp sched_warps[k][i] is active or at a barrier */
    /* live warps that cannot issue until an event changes them, kept out of the scan: a head waiting on its
     * registers (until its wake time: a heap per scheduler, entries whose warp stopped waiting dropped when met,
     * or a load's return), a barrier (its release), a busy LD/ST unit (it accepting again). Per scheduler the
     * same bit layout as live, and how many are out for each stall reason (n_out[k * R_COUNT + r], engine/sm.c). */
    uint64_t *waiting;
    uint64_t *ldst_out;   /* the waiting warps held only by a busy LD/ST unit (their heads are memory instructions
                           * with ready registers): all rejoin once it accepts again */
    int *n_out;
    struct mw_wait_heap *wheap;
    int live_words;
    int nsched;
    uint64_t *sp_free, *sfu_free, *dp_free, *tensor_free; /* per pipe: next cycle it accepts */
    struct { uint64_t *p; int n, lat, ii; } op_pipe[MW_OP_COUNT]; /* per op: its pipes (NULL: none), latency and
                                                                   * initiation interval (engine/sm.c op_pipes) */
    int last_stall[16];   /* per scheduler: reason of the last evaluated cycle, for clock jumps */
    int last_ldst_wait[16]; /* per scheduler: warps held only by a busy LDST unit in its last scan */
    /* A scheduler that found no ready warp sleeps until the earliest known wake-up (register ready, pipe
     * free) unless something wakes it first (data back, barrier release, LDST slot freed, CTA launch). */
    uint64_t sched_sleep[16];
    bool sched_dirty[16]; /* (read as two 8-byte words by mw_sm_dirty) */
    struct mw_ldst ldst;
    /* the fetch stage (with an L1I; NULL: perfect fetch): one warp per cycle, round robin after the last fetched,
     * probes the L1I; a hit fills the fetch buffer, decoded into the warp's instruction buffer the next cycle */
    struct mw_l1i *l1i;
    int fb_warp;          /* warp in the fetch buffer, -1 none */
    uint64_t fetchable[4];/* bit w: warp w may fetch (resident, buffer empty, not waiting for a line or decode) */
    int last_fetched;
    bool fetch_busy;      /* the fetch stage has something to do next cycle */
    struct mw_sm_stats st;
    uint64_t next_ready;  /* earliest cycle any warp may issue, from the last scan */
    bool busy;            /* did anything this cycle */
    /* An SM that did nothing and can do nothing on its own before core cycle `sleep_until` is not evaluated until
     * then, unless a reply, a CTA launch or an L1D flush wakes it. `acct` is the first core cycle its counters do
     * not cover yet: cycles it was not evaluated (asleep, or the whole GPU's clock jumped) are accounted as its
     * last evaluated cycle when it next changes or its stats are read (mw_sm_settle), so a sleeping SM costs
     * nothing per cycle. */
    uint64_t sleep_until, acct;
    /* qualify caching (engine/sm.c qualified()) */
    uint64_t issue_epoch, recheck_epoch, recheck_at;
    int qualifying;       /* the warp whose qualify is being asked, else -1 */
};

int mw_sm_init(struct mw_sim *s, struct mw_sm *sm, int id, struct mw_l1d *l1, struct mw_l1i *l1i, struct mw_err *e);
void mw_sm_fini(struct mw_sm *sm);

/* Registers a CTA of kernel k takes (allocated per warp in reg_alloc_unit chunks, as GPGPU-Sim does). */
uint64_t mw_cta_regs(const struct mw_config *c, const struct mw_kernel *k);
bool mw_sm_can_take_cta(struct mw_sim *s, struct mw_sm *sm);
int mw_sm_launch_cta(struct mw_sim *s, struct mw_sm *sm, uint32_t cta, struct mw_err *e);

/* One core cycle of a (possibly sleeping) SM: returns whether it did anything. */
bool mw_sm_tick_awake(struct mw_sim *s, struct mw_sm *sm, uint64_t now);
static inline bool mw_sm_tick(struct mw_sim *s, struct mw_sm *sm, uint64_t now)
{
    if (now < sm->sleep_until) return false;
    return mw_sm_tick_awake(s, sm, now);
}
/* A packet of the reply network reached the SM; a sleeping SM wakes only if it unblocks something. */
void mw_sm_deliver(struct mw_sim *s, struct mw_sm *sm, struct mw_req *r);
/* Something woke a scheduler since its last scan (data back, a barrier released, a policy action). */
static inline bool mw_sm_dirty(const struct mw_sm *sm)
{
    /* (the flags past nsched are never set: all 16 are read as two words) */
    uint64_t d[2];
    memcpy(d, sm->sched_dirty, sizeof d);
    return (d[0] | d[1]) != 0;
}
/* Earliest core cycle the SM can act on its own (now if it has work this cycle). */
static inline uint64_t mw_sm_next_event(const struct mw_sm *sm, uint64_t now)
{
    if (!mw_ldst_waits(&sm->ldst) || sm->ldst.free_at > now || mw_sm_dirty(sm) || sm->fetch_busy) return now;
    return sm->next_ready;
}
/* Account the cycles a sleeping SM skipped (as its last evaluated cycle), and optionally end its sleep. */
void mw_sm_settle(struct mw_sim *s, struct mw_sm *sm);
void mw_sm_wake(struct mw_sim *s, struct mw_sm *sm);
/* Close the CTAs still resident (the simulation ends early). */
void mw_sm_close_ctas(struct mw_sim *s, struct mw_sm *sm);

#endif
