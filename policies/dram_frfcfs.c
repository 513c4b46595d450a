/* DRAM scheduling, first-ready FCFS (Rixner et al., ISCA'00; GPGPU-Sim's and Li's baseline): a request to the
 * bank's open row first, the oldest of those; with none, the oldest request. Ties go to the smaller id. The
 * controller applies dram.max_row_hits (DRAMSim3's 4-hit cap) by hiding capped hits before calling pick(). */
#include "policy.h"

static bool older(const struct mw_dram_cand *a, const struct mw_dram_cand *b)
{
    return a->arrival < b->arrival || (a->arrival == b->arrival && a->id < b->id);
}

static int pick(struct mw_policy_inst *pi, const struct mw_dram_sched_ctx *c, const struct mw_dram_cand *cands,
                int n)
{
    (void)pi, (void)c;
    int best = 0;
    for (int i = 1; i < n; i++) {
        bool hi = cands[i].row_hit, hb = cands[best].row_hit;
        if ((hi && !hb) || (hi == hb && older(&cands[i], &cands[best]))) best = i;
    }
    return best;
}

static const struct mw_dram_sched_ops mw_pol_dram_frfcfs = {
    .base = {.point = MW_PT_DRAM_SCHED, .name = "frfcfs",
             .desc = "first-ready FCFS: the oldest request to the open row, else the oldest request"},
    .pick = pick,
};

MW_REGISTER_POLICIES(&mw_pol_dram_frfcfs.base);
