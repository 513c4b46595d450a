/* The L1 data cache of one SM (engine/l1d.h): tags, MSHRs, miss queue, the access path of a coalesced request
 * with line / MSHR / miss-queue reservation (GPGPU-Sim's baseline: a failed reservation is retried and holds
 * the LDST unit, the stall Choo and OAWS study), write-through no-allocate stores that invalidate the L1D copy,
 * and fills. Bypass, granularity and replacement are decision points (engine/policy.h). */
#include "l1d.h"

#include "icnt.h"
#include "addrmap.h"
#include "sim.h"

#include <stdlib.h>
#include <string.h>

MW_STATS_DEFINE(l1d, MW_L1D_STATS)

#define SECTOR 32

int mw_l1d_init(struct mw_sim *s, struct mw_l1d *l1, int sm, struct mw_err *e)
{
    const struct mw_config *c = &s->cfg;
    memset(l1, 0, sizeof *l1);
    l1->sm = sm;
    mw_set_index_init(&l1->idx, c);
    const struct mw_policy_inst *rp = &s->pol[MW_PT_REPLACEMENT];
    l1->view_meta = rp->pol->line_meta_bytes ? rp->meta_off : (size_t)-1;
    if (mw_tags_init(&l1->tags, l1->idx.sets, (int)c->l1d.assoc, (int)c->l1d.line_bytes, s->l1_meta_bytes))
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    l1->mshr_entries = (int)c->l1d.mshr_entries;
    l1->mshr = calloc((size_t)l1->mshr_entries, sizeof *l1->mshr);
    l1->mshr_key = malloc((size_t)l1->mshr_entries * sizeof *l1->mshr_key);
    if (!l1->mshr || !l1->mshr_key || mw_slotmap_init(&l1->mshr_map, l1->mshr_entries)) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < l1->mshr_entries; i++) l1->mshr_key[i] = MW_MSHR_NO_LINE;
    mw_fifo_init(&l1->missq, (int)c->l1d.miss_queue);
    mw_fifo_init(&l1->injq, 1 << 30);
    l1->gran = (int)c->l1d.line_bytes;
    return 0;
}

void mw_l1d_fini(struct mw_sim *s, struct mw_l1d *l1)
{
    mw_req_free_list(&s->pool, l1->missq.head);
    mw_req_free_list(&s->pool, l1->injq.head);
    free(l1->mshr);
    free(l1->mshr_key);
    mw_slotmap_fini(&l1->mshr_map);
    mw_tags_fini(&l1->tags);
    if (l1->org) l1->org->fini(l1);
}

static struct mw_mshr *mshr_find(struct mw_l1d *l1, uint64_t line)
{
    int k = mw_slotmap_find(&l1->mshr_map, line);
    return k < 0 ? NULL : &l1->mshr[k];
}

/* A way for a new line in `set`: a never-used way first, else the replacement policy's victim among lines that
 * are not waiting for a fill. -1 = none. */
static int choose_victim(struct mw_sim *s, struct mw_l1d *l1, int set, bool *hooked)
{
    struct mw_tags *t = &l1->tags;
    struct mw_line_view v[64];
    uint8_t ev[64];
    bool any = false;
    for (int w = 0; w < t->assoc; w++) {
        const struct mw_line *l = mw_tags_line(t, set, w);
        if (!l->used) return w;
        ev[w] = l->pending == 0;
        any |= ev[w];
    }
    if (!any) return -1; /* every way awaits a fill: the common stall, decided without building views */
    struct mw_policy_inst *pi = &s->pol[MW_PT_REPLACEMENT];
    const struct mw_replacement_ops *ops = (const struct mw_replacement_ops *)pi->pol;
    if (!ops->victim_order && !ops->victim_pure) *hooked = true; /* else asking again gives the same way */
    if (ops->victim_order) return mw_tags_victim_by_order(t, set, ops->victim_order, ev);
    for (int w = 0; w < t->assoc; w++) v[w] = mw_tags_view(t, set, w, l1->view_meta);
    int way = ops->victim(pi, l1->sm, set, v, ev, t->assoc);
    if (way < -1 || way >= t->assoc || (way >= 0 && !ev[way])) {
        mw_hook_fail(s, pi, "victim returned %d, not an evictable way", way);
        return -1;
    }
    if (way < 0) s->refused_pt = MW_PT_REPLACEMENT + 1, s->refused_sm = l1->sm, s->refused_at = mw_now(s);
    return way;
}

