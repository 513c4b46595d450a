/* LonestarGPU points-to analysis (apps/pta: andersen.cu, Mendez-Lojo, Hathhorn, Burtscher and Pingali, PPoPP'12):
 * Andersen's inclusion-based analysis with difference propagation, every set (points-to, difference, copy-inverse
 * edges) a linked list of 32-word elements in one pool (words 0..29 bits for 960 ids from BASE * 960, word 30 BASE,
 * word 31 NEXT), one warp per variable, lane i reading word i: each element access is one 128 B line. A warp takes
 * variables from a global worklist counter (atomicAdd by lane 0, broadcast through shared memory).
 * Modelled rules: address-of (the initial points-to sets) and copy (x = y: pts(x) includes pts(y)), iterated as the
 * GPU code does: copyInv_loadInv_store2storeInv unions the current difference set of each variable into the next
 * difference set of every variable of its copy-inverse list (decoded through __rep__), then
 * updatePtsInformation merges each next difference set into the points-to set and keeps the new bits as the next
 * current difference; repeated until no difference is left. Not modelled: load, store and gep constraints, HCD and
 * cycle collapsing (the input has no cycles), the sorting and unique steps of insertAll. The worklist is taken in
 * warp order (warp g gets variables g, g + W, ...; the GPU's atomic order is dynamic); pool elements are placed in
 * the order the host allocates them.
 * Input: a seeded constraint graph: copy edges from the R-MAT graph of the graph models (lower to higher id, so
 * acyclic, with the R-MAT's hub variables), an address-of constraint for every fourth variable. */
#include "wl_graph.h"

#include <stdio.h>
#include <stdlib.h>

#define PTA_WARPS 8        /* threads (32, 8) */
#define PTA_CTAS (15 * 4)  /* nSM x blocks per SM */
#define PTA_W ((uint64_t)PTA_WARPS * PTA_CTAS)
#define EW 32u             /* ELEMENT_WIDTH */
#define IDS 960u           /* ids per element */

/* a set as a list of element positions (in the pool) with their bases */
struct elist {
    uint32_t n, cap;
    uint32_t *pos, *base;
};

struct pta {
    uint32_t V, O, niter;
    struct mw_graph g;     /* copy edges: row v lists the z with z = v (copy-inverse list of v) */
    uint32_t *cinv_row, *cinv_col;
    struct elist *cinv;    /* per variable: the elements of its copy-inverse list */
    /* per iteration: each variable's current difference set elements (empty: n = 0) and the destinations' next
     * difference elements after each union, flattened */
    struct piter *it;
    uint64_t edges, rep, wl, freelist; /* device */
    uint32_t next_free;
    struct ptalaunch *ls;
};
struct step { /* one union of diff(x) into nextDiff(z): the elements read and written, in order */
    uint32_t nread, nwrite, nalloc;
    uint32_t *rd, *wr;
};
struct piter {
    struct elist *diff;    /* per variable */
    uint32_t **words;      /* per variable: for each copy-inverse element, its nonzero words as a bitmask */
    struct step **un;      /* per variable: one step per destination */
    struct step *upd;      /* per variable: updatePtsInformation's reads and writes */
    uint8_t *active;       /* per variable: non-empty next difference (updatePtsInformation works) */
};

struct ptalaunch {
    const struct pta *s;
    uint32_t k;
    int kind;
};

static void el_free(struct elist *e) { free(e->pos), free(e->base); }
static int el_push(struct elist *e, uint32_t pos, uint32_t base)
{
    if (e->n == e->cap) {
        uint32_t c = e->cap ? 2 * e->cap : 4;
        uint32_t *p = realloc(e->pos, c * 4), *b = p ? realloc(e->base, c * 4) : NULL;
        if (!p || !b) {
            if (p) e->pos = p;
            return -1;
        }
        e->pos = p, e->base = b, e->cap = c;
    }
    e->pos[e->n] = pos, e->base[e->n] = base, e->n++;
    return 0;
}
static int st_push(uint32_t **a, uint32_t *n, uint32_t v)
{
    if (!(*n & (*n - 1)) || !*n) {
        uint32_t c = *n ? 2 * *n : 4;
        uint32_t *p = realloc(*a, c * 4);
        if (!p) return -1;
        *a = p;
    }
    (*a)[(*n)++] = v;
    return 0;
}

