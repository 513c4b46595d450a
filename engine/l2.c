/* An L2 slice (engine/l2.h): lookup pipe, sectored write-back tags, merging MSHRs, miss and reply queues. */
#include "l2.h"

#include "icnt.h"
#include "addrmap.h"

#include <stdlib.h>
#include <string.h>

MW_STATS_DEFINE(l2, MW_L2_STATS)

#define SECTOR 32

int mw_l2_init(struct mw_sim *s, struct mw_l2 *l2, int id, struct mw_err *e)
{
    const struct mw_config *c = &s->cfg;
    memset(l2, 0, sizeof *l2);
    l2->id = id;
    l2->partition = id / (int)c->l2.subpartitions;
    const struct mw_replacement_ops *rops = (const struct mw_replacement_ops *)s->pol[MW_SLOT_L2_REPLACEMENT].pol;
    if (mw_tags_init(&l2->tags, mw_l2_sets(c), (int)c->l2.assoc, (int)c->l2.line_bytes, rops->base.line_meta_bytes))
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    l2->mshr = calloc((size_t)c->l2.mshr_entries, sizeof *l2->mshr);
    l2->mshr_key = malloc((size_t)c->l2.mshr_entries * sizeof *l2->mshr_key);
    if (!l2->mshr || !l2->mshr_key || mw_slotmap_init(&l2->mshr_map, (int)c->l2.mshr_entries)) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < c->l2.mshr_entries; i++) l2->mshr_key[i] = MW_NO_TAG;
    mw_fifo_init(&l2->pipe, (int)(c->l2.input_queue + c->l2.latency)); /* latency stages + queue */
    mw_fifo_init(&l2->missq, (int)c->l2.miss_queue);
    mw_fifo_init(&l2->replies, 1 << 30);
    return 0;
}

void mw_l2_fini(struct mw_sim *s, struct mw_l2 *l2)
{
    mw_req_free_list(&s->pool, l2->pipe.head);
    mw_req_free_list(&s->pool, l2->missq.head);
    mw_req_free_list(&s->pool, l2->replies.head);
    for (int i = 0; l2->mshr && l2->mshr_key && i < s->cfg.l2.mshr_entries; i++)
        if (l2->mshr_key[i] != MW_NO_TAG) mw_req_free_list(&s->pool, l2->mshr[i].wait_head);
    free(l2->mshr);
    free(l2->mshr_key);
    mw_slotmap_fini(&l2->mshr_map);
    mw_tags_fini(&l2->tags);
}

static int l2_set(const struct mw_sim *s, const struct mw_l2 *l2, uint64_t addr)
{
    return (int)((mw_addr_slice_local(s, addr) >> l2->tags.line_shift) % (uint64_t)l2->tags.sets);
}

static uint8_t full_mask(const struct mw_sim *s) { return (uint8_t)((1u << (s->cfg.l2.line_bytes / SECTOR)) - 1); }

/* r is answered (read data or write acknowledgement). One sector of a split request answers its request once
 * the last of its sectors is done. */
static void reply(struct mw_sim *s, struct mw_l2 *l2, struct mw_req *r)
{
    if (r->flags & MW_RQ_SECTOR) {
        struct mw_req *p = (struct mw_req *)r->owner;
        mw_req_free(&s->pool, r);
        if (--p->parts) return;
        r = p;
    }
    r->flags |= MW_RQ_REPLY;
    r->t_seg[4] = mw_core_stamp(s);
    mw_fifo_push(&l2->replies, r);
}

static struct mw_req *new_dram_req(struct mw_sim *s, struct mw_l2 *l2, uint64_t line, uint8_t sectors, int kind)
{
    struct mw_req *d = mw_req_new(&s->pool, line, sectors, kind);
    d->slice = (uint16_t)l2->id;
    d->partition = (uint16_t)l2->partition;
    d->dram_addr = mw_addr_local(s, line);
    d->t_create = mw_core_now(s);
    return d;
}

