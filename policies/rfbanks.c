/* Bundle `rfbanks`: GTO (as policies/sched_gto.c, the same decisions) that also counts register-file bank conflicts
 * between the operand reads of issued instructions (policies/rf_banks.h): the baseline of the Linebacker paper's
 * Fig. 16, whose bank conflicts of Linebacker and CERF are normalized to the baseline's. A bundle (of one member) so
 * that its counters sit where Linebacker's and CERF's do (policy.bundle.rf_*). */
#include <stdlib.h>

#include "policy.h"
#include "rf_banks.h"
#include "sched_state.h"
#include "sim.h"

struct gtorf_params {
    int64_t banks;
    bool warp_skew;
};
#define P(f, t, d, lo, hi, ch, h) MW_PARAM(struct gtorf_params, f, t, d, lo, hi, ch, h)
static const struct mw_param_desc gtorf_params_desc[] = {
    P(banks, MW_PP_INT, "16", 1, RFB_MAX_BANKS, NULL,
      "register-file banks (GPGPU-Sim 3.2.2's GTX480 -gpgpu_num_reg_banks 16)"),
    P(warp_skew, MW_PP_BOOL, "false", 0, 0, NULL,
      "operand reads of warp w use bank (register + w) mod banks (GPGPU-Sim -gpgpu_reg_bank_use_warp_id)"),
};
#undef P

struct gtorf_state {
    int nsms;
    struct rfb_sm *rfb; /* per SM */
    struct rfb_count n;
    int c_reads, c_conf;
};

static int gtorf_create(struct mw_policy_inst *pi, struct mw_err *e)
{
    struct gtorf_state *st = calloc(1, sizeof *st);
    if (!st) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    st->nsms = pi->sim ? mw_n_sms(pi->sim) : 1;
    st->rfb = calloc((size_t)st->nsms, sizeof *st->rfb);
    if (!st->rfb) {
        free(st);
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    }
    pi->state = st;
    st->c_reads = mw_policy_counter(pi, "rf_operand_reads", "source-register reads of issued instructions");
    st->c_conf = mw_policy_counter(pi, "rf_bank_conflicts", "operand reads that found their register bank taken");
    return 0;
}
static void gtorf_destroy(struct mw_policy_inst *pi)
{
    struct gtorf_state *st = pi->state;
    if (!st) return;
    free(st->rfb), free(st);
    pi->state = NULL;
}
static int gtorf_pick(struct mw_policy_inst *pi, int sm, int sched, const uint16_t *ready, int n)
{
    return mw_sched_gto_pick(pi, sm, ((int *)pi->state)[mw_sched_index(pi, sm, sched)], ready, n);
}
static void gtorf_issued(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    mw_sched_last_issued(pi, sm, sched, w, in);
    struct mw_policy_inst *bi = pi->bundle;
    struct gtorf_state *st = bi->state;
    const struct gtorf_params *p = bi->params;
    if (sm < 0 || sm >= st->nsms) return;
    rfb_operands(&st->rfb[sm], &st->n, in, w, mw_now(pi->sim), (int)p->banks, p->warp_skew);
    bi->counters.v[st->c_reads].value = st->n.operand_reads;
    bi->counters.v[st->c_conf].value = st->n.operand_conflicts;
}

static const struct mw_warp_sched_ops gtorf_sched = {
    .base = {.point = MW_PT_WARP_SCHED, .name = "rfbanks_gto",
             .desc = "GTO; operand reads take register-file banks",
             .create = mw_sched_last_create, .destroy = mw_sched_last_destroy},
    .pick = gtorf_pick,
    .issued = gtorf_issued,
};
static const struct mw_bundle_ops rfbanks = {
    .base = {.point = MW_PT_BUNDLE, .name = "rfbanks",
             .desc = "GTO counting register-file bank conflicts of operand reads (Linebacker Fig. 16's baseline)",
             .params = gtorf_params_desc, .nparams = (int)(sizeof gtorf_params_desc / sizeof gtorf_params_desc[0]),
             .params_size = sizeof(struct gtorf_params), .create = gtorf_create, .destroy = gtorf_destroy},
    .members = {[MW_PT_WARP_SCHED] = &gtorf_sched.base},
};

MW_REGISTER_POLICIES(&rfbanks.base);
