/* Loose round-robin warp scheduling (GPGPU-Sim "lrr"): the first ready warp after the one that issued last,
 * in warp-id order, wrapping around. */
#include "policies.h"
#include "sched_state.h"

#include <string.h>

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
    int last = ((int *)pi->state)[mw_sched_index(pi, sm, sched)];
    for (int i = 0; i < n; i++)
        if (ready[i] > last) return i;
    return 0;
}

static void issued(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    (void)in;
    ((int *)pi->state)[mw_sched_index(pi, sm, sched)] = w;
}

const struct mw_warp_sched_ops mw_pol_lrr = {
    .base = {.point = MW_PT_WARP_SCHED, .name = "lrr",
             .desc = "loose round-robin: the next ready warp after the last one that issued",
             .create = create, .destroy = destroy},
    .pick = pick,
    .issued = issued,
};
