/* The chunked L1D organisation (engine/l1d_chunk.h): DyCache's multi-grain tag array (Guo et al., IEEE Access
 * 2018, Sec. III-B and III-E) behind the L1D's own MSHRs, miss queue and reservation stalls. The line
 * organisation's tag array (mw_l1d.tags) stays empty in this organisation. The L1D is write-through with no
 * allocation on a store (GPGPU-Sim's Fermi global stores), so a chunk is never dirty: a flush or a partial hit
 * writes nothing back, it only invalidates. */
#include "l1d_chunk.h"

#include "addrmap.h"
#include "l1d.h"

#include <stdlib.h>
#include <string.h>

#define SECTOR 32
#define FULL 0xFu

static int chunk_init(struct mw_l1d_chunk *ck, int sets, int assoc, int common_shift, int scope)
{
    memset(ck, 0, sizeof *ck);
    ck->sets = sets;
    ck->assoc = assoc;
    ck->common_shift = common_shift;
    ck->scope = scope;
    ck->lines = calloc((size_t)sets * (size_t)assoc, sizeof *ck->lines);
    if (!ck->lines) return MW_ENOMEM;
    for (int i = 0; i < sets * assoc; i++)
        for (int j = 0; j < MW_CK_SLOTS; j++) ck->lines[i].addr[j] = MW_CK_NONE;
    return 0;
}



void mw_ck_decode(uint64_t addr, int sets, int common_shift, uint64_t *common, uint64_t *chunk, int *set)
{
    int set_bits = __builtin_ctz((unsigned)sets);
    int tag_lo = 7 + set_bits; /* the tag starts above the 128 B byte index and the set index */
    uint64_t low_tag = common_shift > tag_lo ? (addr >> tag_lo) & ((1ull << (common_shift - tag_lo)) - 1) : 0;
    *common = addr >> common_shift;
    *chunk = (low_tag << 2) | ((addr >> 5) & 3);
    *set = (int)((addr >> 7) % (uint64_t)sets);
}

void mw_ck_expected(int g, int size, uint64_t chunk, uint64_t exp[MW_CK_SLOTS])
{
    for (int i = 0; i < MW_CK_SLOTS; i++) exp[i] = MW_CK_NONE;
    if (g >= 128) { /* no mask table: the first chunk of the block */
        exp[0] = chunk & ~3ull;
        return;
    }
    if (g == 64) {
        uint64_t c = chunk & ~1ull; /* the 64 B-aligned chunk tag */
        exp[0] = c;
        if (size >= 128) exp[2] = c + 2; /* (0,-,+2,-) */
        return;
    }
    exp[0] = chunk; /* g = 32: (0,-,-,-), (0,+1,-,-), (0,+1,+2,+3) */
    for (int i = 1; i < size / SECTOR && i < MW_CK_SLOTS; i++) exp[i] = chunk + (uint64_t)i;
}

uint8_t mw_ck_cover(uint8_t need, int g)
{
    if (g >= 128 || need == FULL) return FULL;
    if (g == 64)
        for (int i = 0; i < 4; i += 2)
            if (need & (3u << i)) need |= (uint8_t)(3u << i);
    return need;
}

/* ---- lookup ---- */

/* Where chunk address `a` lives in `set`: way and slot, or way -1. */
static int find_chunk(const struct mw_l1d_chunk *ck, int set, uint64_t a, int *slot)
{
    for (int w = 0; w < ck->assoc; w++) {
        const struct mw_ck_line *l = mw_ck_line(ck, set, w);
        if (!l->used) continue;
        for (int j = 0; j < MW_CK_SLOTS; j++)
            if (l->addr[j] == a) {
                *slot = j;
                return w;
            }
    }
    return -1;
}

/* State of each chunk of `cover`: where it is and whether it is valid or on its way. */
struct probe {
    int way[MW_CK_SLOTS], slot[MW_CK_SLOTS];
    uint8_t valid, pending, absent;
};
static void probe_block(const struct mw_l1d_chunk *ck, int set, uint64_t line, uint8_t cover, struct probe *p)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < MW_CK_SLOTS; i++) {
        p->way[i] = -1;
        if (!(cover >> i & 1u)) continue;
        int j = 0, w = find_chunk(ck, set, line + (uint64_t)(SECTOR * i), &j);
        p->way[i] = w;
        p->slot[i] = j;
        if (w < 0) p->absent |= (uint8_t)(1u << i);
        else if (mw_ck_line(ck, set, w)->pending >> j & 1u) p->pending |= (uint8_t)(1u << i);
        else if (mw_ck_line(ck, set, w)->valid >> j & 1u) p->valid |= (uint8_t)(1u << i);
        else p->absent |= (uint8_t)(1u << i);
    }
}

