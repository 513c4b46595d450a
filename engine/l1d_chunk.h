/* The chunked L1D organisation (l1d.organisation: chunked), DyCache's and Elastic-Cache's multi-grain L1D: 128 B
 * data lines whose four 32 B slots each carry their own chunk tag, so one line holds 32 B / 64 B chunks of
 * different 128 B blocks of its set as long as they share the line's common tag (address bits above
 * l1d.chunk_common_shift). Chunk state is always kept at 32 B. The management granularity G (32, 64 or 128 B) of
 * each SM is set by the granularity policy (mw_l1d_set_granularity); it decides what is a hit (every 32 B chunk of
 * the G-aligned cover of the request resident and valid), what is fetched (that cover: 128 B at G = 128) and where
 * it is allocated (a whole line for G = 128 or a 128 B request; else the least recently used free or G-aligned
 * slot group of a line with the same common tag, else the first slots of the LRU line). A request larger than G
 * finding only part of its chunks (a partial hit) invalidates them and is fetched whole. MSHRs (keyed by the 128 B
 * block), merging, the miss queue and the reservation stalls are the line organisation's. */
#ifndef MW_L1D_CHUNK_H
#define MW_L1D_CHUNK_H

#include "common.h"

struct mw_sim;
struct mw_l1d;
struct mw_err;

#define MW_CK_SLOTS 4
struct mw_ck_line {
    uint64_t common;                   /* common tag */
    uint64_t addr[MW_CK_SLOTS];        /* each slot's 32 B chunk address (its chunk tag), MW_CK_NONE when empty */
    uint64_t t[MW_CK_SLOTS];           /* each slot's last access (chunk LRU) */
    uint64_t last_access, fill_time;   /* line-level LRU */
    uint8_t valid, pending, used;      /* per slot; used: the line holds a common tag */
    uint32_t hits, alloc_warp;         /* hits since the line was taken, and the warp that took it (Choo's stats) */
};
#define MW_CK_NONE UINT64_MAX

struct mw_l1d_chunk {
    int sets, assoc, common_shift, scope;
    struct mw_ck_line *lines; /* sets * assoc */
};
enum { MW_CK_SCOPE_SET = 0, MW_CK_SCOPE_LINE = 1 };

int mw_l1d_chunk_init(struct mw_l1d_chunk *ck, int sets, int assoc, int common_shift, int scope);
void mw_l1d_chunk_fini(struct mw_l1d_chunk *ck);
static inline struct mw_ck_line *mw_ck_line(const struct mw_l1d_chunk *ck, int set, int way)
{
    return &ck->lines[set * ck->assoc + way];
}

/* The paper's address split (Fig. 4, linear set index): common tag = addr >> common_shift; chunk tag = the tag
 * bits below the common tag followed by the 32 B chunk index in the 128 B block; set = block number % sets. */
void mw_ck_decode(uint64_t addr, int sets, int common_shift, uint64_t *common, uint64_t *chunk, int *set);
/* The chunk-tag match controller (Fig. 5): the expected chunk tags for a request of `size` bytes whose first
 * chunk tag is `chunk`, at granularity g; exp[i] = MW_CK_NONE where the mask is void. */
void mw_ck_expected(int g, int size, uint64_t chunk, uint64_t exp[MW_CK_SLOTS]);
/* The sectors a request needing `need` (of a 128 B block) covers at granularity g (128: all four). */
uint8_t mw_ck_cover(uint8_t need, int g);

/* Attach the chunked organisation to an L1D just built by mw_l1d_init (struct mw_l1d_org in l1d.h). */
int mw_l1d_chunk_attach(struct mw_sim *s, struct mw_l1d *l1, struct mw_err *e);
/* Its state (tests and inspection): NULL for another organisation. */
struct mw_l1d_chunk *mw_l1d_chunk_of(const struct mw_l1d *l1);

#endif