static void evict(struct mw_sim *s, struct mw_l1d *l1, int set, int way, int cause)
{
    struct mw_line *l = mw_tags_line(&l1->tags, set, way);
    if (l->used && l->valid) {
        l1->st.evictions++;
        if (!l->hits) l1->st.evict_reuse0++;
        struct mw_policy_inst *pi = &s->pol[MW_PT_REPLACEMENT];
        const struct mw_replacement_ops *ops = (const struct mw_replacement_ops *)pi->pol;
        if (ops->evicted) {
            struct mw_line_view v = mw_tags_view(&l1->tags, set, way, l1->view_meta);
            ops->evicted(pi, l1->sm, set, way, &v, cause);
        }
        if (mw_wants(s, MW_EV_L1D_EVICT)) {
            struct mw_event ev = {.kind = MW_EV_L1D_EVICT, .sm = l1->sm, .warp = l->warp, .pc = l->pc,
                                  .addr = l->tag, .set = set, .way = way, .value = l->hits,
                                  .cycle = mw_core_now(s), .alloc_pc = l->alloc_pc, .alloc_warp = l->alloc_warp,
                                  .sectors = l->valid, .cause = (uint8_t)cause};
            mw_emit(s, &ev);
        }
    }
    mw_tags_clear(&l1->tags, set, way);
}

static void install(struct mw_sim *s, struct mw_l1d *l1, int set, int way, uint64_t line, uint64_t pc, int warp)
{
    mw_tags_take(&l1->tags, set, way, line);
    struct mw_line *l = mw_tags_line(&l1->tags, set, way);
    l->fill_time = l->last_access = mw_core_now(s);
    l->hits = 0;
    l->pc = l->alloc_pc = pc;
    l->warp = l->alloc_warp = (uint16_t)warp;
    struct mw_policy_inst *pi = &s->pol[MW_PT_REPLACEMENT];
    const struct mw_replacement_ops *ops = (const struct mw_replacement_ops *)pi->pol;
    if (ops->insert) {
        struct mw_line_view v = mw_tags_view(&l1->tags, set, way, l1->view_meta);
        ops->insert(pi, l1->sm, set, way, &v);
    }
}

static struct mw_req *make_req(struct mw_sim *s, struct mw_l1d *l1, const struct mw_l1d_access *a, uint64_t line,
                               uint8_t sectors, int kind)
{
    struct mw_req *r = mw_req_new(&s->pool, line, sectors, kind);
    r->sm = (uint16_t)l1->sm;
    r->warp = (uint16_t)a->warp;
    r->pc = a->pc;
    r->t_create = mw_core_now(s);
    r->slice = (uint16_t)mw_addr_slice(s, line);
    r->partition = (uint16_t)(r->slice / s->cfg.l2.subpartitions);
    return r;
}