static int chunk_lookup(const struct mw_l1d *l1, int set, uint64_t line, uint8_t sectors)
{
    struct probe p;
    probe_block(l1->org_state, set, line, mw_ck_cover(sectors, l1->gran), &p);
    if (!p.absent && !p.pending) return MW_LOOKUP_HIT;
    if (!p.absent) return MW_LOOKUP_PENDING;
    return (p.valid || p.pending) ? MW_LOOKUP_PARTIAL : MW_LOOKUP_MISS;
}

/* ---- invalidation ---- */

static void drop_slot(struct mw_l1d *l1, struct mw_ck_line *l, int j)
{
    if (l->valid >> j & 1u) l1->st.chunk_evictions++;
    l->valid &= (uint8_t)~(1u << j);
    l->addr[j] = MW_CK_NONE;
    l->t[j] = 0;
}
/* A line with nothing valid or pending left is free again (as a line-organisation way after its eviction). */
static void settle(struct mw_ck_line *l)
{
    if (l->used && !l->valid && !l->pending) {
        memset(l, 0, sizeof *l);
        for (int j = 0; j < MW_CK_SLOTS; j++) l->addr[j] = MW_CK_NONE;
    }
}
/* Evict a whole line (replacement): counts one eviction if it held valid data. */
static void evict_line(struct mw_l1d *l1, struct mw_ck_line *l)
{
    if (l->used && l->valid) {
        l1->st.evictions++;
        if (!l->hits) l1->st.evict_reuse0++;
    }
    for (int j = 0; j < MW_CK_SLOTS; j++) drop_slot(l1, l, j);
    l->pending = 0;
    settle(l);
}

/* ---- a load ---- */

static struct mw_req *make_req(struct mw_sim *s, struct mw_l1d *l1, const struct mw_l1d_access *a, uint64_t line,
                               uint8_t sectors)
{
    struct mw_req *r = mw_req_new(&s->pool, line, sectors, MW_REQ_READ);
    r->sm = (uint16_t)l1->sm;
    r->warp = (uint16_t)a->warp;
    r->pc = a->pc;
    r->t_create = mw_core_now(s);
    r->slice = (uint16_t)mw_addr_slice(s, line);
    r->partition = (uint16_t)(r->slice / s->cfg.l2.subpartitions);
    return r;
}

static void emit_miss(struct mw_sim *s, struct mw_l1d *l1, const struct mw_l1d_access *a, int way, bool merged,
                      bool partial)
{
    if (!mw_wants(s, MW_EV_L1D_MISS)) return;
    const struct mw_coal_req *q = &a->reqs[a->index];
    struct mw_event ev = {.kind = MW_EV_L1D_MISS, .sm = l1->sm, .warp = a->warp, .pc = a->pc, .addr = q->line,
                          .set = q->set, .way = way, .value = merged, .aux = partial, .cycle = mw_core_now(s),
                          .inst = a->inst, .size = q->size, .sectors = q->sectors};
    mw_emit(s, &ev);
}

/* The line-level LRU choice among lines without pending chunks and not `taken` (a bit per way): a line holding
 * no common tag first (lowest way), else the oldest last_access (lowest way on a tie). -1 = none. */
static int lru_line(const struct mw_l1d_chunk *ck, int set, uint64_t taken)
{
    int best = -1;
    for (int w = 0; w < ck->assoc; w++) {
        const struct mw_ck_line *l = mw_ck_line(ck, set, w);
        if (taken >> w & 1u) continue;
        if (!l->used) return w;
        if (l->pending) continue;
        if (best < 0 || l->last_access < mw_ck_line(ck, set, best)->last_access) best = w;
    }
    return best;
}

/* Where one fine granule (k slots) goes: the way and first slot, *fresh when a whole line must be taken. Among
 * the lines with the request's common tag (every one, or only the first with l1d.chunk_victim: line): an empty
 * k-aligned slot group first; then (l1d.chunk_victim: set) a free way; then the group whose newest slot is
 * oldest; groups with a pending slot or claimed by this request (claim: slot bits per way) are not eligible.
 * Else the LRU line. -1 = no place. With chunk_victim: line this is the paper's literal rule (Sec. III-E: a
 * common-tag hit replaces chunks of that line), under which one line per set holds all fine data of a common
 * tag; `set` [I] lets fine data use every way of the set. */
