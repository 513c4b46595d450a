/* A memory partition: its L2 slices (GPGPU-Sim sub-partitions), its DRAM channel, and the pipes between them:
 * requests wait dram.latency L2 cycles on their way to DRAM (GPGPU-Sim's dram_latency_queue), data goes back to
 * the slice without delay (its dram_L2 queue); modelled here and nowhere else. Drives the slices' L2 cycles and
 * the channel's DRAM cycles, skipping a slice or a channel while it has nothing to do. */
#ifndef MW_PARTITION_H
#define MW_PARTITION_H

#include "dram.h"
#include "icnt.h"
#include "l2.h"
#include "mem_req.h"
#include "simctx.h"

struct mw_partition {
    int id, nsub;
    struct mw_l2 *slices;        /* its nsub slices (in the simulation's slice array) */
    struct mw_dram *dram;
    struct mw_req_fifo *to_dram; /* per slice: L2 miss queue -> DRAM controller; t_ready in fs */
    struct mw_req_fifo *from_dram; /* per slice: DRAM data -> L2 fill */
    uint64_t *slice_wake;        /* per slice (fs): not ticked before, unless a request arrives or data is queued */
    uint64_t dram_wake;          /* DRAM cycle before which the channel has nothing to do unless offered a request */
};

int mw_partition_init(struct mw_sim *s, struct mw_partition *p, int id, struct mw_err *e);
void mw_partition_fini(struct mw_sim *s, struct mw_partition *p);
/* One L2 cycle of slice k (at time now_fs = s->now_fs), unless it sleeps: nothing due before its wake time and
 * no request arriving from the network. */
void mw_partition_slice_cycle(struct mw_sim *s, struct mw_partition *p, int k, uint64_t now);
/* One L2 clock edge at time s->now_fs (L2 cycle `now`): every slice that is due (every slice without
 * fast_forward), in partition-major order, then s->l2_due lowered to the earliest slice wake. */
void mw_l2_edge(struct mw_sim *s, uint64_t now);
/* One DRAM cycle of its channel, unless it sleeps and no request is ready to enter. */
void mw_partition_dram_tick(struct mw_sim *s, struct mw_partition *p, uint64_t now);
static inline void mw_partition_dram_cycle(struct mw_sim *s, struct mw_partition *p, uint64_t now)
{
    if (s->cfg.sim.fast_forward && now < p->dram_wake) {
        bool offer = false;
        for (int k = 0; k < p->nsub && !offer; k++) offer = p->to_dram[k].head_ready <= s->now_fs;
        if (!offer) return;
    }
    mw_partition_dram_tick(s, p, now);
}
/* Earliest time (fs) the partition's channel is due: its own wake or a request ready to enter it. */
static inline uint64_t mw_partition_dram_due(const struct mw_sim *s, const struct mw_partition *p)
{
    uint64_t pd = s->clk[MW_CLK_DRAM].period_fs;
    uint64_t t = p->dram_wake >= MW_NEVER / pd ? MW_NEVER : p->dram_wake * pd;
    for (int k = 0; k < p->nsub; k++) t = mw_min_u64(t, p->to_dram[k].head_ready);
    return t;
}
/* Earliest time (fs) slice k / anything in the partition has to do on its own. */
static inline uint64_t mw_partition_slice_next_event(const struct mw_sim *s, const struct mw_partition *p, int k)
{
    uint64_t t = mw_l2_next_event(s, &p->slices[k]), now = s->now_fs;
    if (t == now) return now;
    t = mw_min_u64(t, p->from_dram[k].head_ready);
    t = mw_min_u64(t, p->to_dram[k].head_ready);
    return t < now ? now : t;
}
static inline uint64_t mw_partition_next_event(const struct mw_sim *s, const struct mw_partition *p)
{
    uint64_t t = MW_NEVER;
    for (int k = 0; k < p->nsub; k++) t = mw_min_u64(t, mw_partition_slice_next_event(s, p, k));
    uint64_t dc = mw_dram_next_event(p->dram, s->clk[MW_CLK_DRAM].cycle);
    if (dc != MW_NEVER) t = mw_min_u64(t, dc * s->clk[MW_CLK_DRAM].period_fs);
    return t;
}
/* Every unit takes its next cycle (the caller may have changed state between runs). */
void mw_partition_wake(struct mw_sim *s, struct mw_partition *p);

#endif
