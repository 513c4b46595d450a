/* The simulation: builds the machine from the config, steps the four clock domains (core, interconnect, L2,
 * DRAM) in time order, jumps the clock over cycles in which every unit only waits for a known future event,
 * and collects statistics. The units are in their own files: dispatch.c (kernels, CTAs), sm.c, ldst.c,
 * coalescer.c, l1d.c, icnt.c, partition.c (L2 slices l2.c + DRAM channel dram.c), events.c (policies). */
#include "simctx.h"

#include "dispatch.h"
#include "icnt.h"
#include "l1d.h"
#include "l1d_chunk.h"
#include "l1i.h"
#include "partition.h"
#include "sm.h"
#include "trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t period_fs(double mhz) { return (uint64_t)(1e9 / mhz + 0.5); }

static int install_choice(struct mw_sim *s, int pt, const struct mw_policy_choice *ch, struct mw_err *e)
{
    enum mw_point point = mw_slot_point(pt);
    const char *impl = ch->impl[0] ? ch->impl : NULL;
    const struct mw_policy *p = NULL;
    if (impl && strcmp(impl, "lua") != 0) p = mw_policy_find(point, impl);
    if (!p) p = mw_policy_default(point); /* for "lua": the C default until the Lua front end installs the script */
    if (impl && strcmp(impl, "lua") != 0 && !mw_policy_find(point, impl))
        return mw_err_set(e, MW_EINVAL, ch->file[0] ? ch->file : NULL, ch->line, ch->col,
                          "unknown %s policy '%s'", mw_slot_names[pt], impl);
    const char *keys[MW_POLICY_MAX_PARAMS], *vals[MW_POLICY_MAX_PARAMS];
    int n = 0;
    if (impl && strcmp(impl, "lua") != 0)
        for (int i = 0; i < ch->nparams; i++) keys[n] = ch->params[i].key, vals[n++] = ch->params[i].value;
    struct mw_policy_inst pi;
    int rc = mw_policy_inst_init(&pi, p, s, keys, vals, n, e);
    if (rc) {
        /* point at the parameter if we can tell which one */
        for (int i = 0; i < ch->nparams; i++)
            if (strstr(e->msg, ch->params[i].key)) {
                snprintf(e->file, sizeof e->file, "%s", ch->params[i].file);
                e->line = ch->params[i].line, e->col = ch->params[i].col;
                break;
            }
        return rc;
    }
    if (pt == MW_SLOT_BUNDLE || pt == MW_SLOT_BUNDLE2) {
        bool configured[MW_SLOT_COUNT];
        for (int k = 0; k < MW_SLOT_COUNT; k++) configured[k] = mw_config_slot_chosen(&s->cfg, k);
        rc = mw_sim_install_bundle_at(s, pt, &pi, configured, e);
        if (rc && pt == MW_SLOT_BUNDLE2 && !e->file[0] && ch->file[0]) /* a conflict: point at the choice */
            snprintf(e->file, sizeof e->file, "%s", ch->file), e->line = ch->line, e->col = ch->col;
        return rc;
    }
    return mw_sim_install_slot(s, pt, &pi, e);
}

struct mw_sim *mw_sim_create(const struct mw_config *c, struct mw_err *e)
{
    int rc = mw_config_validate(c, e);
    if (rc) return NULL;
    struct mw_sim *s = calloc(1, sizeof *s);
    if (!s) {
        mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
        return NULL;
    }
    s->cfg = *c;
    mw_req_pool_init(&s->pool);
    for (int k = 0; k < MW_SLOT_COUNT; k++) {
        if (install_choice(s, k, &c->policy[k], e)) {
            mw_sim_destroy(s);
            return NULL;
        }
    }
    double mhz[MW_CLK_N] = {c->clock.core_mhz, c->clock.icnt_mhz, c->clock.l2_mhz, c->clock.dram_mhz};
    for (int i = 0; i < MW_CLK_N; i++) {
        s->clk[i].period_fs = period_fs(mhz[i]);
        s->clk[i].next_fs = 0;
    }
    return s;
}