static void pta_free(void *p)
{
    struct pta *s = p;
    if (!s) return;
    for (uint32_t k = 0; k < s->niter && s->it; k++) {
        struct piter *I = &s->it[k];
        for (uint32_t v = 0; v < s->V; v++) {
            if (I->diff) el_free(&I->diff[v]);
            if (I->words) free(I->words[v]);
            if (I->un && I->un[v]) {
                for (uint32_t j = s->cinv_row[v]; j < s->cinv_row[v + 1]; j++)
                    free(I->un[v][j - s->cinv_row[v]].rd), free(I->un[v][j - s->cinv_row[v]].wr);
                free(I->un[v]);
            }
            if (I->upd) free(I->upd[v].rd), free(I->upd[v].wr);
        }
        free(I->diff), free(I->words), free(I->un), free(I->upd), free(I->active);
    }
    if (s->cinv)
        for (uint32_t v = 0; v < s->V; v++) el_free(&s->cinv[v]);
    free(s->cinv), free(s->it), free(s->cinv_row), free(s->cinv_col), free(s->ls);
    mw_wl_graph_free(&s->g);
    free(s);
}

/* element lists of a bitset of nbits: bases with any bit set */
static uint32_t bases_of(const uint64_t *bs, uint32_t nbits, uint32_t *out)
{
    uint32_t n = 0;
    for (uint32_t b = 0; b * IDS < nbits; b++) {
        bool any = false;
        for (uint32_t i = b * IDS; i < (b + 1) * IDS && i < nbits && !any; i++) any = bs[i >> 6] >> (i & 63) & 1u;
        if (any) out[n++] = b;
    }
    return n;
}

