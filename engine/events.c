/* The policies' side of a simulation: the policy slots (one per decision point, one for the L2's replacement,
 * one for a bundle), installation, the event bus that hands engine events to subscribed policies, each
 * policy's window clock and counters, and the failure of a run when a hook misbehaves. */
#include "simctx.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void recompute_events(struct mw_sim *s)
{
    s->ev_mask = 0;
    for (int k = 0; k < MW_SLOT_COUNT; k++)
        if (s->pol[k].pol && s->pol[k].pol->on_event) s->ev_mask |= s->pol[k].pol->events;
}

static void recompute_windows(struct mw_sim *s)
{
    s->next_window = MW_NEVER;
    for (int k = 0; k < MW_SLOT_COUNT; k++)
        if (s->pol[k].pol && s->pol[k].window) s->next_window = mw_min_u64(s->next_window, s->pol[k].next_window);
}

void mw_window_set(struct mw_policy_inst *pi, uint64_t cycles)
{
    pi->window = cycles;
    pi->next_window = cycles && pi->sim ? mw_core_now(pi->sim) + cycles : MW_NEVER;
    if (pi->sim) recompute_windows(pi->sim);
}

void mw_windows_due(struct mw_sim *s, uint64_t now)
{
    for (int k = 0; k < MW_SLOT_COUNT; k++) {
        struct mw_policy_inst *pi = &s->pol[k];
        if (!pi->pol || !pi->window || now + 1 < pi->next_window) continue;
        pi->next_window += pi->window;
        if (pi->pol->on_event && (pi->pol->events & MW_EVB(MW_EV_WINDOW))) {
            struct mw_event ev = {.kind = MW_EV_WINDOW, .sm = -1, .cycle = now};
            pi->pol->on_event(pi, &ev);
        }
    }
    recompute_windows(s);
}

int mw_policy_counter(struct mw_policy_inst *pi, const char *name, const char *desc)
{
    struct mw_policy_counters *c = &pi->counters;
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->v[i].name, name) == 0) return i;
    if (c->n == c->cap) {
        int nc = c->cap ? c->cap * 2 : 8;
        void *v = realloc(c->v, (size_t)nc * sizeof *c->v);
        if (!v) abort(); /* a handful of counters per policy; failing here is unrecoverable */
        c->v = v;
        c->cap = nc;
    }
    struct mw_policy_counter_entry *x = &c->v[c->n];
    snprintf(x->name, sizeof x->name, "%s", name);
    x->desc = desc;
    x->value = 0;
    return c->n++;
}

void mw_policies_start(struct mw_sim *s)
{
    recompute_windows(s);
    for (int k = 0; k < MW_SLOT_COUNT; k++)
        if (s->pol[k].pol && s->pol[k].pol->start) s->pol[k].pol->start(&s->pol[k]);
}

void mw_policies_finish(struct mw_sim *s)
{
    for (int k = 0; k < MW_SLOT_COUNT; k++)
        if (s->pol[k].pol && s->pol[k].pol->finish) s->pol[k].pol->finish(&s->pol[k]);
}

int mw_sim_install_slot(struct mw_sim *s, int slot, struct mw_policy_inst *pi, struct mw_err *e)
{
    enum mw_point pt = mw_slot_point(slot);
    if (s->started) {
        mw_policy_inst_fini(pi);
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "policies can only change before the run starts");
    }
    if (pi->pol->point != pt) {
        /* the message first: the ops table may belong to the instance (a Lua policy) */
        mw_err_set(e, MW_EINVAL, NULL, 0, 0, "policy '%s' is a %s policy, not %s", pi->pol->name,
                   mw_point_name(pi->pol->point), mw_point_name(pt));
        mw_policy_inst_fini(pi);
        return e->code;
    }
    mw_policy_inst_fini(&s->pol[slot]);
    s->pol[slot] = *pi;
    s->pol[slot].sim = s;
    s->pol[slot].slot = slot;
    memset(pi, 0, sizeof *pi);
    recompute_events(s);
    recompute_windows(s);
    return 0;
}

int mw_sim_install_bundle(struct mw_sim *s, struct mw_policy_inst *bi, const bool *configured, struct mw_err *e)
{
    return mw_sim_install_bundle_at(s, MW_SLOT_BUNDLE, bi, configured, e);
}

