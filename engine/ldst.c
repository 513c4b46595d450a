/* The LDST unit (engine/ldst.h): memory instructions from issue to the L1D, one coalesced request per cycle,
 * the baseline's blocking retry of a request whose reservation failed (parked when retrying cannot succeed
 * before a reply), load completion trackers, and the replies of the network. LDST scheduling is a decision
 * point (engine/policy.h). */
#include "ldst.h"
#include "sim.h"

#include <stdlib.h>
#include <string.h>

int mw_ldst_init(struct mw_sim *s, struct mw_ldst *u, int sm, int nwarps, struct mw_sm_stats *st, struct mw_l1d *l1,
                 struct mw_err *e)
{
    memset(u, 0, sizeof *u);
    u->sm = sm;
    u->st = st;
    u->l1 = l1;
    mw_coalescer_init(&u->co, &s->cfg, &l1->idx);
    struct mw_policy_inst *lp = &s->pol[MW_PT_LDST_SCHED];
    const struct mw_ldst_sched_ops *lops = (const struct mw_ldst_sched_ops *)lp->pol;
    u->nslots = lops && lops->slots ? lops->slots(lp) : 1;
    if (u->nslots < 1 || u->nslots > 1024)
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "ldst_scheduler '%s': slots() returned %d, expected 1..1024",
                          lp->pol->name, u->nslots);
    u->rexq_first = true;
    u->rexq_cap = lops && lops->rexq ? lops->rexq(lp, &u->rexq_first) : 0;
    if (u->rexq_cap < 0 || u->rexq_cap > 4096)
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "ldst_scheduler '%s': rexq() returned %d, expected 0..4096",
                          lp->pol->name, u->rexq_cap);
    if (u->rexq_cap && !(u->rexq = calloc((size_t)u->rexq_cap, sizeof *u->rexq)))
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    u->slots = calloc((size_t)u->nslots, sizeof *u->slots);
    /* load trackers: at most one per warp instruction in flight; grow on demand */
    u->trk_cap = (uint32_t)(nwarps * 4 + u->nslots);
    u->trk = calloc(u->trk_cap, sizeof *u->trk);
    u->done_cap = 64;
    u->done = malloc((size_t)u->done_cap * sizeof *u->done);
    if (!u->slots || !u->trk || !u->done) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    for (uint32_t i = 0; i < u->trk_cap; i++) u->trk[i].next_free = i + 1;
    u->trk_free = 0;
    return 0;
}

void mw_ldst_fini(struct mw_ldst *u)
{
    free(u->slots);
    free(u->rexq);
    free(u->trk);
    free(u->done);
}



static struct mw_ldst_done *outbox(struct mw_ldst *u)
{
    if (u->ndone == u->done_cap) {
        int nc = u->done_cap * 2;
        struct mw_ldst_done *d = realloc(u->done, (size_t)nc * sizeof *d);
        if (!d) abort(); /* a handful of entries per cycle; a failure here is unrecoverable */
        u->done = d;
        u->done_cap = nc;
    }
    return &u->done[u->ndone++];
}

static uint32_t trk_alloc(struct mw_ldst *u)
{
    if (u->trk_free >= u->trk_cap) {
        uint32_t nc = u->trk_cap * 2;
        struct mw_tracker *t = realloc(u->trk, nc * sizeof *t);
        if (!t) abort(); /* grows only to a few hundred entries; a failure here is unrecoverable */
        memset(t + u->trk_cap, 0, (nc - u->trk_cap) * sizeof *t);
        for (uint32_t i = u->trk_cap; i < nc; i++) t[i].next_free = i + 1;
        u->trk_free = u->trk_cap;
        u->trk = t;
        u->trk_cap = nc;
    }
    uint32_t id = u->trk_free;
    u->trk_free = u->trk[id].next_free;
    return id;
}