/* The analysis on the host, recording every element each warp touches. */
static int pta_host(struct pta *s, uint64_t seed)
{
    uint32_t V = s->V, O = s->O, words = (O + 63) / 64, nb = (O + IDS - 1) / IDS;
    uint64_t *pts = calloc((size_t)V * words, 8), *cur = calloc((size_t)V * words, 8),
             *nxt = calloc((size_t)V * words, 8);
    struct elist *ptsel = calloc(V, sizeof *ptsel), *nxtel = calloc(V, sizeof *nxtel);
    uint32_t *bb = malloc((nb + 1) * 4);
    int rc = -1;
    if (!pts || !cur || !nxt || !ptsel || !nxtel || !bb) goto out;
    /* pool: heads at fixed places (pts 0.., copy-inverse, the difference sets), then the free lists' elements */
    uint32_t head_pts = 0, head_cinv = V, head_cur = 2 * V, head_nxt = 3 * V;
    s->next_free = 4 * V;
    uint64_t z = seed ^ 0x707461ull;
    for (uint32_t v = 0; v < V; v += 4) { /* x = &o */
        uint32_t o = (uint32_t)(gr_splitmix(&z) % O);
        pts[(size_t)v * words + o / 64] |= 1ull << (o % 64);
        cur[(size_t)v * words + o / 64] |= 1ull << (o % 64);
        if (el_push(&ptsel[v], head_pts + v, o / IDS)) goto out;
    }
    /* copy-inverse lists: element list of the destination ids, head then allocated elements */
    s->cinv = calloc(V, sizeof *s->cinv);
    if (!s->cinv) goto out;
    for (uint32_t v = 0; v < V; v++) {
        uint32_t last = UINT32_MAX;
        for (uint32_t j = s->cinv_row[v]; j < s->cinv_row[v + 1]; j++) {
            uint32_t b = s->cinv_col[j] / IDS;
            if (b == last) continue;
            if (el_push(&s->cinv[v], s->cinv[v].n ? s->next_free++ : head_cinv + v, b)) goto out;
            last = b;
        }
    }
    s->it = calloc(64, sizeof *s->it);
    if (!s->it) goto out;
    for (uint32_t k = 0;; k++) {
        bool any = false;
        for (size_t i = 0; i < (size_t)V * words && !any; i++) any = cur[i] != 0;
        if (!any || k == 64) break;
        struct piter *I = &s->it[k];
        s->niter = k + 1;
        I->diff = calloc(V, sizeof *I->diff), I->words = calloc(V, sizeof *I->words);
        I->un = calloc(V, sizeof *I->un), I->upd = calloc(V, sizeof *I->upd), I->active = calloc(V, 1);
        if (!I->diff || !I->words || !I->un || !I->upd || !I->active) goto out;
        /* the current difference sets' elements: heads then fresh elements */
        for (uint32_t v = 0; v < V; v++) {
            uint32_t n = bases_of(cur + (size_t)v * words, O, bb);
            for (uint32_t q = 0; q < n; q++)
                if (el_push(&I->diff[v], q ? s->next_free++ : head_cur + v, bb[q])) goto out;
        }
        /* copyInv rule */
        for (uint32_t x = 0; x < V; x++) {
            if (!I->diff[x].n) continue;
            uint32_t nd = s->cinv_row[x + 1] - s->cinv_row[x];
            I->words[x] = calloc(s->cinv[x].n + 1, 4);
            I->un[x] = calloc(nd + 1, sizeof **I->un);
            if (!I->words[x] || !I->un[x]) goto out;
            for (uint32_t j = s->cinv_row[x]; j < s->cinv_row[x + 1]; j++) {
                uint32_t d = s->cinv_col[j], e = 0;
                while (s->cinv[x].base[e] != d / IDS) e++;
                I->words[x][e] |= 1u << ((d % IDS) / 32);
                /* union diff(x) into nextDiff(d): walk both sorted lists */
                struct step *st = &I->un[x][j - s->cinv_row[x]];
                struct elist *nl = &nxtel[d];
                uint32_t a = 0, b = 0;
                while (a < I->diff[x].n) {
                    if (st_push(&st->rd, &st->nread, I->diff[x].pos[a])) goto out;
                    while (b < nl->n && nl->base[b] < I->diff[x].base[a]) {
                        if (st_push(&st->rd, &st->nread, nl->pos[b])) goto out;
                        b++;
                    }
                    if (b < nl->n && nl->base[b] == I->diff[x].base[a]) {
                        if (st_push(&st->rd, &st->nread, nl->pos[b]) || st_push(&st->wr, &st->nwrite, nl->pos[b]))
                            goto out;
                        b++;
                    } else { /* a new element: from the free list (the head if the list is empty) */
                        uint32_t pos = nl->n ? s->next_free++ : head_nxt + d;
                        if (nl->n) st->nalloc++;
                        if (st_push(&st->wr, &st->nwrite, pos)) goto out;
                        /* keep nl sorted by base */
                        if (el_push(nl, pos, I->diff[x].base[a])) goto out;
                        for (uint32_t q = nl->n - 1; q > b; q--) {
                            uint32_t tp = nl->pos[q], tb = nl->base[q];
                            nl->pos[q] = nl->pos[q - 1], nl->base[q] = nl->base[q - 1];
                            nl->pos[q - 1] = tp, nl->base[q - 1] = tb;
                        }
                        b++;
                    }
                    a++;
                }
                for (uint32_t q = 0; q < words; q++) nxt[(size_t)d * words + q] |= cur[(size_t)x * words + q];
            }
        }
        /* updatePtsInformation: new = next \ pts; pts |= new; cur = new; next = {} */
        for (uint32_t v = 0; v < V; v++) {
            struct step *st = &I->upd[v];
            I->active[v] = nxtel[v].n != 0;
            for (uint32_t q = 0; q < nxtel[v].n; q++) {
                if (st_push(&st->rd, &st->nread, nxtel[v].pos[q])) goto out;
                uint32_t b = nxtel[v].base[q], e = 0;
                while (e < ptsel[v].n && ptsel[v].base[e] < b) e++;
                if (e < ptsel[v].n && ptsel[v].base[e] == b) {
                    if (st_push(&st->rd, &st->nread, ptsel[v].pos[e]) || st_push(&st->wr, &st->nwrite, ptsel[v].pos[e]))
                        goto out;
                } else {
                    uint32_t pos = ptsel[v].n ? s->next_free++ : head_pts + v;
                    if (ptsel[v].n) st->nalloc++;
                    if (st_push(&st->wr, &st->nwrite, pos) || el_push(&ptsel[v], pos, b)) goto out;
                    for (uint32_t q2 = ptsel[v].n - 1; q2 > e; q2--) {
                        uint32_t tp = ptsel[v].pos[q2], tb = ptsel[v].base[q2];
                        ptsel[v].pos[q2] = ptsel[v].pos[q2 - 1], ptsel[v].base[q2] = ptsel[v].base[q2 - 1];
                        ptsel[v].pos[q2 - 1] = tp, ptsel[v].base[q2 - 1] = tb;
                    }
                }
            }
            for (uint32_t q = 0; q < words; q++) {
                size_t i = (size_t)v * words + q;
                cur[i] = nxt[i] & ~pts[i];
                pts[i] |= cur[i];
                nxt[i] = 0;
            }
            nxtel[v].n = 0;
        }
    }
    rc = 0;
out:
    free(pts), free(cur), free(nxt), free(bb);
    if (ptsel)
        for (uint32_t v = 0; v < V; v++) el_free(&ptsel[v]);
    if (nxtel)
        for (uint32_t v = 0; v < V; v++) el_free(&nxtel[v]);
    free(ptsel), free(nxtel);
    return rc;
}

