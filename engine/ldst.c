/* The LDST unit and the L1 data cache: coalescer (Fermi 128 B segments shrunk to 64/32 B, or 32 B sector
 * requests), one L1D access per cycle, reservation of line / MSHR / miss-queue slot with retry-next-cycle
 * stalls that hold the unit (GPGPU-Sim's baseline, the stall Choo and OAWS study), write-through no-allocate
 * stores that invalidate the L1D copy, fills and load completion. Bypass, granularity, replacement and LDST
 * scheduling are decision points (engine/policy.h). */
#include "sim_internal.h"

#include <stdlib.h>
#include <string.h>

MW_STATS_DEFINE(l1d, MW_L1D_STATS)

#define SECTOR 32

int mw_ldst_init(struct mw_sim *s, struct mw_sm *sm, struct mw_err *e)
{
    const struct mw_config *c = &s->cfg;
    struct mw_policy_inst *lp = &s->pol[MW_PT_LDST_SCHED];
    const struct mw_ldst_sched_ops *lops = (const struct mw_ldst_sched_ops *)lp->pol;
    sm->nslots = lops && lops->slots ? lops->slots(lp) : 1;
    if (sm->nslots < 1 || sm->nslots > 1024)
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "ldst_scheduler '%s': slots() returned %d, expected 1..1024",
                          lp->pol->name, sm->nslots);
    sm->slots = calloc((size_t)sm->nslots, sizeof *sm->slots);
    const struct mw_replacement_ops *rops = (const struct mw_replacement_ops *)s->pol[MW_PT_REPLACEMENT].pol;
    if (!sm->slots ||
        mw_tags_init(&sm->l1, mw_l1d_sets(c), (int)c->l1d.assoc, (int)c->l1d.line_bytes, rops->line_meta_bytes))
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    sm->mshr = calloc((size_t)c->l1d.mshr_entries, sizeof *sm->mshr);
    sm->mshr_key = malloc((size_t)c->l1d.mshr_entries * sizeof *sm->mshr_key);
    if (sm->mshr_key)
        for (int64_t i = 0; i < c->l1d.mshr_entries; i++) sm->mshr_key[i] = MW_MSHR_NO_LINE;
    mw_fifo_init(&sm->missq, (int)c->l1d.miss_queue);
    /* load trackers: at most one per warp instruction in flight; grow on demand */
    sm->trk_cap = (uint32_t)(sm->nwarps * 4 + sm->nslots);
    sm->trk = calloc(sm->trk_cap, sizeof *sm->trk);
    if (!sm->mshr || !sm->mshr_key || !sm->trk) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    for (uint32_t i = 0; i < sm->trk_cap; i++) sm->trk[i].next_free = i + 1;
    sm->trk_free = 0;
    return 0;
}

void mw_ldst_fini(struct mw_sm *sm)
{
    free(sm->slots);
    free(sm->mshr);
    free(sm->mshr_key);
    free(sm->trk);
    mw_tags_fini(&sm->l1);
}

bool mw_ldst_idle(const struct mw_sm *sm) { return sm->slots_used == 0 && sm->missq.n == 0; }

/* Nothing to do before an event elsewhere (a reply) changes the L1D: idle, or parked with the miss queue empty. */
bool mw_ldst_waits(const struct mw_sm *sm) { return sm->missq.n == 0 && (sm->slots_used == 0 || sm->ldst_parked); }

static uint32_t trk_alloc(struct mw_sm *sm)
{
    if (sm->trk_free >= sm->trk_cap) {
        uint32_t nc = sm->trk_cap * 2;
        struct mw_tracker *t = realloc(sm->trk, nc * sizeof *t);
        if (!t) abort(); /* grows only to a few hundred entries; a failure here is unrecoverable */
        memset(t + sm->trk_cap, 0, (nc - sm->trk_cap) * sizeof *t);
        for (uint32_t i = sm->trk_cap; i < nc; i++) t[i].next_free = i + 1;
        sm->trk_free = sm->trk_cap;
        sm->trk = t;
        sm->trk_cap = nc;
    }
    uint32_t id = sm->trk_free;
    sm->trk_free = sm->trk[id].next_free;
    return id;
}

