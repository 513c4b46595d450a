/* Two policies in one slot, where two bundles (policies.bundle, policies.bundle2) both fill it and the point has a
 * defined composition: one instance in the slot holds both members, hands every hook, event and start / finish to
 * both, and decides by the point's rule. Defined today: cta_throttle, the smaller of the two limits (the most
 * restrictive throttle wins, as when PCAL's TLP cap and Linebacker's CTA throttling run together). */
#include "simctx.h"

#include <stdlib.h>
#include <string.h>

const char *mw_compose_rule(enum mw_point pt)
{
    return pt == MW_PT_CTA_THROTTLE ? "the smaller of the two limits" : NULL;
}

struct compose_state {
    struct mw_policy_inst m[2];     /* the first bundle's member, then the second's */
    struct mw_cta_throttle_ops ops; /* this instance's own ops table: events and line bytes are the members' */
};

static int c_limit(struct mw_policy_inst *pi, int sm, int resident)
{
    struct compose_state *st = pi->state;
    int lim = 1 << 30; /* a member without a limit hook places no cap */
    for (int i = 0; i < 2; i++) {
        const struct mw_cta_throttle_ops *o = (const struct mw_cta_throttle_ops *)st->m[i].pol;
        if (o->limit) {
            int l = o->limit(&st->m[i], sm, resident);
            if (l < lim) lim = l;
        }
    }
    return lim;
}

static void c_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    struct compose_state *st = pi->state;
    for (int i = 0; i < 2; i++) {
        struct mw_policy_inst *m = &st->m[i];
        if (m->pol->on_event && (m->pol->events >> ev->kind & 1u)) m->pol->on_event(m, ev);
    }
}

static void c_start(struct mw_policy_inst *pi)
{
    struct compose_state *st = pi->state;
    st->m[0].meta_off = pi->meta_off;
    st->m[1].meta_off = pi->meta_off + st->m[0].pol->line_meta_bytes;
    for (int i = 0; i < 2; i++) {
        struct mw_policy_inst *m = &st->m[i];
        if (m->pol->start) m->pol->start(m);
        if (m->window) /* the event bus keeps windows per slot: a member's own would never come */
            mw_hook_fail(pi->sim, m, "a member composed with another in one slot cannot keep its own window "
                                     "(mw_window_set); keep it on the bundle's shared instance");
    }
}

static void c_finish(struct mw_policy_inst *pi)
{
    struct compose_state *st = pi->state;
    for (int i = 0; i < 2; i++)
        if (st->m[i].pol->finish) st->m[i].pol->finish(&st->m[i]);
}

static void c_destroy(struct mw_policy_inst *pi)
{
    struct compose_state *st = pi->state;
    if (!st) return;
    mw_policy_inst_fini(&st->m[0]);
    mw_policy_inst_fini(&st->m[1]);
    free(st);
    pi->state = NULL;
}

int mw_compose_install(struct mw_sim *s, int k, struct mw_policy_inst *b, struct mw_err *e)
{
    struct mw_policy_inst *a = &s->pol[k];
    enum mw_point pt = mw_slot_point(k);
    if (!mw_compose_rule(pt) || pt != MW_PT_CTA_THROTTLE || !a->pol) {
        mw_err_set(e, MW_EINVAL, NULL, 0, 0, "policies.%s: two %s policies cannot share a slot", mw_slot_names[k],
                   mw_point_name(pt));
        mw_policy_inst_fini(b);
        return e->code;
    }
    struct compose_state *st = calloc(1, sizeof *st);
    if (!st) {
        mw_policy_inst_fini(b);
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    }
    st->m[0] = *a;
    st->m[1] = *b;
    st->m[1].sim = s;
    st->m[1].slot = k;
    memset(b, 0, sizeof *b);
    uint32_t ev = 0;
    for (int i = 0; i < 2; i++)
        if (st->m[i].pol->on_event) ev |= st->m[i].pol->events;
    st->ops = (struct mw_cta_throttle_ops){
        .base = {.point = pt, .name = "composed",
                 .desc = "two bundles' members in one slot: the smaller of the two limits",
                 .events = ev, .line_meta_bytes = st->m[0].pol->line_meta_bytes + st->m[1].pol->line_meta_bytes,
                 .destroy = c_destroy, .on_event = c_event, .start = c_start, .finish = c_finish},
        .limit = c_limit,
    };
    /* the slot's instance is now the composition; it reports as a member of the second bundle (sim:policy refuses
     * to replace it, as it refuses any bundle member). Installing it recomputes the event mask and windows. */
    struct mw_policy_inst tmp = {.pol = &st->ops.base, .sim = s, .slot = k, .state = st, .bundle = st->m[1].bundle};
    memset(a, 0, sizeof *a);
    return mw_sim_install_slot(s, k, &tmp, e);
}