/* One of a load's requests has its data at cycle t. */
static void trk_done(struct mw_ldst *u, uint32_t id, uint64_t t, uint64_t t_create)
{
    struct mw_tracker *k = &u->trk[id];
    if (t > k->ready) k->ready = t;
    if (t_create != MW_NEVER) {
        uint64_t lat = t - t_create;
        u->st->load_latency_sum += lat;
        u->st->load_latency_count++;
        if (lat > u->st->load_latency_max) u->st->load_latency_max = lat;
    }
    if (--k->outstanding > 0) return;
    if (k->cls == 2) u->st->ld_div_latency += k->ready - k->issued, u->st->ld_div_mshr_wait += k->mshr_wait;
    else if (k->cls == 1) u->st->ld_coh_latency += k->ready - k->issued, u->st->ld_coh_mshr_wait += k->mshr_wait;
    struct mw_ldst_done *d = outbox(u);
    d->warp = k->warp;
    d->store = 0;
    d->ndst = k->ndst;
    memcpy(d->dst, k->dst, sizeof d->dst);
    d->ready = k->ready;
    k->live = 0;
    k->next_free = u->trk_free;
    u->trk_free = id;
}

/* The warp's age rank among the SM's resident warps (0 = oldest), in bins of 8 (sm.*_age* counters). */
static int age_bin(const struct mw_sim *s, int sm, int w)
{
    int r = mw_warp_age_rank(s, sm, w);
    return r / 8 < MW_SM_AGE_BINS ? r / 8 : MW_SM_AGE_BINS - 1;
}

struct mw_ldst_issued mw_ldst_issue(struct mw_sim *s, struct mw_ldst *u, int w, const struct mw_inst *in)
{
    uint64_t now = mw_core_now(s);
    const struct mw_config *c = &s->cfg;
    struct mw_ldst_issued res = {.latency = -1};
    int op = in->op;
    if (op == MW_OP_LD_SHARED || op == MW_OP_ST_SHARED || op == MW_OP_LD_CONST || op == MW_OP_MEMBAR) {
        int occ = 1, lat = (int)c->sm.const_latency;
        if (op == MW_OP_LD_SHARED || op == MW_OP_ST_SHARED) {
            occ = mw_shared_conflicts(in);
            lat = (int)c->sm.shmem_latency + occ - 1;
            u->st->shared_accesses++;
            u->st->shared_bank_conflicts += (uint64_t)(occ - 1);
        }
        if (op == MW_OP_MEMBAR) lat = 1;
        u->free_at = now + (uint64_t)occ;
        res.latency = lat;
        return res;
    }
    struct mw_ldst_slot *sl = NULL;
    for (int i = 0; i < u->nslots; i++)
        if (!u->slots[i].valid) {
            sl = &u->slots[i];
            break;
        }
    u->parked = 0; /* another instruction to choose from */
    sl->valid = true;
    sl->warp = (uint16_t)w;
    sl->op = (uint8_t)op;
    sl->flags = in->flags;
    sl->pc = in->pc;
    sl->inst = in->id;
    sl->next = 0;
    sl->misses = 0;
    memset(sl->sets_seen, 0, sizeof sl->sets_seen);
    struct mw_inst local;
    if (op == MW_OP_LD_LOCAL || op == MW_OP_ST_LOCAL) in = mw_local_translate(c, u->sm, w, in, &local);
    sl->nreq = mw_coalesce(&u->co, in, sl->reqs);
    memset(sl->verdict, 0xff, (size_t)sl->nreq);
    memset(sl->rflags, 0, (size_t)sl->nreq);
    u->slots_used++;
    u->st->coalesced_reqs += (uint64_t)sl->nreq;
    u->st->mem_lanes += (uint64_t)mw_popcount32(in->mask);
    res.nreq = sl->nreq;
    /* a store is outstanding from its issue: a warp must not exit, nor a fence pass, while requests of its
     * store still wait in the LDST unit */
    if (op == MW_OP_ST_GLOBAL || op == MW_OP_ST_LOCAL) u->st->global_stores++, res.store = true;
    else if (op == MW_OP_ATOMIC) u->st->atomics++;
    else u->st->global_loads++;
    if (op == MW_OP_LD_GLOBAL || op == MW_OP_LD_LOCAL) (&u->st->ld_age0_7)[age_bin(s, u->sm, w)]++;
    bool is_load = op == MW_OP_LD_GLOBAL || op == MW_OP_LD_LOCAL || op == MW_OP_ATOMIC;
    if (is_load) {
        res.load = true;
        uint32_t id = trk_alloc(u);
        struct mw_tracker *k = &u->trk[id];
        k->warp = (uint16_t)w;
        k->ndst = in->ndst;
        memcpy(k->dst, in->dst, sizeof k->dst);
        k->outstanding = sl->nreq;
        k->ready = now;
        k->live = 1;
        k->cls = op == MW_OP_ATOMIC || sl->nreq == 0 ? 0 : sl->nreq > 2 ? 2 : 1;
        k->issued = now;
        k->mshr_wait = 0;
        sl->tracker = id;
        if (sl->nreq == 0) { /* no active lane: nothing to wait for */
            k->outstanding = 1;
            trk_done(u, id, now, MW_NEVER);
        }
    }
    if (sl->nreq == 0) {
        sl->valid = false;
        u->slots_used--;
        u->slot_freed = true;
    }
    return res;
}

