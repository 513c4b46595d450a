/* The SM: CTA residency limits, per-warp instruction buffers, the register scoreboard (a ready cycle per
 * register), N warp schedulers (warp w -> scheduler w % N) that ask the warp-scheduling decision point,
 * and issue to SP / DP / SFU / tensor pipes with latency and initiation interval, barriers, warp and CTA
 * completion. Modelled on GPGPU-Sim's shader core (Fermi), without its code structure. */
#include "sm.h"

#include "l1d.h"
#include "l1i.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

MW_STATS_DEFINE(sm, MW_SM_STATS)

static uint64_t *op_pipes_cfg(const struct mw_sim *s, struct mw_sm *sm, int op, int *n, int *lat, int *ii);

enum { R_ISSUED = 0, R_IDLE, R_IBUF, R_BARRIER, R_SB_MEM, R_SB_ALU, R_PIPE, R_LDST, R_POLICY, R_READY, R_FETCH,
       R_COUNT };

/* The warps' register rows and instruction rings, one zeroed mapping per SM: a warp's pages are touched only
 * when it launches (its row is cleared then, too). calloc zeroed all of them up front, 180 KB per SM on
 * gtx480, which was most of a small run's machine set-up. */
static size_t cold_bytes(const struct mw_sm *sm)
{
    return (size_t)sm->nwarps * MW_REG_COUNT * sizeof *sm->regs +
           (size_t)sm->nwarps * (size_t)(sm->ib_mask + 1) * sizeof *sm->ibs;
}

static uint64_t *pipes_alloc(int n)
{
    return calloc((size_t)(n > 0 ? n : 1), sizeof(uint64_t));
}

int mw_sm_init(struct mw_sim *s, struct mw_sm *sm, int id, struct mw_l1d *l1, struct mw_l1i *l1i, struct mw_err *e)
{
    const struct mw_config *c = &s->cfg;
    memset(sm, 0, sizeof *sm);
    sm->id = id;
    sm->l1i = l1i;
    sm->fb_warp = -1;
    sm->nwarps = (int)c->sm.max_warps;
    sm->warps = calloc((size_t)sm->nwarps, sizeof *sm->warps);
    int cap = 1;
    while (cap < c->sm.ibuffer_size + 1) cap <<= 1;
    sm->ib_mask = cap - 1;
    void *cold = sm->nwarps > 0 ? mmap(NULL, cold_bytes(sm), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                                : MAP_FAILED;
    if (cold != MAP_FAILED) {
        sm->regs = cold;
        sm->ibs = (struct mw_inst *)(sm->regs + (size_t)sm->nwarps * MW_REG_COUNT);
    }
    if (!sm->warps || (sm->nwarps > 0 && !sm->regs)) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    for (int w = 0; w < sm->nwarps; w++) {
        sm->warps[w].reg_ready = &sm->regs[(size_t)w * MW_REG_COUNT];
        sm->warps[w].ib = &sm->ibs[(size_t)w * (size_t)cap];
    }
    sm->ctas = calloc((size_t)c->sm.max_ctas, sizeof *sm->ctas);
    int ns = (int)c->sm.n_schedulers;
    sm->nsched = ns;
    sm->sched_warps = calloc((size_t)ns, sizeof *sm->sched_warps);
    sm->sched_nwarps = calloc((size_t)ns, sizeof *sm->sched_nwarps);
    sm->sp_free = pipes_alloc((int)c->sm.alu_units);
    sm->dp_free = pipes_alloc((int)c->sm.alu_units);
    sm->sfu_free = pipes_alloc((int)c->sm.sfu_units);
    sm->tensor_free = pipes_alloc(1);
    if (!sm->warps || !sm->ctas || !sm->sched_warps || !sm->sched_nwarps || !sm->sp_free || !sm->dp_free ||
        !sm->sfu_free || !sm->tensor_free)
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < ns; i++) {
        sm->sched_warps[i] = calloc((size_t)sm->nwarps, sizeof(uint16_t));
        if (!sm->sched_warps[i]) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (int w = 0; w < sm->nwarps; w++) {
        int k = w % ns;
        sm->sched_warps[k][sm->sched_nwarps[k]++] = (uint16_t)w; /* position w / ns */
    }
    sm->live_words = (sm->nwarps / ns + 1 + 63) / 64;
    sm->live = calloc((size_t)(ns * sm->live_words), sizeof *sm->live);
    sm->waiting = calloc((size_t)(ns * sm->live_words), sizeof *sm->waiting);
    sm->ldst_out = calloc((size_t)(ns * sm->live_words), sizeof *sm->ldst_out);
    sm->n_out = calloc((size_t)ns * R_COUNT, sizeof *sm->n_out);
    sm->wheap = calloc((size_t)ns, sizeof *sm->wheap);
    if (!sm->live || !sm->waiting || !sm->ldst_out || !sm->n_out || !sm->wheap)
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    for (int op = 0; op < MW_OP_COUNT; op++)
        sm->op_pipe[op].p = op_pipes_cfg(s, sm, op, &sm->op_pipe[op].n, &sm->op_pipe[op].lat, &sm->op_pipe[op].ii);
    sm->free_regs = c->sm.registers;
    sm->free_shmem = c->sm.shmem_bytes;
    sm->recheck_at = MW_NEVER;
    sm->qualifying = -1;
    return mw_ldst_init(s, &sm->ldst, id, sm->nwarps, &sm->st, l1, e);
}

void mw_sm_close_ctas(struct mw_sim *s, struct mw_sm *sm)
{
    if (sm->ctas && s->have_wl)
        for (int k = 0; k < s->cfg.sm.max_ctas; k++)
            if (sm->ctas[k].valid) s->wl.ops->cta_close(&s->wl, sm->ctas[k].stream);
}

void mw_sm_fini(struct mw_sm *sm)
{
    mw_ldst_fini(&sm->ldst);
    free(sm->warps);
    if (sm->regs) munmap(sm->regs, cold_bytes(sm));
    free(sm->ctas);
    if (sm->sched_warps)
        for (int i = 0; i < sm->nsched; i++) free(sm->sched_warps[i]);
    free(sm->sched_warps);
    free(sm->sched_nwarps);
    free(sm->live);
    free(sm->waiting);
    free(sm->n_out);
    free(sm->ldst_out);
    if (sm->wheap)
        for (int k = 0; k < sm->nsched; k++) free(sm->wheap[k].v);
    free(sm->wheap);
    free(sm->sp_free);
    free(sm->dp_free);
    free(sm->sfu_free);
    free(sm->tensor_free);
}

/* Launched and not exited (running or at a barrier). */
static inline bool warp_active(const struct mw_warp *wp)
{
    return wp->state == MW_W_ACTIVE || wp->state == MW_W_BARRIER;
}

/* Keep warp w's bit in the fetch stage's set of warps that may fetch current (with an L1I). */
static inline void fetch_mark(struct mw_sm *sm, int w)
{
    if (!sm->l1i) return;
    const struct mw_warp *wp = &sm->warps[w];
    bool on = warp_active(wp) && !wp->imiss && !wp->ib_n && w != sm->fb_warp;
    uint64_t bit = 1ull << (w & 63);
    sm->fetchable[w >> 6] = on ? sm->fetchable[w >> 6] | bit : sm->fetchable[w >> 6] & ~bit;
}

/* ---- live warps waiting on their scoreboard, out of the scan until their wake time ---- */
static inline uint64_t *wait_word(struct mw_sm *sm, int w, uint64_t *bit)
{
    int k = w % sm->nsched, i = w / sm->nsched;
    *bit = 1ull << (i & 63);
    return &sm->waiting[k * sm->live_words + (i >> 6)];
}
static void heap_push(struct mw_wait_heap *h, uint64_t t, int w)
{
    if (h->n == h->cap) {
        int cap = h->cap ? 2 * h->cap : 16;
        void *v = realloc(h->v, (size_t)cap * sizeof *h->v);
        if (!v) abort(); /* a few bytes per warp: cannot fail in practice */
        h->v = v;
        h->cap = cap;
    }
    int i = h->n++;
    while (i > 0 && h->v[(i - 1) / 2].t > t) {
        h->v[i] = h->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v[i].t = t, h->v[i].w = w;
}
static void heap_pop(struct mw_wait_heap *h)
{
    uint64_t t = h->v[--h->n].t;
    int w = h->v[h->n].w, i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= h->n) break;
        if (c + 1 < h->n && h->v[c + 1].t < h->v[c].t) c++;
        if (h->v[c].t >= t) break;
        h->v[i] = h->v[c];
        i = c;
    }
    if (h->n) h->v[i].t = t, h->v[i].w = w;
}
/* The scan found warp w unable to issue for reason r (its registers, a barrier): out of the scan until an event
 * changes it (wait_drop: its load came back, the barrier was released, it left the scan) or, for a result's
 * register, its wake time passes (wait_expire). */
