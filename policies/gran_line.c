/* Cache granularity: fixed whole-line allocation and fetch (128 B on the Fermi baseline). */
#include "policy.h"

static const struct mw_granularity_ops mw_pol_gran_line = {
    .base = {.point = MW_PT_GRANULARITY, .name = "line", .desc = "fetch and allocate whole lines"},
    .fetch = NULL, /* NULL: the engine fetches every sector of the line */
};

MW_REGISTER_POLICIES(&mw_pol_gran_line.base);