/* One of a load's requests has its data at cycle t. */
static void trk_done(struct mw_sim *s, struct mw_sm *sm, uint32_t id, uint64_t t, uint64_t t_create)
{
    struct mw_tracker *k = &sm->trk[id];
    if (t > k->ready) k->ready = t;
    if (t_create != MW_NEVER) {
        uint64_t lat = t - t_create;
        sm->st.load_latency_sum += lat;
        sm->st.load_latency_count++;
        if (lat > sm->st.load_latency_max) sm->st.load_latency_max = lat;
    }
    if (--k->outstanding > 0) return;
    struct mw_warp *wp = &sm->warps[k->warp];
    for (int i = 0; i < k->ndst; i++) wp->reg_ready[k->dst[i]] = k->ready;
    wp->pending_loads--;
    k->live = 0;
    k->next_free = sm->trk_free;
    sm->trk_free = id;
    mw_sm_warp_mem_done(s, sm, k->warp);
}

/* ---- coalescer ---- */
/* One request per distinct unit touched by the active lanes, in lane order of first touch. The unit is the
 * Fermi segment (GPGPU-Sim arch 13: 32 B for 1-byte, 64 B for 2-byte, the line for wider accesses) in line
 * mode, the 32 B sector in sector mode. A line-mode request is then shrunk to the aligned 32 B or 64 B
 * block if only that part of it is touched. */
int mw_coalesce(const struct mw_sim *s, const struct mw_inst *in, struct mw_coal_req *out)
{
    const struct mw_config *c = &s->cfg;
    uint64_t line_bytes = (uint64_t)c->l1d.line_bytes;
    int width = in->width ? in->width : 4;
    uint64_t unit = width == 1 ? 32 : width == 2 ? 64 : line_bytes;
    if (unit > line_bytes) unit = line_bytes;
    bool sector_mode = c->coalescer.mode == MW_COAL_SECTOR;
    if (sector_mode) unit = SECTOR;
    uint64_t keys[MW_WARP_SIZE * 2];
    int n = 0;
    for (int lane = 0; lane < MW_WARP_SIZE; lane++) {
        if (!(in->mask >> lane & 1u)) continue;
        uint64_t end = in->addr[lane] + (uint64_t)width - 1;
        for (uint64_t b = in->addr[lane];;) {
            uint64_t key = b & ~(unit - 1), stop = key + unit - 1;
            if (stop > end) stop = end;
            uint64_t line = b & ~(line_bytes - 1);
            uint8_t sec = 0;
            for (uint64_t x = b & ~(uint64_t)(SECTOR - 1); x <= stop; x += SECTOR)
                sec |= (uint8_t)(1u << ((x - line) / SECTOR));
            int j = 0;
            while (j < n && keys[j] != key) j++;
            if (j == n) {
                if (n == MW_WARP_SIZE * 2) break; /* cannot happen for widths up to 16 bytes */
                keys[n] = key;
                out[n].line = line;
                out[n].sectors = 0;
                out[n].lanes = 0;
                n++;
            }
            out[j].sectors |= sec;
            out[j].lanes |= 1u << lane;
            if (stop >= end) break;
            b = stop + 1;
        }
    }
    for (int j = 0; j < n; j++) {
        uint8_t sec = out[j].sectors;
        int lo = __builtin_ctz(sec), hi = 31 - __builtin_clz((unsigned)sec);
        if (sector_mode || (hi == lo)) out[j].size = SECTOR;
        else if (hi - lo == 1 && lo % 2 == 0) out[j].size = 64;
        else out[j].size = (uint8_t)(line_bytes > 128 ? 128 : line_bytes);
        if (!sector_mode && out[j].size == line_bytes) out[j].size = (uint8_t)line_bytes;
        out[j].set = (uint16_t)((out[j].line >> s->l1_line_shift) % (uint64_t)s->l1_sets);
    }
    return n;
}

static int shared_conflicts(const struct mw_inst *in)
{
    /* 32 banks of 4 bytes; lanes reading the same word broadcast */
    uint64_t words[32][MW_WARP_SIZE];
    int cnt[32] = {0}, worst = 1;
    for (int lane = 0; lane < MW_WARP_SIZE; lane++) {
        if (!(in->mask >> lane & 1u)) continue;
        uint64_t w = in->addr[lane] >> 2;
        int b = (int)(w & 31), k;
        for (k = 0; k < cnt[b]; k++)
            if (words[b][k] == w) break;
        if (k == cnt[b]) words[b][cnt[b]++] = w;
        if (cnt[b] > worst) worst = cnt[b];
    }
    return worst;
}

bool mw_ldst_can_accept(struct mw_sim *s, struct mw_sm *sm, const struct mw_inst *in)
{
    (void)in;
    return sm->ldst_free <= mw_core_now(s) && sm->slots_used < sm->nslots;
}

