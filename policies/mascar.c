/* MASCAR (A. Sethia, D. Jamshidi, S. Mahlke, HPCA'15; the OAWS PACT'16 competitor, Table 3): memory-aware
 * scheduling and cache access re-execution, one bundle over the warp scheduler and the LD/ST scheduler.
 * The memory subsystem is saturated when at most `sat_mshr` L1D MSHRs or `sat_port` miss-queue (memory port)
 * slots are left. Not saturated: warps whose next instruction is a memory instruction go before compute (GTO
 * within each group). Saturated: only the owner warp (the oldest warp with a memory instruction when saturation
 * began, kept until it issues a non-memory instruction) may issue memory instructions; the others issue compute.
 * Re-execution (`rexq_mode`): `accesses` (the published design) gives the LD/ST unit a queue of `rexq` accesses
 * (ldst_sched_ops.rexq): an access that cannot get an MSHR, a line or a memory-port slot moves into it, so the
 * unit serves the next access (hits under the stall); the queue replays its head in order when resources may
 * have freed, before new accesses (`replay_first`) [I: the replay priority]; full, the unit stalls.
 * `instructions` (the earlier approximation) lets the unit hold up to `rexq` memory instructions instead, whose
 * accesses take turns (the owner's first when saturated). */
#include "policy.h"
#include "sched_state.h"
#include "sim.h"

#include <string.h>

struct params {
    int64_t sat_mshr, sat_port, rexq;
    bool memory_first;
    int rexq_mode;
    bool replay_first;
};
enum { REXQ_ACCESSES = 0, REXQ_INSTRUCTIONS };
static const struct mw_param_desc params[] = {
    MW_PARAM(struct params, sat_mshr, MW_PP_INT, "1", 0, 1024, NULL, "saturated at this many free L1D MSHRs or fewer"),
    MW_PARAM(struct params, sat_port, MW_PP_INT, "1", 0, 1024, NULL,
             "saturated at this many free memory-port (miss-queue) slots or fewer"),
    MW_PARAM(struct params, rexq, MW_PP_INT, "32", 1, 1024, NULL,
             "re-execution queue entries: stalled accesses (rexq_mode accesses) or memory instructions the LD/ST "
             "unit holds at once (instructions; 1 = no re-execution)"),
    MW_PARAM(struct params, memory_first, MW_PP_BOOL, "true", 0, 0, NULL,
             "not saturated: memory instructions go before compute"),
    MW_PARAM(struct params, rexq_mode, MW_PP_ENUM, "accesses", 0, 0, "accesses|instructions",
             "what the re-execution queue holds: stalled L1D accesses (MASCAR's design) or whole memory instructions "
             "taking turns (the earlier approximation)"),
    MW_PARAM(struct params, replay_first, MW_PP_BOOL, "true", 0, 0, NULL,
             "rexq_mode accesses: a due replay goes before the unit's next new access (false: only when it has none)"),
};

struct smst {
    int owner;          /* -1 = none */
    uint64_t owner_age;
    int last_ldst;      /* warp whose slot the LD/ST unit served last */
    uint64_t sat_cycles_at;
};
struct state {
    int nsm, nsched, nwarps;
    struct smst *sm;
    int *greedy;
    int c_sat, c_owner;
};

static int create(struct mw_policy_inst *pi, struct mw_err *e)
{
    struct state *st = calloc(1, sizeof *st);
    if (!st) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    pi->state = st;
    st->nsm = pi->sim ? mw_n_sms(pi->sim) : 1;
    st->nsched = pi->sim ? mw_n_schedulers(pi->sim) : 2;
    st->nwarps = pi->sim ? mw_max_warps(pi->sim) : 48;
    st->sm = calloc((size_t)st->nsm, sizeof *st->sm);
    st->greedy = malloc((size_t)mw_sched_slots(pi) * sizeof *st->greedy);
    if (!st->sm || !st->greedy) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < st->nsm; i++) st->sm[i].owner = -1, st->sm[i].last_ldst = -1;
    for (int i = 0; i < mw_sched_slots(pi); i++) st->greedy[i] = -1;
    st->c_sat = mw_policy_counter(pi, "saturated_cycles", "scheduler cycles asked while saturated (per SM)");
    st->c_owner = mw_policy_counter(pi, "owners", "owner warps chosen");
    return 0;
}

static void destroy(struct mw_policy_inst *pi)
{
    struct state *st = pi->state;
    if (!st) return;
    free(st->sm);
    free(st->greedy);
    free(st);
}

static bool is_mem(int op)
{
    return op == MW_OP_LD_GLOBAL || op == MW_OP_ST_GLOBAL || op == MW_OP_LD_LOCAL || op == MW_OP_ST_LOCAL ||
           op == MW_OP_ATOMIC;
}

/* Saturation from the engine's facts (exposed for tests). */
bool mw_mascar_saturated(const struct mw_sim *s, const struct mw_policy_inst *shared, int sm);
bool mw_mascar_saturated(const struct mw_sim *s, const struct mw_policy_inst *shared, int sm)
{
    const struct params *p = shared->params;
    return mw_l1d_mshr_free(s, sm) <= p->sat_mshr || mw_l1d_missq_size(s) - mw_l1d_missq_used(s, sm) <= p->sat_port;
}

static bool head_is_mem(const struct mw_sim *s, int sm, int w)
{
    const struct mw_inst *in = mw_warp_next_inst(s, sm, w);
    return in && is_mem(in->op);
}

/* The owner while saturated: the current one while its head is a memory instruction, else the oldest live warp
 * whose head is one. */