static void wait_add(struct mw_sm *sm, int w, int r)
{
    uint64_t bit, *word = wait_word(sm, w, &bit);
    int k = w % sm->nsched;
    *word |= bit;
    sm->warps[w].out = (uint8_t)r;
    sm->n_out[k * R_COUNT + r]++;
    if (r == R_SB_ALU) heap_push(&sm->wheap[k], sm->warps[w].wake, w);
    if (r == R_LDST) sm->ldst_out[word - sm->waiting] |= bit;
}
/* Something warp w's stall reason depends on changed: back into the scan (call before the change). */
static inline void wait_drop(struct mw_sm *sm, int w)
{
    struct mw_warp *wp = &sm->warps[w];
    if (!wp->out) return;
    uint64_t bit, *word = wait_word(sm, w, &bit);
    *word &= ~bit;
    if (wp->out == R_LDST) sm->ldst_out[word - sm->waiting] &= ~bit;
    sm->n_out[(w % sm->nsched) * R_COUNT + wp->out]--; /* a heap entry is dropped when met */
    wp->out = 0;
}
/* Scheduler k at cycle now: the warps whose wake time has come rejoin the scan; stale heap entries go. */
static void wait_expire_heap(struct mw_sm *sm, int k, uint64_t now)
{
    struct mw_wait_heap *h = &sm->wheap[k];
    while (h->n) {
        uint64_t t = h->v[0].t;
        struct mw_warp *wp = &sm->warps[h->v[0].w];
        bool valid = wp->out == R_SB_ALU && wp->wake == t;
        if (valid && t > now) break;
        if (valid) wait_drop(sm, h->v[0].w);
        heap_pop(h);
    }
}
static inline void wait_expire(struct mw_sm *sm, int k, uint64_t now)
{
    const struct mw_wait_heap *h = &sm->wheap[k];
    if (!h->n) return;
    const struct mw_warp *wp = &sm->warps[h->v[0].w];
    if (h->v[0].t > now && wp->out == R_SB_ALU && wp->wake == h->v[0].t) return; /* a valid top, not yet due */
    wait_expire_heap(sm, k, now);
}

/* Scheduler k: the LD/ST unit accepts again, so the warps held only by it rejoin the scan. */
static void ldst_release(struct mw_sm *sm, int k)
{
    uint64_t *lo = &sm->ldst_out[k * sm->live_words];
    for (int i = 0; i < sm->live_words; i++)
        while (lo[i]) {
            int w = sm->sched_warps[k][i * 64 + __builtin_ctzll(lo[i])];
            wait_drop(sm, w); /* clears its bit in lo[i] */
        }
}

/* Warp w joins (or leaves) its scheduler's scan. */
static void set_live(struct mw_sm *sm, int w, bool on)
{
    int k = w % sm->nsched, i = w / sm->nsched;
    uint64_t *word = &sm->live[k * sm->live_words + (i >> 6)], bit = 1ull << (i & 63);
    *word = on ? *word | bit : *word & ~bit;
    wait_drop(sm, w); /* joining or leaving, it is evaluated afresh when next in the scan */
}

uint64_t mw_cta_regs(const struct mw_config *c, const struct mw_kernel *k)
{
    /* registers are allocated per warp in reg_alloc_unit chunks, as GPGPU-Sim does for Fermi */
    uint64_t unit = (uint64_t)c->sm.reg_alloc_unit;
    uint64_t per_warp = (uint64_t)k->nregs * MW_WARP_SIZE;
    per_warp = (per_warp + unit - 1) / unit * unit;
    return per_warp * mw_kernel_cta_warps(k);
}

bool mw_sm_can_take_cta(struct mw_sim *s, struct mw_sm *sm)
{
    const struct mw_kernel *k = &s->kern;
    const struct mw_config *c = &s->cfg;
    uint32_t nw = mw_kernel_cta_warps(k);
    if (sm->resident_ctas >= c->sm.max_ctas) return false;
    if (sm->resident_warps + (int)nw > sm->nwarps) return false;
    if (sm->resident_threads + (int64_t)nw * MW_WARP_SIZE > c->sm.max_threads) return false;
    if ((int64_t)mw_cta_regs(c, k) > sm->free_regs) return false;
    if ((int64_t)k->shmem > sm->free_shmem) return false;
    struct mw_policy_inst *pi = &s->pol[MW_PT_CTA_THROTTLE];
    const struct mw_cta_throttle_ops *ops = (const struct mw_cta_throttle_ops *)pi->pol;
    if (ops && ops->limit && sm->resident_ctas >= ops->limit(pi, sm->id, sm->resident_ctas)) {
        s->refused_pt = MW_PT_CTA_THROTTLE + 1, s->refused_sm = sm->id, s->refused_at = mw_now(s);
        return false;
    }
    return true;
}

static void fetch(struct mw_sim *s, struct mw_sm *sm, struct mw_warp *w);
static inline const struct mw_warp_sched_ops *sched_ops(const struct mw_sim *s)
{
    return (const struct mw_warp_sched_ops *)s->pol[MW_PT_WARP_SCHED].pol;
}
static void wake_all(struct mw_sm *sm);