/* Local memory: an address below MW_LOCAL_WINDOW is an offset in the thread's own local window (what traces
 * record for LDL/STL, the same offset in every lane). The hardware interleaves the threads' local words, so the
 * same offset of consecutive threads is consecutive in memory: thread slot t (SM, warp slot, lane) finds word
 * `off / width` of its window at MW_LOCAL_BASE + ((off / width) * slots + t) * width. A warp's 4-byte local
 * access is one 128 B line, an 8-byte one two. Addresses at or above the window are global already. */
#define MW_LOCAL_WINDOW (1ull << 24)
#define MW_LOCAL_BASE (1ull << 40)
static const struct mw_inst *local_translate(const struct mw_sim *s, int sm, int w, const struct mw_inst *in,
                                             struct mw_inst *out)
{
    *out = *in;
    uint64_t width = in->width ? in->width : 4;
    uint64_t per_sm = (uint64_t)s->cfg.sm.max_warps * MW_WARP_SIZE;
    uint64_t slots = (uint64_t)s->cfg.gpu.n_sms * per_sm;
    for (int l = 0; l < MW_WARP_SIZE; l++) {
        uint64_t a = in->addr[l];
        if (!(in->mask >> l & 1u) || a >= MW_LOCAL_WINDOW) continue;
        uint64_t t = (uint64_t)sm * per_sm + (uint64_t)w * MW_WARP_SIZE + (uint64_t)l;
        out->addr[l] = MW_LOCAL_BASE + ((a / width) * slots + t) * width + a % width;
    }
    return out;
}

void mw_ldst_issue(struct mw_sim *s, struct mw_sm *sm, int w, const struct mw_inst *in)
{
    uint64_t now = mw_core_now(s);
    struct mw_warp *wp = &sm->warps[w];
    const struct mw_config *c = &s->cfg;
    int op = in->op;
    if (op == MW_OP_LD_SHARED || op == MW_OP_ST_SHARED || op == MW_OP_LD_CONST || op == MW_OP_MEMBAR) {
        int occ = 1, lat = (int)c->sm.const_latency;
        if (op == MW_OP_LD_SHARED || op == MW_OP_ST_SHARED) {
            occ = shared_conflicts(in);
            lat = (int)c->sm.shmem_latency + occ - 1;
            sm->st.shared_accesses++;
            sm->st.shared_bank_conflicts += (uint64_t)(occ - 1);
        }
        if (op == MW_OP_MEMBAR) lat = 1;
        sm->ldst_free = now + (uint64_t)occ;
        for (int i = 0; i < in->ndst; i++) wp->reg_ready[in->dst[i]] = now + (uint64_t)lat;
        return;
    }
    struct mw_ldst_slot *sl = NULL;
    for (int i = 0; i < sm->nslots; i++)
        if (!sm->slots[i].valid) {
            sl = &sm->slots[i];
            break;
        }
    sm->ldst_parked = 0; /* another instruction to choose from */
    sl->valid = true;
    sl->warp = (uint16_t)w;
    sl->op = (uint8_t)op;
    sl->flags = in->flags;
    sl->pc = in->pc;
    sl->issue_cycle = now;
    sl->next = 0;
    sl->misses = 0;
    memset(sl->sets_seen, 0, sizeof sl->sets_seen);
    struct mw_inst local;
    if (op == MW_OP_LD_LOCAL || op == MW_OP_ST_LOCAL) in = local_translate(s, sm->id, w, in, &local);
    sl->nreq = mw_coalesce(s, in, sl->reqs);
    memset(sl->verdict, 0xff, (size_t)sl->nreq);
    sm->slots_used++;
    sm->st.coalesced_reqs += (uint64_t)sl->nreq;
    /* a store is outstanding from its issue: a warp must not exit, nor a fence pass, while requests of its
     * store still wait in the LDST unit */
    if (op == MW_OP_ST_GLOBAL || op == MW_OP_ST_LOCAL) sm->st.global_stores++, wp->pending_stores += (uint32_t)sl->nreq;
    else if (op == MW_OP_ATOMIC) sm->st.atomics++;
    else sm->st.global_loads++;
    bool is_load = op == MW_OP_LD_GLOBAL || op == MW_OP_LD_LOCAL || op == MW_OP_ATOMIC;
    if (is_load) {
        uint32_t id = trk_alloc(sm);
        struct mw_tracker *k = &sm->trk[id];
        k->warp = (uint16_t)w;
        k->ndst = in->ndst;
        memcpy(k->dst, in->dst, sizeof k->dst);
        k->outstanding = sl->nreq;
        k->ready = now;
        k->live = 1;
        sl->tracker = id;
        wp->pending_loads++;
        for (int i = 0; i < in->ndst; i++) wp->reg_ready[in->dst[i]] = MW_NEVER;
        if (sl->nreq == 0) { /* no active lane: nothing to wait for */
            k->outstanding = 1;
            trk_done(s, sm, id, now, MW_NEVER);
        }
    }
    if (sl->nreq == 0) {
        sl->valid = false;
        sm->slots_used--;
        mw_sm_wake_all(sm);
    }
}

