/* One DRAM channel (one memory partition): request queue(s), banks with row buffers, a table-driven timing
 * model (DRAMSim3's timing.cc idea: (command, scope) -> (next command, minimum delay)), and a scheduler that
 * is a decision point (engine/policy.h, MW_PT_DRAM_SCHED). Runs in the DRAM command clock. */
#ifndef MW_DRAM_H
#define MW_DRAM_H

#include "config.h"
#include "mem_req.h"
#include "policy.h"
#include "stats.h"

#define MW_DRAM_STATS(X)                                                                          \
    X(reads, "read requests accepted", "req", SUM)                                                \
    X(writes, "write requests accepted", "req", SUM)                                              \
    X(row_hits, "column commands to a row already open and used since its ACT", "cmd", SUM)      \
    X(row_misses, "column commands that needed an ACT on a precharged bank", "cmd", SUM)         \
    X(row_conflicts, "column commands that needed PRE + ACT (another row was open)", "cmd", SUM)  \
    X(activates, "ACT commands", "cmd", SUM)                                                      \
    X(precharges, "PRE commands", "cmd", SUM)                                                     \
    X(reads_done, "reads whose data was returned", "req", SUM)                                    \
    X(read_latency_sum, "sum of read latencies, enqueue to last data beat", "dram cycles", SUM)   \
    X(read_latency_max, "largest read latency", "dram cycles", MAX)                               \
    X(data_bus_busy, "cycles the data bus carried data", "dram cycles", SUM)                      \
    X(queue_full, "cycles a request was refused because the queue was full", "dram cycles", SUM)  \
    X(cycles, "DRAM cycles simulated", "dram cycles", MAX)
MW_STATS_DECLARE(dram, MW_DRAM_STATS)

struct mw_dram;

/* `sched` is the channel's scheduling policy instance (FCFS, FR-FCFS, ... or a Lua table). */
struct mw_dram *mw_dram_create(const struct mw_config *c, int channel, struct mw_policy_inst *sched,
                               struct mw_err *e);
void mw_dram_destroy(struct mw_dram *d);

/* Can the controller take a request of this kind (MW_REQ_READ / MW_REQ_WRITE) now? */
bool mw_dram_can_accept(const struct mw_dram *d, int kind);
/* Hand over r (r->dram_addr is the partition-local address, r->size its bytes). `now` is the current DRAM
 * cycle; the request is in the queue from now + 1 (the oracle's definition). */
void mw_dram_push(struct mw_dram *d, struct mw_req *r, uint64_t now);
/* Advance one DRAM command cycle; `now` increases by one between calls (or jumps, see next_event). */
void mw_dram_cycle(struct mw_dram *d, uint64_t now);
/* A finished request (read with its data returned, or a write done), in completion order; NULL if none. */
struct mw_req *mw_dram_pop_done(struct mw_dram *d);
/* Earliest DRAM cycle >= now at which mw_dram_cycle can change anything; MW_NEVER if empty. */
uint64_t mw_dram_next_event(const struct mw_dram *d, uint64_t now);
/* Requests queued or in flight. */
int mw_dram_pending(const struct mw_dram *d);
const struct mw_dram_stats *mw_dram_get_stats(const struct mw_dram *d);

/* Address decode by the config's address_map string (exposed for tests and the Lua inspector). */
void mw_dram_decode(const struct mw_dram *d, uint64_t local_addr, uint32_t *bank, uint32_t *row, uint32_t *col);

/* Inspection (Lua, REPL): bank b's open row (MW_ROW_NONE if closed) and queue occupancy. */
uint32_t mw_dram_open_row(const struct mw_dram *d, int bank);
int mw_dram_queue_len(const struct mw_dram *d);

#endif