/* Pick a way for a new line: a never-used way first, else the L2 replacement policy's victim (every way may be
 * evicted: the L2 allocates on fill, so no way is reserved). */
static int l2_victim(struct mw_sim *s, struct mw_l2 *l2, int set)
{
    struct mw_tags *t = &l2->tags;
    struct mw_line_view views[64];
    uint8_t ev[64];
    for (int w = 0; w < t->assoc; w++) {
        if (!mw_tags_line(t, set, w)->used) return w;
        ev[w] = 1;
    }
    struct mw_policy_inst *pi = &s->pol[MW_SLOT_L2_REPLACEMENT];
    const struct mw_replacement_ops *ops = (const struct mw_replacement_ops *)pi->pol;
    int best;
    if (ops->victim_order) {
        best = mw_tags_victim_by_order(t, set, ops->victim_order, ev);
    } else {
        for (int w = 0; w < t->assoc; w++) views[w] = mw_tags_view(t, set, w, 0);
        best = ops->victim(pi, l2->id, set, views, ev, t->assoc);
    }
    if (best < 0 || best >= t->assoc) {
        mw_hook_fail(s, pi, "L2 victim returned %d, expected a way in [0, %d)", best, t->assoc);
        best = 0;
    }
    if (ops->evicted) {
        struct mw_line_view lv = mw_tags_view(t, set, best, 0);
        ops->evicted(pi, l2->id, set, best, &lv, MW_EVICT_REPLACE);
    }
    struct mw_line *v = mw_tags_line(t, set, best);
    if (v->dirty) {
        struct mw_req *wb = new_dram_req(s, l2, v->tag, v->dirty & v->valid ? v->dirty & v->valid : v->dirty,
                                         MW_REQ_WRITE);
        wb->flags |= MW_RQ_WRITEBACK;
        mw_fifo_push(&l2->missq, wb); /* bounded by fills; may exceed the nominal capacity by one */
        l2->st.writebacks++;
    }
    mw_tags_clear(t, set, best);
    return best;
}

/* Tell the L2 replacement policy a line was inserted or touched. */
static void l2_note(struct mw_sim *s, struct mw_l2 *l2, int set, int way, bool inserted)
{
    struct mw_policy_inst *pi = &s->pol[MW_SLOT_L2_REPLACEMENT];
    const struct mw_replacement_ops *ops = (const struct mw_replacement_ops *)pi->pol;
    void (*f)(struct mw_policy_inst *, int, int, int, const struct mw_line_view *) = inserted ? ops->insert : ops->touch;
    if (!f) return;
    struct mw_line_view v = mw_tags_view(&l2->tags, set, way, 0);
    f(pi, l2->id, set, way, &v);
}

static int install(struct mw_sim *s, struct mw_l2 *l2, uint64_t line, uint64_t now)
{
    int set = l2_set(s, l2, line);
    int way = mw_tags_find(&l2->tags, set, line);
    if (way < 0) {
        way = l2_victim(s, l2, set);
        mw_tags_take(&l2->tags, set, way, line);
        mw_tags_line(&l2->tags, set, way)->fill_time = now;
        mw_tags_line(&l2->tags, set, way)->last_access = now;
        l2_note(s, l2, set, way, true);
        return way;
    }
    mw_tags_line(&l2->tags, set, way)->last_access = now;
    l2_note(s, l2, set, way, false);
    return way;
}

