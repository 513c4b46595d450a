/* L1D bypass: bypass every global load (Choo's BypassAll): requests go straight to the miss queue, with no
 * L1D line or MSHR. */
#include "policy.h"

static int decide(struct mw_policy_inst *pi, const struct mw_bypass_ctx *c)
{
    (void)pi, (void)c;
    return MW_BYPASS;
}

static const struct mw_l1d_bypass_ops mw_pol_bypass_all = {
    .base = {.point = MW_PT_L1D_BYPASS, .name = "all", .desc = "bypass L1D for every global load"},
    .decide = decide,
};

MW_REGISTER_POLICIES(&mw_pol_bypass_all.base);
