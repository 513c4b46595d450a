/* The flat statistics list that JSON, CSV and Lua read, filled from the units' X-macro descriptor tables. */
#include "stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mw_stat_list_init(struct mw_stat_list *l) { memset(l, 0, sizeof *l); }
void mw_stat_list_fini(struct mw_stat_list *l)
{
    free(l->v);
    free(l->idx);
    memset(l, 0, sizeof *l);
}

/* A new entry named prefix[0..np) followed by name, truncated to 63 characters as snprintf would. */
static int add_named(struct mw_stat_list *l, const char *prefix, size_t np, const char *name, double value,
                     const char *desc, const char *unit)
{
    if (l->n == l->cap) {
        int nc = l->cap ? l->cap * 2 : 256;
        struct mw_stat_entry *v = realloc(l->v, (size_t)nc * sizeof *v);
        if (!v) return -2;
        l->v = v;
        l->cap = nc;
    }
    struct mw_stat_entry *e = &l->v[l->n++];
    size_t at = np < sizeof e->name - 1 ? np : sizeof e->name - 1;
    memcpy(e->name, prefix, at);
    size_t len = strnlen(name, sizeof e->name - 1 - at); /* without snprintf's cost */
    memcpy(e->name + at, name, len);
    e->name[at + len] = 0;
    e->value = value;
    e->desc = desc;
    e->unit = unit;
    return 0;
}

int mw_stat_list_add(struct mw_stat_list *l, const char *name, double value, const char *desc, const char *unit)
{
    return add_named(l, "", 0, name, value, desc, unit);
}

/* The name's length and its first and last 8 bytes, mixed: a stat name's distinguishing part (the unit, the
 * instance number, the counter) is at its ends, and this costs a tenth of hashing every byte. Collisions only
 * cost a strcmp. */
static uint32_t name_hash(const char *s)
{
    size_t n = strlen(s);
    uint64_t a = 0, b = 0;
    if (n >= 8) memcpy(&a, s, 8), memcpy(&b, s + n - 8, 8);
    else
        for (size_t i = 0; i < n; i++) a |= (uint64_t)(unsigned char)s[i] << (8 * i);
    uint64_t h = (a * 0x9e3779b97f4a7c15ull) ^ ((b + n) * 0xc2b2ae3d27d4eb4full);
    return (uint32_t)(h >> 32) ^ (uint32_t)h;
}

static void index_put(struct mw_stat_list *l, int i)
{
    unsigned mask = (unsigned)l->idx_cap - 1, k = name_hash(l->v[i].name) & mask;
    for (; l->idx[k]; k = (k + 1) & mask) /* a name already indexed keeps its first entry, as a scan finds it */
        if (strcmp(l->v[l->idx[k] - 1].name, l->v[i].name) == 0) return;
    l->idx[k] = i + 1;
}

/* Index the entries appended since the last look-up; the table is kept at most 3/4 full. */
static int index_catch_up(struct mw_stat_list *l)
{
    if (l->idx_n > l->n) l->idx_n = 0, l->idx_cap = 0; /* never happens through this API; rebuild if it did */
    if (l->idx_n == l->n) return 0;
    if (4 * l->n > 3 * l->idx_cap) { /* rebuilt at most 3/4 full, to half full */
        int nc = 64;
        while (nc < 2 * l->n) nc *= 2;
        int *t = calloc((size_t)nc, sizeof *t);
        if (!t) return -2;
        free(l->idx);
        l->idx = t;
        l->idx_cap = nc;
        l->idx_n = 0;
    }
    for (; l->idx_n < l->n; l->idx_n++) index_put(l, l->idx_n);
    return 0;
}

const struct mw_stat_entry *mw_stat_list_get(const struct mw_stat_list *cl, const char *name)
{
    /* the index is a cache of the entries; every list is created non-const, only passed as const */
    struct mw_stat_list *l = (struct mw_stat_list *)cl;
    if (l->n < 32 || index_catch_up(l) != 0) {
        for (int i = 0; i < l->n; i++) /* the first byte rules most entries out without a call */
            if (l->v[i].name[0] == name[0] && strcmp(l->v[i].name, name) == 0) return &l->v[i];
        return NULL;
    }
    unsigned mask = (unsigned)l->idx_cap - 1;
    for (unsigned k = name_hash(name) & mask; l->idx[k]; k = (k + 1) & mask)
        if (strcmp(l->v[l->idx[k] - 1].name, name) == 0) return &l->v[l->idx[k] - 1];
    return NULL;
}

/* "unit." or "unit.<i>." (i >= 0) into out[80], returning its length: the stats of a run are about two thousand
 * names, and formatting them with snprintf was a third of a small run's cost; the name proper is appended by
 * add_named, which truncates the whole to 63 characters as before. */
static size_t stat_prefix(char out[80], const char *unit, int i)
{
    size_t at = strnlen(unit, 63);
    memcpy(out, unit, at);
    out[at++] = '.';
    if (i >= 0) {
        char rev[12];
        int k = 0;
        do rev[k++] = (char)('0' + i % 10);
        while ((i /= 10) > 0);
        while (k) out[at++] = rev[--k];
        out[at++] = '.';
    }
    return at;
}

int mw_stat_list_add_group(struct mw_stat_list *l, const char *unit, const struct mw_stat_desc *descs, int ndescs,
                           const void *base, size_t stride, int n, bool per_instance)
{
    char pre[80];
    size_t np = stat_prefix(pre, unit, -1);
    for (int d = 0; d < ndescs; d++) {
        uint64_t total = 0;
        for (int i = 0; i < n; i++) {
            uint64_t v = ((const uint64_t *)((const char *)base + (size_t)i * stride))[d];
            total = descs[d].kind == MW_SK_MAX ? (v > total ? v : total) : total + v;
        }
        if (add_named(l, pre, np, descs[d].name, (double)total, descs[d].desc, descs[d].unit)) return -2;
    }
    if (per_instance && n > 1)
        for (int i = 0; i < n; i++) {
            np = stat_prefix(pre, unit, i);
            for (int d = 0; d < ndescs; d++) {
                uint64_t v = ((const uint64_t *)((const char *)base + (size_t)i * stride))[d];
                if (add_named(l, pre, np, descs[d].name, (double)v, descs[d].desc, descs[d].unit)) return -2;
            }
        }
    return 0;
}