void mw_l2_fill(struct mw_sim *s, struct mw_l2 *l2, struct mw_req *d, uint64_t now)
{
    struct mw_l2mshr *m = (struct mw_l2mshr *)d->owner;
    m->dram_req = NULL;
    int set = l2_set(s, l2, d->addr);
    int way = install(s, l2, d->addr, now);
    struct mw_line *l = mw_tags_line(&l2->tags, set, way);
    l->valid |= d->sectors;
    l2->st.fills++;
    if (d->kind == MW_REQ_READ && d->t_seg[2]) { /* where its time went (stamps: engine/mem_req.h) */
        l2->st.fill_lat_n++;
        l2->st.fill_lat_missq += d->t_seg[0] - d->t_seg[3];
        l2->st.fill_lat_to_dram += d->t_seg[1] - d->t_seg[0];
        l2->st.fill_lat_dram += d->t_seg[2] - d->t_seg[1];
        l2->st.fill_lat_from_dram += mw_core_stamp(s) - d->t_seg[2];
    }
    mw_req_free(&s->pool, d);
    struct mw_req *r = m->wait_head;
    while (r) {
        struct mw_req *n = r->next;
        if (r->flags & MW_RQ_ATOMIC) l->dirty |= r->sectors;
        reply(s, l2, r);
        r = n;
    }
    mw_l2_settle(l2, now);
    if (m->nwait > 1) l2->icl_n--;
    if (m->mib_valid) l2->mib_nvalid--;
    memset(m, 0, sizeof *m);
    int k = (int)(m - l2->mshr);
    mw_slotmap_release(&l2->mshr_map, k, l2->mshr_key[k]);
    l2->mshr_key[k] = MW_NO_TAG;
    l2->mshr_used--;
}

void mw_l2_settle(struct mw_l2 *l2, uint64_t now)
{
    if (now <= l2->icl_t) return;
    uint64_t n = now - l2->icl_t;
    if (!l2->mshr_used) l2->st.mshr_idle_cycles += n;
    else if (l2->icl_n) l2->st.mshr_icl_cycles += n;
    else l2->st.mshr_noicl_cycles += n;
    l2->icl_t = now;
}

#define MIB_AGE_MAX 32767u /* Li §4.5: the MIB's age field is 15 bits, saturating */

struct mw_req *mw_l2_pop_dummy(struct mw_sim *s, struct mw_l2 *l2)
{
    if (!l2->mib_nvalid) return NULL;
    int best = -1;
    for (int i = 0; i < s->cfg.l2.mshr_entries; i++) {
        const struct mw_l2mshr *m = &l2->mshr[i];
        if (!m->mib_valid) continue;
        if (best < 0 || m->nwait > l2->mshr[best].nwait ||
            (m->nwait == l2->mshr[best].nwait && m->mib_age > l2->mshr[best].mib_age))
            best = i;
    }
    struct mw_l2mshr *m = &l2->mshr[best];
    struct mw_req *d = mw_req_alloc(&s->pool);
    d->kind = MW_REQ_MIB;
    d->addr = m->dram_req->addr;
    d->slice = (uint16_t)l2->id;
    d->partition = (uint16_t)l2->partition;
    d->merge = m->nwait;
    d->age_sum = m->mib_age;
    d->owner = m;
    d->inst = m->dram_req->id;
    d->t_create = mw_core_now(s);
    m->mib_valid = 0;
    m->mib_age = 0;
    l2->mib_nvalid--;
    l2->st.mib_dummies++;
    return d;
}

static struct mw_l2mshr *mshr_find(struct mw_l2 *l2, uint64_t key)
{
    int k = mw_slotmap_find(&l2->mshr_map, key);
    return k < 0 ? NULL : &l2->mshr[k];
}

