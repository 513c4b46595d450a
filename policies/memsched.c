/* Choo 2016, Ch.6: memory request scheduling (MemSched), ldst_scheduler `memsched`.
 *
 * The LDST unit holds one request-queue slot per warp (48 on the GTX480) instead of one instruction, so a warp
 * issues its memory instruction without waiting for the unit (its coalesced requests, up to 32, are the slot's
 * depth). Each cycle k probe units look at the head requests of k non-empty slots; a hit is served first (the
 * earliest slot of the group), else the first miss whose resources (a line in its set, an MSHR, miss-queue room)
 * are free; if none can proceed the first of the group goes and stalls as in the baseline. One request per cycle
 * reaches L1D (the single data port).
 *
 * Slot order is warp id (the thesis chooses a slot by warp ID). `order`: fixed = the group is always the k
 * lowest-id warps with a request waiting (FIXED's priority to lower slots); rr = one slot at a time in turn
 * (k = 1); grr = GroupedRR, the next k slots from a round-robin pointer that moves past the group each cycle
 * (N6: slots i .. i+k-1). A warp with two instructions waiting shows its older one (the lower instruction id).
 * `slots` is the queue count (48); depth 32 is one coalesced warp instruction. */
#include "policy.h"
#include "sim.h"

#include <stdlib.h>
#include <string.h>

enum { ORD_FIXED = 0, ORD_RR, ORD_GRR };
struct ms_params {
    int64_t slots, k;
    int order;
};
static const struct mw_param_desc ms_params[] = {
    MW_PARAM(struct ms_params, slots, MW_PP_INT, "48", 1, 1024, NULL, "request-queue slots (one per warp)"),
    MW_PARAM(struct ms_params, k, MW_PP_INT, "4", 1, 48, NULL, "cache probe units: head requests probed per cycle"),
    MW_PARAM(struct ms_params, order, MW_PP_ENUM, "grr", 0, 0, "fixed|rr|grr", "slot scheduling: FIXED, RR, GroupedRR"),
};

struct ms_state {
    int *ptr; /* per SM: the round-robin pointer (a warp id) */
    int nsms;
    int c_hit, c_ready, c_stall;
};

static int ms_create(struct mw_policy_inst *pi, struct mw_err *e)
{
    struct ms_state *st = calloc(1, sizeof *st);
    if (!st) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    pi->state = st;
    return 0;
}

static void ms_destroy(struct mw_policy_inst *pi)
{
    struct ms_state *st = pi->state;
    if (st) free(st->ptr);
    free(st);
    pi->state = NULL;
}

static void ms_start(struct mw_policy_inst *pi)
{
    struct ms_state *st = pi->state;
    st->nsms = mw_n_sms(pi->sim);
    st->ptr = calloc((size_t)st->nsms, sizeof *st->ptr);
    if (!st->ptr) abort(); /* one int per SM */
    st->c_hit = mw_policy_counter(pi, "probe_hit", "cycles a probed head request hit and was served");
    st->c_ready = mw_policy_counter(pi, "probe_ready", "cycles a probed miss with free resources was served");
    st->c_stall = mw_policy_counter(pi, "probe_none", "cycles no probed head request could proceed");
}

static int ms_slots(struct mw_policy_inst *pi) { return (int)((const struct ms_params *)pi->params)->slots; }

/* Could candidate h proceed this cycle without a reservation failure? 2 = a hit, 1 = a serviceable miss or a
 * store, 0 = it would stall. */
static int ms_probe(struct mw_sim *s, int sm, const struct mw_ldst_head *h)
{
    int missq_room = mw_l1d_missq_size(s) - mw_l1d_missq_used(s, sm);
    if (h->op != MW_OP_LD_GLOBAL && h->op != MW_OP_LD_LOCAL) return missq_room >= 1;
    int lk = mw_l1d_lookup(s, sm, h->req.line, h->req.sectors);
    if (lk == MW_LOOKUP_HIT) return 2;
    bool line_ok = lk != MW_LOOKUP_MISS || mw_l1d_can_allocate(s, sm, h->req.set);
    return line_ok && mw_l1d_mshr_free(s, sm) > 0 && missq_room >= 2;
}

/* The choice among the candidates, given each one's warp and probe outcome (exposed for the unit tests through
 * the policy's pick; kept free of engine calls). cand[] are indices into the pick list in the group's order. */
static int ms_choose(const int *probe, int ng)
{
    for (int i = 0; i < ng; i++)
        if (probe[i] == 2) return i;
    for (int i = 0; i < ng; i++)
        if (probe[i] == 1) return i;
    return 0;
}

static int ms_pick(struct mw_policy_inst *pi, int sm, const uint16_t *warps, int n)
{
    struct ms_state *st = pi->state;
    const struct ms_params *p = pi->params;
    struct mw_sim *s = pi->sim;
    enum { MAXW = 1024 };
    struct mw_ldst_head heads[MAXW];
    int nh = mw_ldst_heads(s, sm, heads, MAXW);
    /* one candidate per warp (its oldest instruction), found by warp id */
    int of[MAXW], maxw = 0;
    for (int i = 0; i < n; i++)
        if (warps[i] + 1 > maxw) maxw = warps[i] + 1;
    for (int w = 0; w < maxw; w++) of[w] = -1;
    for (int i = 0; i < n; i++) {
        if (i >= nh) { /* not the engine's list (a unit test's): a load of line 0 */
            memset(&heads[i], 0, sizeof heads[i]);
            heads[i].warp = warps[i], heads[i].op = MW_OP_LD_GLOBAL, heads[i].inst = UINT64_MAX;
        }
        int w = warps[i];
        if (of[w] < 0 || heads[i].inst < heads[of[w]].inst) of[w] = i;
    }
    /* the group: the next k warps with a request waiting, by warp id from the pointer (FIXED: from 0), wrapping */
    int k = p->order == ORD_RR ? 1 : (int)p->k;
    int start = p->order == ORD_FIXED || st->ptr[sm] >= maxw ? 0 : st->ptr[sm];
    int cand[64], probe[64], ng = 0;
    for (int j = 0; j < maxw && ng < k && ng < 64; j++) {
        int w = (start + j) % maxw;
        if (of[w] < 0) continue;
        cand[ng] = of[w];
        probe[ng] = ms_probe(s, sm, &heads[of[w]]);
        ng++;
    }
    int c = ms_choose(probe, ng);
    mw_policy_count(pi, probe[c] == 2 ? st->c_hit : probe[c] == 1 ? st->c_ready : st->c_stall, 1);
    if (p->order != ORD_FIXED) st->ptr[sm] = warps[cand[ng - 1]] + 1; /* the next group starts past this one */
    return cand[c];
}

static const struct mw_ldst_sched_ops mw_pol_memsched = {
    .base = {.point = MW_PT_LDST_SCHED, .name = "memsched",
             .desc = "Choo 2016 MemSched: per-warp request queues, k probe units, FIXED / RR / GroupedRR",
             .params = ms_params, .nparams = 3, .params_size = sizeof(struct ms_params),
             .create = ms_create, .destroy = ms_destroy, .start = ms_start},
    .slots = ms_slots,
    .pick = ms_pick,
};

MW_REGISTER_POLICIES(&mw_pol_memsched.base);
