/* Crossbar between SMs and L2 slices (one instance for requests, one for replies): per-source injection
 * queues, one flit per cycle per source and per destination port, a rotating-priority allocator, a fixed
 * traversal latency, and credit-based back-pressure on each destination's input buffer. Cross-domain
 * hand-offs carry absolute times in femtoseconds (req->t_ready); a consumer takes an item once the simulation's
 * time has reached it, whatever its own clock. */
#ifndef MW_ICNT_H
#define MW_ICNT_H

#include "config.h"
#include "mem_req.h"
#include "stats.h"

#define MW_ICNT_STATS(X)                                                                                  \
    X(packets, "packets delivered", "packet", SUM)                                                       \
    X(flits, "flits delivered", "flit", SUM)
MW_STATS_DECLARE(icnt, MW_ICNT_STATS)

struct mw_xbar {
    int nsrc, ndst;
    int flit, latency, credits_init;
    int inject_flits;            /* per source: flits that may wait in inq (0 = no limit but the packet count) */
    int *qflits;                 /* per source: flits waiting in inq */
    uint64_t period_fs;          /* interconnect clock period: arrival times are kept in fs */
    struct mw_req_fifo *inq;     /* per source */
    struct mw_req_fifo *arrive;  /* per destination, in arrival order; req->t_ready = arrival time (fs) */
    uint64_t *src_busy, *dst_busy;
    int *credits;                /* per destination, flits */
    int rr;
    int queued;                  /* packets waiting in inq */
    uint64_t *waiting;           /* bit per source: its inq is not empty */
    uint64_t *arrived;           /* bit per destination: its arrivals are not empty (delivered without polling all) */
    int inflight;
    uint64_t grant_due;          /* icnt cycle before which no waiting packet can be granted (0: look each cycle) */
    uint64_t *arrival_due;       /* optional (the consumer's): lowered to each granted packet's arrival time (fs) */
    uint64_t *src_wake, *src_due;/* optional (the sources'): zeroed when a packet leaves source i's queue (room) */
    uint64_t *dst_wake;          /* optional (the consumers'): lowered to destination i's arrival head time (fs) */
    struct mw_icnt_stats st;
};

int mw_xbar_init(struct mw_xbar *x, int nsrc, int ndst, const struct mw_config *c, uint64_t period_fs);
void mw_xbar_fini(struct mw_xbar *x);
/* May a packet of `bytes` enter source src's injection queue now? */
static inline bool mw_xbar_can_inject(const struct mw_xbar *x, int src, int bytes)
{
    if (mw_fifo_full(&x->inq[src])) return false;
    if (!x->inject_flits) return true;
    int fl = bytes <= 0 ? 1 : (bytes + x->flit - 1) / x->flit;
    return x->qflits[src] + fl <= x->inject_flits;
}
void mw_xbar_inject(struct mw_xbar *x, int src, struct mw_req *r, int dst, int bytes);
/* One crossbar cycle: grants, in rotating priority. Returns whether it had to look at the sources (false: no
 * packet waits, or none can be granted before grant_due, which only an injection or a pop brings forward). */
bool mw_xbar_cycle(struct mw_xbar *x, uint64_t now);
/* The packet at the head of dst's arrivals if it has arrived by now_fs, else NULL. */
static inline struct mw_req *mw_xbar_peek(struct mw_xbar *x, int dst, uint64_t now_fs)
{
    return x->arrive[dst].head_ready <= now_fs ? x->arrive[dst].head : NULL;
}
struct mw_req *mw_xbar_pop(struct mw_xbar *x, int dst);
uint64_t mw_xbar_next_event(const struct mw_xbar *x, uint64_t now, uint64_t now_fs); /* fs */
/* Packets waiting for injection at a source (a fact for policies). */
static inline int mw_xbar_queued_at(const struct mw_xbar *x, int src) { return x->inq[src].n; }

#endif