/* Look the pipeline head up. Returns false if it could not reserve what it needs (it stays at the head). */
static bool lookup(struct mw_sim *s, struct mw_l2 *l2, struct mw_req *r, uint64_t now)
{
    const struct mw_config *c = &s->cfg;
    uint64_t line = r->addr & ~(uint64_t)(c->l2.line_bytes - 1);
    int set = l2_set(s, l2, line);
    int way = mw_tags_find(&l2->tags, set, line);
    struct mw_line *l = way >= 0 ? mw_tags_line(&l2->tags, set, way) : NULL;
    if (r->kind == MW_REQ_WRITE) {
        l2->st.accesses++;
        l2->st.writes++;
        if (l) l2->st.hits++;
        else l2->st.misses++;
        l2->st.gpgpusim_accesses++;
        if (!l || (c->l2.sectored && (r->sectors & ~l->valid))) l2->st.gpgpusim_misses++;
        way = install(s, l2, line, now);
        l = mw_tags_line(&l2->tags, set, way);
        l->valid |= r->sectors;
        l->dirty |= r->sectors;
        reply(s, l2, r); /* write acknowledgement */
        return true;
    }
    if (l && (r->sectors & ~l->valid) == 0) {
        l2->st.accesses++;
        l2->st.reads++;
        l2->st.hits++;
        l2->st.gpgpusim_accesses++;
        l->last_access = now;
        l2_note(s, l2, set, way, false);
        if (r->flags & MW_RQ_ATOMIC) l->dirty |= r->sectors;
        reply(s, l2, r);
        return true;
    }
    /* a sectored L2 keeps one MSHR entry per sector (the request is one sector), a line L2 one per line */
    uint64_t key = c->l2.sectored ? line + (uint64_t)__builtin_ctz(r->sectors) * SECTOR : line;
    struct mw_l2mshr *m = mshr_find(l2, key);
    uint64_t age = mw_core_now(s) - r->t_create;
    if (m) {
        l2->fail_cause = 2;
        if (m->nwait >= c->l2.mshr_max_merge) return false;
        l2->fail_cause = 0;
        if ((r->sectors & ~m->sectors) && m->dram_req == NULL) return false;
        /* a merged request whose sectors are not all being fetched widens the fetch if it has not left yet */
        if (r->sectors & ~m->sectors) {
            if (m->dram_req->t_dram_enq || (m->dram_req->flags & MW_RQ_REPLY)) return false;
            m->sectors |= r->sectors;
            m->dram_req->sectors |= r->sectors;
            m->dram_req->size = (uint32_t)mw_popcount32(m->dram_req->sectors) * SECTOR;
        }
        l2->st.accesses++;
        l2->st.reads++;
        l2->st.misses++;
        l2->st.mshr_merges++;
        l2->st.gpgpusim_accesses++;
        l2->st.gpgpusim_pending_hits++;
        if (r->sm != m->first_sm) l2->st.merges_cross_sm++;
        r->next = NULL;
        m->wait_tail->next = r;
        m->wait_tail = r;
        mw_l2_settle(l2, now);
        if (m->nwait == 1) l2->icl_n++;
        m->nwait++;
        m->age_sum += age;
        if (c->l2.merge_info == MW_MINFO_MIB) { /* Li §4.4: the L2 MIB entry, sent as a dummy by the MUX */
            uint64_t a = (uint64_t)m->mib_age + age;
            m->mib_age = a > MIB_AGE_MAX ? MIB_AGE_MAX : (uint32_t)a;
            if (!m->mib_valid) m->mib_valid = 1, l2->mib_nvalid++;
        } else if (m->dram_req) {
            m->dram_req->merge = m->nwait;
            m->dram_req->age_sum = m->age_sum;
        }
        return true;
    }
    l2->fail_cause = l2->mshr_used >= c->l2.mshr_entries ? 2 : 1;
    if (l2->mshr_used >= c->l2.mshr_entries || mw_fifo_full(&l2->missq)) return false;
    mw_l2_settle(l2, now);
    l2->st.accesses++;
    l2->st.reads++;
    l2->st.misses++;
    l2->st.gpgpusim_accesses++;
    l2->st.gpgpusim_misses++;
    int free_i = mw_slotmap_lowest_free(&l2->mshr_map); /* one is free: mshr_used < entries */
    mw_slotmap_take(&l2->mshr_map, free_i, key);
    m = &l2->mshr[free_i];
    l2->mshr_used++;
    memset(m, 0, sizeof *m);
    l2->mshr_key[free_i] = key;
    m->first_sm = r->sm;
    m->nwait = 1;
    m->age_sum = age;
    r->next = NULL;
    m->wait_head = m->wait_tail = r;
    uint8_t fetch = c->l2.sectored ? r->sectors : (uint8_t)(full_mask(s) & ~(l ? l->valid : 0));
    m->sectors = fetch;
    struct mw_req *d = new_dram_req(s, l2, line, fetch, MW_REQ_READ);
    if (c->l2.sectored) d->dram_addr = mw_addr_local(s, key); /* the sector's column */
    d->flags |= MW_RQ_L2_FILL;
    d->t_seg[3] = mw_core_stamp(s);
    d->owner = m;
    d->sm = r->sm;
    d->merge = 1;
    d->age_sum = age;
    m->dram_req = d;
    mw_fifo_push(&l2->missq, d);
    return true;
}

