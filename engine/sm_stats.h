/* The SM's counters (sm.i.*), declared apart from the SM so that the LDST unit, which adds to its ldst_* and
 * memory-instruction counters, needs no SM header. */
#ifndef MW_SM_STATS_H
#define MW_SM_STATS_H

#include "stats.h"
#include "sm_age_stats.h"

#define MW_SM_STATS(X)                                                                                    \
    X(warp_insts, "warp instructions issued", "inst", SUM)                                               \
    X(thread_insts, "thread instructions issued (active lanes)", "inst", SUM)                           \
    X(active_cycles, "cycles with at least one resident warp", "core cycles", SUM)                      \
    X(ctas_launched, "CTAs launched", "CTA", SUM)                                                        \
    X(issue_slots, "scheduler cycles (schedulers x cycles)", "slot", SUM)                               \
    X(issued, "scheduler cycles that issued", "slot", SUM)                                              \
    X(stall_idle, "scheduler cycles with no resident warp", "slot", SUM)                                \
    X(stall_ibuffer, "scheduler cycles whose best warp had no decoded instruction", "slot", SUM)         \
    X(stall_fetch, "scheduler cycles whose best warp waited for its code line (L1I miss)", "slot", SUM)  \
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
    X(load_latency_max, "largest load request latency", "core cycles", MAX)                             \
    X(ctas_deactivated, "resident CTAs stopped by a policy (mw_cta_deactivate)", "CTA", SUM)            \
    X(ctas_reactivated, "stopped CTAs restarted by a policy (mw_cta_reactivate)", "CTA", SUM)            \
    X(ld_div, "global/local loads of more than 2 coalesced requests (divergent, as OAWS)", "inst", SUM)   \
    X(ld_coh, "global/local loads of 1 or 2 coalesced requests (coherent)", "inst", SUM)                 \
    X(ld_div_fully_cached, "divergent loads that went through L1D without a miss", "inst", SUM)          \
    X(ld_coh_fully_cached, "coherent loads that went through L1D without a miss", "inst", SUM)           \
    X(ld_div_mshr_wait, "cycles divergent loads' requests waited in LDST for an MSHR (occlusion)", "core cycles", SUM) \
    X(ld_coh_mshr_wait, "cycles coherent loads' requests waited in LDST for an MSHR (occlusion)", "core cycles", SUM) \
    X(ld_div_latency, "issue-to-last-data cycles of divergent loads", "core cycles", SUM)                \
    X(ld_coh_latency, "issue-to-last-data cycles of coherent loads", "core cycles", SUM)                 \
    X(mem_lanes, "active lanes of global/local memory warp instructions (coalescing degree = / coalesced_reqs)", "lane", SUM) \
    X(ldst_wait_warps, "sum over scheduler cycles of the warps ready but for a busy LDST unit", "warp-slot", SUM) \
    X(lat_n, "L1D miss / bypass read requests whose latency was split up (lat_*)", "req", SUM)          \
    X(lat_l1, "sum over them of cycles from the L1D to entering the request network (miss queue)", "core cycles", SUM) \
    X(lat_xbar_req, "... in the request network (injection queue, flits, latency)", "core cycles", SUM) \
    X(lat_l2_inq, "... arrived at the L2 slice, waiting for its pipe to take them", "core cycles", SUM) \
    X(lat_l2_pipe, "... in the L2 pipe, to the last lookup (l2.latency, reservation fails)", "core cycles", SUM) \
    X(lat_l2_wait, "... from the lookup to data ready at the L2 (0 on a hit; the miss)", "core cycles", SUM) \
    X(lat_l2_replyq, "... in the L2's reply queue", "core cycles", SUM)                                  \
    X(lat_xbar_reply, "... in the reply network, to the SM", "core cycles", SUM)                         \
    X(rexq_parked, "L1D accesses moved into the LDST re-execution queue (ldst_scheduler rexq)", "req", SUM) \
    X(rexq_replays, "re-execution queue accesses replayed into L1D and served", "req", SUM)             \
    X(rexq_replay_fails, "replays that failed again (the access stays at the queue's head)", "req", SUM) \
    X(rexq_full_stalls, "LDST cycles stalled: re-execution queue full or holding another instruction of the warp", "core cycles", SUM) \
    X(rexq_peak, "largest re-execution queue occupancy", "req", MAX)                                   \
    MW_SM_AGE_STATS(X)
MW_STATS_DECLARE(sm, MW_SM_STATS)

#endif
