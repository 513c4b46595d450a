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

#endif