static int build(struct mw_sim *s, struct mw_err *e)
{
    const struct mw_config *c = &s->cfg;
    s->nsms = (int)c->gpu.n_sms;
    s->nslices = mw_n_slices(c);
    s->nparts = (int)c->l2.n_partitions;
    s->sms = calloc((size_t)s->nsms, sizeof *s->sms);
    s->l1d = calloc((size_t)s->nsms, sizeof *s->l1d);
    s->l1i = calloc((size_t)s->nsms, sizeof *s->l1i);
    s->l2 = calloc((size_t)s->nslices, sizeof *s->l2);
    s->parts = calloc((size_t)s->nparts, sizeof *s->parts);
    s->req_net = calloc(1, sizeof *s->req_net);
    s->reply_net = calloc(1, sizeof *s->reply_net);
    s->sm_asleep = calloc((size_t)(s->nsms + 63) / 64, sizeof *s->sm_asleep);
    s->slice_wake = calloc((size_t)s->nslices, sizeof *s->slice_wake);
    s->sm_wake_min = MW_NEVER;
    if (!s->sms || !s->sm_asleep || !s->slice_wake || !s->l1d || !s->l1i || !s->l2 || !s->parts || !s->req_net || !s->reply_net)
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    /* each policy's per-line bytes get their own offset in every L1D line's policy area */
    size_t meta = 0;
    for (int k = 0; k < MW_SLOT_COUNT; k++) {
        struct mw_policy_inst *pi = &s->pol[k];
        if (k == MW_SLOT_L2_REPLACEMENT || !pi->pol) continue;
        pi->meta_off = meta;
        meta += pi->pol->line_meta_bytes;
    }
    s->l1_meta_bytes = meta;
    for (int i = 0; i < s->nsms; i++) {
        int rc = mw_l1d_init(s, &s->l1d[i], i, e);
        if (!rc && c->l1d.organisation == MW_L1D_ORG_CHUNKED) rc = mw_l1d_chunk_attach(s, &s->l1d[i], e);
        if (!rc) rc = mw_l1i_init(s, &s->l1i[i], i, e);
        if (!rc) rc = mw_sm_init(s, &s->sms[i], i, &s->l1d[i], c->l1i.enabled ? &s->l1i[i] : NULL, e);
        if (rc) return rc;
    }
    uint64_t pi = s->clk[MW_CLK_ICNT].period_fs;
    if (mw_xbar_init(s->req_net, mw_icnt_ports(s), s->nslices, c, pi) ||
        mw_xbar_init(s->reply_net, s->nslices, mw_icnt_ports(s), c, pi))
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    s->req_net->arrival_due = &s->l2_due;
    s->req_net->dst_wake = s->slice_wake; /* a slice's wake includes its arrival queue's head */
    s->reply_net->src_wake = s->slice_wake; /* a slice whose reply waits for room sleeps until the network takes one */
    s->reply_net->src_due = &s->l2_due;
    s->reply_net->arrival_due = &s->reply_due; /* lowered at each grant; recomputed by core_tick */
    for (int i = 0; i < s->nslices; i++) {
        int rc = mw_l2_init(s, &s->l2[i], i, e);
        if (rc) return rc;
    }
    for (int i = 0; i < s->nparts; i++) {
        int rc = mw_partition_init(s, &s->parts[i], i, e);
        if (rc) return rc;
    }
    s->started = true;
    mw_policies_start(s);
    return 0;
}

void mw_sim_destroy(struct mw_sim *s)
{
    if (!s) return;
    if (s->sms)
        for (int i = 0; i < s->nsms; i++) {
            mw_sm_close_ctas(s, &s->sms[i]);
            mw_sm_fini(&s->sms[i]);
        }
    if (s->l1d)
        for (int i = 0; i < s->nsms; i++) mw_l1d_fini(s, &s->l1d[i]);
    if (s->l1i)
        for (int i = 0; i < s->nsms; i++) mw_l1i_fini(s, &s->l1i[i]);
    if (s->l2)
        for (int i = 0; i < s->nslices; i++) mw_l2_fini(s, &s->l2[i]);
    if (s->parts)
        for (int i = 0; i < s->nparts; i++) mw_partition_fini(s, &s->parts[i]);
    if (s->req_net) mw_xbar_fini(s->req_net);
    if (s->reply_net) mw_xbar_fini(s->reply_net);
    free(s->sms);
    free(s->l1d);
    free(s->l1i);
    free(s->sm_asleep);
    free(s->slice_wake);
    free(s->code_names);
    free(s->l2);
    free(s->parts);
    free(s->req_net);
    free(s->reply_net);
    for (int k = 0; k < MW_SLOT_COUNT; k++) mw_policy_inst_fini(&s->pol[k]);
    if (s->have_wl) mw_workload_close(&s->wl);
    mw_req_pool_fini(&s->pool);
    free(s);
}

int mw_sim_set_workload(struct mw_sim *s, struct mw_workload *w, struct mw_err *e)
{
    if (s->started) return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "the simulation has started; create a new one");
    if (s->have_wl) mw_workload_close(&s->wl);
    mw_trace_set_cache(w, s->cfg.trace.cache, s->cfg.trace.cache_dir); /* no-op unless w is a trace */
    s->wl = *w;
    s->have_wl = true;
    s->pcs_scaled = !w->ops->kind || strcmp(w->ops->kind, "trace") != 0;
    memset(w, 0, sizeof *w);
    return 0;
}

void mw_sim_interrupt(struct mw_sim *s) { s->interrupt = 1; }
void mw_sim_stop_before_kernel(struct mw_sim *s, uint64_t k) { s->stop_launch = k; }
bool mw_sim_stopped_before_kernel(const struct mw_sim *s) { return s->stopped_launch; }
bool mw_sim_at_max_warp_insts(const struct mw_sim *s)
{
    return s->cfg.sim.max_warp_insts && !s->done && s->inst_seq >= (uint64_t)s->cfg.sim.max_warp_insts;
}


