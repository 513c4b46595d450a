/* An index over a fixed table of entries keyed by an address (the L1D and L2 MSHRs): an open-addressing hash
 * from key to entry (linear probing in a power-of-two table of at least twice the entries, deletion by backward
 * shift, no tombstones) and a bit set of the free entries, so that lookup, allocation of the lowest free entry
 * and release cost O(1) rather than a scan of every entry. The caller keeps its entries and their keys. */
#ifndef MW_SLOTMAP_H
#define MW_SLOTMAP_H

#include <stdint.h>
#include <stdlib.h>

#define MW_SLOTMAP_EMPTY UINT64_MAX /* no key: keys are aligned addresses */

struct mw_slotmap_slot {
    uint64_t key;
    int32_t entry;
};
struct mw_slotmap {
    struct mw_slotmap_slot *slot;
    uint32_t mask;     /* slots - 1 */
    int shift;         /* 64 - log2(slots) */
    int nwords;
    uint64_t *free;    /* bit e set: entry e is free */
};

static inline int mw_slotmap_init(struct mw_slotmap *m, int entries)
{
    int bits = 3;
    while ((1 << bits) < 2 * entries) bits++;
    m->mask = (1u << bits) - 1;
    m->shift = 64 - bits;
    m->nwords = (entries + 63) / 64;
    m->slot = malloc(((size_t)m->mask + 1) * sizeof *m->slot);
    m->free = calloc((size_t)(m->nwords ? m->nwords : 1), sizeof *m->free);
    if (!m->slot || !m->free) return -1;
    for (uint32_t i = 0; i <= m->mask; i++) m->slot[i].key = MW_SLOTMAP_EMPTY;
    for (int e = 0; e < entries; e++) m->free[e >> 6] |= 1ull << (e & 63);
    return 0;
}
static inline void mw_slotmap_fini(struct mw_slotmap *m)
{
    free(m->slot);
    free(m->free);
    m->slot = NULL;
    m->free = NULL;
}
/* Keys are 32 B aligned at least (a line or a sector): multiplicative hashing of the rest, top bits. */
static inline uint32_t mw_slotmap_home(const struct mw_slotmap *m, uint64_t key)
{
    return (uint32_t)(((key >> 5) * 0x9E3779B97F4A7C15ull) >> m->shift);
}
/* The entry holding `key`, or -1. */
static inline int mw_slotmap_find(const struct mw_slotmap *m, uint64_t key)
{
    for (uint32_t i = mw_slotmap_home(m, key);; i = (i + 1) & m->mask) {
        uint64_t k = m->slot[i].key;
        if (k == key) return m->slot[i].entry;
        if (k == MW_SLOTMAP_EMPTY) return -1;
    }
}
/* The lowest free entry, or -1 if every entry is in use. */
static inline int mw_slotmap_lowest_free(const struct mw_slotmap *m)
{
    for (int w = 0; w < m->nwords; w++)
        if (m->free[w]) return w * 64 + __builtin_ctzll(m->free[w]);
    return -1;
}
/* Entry `e` (free) now holds `key` (absent). */
static inline void mw_slotmap_take(struct mw_slotmap *m, int e, uint64_t key)
{
    m->free[e >> 6] &= ~(1ull << (e & 63));
    uint32_t i = mw_slotmap_home(m, key);
    while (m->slot[i].key != MW_SLOTMAP_EMPTY) i = (i + 1) & m->mask;
    m->slot[i].key = key;
    m->slot[i].entry = e;
}
/* Entry `e`, holding `key`, is free again. */
static inline void mw_slotmap_release(struct mw_slotmap *m, int e, uint64_t key)
{
    m->free[e >> 6] |= 1ull << (e & 63);
    uint32_t i = mw_slotmap_home(m, key);
    while (m->slot[i].key != key) i = (i + 1) & m->mask;
    /* backward shift: move up every later key of the run that may not sit after the hole */
    for (uint32_t j = i;;) {
        j = (j + 1) & m->mask;
        uint64_t k = m->slot[j].key;
        if (k == MW_SLOTMAP_EMPTY) break;
        uint32_t h = mw_slotmap_home(m, k);
        if (((j - h) & m->mask) < ((j - i) & m->mask)) continue; /* its home lies after the hole: stays */
        m->slot[i] = m->slot[j];
        i = j;
    }
    m->slot[i].key = MW_SLOTMAP_EMPTY;
}

#endif