struct ptaw {
    int line;
    uint32_t x, j, q, e, wd;
    uint64_t gw;
    const struct step *st;
};

#define PC(i) ((uint64_t)(i) * 16u)
#define ALL 0xffffffffu

/* one 32-word element: lane i reads (or writes) word i */
static void elem(struct mw_inst *o, uint64_t pc, bool st, uint64_t edges, uint32_t pos, uint16_t r)
{
    if (st) gi_st(o, pc, ALL, 4, 1, r);
    else gi_ld(o, pc, ALL, 4, r, 1);
    for (int l = 0; l < MW_WARP_SIZE; l++) o->addr[l] = edges + ((uint64_t)pos * EW + (uint64_t)l) * 4;
}
/* lane 0's atomicAdd on a counter, then the value broadcast through shared memory */
#define GRAB(pc, ctr)                                                                                         \
    do {                                                                                                     \
        gi_atom(o, PC(pc), 1u, 2, 0, 0);                                                                     \
        o->addr[0] = (ctr);                                                                                  \
        CO_YIELD(w);                                                                                         \
        gi_head(o, PC((pc) + 1), MW_OP_ST_SHARED, 1u);                                                       \
        o->width = 4, o->nsrc = 2, o->src[0] = 0, o->src[1] = 2;                                             \
        o->addr[0] = (uint64_t)t0->tid[1] * 4;                                                               \
        CO_YIELD(w);                                                                                         \
        gi_head(o, PC((pc) + 2), MW_OP_LD_SHARED, ALL);                                                      \
        o->width = 4, o->ndst = 1, o->dst[0] = 3, o->nsrc = 1, o->src[0] = 0;                                \
        for (int l_ = 0; l_ < MW_WARP_SIZE; l_++) o->addr[l_] = (uint64_t)t0->tid[1] * 4;                   \
        CO_YIELD(w);                                                                                         \
    } while (0)

/* copyInv_loadInv_store2storeInv (the copy rule): per variable x of the warp: if diff(x) is not empty, walk the
 * copy-inverse elements of x, decode each non-zero word through __rep__ (lanes with their bit set), and union
 * diff(x) into nextDiff(z) of every destination z (element reads of both lists, merged element stores, new
 * elements from the free list) */
