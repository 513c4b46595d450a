/* Tag arrays shared by L1D and the L2 slices: sets x ways of struct mw_line with per-sector valid, pending
 * and dirty bits, plus an opaque per-line area for the replacement policy's metadata. */
#include "tags.h"

#include <stdlib.h>
#include <string.h>

int mw_tags_init(struct mw_tags *t, int sets, int assoc, int line_bytes, size_t meta_bytes)
{
    memset(t, 0, sizeof *t);
    t->sets = sets;
    t->assoc = assoc;
    t->line_shift = __builtin_ctz((unsigned)line_bytes);
    size_t n = (size_t)sets * (size_t)assoc;
    t->lines = calloc(n, sizeof *t->lines);
    t->keys = malloc(n * sizeof *t->keys);
    t->meta_bytes = meta_bytes;
    if (meta_bytes) t->meta = calloc(n, meta_bytes);
    if (!t->lines || !t->keys || (meta_bytes && !t->meta)) return MW_ENOMEM;
    for (size_t i = 0; i < n; i++) t->keys[i] = MW_NO_TAG;
    return 0;
}

void mw_tags_fini(struct mw_tags *t)
{
    free(t->lines);
    free(t->keys);
    free(t->meta);
    memset(t, 0, sizeof *t);
}

int mw_tags_find(const struct mw_tags *t, int set, uint64_t line)
{
    const uint64_t *k = &t->keys[set * t->assoc];
    for (int w = 0; w < t->assoc; w++)
        if (k[w] == line) return w;
    return -1;
}
