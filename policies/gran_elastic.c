/* Cache granularity: Elastic-Cache (Li et al., IPDPS'17) as DyCache's authors compare against it: a static fine
 * granularity of 32 or 64 B, fixed before the run, on every SM. Its chunk tags live in otherwise unused shared
 * memory, so the L1D loses no data capacity: with l1d.organisation: chunked the tags cost nothing here either.
 * With the line organisation fetch() fetches the granule-aligned sectors of a miss (the `sector` policy). */
#include "gran_align.h"
#include "policy.h"
#include "sim.h"

struct params {
    int64_t granule;
};
static const struct mw_param_desc params[] = {
    MW_PARAM(struct params, granule, MW_PP_INT, "32", 32, 64, NULL, "chunk size in bytes: 32 or 64"),
};

static int create(struct mw_policy_inst *pi, struct mw_err *e)
{
    const struct params *p = pi->params;
    if (p->granule != 32 && p->granule != 64)
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "elastic.granule: %lld is not 32 or 64", (long long)p->granule);
    return 0;
}
static void start(struct mw_policy_inst *pi)
{
    const struct params *p = pi->params;
    for (int sm = 0; sm < mw_n_sms(pi->sim); sm++) mw_l1d_set_granularity(pi->sim, sm, (int)p->granule);
}
static uint8_t fetch(struct mw_policy_inst *pi, const struct mw_gran_ctx *c)
{
    const struct params *p = pi->params;
    return mw_gran_aligned(c->need, (int)p->granule);
}

static const struct mw_granularity_ops mw_pol_gran_elastic = {
    .base = {.point = MW_PT_GRANULARITY, .name = "elastic",
             .desc = "Elastic-Cache: static 32 or 64 B granularity on every SM",
             .params = params, .nparams = 1, .params_size = sizeof(struct params), .create = create, .start = start},
    .fetch = fetch,
};

MW_REGISTER_POLICIES(&mw_pol_gran_elastic.base);
