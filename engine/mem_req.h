/* A memory request as it travels SM -> L1D -> interconnect -> L2 slice -> DRAM and back.
 * Requests come from a pool owned by the simulation: no allocation per request on the hot path. */
#ifndef MW_MEM_REQ_H
#define MW_MEM_REQ_H

#include "common.h"

enum mw_req_kind {
    MW_REQ_READ = 0,
    MW_REQ_WRITE = 1,
    MW_REQ_MIB = 2, /* Li's dummy request (l2.merge_info = mib): merge information for a read, never queued */
};
/* Where the controller's merge information for a read stands (l2.merge_info = mib; engine/dram.h). */
enum { MW_MIB_NONE = 0, MW_MIB_EARLY, MW_MIB_QUEUED, MW_MIB_DONE };

enum mw_req_flags {
    MW_RQ_BYPASS_L1 = 1u << 0, /* does not allocate in L1D; reply goes straight to the waiting instruction */
    MW_RQ_REPLY = 1u << 1,     /* travelling back (read data or write ack) */
    MW_RQ_L2_FILL = 1u << 2,   /* a DRAM read issued by an L2 miss (carries the L2 MSHR entry) */
    MW_RQ_WRITEBACK = 1u << 3, /* L2 dirty eviction going to DRAM; no reply */
    MW_RQ_ATOMIC = 1u << 4,    /* performed at L2: read-modify-write, data returned */
    MW_RQ_INJECTED = 1u << 5,  /* made by a policy (mw_inject): nobody waits for it; inst = the policy's tag */
    MW_RQ_INST = 1u << 6,      /* a code line for the L1 instruction cache */
    MW_RQ_SECTOR = 1u << 7,    /* one sector of a sectored L2's split request; owner = the request it is part of */
};

struct mw_req {
    uint64_t addr;      /* global byte address, aligned to the line for reads */
    uint32_t size;      /* bytes of data moved */
    uint8_t kind;       /* enum mw_req_kind */
    uint8_t flags;      /* enum mw_req_flags */
    uint8_t sectors;    /* 32-byte sectors of the line wanted (bit i = bytes 32i..32i+31) */
    uint8_t flits;      /* interconnect packet size, set at injection */
    uint16_t sm;        /* issuing SM */
    uint16_t warp;      /* issuing warp (SM-local) */
    uint16_t slice;     /* L2 slice (global index) */
    uint16_t partition; /* memory partition = DRAM channel */
    uint16_t port;      /* interconnect destination port while queued for injection */
    uint8_t parts;      /* sectored L2: sector lookups of this request not yet answered */
    uint32_t inst;      /* LDST instruction slot waiting for the reply (bypassed loads) */
    uint64_t pc;
    uint64_t t_create;  /* core cycle the SM created it (ages, latency stats) */
    uint64_t t_ready;   /* cycle (of the unit holding it) it may leave its current queue or pipe */
    /* DRAM side */
    uint64_t dram_addr; /* partition-local address */
    uint64_t t_dram_enq;/* DRAM cycle it entered the controller queue */
    uint32_t merge;     /* L2 MSHR merge length at send time (>= 1) (Li's policy) */
    uint64_t age_sum;   /* sum of core-cycle ages of the merged requests (Li's MSHR-S+A) */
    uint32_t id;        /* sequence number, for deterministic tie-breaks and debugging */
    /* the DRAM controller's merge information (l2.merge_info = mib; a dummy: merge / age_sum are what it carries,
     * owner the L2 MSHR entry, inst the id of the read it is about) */
    uint8_t mib_state;  /* MW_MIB_* */
    uint32_t mib_merge; /* merge length last received */
    uint64_t mib_age;   /* Age_MSHR at mib_t, DRAM cycles */
    uint64_t mib_t;     /* DRAM cycle of the last update */
    /* latency breakdown stamps, core cycles (0 = not reached). A load's L1 miss request: [0] enters the request
     * network, [1] its last flit reaches the L2 slice, [2] the slice's pipe takes it, [3] its lookup (the last
     * one tried), [4] its data is ready at the L2, [5] it enters the reply network. An L2 fill (MW_RQ_L2_FILL):
     * [3] the miss, [0] leaves the miss queue, [1] enters the DRAM controller, [2] the controller is done with it. */
    uint64_t t_seg[6];
    void *owner;        /* the unit waiting for it (L2 MSHR entry, ...) */
    struct mw_req *next;/* intrusive link for queues and the free list */
};

struct mw_req_pool {
    struct mw_req *free;
    void **chunks;
    int nchunks, capchunks;
    uint32_t next_id;
    uint64_t live;
};

void mw_req_pool_init(struct mw_req_pool *p);
void mw_req_pool_fini(struct mw_req_pool *p);
/* Zeroed request with a fresh id; NULL only when memory is exhausted. */
struct mw_req *mw_req_alloc(struct mw_req_pool *p);
void mw_req_free(struct mw_req_pool *p, struct mw_req *r);
/* Free a list linked through ->next (a unit's queues when the simulation is destroyed). */
void mw_req_free_list(struct mw_req_pool *p, struct mw_req *r);
/* A request for `sectors` (32 B each) of the line at `line`, of kind MW_REQ_READ / MW_REQ_WRITE, its size the
 * sectors' bytes; the caller fills in who made it. NULL only when memory is exhausted. */
struct mw_req *mw_req_new(struct mw_req_pool *p, uint64_t line, uint8_t sectors, int kind);

/* FIFO of requests linked through ->next, with a capacity. head_ready is the head's t_ready as it was when the
 * head got there (MW_NEVER when empty): asking whether the head is due reads no request. Every unit sets t_ready
 * before it pushes. */
struct mw_req_fifo {
    struct mw_req *head, *tail;
    uint64_t head_ready;
    int n, cap;
};
static inline void mw_fifo_init(struct mw_req_fifo *f, int cap)
{
    f->head = f->tail = NULL;
    f->head_ready = MW_NEVER;
    f->n = 0;
    f->cap = cap;
}
static inline bool mw_fifo_full(const struct mw_req_fifo *f) { return f->n >= f->cap; }
static inline void mw_fifo_push(struct mw_req_fifo *f, struct mw_req *r)
{
    r->next = NULL;
    if (f->tail) {
        f->tail->next = r;
    } else {
        f->head = r;
        f->head_ready = r->t_ready;
    }
    f->tail = r;
    f->n++;
}
static inline void mw_fifo_push_front(struct mw_req_fifo *f, struct mw_req *r)
{
    r->next = f->head;
    f->head = r;
    f->head_ready = r->t_ready;
    if (!f->tail) f->tail = r;
    f->n++;
}
static inline struct mw_req *mw_fifo_pop(struct mw_req_fifo *f)
{
    struct mw_req *r = f->head;
    if (r) {
        f->head = r->next;
        f->head_ready = f->head ? f->head->t_ready : MW_NEVER;
        if (!f->head) f->tail = NULL;
        f->n--;
        r->next = NULL;
    }
    return r;
}

#endif
