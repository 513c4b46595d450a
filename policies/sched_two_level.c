/* Two-level warp scheduling (Narasiman et al., MICRO'11): a small active set per scheduler is scheduled
 * round-robin; a warp that issues a long-latency (global/local memory) instruction leaves it for the pending
 * queue and the oldest pending warp takes its place, so memory instructions are not issued back to back.
 * A warp that arrives at a barrier leaves the active set too, and a warp still waiting at a barrier is not
 * promoted: otherwise an active set full of waiting warps would lock out the warps the barrier waits for. */
#include "policy.h"
#include "sched_state.h"

#include <string.h>

struct params {
    int64_t active_warps;
};
static const struct mw_param_desc params[] = {
    MW_PARAM(struct params, active_warps, MW_PP_INT, "8", 1, 256, NULL, "warps in each scheduler's active set"),
};

enum { NONE = 0, ACTIVE, PENDING };
struct sched {
    int last, nactive;
    int qhead, qn;           /* pending FIFO, ring over warp ids */
    uint16_t *queue;
    uint8_t *where;
    uint64_t *age;           /* age seen when enrolled: a new warp in the slot has another age */
};
struct state {
    int nwarps, nsched;
    struct sched *s;
};

static int create(struct mw_policy_inst *pi, struct mw_err *e)
{
    struct state *st = calloc(1, sizeof *st);
    if (!st) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    st->nwarps = pi->sim ? mw_max_warps(pi->sim) : 64;
    st->nsched = mw_sched_slots(pi);
    st->s = calloc((size_t)st->nsched, sizeof *st->s);
    pi->state = st;
    if (!st->s) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < st->nsched; i++) {
        struct sched *s = &st->s[i];
        s->last = -1;
        s->queue = calloc((size_t)st->nwarps * 4, sizeof *s->queue);
        s->where = calloc((size_t)st->nwarps, 1);
        s->age = calloc((size_t)st->nwarps, sizeof *s->age);
        if (!s->queue || !s->where || !s->age) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    }
    return 0;
}

static void destroy(struct mw_policy_inst *pi)
{
    struct state *st = pi->state;
    if (!st) return;
    for (int i = 0; st->s && i < st->nsched; i++) free(st->s[i].queue), free(st->s[i].where), free(st->s[i].age);
    free(st->s);
    free(st);
}

static void push_pending(struct state *st, struct sched *s, int w);

static void promote(struct mw_policy_inst *pi, int sm, struct state *st, struct sched *s, int cap)
{
    int budget = s->qn; /* each entry looked at once: waiting warps go to the back */
    while (s->nactive < cap && s->qn > 0 && budget-- > 0) {
        int w = s->queue[s->qhead];
        s->qhead = (s->qhead + 1) % (4 * st->nwarps);
        s->qn--;
        if (s->where[w] != PENDING) continue;
        if (pi->sim && mw_warp_at_barrier(pi->sim, sm, w)) {
            push_pending(st, s, w);
            continue;
        }
        s->where[w] = ACTIVE;
        s->nactive++;
    }
}

static void push_pending(struct state *st, struct sched *s, int w)
{
    if (s->qn == 4 * st->nwarps) { /* drop stale entries (warps no longer pending) */
        int n = 0, cap = 4 * st->nwarps;
        for (int i = 0; i < s->qn; i++) {
            int x = s->queue[(s->qhead + i) % cap];
            if (s->where[x] == PENDING) s->queue[n++] = (uint16_t)x;
        }
        s->qhead = 0;
        s->qn = n;
    }
    s->queue[(s->qhead + s->qn) % (4 * st->nwarps)] = (uint16_t)w;
    s->qn++;
    s->where[w] = PENDING;
}

static bool qualify(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    (void)in;
    struct state *st = pi->state;
    struct sched *s = &st->s[mw_sched_index(pi, sm, sched)];
    uint64_t age = mw_warp_age(pi->sim, sm, w);
    if (s->where[w] == NONE || s->age[w] != age) { /* a warp new to this slot */
        if (s->where[w] == ACTIVE) s->nactive--;
        s->age[w] = age;
        push_pending(st, s, w);
    }
    promote(pi, sm, st, s, (int)((const struct params *)pi->params)->active_warps);
    return s->where[w] == ACTIVE;
}

static int pick(struct mw_policy_inst *pi, int sm, int sched, const uint16_t *ready, int n)
{
    struct state *st = pi->state;
    int last = st->s[mw_sched_index(pi, sm, sched)].last;
    for (int i = 0; i < n; i++)
        if (ready[i] > last) return i;
    return 0;
}

static void issued(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    struct state *st = pi->state;
    struct sched *s = &st->s[mw_sched_index(pi, sm, sched)];
    s->last = w;
    bool long_latency = in->op == MW_OP_LD_GLOBAL || in->op == MW_OP_LD_LOCAL || in->op == MW_OP_ATOMIC ||
                        in->op == MW_OP_BARRIER;
    if ((long_latency || in->op == MW_OP_EXIT) && s->where[w] == ACTIVE) {
        s->nactive--;
        if (in->op == MW_OP_EXIT) s->where[w] = NONE;
        else push_pending(st, s, w);
        promote(pi, sm, st, s, (int)((const struct params *)pi->params)->active_warps);
    }
}

static const struct mw_warp_sched_ops mw_pol_two_level = {
    .base = {.point = MW_PT_WARP_SCHED, .name = "two_level",
             .desc = "two-level: round-robin within a small active set; long-latency loads demote a warp",
             .params = params, .nparams = 1, .params_size = sizeof(struct params),
             .create = create, .destroy = destroy},
    .pick = pick,
    .qualify = qualify,
    .issued = issued,
};

MW_REGISTER_POLICIES(&mw_pol_two_level.base);
