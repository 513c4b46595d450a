/* The policies' side of a simulation: the policy slots (one per decision point, one for the L2's replacement),
 * installation, the event bus that hands engine events to subscribed policies, the window clock, and the
 * failure of a run when a hook misbehaves. */
#include "simctx.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void recompute_events(struct mw_sim *s)
{
    s->ev_mask = 0;
    for (int k = 0; k < MW_SLOT_COUNT; k++)
        if (s->pol[k].pol && s->pol[k].pol->on_event) s->ev_mask |= s->pol[k].pol->events;
}

int mw_sim_install_slot(struct mw_sim *s, int slot, struct mw_policy_inst *pi, struct mw_err *e)
{
    enum mw_point pt = slot == MW_SLOT_L2_REPLACEMENT ? MW_PT_REPLACEMENT : (enum mw_point)slot;
    if (s->started) {
        mw_policy_inst_fini(pi);
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "policies can only change before the run starts");
    }
    if (pi->pol->point != pt) {
        mw_policy_inst_fini(pi);
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "policy '%s' is a %s policy, not %s", pi->pol->name,
                          mw_point_names[pi->pol->point], mw_point_names[pt]);
    }
    mw_policy_inst_fini(&s->pol[slot]);
    s->pol[slot] = *pi;
    s->pol[slot].sim = s;
    memset(pi, 0, sizeof *pi);
    recompute_events(s);
    return 0;
}

int mw_sim_install_policy(struct mw_sim *s, enum mw_point pt, struct mw_policy_inst *pi, struct mw_err *e)
{
    return mw_sim_install_slot(s, (int)pt, pi, e);
}

int mw_sim_set_policy(struct mw_sim *s, enum mw_point pt, const struct mw_policy *p, const char *const *keys,
                      const char *const *values, int n, struct mw_err *e)
{
    if (s->started) return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "policies can only change before the run starts");
    struct mw_policy_inst pi;
    int rc = mw_policy_inst_init(&pi, p, s, keys, values, n, e);
    if (rc) return rc;
    return mw_sim_install_policy(s, pt, &pi, e);
}

struct mw_policy_inst *mw_sim_policy(struct mw_sim *s, enum mw_point pt) { return &s->pol[pt]; }

void mw_emit(struct mw_sim *s, const struct mw_event *ev)
{
    for (int k = 0; k < MW_SLOT_COUNT; k++) {
        struct mw_policy_inst *pi = &s->pol[k];
        if (pi->pol && pi->pol->on_event && (pi->pol->events >> ev->kind & 1u)) pi->pol->on_event(pi, ev);
    }
}

void mw_sim_set_window(struct mw_sim *s, uint64_t cycles)
{
    s->window = cycles;
    s->next_window = mw_core_now(s) + cycles;
}

void mw_sim_fail(struct mw_sim *s, const struct mw_err *e)
{
    if (s->failed) return;
    s->failed = true;
    s->fail_err = *e;
    if (!s->fail_err.code) s->fail_err.code = MW_EHOOK;
}

void mw_hook_fail(struct mw_sim *s, const struct mw_policy_inst *pi, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    struct mw_err e;
    mw_err_set(&e, MW_EHOOK, NULL, 0, 0, "%s '%s': %s", mw_point_names[pi->pol->point], pi->pol->name, msg);
    mw_sim_fail(s, &e);
}