int mw_sm_launch_cta(struct mw_sim *s, struct mw_sm *sm, uint32_t cta, struct mw_err *e)
{
    const struct mw_kernel *k = &s->kern;
    int slot = -1;
    for (int i = 0; i < s->cfg.sm.max_ctas; i++)
        if (!sm->ctas[i].valid) {
            slot = i;
            break;
        }
    mw_sm_wake(s, sm);
    struct mw_cta_slot *cs = &sm->ctas[slot];
    memset(cs, 0, sizeof *cs);
    int rc = s->wl.ops->cta_open(&s->wl, cta, &cs->stream, e);
    if (rc < 0) return rc;
    cs->valid = true;
    cs->cta_id = cta;
    cs->nwarps = mw_kernel_cta_warps(k);
    cs->regs = (uint32_t)mw_cta_regs(&s->cfg, k);
    cs->threads = cs->nwarps * MW_WARP_SIZE;
    cs->shmem = k->shmem;
    sm->free_regs -= cs->regs;
    sm->free_shmem -= cs->shmem;
    sm->resident_ctas++;
    sm->resident_warps += (int)cs->nwarps;
    sm->resident_threads += (int)cs->threads;
    /* warps take the lowest free slots, so the scheduler split (w % N) balances them */
    uint32_t placed = 0;
    for (int w = 0; w < sm->nwarps && placed < cs->nwarps; w++) {
        struct mw_warp *wp = &sm->warps[w];
        if (wp->state != MW_W_FREE) continue;
        memset(wp, 0, offsetof(struct mw_warp, reg_ready)); /* keeps its row and ring pointers */
        memset(wp->reg_ready, 0, MW_REG_COUNT * sizeof *wp->reg_ready);
        wp->state = MW_W_ACTIVE;
        set_live(sm, w, true);
        wp->cta_slot = (uint16_t)slot;
        wp->warp_in_cta = placed++;
        wp->age = s->warp_seq++;
        wp->age_rank = (uint8_t)(sm->n_ranked < 255 ? sm->n_ranked : 255); /* the youngest: ages only grow */
        sm->n_ranked++;
        if (!sm->l1i) fetch(s, sm, wp);
        fetch_mark(sm, w);
        if (s->failed) {
            *e = s->fail_err;
            return e->code;
        }
    }
    sm->st.ctas_launched++;
    s->gst.ctas++;
    wake_all(sm);
    if (sm->l1i) sm->fetch_busy = true; /* its warps fetch their first instructions */
    if (mw_wants(s, MW_EV_CTA_LAUNCH)) {
        struct mw_event ev = {.kind = MW_EV_CTA_LAUNCH, .sm = sm->id, .cta = slot, .value = cta,
                              .aux = cs->nwarps, .cycle = mw_core_now(s)};
        mw_emit(s, &ev);
    }
    return 0;
}

/* The warp's next instruction from the workload into the ring slot after the decoded ones (and the look-ahead):
 * 1 pulled, 0 the stream has ended, -1 the workload failed. */
static int pull(struct mw_sim *s, struct mw_sm *sm, struct mw_warp *w)
{
    struct mw_cta_slot *cs = &sm->ctas[w->cta_slot];
    struct mw_inst *in = &w->ib[(w->ib_head + w->ib_n + w->ib_look) & sm->ib_mask];
    struct mw_err e;
    in->lane_affine = 0;
    int rc = s->wl.ops->warp_next(&s->wl, cs->stream, w->warp_in_cta, in, &e);
    if (rc < 0) {
        mw_sim_fail(s, &e);
        return -1;
    }
    if (rc == 0) {
        w->stream_done = 1;
        return 0;
    }
    in->id = 0; /* given at issue; a front end may leave an older one in the slot */
    in->pc = mw_code_addr_of(s, in->pc);
    if (in->op == MW_OP_EXIT) w->stream_done = 1;
    return 1;
}

/* Fill the warp's instruction buffer from the workload (perfect fetch; with an L1I, decode()). */
static void fetch(struct mw_sim *s, struct mw_sm *sm, struct mw_warp *w)
{
    int cap = (int)s->cfg.sm.ibuffer_size;
    while (!w->stream_done && w->ib_n < cap) {
        if (pull(s, sm, w) <= 0) break;
        if (w->ib_n == 0) w->qv = w->hv = 0; /* a new head instruction */
        w->ib_n++;
    }
}

static void cta_try_finish(struct mw_sim *s, struct mw_sm *sm, int slot)
{
    struct mw_cta_slot *cs = &sm->ctas[slot];
    if (!cs->valid || cs->warps_exited < cs->nwarps) return;
    for (int w = 0; w < sm->nwarps; w++) {
        struct mw_warp *wp = &sm->warps[w];
        if (wp->state == MW_W_EXITED && wp->cta_slot == slot && (wp->pending_loads || wp->pending_stores))
            return;
    }
    for (int w = 0; w < sm->nwarps; w++) {
        struct mw_warp *wp = &sm->warps[w];
        if (wp->state == MW_W_EXITED && wp->cta_slot == slot) wp->state = MW_W_FREE;
    }
    s->wl.ops->cta_close(&s->wl, cs->stream);
    sm->free_regs += cs->regs;
    sm->free_shmem += cs->shmem;
    sm->resident_ctas--;
    sm->resident_warps -= (int)cs->nwarps;
    sm->resident_threads -= (int)cs->threads;
    cs->valid = false;
    s->ctas_done++;
    if (mw_wants(s, MW_EV_CTA_DONE)) {
        struct mw_event ev = {.kind = MW_EV_CTA_DONE, .sm = sm->id, .cta = slot, .value = cs->cta_id,
                              .cycle = mw_core_now(s)};
        mw_emit(s, &ev);
    }
}

static void wake_all(struct mw_sm *sm)
{
    for (int k = 0; k < sm->nsched; k++) sm->sched_dirty[k] = true;
}

/* A warp's outstanding memory finished: an exited warp may complete its CTA. */
static void warp_mem_done(struct mw_sim *s, struct mw_sm *sm, int w)
{
    struct mw_warp *wp = &sm->warps[w];
    wait_drop(sm, w);
    wp->wake = 0;
    sm->sched_dirty[w % sm->nsched] = true;
    if (wp->state == MW_W_EXITED && !wp->pending_loads && !wp->pending_stores) cta_try_finish(s, sm, wp->cta_slot);
}

/* Apply what the LDST unit completed: loads' registers, store acknowledgements, freed slots. */
static void ldst_apply_done(struct mw_sim *s, struct mw_sm *sm)
{
    struct mw_ldst *u = &sm->ldst;
    for (int i = 0; i < u->ndone; i++) {
        const struct mw_ldst_done *d = &u->done[i];
        struct mw_warp *wp = &sm->warps[d->warp];
        if (d->store) {
            wp->pending_stores--;
        } else {
            for (int k = 0; k < d->ndst; k++) wp->reg_ready[d->dst[k]] = d->ready;
            wp->pending_loads--;
        }
        warp_mem_done(s, sm, d->warp);
    }
    u->ndone = 0;
    if (u->slot_freed) {
        u->slot_freed = false;
        wake_all(sm);
    }
}
static inline void ldst_apply(struct mw_sim *s, struct mw_sm *sm)
{
    if (sm->ldst.ndone || sm->ldst.slot_freed) ldst_apply_done(s, sm); /* (most cycles nothing completed) */
}