/* ---- L1D ---- */
static struct mw_mshr *mshr_find(struct mw_sm *sm, int n, uint64_t line)
{
    for (int i = 0; i < n; i++)
        if (sm->mshr_key[i] == line) return &sm->mshr[i];
    return NULL;
}
static struct mw_mshr *mshr_free_entry(struct mw_sm *sm, int n)
{
    for (int i = 0; i < n; i++)
        if (sm->mshr_key[i] == MW_MSHR_NO_LINE) return &sm->mshr[i];
    return NULL;
}

static struct mw_line_view view_of(const struct mw_tags *t, int set, int way)
{
    const struct mw_line *l = &t->lines[set * t->assoc + way];
    struct mw_line_view v = {.line = l->tag, .last_access = l->last_access, .fill_time = l->fill_time,
                             .hits = l->hits, .valid = l->valid != 0, .reserved = l->pending != 0,
                             .sectors = l->valid, .pc = l->pc, .warp = l->warp,
                             .meta = t->meta ? t->meta + (size_t)(set * t->assoc + way) * t->meta_bytes : NULL};
    return v;
}

/* A way for a new line in `set`: a never-used way first, else the replacement policy's victim among
 * lines that are not waiting for a fill. -1 = none. */
static int choose_victim(struct mw_sim *s, struct mw_sm *sm, int set)
{
    struct mw_tags *t = &sm->l1;
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
    for (int w = 0; w < t->assoc; w++) v[w] = view_of(t, set, w);
    struct mw_policy_inst *pi = &s->pol[MW_PT_REPLACEMENT];
    const struct mw_replacement_ops *ops = (const struct mw_replacement_ops *)pi->pol;
    sm->ldst_hooked = true;
    int way = ops->victim(pi, sm->id, set, v, ev, t->assoc);
    if (way < -1 || way >= t->assoc || (way >= 0 && !ev[way])) {
        struct mw_err e;
        mw_err_set(&e, MW_EHOOK, NULL, 0, 0, "replacement '%s': victim returned %d, not an evictable way",
                   pi->pol->name, way);
        mw_sim_fail(s, &e);
        return -1;
    }
    return way;
}

static void evict(struct mw_sim *s, struct mw_sm *sm, int set, int way)
{
    struct mw_line *l = mw_tags_line(&sm->l1, set, way);
    if (l->used && l->valid) {
        sm->l1st.evictions++;
        if (mw_wants(s, MW_EV_L1D_EVICT)) {
            struct mw_event ev = {.kind = MW_EV_L1D_EVICT, .sm = sm->id, .warp = l->warp, .pc = l->pc,
                                  .addr = l->tag, .set = set, .way = way, .value = l->hits,
                                  .cycle = mw_core_now(s)};
            mw_emit(s, &ev);
        }
    }
    mw_tags_clear(&sm->l1, set, way);
}

static void install(struct mw_sim *s, struct mw_sm *sm, int set, int way, uint64_t line, const struct mw_ldst_slot *sl)
{
    mw_tags_take(&sm->l1, set, way, line);
    struct mw_line *l = mw_tags_line(&sm->l1, set, way);
    l->fill_time = l->last_access = mw_core_now(s);
    l->hits = 0;
    l->pc = sl ? sl->pc : 0;
    l->warp = sl ? sl->warp : 0;
    struct mw_policy_inst *pi = &s->pol[MW_PT_REPLACEMENT];
    const struct mw_replacement_ops *ops = (const struct mw_replacement_ops *)pi->pol;
    if (ops->insert) {
        struct mw_line_view v = view_of(&sm->l1, set, way);
        ops->insert(pi, sm->id, set, way, &v);
    }
}

static struct mw_req *make_req(struct mw_sim *s, struct mw_sm *sm, const struct mw_ldst_slot *sl, uint64_t line,
                               uint8_t sectors, int kind)
{
    struct mw_req *r = mw_req_alloc(&s->pool);
    r->addr = line;
    r->sectors = sectors;
    r->size = (uint32_t)mw_popcount32(sectors) * SECTOR;
    r->kind = (uint8_t)kind;
    r->sm = (uint16_t)sm->id;
    r->warp = sl->warp;
    r->pc = sl->pc;
    r->t_create = mw_core_now(s);
    r->slice = (uint16_t)mw_addr_slice(s, line);
    r->partition = (uint16_t)(r->slice / s->cfg.l2.subpartitions);
    return r;
}