bool mw_sim_done(const struct mw_sim *s) { return s->done; }
const struct mw_config *mw_sim_config(const struct mw_sim *s) { return &s->cfg; }
uint64_t mw_now(const struct mw_sim *s) { return s->clk[MW_CLK_CORE].cycle; }
int mw_n_sms(const struct mw_sim *s) { return (int)s->cfg.gpu.n_sms; }
int mw_max_warps(const struct mw_sim *s) { return (int)s->cfg.sm.max_warps; }
int mw_n_schedulers(const struct mw_sim *s) { return (int)s->cfg.sm.n_schedulers; }
void mw_sim_set_progress(struct mw_sim *s, mw_progress_fn fn, void *ud, int period_ms)
{
    s->progress = fn;
    s->progress_ud = ud;
    s->progress_ms = period_ms;
}

static bool core_tick(struct mw_sim *s, struct mw_err *e, int *rc)
{
    bool busy = false;
    uint64_t now = mw_now(s);
    /* replies, to the ports (SMs, or clusters of SMs) that have one arrived (in port order, one each) */
    if (s->now_fs >= s->reply_due) { /* (none before: the earliest head, lowered by the network at each grant) */
        const uint64_t *arrived = s->reply_net->arrived;
        const struct mw_req_fifo *arr = s->reply_net->arrive;
        uint64_t d = MW_NEVER;
        s->reply_due = MW_NEVER;
        for (int w = 0; w < (mw_icnt_ports(s) + 63) >> 6; w++)
            for (uint64_t m = arrived[w]; m; m &= m - 1) {
                int i = (w << 6) + __builtin_ctzll(m);
                struct mw_req *r = mw_xbar_peek(s->reply_net, i, s->now_fs);
                if (r) {
                    mw_xbar_pop(s->reply_net, i);
                    mw_sm_deliver(s, &s->sms[r->sm], r);
                    busy = true;
                }
                d = mw_min_u64(d, arr[i].head_ready);
            }
        s->reply_due = mw_min_u64(s->reply_due, d);
    }
    /* (most cycles a kernel runs with CTAs unfinished, or every CTA is placed: nothing to launch) */
    if (s->kernel_active ? s->ctas_done >= s->kernel_ctas : !s->wl_done) *rc = mw_dispatch_kernels(s, e);
    if (*rc) return true;
    int l = s->kernel_active && s->next_cta < s->kernel_ctas ? mw_dispatch_ctas(s, e) : 0;
    if (l < 0) {
        *rc = l;
        return true;
    }
    busy |= l > 0;
    /* the SMs not asleep, in order (one woken by an earlier one's action in this cycle is met in turn); those
     * whose sleep ends now leave the asleep set first */
    int words = (s->nsms + 63) >> 6;
    if (now >= s->sm_wake_min) {
        uint64_t m = MW_NEVER;
        for (int w = 0; w < words; w++)
            for (uint64_t b = s->sm_asleep[w]; b; b &= b - 1) {
                int i = (w << 6) + __builtin_ctzll(b);
                if (s->sms[i].sleep_until <= now) s->sm_asleep[w] &= ~(1ull << (i & 63));
                else m = mw_min_u64(m, s->sms[i].sleep_until);
            }
        s->sm_wake_min = m;
    }
    if (s->cfg.icnt.cluster_rotate && s->cfg.icnt.sms_per_cluster > 1) { /* places in this cycle's order */
        for (int p = 0; p < s->nsms; p++) {
            int i = mw_sm_at_place(s, p, now);
            if (s->sm_asleep[i >> 6] >> (i & 63) & 1) continue;
            s->sm_turn = p;
            busy |= mw_sm_tick(s, &s->sms[i], now);
            if (s->failed) return true;
        }
        s->sm_turn = s->nsms;
        goto windows;
    }
    for (int i = 0; i < s->nsms; i++) {
        uint64_t awake = ~s->sm_asleep[i >> 6] & (~0ull << (i & 63));
        if (!awake) {
            i |= 63;
            continue;
        }
        i = (i & ~63) + __builtin_ctzll(awake);
        if (i >= s->nsms) break;
        s->sm_turn = i;
        busy |= mw_sm_tick(s, &s->sms[i], now);
        if (s->failed) return true;
    }
    s->sm_turn = s->nsms;
windows:
    if (s->next_window != MW_NEVER && mw_now(s) + 1 >= s->next_window) {
        mw_windows_due(s, mw_now(s));
        busy = true; /* a window's policy may have changed what the SMs can do (reactivated a CTA): no jump */
    }
    return busy;
}