/* Verdicts kept on the free MSHR count (MW_QDEP_MSHR) are asked again once it changed since epoch `before`. */
static void mshr_changed(struct mw_sim *s, struct mw_sm *sm, uint64_t before)
{
    if (sm->ldst.l1->mshr_epoch != before && (sched_ops(s)->qualify_deps & MW_QDEP_MSHR)) wake_all(sm);
}

static void barrier_check(struct mw_sim *s, struct mw_sm *sm, int slot)
{
    struct mw_cta_slot *cs = &sm->ctas[slot];
    if (cs->warps_at_barrier == 0 || cs->warps_at_barrier < cs->nwarps - cs->warps_exited) return;
    wake_all(sm);
    for (int w = 0; w < sm->nwarps; w++) {
        struct mw_warp *wp = &sm->warps[w];
        if (wp->cta_slot == slot && wp->state == MW_W_BARRIER) {
            wp->state = MW_W_ACTIVE;
            wait_drop(sm, w);
            wp->wake = 0;
            if (mw_wants(s, MW_EV_BARRIER)) {
                struct mw_event ev = {.kind = MW_EV_BARRIER, .sm = sm->id, .warp = w, .cta = slot, .value = 0,
                                      .cycle = mw_core_now(s)};
                mw_emit(s, &ev);
            }
        }
    }
    cs->warps_at_barrier = 0;
}

static void warp_exit(struct mw_sim *s, struct mw_sm *sm, int w)
{
    struct mw_warp *wp = &sm->warps[w];
    wp->state = MW_W_EXITED;
    sm->n_ranked--;
    for (int i = 0; i < sm->nwarps; i++) { /* the younger active warps move up one */
        struct mw_warp *x = &sm->warps[i];
        if (warp_active(x) && x->age > wp->age && x->age_rank < 255) x->age_rank--;
    }
    fetch_mark(sm, w);
    set_live(sm, w, false);
    struct mw_cta_slot *cs = &sm->ctas[wp->cta_slot];
    cs->warps_exited++;
    if (mw_wants(s, MW_EV_WARP_EXIT)) {
        struct mw_event ev = {.kind = MW_EV_WARP_EXIT, .sm = sm->id, .warp = w, .cta = wp->cta_slot,
                              .cycle = mw_core_now(s)};
        mw_emit(s, &ev);
    }
    barrier_check(s, sm, wp->cta_slot);
    cta_try_finish(s, sm, wp->cta_slot);
}

/* Pipe of an ALU-class op: returns the array and count, NULL for ops that need no pipe. */
static uint64_t *op_pipes_cfg(const struct mw_sim *s, struct mw_sm *sm, int op, int *n, int *lat, int *ii)
{
    const struct mw_config *c = &s->cfg;
    switch (op) {
    case MW_OP_ALU:
        *n = (int)c->sm.alu_units, *lat = (int)c->sm.alu_latency, *ii = (int)c->sm.alu_interval;
        return sm->sp_free;
    case MW_OP_BRANCH:
        *n = (int)c->sm.alu_units, *lat = (int)c->sm.branch_latency, *ii = (int)c->sm.alu_interval;
        return sm->sp_free;
    case MW_OP_DP:
        *n = (int)c->sm.alu_units, *lat = (int)c->sm.dp_latency, *ii = (int)c->sm.dp_interval;
        return sm->sp_free;
    case MW_OP_SFU:
        *n = (int)c->sm.sfu_units, *lat = (int)c->sm.sfu_latency, *ii = (int)c->sm.sfu_interval;
        return sm->sfu_free;
    case MW_OP_TENSOR:
        *n = 1, *lat = (int)c->sm.tensor_latency, *ii = (int)c->sm.tensor_interval;
        return sm->tensor_free;
    default:
        *n = 0, *lat = 1, *ii = 1;
        return NULL;
    }
}

/* The same from the table mw_sm_init made of it. */
static inline uint64_t *op_pipes(const struct mw_sim *s, struct mw_sm *sm, int op, int *n, int *lat, int *ii)
{
    (void)s;
    *n = sm->op_pipe[op].n, *lat = sm->op_pipe[op].lat, *ii = sm->op_pipe[op].ii;
    return sm->op_pipe[op].p;
}

static int free_pipe(uint64_t *p, int n, uint64_t now, uint64_t *next)
{
    for (int i = 0; i < n; i++)
        if (p[i] <= now) return i;
    if (next)
        for (int i = 0; i < n; i++) *next = mw_min_u64(*next, p[i]);
    return -1;
}

/* Can warp w issue its head instruction now? Returns R_READY or the blocking reason; keeps sm->next_ready. */
static int warp_status(struct mw_sim *s, struct mw_sm *sm, struct mw_warp *wp, uint64_t now)
{
    if (wp->state == MW_W_BARRIER) return R_BARRIER;
    if (wp->state != MW_W_ACTIVE) return R_IDLE;
    if (wp->ib_n == 0) return wp->imiss ? R_FETCH : R_IBUF;
    if (now < wp->wake) {
        if (wp->wake != MW_NEVER) sm->next_ready = mw_min_u64(sm->next_ready, wp->wake);
        return wp->wake == MW_NEVER ? R_SB_MEM : R_SB_ALU;
    }
    const struct mw_inst *in = &wp->ib[wp->ib_head];
    if (!wp->hv) {
        uint64_t t = 0;
        for (int i = 0; i < in->nsrc; i++) t = mw_max_u64(t, wp->reg_ready[in->src[i]]);
        for (int i = 0; i < in->ndst; i++) t = mw_max_u64(t, wp->reg_ready[in->dst[i]]);
        if (in->op == MW_OP_MEMBAR && wp->pending_stores) t = MW_NEVER;
        if (t > now) {
            wp->wake = t;
            if (t != MW_NEVER) sm->next_ready = mw_min_u64(sm->next_ready, t);
            return t == MW_NEVER ? R_SB_MEM : R_SB_ALU;
        }
        wp->hv = 1;
    }
    if (mw_op_is_mem(in->op)) {
        if (!mw_ldst_can_accept(&sm->ldst, now)) {
            /* a busy shared-memory pipe frees at a known cycle; a full slot table frees with an event */
            if (sm->ldst.slots_used < sm->ldst.nslots) sm->next_ready = mw_min_u64(sm->next_ready, sm->ldst.free_at);
            return R_LDST;
        }
    } else {
        int n, lat, ii;
        uint64_t *p = op_pipes(s, sm, in->op, &n, &lat, &ii);
        uint64_t next = MW_NEVER;
        if (p && free_pipe(p, n, now, &next) < 0) {
            sm->next_ready = mw_min_u64(sm->next_ready, next);
            return R_PIPE;
        }
    }
    return R_READY;
}

