/* Tag arrays shared by the L1D and the L2 slices: sets x ways of struct mw_line with per-sector valid, pending
 * and dirty bits, a dense copy of the tags for lookups, and per-line bytes owned by policies. */
#ifndef MW_TAGS_H
#define MW_TAGS_H

#include "common.h"
#include "policy.h"

#include <string.h>

struct mw_line {
    uint64_t tag;         /* line address */
    uint64_t last_access, fill_time;
    uint64_t pc;          /* last load PC that touched the line (hit or allocation) */
    uint64_t alloc_pc;    /* the PC whose miss allocated the line */
    uint32_t hits;
    uint16_t warp;        /* last warp */
    uint16_t alloc_warp;  /* the warp whose miss allocated it */
    uint8_t valid;        /* sectors valid (bit per 32 B) */
    uint8_t pending;      /* sectors being filled (allocate-on-miss reservation) */
    uint8_t dirty;        /* L2 only */
    uint8_t used;         /* way holds a tag */
    uint32_t alloc_inst;  /* low 32 bits of the id of the load instruction whose miss allocated it (L1D) */
};
struct mw_tags {
    int sets, assoc, line_shift;
    struct mw_line *lines; /* sets * assoc */
    uint64_t *keys;        /* sets * assoc: the way's tag while used, MW_NO_TAG when not (a dense copy for lookups) */
    uint8_t *meta;         /* policies' per-line bytes, meta_bytes per line, zeroed on fill and eviction */
    size_t meta_bytes;
};
#define MW_NO_TAG UINT64_MAX

int mw_tags_init(struct mw_tags *t, int sets, int assoc, int line_bytes, size_t meta_bytes);
void mw_tags_fini(struct mw_tags *t);
static inline struct mw_line *mw_tags_line(struct mw_tags *t, int set, int way) { return &t->lines[set * t->assoc + way]; }
static inline uint8_t *mw_tags_meta(const struct mw_tags *t, int set, int way)
{
    return t->meta ? t->meta + (size_t)(set * t->assoc + way) * t->meta_bytes : NULL;
}
/* Way `way` of `set` now holds `line` (used), or is emptied (all of its state, policy bytes included, cleared). */
static inline void mw_tags_take(struct mw_tags *t, int set, int way, uint64_t line)
{
    struct mw_line *l = mw_tags_line(t, set, way);
    l->used = 1;
    l->tag = line;
    t->keys[set * t->assoc + way] = line;
}
static inline void mw_tags_clear(struct mw_tags *t, int set, int way)
{
    memset(mw_tags_line(t, set, way), 0, sizeof(struct mw_line));
    t->keys[set * t->assoc + way] = MW_NO_TAG;
    if (t->meta) memset(mw_tags_meta(t, set, way), 0, t->meta_bytes);
}
int mw_tags_find(const struct mw_tags *t, int set, uint64_t line); /* way or -1 */
/* The way a declared victim order (enum mw_victim_order, LRU or FIFO) picks among the set's ways whose
 * evictable[w] is set; -1 if none. */
static inline int mw_tags_victim_by_order(const struct mw_tags *t, int set, int order, const uint8_t *evictable)
{
    const struct mw_line *l = &t->lines[set * t->assoc];
    int best = -1;
    for (int w = 0; w < t->assoc; w++) {
        if (!evictable[w]) continue;
        uint64_t k = order == MW_VICTIM_FIFO ? l[w].fill_time : l[w].last_access;
        if (best < 0 || k < (order == MW_VICTIM_FIFO ? l[best].fill_time : l[best].last_access)) best = w;
    }
    return best;
}
/* What a replacement policy sees of a way; meta points at byte `meta_off` of the line's policy bytes (NULL when
 * meta_off is (size_t)-1 or the array keeps none). */
static inline struct mw_line_view mw_tags_view(const struct mw_tags *t, int set, int way, size_t meta_off)
{
    const struct mw_line *l = &t->lines[set * t->assoc + way];
    uint8_t *m = meta_off == (size_t)-1 ? NULL : mw_tags_meta(t, set, way);
    struct mw_line_view v = {.line = l->tag, .last_access = l->last_access, .fill_time = l->fill_time,
                             .hits = l->hits, .valid = l->valid != 0, .reserved = l->pending != 0,
                             .sectors = l->valid, .pc = l->pc, .warp = l->warp, .alloc_pc = l->alloc_pc,
                             .alloc_warp = l->alloc_warp, .meta = m ? m + meta_off : NULL};
    return v;
}

#endif
