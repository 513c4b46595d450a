/* Drive one DRAM channel alone from a request trace in DRAMSim3's TraceBasedCPU format
 * (`0x%08x READ|WRITE <cycle>`, plain or .xz), with the DRAM oracle's front end: at most one request offered
 * per cycle, in file order, never before its cycle, the head held while the controller is full. */
#ifndef MW_DRAM_TRACE_H
#define MW_DRAM_TRACE_H

#include "dram.h"

#include <stdio.h>

/* The summary, with exactly the columns of the oracle's reference.csv. */
#define MW_DRAM_TRACE_CSV_HEADER \
    "trace,requests,reads,writes,cycles,avg_read_latency_cycles,bandwidth_GBps,row_hit_rate"
/* Per-request rows (--per-request): offered = cycle the front end handed it over, enq = offered + 1,
 * done = cycle after its last data beat, latency = done - enq. */
#define MW_DRAM_TRACE_REQ_HEADER "idx,addr,type,bank,row,col,trace_cycle,offered_cycle,enq_cycle,done_cycle,latency"

struct mw_dram_trace_opts {
    FILE *per_request;   /* per-request CSV rows (header included), in completion order; NULL = none */
    bool tick_all;       /* call mw_dram_cycle every cycle instead of jumping to the next event (same results) */
    uint64_t max_cycles; /* stop with an error after this many cycles (0 = no limit) */
};

struct mw_dram_trace_result {
    char name[128];            /* the trace file's name without directory and extensions */
    uint64_t requests, reads, writes;
    uint64_t cycles;           /* cycles simulated, 0 through the last request's completion (DRAMSim3's count) */
    uint64_t bytes;
    double avg_read_latency;   /* DRAM cycles, queue entry to the last data beat */
    double bandwidth_gbps;     /* bytes / (cycles * tCK), tCK = 1 / clock.dram_mhz */
    double row_hit_rate;       /* row hits / column commands */
    double wall_s;             /* wall-clock time of the run */
    struct mw_dram_stats st;   /* the controller's counters */
};

/* Run the trace at `path` through a fresh controller built from c, scheduled by `sched` (NULL = the config's
 * choice, see mw_dram_trace_policy). Returns 0, or MW_EINVAL with `file:line:col: expected ...` for a
 * malformed line, MW_EIO for unreadable input, MW_EHOOK if the policy misbehaved. */
int mw_dram_trace_run(const struct mw_config *c, struct mw_policy_inst *sched, const char *path,
                      const struct mw_dram_trace_opts *opts, struct mw_dram_trace_result *res, struct mw_err *e);

/* Bind the config's DRAM scheduling choice (policies.dram_scheduler and its parameters) to pi; built-in
 * policies only. Undo with mw_policy_inst_fini. */
int mw_dram_trace_policy(const struct mw_config *c, struct mw_policy_inst *pi, struct mw_err *e);

/* One CSV row (no newline handling beyond the trailing '\n') matching MW_DRAM_TRACE_CSV_HEADER. */
void mw_dram_trace_csv_row(FILE *f, const struct mw_dram_trace_result *r);

#endif