static void issue(struct mw_sim *s, struct mw_sm *sm, int sched, int w, uint64_t now)
{
    struct mw_warp *wp = &sm->warps[w];
    struct mw_inst *in = &wp->ib[wp->ib_head];
    struct mw_policy_inst *pi = &s->pol[MW_PT_WARP_SCHED];
    const struct mw_warp_sched_ops *ops = (const struct mw_warp_sched_ops *)pi->pol;
    in->id = ++s->inst_seq;
    wp->qv = wp->hv = 0; /* a new head instruction follows */
    sm->issue_epoch++;
    /* kept verdicts: with MW_QDEP_ISSUE an issue may change them; with any deps a held warp's stall class (LDST
     * or pipe busy vs policy) may, so the other schedulers look again (their verdicts stay kept) */
    if (ops->qualify_deps) wake_all(sm);
    if (ops->issued) ops->issued(pi, sm->id, sched, w, in);
    sm->st.warp_insts++;
    sm->st.thread_insts += (uint64_t)mw_popcount32(in->mask);
    wp->insts++;
    sm->busy = true;
    int op = in->op;
    if (mw_op_is_mem(op)) {
        struct mw_ldst_issued r = mw_ldst_issue(s, &sm->ldst, w, in);
        if (r.latency >= 0)
            for (int i = 0; i < in->ndst; i++) wp->reg_ready[in->dst[i]] = now + (uint64_t)r.latency;
        if (r.store) wp->pending_stores += (uint32_t)r.nreq;
        if (r.load) {
            wp->pending_loads++;
            for (int i = 0; i < in->ndst; i++) wp->reg_ready[in->dst[i]] = MW_NEVER;
        }
        ldst_apply(s, sm);
    } else {
        int n, lat, ii;
        uint64_t *p = op_pipes(s, sm, op, &n, &lat, &ii);
        if (p) {
            int k = free_pipe(p, n, now, NULL);
            p[k] = now + (uint64_t)ii;
        }
        for (int i = 0; i < in->ndst; i++) wp->reg_ready[in->dst[i]] = now + (uint64_t)lat;
    }
    wp->ib_head = (uint8_t)((wp->ib_head + 1) & sm->ib_mask);
    wp->ib_n--;
    wp->wake = 0;
    if (op == MW_OP_BARRIER) {
        wp->state = MW_W_BARRIER;
        sm->ctas[wp->cta_slot].warps_at_barrier++;
        if (mw_wants(s, MW_EV_BARRIER)) {
            struct mw_event ev = {.kind = MW_EV_BARRIER, .sm = sm->id, .warp = w, .cta = wp->cta_slot, .value = 1,
                                  .cycle = now};
            mw_emit(s, &ev);
        }
        barrier_check(s, sm, wp->cta_slot);
    } else if (op == MW_OP_EXIT) {
        warp_exit(s, sm, w);
        return;
    }
    if (!sm->l1i) fetch(s, sm, wp);
    fetch_mark(sm, w);
    if (wp->ib_n == 0 && !wp->ib_look && wp->stream_done && wp->state == MW_W_ACTIVE) warp_exit(s, sm, w); /* no EXIT */
}

static const int stall_rank[] = {[R_ISSUED] = 99, [R_IDLE] = 0,   [R_FETCH] = 1,  [R_IBUF] = 2,  [R_BARRIER] = 3,
                                 [R_SB_MEM] = 4,  [R_SB_ALU] = 5, [R_PIPE] = 6,   [R_LDST] = 7,  [R_POLICY] = 8,
                                 [R_READY] = 9};

static inline void count_stall(struct mw_sm *sm, int reason, uint64_t n)
{
    switch (reason) {
    case R_ISSUED: sm->st.issued += n; break;
    case R_IDLE: sm->st.stall_idle += n; break;
    case R_IBUF: sm->st.stall_ibuffer += n; break;
    case R_FETCH: sm->st.stall_fetch += n; break;
    case R_BARRIER: sm->st.stall_barrier += n; break;
    case R_SB_MEM: sm->st.stall_scoreboard_mem += n; break;
    case R_SB_ALU: sm->st.stall_scoreboard_alu += n; break;
    case R_PIPE: sm->st.stall_pipe += n; break;
    case R_LDST: sm->st.stall_ldst += n; break;
    case R_POLICY: sm->st.stall_policy += n; break;
    default: break;
    }
}

/* Ask (or remember) the scheduling policy's qualify verdict for warp w's head instruction. Without declared
 * dependencies the verdict is asked every cycle and a veto keeps the SM awake; with them a verdict holds until
 * the head changes, a declared dependency changes, or mw_sched_recheck's time comes. */
static bool qualified(struct mw_sm *sm, struct mw_policy_inst *pi, const struct mw_warp_sched_ops *ops, int k, int w,
                      uint64_t now)
{
    struct mw_warp *wp = &sm->warps[w];
    uint32_t deps = ops->qualify_deps;
    if (!deps) {
        if (ops->qualify(pi, sm->id, k, w, &wp->ib[wp->ib_head])) return true;
        sm->next_ready = mw_min_u64(sm->next_ready, now + 1); /* the policy's state may change any cycle */
        return false;
    }
    uint64_t mep = (deps & MW_QDEP_MSHR) ? sm->ldst.l1->mshr_epoch : 0;
    uint64_t iep = (deps & MW_QDEP_ISSUE) ? sm->issue_epoch : 0;
    if (!wp->qv || wp->q_mshr != mep || wp->q_issue != iep || wp->q_recheck != sm->recheck_epoch || now >= wp->q_until) {
        sm->qualifying = w;
        wp->q_until = MW_NEVER;
        bool ok = ops->qualify(pi, sm->id, k, w, &wp->ib[wp->ib_head]);
        sm->qualifying = -1;
        wp->qv = ok ? 1 : 2;
        wp->q_mshr = mep;
        wp->q_issue = iep;
        wp->q_recheck = sm->recheck_epoch;
    }
    if (wp->qv == 1) return true;
    sm->next_ready = mw_min_u64(sm->next_ready, wp->q_until);
    return false;
}

