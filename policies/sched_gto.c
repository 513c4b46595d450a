/* Greedy-then-oldest warp scheduling (Rogers et al., MICRO'12; the baseline of every paper here): keep
 * issuing from the warp that issued last while it is ready, otherwise the oldest ready warp (launch order). */
#include "policy.h"
#include "sched_state.h"
static int pick(struct mw_policy_inst *pi, int sm, int sched, const uint16_t *ready, int n)
{
    int greedy = ((int *)pi->state)[mw_sched_index(pi, sm, sched)];
    return mw_sched_gto_pick(pi, sm, greedy, ready, n);
}

static const struct mw_warp_sched_ops mw_pol_gto = {
    .base = {.point = MW_PT_WARP_SCHED, .name = "gto",
             .desc = "greedy-then-oldest: the last warp while it is ready, else the oldest ready warp",
             .create = mw_sched_last_create, .destroy = mw_sched_last_destroy},
    .pick = pick,
    .issued = mw_sched_last_issued,
};

MW_REGISTER_POLICIES(&mw_pol_gto.base);
