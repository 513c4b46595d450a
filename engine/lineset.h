/* A set of line addresses that only grows: an open-addressing hash (linear probing in a power-of-two table kept
 * at most half full, doubled when it would pass that). The L1D's miss classification (l1d.classify_misses) keeps
 * every line ever filled into one SM's L1D in one, so a miss is cold (absent) or capacity / conflict (present). */
#ifndef MW_LINESET_H
#define MW_LINESET_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#define MW_LINESET_EMPTY UINT64_MAX /* no key: keys are aligned addresses */

struct mw_lineset {
    uint64_t *slot; /* NULL: the set is not in use */
    uint64_t mask;  /* slots - 1 */
    uint64_t n;     /* keys held */
};

static inline int mw_lineset_alloc_(struct mw_lineset *x, uint64_t slots)
{
    uint64_t *v = malloc((size_t)slots * sizeof *v);
    if (!v) return -1;
    for (uint64_t i = 0; i < slots; i++) v[i] = MW_LINESET_EMPTY;
    x->slot = v;
    x->mask = slots - 1;
    return 0;
}
static inline int mw_lineset_init(struct mw_lineset *x, uint64_t slots) /* slots: a power of two */
{
    x->n = 0;
    return mw_lineset_alloc_(x, slots);
}
static inline void mw_lineset_fini(struct mw_lineset *x)
{
    free(x->slot);
    x->slot = NULL;
    x->n = x->mask = 0;
}
static inline uint64_t mw_lineset_home_(const struct mw_lineset *x, uint64_t key)
{
    return ((key >> 5) * 0x9E3779B97F4A7C15ull >> 17) & x->mask; /* keys are 32 B aligned at least */
}
static inline bool mw_lineset_has(const struct mw_lineset *x, uint64_t key)
{
    for (uint64_t i = mw_lineset_home_(x, key);; i = (i + 1) & x->mask) {
        if (x->slot[i] == key) return true;
        if (x->slot[i] == MW_LINESET_EMPTY) return false;
    }
}
/* Add `key` (no-op if present). Returns 0, or -1 when the table could not grow (the set is unchanged). */
static inline int mw_lineset_add(struct mw_lineset *x, uint64_t key)
{
    uint64_t i = mw_lineset_home_(x, key);
    for (;; i = (i + 1) & x->mask) {
        if (x->slot[i] == key) return 0;
        if (x->slot[i] == MW_LINESET_EMPTY) break;
    }
    if (2 * (x->n + 1) > x->mask + 1) { /* would pass half full: double, rehash, then insert */
        struct mw_lineset old = *x;
        if (mw_lineset_alloc_(x, 2 * (old.mask + 1))) {
            *x = old;
            return -1;
        }
        for (uint64_t j = 0; j <= old.mask; j++) {
            if (old.slot[j] == MW_LINESET_EMPTY) continue;
            uint64_t k = mw_lineset_home_(x, old.slot[j]);
            while (x->slot[k] != MW_LINESET_EMPTY) k = (k + 1) & x->mask;
            x->slot[k] = old.slot[j];
        }
        free(old.slot);
        i = mw_lineset_home_(x, key);
        while (x->slot[i] != MW_LINESET_EMPTY) i = (i + 1) & x->mask;
    }
    x->slot[i] = key;
    x->n++;
    return 0;
}

#endif