static void schedule_scan(struct mw_sim *s, struct mw_sm *sm, int k, uint64_t now)
{
    struct mw_policy_inst *pi = &s->pol[MW_PT_WARP_SCHED];
    const struct mw_warp_sched_ops *ops = (const struct mw_warp_sched_ops *)pi->pol;
    uint16_t ready[256];
    int reason = R_IDLE;
    uint64_t outer_next = sm->next_ready;
    sm->next_ready = MW_NEVER;
    sm->sched_dirty[k] = false;
    wait_expire(sm, k, now);
    const int *nout = &sm->n_out[k * R_COUNT];
    if (nout[R_LDST] && mw_ldst_can_accept(&sm->ldst, now)) ldst_release(sm, k);
    int ldst_wait = nout[R_LDST]; /* held by the LD/ST unit since an earlier scan: as the scan would count them */
    for (int iw = 0; iw < s->cfg.sm.issue_width; iw++) {
        int n = 0, best = R_IDLE;
        const uint16_t *list = sm->sched_warps[k];
        const uint64_t *live = &sm->live[k * sm->live_words], *waiting = &sm->waiting[k * sm->live_words];
        /* the live warps not waiting on registers, in list order (a qualify hook may change which are, so with one
         * the word is read again after each warp) */
        for (int j = 0; j < sm->live_words; j++)
            for (uint64_t m = live[j] & ~waiting[j]; m;) {
                int b = __builtin_ctzll(m), i = j * 64 + b;
                m &= m - 1;
                int w = list[i];
                struct mw_warp *wp = &sm->warps[w];
                int r = warp_status(s, sm, wp, now);
                if (r == R_READY && ops->qualify && !qualified(sm, pi, ops, k, w, now)) r = R_POLICY;
                if (r == R_LDST && iw == 0) ldst_wait++;
                if (r == R_READY) ready[n++] = (uint16_t)w;
                else if (r == R_SB_MEM || r == R_SB_ALU || r == R_BARRIER || r == R_LDST) /* (an empty buffer refills
                                                                                              too soon) */
                    wait_add(sm, w, r);
                if (stall_rank[r] > stall_rank[best]) best = r;
                if (ops->qualify) m = live[j] & ~waiting[j] & (~0ull << b << 1);
            }
        /* the warps out of the scan, as the scan would have seen them: their stall reasons and earliest wake */
        if (nout[R_SB_ALU]) {
            wait_expire(sm, k, now); /* (a valid heap top) */
            if (sm->wheap[k].n) sm->next_ready = mw_min_u64(sm->next_ready, sm->wheap[k].v[0].t);
        }
        /* a busy shared-memory pipe frees at a known cycle; a full slot table frees with an event (warp_status) */
        if (nout[R_LDST] && sm->ldst.slots_used < sm->ldst.nslots)
            sm->next_ready = mw_min_u64(sm->next_ready, sm->ldst.free_at);
        /* the highest-ranked reason any of them is out for (LDST > SB_ALU > SB_MEM > BARRIER in stall_rank) */
        int out = nout[R_LDST]     ? R_LDST
                  : nout[R_SB_ALU] ? R_SB_ALU
                  : nout[R_SB_MEM] ? R_SB_MEM
                  : nout[R_BARRIER] ? R_BARRIER
                                    : R_IDLE;
        if (stall_rank[out] > stall_rank[best]) best = out;
        if (n == 0) {
            if (iw == 0) reason = best;
            break;
        }
        int idx = 0;
        if (n > 1) {
            idx = ops->pick(pi, sm->id, k, ready, n);
            if (s->failed) return;
            if (idx < 0 || idx >= n) {
                struct mw_err e;
                mw_err_set(&e, MW_EHOOK, NULL, 0, 0,
                           "warp_scheduler '%s': pick returned %d, expected an index in [0, %d) of the ready warps",
                           pi->pol->name, idx, n);
                mw_sim_fail(s, &e);
                return;
            }
        }
        issue(s, sm, k, ready[idx], now);
        reason = R_ISSUED;
        if (s->failed) return;
    }
    sm->last_stall[k] = reason;
    sm->last_ldst_wait[k] = ldst_wait;
    sm->st.ldst_wait_warps += (uint64_t)ldst_wait;
    count_stall(sm, reason, 1);
    sm->sched_sleep[k] = reason == R_ISSUED ? 0 : sm->next_ready;
    sm->next_ready = mw_min_u64(sm->next_ready, outer_next);
}

/* Scheduler k's cycle: a scan, unless nothing can have changed since the last one (then its verdict counts again). */
static inline void schedule(struct mw_sim *s, struct mw_sm *sm, int k, uint64_t now)
{
    if (!sm->sched_dirty[k] && now < sm->sched_sleep[k]) {
        sm->next_ready = mw_min_u64(sm->next_ready, sm->sched_sleep[k]);
        count_stall(sm, sm->last_stall[k], 1);
        sm->st.ldst_wait_warps += (uint64_t)sm->last_ldst_wait[k];
        return;
    }
    schedule_scan(s, sm, k, now);
}

/* ---- the fetch stage (with an L1I) ---- */

/* The fetch buffer's warp: its next instructions enter its instruction buffer (GPGPU-Sim decodes two). */
static void decode(struct mw_sim *s, struct mw_sm *sm, int wi)
{
    struct mw_warp *w = &sm->warps[wi];
    if (w->ib_look) {
        w->ib_look = 0;
        if (w->ib_n == 0) w->qv = w->hv = 0;
        w->ib_n++;
    }
    fetch(s, sm, w);
    if (s->failed) return;
    fetch_mark(sm, wi);
    sm->sched_dirty[wi % sm->nsched] = true;
    if (w->ib_n == 0 && w->stream_done && w->state == MW_W_ACTIVE) warp_exit(s, sm, wi); /* no EXIT */
}

/* Warp wi's turn to fetch: its next instruction's code line is looked up in the L1I (a hit fills the fetch
 * buffer, a miss makes the warp wait for the line). 1 = it fetched, 0 = it had nothing left (and ended if it
 * could), -1 = the workload failed. */
static int fetch_warp(struct mw_sim *s, struct mw_sm *sm, int wi)
{
    struct mw_warp *wp = &sm->warps[wi];
    if (!wp->ib_look) {
        int rc = wp->stream_done ? 0 : pull(s, sm, wp);
        if (rc < 0) return -1;
        if (rc == 0) { /* nothing left to fetch: a warp without an EXIT ends here */
            if (wp->state == MW_W_ACTIVE) warp_exit(s, sm, wi);
            return 0;
        }
        wp->ib_look = 1;
    }
    sm->last_fetched = wi;
    int r = mw_l1i_access(s, sm->l1i, wp->ib[(wp->ib_head + wp->ib_n) & sm->ib_mask].pc, wi);
    if (r == MW_L1I_HIT) {
        sm->fb_warp = wi;
    } else if (r == MW_L1I_MISS) {
        wp->imiss = 1;
        sm->sched_dirty[wi % sm->nsched] = true; /* its stall reason is now the fetch */
    }
    fetch_mark(sm, wi);
    return 1;
}

/* One cycle after the schedulers (GPGPU-Sim's order: issue, decode, fetch): decode what the fetch buffer holds,
 * then fetch for one warp: a warp whose code line arrived, else the next warp after the last fetched whose
 * instruction buffer is empty and which is not waiting for a line. */
/* (most cycles no warp may fetch: its buffer is full, or it waits for the instruction cache) */
static inline bool fetchable_any(const struct mw_sm *sm)
{
    uint64_t any = 0;
    for (int i = 0; i < (sm->nwarps + 63) >> 6; i++) any |= sm->fetchable[i];
    return any != 0;
}

static void fetch_stage(struct mw_sim *s, struct mw_sm *sm)
{
    struct mw_l1i *c = sm->l1i;
    bool did = false, found = false;
    if (sm->fb_warp >= 0) {
        int w = sm->fb_warp;
        sm->fb_warp = -1;
        decode(s, sm, w);
        if (s->failed) return;
        did = true;
    }
    int w = mw_l1i_pop_ready(c);
    if (w >= 0) {
        sm->warps[w].imiss = 0;
        sm->sched_dirty[w % sm->nsched] = true; /* its stall reason changes */
        sm->fb_warp = w;
        did = true;
    } else if (fetchable_any(sm)) {
        /* the warps that may fetch, from the one after the last fetched round to it (a set kept by fetch_mark) */
        int words = (sm->nwarps + 63) >> 6, start = sm->last_fetched + 1 >= sm->nwarps ? 0 : sm->last_fetched + 1;
        for (int i = 0; i <= words && !found; i++) {
            int wd = ((start >> 6) + i) % words;
            uint64_t m = sm->fetchable[wd];
            if (i == 0) m &= ~0ull << (start & 63);
            else if (i == words) m &= (start & 63) ? ~(~0ull << (start & 63)) : 0;
            for (; m && !found; m &= m - 1) {
                int rc = fetch_warp(s, sm, (wd << 6) + __builtin_ctzll(m));
                if (rc < 0) return;
                found = rc > 0;
            }
        }
    }
    did |= mw_l1i_drain(s, c);
    sm->fetch_busy = sm->fb_warp >= 0 || mw_l1i_has_work(c) || found;
    if (did) sm->busy = true;
}

