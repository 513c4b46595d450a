/* CTA throttling: none; the hardware limits (threads, warps, CTAs, registers, shared memory) decide. */
#include "policies.h"

const struct mw_cta_throttle_ops mw_pol_cta_none = {
    .base = {.point = MW_PT_CTA_THROTTLE, .name = "none", .desc = "no throttling beyond hardware limits"},
    .limit = NULL,
};
