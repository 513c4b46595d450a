/* Loose round-robin warp scheduling (GPGPU-Sim "lrr"): the first ready warp after the one that issued last,
 * in warp-id order, wrapping around. */
#include "policy.h"
#include "sched_state.h"

static int pick(struct mw_policy_inst *pi, int sm, int sched, const uint16_t *ready, int n)
{
    int last = ((int *)pi->state)[mw_sched_index(pi, sm, sched)];
    for (int i = 0; i < n; i++)
        if (ready[i] > last) return i;
    return 0;
}

static const struct mw_warp_sched_ops mw_pol_lrr = {
    .base = {.point = MW_PT_WARP_SCHED, .name = "lrr",
             .desc = "loose round-robin: the next ready warp after the last one that issued",
             .create = mw_sched_last_create, .destroy = mw_sched_last_destroy},
    .pick = pick,
    .issued = mw_sched_last_issued,
};

MW_REGISTER_POLICIES(&mw_pol_lrr.base);