void mw_l2_cycle(struct mw_sim *s, struct mw_l2 *l2, uint64_t now)
{
    const struct mw_config *c = &s->cfg;
    uint64_t now_fs = s->now_fs, pl2 = s->clk[MW_CLK_L2].period_fs;
    /* (a fill from DRAM came first: engine/partition.c) 2. one reply into the reply network */
    int rbytes = l2->replies.head ? (int)c->icnt.header_bytes +
                                        (l2->replies.head->kind == MW_REQ_READ ? (int)l2->replies.head->size : 0)
                                  : 0;
    if (l2->replies.head && mw_xbar_can_inject(s->reply_net, l2->id, rbytes)) {
        struct mw_req *r = mw_fifo_pop(&l2->replies);
        r->t_seg[5] = mw_core_stamp(s);
        mw_xbar_inject(s->reply_net, l2->id, r, mw_icnt_port(s, r->sm), rbytes);
    }
    /* 3. the lookup pipe's head, unless the reply queue is full (l2.reply_queue) */
    bool head_due = l2->pipe.head_ready <= now_fs;
    if (head_due && c->l2.reply_queue && l2->replies.n >= c->l2.reply_queue) {
        l2->st.reply_full++;
    } else if (head_due) {
        struct mw_req *r = mw_fifo_pop(&l2->pipe);
        r->t_seg[3] = mw_core_stamp(s); /* before the lookup: a sector part may be freed by it */
        if (!lookup(s, l2, r, now)) {
            mw_fifo_push_front(&l2->pipe, r);
            l2->st.reservation_fail++;
            l2->st.gpgpusim_reservation_fails++;
            if (l2->fail_cause == 0) l2->st.resfail_line_reserved++;
            else if (l2->fail_cause == 1) l2->st.resfail_miss_queue++;
            else l2->st.resfail_mshr_full++;
        }
    }
    /* 4. accept one request from the interconnect; a sectored L2 splits a request of several sectors into one
     * lookup per sector (each an access of its own), entering the pipe together */
    if (!mw_fifo_full(&l2->pipe)) {
        struct mw_req *in = mw_xbar_peek(s->req_net, l2->id, now_fs);
        int parts = in && c->l2.sectored && !(in->flags & MW_RQ_ATOMIC) ? mw_popcount32(in->sectors) : 1;
        if (in && l2->pipe.n + parts <= l2->pipe.cap) {
            mw_xbar_pop(s->req_net, l2->id);
            in->t_seg[1] = in->t_ready / s->clk[MW_CLK_CORE].period_fs; /* the core cycle its last flit came in */
            in->t_seg[2] = mw_core_stamp(s);
            in->t_ready = now_fs + (uint64_t)c->l2.latency * pl2;
            if (parts == 1) {
                mw_fifo_push(&l2->pipe, in);
            } else {
                in->parts = (uint8_t)parts;
                l2->st.sector_splits++;
                for (int b = 0; b < 8; b++) {
                    if (!(in->sectors >> b & 1u)) continue;
                    struct mw_req *q = mw_req_alloc(&s->pool);
                    uint32_t id = q->id;
                    *q = *in;
                    q->id = id;
                    q->sectors = (uint8_t)(1u << b);
                    q->size = SECTOR;
                    q->flags |= MW_RQ_SECTOR;
                    q->owner = in;
                    mw_fifo_push(&l2->pipe, q);
                }
            }
        }
    }
    /* (5. the miss queue's head enters the pipe to DRAM: engine/partition.c) */
}

struct mw_req *mw_l2_pop_miss(struct mw_l2 *l2) { return mw_fifo_pop(&l2->missq); }

