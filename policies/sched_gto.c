/* Greedy-then-oldest warp scheduling (Rogers et al., MICRO'12; the baseline of every paper here): keep
 * issuing from the warp that issued last while it is ready, otherwise the oldest ready warp (launch order). */
#include "policies.h"
#include "sched_state.h"

static int create(struct mw_policy_inst *pi, struct mw_err *e)
{
    int n = mw_sched_slots(pi);
    int *last = malloc((size_t)n * sizeof *last);
    if (!last) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < n; i++) last[i] = -1;
    pi->state = last;
    return 0;
}
static void destroy(struct mw_policy_inst *pi) { free(pi->state); }

static int pick(struct mw_policy_inst *pi, int sm, int sched, const uint16_t *ready, int n)
{
    int greedy = ((int *)pi->state)[mw_sched_index(pi, sm, sched)];
    int best = 0;
    uint64_t best_age = UINT64_MAX;
    for (int i = 0; i < n; i++) {
        if (ready[i] == greedy) return i;
        uint64_t a = mw_warp_age(pi->sim, sm, ready[i]);
        if (a < best_age) best_age = a, best = i;
    }
    return best;
}

static void issued(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    (void)in;
    ((int *)pi->state)[mw_sched_index(pi, sm, sched)] = w;
}

const struct mw_warp_sched_ops mw_pol_gto = {
    .base = {.point = MW_PT_WARP_SCHED, .name = "gto",
             .desc = "greedy-then-oldest: the last warp while it is ready, else the oldest ready warp",
             .create = create, .destroy = destroy},
    .pick = pick,
    .issued = issued,
};