static uint64_t core_next_event(struct mw_sim *s)
{
    uint64_t t = MW_NEVER, now = mw_now(s);
    if (mw_dispatch_ready(s)) return now;
    for (int i = 0; i < s->nsms; i++) {
        uint64_t n = mw_sm_next_event(&s->sms[i], now);
        if (n == now) return now;
        t = mw_min_u64(t, n);
    }
    return t;
}

/* Start time (fs) of domain clock c's cycle `cyc`. */
static uint64_t fs_of(const struct mw_clock *c, uint64_t cyc)
{
    if (cyc == MW_NEVER) return MW_NEVER;
    return cyc * c->period_fs;
}

/* Nothing moved in the core last cycle: jump every clock to the earliest pending event, if it is later. */
static int try_jump(struct mw_sim *s, uint64_t stop, bool *jumped, struct mw_err *e)
{
    *jumped = false;
    uint64_t tc = core_next_event(s);
    if (tc <= mw_now(s)) return 0;
    uint64_t T = fs_of(&s->clk[MW_CLK_CORE], tc);
    T = mw_min_u64(T, mw_xbar_next_event(s->req_net, s->clk[MW_CLK_ICNT].cycle, s->now_fs));
    T = mw_min_u64(T, mw_xbar_next_event(s->reply_net, s->clk[MW_CLK_ICNT].cycle, s->now_fs));
    for (int i = 0; i < s->nparts; i++) T = mw_min_u64(T, mw_partition_next_event(s, &s->parts[i]));
    /* a policy's window is an event too: it may reactivate a CTA that nothing else would wake */
    if (s->next_window != MW_NEVER)
        T = mw_min_u64(T, fs_of(&s->clk[MW_CLK_CORE], mw_max_u64(s->next_window - 1, mw_now(s))));
    if (T == MW_NEVER) {
        if (s->kernel_active || !s->wl_done)
            return mw_err_set(e, MW_EINVAL, NULL, 0, 0,
                              "deadlock at core cycle %llu: no unit has pending work but kernel '%s' has %u of %u CTAs "
                              "unfinished (a workload waiting on a barrier that never completes?)",
                              (unsigned long long)mw_now(s), s->kern.name, s->kernel_ctas - s->ctas_done,
                              s->kernel_ctas);
        return 0;
    }
    if (stop != MW_NEVER) T = mw_min_u64(T, fs_of(&s->clk[MW_CLK_CORE], stop));
    for (int i = 0; i < MW_CLK_N; i++) {
        struct mw_clock *c = &s->clk[i];
        if (T <= c->next_fs) continue;
        uint64_t k = (T - c->next_fs + c->period_fs - 1) / c->period_fs;
        /* (skipped core cycles are each SM's to account when it next changes or is read: mw_sm_settle) */
        *jumped |= i == MW_CLK_CORE && k > 1;
        c->cycle += k;
        c->next_fs += k * c->period_fs;
    }
    return 0;
}

/* The progress watchdog: every few thousand core cycles, the sum of what moving work advances (warp instructions
 * issued, packets delivered both ways, kernels launched, CTAs dispatched and finished). Unchanged for
 * sim.watchdog_cycles stops the run with what holds work: the kernel's CTAs, the SMs holding them, the memory
 * side's queues, and the last policy answer that held work back. Reads only: stats are unaffected. */