static void sm_cycle(struct mw_sim *s, struct mw_sm *sm)
{
    uint64_t now = mw_core_now(s);
    sm->busy = false;
    sm->next_ready = MW_NEVER;
    if (sm->resident_warps == 0 && mw_ldst_idle(&sm->ldst) && !sm->fetch_busy) {
        /* no warp to schedule: a wake-up left from the last warps' exit is void (a CTA launch wakes them again), so
         * the idle SM can sleep */
        for (int k = 0; k < s->cfg.sm.n_schedulers; k++)
            sm->last_stall[k] = R_IDLE, sm->last_ldst_wait[k] = 0, sm->sched_dirty[k] = false;
        sm->st.issue_slots += (uint64_t)s->cfg.sm.n_schedulers;
        sm->st.stall_idle += (uint64_t)s->cfg.sm.n_schedulers;
        return;
    }
    if (sm->resident_warps) sm->st.active_cycles++;
    if (now >= sm->recheck_at) { /* a policy asked for its verdicts again at this cycle */
        sm->recheck_at = MW_NEVER;
        sm->recheck_epoch++;
        wake_all(sm);
    }
    uint64_t mep = sm->ldst.l1->mshr_epoch;
    /* (an empty unit, with an empty re-execution queue and nothing in its L1D's queues, has no cycle to take: most
     * SM cycles) */
    if (!mw_ldst_idle(&sm->ldst) && mw_ldst_cycle(s, &sm->ldst)) sm->busy = true;
    ldst_apply(s, sm);
    mshr_changed(s, sm, mep);
    int ns = (int)s->cfg.sm.n_schedulers;
    for (int k = 0; k < ns; k++) {
        schedule(s, sm, k, now);
        if (s->failed) return;
    }
    if (sm->l1i) fetch_stage(s, sm);
    sm->next_ready = mw_min_u64(sm->next_ready, sm->recheck_at);
    sm->st.issue_slots += (uint64_t)ns;
}

/* The clock skipped `cycles` core cycles in which this SM could not act: account them as the last cycle. */
static void sm_jump(struct mw_sim *s, struct mw_sm *sm, uint64_t cycles)
{
    int ns = (int)s->cfg.sm.n_schedulers;
    sm->st.issue_slots += cycles * (uint64_t)ns;
    if (sm->resident_warps) sm->st.active_cycles += cycles;
    for (int k = 0; k < ns; k++) count_stall(sm, sm->resident_warps ? sm->last_stall[k] : R_IDLE, cycles);
    for (int k = 0; k < ns && sm->resident_warps; k++) sm->st.ldst_wait_warps += cycles * (uint64_t)sm->last_ldst_wait[k];
    mw_ldst_jump(&sm->ldst, cycles);
}

static inline void settle(struct mw_sim *s, struct mw_sm *sm)
{
    /* the cycles up to now, and the current one if this SM has had its turn in it already */
    uint64_t now = mw_core_now(s), upto = now + (mw_sm_place(s, sm->id, now) < s->sm_turn ? 1 : 0);
    if (upto > sm->acct) {
        sm_jump(s, sm, upto - sm->acct);
        sm->acct = upto;
    }
}
void mw_sm_settle(struct mw_sim *s, struct mw_sm *sm) { settle(s, sm); }

/* The SM sleeps until core cycle `until` (the simulation's asleep set skips it until then) or wakes now. */
static inline void nap(struct mw_sim *s, struct mw_sm *sm, uint64_t until)
{
    sm->sleep_until = until;
    s->sm_asleep[sm->id >> 6] |= 1ull << (sm->id & 63);
    s->sm_wake_min = mw_min_u64(s->sm_wake_min, until);
}
static inline void unnap(struct mw_sim *s, struct mw_sm *sm)
{
    sm->sleep_until = 0;
    s->sm_asleep[sm->id >> 6] &= ~(1ull << (sm->id & 63));
}

void mw_sm_wake(struct mw_sim *s, struct mw_sm *sm)
{
    settle(s, sm);
    unnap(s, sm);
}

bool mw_sm_tick_awake(struct mw_sim *s, struct mw_sm *sm, uint64_t now)
{
    s->visits_sm++;
    settle(s, sm); /* its sleep ran out: the skipped cycles count as the last evaluated one */
    sm_cycle(s, sm);
    sm->acct = now + 1;
    if (s->failed) return true;
    /* nothing moved and nothing can before next_ready (the per-SM form of the whole GPU's next-event test) */
    if (s->cfg.sim.fast_forward && !sm->busy && mw_ldst_waits(&sm->ldst) && sm->ldst.free_at <= now + 1 &&
        sm->next_ready > now + 1 && !mw_sm_dirty(sm) && !sm->fetch_busy)
        nap(s, sm, sm->next_ready);
    return sm->busy;
}

void mw_sm_deliver(struct mw_sim *s, struct mw_sm *sm, struct mw_req *r)
{
    s->visits_sm++;
    settle(s, sm);
    if (r->flags & MW_RQ_INST) { /* a code line: its waiting warps go to the fetch stage from the next cycle */
        mw_l1i_fill(s, sm->l1i, r);
        sm->busy = true;
        sm->fetch_busy = true;
        unnap(s, sm);
        return;
    }
    int parked = sm->ldst.parked;
    bool rexq_due = mw_ldst_rexq_due(&sm->ldst);
    uint64_t mep = sm->ldst.l1->mshr_epoch;
    sm->busy = true;
    mw_ldst_reply(s, &sm->ldst, r);
    ldst_apply(s, sm);
    mshr_changed(s, sm, mep);
    if (sm->sleep_until && !rexq_due && mw_ldst_rexq_due(&sm->ldst)) unnap(s, sm); /* a re-execution is due */
    /* a sleeping SM sleeps on through a reply that unblocks nothing (a fill of another set, part of a load
     * whose other requests are still out) */
    if (sm->sleep_until && (sm->ldst.parked != parked || mw_sm_dirty(sm))) unnap(s, sm);
}


void mw_l1d_flush(struct mw_sim *s, int sm)
{
    struct mw_sm *p = &s->sms[sm];
    mw_sm_wake(s, p);
    p->ldst.parked = 0;
    p->ldst.rexq_ready = true;
    mw_l1d_flush_lines(s, &s->l1d[sm]);
}