static void slot_done(struct mw_sim *s, struct mw_ldst *u, struct mw_ldst_slot *sl)
{
    if (sl->op == MW_OP_LD_GLOBAL || sl->op == MW_OP_LD_LOCAL) { /* OAWS's load classes and fully cached loads */
        if (sl->nreq > 2) u->st->ld_div++, u->st->ld_div_fully_cached += sl->misses == 0;
        else u->st->ld_coh++, u->st->ld_coh_fully_cached += sl->misses == 0;
    }
    if (mw_wants(s, MW_EV_LOAD_DONE) && (sl->op == MW_OP_LD_GLOBAL || sl->op == MW_OP_LD_LOCAL)) {
        int sets = 0;
        for (int k = 0; k < 4; k++) sets += __builtin_popcountll(sl->sets_seen[k]);
        struct mw_event ev = {.kind = MW_EV_LOAD_DONE, .sm = u->sm, .warp = sl->warp, .pc = sl->pc,
                              .value = (uint32_t)sl->nreq, .aux = sl->misses, .set = sets,
                              .cycle = mw_core_now(s), .inst = sl->inst};
        mw_emit(s, &ev);
    }
    sl->valid = false;
    u->slots_used--;
    u->slot_freed = true;
}

static void count_stall(struct mw_ldst *u, int cause, uint64_t n)
{
    switch (cause) {
    case MW_STALL_LINE_ALLOC: u->st->ldst_stall_line_alloc += n; break;
    case MW_STALL_MSHR: u->st->ldst_stall_mshr += n; break;
    case MW_STALL_MISS_QUEUE: u->st->ldst_stall_miss_queue += n; break;
    }
    mw_l1d_count_fail(u->l1, cause, n);
}

/* n cycles of the parked request's MSHR wait, charged to its load (the one instruction in the unit) */
static void occl_parked(struct mw_ldst *u, uint64_t n)
{
    if (u->parked != MW_STALL_MSHR) return;
    for (int i = 0; i < u->nslots; i++) {
        struct mw_ldst_slot *sl = &u->slots[i];
        if (sl->valid && (sl->op == MW_OP_LD_GLOBAL || sl->op == MW_OP_LD_LOCAL)) u->trk[sl->tracker].mshr_wait += n;
    }
}

void mw_ldst_jump(struct mw_ldst *u, uint64_t cycles)
{
    if (!u->parked) return;
    u->st->ldst_busy += cycles;
    if (u->rexq_blocked) u->st->rexq_full_stalls += cycles;
    count_stall(u, u->parked, cycles);
    occl_parked(u, cycles);
}