/* Try to serve request i of slot sl this cycle. Returns MW_STALL_NONE when done with it. */
static int access_one(struct mw_sim *s, struct mw_sm *sm, struct mw_ldst_slot *sl, int i)
{
    const struct mw_config *c = &s->cfg;
    uint64_t now = mw_core_now(s);
    struct mw_coal_req *q = &sl->reqs[i];
    int op = sl->op;
    sl->sets_seen[(q->set >> 6) & 3] |= 1ull << (q->set & 63);

    if (op == MW_OP_ST_GLOBAL || op == MW_OP_ST_LOCAL) {
        if (mw_fifo_full(&sm->missq)) return MW_STALL_MISS_QUEUE;
        if (c->l1d.enabled) {
            int way = mw_tags_find(&sm->l1, q->set, q->line);
            if (way >= 0) {
                struct mw_line *l = mw_tags_line(&sm->l1, q->set, way);
                if (!l->pending) {
                    evict(s, sm, q->set, way);
                    sm->l1st.store_invalidates++;
                } else {
                    l->valid &= (uint8_t)~q->sectors;
                }
            }
        }
        sm->l1st.stores++;
        struct mw_req *r = make_req(s, sm, sl, q->line, q->sectors, MW_REQ_WRITE);
        r->size = q->size;
        mw_fifo_push(&sm->missq, r);
        return MW_STALL_NONE;
    }

    /* loads and atomics */
    bool bypass = op == MW_OP_ATOMIC || !c->l1d.enabled || (sl->flags & MW_IF_BYPASS_L1);
    if (!bypass) {
        if (sl->verdict[i] == 0xff || sl->verdict[i] >= 0x10) {
            struct mw_policy_inst *pi = &s->pol[MW_PT_L1D_BYPASS];
            const struct mw_l1d_bypass_ops *ops = (const struct mw_l1d_bypass_ops *)pi->pol;
            struct mw_bypass_ctx bc = {.sm = sm->id, .warp = sl->warp, .pc = sl->pc, .index = i, .n = sl->nreq,
                                       .reqs = sl->reqs,
                                       .retry = sl->verdict[i] == 0xff ? MW_STALL_NONE : sl->verdict[i] - 0x10};
            if (ops->decide) sm->ldst_hooked = true;
            int v = ops->decide ? ops->decide(pi, &bc) : MW_CACHE;
            if (s->failed) return MW_STALL_NONE;
            if (v != MW_CACHE && v != MW_BYPASS) {
                struct mw_err e;
                mw_err_set(&e, MW_EHOOK, NULL, 0, 0, "l1d_bypass '%s': decide returned %d, expected 0 (cache) or 1 (bypass)",
                           pi->pol->name, v);
                mw_sim_fail(s, &e);
                return MW_STALL_NONE;
            }
            sl->verdict[i] = (uint8_t)v;
        }
        bypass = sl->verdict[i] == MW_BYPASS;
    }
    if (bypass) {
        if (mw_fifo_full(&sm->missq)) return MW_STALL_MISS_QUEUE;
        struct mw_req *r = make_req(s, sm, sl, q->line, q->sectors, MW_REQ_READ);
        r->flags |= MW_RQ_BYPASS_L1 | (op == MW_OP_ATOMIC ? MW_RQ_ATOMIC : 0);
        r->inst = sl->tracker;
        mw_fifo_push(&sm->missq, r);
        if (op != MW_OP_ATOMIC) sm->l1st.bypasses++;
        return MW_STALL_NONE;
    }

    struct mw_tags *t = &sm->l1;
    int way = mw_tags_find(t, q->set, q->line);
    struct mw_line *l = way >= 0 ? mw_tags_line(t, q->set, way) : NULL;
    uint8_t need = q->sectors;
    if (l && (need & ~l->valid) == 0) { /* hit */
        l->last_access = now;
        l->hits++;
        l->pc = sl->pc;
        l->warp = sl->warp;
        sm->l1st.accesses++;
        sm->l1st.hits++;
        struct mw_policy_inst *pi = &s->pol[MW_PT_REPLACEMENT];
        const struct mw_replacement_ops *ops = (const struct mw_replacement_ops *)pi->pol;
        if (ops->touch) {
            struct mw_line_view v = view_of(t, q->set, way);
            ops->touch(pi, sm->id, q->set, way, &v);
        }
        if (mw_wants(s, MW_EV_L1D_HIT)) {
            struct mw_event ev = {.kind = MW_EV_L1D_HIT, .sm = sm->id, .warp = sl->warp, .pc = sl->pc,
                                  .addr = q->line, .set = q->set, .way = way, .cycle = now};
            mw_emit(s, &ev);
        }
        trk_done(s, sm, sl->tracker, now + (uint64_t)c->l1d.hit_latency, now);
        return MW_STALL_NONE;
    }

    /* miss: what must be reserved? */
    int nm = (int)c->l1d.mshr_entries;
    struct mw_mshr *m = mshr_find(sm, nm, q->line);
    uint8_t covered = m ? m->sectors : 0;
    if (l) covered |= l->valid;
    bool need_fetch = (need & ~covered) != 0;
    bool need_line = !l && !m && c->l1d.alloc == MW_ALLOC_ON_MISS;
    int victim = -1;
    if (need_line) {
        victim = choose_victim(s, sm, q->set);
        if (s->failed) return MW_STALL_NONE;
        if (victim < 0) return MW_STALL_LINE_ALLOC;
    }
    if (m ? m->nwait >= c->l1d.mshr_max_merge || m->nwait >= MW_MSHR_WAITERS_MAX : sm->mshr_used >= nm)
        return MW_STALL_MSHR;
    if (need_fetch && mw_fifo_full(&sm->missq)) return MW_STALL_MISS_QUEUE;

    sm->l1st.accesses++;
    sm->l1st.misses++;
    sl->misses++;
    if (l && !need_fetch) sm->l1st.hit_reserved++;
    else if (l) sm->l1st.sector_misses++;
    if (m) sm->l1st.mshr_merges++;
    if (!m) {
        m = mshr_free_entry(sm, nm);
        /* the waiter arrays are written before they are read: only the header is cleared */
        m->sectors = 0;
        m->nwait = m->inflight = 0;
        m->valid = 1;
        m->line = q->line;
        sm->mshr_key[m - sm->mshr] = q->line;
        m->way = -1;
        m->pc = sl->pc;
        m->warp = sl->warp;
        sm->mshr_used++;
    }
    if (need_line) {
        evict(s, sm, q->set, victim);
        install(s, sm, q->set, victim, q->line, sl);
        m->way = victim;
        l = mw_tags_line(t, q->set, victim);
    }
    if (need_fetch) {
        struct mw_policy_inst *pi = &s->pol[MW_PT_GRANULARITY];
        const struct mw_granularity_ops *ops = (const struct mw_granularity_ops *)pi->pol;
        struct mw_gran_ctx gc = {.sm = sm->id, .warp = sl->warp, .pc = sl->pc, .line = q->line, .set = q->set,
                                 .need = need, .have = covered, .size = q->size};
        uint8_t full = (uint8_t)((1u << (c->l1d.line_bytes / SECTOR)) - 1);
        /* the sectors to fetch are pending from now on, so the line survives an mw_l1d_flush from inside fetch;
         * sectors already valid or already in flight stay as they are (a fill clears only what it brings) */
        if (l) l->pending |= (uint8_t)(need & ~covered);
        uint8_t f = ops->fetch ? ops->fetch(pi, &gc) : full;
        if (s->failed) return MW_STALL_NONE;
        if ((f & need) != need || (f & ~full)) {
            struct mw_err e;
            mw_err_set(&e, MW_EHOOK, NULL, 0, 0,
                       "granularity '%s': fetch returned sector mask 0x%x, which must cover 0x%x within 0x%x",
                       pi->pol->name, f, need, full);
            mw_sim_fail(s, &e);
            return MW_STALL_NONE;
        }
        f &= (uint8_t)~covered;
        struct mw_req *r = make_req(s, sm, sl, q->line, f, MW_REQ_READ);
        mw_fifo_push(&sm->missq, r);
        m->sectors |= f;
        m->inflight++;
        if (l) l->pending |= f;
    }
    m->waiters[m->nwait] = sl->tracker;
    m->t_create[m->nwait] = now;
    m->nwait++;
    if (mw_wants(s, MW_EV_L1D_MISS)) {
        struct mw_event ev = {.kind = MW_EV_L1D_MISS, .sm = sm->id, .warp = sl->warp, .pc = sl->pc,
                              .addr = q->line, .set = q->set, .value = m->nwait > 1, .cycle = now};
        mw_emit(s, &ev);
    }
    return MW_STALL_NONE;
}

