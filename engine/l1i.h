/* The L1 instruction cache of one SM (GPGPU-Sim's read-only il1): tags with LRU replacement, allocate on fill,
 * MSHRs that merge fetches of warps waiting for the same code line, and a miss queue toward the interconnect.
 * Misses travel as line reads (MW_RQ_INST) to the L2 and DRAM, competing with data. A filled line releases its
 * waiting warps to the fetch stage one per cycle (engine/fetch.c). It calls no unit upstream. */
#ifndef MW_L1I_H
#define MW_L1I_H

#include "mem_req.h"
#include "simctx.h"
#include "stats.h"
#include "tags.h"

#define MW_L1I_STATS(X)                                                                                   \
    X(accesses, "fetches that probed the L1I (hits + misses + pending hits)", "fetch", SUM)             \
    X(hits, "fetches that found their line", "fetch", SUM)                                               \
    X(misses, "fetches that sent a line request", "fetch", SUM)                                          \
    X(pending_hits, "fetches merged into a line already requested", "fetch", SUM)                        \
    X(reservation_fails, "fetches that found no MSHR entry, merge slot or miss-queue room", "attempt", SUM) \
    X(fills, "lines filled", "line", SUM)
MW_STATS_DECLARE(l1i, MW_L1I_STATS)

enum { MW_L1I_HIT = 0, MW_L1I_MISS, MW_L1I_FAIL };

struct mw_l1i_mshr {
    uint64_t line;   /* MW_NO_TAG when free */
    int nwait;
    uint16_t *waiters;
};

struct mw_l1i {
    int sm;
    struct mw_tags tags;
    int line_shift;
    struct mw_l1i_mshr *mshr;
    int nmshr, max_merge;
    struct mw_req_fifo missq;
    uint16_t *ready;      /* warps whose line arrived, released to the fetch stage in order (a ring) */
    int ready_head, ready_n, ready_cap;
    struct mw_l1i_stats st;
};

int mw_l1i_init(struct mw_sim *s, struct mw_l1i *c, int sm, struct mw_err *e);
void mw_l1i_fini(struct mw_sim *s, struct mw_l1i *c);
/* Fetch the code line holding `addr` for warp `warp`: a hit, a miss (sent or merged: the warp waits for the
 * line), or a reservation failure (no MSHR entry, merge slot or miss-queue room: nothing happened). */
int mw_l1i_access(struct mw_sim *s, struct mw_l1i *c, uint64_t addr, int warp);
/* The miss queue's head enters the request network if it can (one per cycle). True if one left. */
bool mw_l1i_drain(struct mw_sim *s, struct mw_l1i *c);
/* A code line came back: install it (LRU victim) and queue its waiting warps for release. */
void mw_l1i_fill(struct mw_sim *s, struct mw_l1i *c, struct mw_req *r);
/* The next warp whose line arrived, or -1. */
static inline int mw_l1i_pop_ready(struct mw_l1i *c)
{
    if (!c->ready_n) return -1;
    int w = c->ready[c->ready_head];
    c->ready_head = c->ready_head + 1 == c->ready_cap ? 0 : c->ready_head + 1;
    c->ready_n--;
    return w;
}
static inline bool mw_l1i_has_work(const struct mw_l1i *c) { return c->ready_n > 0 || c->missq.n > 0; }

#endif