int mw_l1d_access(struct mw_sim *s, struct mw_l1d *l1, struct mw_l1d_access *a)
{
    const struct mw_config *c = &s->cfg;
    uint64_t now = mw_core_now(s);
    const struct mw_coal_req *q = &a->reqs[a->index];
    int op = a->op;
    a->data_at = MW_NEVER;

    if (op == MW_OP_ST_GLOBAL || op == MW_OP_ST_LOCAL) {
        if (mw_fifo_full(&l1->missq)) return MW_STALL_MISS_QUEUE;
        bool invalidated = false;
        if (c->l1d.enabled && l1->org) invalidated = l1->org->store(s, l1, q);
        if (c->l1d.enabled && !l1->org) {
            int way = mw_tags_find(&l1->tags, q->set, q->line);
            /* GPGPU-Sim counts a write-through store as an access: a hit on a present line, a pending hit on a
             * line being filled, a miss on an absent one */
            l1->st.gpgpusim_accesses++;
            if (way < 0) l1->st.gpgpusim_misses++;
            else if (mw_tags_line(&l1->tags, q->set, way)->pending) l1->st.gpgpusim_pending_hits++;
            if (way >= 0) {
                struct mw_line *l = mw_tags_line(&l1->tags, q->set, way);
                if (!l->pending) {
                    evict(s, l1, q->set, way, MW_EVICT_STORE);
                    l1->st.store_invalidates++;
                    invalidated = true;
                } else {
                    l->valid &= (uint8_t)~q->sectors;
                }
            }
        }
        l1->st.stores++;
        struct mw_req *r = make_req(s, l1, a, q->line, q->sectors, MW_REQ_WRITE);
        r->size = q->size;
        if (c->l1d.latency_pipe) r->t_ready = now + (uint64_t)c->l1d.hit_latency;
        mw_fifo_push(&l1->missq, r);
        if (mw_wants(s, MW_EV_L1D_STORE)) {
            struct mw_event ev = {.kind = MW_EV_L1D_STORE, .sm = l1->sm, .warp = a->warp, .pc = a->pc, .inst = a->inst,
                                  .addr = q->line, .set = q->set, .size = q->size, .sectors = q->sectors,
                                  .value = invalidated, .cycle = now};
            mw_emit(s, &ev);
        }
        return MW_STALL_NONE;
    }

    /* loads and atomics */
    bool bypass = op == MW_OP_ATOMIC || !c->l1d.enabled || (a->inst_flags & MW_IF_BYPASS_L1) ||
                  ((a->inst_flags & MW_IF_CG) && c->l1d.bypass_cg);
    bool probe_only = false;
    if (!bypass) {
        uint8_t *vd = a->verdict;
        struct mw_policy_inst *pi = &s->pol[MW_PT_L1D_BYPASS];
        const struct mw_l1d_bypass_ops *ops = (const struct mw_l1d_bypass_ops *)pi->pol;
        if (*vd >= 0x10 && *vd != 0xff && !ops->retries) *vd = MW_CACHE; /* the first verdict stands */
        if (*vd == 0xff || *vd >= 0x10) {
            struct mw_bypass_ctx bc = {.sm = l1->sm, .warp = a->warp, .pc = a->pc, .index = a->index, .n = a->n,
                                       .reqs = a->reqs, .retry = *vd == 0xff ? MW_STALL_NONE : *vd - 0x10};
            if (ops->decide) a->hooked = true;
            int v = ops->decide ? ops->decide(pi, &bc) : MW_CACHE;
            if (s->failed) return MW_STALL_NONE;
            if (v != MW_CACHE && v != MW_BYPASS && v != MW_BYPASS_PROBE) {
                mw_hook_fail(s, pi, "decide returned %d, expected 0 (cache), 1 (bypass) or 2 (bypass, probe L1D)", v);
                return MW_STALL_NONE;
            }
            *vd = (uint8_t)v;
        }
        bypass = *vd == MW_BYPASS;
        probe_only = *vd == MW_BYPASS_PROBE;
    }
    if (!bypass && l1->org) { /* another organisation (engine/l1d_chunk.c) */
        int rc = l1->org->load(s, l1, a, probe_only, &bypass);
        if (!bypass) return rc;
    }
    struct mw_tags *t = &l1->tags;
    int way = -1;
    struct mw_line *l = NULL;
    uint8_t need = q->sectors;
    if (!bypass) {
        way = mw_tags_find(t, q->set, q->line);
        l = way >= 0 ? mw_tags_line(t, q->set, way) : NULL;
        if (probe_only && !(l && (need & ~l->valid) == 0)) bypass = true; /* a probe that misses goes past L1D */
    }
    if (bypass) {
        if (mw_fifo_full(&l1->missq)) return MW_STALL_MISS_QUEUE;
        struct mw_req *r = make_req(s, l1, a, q->line, q->sectors, MW_REQ_READ);
        r->flags |= MW_RQ_BYPASS_L1 | (op == MW_OP_ATOMIC ? MW_RQ_ATOMIC : 0);
        r->inst = a->tracker;
        mw_fifo_push(&l1->missq, r);
        if (op != MW_OP_ATOMIC) l1->st.bypasses++;
        return MW_STALL_NONE;
    }

    if (l && (need & ~l->valid) == 0) { /* hit */
        l->last_access = now;
        l->hits++;
        l->pc = a->pc;
        l->warp = (uint16_t)a->warp;
        l1->st.accesses++;
        l1->st.hits++;
        l1->st.gpgpusim_accesses++;
        struct mw_policy_inst *pi = &s->pol[MW_PT_REPLACEMENT];
        const struct mw_replacement_ops *ops = (const struct mw_replacement_ops *)pi->pol;
        if (ops->touch) {
            struct mw_line_view v = mw_tags_view(t, q->set, way, l1->view_meta);
            ops->touch(pi, l1->sm, q->set, way, &v);
        }
        if (mw_wants(s, MW_EV_L1D_HIT)) {
            struct mw_event ev = {.kind = MW_EV_L1D_HIT, .sm = l1->sm, .warp = a->warp, .pc = a->pc,
                                  .addr = q->line, .set = q->set, .way = way, .cycle = now, .inst = a->inst,
                                  .size = q->size, .sectors = q->sectors};
            mw_emit(s, &ev);
        }
        a->data_at = now + (uint64_t)c->l1d.hit_latency;
        return MW_STALL_NONE;
    }

    /* miss: may the replacement policy's victim storage serve it (once per request, not while the line is
     * already on its way)? */
    struct mw_mshr *m = mshr_find(l1, q->line);
    struct mw_policy_inst *rpi = &s->pol[MW_PT_REPLACEMENT];
    const struct mw_replacement_ops *rops = (const struct mw_replacement_ops *)rpi->pol;
    if (rops->victim_probe && !m && !(*a->rflags & MW_RF_PROBED)) {
        *a->rflags |= MW_RF_PROBED;
        a->hooked = true;
        uint32_t lat = rops->victim_probe(rpi, l1->sm, q->set, q->line, need, a->warp, a->pc);
        if (s->failed) return MW_STALL_NONE;
        if (lat) {
            l1->st.accesses++;
            l1->st.victim_hits++;
            l1->st.gpgpusim_accesses++;
            if (mw_wants(s, MW_EV_L1D_HIT)) {
                struct mw_event ev = {.kind = MW_EV_L1D_HIT, .sm = l1->sm, .warp = a->warp, .pc = a->pc,
                                      .addr = q->line, .set = q->set, .way = -1, .value = 1, .cycle = now,
                                      .inst = a->inst, .size = q->size, .sectors = q->sectors};
                mw_emit(s, &ev);
            }
            a->data_at = now + lat;
            return MW_STALL_NONE;
        }
    }
    /* what must be reserved? */
    uint8_t covered = m ? m->sectors : 0;
    if (l) covered |= l->valid;
    bool need_fetch = (need & ~covered) != 0;
    bool need_line = !l && !m && c->l1d.alloc == MW_ALLOC_ON_MISS;
    int victim = -1;
    if (need_line) {
        victim = choose_victim(s, l1, q->set, &a->hooked);
        if (s->failed) return MW_STALL_NONE;
        if (victim < 0) return MW_STALL_LINE_ALLOC;
    }
    if (m ? m->nwait >= c->l1d.mshr_max_merge || m->nwait >= MW_MSHR_WAITERS_MAX : l1->mshr_used >= l1->mshr_entries)
        return MW_STALL_MSHR;
    /* a read miss needs two free miss-queue slots (GPGPU-Sim's rd_miss_base keeps one for a possible second
     * request), a store one */
    if (need_fetch && l1->missq.n + 1 >= l1->missq.cap) return MW_STALL_MISS_QUEUE;

    l1->st.accesses++;
    l1->st.misses++;
    a->miss = true;
    if (l && !need_fetch) l1->st.hit_reserved++;
    else if (l) l1->st.sector_misses++;
    if (m) l1->st.mshr_merges++;
    /* GPGPU-Sim: what is already on its way is a pending hit; anything that must be fetched a miss */
    l1->st.gpgpusim_accesses++;
    if (need_fetch) l1->st.gpgpusim_misses++;
    else l1->st.gpgpusim_pending_hits++;
    if (!m) {
        int k = mw_slotmap_lowest_free(&l1->mshr_map); /* the lowest free entry, as sim:mshrs shows */
        mw_slotmap_take(&l1->mshr_map, k, q->line);
        m = &l1->mshr[k];
        l1->mshr_epoch++;
        /* the waiter arrays are written before they are read: only the header is cleared */
        m->sectors = 0;
        m->nwait = m->inflight = 0;
        l1->mshr_key[k] = q->line;
        m->way = -1;
        m->pc = a->pc;
        m->warp = (uint16_t)a->warp;
        mw_l1d_mshr_occ(s, l1);
        l1->mshr_used++;
    }
    if (need_line) {
        const struct mw_line *vl = mw_tags_line(t, q->set, victim);
        if (vl->used && vl->valid) { /* the miss's contention class: who allocated the line it replaces */
            if (vl->alloc_warp == a->warp) {
                l1->st.victim_iw++;
                if (vl->alloc_inst == (uint32_t)a->inst) l1->st.victim_iw_coincident++;
            } else if (mw_warp_cta(s, l1->sm, vl->alloc_warp) == mw_warp_cta(s, l1->sm, a->warp)) l1->st.victim_xw++;
            else l1->st.victim_xb++;
        }
        evict(s, l1, q->set, victim, MW_EVICT_REPLACE);
        install(s, l1, q->set, victim, q->line, a->pc, a->warp);
        m->way = victim;
        l = mw_tags_line(t, q->set, victim);
        l->alloc_inst = (uint32_t)a->inst;
    }
    if (need_fetch) {
        struct mw_policy_inst *pi = &s->pol[MW_PT_GRANULARITY];
        const struct mw_granularity_ops *ops = (const struct mw_granularity_ops *)pi->pol;
        struct mw_gran_ctx gc = {.sm = l1->sm, .warp = a->warp, .pc = a->pc, .line = q->line, .set = q->set,
                                 .need = need, .have = covered, .size = q->size};
        uint8_t full = (uint8_t)((1u << (c->l1d.line_bytes / SECTOR)) - 1);
        /* the sectors to fetch are pending from now on, so the line survives an mw_l1d_flush from inside fetch;
         * sectors already valid or already in flight stay as they are (a fill clears only what it brings) */
        if (l) l->pending |= (uint8_t)(need & ~covered);
        uint8_t f = ops->fetch ? ops->fetch(pi, &gc) : full;
        if (s->failed) return MW_STALL_NONE;
        if ((f & need) != need || (f & ~full)) {
            mw_hook_fail(s, pi, "fetch returned sector mask 0x%x, which must cover 0x%x within 0x%x", f, need, full);
            return MW_STALL_NONE;
        }
        f &= (uint8_t)~covered;
        struct mw_req *r = make_req(s, l1, a, q->line, f, MW_REQ_READ);
        if (c->l1d.latency_pipe) r->t_ready = now + (uint64_t)c->l1d.hit_latency; /* found a miss at the tags */
        mw_fifo_push(&l1->missq, r);
        m->sectors |= f;
        m->inflight++;
        if (l) l->pending |= f;
    }
    m->waiters[m->nwait] = a->tracker;
    m->t_create[m->nwait] = now;
    m->nwait++;
    if (mw_wants(s, MW_EV_L1D_MISS)) {
        struct mw_event ev = {.kind = MW_EV_L1D_MISS, .sm = l1->sm, .warp = a->warp, .pc = a->pc,
                              .addr = q->line, .set = q->set, .way = l ? (int)(l - mw_tags_line(t, q->set, 0)) : -1,
                              .value = m->nwait > 1, .aux = l != NULL && !need_line, .cycle = now,
                              .inst = a->inst, .size = q->size, .sectors = q->sectors};
        mw_emit(s, &ev);
    }
    return MW_STALL_NONE;
}