static void slot_done(struct mw_sim *s, struct mw_sm *sm, struct mw_ldst_slot *sl)
{
    if (mw_wants(s, MW_EV_LOAD_DONE) && (sl->op == MW_OP_LD_GLOBAL || sl->op == MW_OP_LD_LOCAL)) {
        int sets = 0;
        for (int k = 0; k < 4; k++) sets += __builtin_popcountll(sl->sets_seen[k]);
        struct mw_event ev = {.kind = MW_EV_LOAD_DONE, .sm = sm->id, .warp = sl->warp, .pc = sl->pc,
                              .value = (uint32_t)sl->nreq, .aux = sl->misses, .set = sets,
                              .cycle = mw_core_now(s)};
        mw_emit(s, &ev);
    }
    sl->valid = false;
    sm->slots_used--;
    mw_sm_wake_all(sm);
}

static void drain_missq(struct mw_sim *s, struct mw_sm *sm)
{
    /* the miss queue drains into the request network */
    while (sm->missq.head && mw_xbar_can_inject(&s->req_net, sm->id)) {
        struct mw_req *r = mw_fifo_pop(&sm->missq);
        int bytes = (int)s->cfg.icnt.header_bytes + (r->kind == MW_REQ_WRITE ? (int)r->size : 0);
        mw_xbar_inject(&s->req_net, sm->id, r, r->slice, bytes);
        sm->busy = true;
        break; /* one request per cycle leaves the SM */
    }
}

