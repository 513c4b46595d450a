/* MRPB (Jia, Shaw, Martonosi, HPCA'14), Choo 2016's competitor: bundle `mrpb` (ldst_scheduler + l1d_bypass).
 *
 * Request reordering: memory requests wait in FIFO queues in front of L1D, chosen by a signature, the warp ID;
 * a drain policy picks the queue whose head goes to L1D next: a fixed priority, the lowest-numbered non-empty
 * queue first (within a queue, the oldest instruction). Cache bypassing: a load that misses and finds no line
 * it can allocate (an associativity stall: every way of its set reserved for a pending fill) goes past L1D to
 * L2 instead of stalling the unit. Sources (docs/papers/choo.md, "MRPB"): the queues, the warp-ID signature,
 * the fixed-priority drain and the associativity-stall trigger are as restated by Aamodt, Fung and Rogers,
 * "General-Purpose Graphics Processor Architectures" (2018), section 4.4.3; the associativity-stall trigger
 * also by Wang, Zhu, Yu, OAWS (2016). The thesis says only "buffers and reorders requests per warp" and
 * "bypasses L1D whenever a resource-unavailable event occurs".
 *
 * [X] not in any text we could read: the queue count and depth, so the buffer holds `slots` instructions
 * (default 8) and a request's queue is its warp slot mod `queues` (0: one queue per warp slot). Parameters
 * for the other readings: `drain = fixed | warp | oldest` (fixed: the published rule; warp: keep draining the
 * warp served last, then the oldest instruction, this file's earlier reading; oldest: the oldest instruction
 * each cycle), `bypass_on = line | alloc | any | none` (line: the published associativity stall; alloc: also a
 * full MSHR table, the earlier reading; any: also a full miss queue, which a bypass cannot avoid; none:
 * reordering only). */
#include "policy.h"
#include "sim.h"

#include <stdlib.h>

enum { DRAIN_FIXED = 0, DRAIN_WARP, DRAIN_OLDEST };
enum { BYP_LINE = 0, BYP_ALLOC, BYP_ANY, BYP_NONE };
struct mrpb_params {
    int64_t slots;
    int drain;
    int bypass_on;
    int64_t queues;
};
static const struct mw_param_desc mrpb_params[] = {
    MW_PARAM(struct mrpb_params, slots, MW_PP_INT, "8", 1, 1024, NULL, "instructions buffered in front of L1D"),
    MW_PARAM(struct mrpb_params, drain, MW_PP_ENUM, "fixed", 0, 0, "fixed|warp|oldest",
             "fixed: the lowest-numbered non-empty queue; warp: keep draining the last served warp's requests; "
             "oldest: the oldest instruction each cycle"),
    MW_PARAM(struct mrpb_params, bypass_on, MW_PP_ENUM, "line", 0, 0, "line|alloc|any|none",
             "bypass a load after a failed reservation: no line to allocate (line), line or MSHR (alloc), any cause, "
             "or never"),
    MW_PARAM(struct mrpb_params, queues, MW_PP_INT, "0", 0, 1024, NULL,
             "signature queues: a request's queue is its warp slot mod queues (0: one per warp slot)"),
};

struct mrpb_state {
    int *cur; /* per SM: the warp being drained, -1 none */
    int nsms;
    int c_bypass;
};

static int mrpb_create(struct mw_policy_inst *pi, struct mw_err *e)
{
    struct mrpb_state *st = calloc(1, sizeof *st);
    if (!st) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    pi->state = st;
    return 0;
}

static void mrpb_destroy(struct mw_policy_inst *pi)
{
    struct mrpb_state *st = pi->state;
    if (st) free(st->cur);
    free(st);
    pi->state = NULL;
}