void mw_l1d_count_fail(struct mw_l1d *l1, int cause, uint64_t n)
{
    if (cause == MW_STALL_LINE_ALLOC || cause == MW_STALL_MSHR || cause == MW_STALL_MISS_QUEUE)
        l1->st.gpgpusim_reservation_fails += n;
    switch (cause) {
    case MW_STALL_LINE_ALLOC: l1->st.line_alloc_fail += n; break;
    case MW_STALL_MSHR: l1->st.mshr_fail += n; break;
    case MW_STALL_MISS_QUEUE: l1->st.miss_queue_fail += n; break;
    }
}

bool mw_l1d_drain(struct mw_sim *s, struct mw_l1d *l1)
{
    /* demand requests first, then traffic injected by a policy (register backup / restore) */
    struct mw_req_fifo *f = l1->missq.head ? &l1->missq : &l1->injq;
    if (!f->head || f->head->t_ready > mw_core_now(s)) return false; /* (l1d.latency_pipe: not at the tags yet) */
    struct mw_req *r = f->head;
    /* stores and atomics carry their data (GPGPU-Sim: mf->size() = data + control bytes), reads only control */
    bool data = r->kind == MW_REQ_WRITE || (r->flags & MW_RQ_ATOMIC);
    int bytes = (int)s->cfg.icnt.header_bytes + (data ? (int)r->size : 0);
    if (!mw_xbar_can_inject(s->req_net, mw_icnt_port(s, l1->sm), bytes)) return false;
    mw_fifo_pop(f);
    r->t_seg[0] = mw_core_stamp(s);
    mw_xbar_inject(s->req_net, mw_icnt_port(s, l1->sm), r, r->slice, bytes);
    return true; /* one request per cycle leaves the SM */
}