static void count_ldst_stall(struct mw_sm *sm, int cause, uint64_t n)
{
    switch (cause) {
    case MW_STALL_LINE_ALLOC:
        sm->st.ldst_stall_line_alloc += n;
        sm->l1st.line_alloc_fail += n;
        break;
    case MW_STALL_MSHR:
        sm->st.ldst_stall_mshr += n;
        sm->l1st.mshr_fail += n;
        break;
    case MW_STALL_MISS_QUEUE:
        sm->st.ldst_stall_miss_queue += n;
        sm->l1st.miss_queue_fail += n;
        break;
    }
}

/* The clock skipped `cycles` core cycles of an LDST unit that waits (mw_ldst_waits): each was a failed retry. */
void mw_ldst_jump(struct mw_sm *sm, uint64_t cycles)
{
    if (!sm->ldst_parked) return;
    sm->st.ldst_busy += cycles;
    count_ldst_stall(sm, sm->ldst_parked, cycles);
}

void mw_ldst_cycle(struct mw_sim *s, struct mw_sm *sm)
{
    if (!sm->slots_used) {
        drain_missq(s, sm);
        return;
    }
    sm->st.ldst_busy++;
    if (sm->ldst_parked) {
        count_ldst_stall(sm, sm->ldst_parked, 1);
        drain_missq(s, sm);
        return;
    }
    sm->busy = true;
    /* which instruction's head request goes to L1D this cycle */
    struct mw_ldst_slot *sl = NULL;
    if (sm->nslots == 1) {
        sl = &sm->slots[0];
    } else {
        uint16_t cand[1024];
        int idx[1024], n = 0;
        for (int i = 0; i < sm->nslots; i++)
            if (sm->slots[i].valid) cand[n] = sm->slots[i].warp, idx[n++] = i;
        int k = 0;
        if (n > 1) {
            struct mw_policy_inst *pi = &s->pol[MW_PT_LDST_SCHED];
            const struct mw_ldst_sched_ops *ops = (const struct mw_ldst_sched_ops *)pi->pol;
            k = ops->pick ? ops->pick(pi, sm->id, cand, n) : 0;
            if (s->failed) return;
            if (k < 0 || k >= n) {
                struct mw_err e;
                mw_err_set(&e, MW_EHOOK, NULL, 0, 0, "ldst_scheduler '%s': pick returned %d, expected [0, %d)",
                           pi->pol->name, k, n);
                mw_sim_fail(s, &e);
                return;
            }
        }
        sl = &sm->slots[idx[k]];
    }
    sm->ldst_hooked = false;
    int cause = access_one(s, sm, sl, sl->next);
    if (cause == MW_STALL_NONE) {
        if (++sl->next == sl->nreq) slot_done(s, sm, sl);
    } else {
        count_ldst_stall(sm, cause, 1);
        if ((cause == MW_STALL_LINE_ALLOC || cause == MW_STALL_MSHR) && !sm->ldst_hooked && sm->slots_used == 1 &&
            !s->failed) {
            sm->ldst_parked = cause;
            sm->park_set = sl->reqs[sl->next].set;
        }
    }
    /* a failed attempt to cache is remembered so that the bypass policy is asked again with the cause (MRPB);
     * a bypass is final: its request waits for the miss queue, with nothing new to decide */
    if (cause != MW_STALL_NONE && sl->verdict[sl->next] != MW_BYPASS) sl->verdict[sl->next] = (uint8_t)(0x10 + cause);
    /* the miss queue drains into the request network after the access, in the same cycle */
    drain_missq(s, sm);
}

