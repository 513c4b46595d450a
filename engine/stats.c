/* The flat statistics list that JSON, CSV and Lua read, filled from the units' X-macro descriptor tables. */
#include "stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mw_stat_list_init(struct mw_stat_list *l) { memset(l, 0, sizeof *l); }
void mw_stat_list_fini(struct mw_stat_list *l)
{
    free(l->v);
    memset(l, 0, sizeof *l);
}

int mw_stat_list_add(struct mw_stat_list *l, const char *name, double value, const char *desc, const char *unit)
{
    if (l->n == l->cap) {
        int nc = l->cap ? l->cap * 2 : 256;
        struct mw_stat_entry *v = realloc(l->v, (size_t)nc * sizeof *v);
        if (!v) return -2;
        l->v = v;
        l->cap = nc;
    }
    struct mw_stat_entry *e = &l->v[l->n++];
    snprintf(e->name, sizeof e->name, "%s", name);
    e->value = value;
    e->desc = desc;
    e->unit = unit;
    return 0;
}

const struct mw_stat_entry *mw_stat_list_get(const struct mw_stat_list *l, const char *name)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->v[i].name, name) == 0) return &l->v[i];
    return NULL;
}

int mw_stat_list_add_group(struct mw_stat_list *l, const char *unit, const struct mw_stat_desc *descs, int ndescs,
                           const void *base, size_t stride, int n, bool per_instance)
{
    char name[64];
    for (int d = 0; d < ndescs; d++) {
        uint64_t total = 0;
        for (int i = 0; i < n; i++) {
            uint64_t v = ((const uint64_t *)((const char *)base + (size_t)i * stride))[d];
            total = descs[d].kind == MW_SK_MAX ? (v > total ? v : total) : total + v;
        }
        snprintf(name, sizeof name, "%s.%s", unit, descs[d].name);
        if (mw_stat_list_add(l, name, (double)total, descs[d].desc, descs[d].unit)) return -2;
    }
    if (per_instance && n > 1)
        for (int i = 0; i < n; i++)
            for (int d = 0; d < ndescs; d++) {
                uint64_t v = ((const uint64_t *)((const char *)base + (size_t)i * stride))[d];
                snprintf(name, sizeof name, "%s.%d.%s", unit, i, descs[d].name);
                if (mw_stat_list_add(l, name, (double)v, descs[d].desc, descs[d].unit)) return -2;
            }
    return 0;
}
