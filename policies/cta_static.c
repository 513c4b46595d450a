/* CTA throttling: a static cap on resident CTAs per SM (the CTA form of static warp limiting, SWL). */
#include "policy.h"

struct params {
    int64_t max_ctas;
};
static const struct mw_param_desc params[] = {
    MW_PARAM(struct params, max_ctas, MW_PP_INT, "2", 1, 64, NULL, "resident CTAs allowed per SM"),
};

static int limit(struct mw_policy_inst *pi, int sm, int resident)
{
    (void)sm, (void)resident;
    return (int)((const struct params *)pi->params)->max_ctas;
}

static const struct mw_cta_throttle_ops mw_pol_cta_static = {
    .base = {.point = MW_PT_CTA_THROTTLE, .name = "static", .desc = "at most max_ctas resident CTAs per SM",
             .params = params, .nparams = 1, .params_size = sizeof(struct params)},
    .limit = limit,
};

MW_REGISTER_POLICIES(&mw_pol_cta_static.base);