/* A packet from the reply network reached this SM. */
void mw_sm_reply(struct mw_sim *s, struct mw_sm *sm, struct mw_req *r)
{
    uint64_t now = mw_core_now(s);
    sm->busy = true;
    /* a write acknowledgement or bypassed data leaves the L1D as it was: a parked request stays parked */
    if (r->kind == MW_REQ_WRITE) {
        struct mw_warp *wp = &sm->warps[r->warp];
        wp->pending_stores--;
        mw_req_free(&s->pool, r);
        mw_sm_warp_mem_done(s, sm, r->warp);
        return;
    }
    if (r->flags & MW_RQ_BYPASS_L1) {
        uint32_t id = r->inst;
        uint64_t tc = r->t_create;
        mw_req_free(&s->pool, r);
        trk_done(s, sm, id, now, tc);
        return;
    }
    int nm = (int)s->cfg.l1d.mshr_entries;
    struct mw_mshr *m = mshr_find(sm, nm, r->addr);
    int set = (int)((r->addr >> s->l1_line_shift) % (uint64_t)s->l1_sets);
    uint8_t sectors = r->sectors;
    mw_req_free(&s->pool, r);
    if (set == sm->park_set) sm->ldst_parked = 0; /* the parked request's set changes */
    if (!m) return; /* cannot happen: every L1D fill has its MSHR entry */
    struct mw_tags *t = &sm->l1;
    int way = mw_tags_find(t, set, m->line);
    if (way < 0 && s->cfg.l1d.alloc == MW_ALLOC_ON_FILL) {
        way = choose_victim(s, sm, set);
        if (way >= 0) {
            evict(s, sm, set, way);
            struct mw_ldst_slot tmp = {.pc = m->pc, .warp = m->warp};
            install(s, sm, set, way, m->line, &tmp);
        }
    }
    if (way >= 0) {
        struct mw_line *l = mw_tags_line(t, set, way);
        l->valid |= sectors;
        l->pending &= (uint8_t)~sectors;
        sm->l1st.fills++;
        if (mw_wants(s, MW_EV_L1D_FILL)) {
            struct mw_event ev = {.kind = MW_EV_L1D_FILL, .sm = sm->id, .addr = m->line, .set = set, .way = way,
                                  .cycle = now};
            mw_emit(s, &ev);
        }
    }
    if (--m->inflight > 0) return;
    int nwait = m->nwait;
    uint32_t waiters[MW_MSHR_WAITERS_MAX];
    uint64_t t_create[MW_MSHR_WAITERS_MAX];
    memcpy(waiters, m->waiters, (size_t)nwait * sizeof *waiters);
    memcpy(t_create, m->t_create, (size_t)nwait * sizeof *t_create);
    m->valid = 0;
    sm->mshr_key[m - sm->mshr] = MW_MSHR_NO_LINE;
    sm->mshr_used--;
    if (sm->ldst_parked == MW_STALL_MSHR) sm->ldst_parked = 0;
    for (int i = 0; i < nwait; i++) trk_done(s, sm, waiters[i], now, t_create[i]);
}

/* ---- facts ---- */
int mw_sim_l1d_sets(const struct mw_sim *s) { return s->l1_sets; }
int mw_sim_l1d_assoc(const struct mw_sim *s) { return (int)s->cfg.l1d.assoc; }
int mw_l1d_mshr_free(const struct mw_sim *s, int sm) { return (int)s->cfg.l1d.mshr_entries - s->sms[sm].mshr_used; }
int mw_l1d_set_of(const struct mw_sim *s, uint64_t addr)
{
    return (int)((addr >> s->l1_line_shift) % (uint64_t)s->l1_sets);
}
bool mw_l1d_probe(const struct mw_sim *s, int sm, uint64_t line, uint8_t sectors)
{
    const struct mw_sm *p = &s->sms[sm];
    int set = mw_l1d_set_of(s, line);
    int way = mw_tags_find(&p->l1, set, line);
    return way >= 0 && (sectors & ~p->l1.lines[set * p->l1.assoc + way].valid) == 0;
}
void mw_l1d_flush(struct mw_sim *s, int sm)
{
    struct mw_sm *p = &s->sms[sm];
    mw_sm_wake(s, p);
    p->ldst_parked = 0;
    for (int set = 0; set < p->l1.sets; set++)
        for (int w = 0; w < p->l1.assoc; w++) {
            struct mw_line *l = mw_tags_line(&p->l1, set, w);
            if (l->used && !l->pending) evict(s, p, set, w);
        }
}
