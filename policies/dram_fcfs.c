/* DRAM scheduling, first come first served: a bank serves its oldest queued request, whatever row is open
 * (Rixner et al., ISCA'00, the in-order baseline). Ties (same arrival cycle) go to the smaller id. */
#include "policy.h"

static int pick(struct mw_policy_inst *pi, const struct mw_dram_sched_ctx *c, const struct mw_dram_cand *cands,
                int n)
{
    (void)pi, (void)c;
    int best = 0;
    for (int i = 1; i < n; i++)
        if (cands[i].arrival < cands[best].arrival ||
            (cands[i].arrival == cands[best].arrival && cands[i].id < cands[best].id))
            best = i;
    return best;
}

static const struct mw_dram_sched_ops mw_pol_dram_fcfs = {
    .base = {.point = MW_PT_DRAM_SCHED, .name = "fcfs",
             .desc = "first come first served: the bank's oldest request, row hit or not"},
    .pick = pick,
};

MW_REGISTER_POLICIES(&mw_pol_dram_fcfs.base);