static int place_granule(const struct mw_l1d_chunk *ck, int set, uint64_t common, int k, const uint8_t *claim,
                         uint64_t fresh_ways, int *slot, bool *fresh)
{
    int bw = -1, bs = 0;
    uint64_t bt = 0;
    bool bempty = false;
    for (int w = 0; w < ck->assoc; w++) {
        const struct mw_ck_line *l = mw_ck_line(ck, set, w);
        bool fw = fresh_ways >> w & 1u;
        if (!fw && (!l->used || l->common != common)) continue;
        for (int j = 0; j < MW_CK_SLOTS; j += k) {
            uint8_t g = (uint8_t)(((1u << k) - 1) << j);
            if (claim[w] & g) continue;
            if (!fw && (l->pending & g)) continue;
            bool empty = fw;
            uint64_t t = 0;
            if (!fw) {
                empty = true;
                for (int i = j; i < j + k; i++) {
                    if (l->addr[i] != MW_CK_NONE && (l->valid >> i & 1u)) empty = false;
                    if (l->t[i] > t) t = l->t[i];
                }
            }
            if (bw < 0 || (empty && !bempty) || (empty == bempty && !empty && t < bt)) {
                bw = w;
                bs = j;
                bt = t;
                bempty = empty;
            }
        }
        if (ck->scope == MW_CK_SCOPE_LINE && !fw) break; /* only the first line with the common tag */
    }
    uint64_t taken = fresh_ways;
    for (int w = 0; w < ck->assoc; w++)
        if (claim[w]) taken |= 1ull << w;
    int w = -1;
    if (ck->scope == MW_CK_SCOPE_SET && !(bw >= 0 && bempty)) /* a free way before a valid chunk is replaced */
        for (int x = 0; x < ck->assoc && w < 0; x++)
            if (!(taken >> x & 1u) && !mw_ck_line(ck, set, x)->used) w = x;
    if (w < 0 && bw >= 0) {
        *slot = bs;
        *fresh = false;
        return bw;
    }
    if (w < 0) w = lru_line(ck, set, taken);
    *slot = 0;
    *fresh = true;
    return w;
}