int mw_l1d_fill(struct mw_sim *s, struct mw_l1d *l1, struct mw_req *r, uint32_t *waiters, uint64_t *t_create,
                int *setp, bool *freed)
{
    uint64_t now = mw_core_now(s);
    struct mw_mshr *m = mshr_find(l1, r->addr);
    int set = mw_l1d_set(l1, r->addr);
    uint8_t sectors = r->sectors;
    mw_req_free(&s->pool, r);
    *setp = set;
    *freed = false;
    if (!m) return 0; /* cannot happen: every L1D fill has its MSHR entry */
    int k = (int)(m - l1->mshr);
    uint64_t line = l1->mshr_key[k];
    struct mw_tags *t = &l1->tags;
    if (l1->org) l1->org->fill(s, l1, set, line, sectors); /* the tags stay empty: nothing more below */
    int way = mw_tags_find(t, set, line);
    if (way < 0 && s->cfg.l1d.alloc == MW_ALLOC_ON_FILL) {
        bool hooked = false;
        way = choose_victim(s, l1, set, &hooked);
        if (way >= 0) {
            evict(s, l1, set, way, MW_EVICT_REPLACE);
            install(s, l1, set, way, line, m->pc, m->warp);
        }
    }
    if (way >= 0) {
        struct mw_line *l = mw_tags_line(t, set, way);
        l->valid |= sectors;
        l->pending &= (uint8_t)~sectors;
        l1->st.fills++;
        if (mw_wants(s, MW_EV_L1D_FILL)) {
            struct mw_event ev = {.kind = MW_EV_L1D_FILL, .sm = l1->sm, .addr = line, .set = set, .way = way,
                                  .cycle = now, .pc = m->pc, .warp = m->warp, .sectors = sectors};
            mw_emit(s, &ev);
        }
    }
    if (--m->inflight > 0) return 0;
    int nwait = m->nwait;
    memcpy(waiters, m->waiters, (size_t)nwait * sizeof *waiters);
    memcpy(t_create, m->t_create, (size_t)nwait * sizeof *t_create);
    mw_slotmap_release(&l1->mshr_map, k, line);
    l1->mshr_key[k] = MW_MSHR_NO_LINE;
    mw_l1d_mshr_occ(s, l1);
    l1->mshr_used--;
    l1->mshr_epoch++;
    *freed = true;
    return nwait;
}

