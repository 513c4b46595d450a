/* A memory partition: its L2 slices (GPGPU-Sim sub-partitions), its DRAM channel, and the fixed-latency pipes
 * between them (dram.latency L2 cycles each way, modelled here and nowhere else). Drives the slices' L2 cycles and
 * the channel's DRAM cycles, skipping a slice or a channel while it has nothing to do. */
#ifndef MW_PARTITION_H
#define MW_PARTITION_H

#include "dram.h"
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
/* One L2 cycle of the partition's slices (at time now_fs = s->now_fs). */
void mw_partition_l2_cycle(struct mw_sim *s, struct mw_partition *p, uint64_t now);
/* One DRAM cycle of its channel. */
void mw_partition_dram_cycle(struct mw_sim *s, struct mw_partition *p, uint64_t now);
/* Earliest time (fs) anything in the partition has to do on its own. */
uint64_t mw_partition_next_event(const struct mw_sim *s, const struct mw_partition *p);
/* Every unit takes its next cycle (the caller may have changed state between runs). */
void mw_partition_wake(struct mw_partition *p);

#endif
