/* Cache granularity: fixed sector fetch (Elastic-Cache-like static fine grain): fetch only the 32 B sectors a
 * request touches, or aligned 64 B blocks with granule = 64. */
#include "gran_align.h"
#include "policy.h"

struct params {
    int64_t granule;
};
static const struct mw_param_desc params[] = {
    MW_PARAM(struct params, granule, MW_PP_INT, "32", 32, 64, NULL, "fetch unit in bytes: 32 or 64"),
};

static uint8_t fetch(struct mw_policy_inst *pi, const struct mw_gran_ctx *c)
{
    const struct params *p = pi->params;
    return mw_gran_aligned(c->need, (int)p->granule);
}

static int create(struct mw_policy_inst *pi, struct mw_err *e)
{
    const struct params *p = pi->params;
    if (p->granule != 32 && p->granule != 64)
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "sector.granule: %lld is not 32 or 64", (long long)p->granule);
    return 0;
}

static const struct mw_granularity_ops mw_pol_gran_sector = {
    .base = {.point = MW_PT_GRANULARITY, .name = "sector",
             .desc = "fetch and allocate only the touched 32 B (or 64 B) sectors",
             .params = params, .nparams = 1, .params_size = sizeof(struct params), .create = create},
    .fetch = fetch,
};

MW_REGISTER_POLICIES(&mw_pol_gran_sector.base);
