/* LDST request scheduling: the baseline. One instruction in the LDST unit; its requests go to L1D in
 * coalescer order, and a request that cannot reserve its resources retries, blocking the unit. */
#include "policy.h"

static const struct mw_ldst_sched_ops mw_pol_ldst_inorder = {
    .base = {.point = MW_PT_LDST_SCHED, .name = "inorder",
             .desc = "one instruction at a time, requests in order, stall on reservation failure"},
    .slots = NULL,
    .pick = NULL,
};

MW_REGISTER_POLICIES(&mw_pol_ldst_inorder.base);