static int gen_copy(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                    struct mw_inst *o, struct mw_err *e)
{
    (void)e, (void)mask;
    const struct ptalaunch *L = k->data;
    const struct pta *s = L->s;
    const struct piter *I = &s->it[L->k];
    struct ptaw *w = scratch;
    CO_BEGIN(w);
    w->gw = (uint64_t)t0->ctaid[0] * PTA_WARPS + t0->tid[1];
    for (w->x = (uint32_t)w->gw;; w->x += (uint32_t)PTA_W) {
        GRAB(0, s->wl);
        gi_br(o, PC(3), ALL, 3, 0); /* index < numVars */
        CO_YIELD(w);
        if (w->x >= s->V) break;
        gi_ld(o, PC(4), ALL, 4, 4, 3); /* isEmpty(x, CURR_DIFF_PTS): the head's BASE word */
        for (int l = 0; l < MW_WARP_SIZE; l++) o->addr[l] = s->edges + ((uint64_t)(2 * s->V + w->x) * EW + 30) * 4;
        CO_YIELD(w);
        gi_br(o, PC(5), ALL, 4, 0);
        CO_YIELD(w);
        if (!I->diff[w->x].n || !s->cinv[w->x].n) continue;
        for (w->q = 0; w->q < s->cinv[w->x].n; w->q++) {
            elem(o, PC(6), false, s->edges, s->cinv[w->x].pos[w->q], 5);
            CO_YIELD(w);
            for (w->wd = 0; w->wd < 30; w->wd++) {
                uint32_t bits = I->words[w->x][w->q] >> w->wd & 1u;
                if (!bits) continue;
                /* decodeWord: lanes of the set bits read __rep__[base * 960 + 32 * word + lane]; the model
                 * takes every destination of the word as one warp load */
                gi_ld(o, PC(7), ALL, 4, 6, 5);
                for (int l = 0; l < MW_WARP_SIZE; l++)
                    o->addr[l] = s->rep + ((uint64_t)s->cinv[w->x].base[w->q] * IDS + 32u * w->wd + (uint64_t)l) * 4;
                CO_YIELD(w);
                gi_head(o, PC(8), MW_OP_ST_SHARED, ALL);
                o->width = 4, o->nsrc = 2, o->src[0] = 0, o->src[1] = 6;
                for (int l = 0; l < MW_WARP_SIZE; l++) o->addr[l] = 64 + ((uint64_t)t0->tid[1] * 32 + (uint64_t)l) * 4;
                CO_YIELD(w);
            }
        }
        for (w->j = 0; w->j < s->cinv_row[w->x + 1] - s->cinv_row[w->x]; w->j++) {
            w->st = &I->un[w->x][w->j];
            gi_head(o, PC(9), MW_OP_LD_SHARED, ALL); /* the destination z */
            o->width = 4, o->ndst = 1, o->dst[0] = 7, o->nsrc = 1, o->src[0] = 0;
            for (int l = 0; l < MW_WARP_SIZE; l++) o->addr[l] = 64 + ((uint64_t)t0->tid[1] * 32 + w->j % 32) * 4;
            CO_YIELD(w);
            for (w->e = 0; w->e < w->st->nread; w->e++) {
                elem(o, PC(10), false, s->edges, w->st->rd[w->e], 8);
                CO_YIELD(w);
                gi_alu(o, PC(11), ALL, 9, 8, 5); /* compare BASE / or the bits */
                CO_YIELD(w);
            }
            for (w->e = 0; w->e < w->st->nalloc; w->e++)
                GRAB(12, s->freelist + 8); /* mallocNextDiffPts */
            for (w->e = 0; w->e < w->st->nwrite; w->e++) {
                elem(o, PC(15), true, s->edges, w->st->wr[w->e], 9);
                CO_YIELD(w);
            }
        }
    }
    CO_END(w);
}
enum { COPY_INSTS = 16 };

/* updatePtsInformation: per variable with a non-empty next difference: walk it and pts, store the merged pts
 * elements and the new difference; the next difference's head is reset */
static int gen_update(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                      struct mw_inst *o, struct mw_err *e)
{
    (void)e, (void)mask;
    const struct ptalaunch *L = k->data;
    const struct pta *s = L->s;
    const struct piter *I = &s->it[L->k];
    struct ptaw *w = scratch;
    CO_BEGIN(w);
    w->gw = (uint64_t)t0->ctaid[0] * PTA_WARPS + t0->tid[1];
    for (w->x = (uint32_t)w->gw;; w->x += (uint32_t)PTA_W) {
        GRAB(0, s->wl + 4);
        gi_br(o, PC(3), ALL, 3, 0);
        CO_YIELD(w);
        if (w->x >= s->V) break;
        gi_ld(o, PC(4), ALL, 4, 4, 3); /* isEmpty(x, NEXT_DIFF_PTS) */
        for (int l = 0; l < MW_WARP_SIZE; l++) o->addr[l] = s->edges + ((uint64_t)(3 * s->V + w->x) * EW + 30) * 4;
        CO_YIELD(w);
        gi_br(o, PC(5), ALL, 4, 0);
        CO_YIELD(w);
        if (!I->active[w->x]) continue;
        w->st = &I->upd[w->x];
        for (w->e = 0; w->e < w->st->nread; w->e++) {
            elem(o, PC(6), false, s->edges, w->st->rd[w->e], 5);
            CO_YIELD(w);
            gi_alu(o, PC(7), ALL, 6, 5, 6);
            CO_YIELD(w);
        }
        for (w->e = 0; w->e < w->st->nalloc; w->e++)
            GRAB(8, s->freelist); /* mallocPts */
        for (w->e = 0; w->e < w->st->nwrite; w->e++) {
            elem(o, PC(11), true, s->edges, w->st->wr[w->e], 6); /* pts */
            CO_YIELD(w);
            elem(o, PC(12), true, s->edges, 2 * s->V + w->x, 7); /* the new difference (its head element) */
            CO_YIELD(w);
        }
        gi_st(o, PC(13), 1u, 4, 4, 0); /* nextDiffPts head: BASE = NIL */
        o->addr[0] = s->edges + ((uint64_t)(3 * s->V + w->x) * EW + 30) * 4;
        CO_YIELD(w);
    }
    CO_END(w);
}
enum { UPDATE_INSTS = 14 };

