/* The empty bundle: no policy spanning several decision points; every slot keeps its configured policy. */
#include "policy.h"

static const struct mw_bundle_ops bundle_none = {
    .base = {.point = MW_PT_BUNDLE, .name = "none", .desc = "no bundle: each decision point as configured"},
};

MW_REGISTER_POLICIES(&bundle_none.base);