static int watchdog(struct mw_sim *s, struct mw_err *e)
{
    uint64_t now = mw_now(s), lim = (uint64_t)s->cfg.sim.watchdog_cycles;
    uint64_t sig = s->req_net->st.packets + s->reply_net->st.packets + s->gst.kernels + s->next_cta + s->ctas_done;
    for (int i = 0; i < s->nsms; i++) sig += s->sms[i].st.warp_insts;
    s->wd_check = now + (lim < 4096 ? lim : 4096);
    if (sig != s->wd_sig || now < s->wd_since) {
        s->wd_sig = sig, s->wd_since = now;
        return 0;
    }
    if (now - s->wd_since < lim) return 0;
    int holding = 0, first = -1, mshrs = 0, missq = 0, l2q = 0, dq = 0;
    for (int i = 0; i < s->nsms; i++) {
        if (s->sms[i].resident_ctas) holding++, first = first < 0 ? i : first;
        mshrs += (int)s->cfg.l1d.mshr_entries - mw_l1d_mshr_free(s, i);
        missq += mw_l1d_missq_used(s, i);
    }
    for (int i = 0; i < mw_sim_n_slices(s); i++) l2q += mw_l2_queue_len(s, i);
    for (int i = 0; i < s->nparts; i++) dq += mw_dram_queue_len_of(s, i);
    char who[160] = "no policy refused anything";
    if (s->refused_pt) {
        int pt = s->refused_pt - 1;
        snprintf(who, sizeof who, "the last refusal: %s policy '%s' on SM %d at core cycle %llu (%s)",
                 mw_point_name((enum mw_point)pt), s->pol[pt].pol ? s->pol[pt].pol->name : "?", s->refused_sm,
                 (unsigned long long)s->refused_at,
                 pt == MW_PT_CTA_THROTTLE ? "a CTA limit at or below the resident CTAs" : "no victim for a fill");
    }
    return mw_err_set(e, MW_EINVAL, NULL, 0, 0,
                      "no progress for %llu core cycles (sim.watchdog_cycles) at core cycle %llu: no warp instruction "
                      "issued, no packet moved, no CTA started or ended. Kernel '%s': %u of %u CTAs unfinished, %u not "
                      "yet dispatched; %d SMs hold CTAs (the first: SM %d); %d L1D MSHRs in use, %d requests in L1D "
                      "miss queues, %d in L2 slices, %d in DRAM queues, %d packets in the networks; %s",
                      (unsigned long long)(now - s->wd_since), (unsigned long long)now,
                      s->kernel_active ? s->kern.name : "(none)", s->kernel_ctas - s->ctas_done, s->kernel_ctas,
                      s->kernel_ctas - s->next_cta, holding, first, mshrs, missq, l2q, dq,
                      s->req_net->queued + s->req_net->inflight + s->reply_net->queued + s->reply_net->inflight, who);
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int mw_sim_run(struct mw_sim *s, uint64_t cycles, struct mw_err *e)
{
    if (s->failed) {
        *e = s->fail_err;
        return e->code;
    }
    if (!s->have_wl) return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "no workload: choose one before running");
    if (!s->started) {
        int rc = build(s, e);
        if (rc) return rc;
    }
    if (s->done) return 1;
    s->interrupt = 0;
    s->stopped_launch = false;
    /* the caller may have changed state between runs: every unit takes its next cycle */
    for (int i = 0; i < s->nsms; i++) mw_sm_wake(s, &s->sms[i]);
    for (int i = 0; i < s->nparts; i++) mw_partition_wake(s, &s->parts[i]);
    s->cta_full = false;
    s->reply_due = 0;
    uint64_t start = mw_now(s);
    uint64_t stop = cycles ? start + cycles : MW_NEVER;
    if (s->cfg.sim.max_cycles) stop = mw_min_u64(stop, (uint64_t)s->cfg.sim.max_cycles);
    double t_last = wall_now();
    uint32_t iter = 0;
    while (!s->done) {
        if (mw_now(s) >= stop || s->interrupt || mw_sim_at_max_warp_insts(s)) return 0;
        if (s->stop_launch && s->gst.kernels >= s->stop_launch) {
            s->stopped_launch = true;
            return 0;
        }
        uint64_t T = MW_NEVER;
        for (int i = 0; i < MW_CLK_N; i++) T = mw_min_u64(T, s->clk[i].next_fs);
        s->now_fs = T;
        bool core_busy = true, core_ticked = false;
        int rc = 0;
        if (s->clk[MW_CLK_CORE].next_fs == T) {
            core_ticked = true;
            core_busy = core_tick(s, e, &rc);
            if (rc) return rc;
            if (s->failed) {
                *e = s->fail_err;
                return e->code;
            }
            s->clk[MW_CLK_CORE].cycle++;
            s->clk[MW_CLK_CORE].next_fs += s->clk[MW_CLK_CORE].period_fs;
            s->sm_turn = 0;
            if (mw_now(s) >= s->wd_check && s->cfg.sim.watchdog_cycles && (rc = watchdog(s, e))) return rc;
        }
        if (s->clk[MW_CLK_ICNT].next_fs == T) {
            uint64_t now = s->clk[MW_CLK_ICNT].cycle;
            s->visits_icnt += mw_xbar_cycle(s->req_net, now);
            s->visits_icnt += mw_xbar_cycle(s->reply_net, now);
            s->clk[MW_CLK_ICNT].cycle++;
            s->clk[MW_CLK_ICNT].next_fs += s->clk[MW_CLK_ICNT].period_fs;
        }
        if (s->clk[MW_CLK_L2].next_fs == T) {
            uint64_t now = s->clk[MW_CLK_L2].cycle;
            /* the slices are visited only from the earliest time one is due (kept as a lower bound: lowered by
             * arrivals and DRAM data, recomputed after the visits) */
            if (!s->cfg.sim.fast_forward || T >= s->l2_due) mw_l2_edge(s, now);
            s->clk[MW_CLK_L2].cycle++;
            s->clk[MW_CLK_L2].next_fs += s->clk[MW_CLK_L2].period_fs;
        }
        if (s->clk[MW_CLK_DRAM].next_fs == T) {
            if (!s->cfg.sim.fast_forward || T >= s->dram_due) { /* (as the slices above) */
                for (int i = 0; i < s->nparts; i++)
                    mw_partition_dram_cycle(s, &s->parts[i], s->clk[MW_CLK_DRAM].cycle);
                uint64_t d = MW_NEVER;
                for (int i = 0; i < s->nparts; i++) d = mw_min_u64(d, mw_partition_dram_due(s, &s->parts[i]));
                s->dram_due = d;
            }
            s->clk[MW_CLK_DRAM].cycle++;
            s->clk[MW_CLK_DRAM].next_fs += s->clk[MW_CLK_DRAM].period_fs;
        }
        if (s->failed) {
            *e = s->fail_err;
            return e->code;
        }
        if (s->wl_done && !s->kernel_active) {
            s->done = true;
            mw_policies_finish(s);
            if (s->failed) {
                *e = s->fail_err;
                return e->code;
            }
            break;
        }
        /* a quiet core cycle: try to jump the clocks to the next event. While the memory side keeps every cycle
         * busy (an attempt finds the next event at most a cycle away), attempts back off (1, 2, 4 .. 32 quiet
         * cycles): ticking through a cycle in which nothing is due changes nothing, as fast_forward=false shows,
         * and computing the next event of every unit costs more than the cycle */
        if (core_ticked && !core_busy && s->cfg.sim.fast_forward) {
            if (s->jump_skip) {
                s->jump_skip--;
            } else {
                bool jumped;
                rc = try_jump(s, stop, &jumped, e);
                if (rc) return rc;
                int next = 2 * s->jump_backoff;
                s->jump_backoff = jumped ? 0 : next < 1 ? 1 : next > 32 ? 32 : next;
                s->jump_skip = s->jump_backoff;
            }
        }
        if (s->progress && (++iter & 0xffff) == 0) {
            double t = wall_now();
            if ((t - t_last) * 1000.0 >= s->progress_ms) {
                t_last = t;
                s->progress(s->progress_ud, s);
            }
        }
    }
    return 1;
}

