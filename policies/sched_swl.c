/* Static warp limiting (SWL; Rogers et al., MICRO'12, the "Best-SWL" of OAWS PACT'16 Table 3): GTO over at most
 * `limit` warps per scheduler, the oldest live ones, as GPGPU-Sim's warp_limiting:2:N. A warp waiting at a barrier
 * does not take one of the N places [I], so that the warps it waits for can run. */
#include "policy.h"
#include "sched_state.h"

struct params {
    int64_t limit;
    bool barrier_frees;
};
static const struct mw_param_desc params[] = {
    MW_PARAM(struct params, limit, MW_PP_INT, "48", 1, 1024, NULL, "schedulable warps per scheduler (the oldest)"),
    MW_PARAM(struct params, barrier_frees, MW_PP_BOOL, "true", 0, 0, NULL,
             "a warp waiting at a barrier gives its place to the next oldest [I: avoids a deadlock]"),
};

static bool qualify(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    (void)in;
    const struct params *p = pi->params;
    uint16_t ws[1024];
    int n = mw_sched_warps(pi->sim, sm, sched, ws, 1024);
    if (n <= p->limit) return true;
    uint64_t age = mw_warp_age(pi->sim, sm, w);
    int older = 0;
    for (int i = 0; i < n; i++) {
        if (ws[i] == w) continue;
        if (p->barrier_frees && mw_warp_at_barrier(pi->sim, sm, ws[i])) continue;
        if (mw_warp_age(pi->sim, sm, ws[i]) < age) older++;
    }
    return older < p->limit;
}

static void on_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    if (pi->sim) mw_sched_recheck(pi->sim, ev->sm, mw_now(pi->sim));
}

static int pick(struct mw_policy_inst *pi, int sm, int sched, const uint16_t *ready, int n)
{
    int greedy = ((int *)pi->state)[mw_sched_index(pi, sm, sched)];
    return mw_sched_gto_pick(pi, sm, greedy, ready, n);
}

static const struct mw_warp_sched_ops mw_pol_swl = {
    .base = {.point = MW_PT_WARP_SCHED, .name = "swl",
             .desc = "static warp limiting: GTO over the `limit` oldest warps of each scheduler",
             .params = params, .nparams = 2, .params_size = sizeof(struct params),
             .events = MW_EVB(MW_EV_WARP_EXIT) | MW_EVB(MW_EV_CTA_LAUNCH) | MW_EVB(MW_EV_BARRIER),
             .create = mw_sched_last_create, .destroy = mw_sched_last_destroy, .on_event = on_event},
    .pick = pick,
    .qualify = qualify,
    .qualify_deps = MW_QDEP_HEAD,
    .issued = mw_sched_last_issued,
};

MW_REGISTER_POLICIES(&mw_pol_swl.base);