void mw_l1d_flush_lines(struct mw_sim *s, struct mw_l1d *l1)
{
    if (l1->org) l1->org->flush(s, l1);
    for (int set = 0; set < l1->tags.sets; set++)
        for (int w = 0; w < l1->tags.assoc; w++) {
            struct mw_line *l = mw_tags_line(&l1->tags, set, w);
            if (l->used && !l->pending) evict(s, l1, set, w, MW_EVICT_FLUSH);
        }
}

/* ---- facts ---- */
int mw_sim_l1d_sets(const struct mw_sim *s) { return mw_l1d_sets(&s->cfg); }
int mw_sim_l1d_assoc(const struct mw_sim *s) { return (int)s->cfg.l1d.assoc; }
int mw_l1d_mshr_free(const struct mw_sim *s, int sm) { return s->l1d[sm].mshr_entries - s->l1d[sm].mshr_used; }
int mw_l1d_set_of(const struct mw_sim *s, uint64_t addr)
{
    if (s->l1d) return mw_l1d_set(&s->l1d[0], addr);
    struct mw_set_index x; /* before the run has built its L1Ds */
    mw_set_index_init(&x, &s->cfg);
    return mw_set_index_of(&x, addr);
}
bool mw_l1d_probe(const struct mw_sim *s, int sm, uint64_t line, uint8_t sectors)
{
    const struct mw_l1d *l1 = &s->l1d[sm];
    int set = mw_l1d_set(l1, line);
    if (l1->org) return l1->org->lookup(l1, set, line, sectors) == MW_LOOKUP_HIT;
    int way = mw_tags_find(&l1->tags, set, line);
    return way >= 0 && (sectors & ~l1->tags.lines[set * l1->tags.assoc + way].valid) == 0;
}

