/* CTA throttling: none; the hardware limits (threads, warps, CTAs, registers, shared memory) decide. */
#include "policy.h"

static const struct mw_cta_throttle_ops mw_pol_cta_none = {
    .base = {.point = MW_PT_CTA_THROTTLE, .name = "none", .desc = "no throttling beyond hardware limits"},
    .limit = NULL,
};

MW_REGISTER_POLICIES(&mw_pol_cta_none.base);
