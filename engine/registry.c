/* The policy registry: every built-in policy of every decision point, looked up by name, each point's default,
 * and the generic parameter machinery (defaults, key=value parsing, range checks) that YAML, the CLI and Lua
 * share. The policies come from the generated mw_policy_files (see MW_REGISTER_POLICIES in policy.h). */
#include "policy.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

const char *const mw_point_names[MW_PT_COUNT] = {
    "warp_scheduler", "l1d_bypass", "granularity", "dram_scheduler", "cta_throttle", "ldst_scheduler",
    "replacement",
};

const char *const mw_event_names[MW_EV_COUNT] = {
    [MW_EV_KERNEL_START] = "kernel_start", [MW_EV_KERNEL_END] = "kernel_end", [MW_EV_CTA_LAUNCH] = "cta_launch",
    [MW_EV_CTA_DONE] = "cta_done",         [MW_EV_WARP_EXIT] = "warp_exit",   [MW_EV_L1D_HIT] = "l1d_hit",
    [MW_EV_L1D_MISS] = "l1d_miss",         [MW_EV_L1D_FILL] = "l1d_fill",     [MW_EV_L1D_EVICT] = "l1d_evict",
    [MW_EV_LOAD_DONE] = "load_done",       [MW_EV_WINDOW] = "window",         [MW_EV_L1D_STORE] = "l1d_store",
    [MW_EV_BARRIER] = "barrier",           [MW_EV_INJECT_DONE] = "inject_done",
};
const char *const mw_stall_names[MW_STALL_COUNT] = {"none", "line_alloc", "mshr", "miss_queue"};

const char *const mw_slot_names[MW_SLOT_COUNT] = {
    "warp_scheduler", "l1d_bypass", "granularity", "dram_scheduler", "cta_throttle", "ldst_scheduler",
    "replacement", "l2_replacement", "bundle", "bundle2",
};

int mw_slot_from_name(const char *name)
{
    for (int i = 0; i < MW_SLOT_COUNT; i++)
        if (strcmp(name, mw_slot_names[i]) == 0) return i;
    return -1;
}

int mw_point_from_name(const char *name)
{
    for (int i = 0; i < MW_PT_COUNT; i++)
        if (strcmp(name, mw_point_names[i]) == 0) return i;
    return -1;
}

/* The only place that says what runs when a config names no policy for a point. */
static const char *const default_names[MW_PT_COUNT + 1] = {
    [MW_PT_WARP_SCHED] = "gto",    [MW_PT_L1D_BYPASS] = "none",   [MW_PT_GRANULARITY] = "line",
    [MW_PT_DRAM_SCHED] = "frfcfs", [MW_PT_CTA_THROTTLE] = "none", [MW_PT_LDST_SCHED] = "inorder",
    [MW_PT_REPLACEMENT] = "lru",   [MW_PT_COUNT] = "none", /* bundles */
};

/* The list index of a point: the seven points, then bundles; -1 for anything else. */
static int list_of(enum mw_point pt)
{
    if ((unsigned)pt < MW_PT_COUNT) return (int)pt;
    return pt == MW_PT_BUNDLE ? MW_PT_COUNT : -1;
}

const char *mw_point_name(enum mw_point pt)
{
    if ((unsigned)pt < MW_PT_COUNT) return mw_point_names[pt];
    return pt == MW_PT_BUNDLE ? "bundle" : "?";
}

/* Per-point lists, split once out of mw_policy_files and read-only afterwards (pthread_once makes the first
 * use safe when several simulations start together). test_registry checks that nothing was left out. */
#define MAX_PER_POINT 64
static const struct mw_policy *by_point[MW_PT_COUNT + 1][MAX_PER_POINT + 1];
static pthread_once_t by_point_once = PTHREAD_ONCE_INIT;

static void by_point_build(void)
{
    int n[MW_PT_COUNT + 1] = {0};
    for (int f = 0; mw_policy_files[f]; f++)
        for (const struct mw_policy *const *p = mw_policy_files[f]; *p; p++) {
            int li = list_of((*p)->point);
            assert(li >= 0 && n[li] < MAX_PER_POINT);
            if (li >= 0 && n[li] < MAX_PER_POINT) by_point[li][n[li]++] = *p;
        }
}

const struct mw_policy *const *mw_policies(enum mw_point pt)
{
    int li = list_of(pt);
    if (li < 0) return NULL;
    pthread_once(&by_point_once, by_point_build);
    return by_point[li];
}

const struct mw_policy *mw_policy_find(enum mw_point pt, const char *name)
{
    const struct mw_policy *const *l = mw_policies(pt);
    for (; l && *l; l++)
        if (strcmp((*l)->name, name) == 0) return *l;
    return NULL;
}

const char *mw_policy_default_name(enum mw_point pt)
{
    int li = list_of(pt);
    return li >= 0 ? default_names[li] : NULL;
}

const struct mw_policy *mw_policy_default(enum mw_point pt)
{
    const char *name = mw_policy_default_name(pt);
    return name ? mw_policy_find(pt, name) : NULL;
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
        free(pi->counters.v);
        memset(&pi->counters, 0, sizeof pi->counters);
        pi->params = NULL;
        pi->pol = NULL;
    }
    return rc;
}

void mw_policy_inst_fini(struct mw_policy_inst *pi)
{
    if (pi->pol && pi->pol->destroy) pi->pol->destroy(pi);
    free(pi->params);
    free(pi->counters.v);
    memset(pi, 0, sizeof *pi);
}