static void mrpb_sched_start(struct mw_policy_inst *pi)
{
    struct mrpb_state *st = pi->bundle->state;
    st->nsms = mw_n_sms(pi->sim);
    st->cur = malloc((size_t)st->nsms * sizeof *st->cur);
    if (!st->cur) abort(); /* one int per SM */
    for (int i = 0; i < st->nsms; i++) st->cur[i] = -1;
}

static void mrpb_bypass_start(struct mw_policy_inst *pi)
{
    struct mrpb_state *st = pi->bundle->state;
    st->c_bypass = mw_policy_counter(pi, "stall_bypass", "requests bypassed after a failed reservation");
}

static int mrpb_slots(struct mw_policy_inst *pi)
{
    return (int)((const struct mrpb_params *)pi->bundle->params)->slots;
}

static int mrpb_pick(struct mw_policy_inst *pi, int sm, const uint16_t *warps, int n)
{
    struct mrpb_state *st = pi->bundle->state;
    const struct mrpb_params *p = pi->bundle->params;
    int best = -1, best_cur = -1;
    uint64_t bi = UINT64_MAX, bc = UINT64_MAX;
    struct mw_ldst_head h[1024];
    int nh = mw_ldst_heads(pi->sim, sm, h, 1024);
    int bq = -1;
    for (int i = 0; i < n; i++) {
        uint64_t id = i < nh ? h[i].inst : UINT64_MAX - 1;
        if (p->drain == DRAIN_FIXED) { /* the lowest queue number first, then the oldest instruction in it */
            int q = p->queues ? warps[i] % (int)p->queues : warps[i];
            if (best < 0 || q < bq || (q == bq && id < bi)) best = i, bq = q, bi = id;
            continue;
        }
        if (id < bi || best < 0) best = i, bi = id;
        if (warps[i] == st->cur[sm] && (best_cur < 0 || id < bc)) best_cur = i, bc = id;
    }
    int k = p->drain == DRAIN_WARP && best_cur >= 0 ? best_cur : best;
    st->cur[sm] = warps[k];
    return k;
}

static int mrpb_decide(struct mw_policy_inst *pi, const struct mw_bypass_ctx *c)
{
    struct mrpb_state *st = pi->bundle->state;
    const struct mrpb_params *p = pi->bundle->params;
    if (c->retry == MW_STALL_NONE || p->bypass_on == BYP_NONE) return MW_CACHE;
    if (p->bypass_on == BYP_LINE && c->retry != MW_STALL_LINE_ALLOC) return MW_CACHE;
    if (p->bypass_on == BYP_ALLOC && c->retry == MW_STALL_MISS_QUEUE) return MW_CACHE;
    mw_policy_count(pi, st->c_bypass, 1);
    return MW_BYPASS;
}

static const struct mw_ldst_sched_ops mrpb_sched = {
    .base = {.point = MW_PT_LDST_SCHED, .name = "mrpb", .desc = "MRPB request queues by warp ID, drain policy",
             .start = mrpb_sched_start},
    .slots = mrpb_slots,
    .pick = mrpb_pick,
};
static const struct mw_l1d_bypass_ops mrpb_bypass = {
    .base = {.point = MW_PT_L1D_BYPASS, .name = "mrpb", .desc = "MRPB bypass on a resource stall",
             .start = mrpb_bypass_start},
    .decide = mrpb_decide,
    .retries = true,
};
static const struct mw_bundle_ops mw_pol_mrpb = {
    .base = {.point = MW_PT_BUNDLE, .name = "mrpb",
             .desc = "MRPB (Jia HPCA'14): per-warp request reordering buffers plus L1D bypass on a resource stall",
             .params = mrpb_params, .nparams = 4, .params_size = sizeof(struct mrpb_params),
             .create = mrpb_create, .destroy = mrpb_destroy},
    .members = {[MW_PT_LDST_SCHED] = &mrpb_sched.base, [MW_PT_L1D_BYPASS] = &mrpb_bypass.base},
};

MW_REGISTER_POLICIES(&mw_pol_mrpb.base);