int mw_wl_lonestar_pta(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    /* variables (R-MAT vertices), stored R-MAT edges (half become copy edges); the points-to sets grow with the
     * graph, so the work grows faster than the variables: 32,768 variables take 85 M warp instructions */
    static const uint32_t nv[4] = {512, 4096, 8192, 32768}, ne[4] = {4096, 32768, 65536, 262144};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct pta *s = calloc(1, sizeof *s);
    if (!s) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    int rc = gr_input_sized(size, seed, nv, ne, &s->g, e);
    if (rc < 0) {
        free(s);
        return rc;
    }
    struct mw_kgen_program p = {.owned = s, .free_owned = pta_free};
    struct ptalaunch *ls = NULL;
    const struct mw_graph *g = &s->g;
    s->V = g->n, s->O = g->n;
    /* copy-inverse list of v: the z > v it copies into (z = v), sorted */
    s->cinv_row = calloc(s->V + 1, 4), s->cinv_col = malloc(((size_t)g->m + 1) * 4);
    if (!s->cinv_row || !s->cinv_col) goto oom;
    for (uint32_t v = 0; v < s->V; v++) {
        s->cinv_row[v + 1] = s->cinv_row[v];
        for (uint32_t i = g->row[v]; i < g->row[v + 1]; i++)
            if (g->col[i] > v) s->cinv_col[s->cinv_row[v + 1]++] = g->col[i];
        for (uint32_t a = s->cinv_row[v] + 1; a < s->cinv_row[v + 1]; a++)
            for (uint32_t b = a; b > s->cinv_row[v] && s->cinv_col[b - 1] > s->cinv_col[b]; b--) {
                uint32_t t = s->cinv_col[b];
                s->cinv_col[b] = s->cinv_col[b - 1], s->cinv_col[b - 1] = t;
            }
    }
    if (pta_host(s, seed) != 0) goto oom;
    uint64_t top = 0x10000000ull;
    s->edges = gr_alloc(&top, ((uint64_t)s->next_free + 1) * EW * 4);
    s->rep = gr_alloc(&top, ((uint64_t)s->O + IDS) * 4);
    s->wl = gr_alloc(&top, 8), s->freelist = gr_alloc(&top, 16);
    ls = s->ls = calloc(2 * (size_t)s->niter + 1, sizeof *ls);
    if (!ls) goto oom;
    for (uint32_t k = 0; k < s->niter; k++)
        for (int kd = 0; kd < 2; kd++) {
            struct ptalaunch *L = &ls[2 * k + (uint32_t)kd];
            *L = (struct ptalaunch){s, k, kd};
            struct mw_kgen_kernel *kk = mw_kgen_append(&p);
            if (!kk) goto oom;
            snprintf(kk->k.name, sizeof kk->k.name, "%s", kd ? "updatePtsInformation" : "copyInv_loadInv_store2storeInv");
            kk->k.grid[0] = PTA_CTAS, kk->k.grid[1] = kk->k.grid[2] = 1;
            kk->k.block[0] = 32, kk->k.block[1] = PTA_WARPS, kk->k.block[2] = 1;
            kk->k.nregs = 28;
            kk->k.shmem = 64 + PTA_WARPS * 32 * 4;
            kk->data = L, kk->custom = kd ? gen_update : gen_copy;
            kk->ninsts = kd ? UPDATE_INSTS : COPY_INSTS, kk->scratch_bytes = sizeof(struct ptaw);
        }
    return mw_kgen_workload(w, "lonestar.pta", &p, e);
oom:
    return gr_fail(&p, e);
}
