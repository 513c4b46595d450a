/* The L1 instruction cache of one SM (engine/l1i.h). */
#include "l1i.h"

#include "addrmap.h"
#include "icnt.h"

#include <stdlib.h>
#include <string.h>

MW_STATS_DEFINE(l1i, MW_L1I_STATS)

int mw_l1i_init(struct mw_sim *s, struct mw_l1i *c, int sm, struct mw_err *e)
{
    const struct mw_config *cf = &s->cfg;
    memset(c, 0, sizeof *c);
    c->sm = sm;
    c->line_shift = __builtin_ctz((unsigned)cf->l1i.line_bytes);
    if (mw_tags_init(&c->tags, mw_l1i_sets(cf), (int)cf->l1i.assoc, (int)cf->l1i.line_bytes, 0))
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    c->nmshr = (int)cf->l1i.mshr_entries;
    c->max_merge = (int)cf->l1i.mshr_max_merge;
    c->mshr = calloc((size_t)c->nmshr, sizeof *c->mshr);
    c->ready_cap = (int)cf->sm.max_warps;
    c->ready = calloc((size_t)c->ready_cap, sizeof *c->ready);
    if (!c->mshr || !c->ready) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < c->nmshr; i++) {
        c->mshr[i].line = MW_NO_TAG;
        c->mshr[i].waiters = calloc((size_t)c->max_merge, sizeof(uint16_t));
        if (!c->mshr[i].waiters) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    }
    mw_fifo_init(&c->missq, (int)cf->l1i.miss_queue);
    return 0;
}

void mw_l1i_fini(struct mw_sim *s, struct mw_l1i *c)
{
    mw_req_free_list(&s->pool, c->missq.head);
    if (c->mshr)
        for (int i = 0; i < c->nmshr; i++) free(c->mshr[i].waiters);
    free(c->mshr);
    free(c->ready);
    mw_tags_fini(&c->tags);
}

static int set_of(const struct mw_l1i *c, uint64_t line) { return (int)((line >> c->line_shift) % (uint64_t)c->tags.sets); }

static struct mw_l1i_mshr *mshr_find(struct mw_l1i *c, uint64_t line)
{
    for (int i = 0; i < c->nmshr; i++)
        if (c->mshr[i].line == line) return &c->mshr[i];
    return NULL;
}

int mw_l1i_access(struct mw_sim *s, struct mw_l1i *c, uint64_t addr, int warp)
{
    uint64_t line = addr & ~(((uint64_t)1 << c->line_shift) - 1);
    int set = set_of(c, line);
    int way = mw_tags_find(&c->tags, set, line);
    if (way >= 0) {
        mw_tags_line(&c->tags, set, way)->last_access = mw_core_now(s);
        c->st.accesses++;
        c->st.hits++;
        return MW_L1I_HIT;
    }
    struct mw_l1i_mshr *m = mshr_find(c, line);
    if (m) {
        if (m->nwait >= c->max_merge) {
            c->st.reservation_fails++;
            return MW_L1I_FAIL;
        }
        m->waiters[m->nwait++] = (uint16_t)warp;
        c->st.accesses++;
        c->st.pending_hits++;
        return MW_L1I_MISS;
    }
    m = mshr_find(c, MW_NO_TAG);
    if (!m || mw_fifo_full(&c->missq)) {
        c->st.reservation_fails++;
        return MW_L1I_FAIL;
    }
    m->line = line;
    m->nwait = 1;
    m->waiters[0] = (uint16_t)warp;
    uint8_t full = (uint8_t)((1u << (s->cfg.l1i.line_bytes / 32)) - 1);
    struct mw_req *r = mw_req_new(&s->pool, line, full, MW_REQ_READ);
    r->flags |= MW_RQ_INST;
    r->sm = (uint16_t)c->sm;
    r->warp = (uint16_t)warp;
    r->pc = addr;
    r->t_create = mw_core_now(s);
    r->slice = (uint16_t)mw_addr_slice(s, line);
    r->partition = (uint16_t)(r->slice / s->cfg.l2.subpartitions);
    mw_fifo_push(&c->missq, r);
    c->st.accesses++;
    c->st.misses++;
    return MW_L1I_MISS;
}

bool mw_l1i_drain(struct mw_sim *s, struct mw_l1i *c)
{
    if (!c->missq.head || !mw_xbar_can_inject(s->req_net, mw_icnt_port(s, c->sm), (int)s->cfg.icnt.header_bytes)) return false;
    struct mw_req *r = mw_fifo_pop(&c->missq);
    mw_xbar_inject(s->req_net, mw_icnt_port(s, c->sm), r, r->slice, (int)s->cfg.icnt.header_bytes);
    return true;
}

void mw_l1i_fill(struct mw_sim *s, struct mw_l1i *c, struct mw_req *r)
{
    uint64_t line = r->addr, now = mw_core_now(s);
    mw_req_free(&s->pool, r);
    struct mw_l1i_mshr *m = mshr_find(c, line);
    if (!m) return; /* cannot happen: every code line in flight has its MSHR entry */
    int set = set_of(c, line);
    int way = mw_tags_find(&c->tags, set, line);
    if (way < 0) { /* allocate on fill: a never-used way, else the least recently used */
        struct mw_line *ls = mw_tags_line(&c->tags, set, 0);
        way = 0;
        for (int w = 0; w < c->tags.assoc; w++) {
            if (!ls[w].used) {
                way = w;
                break;
            }
            if (ls[w].last_access < ls[way].last_access) way = w;
        }
        mw_tags_clear(&c->tags, set, way);
        mw_tags_take(&c->tags, set, way, line);
    }
    struct mw_line *l = mw_tags_line(&c->tags, set, way);
    l->valid = (uint8_t)((1u << (s->cfg.l1i.line_bytes / 32)) - 1);
    l->fill_time = l->last_access = now;
    c->st.fills++;
    for (int i = 0; i < m->nwait; i++) {
        int at = c->ready_head + c->ready_n;
        if (at >= c->ready_cap) at -= c->ready_cap;
        c->ready[at] = m->waiters[i];
        c->ready_n++;
    }
    m->line = MW_NO_TAG;
    m->nwait = 0;
}