/* Which instruction's head request goes to L1D this cycle (NULL after a hook failure). */
static struct mw_ldst_slot *choose_slot(struct mw_sim *s, struct mw_ldst *u)
{
    if (u->nslots == 1) return &u->slots[0];
    uint16_t cand[1024];
    int idx[1024], n = 0;
    for (int i = 0; i < u->nslots; i++)
        if (u->slots[i].valid) cand[n] = u->slots[i].warp, idx[n++] = i;
    int k = 0;
    if (n > 1) {
        struct mw_policy_inst *pi = &s->pol[MW_PT_LDST_SCHED];
        const struct mw_ldst_sched_ops *ops = (const struct mw_ldst_sched_ops *)pi->pol;
        k = ops->pick ? ops->pick(pi, u->sm, cand, n) : 0;
        if (s->failed) return NULL;
        if (k < 0 || k >= n) {
            mw_hook_fail(s, pi, "pick returned %d, expected [0, %d)", k, n);
            return NULL;
        }
    }
    return &u->slots[idx[k]];
}

/* ---- the re-execution queue (ldst_sched_ops.rexq) ---- */

/* May the failed head request of `sl` move into the queue? Room, and no other instruction of its warp there. */
static bool rexq_can_park(const struct mw_ldst *u, const struct mw_ldst_slot *sl)
{
    if (u->rexq_n == u->rexq_cap) return false;
    for (int k = 0; k < u->rexq_n; k++) {
        const struct mw_rexq_entry *x = &u->rexq[(u->rexq_head + k) % u->rexq_cap];
        if (x->warp == sl->warp && x->inst != sl->inst) return false;
    }
    return true;
}

static void rexq_park(struct mw_sim *s, struct mw_ldst *u, struct mw_ldst_slot *sl, int cause, bool hooked)
{
    struct mw_rexq_entry *x = &u->rexq[(u->rexq_head + u->rexq_n) % u->rexq_cap];
    int i = sl->next;
    x->req = sl->reqs[i];
    x->pc = sl->pc;
    x->inst = sl->inst;
    x->parked_at = mw_core_now(s);
    x->tracker = sl->tracker;
    x->warp = sl->warp;
    x->op = sl->op;
    x->flags = sl->flags;
    x->verdict = sl->verdict[i];
    x->rflags = sl->rflags[i];
    x->cause = (uint8_t)cause;
    x->hooked = hooked;
    if (!u->rexq_n) u->rexq_ready = false; /* a new head: it waits for its own cause to change */
    u->rexq_n++;
    u->st->rexq_parked++;
    if ((uint64_t)u->rexq_n > u->st->rexq_peak) u->st->rexq_peak = (uint64_t)u->rexq_n;
    sl->misses++; /* it failed to reserve, so it is not a hit */
}

/* Replay the queue's head into L1D (it holds the port this cycle). */
static void rexq_replay(struct mw_sim *s, struct mw_ldst *u)
{
    struct mw_rexq_entry *x = &u->rexq[u->rexq_head];
    bool is_load = x->op == MW_OP_LD_GLOBAL || x->op == MW_OP_LD_LOCAL;
    struct mw_l1d_access a = {.warp = x->warp, .op = x->op, .pc = x->pc, .inst_flags = x->flags, .reqs = &x->req,
                              .index = 0, .n = 1, .tracker = x->tracker, .verdict = &x->verdict, .inst = x->inst,
                              .rflags = &x->rflags};
    uint32_t mshr_before = (uint32_t)u->l1->mshr_used;
    int cause = mw_l1d_access(s, u->l1, &a);
    if ((uint32_t)u->l1->mshr_used > mshr_before && is_load) (&u->st->mshr_age0_7)[age_bin(s, u->sm, x->warp)]++;
    if (a.data_at != MW_NEVER) trk_done(u, x->tracker, a.data_at, mw_core_now(s));
    if (cause == MW_STALL_NONE) {
        if (x->cause == MW_STALL_MSHR && is_load && u->trk[x->tracker].live)
            u->trk[x->tracker].mshr_wait += mw_core_now(s) - x->parked_at;
        u->st->rexq_replays++;
        u->rexq_head = (u->rexq_head + 1) % u->rexq_cap;
        u->rexq_n--;
        u->rexq_ready = true; /* the next head may find what this one found */
        u->parked = 0;        /* a request blocked on a full queue may park now */
        return;
    }
    u->st->rexq_replay_fails++;
    mw_l1d_count_fail(u->l1, cause, 1);
    if (cause != MW_STALL_MSHR && x->cause == MW_STALL_MSHR && is_load && u->trk[x->tracker].live)
        u->trk[x->tracker].mshr_wait += mw_core_now(s) - x->parked_at, x->parked_at = mw_core_now(s);
    x->cause = (uint8_t)cause;
    x->hooked = a.hooked;
    u->rexq_ready = false;
    if (x->verdict != MW_BYPASS && x->verdict != MW_BYPASS_PROBE) x->verdict = (uint8_t)(0x10 + cause);
}

