/* The LDST unit of one SM: the memory instructions it holds (one slot in the baseline, more under an LDST
 * scheduling policy), their coalesced requests offered to the L1D one per cycle, the parking of a request that
 * failed for want of a line or an MSHR, and the trackers that complete a load when all its requests are back.
 * It calls downstream only (coalescer, L1D): what completes is left in an outbox the SM applies to its warps. */
#ifndef MW_LDST_H
#define MW_LDST_H

#include "coalescer.h"
#include "l1d.h"
#include "mem_req.h"
#include "policy.h"
#include "simctx.h"
#include "sm_stats.h"
#include "workload.h"

/* A load instruction in flight: its destination registers become readable when every request is back. */
struct mw_tracker {
    uint16_t warp;
    uint8_t ndst, live;
    uint16_t dst[MW_INST_MAX_DST];
    int outstanding;
    uint64_t ready;       /* latest data arrival so far */
    uint32_t next_free;
    uint8_t cls;          /* 2 divergent (> 2 requests), 1 coherent, 0 neither (atomics, no lane) */
    uint64_t issued, mshr_wait; /* issue cycle; cycles its requests waited for an MSHR (occlusion) */
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
    struct mw_coal_req reqs[MW_WARP_SIZE * 2];
    uint8_t verdict[MW_WARP_SIZE * 2];
    uint8_t rflags[MW_WARP_SIZE * 2];
    uint64_t inst;        /* the instruction's id */
    uint32_t misses;
    uint64_t sets_seen[4];
};

/* Something the SM must apply to a warp: a load's registers are ready, or a store request was acknowledged. */
struct mw_ldst_done {
    uint16_t warp;
    uint8_t store;        /* 1 = one store request acknowledged */
    uint8_t ndst;
    uint16_t dst[MW_INST_MAX_DST];
    uint64_t ready;       /* loads: the cycle the registers become readable */
};

/* An access waiting in the re-execution queue (ldst_sched_ops.rexq): what replaying it into L1D needs. */
struct mw_rexq_entry {
    struct mw_coal_req req;
    uint64_t pc, inst, parked_at;
    uint32_t tracker;
    uint16_t warp;
    uint8_t op, flags, verdict, rflags, cause, hooked;
};

struct mw_ldst {
    int sm;
    struct mw_sm_stats *st;  /* the SM's counters (sm.i.ldst_*, memory instruction counts, load latency) */
    struct mw_l1d *l1;
    struct mw_coalescer co;
    struct mw_ldst_slot *slots;
    int nslots, slots_used;
    uint64_t free_at;        /* shared-memory / constant ops occupy the unit until then */
    /* The head request's last attempt failed for want of a line or an MSHR entry without consulting any policy
     * hook (that stall cause, else 0): retrying gives the same failure until a reply, a flush or a new
     * instruction clears it, so retries only count the stall and the clock may jump over them. */
    int parked;
    int park_set;            /* the L1D set of the parked request: only a fill there (or a freed MSHR) can change its fate */
    struct mw_tracker *trk;
    uint32_t trk_free, trk_cap;
    struct mw_ldst_done *done; /* outbox, drained by the SM after each call into this unit */
    int ndone, done_cap;
    bool slot_freed;         /* a slot was freed since the SM last looked: every scheduler may look again */
    /* the re-execution queue (rexq_cap 0 = none): a ring of rexq_n entries from rexq_head; rexq_ready when what
     * its head waits for may have changed (a fill of its set, a freed MSHR, a flush); rexq_blocked when the
     * head request failed and could not be parked (the stall counts as rexq_full_stalls) */
    struct mw_rexq_entry *rexq;
    int rexq_cap, rexq_head, rexq_n;
    bool rexq_ready, rexq_first, rexq_blocked;
};

int mw_ldst_init(struct mw_sim *s, struct mw_ldst *u, int sm, int nwarps, struct mw_sm_stats *st, struct mw_l1d *l1,
                 struct mw_err *e);
void mw_ldst_fini(struct mw_ldst *u);

static inline bool mw_ldst_can_accept(const struct mw_ldst *u, uint64_t now)
{
    return u->free_at <= now && u->slots_used < u->nslots;
}
/* What issuing a memory instruction did, for the SM's scoreboard. */
struct mw_ldst_issued {
    int nreq;             /* requests made (global/local/atomic) */
    int latency;          /* shared/constant/fence: registers ready after this many cycles; else -1 */
    bool load;            /* destination registers wait for the data (outbox) */
    bool store;           /* nreq store requests are outstanding until acknowledged (outbox) */
};
struct mw_ldst_issued mw_ldst_issue(struct mw_sim *s, struct mw_ldst *u, int w, const struct mw_inst *in);
/* One core cycle: the chosen instruction's head request goes to L1D; the miss queue drains. True if it did
 * anything. */
bool mw_ldst_cycle(struct mw_sim *s, struct mw_ldst *u);
/* A reply from the network: a write acknowledgement, bypassed data, or an L1D fill. */
void mw_ldst_reply(struct mw_sim *s, struct mw_ldst *u, struct mw_req *r);
static inline bool mw_ldst_idle(const struct mw_ldst *u)
{
    return u->slots_used == 0 && u->l1->missq.n == 0 && u->l1->injq.n == 0 && u->rexq_n == 0;
}
/* The re-execution queue's head may be replayed now. */
static inline bool mw_ldst_rexq_due(const struct mw_ldst *u)
{
    if (!u->rexq_n) return false;
    const struct mw_rexq_entry *h = &u->rexq[u->rexq_head];
    return u->rexq_ready || h->hooked || (h->cause == MW_STALL_MISS_QUEUE &&
                                                 u->l1->missq.n + (h->op == MW_OP_ST_GLOBAL || h->op == MW_OP_ST_LOCAL ? 0 : 1) <
                                                     u->l1->missq.cap);
}
/* Nothing to do before an event elsewhere (a reply) changes the L1D: idle, or parked with the miss queue empty. */
static inline bool mw_ldst_waits(const struct mw_ldst *u)
{
    return u->l1->missq.n == 0 && u->l1->injq.n == 0 && (u->slots_used == 0 || u->parked) && !mw_ldst_rexq_due(u);
}
/* The clock skipped `cycles` core cycles of an LDST unit that waits: each was a failed retry. */
void mw_ldst_jump(struct mw_ldst *u, uint64_t cycles);
/* sim.h's mw_ldst_heads for this unit. */
struct mw_ldst_head;
int mw_ldst_unit_heads(const struct mw_ldst *u, struct mw_ldst_head *out, int max);

#endif
