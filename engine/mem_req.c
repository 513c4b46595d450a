/* Request pool: requests are carved from chunks and recycled through a free list. */
#include "mem_req.h"

#include <stdlib.h>
#include <string.h>

#define MW_REQ_CHUNK 1024

void mw_req_pool_init(struct mw_req_pool *p) { memset(p, 0, sizeof *p); }

void mw_req_pool_fini(struct mw_req_pool *p)
{
    for (int i = 0; i < p->nchunks; i++) free(p->chunks[i]);
    free(p->chunks);
    memset(p, 0, sizeof *p);
}

struct mw_req *mw_req_alloc(struct mw_req_pool *p)
{
    if (!p->free) {
        if (p->nchunks == p->capchunks) {
            int nc = p->capchunks ? p->capchunks * 2 : 16;
            void **c = realloc(p->chunks, (size_t)nc * sizeof *c);
            if (!c) return NULL;
            p->chunks = c;
            p->capchunks = nc;
        }
        struct mw_req *chunk = malloc(MW_REQ_CHUNK * sizeof *chunk);
        if (!chunk) return NULL;
        p->chunks[p->nchunks++] = chunk;
        for (int i = MW_REQ_CHUNK - 1; i >= 0; i--) {
            chunk[i].next = p->free;
            p->free = &chunk[i];
        }
    }
    struct mw_req *r = p->free;
    p->free = r->next;
    memset(r, 0, sizeof *r);
    r->id = p->next_id++;
    r->merge = 1;
    p->live++;
    return r;
}

void mw_req_free(struct mw_req_pool *p, struct mw_req *r)
{
    r->next = p->free;
    p->free = r;
    p->live--;
}

struct mw_req *mw_req_new(struct mw_req_pool *p, uint64_t line, uint8_t sectors, int kind)
{
    struct mw_req *r = mw_req_alloc(p);
    if (!r) return NULL;
    r->addr = line;
    r->sectors = sectors;
    r->size = (uint32_t)mw_popcount32(sectors) * 32;
    r->kind = (uint8_t)kind;
    return r;
}

void mw_req_free_list(struct mw_req_pool *p, struct mw_req *r)
{
    while (r) {
        struct mw_req *n = r->next;
        mw_req_free(p, r);
        r = n;
    }
}