static int chunk_load(struct mw_sim *s, struct mw_l1d *l1, struct mw_l1d_access *a, bool probe_only, bool *bypass)
{
    const struct mw_config *c = &s->cfg;
    struct mw_l1d_chunk *ck = l1->org_state;
    const struct mw_coal_req *q = &a->reqs[a->index];
    uint64_t now = mw_core_now(s);
    int g = l1->gran;
    uint8_t cover = mw_ck_cover(q->sectors, g);
    struct probe p;
    probe_block(ck, q->set, q->line, cover, &p);

    if (!p.absent && !p.pending) { /* hit */
        int hw = -1;
        for (int i = 0; i < MW_CK_SLOTS; i++)
            if (cover >> i & 1u) {
                struct mw_ck_line *l = mw_ck_line(ck, q->set, p.way[i]);
                l->t[p.slot[i]] = now;
                l->last_access = now;
                if (hw < 0) hw = p.way[i];
            }
        mw_ck_line(ck, q->set, hw)->hits++;
        l1->st.accesses++;
        l1->st.hits++;
        l1->st.gpgpusim_accesses++;
        if (mw_wants(s, MW_EV_L1D_HIT)) {
            struct mw_event ev = {.kind = MW_EV_L1D_HIT, .sm = l1->sm, .warp = a->warp, .pc = a->pc,
                                  .addr = q->line, .set = q->set, .way = hw, .cycle = now, .inst = a->inst,
                                  .size = q->size, .sectors = q->sectors};
            mw_emit(s, &ev);
        }
        a->data_at = now + (uint64_t)c->l1d.hit_latency;
        return MW_STALL_NONE;
    }
    if (probe_only) {
        *bypass = true;
        return MW_STALL_NONE;
    }
    int k = mw_slotmap_find(&l1->mshr_map, q->line);
    struct mw_mshr *m = k < 0 ? NULL : &l1->mshr[k];
    bool merge_full = m && (m->nwait >= c->l1d.mshr_max_merge || m->nwait >= MW_MSHR_WAITERS_MAX);

    if (!p.absent) { /* every missing chunk is on its way: merge (a pending chunk always has its MSHR entry) */
        if (!m || merge_full) return MW_STALL_MSHR;
        l1->st.accesses++;
        l1->st.misses++;
        mw_l1d_classify_miss(l1, q->line);
        l1->st.hit_reserved++;
        l1->st.mshr_merges++;
        l1->st.gpgpusim_accesses++;
        l1->st.gpgpusim_pending_hits++;
        a->miss = true;
        m->waiters[m->nwait] = a->tracker;
        m->t_create[m->nwait] = now;
        m->nwait++;
        emit_miss(s, l1, a, -1, m->nwait > 1, false);
        return MW_STALL_NONE;
    }
    int g0 = (g >= 128 || cover == FULL) ? 4 : g / SECTOR; /* slots per granule */
    uint8_t fetch = cover;
    if (p.pending) { /* part of the cover is on its way: fetch the absent granules into the same MSHR entry */
        fetch = p.absent;
        for (int i = 0; i < MW_CK_SLOTS; i += g0) {
            uint8_t gm = (uint8_t)(((1u << g0) - 1) << i);
            if ((fetch & gm) && (fetch & gm) != gm) { /* a granule half on its way (inherited): wait for it */
                l1->st.chunk_pending_waits++;
                return MW_STALL_MSHR;
            }
        }
    }
    /* a partial hit (some chunks of the cover valid, none on its way): invalidate them, fetch the whole cover */
    bool partial = p.valid != 0 && !p.pending;
    if (partial) {
        l1->st.chunk_partial_hits++;
        for (int i = 0; i < MW_CK_SLOTS; i++)
            if (p.valid >> i & 1u) {
                struct mw_ck_line *l = mw_ck_line(ck, q->set, p.way[i]);
                drop_slot(l1, l, p.slot[i]);
                settle(l);
            }
    }
    /* where the chunks go (decided before anything is reserved, so that a stall changes nothing) */
    uint64_t common = q->line >> ck->common_shift;
    int gsz = g0;
    int pw[MW_CK_SLOTS], ps[MW_CK_SLOTS], np = 0, first[MW_CK_SLOTS];
    bool pf[MW_CK_SLOTS];
    uint8_t claim[64] = {0};
    uint64_t fresh_ways = 0;
    for (int i = 0; i < MW_CK_SLOTS; i += gsz) {
        uint8_t gm = (uint8_t)(((1u << gsz) - 1) << i);
        if (!(fetch & gm)) continue;
        int slot = 0;
        bool fresh = true;
        int w = gsz == 4 ? lru_line(ck, q->set, 0)
                         : place_granule(ck, q->set, common, gsz, claim, fresh_ways, &slot, &fresh);
        if (w < 0) return MW_STALL_LINE_ALLOC;
        if (fresh) fresh_ways |= 1ull << w;
        claim[w] |= (uint8_t)(((1u << gsz) - 1) << slot);
        pw[np] = w;
        ps[np] = slot;
        pf[np] = fresh;
        first[np] = i;
        np++;
    }
    if (m ? merge_full : l1->mshr_used >= l1->mshr_entries) return MW_STALL_MSHR;
    if (l1->missq.n + 1 >= l1->missq.cap) return MW_STALL_MISS_QUEUE;

    l1->st.accesses++;
    l1->st.misses++;
    mw_l1d_classify_miss(l1, q->line);
    if (partial) l1->st.sector_misses++;
    if (m) l1->st.mshr_merges++;
    l1->st.gpgpusim_accesses++;
    l1->st.gpgpusim_misses++;
    a->miss = true;
    if (!m) {
        k = mw_slotmap_lowest_free(&l1->mshr_map);
        mw_slotmap_take(&l1->mshr_map, k, q->line);
        m = &l1->mshr[k];
        l1->mshr_epoch++;
        m->sectors = 0;
        m->nwait = m->inflight = 0;
        l1->mshr_key[k] = q->line;
        m->way = pw[0];
        m->pc = a->pc;
        m->warp = (uint16_t)a->warp;
        mw_l1d_mshr_occ(s, l1);
        l1->mshr_used++;
    }
    for (int n = 0; n < np; n++) {
        struct mw_ck_line *l = mw_ck_line(ck, q->set, pw[n]);
        if (pf[n]) {
            if (l->used && l->valid) { /* the miss's contention class, as the line organisation counts it */
                if (l->alloc_warp == (uint32_t)a->warp) l1->st.victim_iw++;
                else if (mw_warp_cta(s, l1->sm, (int)l->alloc_warp) == mw_warp_cta(s, l1->sm, a->warp))
                    l1->st.victim_xw++;
                else l1->st.victim_xb++;
            }
            evict_line(l1, l);
            l->used = 1;
            l->alloc_warp = (uint32_t)a->warp;
            l->common = common;
            l->fill_time = now;
            pf[n] = false;
            for (int x = n + 1; x < np; x++) /* later granules of this request placed in the same line */
                if (pw[x] == pw[n]) pf[x] = false;
        }
        l->last_access = now;
        for (int i = 0; i < gsz; i++) {
            int j = ps[n] + i;
            drop_slot(l1, l, j);
            l->addr[j] = q->line + (uint64_t)(SECTOR * (first[n] + i));
            l->pending |= (uint8_t)(1u << j);
            l->t[j] = now;
        }
    }
    struct mw_req *r = make_req(s, l1, a, q->line, fetch);
    if (c->l1d.latency_pipe) r->t_ready = now + (uint64_t)c->l1d.hit_latency;
    mw_fifo_push(&l1->missq, r);
    m->sectors |= fetch;
    m->inflight++;
    m->waiters[m->nwait] = a->tracker;
    m->t_create[m->nwait] = now;
    m->nwait++;
    emit_miss(s, l1, a, pw[0], m->nwait > 1, partial);
    return MW_STALL_NONE;
}