static int owner_of(struct mw_policy_inst *pi, struct state *st, int sm)
{
    struct smst *s = &st->sm[sm];
    if (s->owner >= 0 && mw_warp_active(pi->sim, sm, s->owner) && mw_warp_age(pi->sim, sm, s->owner) == s->owner_age &&
        head_is_mem(pi->sim, sm, s->owner))
        return s->owner;
    uint16_t ws[1024];
    int best = -1;
    uint64_t best_age = UINT64_MAX;
    for (int k = 0; k < st->nsched; k++) {
        int n = mw_sched_warps(pi->sim, sm, k, ws, 1024);
        for (int i = 0; i < n; i++) {
            uint64_t a = mw_warp_age(pi->sim, sm, ws[i]);
            if (a < best_age && head_is_mem(pi->sim, sm, ws[i])) best_age = a, best = ws[i];
        }
    }
    if (best != s->owner && best >= 0) mw_policy_count(pi->bundle, st->c_owner, 1);
    s->owner = best;
    s->owner_age = best_age;
    return best;
}

static bool qualify(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    (void)sched;
    struct state *st = pi->bundle->state;
    if (!is_mem(in->op) || !mw_mascar_saturated(pi->sim, pi->bundle, sm)) return true;
    return owner_of(pi, st, sm) == w;
}

static int gto_among(struct mw_policy_inst *pi, int sm, int greedy, const uint16_t *ready, int n, int want_mem)
{
    int best = -1;
    uint64_t best_age = UINT64_MAX;
    for (int i = 0; i < n; i++) {
        if (want_mem >= 0 && head_is_mem(pi->sim, sm, ready[i]) != (bool)want_mem) continue;
        if (ready[i] == greedy) return i;
        uint64_t a = mw_warp_age(pi->sim, sm, ready[i]);
        if (a < best_age) best_age = a, best = i;
    }
    return best;
}

static int pick(struct mw_policy_inst *pi, int sm, int sched, const uint16_t *ready, int n)
{
    struct state *st = pi->bundle->state;
    const struct params *p = pi->bundle->params;
    int greedy = st->greedy[mw_sched_index(pi, sm, sched)];
    int k = -1;
    if (mw_mascar_saturated(pi->sim, pi->bundle, sm)) {
        mw_policy_count(pi->bundle, st->c_sat, 1);
        int o = owner_of(pi, st, sm);
        for (int i = 0; i < n; i++)
            if (ready[i] == o) return i;
        k = gto_among(pi, sm, greedy, ready, n, 0);
    } else if (p->memory_first) {
        k = gto_among(pi, sm, greedy, ready, n, 1);
    }
    return k >= 0 ? k : gto_among(pi, sm, greedy, ready, n, -1);
}

static void issued(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    (void)in;
    struct state *st = pi->bundle->state;
    st->greedy[mw_sched_index(pi, sm, sched)] = w;
}

static int ldst_slots(struct mw_policy_inst *pi)
{
    const struct params *p = pi->bundle->params;
    return p->rexq_mode == REXQ_INSTRUCTIONS ? (int)p->rexq : 1;
}
static int ldst_rexq(struct mw_policy_inst *pi, bool *replay_first)
{
    const struct params *p = pi->bundle->params;
    *replay_first = p->replay_first;
    return p->rexq_mode == REXQ_ACCESSES ? (int)p->rexq : 0;
}

/* Re-execution: the instructions in the LD/ST unit take turns, the one after the warp served last (so a stalled
 * access is retried after the others had their go); the owner's first while saturated. */
static int ldst_pick(struct mw_policy_inst *pi, int sm, const uint16_t *warps, int n)
{
    struct state *st = pi->bundle->state;
    struct smst *s = &st->sm[sm];
    if (s->owner >= 0 && mw_mascar_saturated(pi->sim, pi->bundle, sm))
        for (int i = 0; i < n; i++)
            if (warps[i] == s->owner) return s->last_ldst = warps[i], i;
    int k = 0, best = -1;
    for (int i = 0; i < n; i++) /* the smallest warp id above the last one, else the smallest */
        if (warps[i] > s->last_ldst && (best < 0 || warps[i] < warps[best])) best = i;
    if (best < 0)
        for (int i = 0; i < n; i++)
            if (warps[i] < warps[k]) k = i;
    k = best >= 0 ? best : k;
    s->last_ldst = warps[k];
    return k;
}

static const struct mw_warp_sched_ops mascar_sched = {
    .base = {.point = MW_PT_WARP_SCHED, .name = "mascar_sched", .desc = "MASCAR's memory-aware warp scheduler"},
    .pick = pick,
    .qualify = qualify,
    .issued = issued,
};
static const struct mw_ldst_sched_ops mascar_ldst = {
    .base = {.point = MW_PT_LDST_SCHED, .name = "mascar_ldst", .desc = "MASCAR's cache access re-execution"},
    .slots = ldst_slots,
    .pick = ldst_pick,
    .rexq = ldst_rexq,
};
static const struct mw_bundle_ops mw_pol_mascar = {
    .base = {.point = MW_PT_BUNDLE, .name = "mascar",
             .desc = "MASCAR (HPCA'15): memory-first scheduling, owner warp only when the MSHRs or the memory port "
                     "saturate, and re-execution of stalled L1D accesses",
             .params = params, .nparams = (int)(sizeof params / sizeof params[0]), .params_size = sizeof(struct params),
             .create = create, .destroy = destroy},
    .members = {[MW_PT_WARP_SCHED] = &mascar_sched.base, [MW_PT_LDST_SCHED] = &mascar_ldst.base},
};

MW_REGISTER_POLICIES(&mw_pol_mascar.base);
