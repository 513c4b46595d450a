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
    X(cycles, "DRAM cycles simulated", "dram cycles", MAX)                                        \
    X(mib_dummies, "merge-information dummy requests received (l2.merge_info = mib)", "req", SUM)   \
    X(mib_dropped, "dummies that arrived after their read was served (dropped)", "req", SUM)
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

/* ---- additions: timing table, diagnostics ---------------------------------------------------------------
 * Scheduling model (dram.c has the details):
 *  - A request pushed at cycle t is in the queue from t+1 (its arrival) and can have its first command
 *    issued from t+2: one cycle to decode it into commands (DRAMSim3's transaction -> command step). With
 *    dram.input_queue > 0 it first waits in an input FIFO of that size; the FIFO's head moves into the
 *    scheduler queue (one per cycle, after the command of that cycle) when there is room, and is schedulable
 *    from the next cycle. can_accept() then asks about the FIFO.
 *  - Each bank that is not serving a request asks the policy's pick() which queued request it serves next.
 *    The choice stays open (pick() is asked again when the bank's candidates or state change) until the
 *    choice's first command (PRE, ACT or column) issues; from then on the bank is committed to it. pick() is
 *    not called for a single candidate. Candidates are listed oldest first; in split mode only the kind
 *    being served (writes while draining or when no read is queued, else reads). cand.age is Li's Age_MSHR
 *    in DRAM cycles: r->age_sum scaled by dram_mhz / core_mhz, plus merge x cycles since queue entry.
 *  - One command per cycle: among the banks whose next command meets every timing constraint, the one whose
 *    request arrived first (smallest id) issues.
 *  - max_row_hits = N > 0: once N column commands have been served since the bank's ACT, an older request to
 *    another row of that bank may close the row as soon as its PRE is allowed; the controller then hides the
 *    younger row hits from pick(). N = 4 is DRAMSim3's hard-coded cap.
 *  - A request of more than one atom (bus_bytes * burst_length bytes) issues one column command per atom.
 *  - Completion (pop_done) sets r->t_ready to the completion cycle: the cycle after the last data beat. */
enum mw_dram_cmd { MW_DCMD_ACT = 0, MW_DCMD_PRE, MW_DCMD_RD, MW_DCMD_WR, MW_DCMD_COUNT };
enum mw_dram_scope {
    MW_DSCOPE_BANK = 0,  /* the same bank */
    MW_DSCOPE_GROUP,     /* another bank of the same bank group */
    MW_DSCOPE_OTHER,     /* a bank of another bank group */
    MW_DSCOPE_COUNT
};
extern const char *const mw_dram_cmd_names[MW_DCMD_COUNT]; /* "ACT", "PRE", "RD", "WR" */
/* Minimum cycles from command `from` to command `to` in the given scope (0 = no constraint). */
int mw_dram_timing(const struct mw_dram *d, int from, int to, int scope);
/* Data-bus cycles of one atom (burst_length / data_rate) and bytes of one atom. */
int mw_dram_burst_cycles(const struct mw_dram *d);
int mw_dram_atom_bytes(const struct mw_dram *d);
/* Bank group of a bank: its low bits (bank mod bank_groups), as in DRAMSim3's "...ba bg co" GDDR5 layout. */
int mw_dram_bank_group(const struct mw_dram *d, int bank);
/* The caller offered a request that can_accept() refused for `cycles` cycles (feeds the queue_full stat). */
void mw_dram_note_refused(struct mw_dram *d, uint64_t cycles);
/* NULL, or the first error the scheduling policy made (pick() returned an index out of range; the
 * controller then served the oldest candidate). */
const char *mw_dram_error(const struct mw_dram *d);
/* Optional command log: fn is called for every command issued (debugging, tests, command traces). */
typedef void (*mw_dram_cmd_log_fn)(void *ctx, uint64_t cycle, int cmd, int bank, uint32_t row, uint32_t col,
                                   const struct mw_req *r);
void mw_dram_set_cmd_log(struct mw_dram *d, mw_dram_cmd_log_fn fn, void *ctx);

/* Li's merge information buffers (l2.merge_info = mib, Li §4.4): a dummy request from the L2 MIB reached the
 * controller carrying r's L2 MSHR merge length and the ages (core cycles converted to DRAM cycles by the caller)
 * of the requests merged since the last dummy. The controller's entry for r (its DMIB entry: r->mib_*) takes
 * the merge length, adds the age, and from then ages by the merge length per DRAM cycle; a dummy ahead of its
 * read fills the entry in early, one behind a served read is dropped. The scheduler sees the entry as
 * cand.merge / cand.age instead of the L2's current values. */
void mw_dram_mib_update(struct mw_dram *d, struct mw_req *r, uint32_t merge, uint64_t age, uint64_t now);
/* dram_mhz / core_mhz: core cycles -> DRAM cycles. */
double mw_dram_age_scale(const struct mw_dram *d);

#endif