bool mw_ldst_cycle(struct mw_sim *s, struct mw_ldst *u)
{
    if (u->rexq_n && mw_ldst_rexq_due(u) && (u->rexq_first || !u->slots_used)) {
        u->st->ldst_busy++;
        rexq_replay(s, u);
        if (u->slots_used && u->parked) count_stall(u, u->parked, 1), occl_parked(u, 1);
        if (u->slots_used && u->rexq_blocked) u->st->rexq_full_stalls++;
        mw_l1d_drain(s, u->l1);
        return true;
    }
    if (!u->slots_used) return mw_l1d_drain(s, u->l1);
    u->st->ldst_busy++;
    if (u->parked) {
        if (u->rexq_blocked) u->st->rexq_full_stalls++;
        count_stall(u, u->parked, 1);
        occl_parked(u, 1);
        return mw_l1d_drain(s, u->l1);
    }
    struct mw_ldst_slot *sl = choose_slot(s, u);
    if (!sl) return true;
    int i = sl->next;
    struct mw_coal_req *q = &sl->reqs[i];
    sl->sets_seen[(q->set >> 6) & 3] |= 1ull << (q->set & 63);
    struct mw_l1d_access a = {.warp = sl->warp, .op = sl->op, .pc = sl->pc, .inst_flags = sl->flags,
                              .reqs = sl->reqs, .index = i, .n = sl->nreq, .tracker = sl->tracker,
                              .verdict = &sl->verdict[i], .inst = sl->inst, .rflags = &sl->rflags[i]};
    uint32_t mshr_before = (uint32_t)u->l1->mshr_used;
    int cause = mw_l1d_access(s, u->l1, &a);
    if (a.miss) sl->misses++;
    if ((uint32_t)u->l1->mshr_used > mshr_before && (sl->op == MW_OP_LD_GLOBAL || sl->op == MW_OP_LD_LOCAL))
        (&u->st->mshr_age0_7)[age_bin(s, u->sm, sl->warp)]++;
    if (a.data_at != MW_NEVER) trk_done(u, sl->tracker, a.data_at, mw_core_now(s));
    /* a failed attempt to cache is remembered so that the bypass policy is asked again with the cause (MRPB);
     * a bypass is final: its request waits for the miss queue, with nothing new to decide */
    uint8_t *vd = &sl->verdict[i];
    if (cause != MW_STALL_NONE && *vd != MW_BYPASS && *vd != MW_BYPASS_PROBE) *vd = (uint8_t)(0x10 + cause);
    bool parked = false; /* into the re-execution queue: the attempt failed, but the unit moves on (no stall) */
    if (cause != MW_STALL_NONE && u->rexq_cap && !s->failed) {
        parked = rexq_can_park(u, sl);
        if (parked) {
            rexq_park(s, u, sl, cause, a.hooked);
            mw_l1d_count_fail(u->l1, cause, 1);
        } else {
            u->rexq_blocked = true;
            u->st->rexq_full_stalls++;
        }
    }
    if (cause == MW_STALL_NONE || parked) {
        u->rexq_blocked = false;
        if (++sl->next == sl->nreq) slot_done(s, u, sl);
        else u->st->ldst_coal++;
    } else {
        count_stall(u, cause, 1);
        if (cause == MW_STALL_MISS_QUEUE && (sl->op == MW_OP_ST_GLOBAL || sl->op == MW_OP_ST_LOCAL)) u->st->ldst_icnt_store++;
        if (cause == MW_STALL_MSHR && (sl->op == MW_OP_LD_GLOBAL || sl->op == MW_OP_LD_LOCAL))
            u->trk[sl->tracker].mshr_wait++;
        if ((cause == MW_STALL_LINE_ALLOC || cause == MW_STALL_MSHR) && !a.hooked && u->slots_used == 1 && !s->failed) {
            u->parked = cause;
            u->park_set = q->set;
        }
    }
    /* the miss queue drains into the request network after the access, in the same cycle */
    mw_l1d_drain(s, u->l1);
    return true;
}

