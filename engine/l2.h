/* An L2 slice (GPGPU-Sim memory sub-partition): a fixed-latency lookup pipe fed by the request network, tags
 * with sector valid/dirty bits (write-back, write-allocate without fetch), victims chosen by the L2's own
 * replacement policy instance, MSHRs that count how many requests merged into each entry and from which SMs
 * (Li's inter-core locality), a miss queue toward DRAM and a reply queue into the reply network. The pipes to
 * and from DRAM belong to the memory partition (engine/partition.h). Runs in the L2 clock. */
#ifndef MW_L2_H
#define MW_L2_H

#include "icnt.h"
#include "mem_req.h"
#include "simctx.h"
#include "slotmap.h"
#include "stats.h"
#include "tags.h"

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
    X(fills, "lines filled from DRAM", "line", SUM)                                                      \
    X(sector_splits, "requests split into per-sector lookups (l2.sectored)", "req", SUM)               \
    X(gpgpusim_accesses, "GPGPU-Sim accounting: hits + misses + pending hits (per sector when sectored)", "req", SUM) \
    X(gpgpusim_misses, "GPGPU-Sim accounting: misses and sector misses", "req", SUM)                   \
    X(gpgpusim_pending_hits, "GPGPU-Sim accounting: reads merged into a fetch in flight", "req", SUM)   \
    X(gpgpusim_reservation_fails, "GPGPU-Sim accounting: lookups that could not reserve", "attempt", SUM) \
    X(mshr_idle_cycles, "L2 cycles with every MSHR entry empty (Li Fig 5.2: Idle)", "L2 cycles", SUM)   \
    X(mshr_noicl_cycles, "L2 cycles with MSHR entries in use, all of merge length 1 (Li: No ICL)", "L2 cycles", SUM) \
    X(mshr_icl_cycles, "L2 cycles with an MSHR entry of merge length > 1 (Li: Has ICL)", "L2 cycles", SUM) \
    X(resfail_line_reserved, "reservation fails: the line's MSHR entry cannot take the request (sectors in flight)", "L2 cycles", SUM) \
    X(resfail_miss_queue, "reservation fails: miss queue full", "L2 cycles", SUM)                         \
    X(resfail_mshr_full, "reservation fails: no free MSHR entry, or the entry has mshr_max_merge requests", "L2 cycles", SUM) \
    X(mib_dummies, "merge-information dummy requests sent to DRAM (l2.merge_info = mib)", "req", SUM)   \
    X(fill_lat_n, "DRAM reads of L2 misses whose latency was split up (fill_lat_*)", "req", SUM)          \
    X(fill_lat_missq, "sum over them of cycles from the miss to leaving the L2 miss queue", "core cycles", SUM) \
    X(fill_lat_to_dram, "... from the miss queue to entering the DRAM controller (dram.latency pipe, refusals)", "core cycles", SUM) \
    X(fill_lat_dram, "... in the DRAM controller (queue and service; 0 with dram.perfect)", "core cycles", SUM) \
    X(fill_lat_from_dram, "... from the controller to the fill at the L2", "core cycles", SUM)                \
    X(reply_full, "L2 cycles the lookup pipe's head waited for room in the reply queue (l2.reply_queue)", "L2 cycles", SUM)
MW_STATS_DECLARE(l2, MW_L2_STATS)

struct mw_l2mshr {             /* in use while its key (mw_l2.mshr_key) holds a line */
    uint16_t nwait;
    struct mw_req *wait_head, *wait_tail; /* merged requests (linked via next) */
    uint16_t first_sm;
    uint64_t age_sum;
    uint8_t sectors;        /* sectors being fetched */
    uint8_t mib_valid;      /* Li's L2 MIB entry (l2.merge_info = mib): a merge not yet sent to DRAM */
    uint32_t mib_age;       /* ages (core cycles) of the requests merged since the last dummy, 15-bit saturating */
    struct mw_req *dram_req;/* the read in flight to DRAM (its merge/age fields are kept current) */
};

struct mw_l2 {
    int id, partition;
    struct mw_tags tags;
    struct mw_req_fifo pipe;    /* lookup pipeline; req->t_ready = time (fs) it reaches the tags */
    struct mw_l2mshr *mshr;
    uint64_t *mshr_key;         /* per entry: its line while in use, MW_NO_TAG when free */
    struct mw_slotmap mshr_map; /* key -> entry, and the free entries (lowest first) */
    int mshr_used;
    int mib_nvalid;             /* MSHR entries whose MIB entry is valid */
    int icl_n;                  /* MSHR entries with more than one request (Li's inter-core locality) */
    int fail_cause;             /* why the last lookup could not reserve (0 line, 1 miss queue, 2 MSHR) */
    uint64_t icl_t;             /* L2 cycle up to which the mshr_*_cycles counters are accounted */
    struct mw_req_fifo missq;   /* toward DRAM (reads and writebacks) */
    struct mw_req_fifo replies; /* waiting for the reply network */
    struct mw_l2_stats st;
};

int mw_l2_init(struct mw_sim *s, struct mw_l2 *l2, int id, struct mw_err *e);
void mw_l2_fini(struct mw_sim *s, struct mw_l2 *l2);
/* DRAM data for one of the slice's MSHR entries: fill the line and queue the replies of every merged request. */
void mw_l2_fill(struct mw_sim *s, struct mw_l2 *l2, struct mw_req *d, uint64_t now);
/* One L2 cycle: a reply into the reply network, the lookup pipe's head, one request from the request network. */
void mw_l2_cycle(struct mw_sim *s, struct mw_l2 *l2, uint64_t now);
/* Li's MUX (l2.merge_info = mib): a dummy request for the valid MIB entry of the largest merge length (then the
 * largest age, then the lowest entry), its entry made invalid; NULL if no entry is valid. */
struct mw_req *mw_l2_pop_dummy(struct mw_sim *s, struct mw_l2 *l2);
/* Account the MSHR idle / no-ICL / has-ICL cycles up to L2 cycle `now` (stats readers call it first). */
void mw_l2_settle(struct mw_l2 *l2, uint64_t now);
/* The miss queue's head (a DRAM read or writeback), removed; NULL if none. */
struct mw_req *mw_l2_pop_miss(struct mw_l2 *l2);
/* Earliest time (fs) the slice has something to do on its own. */
static inline uint64_t mw_l2_next_event(const struct mw_sim *s, const struct mw_l2 *l2)
{
    uint64_t now = s->now_fs;
    if (l2->missq.head || l2->mib_nvalid) return now;
    /* a reply waiting for room in the reply network is the network's event (it zeroes the slice's wake) */
    const struct mw_req *r = l2->replies.head;
    if (r && mw_xbar_can_inject(s->reply_net, l2->id,
                                (int)s->cfg.icnt.header_bytes + (r->kind == MW_REQ_READ ? (int)r->size : 0)))
        return now;
    uint64_t t = l2->pipe.head_ready;
    return t < now ? now : t;
}

#endif
