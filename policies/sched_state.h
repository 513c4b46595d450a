/* Small helpers shared by the warp-scheduler policies: one slot of state per (SM, scheduler). */
#ifndef MW_SCHED_STATE_H
#define MW_SCHED_STATE_H

#include "policy.h"
#include "sim.h"

#include <stdlib.h>

static inline int mw_sched_slots(const struct mw_policy_inst *pi)
{
    return pi->sim ? mw_n_sms(pi->sim) * mw_n_schedulers(pi->sim) : 1;
}
static inline int mw_sched_index(const struct mw_policy_inst *pi, int sm, int sched)
{
    return pi->sim ? sm * mw_n_schedulers(pi->sim) + sched : 0;
}

/* State shared by LRR and GTO: the warp each scheduler issued last (-1 = none yet). */
static inline int mw_sched_last_create(struct mw_policy_inst *pi, struct mw_err *e)
{
    int n = mw_sched_slots(pi);
    int *last = malloc((size_t)n * sizeof *last);
    if (!last) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < n; i++) last[i] = -1;
    pi->state = last;
    return 0;
}
static inline void mw_sched_last_destroy(struct mw_policy_inst *pi) { free(pi->state); }
static inline void mw_sched_last_issued(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    (void)in;
    ((int *)pi->state)[mw_sched_index(pi, sm, sched)] = w;
}

/* GTO's choice among the n ready warps: `greedy` (the warp this scheduler issued last) while it is ready, else
 * the oldest (launch order). Returns an index into ready. GTO, SWL, CCWS and OAWS all end their pick here. */
static inline int mw_sched_gto_pick(struct mw_policy_inst *pi, int sm, int greedy, const uint16_t *ready, int n)
{
    int best = 0;
    uint64_t best_age = UINT64_MAX;
    for (int i = 0; i < n; i++) {
        if (ready[i] == greedy) return i;
        uint64_t a = mw_warp_age(pi->sim, sm, ready[i]);
        if (a < best_age) best_age = a, best = i;
    }
    return best;
}

#endif