static bool chunk_store(struct mw_sim *s, struct mw_l1d *l1, const struct mw_coal_req *q)
{
    (void)s;
    struct mw_l1d_chunk *ck = l1->org_state;
    struct probe p;
    probe_block(ck, q->set, q->line, FULL, &p);
    l1->st.gpgpusim_accesses++;
    if (!p.valid && !p.pending) l1->st.gpgpusim_misses++;
    else if (p.pending) l1->st.gpgpusim_pending_hits++;
    if (!p.valid) return false;
    bool reuse0 = false;
    for (int i = 0; i < MW_CK_SLOTS; i++)
        if (p.valid >> i & 1u) {
            struct mw_ck_line *l = mw_ck_line(ck, q->set, p.way[i]);
            reuse0 |= !l->hits;
            drop_slot(l1, l, p.slot[i]);
            settle(l);
        }
    if (reuse0) l1->st.evict_reuse0++; /* one store eviction, as the line organisation counts it */
    l1->st.store_invalidates++;
    l1->st.evictions++; /* as the line organisation's store eviction */
    return true;
}

static void chunk_fill(struct mw_sim *s, struct mw_l1d *l1, int set, uint64_t line, uint8_t sectors)
{
    (void)s;
    struct mw_l1d_chunk *ck = l1->org_state;
    bool any = false;
    for (int i = 0; i < MW_CK_SLOTS; i++) {
        if (!(sectors >> i & 1u)) continue;
        int j = 0, w = find_chunk(ck, set, line + (uint64_t)(SECTOR * i), &j);
        if (w < 0) continue;
        struct mw_ck_line *l = mw_ck_line(ck, set, w);
        if (!(l->pending >> j & 1u)) continue;
        l->pending &= (uint8_t)~(1u << j);
        l->valid |= (uint8_t)(1u << j);
        any = true;
    }
    if (any) l1->st.fills++;
}

static void chunk_flush(struct mw_sim *s, struct mw_l1d *l1)
{
    (void)s;
    struct mw_l1d_chunk *ck = l1->org_state;
    for (int i = 0; i < ck->sets * ck->assoc; i++) {
        struct mw_ck_line *l = &ck->lines[i];
        if (!l->used) continue;
        if (l->valid) l1->st.evictions++, l1->st.evict_reuse0 += !l->hits;
        for (int j = 0; j < MW_CK_SLOTS; j++)
            if (!(l->pending >> j & 1u)) drop_slot(l1, l, j);
        settle(l);
    }
}

static void chunk_fini(struct mw_l1d *l1)
{
    struct mw_l1d_chunk *ck = l1->org_state;
    if (ck) free(ck->lines);
    free(ck);
    l1->org_state = NULL;
}

static const struct mw_l1d_org chunk_org = {.load = chunk_load, .store = chunk_store, .fill = chunk_fill,
                                            .flush = chunk_flush, .lookup = chunk_lookup, .fini = chunk_fini};

int mw_l1d_chunk_attach(struct mw_sim *s, struct mw_l1d *l1, struct mw_err *e)
{
    const struct mw_config *c = &s->cfg;
    struct mw_l1d_chunk *ck = malloc(sizeof *ck);
    l1->org = &chunk_org;
    l1->org_state = ck;
    if (!ck || chunk_init(ck, l1->idx.sets, (int)c->l1d.assoc, (int)c->l1d.chunk_common_shift, c->l1d.chunk_victim))
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    return 0;
}
struct mw_l1d_chunk *mw_l1d_chunk_of(const struct mw_l1d *l1)
{
    return l1->org == &chunk_org ? l1->org_state : NULL;
}
