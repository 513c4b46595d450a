/* L1D bypass: never bypass (the baseline: every global load is cached, allocate-on-miss or on-fill). */
#include "policy.h"

static const struct mw_l1d_bypass_ops mw_pol_bypass_none = {
    .base = {.point = MW_PT_L1D_BYPASS, .name = "none", .desc = "cache every global load in L1D"},
    .decide = NULL,
};

MW_REGISTER_POLICIES(&mw_pol_bypass_none.base);
