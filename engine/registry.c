/* The policy registry: every built-in policy of every decision point, looked up by name, with the generic
 * parameter machinery (defaults, key=value parsing, range checks) that YAML, the CLI and Lua share.
 * A new policy adds its file in policies/ and one line here. */
#include "policy.h"
#include "policies.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const mw_point_names[MW_PT_COUNT] = {
    "warp_scheduler", "l1d_bypass", "granularity", "dram_scheduler", "cta_throttle", "ldst_scheduler",
    "replacement",
};

int mw_point_from_name(const char *name)
{
    for (int i = 0; i < MW_PT_COUNT; i++)
        if (strcmp(name, mw_point_names[i]) == 0) return i;
    return -1;
}

static const struct mw_policy *const warp_sched[] = {&mw_pol_lrr.base, &mw_pol_gto.base, &mw_pol_two_level.base,
                                                     NULL};
static const struct mw_policy *const bypass[] = {&mw_pol_bypass_none.base, &mw_pol_bypass_all.base, NULL};
static const struct mw_policy *const gran[] = {&mw_pol_gran_line.base, &mw_pol_gran_sector.base, NULL};
static const struct mw_policy *const dram[] = {&mw_pol_dram_fcfs.base, &mw_pol_dram_frfcfs.base, NULL};
static const struct mw_policy *const throttle[] = {&mw_pol_cta_none.base, &mw_pol_cta_static.base, NULL};
static const struct mw_policy *const ldst[] = {&mw_pol_ldst_inorder.base, NULL};
static const struct mw_policy *const repl[] = {&mw_pol_repl_lru.base, &mw_pol_repl_fifo.base, NULL};

static const struct mw_policy *const *const by_point[MW_PT_COUNT] = {warp_sched, bypass, gran, dram,
                                                                    throttle,   ldst,   repl};

const struct mw_policy *const *mw_policies(enum mw_point pt)
{
    return (unsigned)pt < MW_PT_COUNT ? by_point[pt] : NULL;
}

const struct mw_policy *mw_policy_find(enum mw_point pt, const char *name)
{
    const struct mw_policy *const *l = mw_policies(pt);
    for (; l && *l; l++)
        if (strcmp((*l)->name, name) == 0) return *l;
    return NULL;
}

const struct mw_param_desc *mw_policy_param_find(const struct mw_policy *p, const char *key)
{
    for (int i = 0; i < p->nparams; i++)
        if (strcmp(p->params[i].name, key) == 0) return &p->params[i];
    return NULL;
}

/* Index of v in "a|b|c", or -1. */
static int choice_index(const char *choices, const char *v)
{
    size_t n = strlen(v);
    int idx = 0;
    for (const char *p = choices; p && *p; idx++) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, v, n) == 0) return idx;
        p = bar ? bar + 1 : NULL;
    }
    return -1;
}

int mw_policy_param_set(const struct mw_policy *p, void *params, const char *key, const char *value,
                        struct mw_err *e)
{
    const struct mw_param_desc *d = mw_policy_param_find(p, key);
    if (!d) return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "policy '%s' has no parameter '%s'", p->name, key);
    char *end = NULL;
    char *at = (char *)params + d->offset;
    switch (d->type) {
    case MW_PP_INT: {
        errno = 0;
        long long v = strtoll(value, &end, 0);
        if (errno || !*value || *end)
            return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s.%s: expected an integer, got '%s'", p->name, key, value);
        if ((double)v < d->min || (double)v > d->max)
            return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s.%s: %lld is out of range [%g, %g]", p->name, key, v,
                              d->min, d->max);
        *(int64_t *)at = v;
        break;
    }
    case MW_PP_DOUBLE: {
        errno = 0;
        double v = strtod(value, &end);
        if (errno || !*value || *end || !isfinite(v))
            return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s.%s: expected a number, got '%s'", p->name, key, value);
        if (v < d->min || v > d->max)
            return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s.%s: %g is out of range [%g, %g]", p->name, key, v,
                              d->min, d->max);
        *(double *)at = v;
        break;
    }
    case MW_PP_BOOL:
        if (mw_parse_bool(value, (bool *)at))
            return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s.%s: expected true or false, got '%s'", p->name, key,
                              value);
        break;
    case MW_PP_ENUM: {
        int i = choice_index(d->choices, value);
        if (i < 0)
            return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s.%s: '%s' is not one of %s", p->name, key, value,
                              d->choices);
        *(int *)at = i;
        break;
    }
    }
    return 0;
}

int mw_policy_params_default(const struct mw_policy *p, void *params, struct mw_err *e)
{
    if (p->params_size) memset(params, 0, p->params_size);
    for (int i = 0; i < p->nparams; i++) {
        int rc = mw_policy_param_set(p, params, p->params[i].name, p->params[i].def, e);
        if (rc) return rc;
    }
    return 0;
}

int mw_policy_inst_init(struct mw_policy_inst *pi, const struct mw_policy *p, struct mw_sim *sim,
                        const char *const *keys, const char *const *values, int n, struct mw_err *e)
{
    memset(pi, 0, sizeof *pi);
    pi->pol = p;
    pi->sim = sim;
    if (p->params_size) {
        pi->params = calloc(1, p->params_size);
        if (!pi->params) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    }
    int rc = mw_policy_params_default(p, pi->params, e);
    for (int i = 0; !rc && i < n; i++) rc = mw_policy_param_set(p, pi->params, keys[i], values[i], e);
    if (!rc && p->create) rc = p->create(pi, e);
    if (rc) {
        free(pi->params);
        pi->params = NULL;
        pi->pol = NULL;
    }
    return rc;
}

void mw_policy_inst_fini(struct mw_policy_inst *pi)
{
    if (pi->pol && pi->pol->destroy) pi->pol->destroy(pi);
    free(pi->params);
    memset(pi, 0, sizeof *pi);
}