/* ---- statistics ---- */
static double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }
static double sget(const struct mw_stat_list *l, const char *name)
{
    const struct mw_stat_entry *g = mw_stat_list_get(l, name);
    return g ? g->value : 0.0;
}

int mw_sim_stats(struct mw_sim *s, struct mw_stat_list *out, bool per_instance)
{
    uint64_t cycles = mw_now(s);
    uint64_t wi = 0, ti = 0;
    for (int i = 0; s->sms && i < s->nsms; i++) mw_sm_settle(s, &s->sms[i]);
    for (int i = 0; s->sms && i < s->nsms; i++) wi += s->sms[i].st.warp_insts, ti += s->sms[i].st.thread_insts;
    mw_stat_list_add(out, "gpu.cycles", (double)cycles, "core cycles simulated", "core cycles");
    mw_stat_list_add(out, "gpu.warp_insts", (double)wi, "warp instructions issued", "inst");
    mw_stat_list_add(out, "gpu.thread_insts", (double)ti, "thread instructions issued (active lanes)", "inst");
    mw_stat_list_add(out, "gpu.ipc", ratio((double)ti, (double)cycles),
                     "thread instructions per core cycle (GPGPU-Sim's gpu_ipc)", "inst/cycle");
    mw_stat_list_add(out, "gpu.warp_ipc", ratio((double)wi, (double)cycles), "warp instructions per core cycle",
                     "inst/cycle");
    mw_stat_list_add(out, "gpu.kernels", (double)s->gst.kernels, "kernels launched", "kernel");
    mw_stat_list_add(out, "gpu.ctas", (double)s->gst.ctas, "CTAs launched", "CTA");
    { /* maximum occupancy (dispatch.c, mw_occupancy) over finished kernels, weighted by their core cycles */
        const struct mw_gpu_stats *g = &s->gst;
        double rf = (double)s->cfg.sm.registers, occ = ratio((double)g->occ_reg_cycles, (double)g->occ_cycles);
        mw_stat_list_add(out, "gpu.sur_regs", g->occ_kernels ? rf - occ : 0,
                         "statically unused registers per SM at each kernel's maximum occupancy (sm.registers minus "
                         "the registers its most resident CTAs allocate), mean weighted by kernel cycles", "reg");
        mw_stat_list_add(out, "gpu.sur_regs_min", g->occ_kernels ? rf - (double)g->occ_regs_max : 0,
                         "gpu.sur_regs of the kernel with the fewest", "reg");
        mw_stat_list_add(out, "gpu.sur_regs_max", g->occ_kernels ? rf - (double)g->occ_regs_min : 0,
                         "gpu.sur_regs of the kernel with the most", "reg");
        mw_stat_list_add(out, "gpu.occ_cta_regs", ratio((double)g->occ_cta_reg_cycles, (double)g->occ_cycles),
                         "registers one CTA allocates, mean weighted by kernel cycles", "reg");
        mw_stat_list_add(out, "gpu.occ_ctas_min", (double)g->occ_ctas_min,
                         "the fewest CTAs per SM at maximum occupancy of any finished kernel", "CTA");
        mw_stat_list_add(out, "gpu.occ_warp_regs", ratio((double)g->occ_warp_reg_cycles, (double)g->occ_cycles),
                         "registers one warp allocates, mean weighted by kernel cycles", "reg");
        mw_stat_list_add(out, "gpu.occ_warps_min", (double)g->occ_warps_min,
                         "the fewest warps per SM at maximum occupancy of any finished kernel", "warp");
    }
    mw_stat_list_add(out, "clock.icnt_cycles", (double)s->clk[MW_CLK_ICNT].cycle, "interconnect cycles", "icnt cycles");
    mw_stat_list_add(out, "clock.l2_cycles", (double)s->clk[MW_CLK_L2].cycle, "L2 cycles", "L2 cycles");
    mw_stat_list_add(out, "clock.dram_cycles", (double)s->clk[MW_CLK_DRAM].cycle, "DRAM cycles", "dram cycles");
    mw_stat_list_add(out, "sim.visits_sm", (double)s->visits_sm, "SM cycles evaluated and replies delivered", "visit");
    mw_stat_list_add(out, "sim.visits_l2", (double)s->visits_l2, "L2 slice cycles evaluated", "visit");
    mw_stat_list_add(out, "sim.visits_dram", (double)s->visits_dram, "DRAM channel cycles evaluated", "visit");
    mw_stat_list_add(out, "sim.visits_icnt", (double)s->visits_icnt, "crossbar cycles with packets to move", "visit");
    mw_stat_list_add(out, "sim.unit_visits", (double)(s->visits_sm + s->visits_l2 + s->visits_dram + s->visits_icnt),
                     "units visited, all kinds: what the run's cost scales with", "visit");
    if (!s->started) return 0;
    for (int i = 0; i < s->nsms; i++) mw_l1d_mshr_occ(s, &s->l1d[i]);
    mw_stat_list_add_group(out, "sm", mw_sm_stat_descs, mw_sm_stat_count, &s->sms[0].st, sizeof s->sms[0], s->nsms,
                           per_instance);
    mw_stat_list_add_group(out, "l1d", mw_l1d_stat_descs, mw_l1d_stat_count, &s->l1d[0].st, sizeof s->l1d[0],
                           s->nsms, per_instance);
    mw_stat_list_add_group(out, "l1i", mw_l1i_stat_descs, mw_l1i_stat_count, &s->l1i[0].st, sizeof s->l1i[0],
                           s->nsms, per_instance);
    mw_stat_list_add_group(out, "icnt.req", mw_icnt_stat_descs, mw_icnt_stat_count, &s->req_net->st,
                           sizeof s->req_net->st, 1, false);
    mw_stat_list_add_group(out, "icnt.reply", mw_icnt_stat_descs, mw_icnt_stat_count, &s->reply_net->st,
                           sizeof s->reply_net->st, 1, false);
    for (int i = 0; i < s->nslices; i++) mw_l2_settle(&s->l2[i], s->clk[MW_CLK_L2].cycle);
    mw_stat_list_add_group(out, "l2", mw_l2_stat_descs, mw_l2_stat_count, &s->l2[0].st, sizeof s->l2[0], s->nslices,
                           per_instance);
    /* DRAM stats live inside opaque controllers: gather them into an array first */
    struct mw_dram_stats *ds = calloc((size_t)s->nparts, sizeof *ds);
    if (!ds) return MW_ENOMEM;
    for (int i = 0; i < s->nparts; i++) {
        ds[i] = *mw_dram_get_stats(s->parts[i].dram);
        ds[i].cycles = s->clk[MW_CLK_DRAM].cycle; /* the clock's count, which includes fast-forwarded cycles */
    }
    mw_stat_list_add_group(out, "dram", mw_dram_stat_descs, mw_dram_stat_count, ds, sizeof *ds, s->nparts,
                           per_instance);
    /* derived */
#define GET(n) sget(out, n)
    mw_stat_list_add(out, "l1d.mshr_mean_occupancy",
                     ratio(GET("l1d.mshr_occupancy"), (double)cycles * (double)s->nsms * (double)s->cfg.l1d.mshr_entries),
                     "L1D MSHR entries in use over all entries, per core cycle, all SMs", "");
    mw_stat_list_add(out, "l1d.miss_rate", ratio(GET("l1d.misses"), GET("l1d.accesses")), "L1D misses / accesses", "");
    mw_stat_list_add(out, "l2.miss_rate", ratio(GET("l2.misses"), GET("l2.accesses")), "L2 misses / accesses", "");
    mw_stat_list_add(out, "l1d.gpgpusim_miss_rate", ratio(GET("l1d.gpgpusim_misses"), GET("l1d.gpgpusim_accesses")),
                     "GPGPU-Sim's L1D_total_cache_miss_rate (stores included, pending hits not misses)", "");
    mw_stat_list_add(out, "l2.gpgpusim_miss_rate", ratio(GET("l2.gpgpusim_misses"), GET("l2.gpgpusim_accesses")),
                     "GPGPU-Sim's L2_total_cache_miss_rate (per sector when l2.sectored)", "");
    mw_stat_list_add(out, "l1i.miss_rate", ratio(GET("l1i.misses"), GET("l1i.accesses")),
                     "L1I fetches that sent a line request / fetches", "");
    mw_stat_list_add(out, "dram.avg_read_latency", ratio(GET("dram.read_latency_sum"), GET("dram.reads_done")),
                     "mean DRAM read latency, queue entry to last data beat", "dram cycles");
    double cols = GET("dram.row_hits") + GET("dram.row_misses") + GET("dram.row_conflicts");
    mw_stat_list_add(out, "dram.row_hit_rate", ratio(GET("dram.row_hits"), cols), "row hits / column commands", "");
    mw_stat_list_add(out, "mem.avg_load_latency", ratio(GET("sm.load_latency_sum"), GET("sm.load_latency_count")),
                     "mean load request latency, coalescer to data at the SM", "core cycles");
    mw_stat_list_add(out, "mem.max_load_latency", GET("sm.load_latency_max"), "largest load request latency",
                     "core cycles");
    mw_stat_list_add(out, "l1d.reservation_fails", GET("l1d.line_alloc_fail") + GET("l1d.mshr_fail") + GET("l1d.miss_queue_fail"),
                     "L1D reservation failures of all causes", "attempt");
    /* Li 2015's measures (spec/001_li.md §6) */
    double icl = GET("l2.mshr_icl_cycles"), mshr_cycles = icl + GET("l2.mshr_noicl_cycles") + GET("l2.mshr_idle_cycles");
    mw_stat_list_add(out, "l2.icl_fraction", ratio(icl, mshr_cycles),
                     "fraction of L2 MSHR cycles (all slices) with an entry of merge length > 1 (Li: Has ICL)", "");
    mw_stat_list_add(out, "sm.stall_scoreboard", GET("sm.stall_scoreboard_mem") + GET("sm.stall_scoreboard_alu"),
                     "data-dependency (scoreboard) stalls: scheduler cycles whose best warp waited on a register", "slot");
    mw_stat_list_add(out, "dram.row_locality", ratio(GET("dram.reads") + GET("dram.writes"), GET("dram.activates")),
                     "requests per row opened (Li Fig 6.8)", "req/ACT");
    mw_stat_list_add(out, "dram.bw_util", ratio(GET("dram.data_bus_busy"), GET("dram.cycles") * s->nparts),
                     "fraction of DRAM cycles the data buses carried data (all channels)", "");
    /* where a load's time goes (engine/mem_req.h's stamps): means per L1D miss request and per L2 fill */
    static const char *const seg[][4] = {
        {"mem.lat_l1", "sm.lat_l1", "sm.lat_n", "mean cycles from the L1D to the request network (miss queue)"},
        {"mem.lat_xbar_req", "sm.lat_xbar_req", "sm.lat_n", "mean cycles in the request network"},
        {"mem.lat_l2_inq", "sm.lat_l2_inq", "sm.lat_n", "mean cycles at the L2 slice before its pipe takes it"},
        {"mem.lat_l2_pipe", "sm.lat_l2_pipe", "sm.lat_n", "mean cycles in the L2 pipe to the lookup"},
        {"mem.lat_l2_wait", "sm.lat_l2_wait", "sm.lat_n", "mean cycles from the lookup to data at the L2"},
        {"mem.lat_l2_replyq", "sm.lat_l2_replyq", "sm.lat_n", "mean cycles in the L2 reply queue"},
        {"mem.lat_xbar_reply", "sm.lat_xbar_reply", "sm.lat_n", "mean cycles in the reply network"},
        {"mem.lat_fill_missq", "l2.fill_lat_missq", "l2.fill_lat_n", "mean cycles of an L2 fill in the miss queue"},
        {"mem.lat_fill_to_dram", "l2.fill_lat_to_dram", "l2.fill_lat_n", "mean cycles of an L2 fill from the miss queue to the DRAM controller"},
        {"mem.lat_fill_dram", "l2.fill_lat_dram", "l2.fill_lat_n", "mean cycles of an L2 fill in the DRAM controller"},
        {"mem.lat_fill_from_dram", "l2.fill_lat_from_dram", "l2.fill_lat_n", "mean cycles of an L2 fill from the controller to the L2"}};
    for (size_t i = 0; i < sizeof seg / sizeof *seg; i++)
        mw_stat_list_add(out, seg[i][0], ratio(GET(seg[i][1]), GET(seg[i][2])), seg[i][3], "core cycles");
#undef GET
    free(ds);
    /* what the policies publish */
    for (int k = 0; k < MW_SLOT_COUNT; k++) {
        const struct mw_policy_inst *pi = &s->pol[k];
        for (int i = 0; pi->pol && i < pi->counters.n; i++) {
            char name[96];
            snprintf(name, sizeof name, "policy.%s.%s", mw_slot_names[k], pi->counters.v[i].name);
            mw_stat_list_add(out, name, (double)pi->counters.v[i].value,
                             pi->counters.v[i].desc ? pi->counters.v[i].desc : "", "");
        }
    }
    return 0;
}
