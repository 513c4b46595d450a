/* Helpers for the unit tests (test_unit_*.c), which drive one engine unit's own functions: a GTX480 machine
 * whose units were built by the engine's own init, a request made the way the L1D makes one, and a hand clock
 * for the interconnect, L2 and DRAM domains. Include after <cmocka.h>. */
#ifndef MW_TEST_UNITSIM_H
#define MW_TEST_UNITSIM_H

#include "simrun.h"
#include "simctx.h"

#include "addrmap.h"
#include "icnt.h"
#include "partition.h"

/* The GTX480 config with `sets` applied, built by running a kernel of one warp with no instruction but its EXIT
 * to completion: every unit exists, is initialised by its own init and is idle (no line, MSHR or queue entry in
 * use, statistics zero but the SM's). */
static inline struct mw_sim *us_machine(const char *const *sets, int nsets)
{
    static const struct sr_prog empty = {.nwarps = 1};
    struct mw_config c;
    sr_config(&c, sets, nsets);
    struct mw_workload w;
    sr_prog_workload(&w, &empty);
    struct mw_sim *s = sr_sim(&c, &w);
    sr_run(s, 100000, "an empty kernel");
    return s;
}

/* Set the core clock's cycle (what the L1D calls now). */
static inline void us_set_core_now(struct mw_sim *s, uint64_t cycle) { s->clk[MW_CLK_CORE].cycle = cycle; }

/* A read or write of `sectors` of `line` from SM sm, addressed as the L1D addresses its misses. */
static inline struct mw_req *us_req(struct mw_sim *s, int sm, uint64_t line, uint8_t sectors, int kind)
{
    struct mw_req *r = mw_req_new(&s->pool, line, sectors, kind);
    assert_non_null(r);
    r->sm = (uint16_t)sm;
    r->t_create = mw_core_now(s);
    r->slice = (uint16_t)mw_addr_slice(s, line);
    r->partition = (uint16_t)(r->slice / s->cfg.l2.subpartitions);
    return r;
}

/* One step of the interconnect, L2 and DRAM clocks in mw_sim_run's order: the earliest next cycle start among
 * them becomes s->now_fs, and each domain whose cycle starts then ticks (interconnect, then L2, then DRAM). The
 * core clock stays where it is. Returns a bit per domain ticked (1 << MW_CLK_ICNT, ...). */
static inline unsigned us_step_memory(struct mw_sim *s)
{
    uint64_t T = MW_NEVER;
    for (int i = MW_CLK_ICNT; i < MW_CLK_N; i++) T = mw_min_u64(T, s->clk[i].next_fs);
    s->now_fs = T;
    unsigned ticked = 0;
    if (s->clk[MW_CLK_ICNT].next_fs == T) {
        uint64_t now = s->clk[MW_CLK_ICNT].cycle;
        mw_xbar_cycle(s->req_net, now);
        mw_xbar_cycle(s->reply_net, now);
        ticked |= 1u << MW_CLK_ICNT;
    }
    if (s->clk[MW_CLK_L2].next_fs == T) {
        mw_l2_edge(s, s->clk[MW_CLK_L2].cycle);
        ticked |= 1u << MW_CLK_L2;
    }
    if (s->clk[MW_CLK_DRAM].next_fs == T) {
        for (int i = 0; i < s->nparts; i++) mw_partition_dram_cycle(s, &s->parts[i], s->clk[MW_CLK_DRAM].cycle);
        ticked |= 1u << MW_CLK_DRAM;
    }
    for (int i = MW_CLK_ICNT; i < MW_CLK_N; i++)
        if (ticked >> i & 1u) {
            s->clk[i].cycle++;
            s->clk[i].next_fs += s->clk[i].period_fs;
        }
    return ticked;
}

#endif