int mw_l1d_lookup(const struct mw_sim *s, int sm, uint64_t line, uint8_t sectors)
{
    const struct mw_l1d *l1 = &s->l1d[sm];
    int set = mw_l1d_set(l1, line);
    if (l1->org) return l1->org->lookup(l1, set, line, sectors);
    int way = mw_tags_find(&l1->tags, set, line);
    if (way < 0) return MW_LOOKUP_MISS;
    const struct mw_line *l = &l1->tags.lines[set * l1->tags.assoc + way];
    uint8_t lack = sectors & (uint8_t)~l->valid;
    if (!lack) return MW_LOOKUP_HIT;
    return (lack & ~l->pending) ? MW_LOOKUP_PARTIAL : MW_LOOKUP_PENDING;
}
int mw_l1d_find(const struct mw_sim *s, int sm, uint64_t line)
{
    const struct mw_l1d *l1 = &s->l1d[sm];
    return mw_tags_find(&l1->tags, mw_l1d_set(l1, line), line);
}
bool mw_l1d_can_allocate(const struct mw_sim *s, int sm, int set)
{
    const struct mw_tags *t = &s->l1d[sm].tags;
    for (int w = 0; w < t->assoc; w++) {
        const struct mw_line *l = &t->lines[set * t->assoc + w];
        if (!l->used || !l->pending) return true;
    }
    return false;
}
int mw_l1d_missq_used(const struct mw_sim *s, int sm) { return s->l1d[sm].missq.n; }
int mw_l1d_missq_size(const struct mw_sim *s) { return (int)s->cfg.l1d.miss_queue; }
void mw_l1d_line(const struct mw_sim *s, int sm, int set, int way, struct mw_line_view *out)
{
    const struct mw_l1d *l1 = &s->l1d[sm];
    *out = mw_tags_view(&l1->tags, set, way, l1->view_meta);
}
uint8_t *mw_l1d_meta(const struct mw_sim *s, const struct mw_policy_inst *pi, int sm, int set, int way)
{
    if (!s->l1d || !pi->pol || !pi->pol->line_meta_bytes || pi->slot == MW_SLOT_L2_REPLACEMENT) return NULL;
    uint8_t *m = mw_tags_meta(&s->l1d[sm].tags, set, way);
    return m ? m + pi->meta_off : NULL;
}
bool mw_l1d_invalidate_line(struct mw_sim *s, struct mw_l1d *l1, int set, int way)
{
    struct mw_line *l = mw_tags_line(&l1->tags, set, way);
    if (!l->used || l->pending) return false;
    evict(s, l1, set, way, MW_EVICT_POLICY);
    return true;
}
struct mw_req *mw_l1d_inject(struct mw_sim *s, struct mw_l1d *l1, uint64_t line, bool write, uint32_t tag)
{
    uint8_t full = (uint8_t)((1u << (s->cfg.l1d.line_bytes / SECTOR)) - 1);
    struct mw_req *r = mw_req_new(&s->pool, line, full, write ? MW_REQ_WRITE : MW_REQ_READ);
    r->sm = (uint16_t)l1->sm;
    r->flags |= MW_RQ_INJECTED;
    r->inst = tag;
    r->t_create = mw_core_now(s);
    r->slice = (uint16_t)mw_addr_slice(s, line);
    r->partition = (uint16_t)(r->slice / s->cfg.l2.subpartitions);
    mw_fifo_push(&l1->injq, r);
    if (write) l1->st.injected_writes++;
    else l1->st.injected_reads++;
    return r;
}
int mw_l1d_granularity(const struct mw_sim *s, int sm) { return s->l1d[sm].gran; }
int mw_l1d_set_granularity(struct mw_sim *s, int sm, int g)
{
    struct mw_l1d *l1 = &s->l1d[sm];
    if ((g != 32 && g != 64 && g != 128) || g > (int)s->cfg.l1d.line_bytes) return -1;
    if (g == l1->gran) return 0;
    l1->st.gran_switches++;
    if (g > l1->gran) { /* small to big: the finer chunks cannot be told apart at the new granule */
        l1->st.gran_flushes++;
        l1->gran = g;
        mw_l1d_flush(s, sm);
    }
    l1->gran = g;
    return 0;
}