int mw_sim_install_bundle_at(struct mw_sim *s, int slot, struct mw_policy_inst *bi, const bool *configured,
                             struct mw_err *e)
{
    const struct mw_bundle_ops *b = (const struct mw_bundle_ops *)bi->pol;
    /* every message is made before the instance is released: its ops table may belong to it (a Lua bundle) */
    if (b->base.point != MW_PT_BUNDLE) {
        mw_err_set(e, MW_EINVAL, NULL, 0, 0, "policy '%s' is not a bundle", b->base.name);
        mw_policy_inst_fini(bi);
        return e->code;
    }
    const struct mw_bundle_ops *old = (const struct mw_bundle_ops *)s->pol[slot].pol;
    for (int k = 0; old && k < MW_SLOT_BUNDLE; k++)
        if (old->members[k]) {
            mw_err_set(e, MW_EINVAL, NULL, 0, 0, "bundle '%s' is already installed: a simulation takes one bundle",
                       old->base.name);
            mw_policy_inst_fini(bi);
            return e->code;
        }
    for (int k = 0; k < MW_SLOT_BUNDLE; k++)
        if (b->members[k] && configured && configured[k]) {
            mw_err_set(e, MW_EINVAL, NULL, 0, 0,
                       "policies.%s is set to a policy other than its default, but bundle '%s' provides that "
                       "decision point (remove one)",
                       mw_slot_names[k], b->base.name);
            mw_policy_inst_fini(bi);
            return e->code;
        }
    /* the first bundle goes in before the second, which may have composed its members with the first's */
    const struct mw_bundle_ops *second = (const struct mw_bundle_ops *)s->pol[MW_SLOT_BUNDLE2].pol;
    for (int k = 0; slot == MW_SLOT_BUNDLE && second && k < MW_SLOT_BUNDLE; k++)
        if (second->members[k]) {
            mw_err_set(e, MW_EINVAL, NULL, 0, 0,
                       "bundle '%s' (policies.bundle2) is installed: policies.bundle cannot change after it",
                       second->base.name);
            mw_policy_inst_fini(bi);
            return e->code;
        }
    /* the second bundle: a slot the first one fills is shared only where the point composes */
    const struct mw_policy_inst *first = &s->pol[MW_SLOT_BUNDLE];
    for (int k = 0; slot == MW_SLOT_BUNDLE2 && k < MW_SLOT_BUNDLE; k++)
        if (b->members[k] && s->pol[k].bundle == first && !mw_compose_rule(mw_slot_point(k))) {
            mw_err_set(e, MW_EINVAL, NULL, 0, 0,
                       "bundles '%s' (policies.bundle) and '%s' (policies.bundle2) both provide policies.%s, and two "
                       "%s policies do not compose (two bundles may share only cta_throttle: the smaller limit)",
                       first->pol ? first->pol->name : "?", b->base.name, mw_slot_names[k], mw_slot_names[k]);
            mw_policy_inst_fini(bi);
            return e->code;
        }
    int rc = mw_sim_install_slot(s, slot, bi, e);
    if (rc) return rc;
    for (int k = 0; k < MW_SLOT_BUNDLE; k++) {
        if (!b->members[k]) continue;
        struct mw_policy_inst mi;
        rc = mw_policy_inst_init(&mi, b->members[k], s, NULL, NULL, 0, e);
        if (rc) return rc;
        mi.bundle = &s->pol[slot];
        bool shared = slot == MW_SLOT_BUNDLE2 && s->pol[k].bundle == first;
        rc = shared ? mw_compose_install(s, k, &mi, e) : mw_sim_install_slot(s, k, &mi, e);
        if (rc) return rc;
    }
    return 0;
}

/* A decision point's slot, MW_SLOT_BUNDLE for MW_PT_BUNDLE, -1 for anything else. */
static int slot_of_point(enum mw_point pt)
{
    if ((unsigned)pt < MW_PT_COUNT) return (int)pt;
    return pt == MW_PT_BUNDLE ? MW_SLOT_BUNDLE : -1;
}

int mw_sim_install_policy(struct mw_sim *s, enum mw_point pt, struct mw_policy_inst *pi, struct mw_err *e)
{
    int slot = slot_of_point(pt);
    if (slot < 0) {
        mw_policy_inst_fini(pi);
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "no decision point %d", (int)pt);
    }
    if (slot == MW_SLOT_BUNDLE) return mw_sim_install_bundle(s, pi, NULL, e);
    return mw_sim_install_slot(s, slot, pi, e);
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

struct mw_policy_inst *mw_sim_policy(struct mw_sim *s, enum mw_point pt)
{
    if ((unsigned)pt < MW_SLOT_COUNT) return &s->pol[pt]; /* a point, or a slot number (l2_replacement, bundle) */
    int slot = slot_of_point(pt);
    return slot < 0 ? NULL : &s->pol[slot];
}

void mw_emit(struct mw_sim *s, const struct mw_event *ev)
{
    for (int k = 0; k < MW_SLOT_COUNT; k++) {
        struct mw_policy_inst *pi = &s->pol[k];
        if (pi->pol && pi->pol->on_event && (pi->pol->events >> ev->kind & 1u)) pi->pol->on_event(pi, ev);
    }
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
    mw_err_set(&e, MW_EHOOK, NULL, 0, 0, "%s '%s': %s", pi->slot == MW_SLOT_L2_REPLACEMENT ? "l2_replacement" : mw_point_name(pi->pol->point), pi->pol->name, msg);
    mw_sim_fail(s, &e);
}