void mw_ldst_reply(struct mw_sim *s, struct mw_ldst *u, struct mw_req *r)
{
    uint64_t now = mw_core_now(s);
    if (r->flags & MW_RQ_INJECTED) { /* a policy's own traffic: nobody waits for it */
        if (mw_wants(s, MW_EV_INJECT_DONE)) { /* read data back, or a write acknowledged (aux = 1) */
            struct mw_event ev = {.kind = MW_EV_INJECT_DONE, .sm = u->sm, .addr = r->addr, .value = r->inst,
                                  .aux = r->kind == MW_REQ_WRITE, .cycle = now};
            mw_emit(s, &ev);
        }
        mw_req_free(&s->pool, r);
        return;
    }
    if (r->kind == MW_REQ_READ && r->t_seg[5]) { /* where its time went (stamps: engine/mem_req.h) */
        u->st->lat_n++;
        u->st->lat_l1 += r->t_seg[0] - r->t_create;
        u->st->lat_xbar_req += r->t_seg[1] - r->t_seg[0];
        u->st->lat_l2_inq += r->t_seg[2] - r->t_seg[1];
        u->st->lat_l2_pipe += r->t_seg[3] - r->t_seg[2];
        u->st->lat_l2_wait += r->t_seg[4] - r->t_seg[3];
        u->st->lat_l2_replyq += r->t_seg[5] - r->t_seg[4];
        u->st->lat_xbar_reply += now - r->t_seg[5];
    }
    /* a write acknowledgement or bypassed data leaves the L1D as it was: a parked request stays parked */
    if (r->kind == MW_REQ_WRITE) {
        struct mw_ldst_done *d = outbox(u);
        d->warp = r->warp;
        d->store = 1;
        d->ndst = 0;
        mw_req_free(&s->pool, r);
        return;
    }
    if (r->flags & MW_RQ_BYPASS_L1) {
        uint32_t id = r->inst;
        uint64_t tc = r->t_create;
        mw_req_free(&s->pool, r);
        trk_done(u, id, now, tc);
        return;
    }
    uint32_t waiters[MW_MSHR_WAITERS_MAX];
    uint64_t t_create[MW_MSHR_WAITERS_MAX];
    int set;
    bool freed;
    int n = mw_l1d_fill(s, u->l1, r, waiters, t_create, &set, &freed);
    if (set == u->park_set) u->parked = 0; /* the parked request's set changed */
    if (freed && u->parked == MW_STALL_MSHR) u->parked = 0;
    if (u->rexq_n && (freed || set == u->rexq[u->rexq_head].req.set)) u->rexq_ready = true;
    for (int i = 0; i < n; i++) trk_done(u, waiters[i], now, t_create[i]);
}

/* ---- facts ---- */
int mw_ldst_unit_heads(const struct mw_ldst *u, struct mw_ldst_head *out, int max)
{
    int n = 0;
    for (int i = 0; i < u->nslots; i++) {
        const struct mw_ldst_slot *sl = &u->slots[i];
        if (!sl->valid) continue;
        if (n < max) {
            struct mw_ldst_head *h = &out[n];
            h->warp = sl->warp;
            h->op = sl->op;
            h->inst = sl->inst;
            h->index = sl->next;
            h->n = sl->nreq;
            h->req = sl->reqs[sl->next];
        }
        n++;
    }
    return n;
}