/* ---- facts ---- */
uint64_t mw_warp_age(const struct mw_sim *s, int sm, int w) { return s->sms[sm].warps[w].age; }
bool mw_warp_active(const struct mw_sim *s, int sm, int w)
{
    return warp_active(&s->sms[sm].warps[w]);
}
int mw_warp_age_rank(const struct mw_sim *s, int sm, int w)
{
    const struct mw_sm *m = &s->sms[sm];
    const struct mw_warp *wp = &m->warps[w];
    if (warp_active(wp) && wp->age_rank < 255) return wp->age_rank;
    int r = 0; /* an exited warp (its loads still in the LD/ST unit), or past the kept range: counted */
    for (int i = 0; i < m->nwarps; i++)
        r += warp_active(&m->warps[i]) && m->warps[i].age < wp->age;
    return r;
}
bool mw_warp_at_barrier(const struct mw_sim *s, int sm, int w) { return s->sms[sm].warps[w].state == MW_W_BARRIER; }
int mw_warp_cta(const struct mw_sim *s, int sm, int w) { return s->sms[sm].warps[w].cta_slot; }
int mw_ldst_heads(const struct mw_sim *s, int sm, struct mw_ldst_head *out, int max)
{
    if (!s->sms || sm < 0 || sm >= s->nsms) return 0;
    return mw_ldst_unit_heads(&s->sms[sm].ldst, out, max);
}
const struct mw_inst *mw_warp_next_inst(const struct mw_sim *s, int sm, int w)
{
    const struct mw_warp *wp = &s->sms[sm].warps[w];
    return wp->ib_n ? &wp->ib[wp->ib_head] : NULL;
}
uint64_t mw_warp_insts(const struct mw_sim *s, int sm, int w) { return s->sms[sm].warps[w].insts; }
int mw_sm_resident_ctas(const struct mw_sim *s, int sm) { return s->sms[sm].resident_ctas; }
uint64_t mw_sm_warp_insts(const struct mw_sim *s, int sm) { return s->sms[sm].st.warp_insts; }

/* ---- facts and actions about registers, CTAs and schedulers ---- */
int64_t mw_sm_free_regs(const struct mw_sim *s, int sm) { return s->sms[sm].free_regs; }
int mw_sm_registers(const struct mw_sim *s) { return (int)s->cfg.sm.registers; }
int mw_max_ctas(const struct mw_sim *s) { return (int)s->cfg.sm.max_ctas; }
static const struct mw_cta_slot *cta_at(const struct mw_sim *s, int sm, int cta)
{
    if (!s->sms || sm < 0 || sm >= s->nsms || cta < 0 || cta >= s->cfg.sm.max_ctas) return NULL;
    const struct mw_cta_slot *cs = &s->sms[sm].ctas[cta];
    return cs->valid ? cs : NULL;
}
bool mw_cta_resident(const struct mw_sim *s, int sm, int cta) { return cta_at(s, sm, cta) != NULL; }
int mw_cta_regs_of(const struct mw_sim *s, int sm, int cta)
{
    const struct mw_cta_slot *cs = cta_at(s, sm, cta);
    return cs ? (int)cs->regs : 0;
}
int mw_cta_warps(const struct mw_sim *s, int sm, int cta, uint16_t *out, int max)
{
    if (!cta_at(s, sm, cta)) return 0;
    const struct mw_sm *p = &s->sms[sm];
    int n = 0;
    for (int w = 0; w < p->nwarps; w++) {
        const struct mw_warp *wp = &p->warps[w];
        if (wp->state != MW_W_FREE && wp->cta_slot == cta) {
            if (n < max) out[n] = (uint16_t)w;
            n++;
        }
    }
    return n;
}
bool mw_cta_active(const struct mw_sim *s, int sm, int cta)
{
    const struct mw_cta_slot *cs = cta_at(s, sm, cta);
    return cs && !cs->inactive;
}
int mw_warp_scheduler(const struct mw_sim *s, int sm, int w) { (void)sm; return w % (int)s->cfg.sm.n_schedulers; }
int mw_sched_warps(const struct mw_sim *s, int sm, int sched, uint16_t *out, int max)
{
    const struct mw_sm *p = &s->sms[sm];
    int n = 0;
    for (int i = 0; i < p->sched_nwarps[sched]; i++) {
        int w = p->sched_warps[sched][i];
        int st = p->warps[w].state;
        if (st != MW_W_ACTIVE && st != MW_W_BARRIER) continue;
        if (n < max) out[n] = (uint16_t)w;
        n++;
    }
    return n;
}
uint32_t mw_warp_mask(const struct mw_sim *s, int sm, int w)
{
    const struct mw_warp *wp = &s->sms[sm].warps[w];
    return wp->ib_n ? wp->ib[wp->ib_head].mask : 0;
}

static int cta_set_active(struct mw_sim *s, int sm, int cta, bool on)
{
    if (!cta_at(s, sm, cta)) return -1;
    struct mw_sm *p = &s->sms[sm];
    struct mw_cta_slot *cs = &p->ctas[cta];
    if (cs->inactive == !on) return -1;
    mw_sm_wake(s, p);
    cs->inactive = !on;
    for (int w = 0; w < p->nwarps; w++) {
        struct mw_warp *wp = &p->warps[w];
        if (wp->cta_slot == cta && warp_active(wp)) set_live(p, w, on);
    }
    if (on) p->st.ctas_reactivated++;
    else p->st.ctas_deactivated++;
    wake_all(p);
    return 0;
}
int mw_cta_deactivate(struct mw_sim *s, int sm, int cta) { return cta_set_active(s, sm, cta, false); }
int mw_cta_reactivate(struct mw_sim *s, int sm, int cta) { return cta_set_active(s, sm, cta, true); }

int mw_inject(struct mw_sim *s, int sm, uint64_t addr, uint32_t bytes, bool write, uint32_t tag)
{
    if (!s->sms || sm < 0 || sm >= s->nsms || !bytes) return 0;
    uint64_t lb = (uint64_t)s->cfg.l1d.line_bytes;
    uint64_t first = addr & ~(lb - 1), last = (addr + bytes - 1) & ~(lb - 1);
    int n = 0;
    for (uint64_t line = first; line <= last; line += lb, n++) mw_l1d_inject(s, &s->l1d[sm], line, write, tag);
    mw_sm_wake(s, &s->sms[sm]);
    return n;
}

void mw_sched_recheck(struct mw_sim *s, int sm, uint64_t at)
{
    if (!s->sms || sm < 0 || sm >= s->nsms) return;
    struct mw_sm *p = &s->sms[sm];
    uint64_t now = mw_core_now(s);
    if (p->qualifying >= 0 && at > now) { /* from inside qualify: this warp's verdict holds until then */
        p->warps[p->qualifying].q_until = at;
        return;
    }
    if (at <= now) {
        p->recheck_epoch++;
        mw_sm_wake(s, p);
        wake_all(p);
    } else {
        p->recheck_at = mw_min_u64(p->recheck_at, at);
        mw_sm_wake(s, p);
    }
}

bool mw_l1d_invalidate(struct mw_sim *s, int sm, int set, int way)
{
    struct mw_sm *p = &s->sms[sm];
    if (!mw_l1d_invalidate_line(s, &s->l1d[sm], set, way)) return false;
    mw_sm_wake(s, p);
    if (p->ldst.park_set == set) p->ldst.parked = 0; /* the parked request's set changed */
    if (p->ldst.rexq_n && p->ldst.rexq[p->ldst.rexq_head].req.set == set) p->ldst.rexq_ready = true;
    return true;
}
