/* Rodinia B+TREE (cuda/b+tree: findK and findRangeK in kernel/kernel_gpu_cuda*.cu, the tree in main.c): a B+ tree
 * of order 508 built on the host by inserting the keys 0 .. size-1 in increasing order (as Rodinia's mil.txt),
 * flattened breadth-first into knodes; one CTA of 508 threads per query walks the levels, thread t testing
 * keys[t] <= key < keys[t+1] in the current node. The run script's command file: j 6000 3000, then k 10000. */
#include "kgen.h"
#include "wl_rodinia_step.h"
#include "workloads.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ORDER 508
#define KN_BYTES 4084u    /* sizeof(knode): location, indices[ORDER+1], keys[ORDER+1], is_leaf, num_keys */
#define KN_INDICES 4u
#define KN_KEYS (4u + 4u * (ORDER + 1))

/* ---- the host tree (Rodinia's insert: leaves split at cut(order - 1), internal nodes at cut(order)) ---- */
struct bnode {
    int leaf, n;               /* n keys */
    int keys[ORDER];
    int ptr[ORDER + 1];        /* children, or record values in a leaf */
    int parent;
};
struct btree {
    struct bnode *nodes;
    int nnodes, cap, root;
};
static int cut(int len) { return len % 2 == 0 ? len / 2 : len / 2 + 1; }

static int bt_new(struct btree *t, int leaf)
{
    if (t->nnodes == t->cap) {
        int c = t->cap ? 2 * t->cap : 64;
        struct bnode *n = realloc(t->nodes, (size_t)c * sizeof *n);
        if (!n) return -1;
        t->nodes = n, t->cap = c;
    }
    struct bnode *n = &t->nodes[t->nnodes];
    n->leaf = leaf, n->n = 0, n->parent = -1;
    return t->nnodes++;
}

/* insert key k (right of child `left`) into internal node `p`, splitting upwards as needed */
static int bt_insert_parent(struct btree *t, int left, int key, int right)
{
    int p = t->nodes[left].parent;
    if (p < 0) {
        int r = bt_new(t, 0);
        if (r < 0) return -1;
        struct bnode *R = &t->nodes[r];
        R->n = 1, R->keys[0] = key, R->ptr[0] = left, R->ptr[1] = right;
        t->nodes[left].parent = t->nodes[right].parent = r;
        t->root = r;
        return 0;
    }
    struct bnode *P = &t->nodes[p];
    int li = 0;
    while (li <= P->n && P->ptr[li] != left) li++;
    if (P->n < ORDER - 1) {
        memmove(&P->ptr[li + 2], &P->ptr[li + 1], (size_t)(P->n - li) * sizeof(int));
        memmove(&P->keys[li + 1], &P->keys[li], (size_t)(P->n - li) * sizeof(int));
        P->ptr[li + 1] = right, P->keys[li] = key, P->n++;
        t->nodes[right].parent = p;
        return 0;
    }
    int tk[ORDER], tp[ORDER + 1];
    for (int i = 0, j = 0; i < P->n + 1; i++, j++) {
        if (j == li + 1) j++;
        tp[j] = P->ptr[i];
    }
    for (int i = 0, j = 0; i < P->n; i++, j++) {
        if (j == li) j++;
        tk[j] = P->keys[i];
    }
    tp[li + 1] = right, tk[li] = key;
    int split = cut(ORDER), nn = bt_new(t, 0);
    if (nn < 0) return -1;
    P = &t->nodes[p];
    struct bnode *N = &t->nodes[nn];
    P->n = 0;
    int i, j;
    for (i = 0; i < split - 1; i++) P->ptr[i] = tp[i], P->keys[i] = tk[i], P->n++;
    P->ptr[i] = tp[i];
    int kprime = tk[split - 1];
    for (++i, j = 0; i < ORDER; i++, j++) N->ptr[j] = tp[i], N->keys[j] = tk[i], N->n++;
    N->ptr[j] = tp[i];
    N->parent = P->parent;
    for (i = 0; i <= N->n; i++) t->nodes[N->ptr[i]].parent = nn;
    t->nodes[right].parent = li + 1 <= split - 1 ? p : nn;
    return bt_insert_parent(t, p, kprime, nn);
}

static int bt_insert(struct btree *t, int key)
{
    if (t->root < 0) {
        int r = bt_new(t, 1);
        if (r < 0) return -1;
        t->root = r;
    }
    int c = t->root;
    while (!t->nodes[c].leaf) {
        const struct bnode *C = &t->nodes[c];
        int i = 0;
        while (i < C->n && key >= C->keys[i]) i++;
        c = C->ptr[i];
    }
    struct bnode *L = &t->nodes[c];
    int at = 0;
    while (at < L->n && L->keys[at] < key) at++;
    if (L->n < ORDER - 1) {
        memmove(&L->keys[at + 1], &L->keys[at], (size_t)(L->n - at) * sizeof(int));
        memmove(&L->ptr[at + 1], &L->ptr[at], (size_t)(L->n - at) * sizeof(int));
        L->keys[at] = key, L->ptr[at] = key, L->n++;
        return 0;
    }
    int tk[ORDER], tv[ORDER];
    for (int i = 0, j = 0; i < L->n; i++, j++) {
        if (j == at) j++;
        tk[j] = L->keys[i], tv[j] = L->ptr[i];
    }
    tk[at] = key, tv[at] = key;
    int split = cut(ORDER - 1), nl = bt_new(t, 1);
    if (nl < 0) return -1;
    L = &t->nodes[c];
    struct bnode *N = &t->nodes[nl];
    L->n = 0;
    for (int i = 0; i < split; i++) L->keys[i] = tk[i], L->ptr[i] = tv[i], L->n++;
    for (int i = split, j = 0; i < ORDER; i++, j++) N->keys[j] = tk[i], N->ptr[j] = tv[i], N->n++;
    N->parent = L->parent;
    return bt_insert_parent(t, c, N->keys[0], nl);
}

/* ---- the flattened tree (transform_to_cuda) and the queries ---- */
struct bt {
    int32_t (*keys)[ORDER + 1], (*idx)[ORDER + 1]; /* knodes[i].keys / .indices */
    uint32_t nknodes, height, size;
    uint32_t nrange, rsize, nfind;
    int32_t *qkey, *qstart, *qend;
    /* device arrays: findRangeK's wrapper, then findK's (each allocates afresh after the other freed) */
    uint64_t r_knodes, r_curr, r_off, r_last, r_off2, r_start, r_end, r_recstart, r_reclen;
    uint64_t k_records, k_knodes, k_curr, k_off, k_keys, k_ans;
};

static void bt_free(void *p)
{
    struct bt *b = p;
    if (!b) return;
    free(b->keys), free(b->idx), free(b->qkey), free(b->qstart), free(b->qend);
    free(b);
}

static int flatten(struct bt *b, const struct btree *t)
{
    int *queue = malloc((size_t)t->nnodes * sizeof *queue);
    b->keys = malloc((size_t)t->nnodes * sizeof *b->keys);
    b->idx = malloc((size_t)t->nnodes * sizeof *b->idx);
    if (!queue || !b->keys || !b->idx) {
        free(queue);
        return -1;
    }
    int qh = 0, qt = 0, nodeindex = 1, rec = 0;
    queue[qt++] = t->root;
    while (qh < qt) {
        const struct bnode *n = &t->nodes[queue[qh]];
        int q = qh++, nk = n->n + 2, i;
        int32_t *K = b->keys[q], *I = b->idx[q];
        for (i = 0; i <= ORDER; i++) K[i] = INT_MAX, I[i] = 0;
        K[0] = INT_MIN;
        if (!n->leaf) {
            I[0] = nodeindex++;
            for (i = 1; i < nk - 1; i++) {
                K[i] = n->keys[i - 1];
                queue[qt++] = n->ptr[i - 1];
                I[i] = nodeindex++;
            }
            queue[qt++] = n->ptr[i - 1];
        } else {
            for (i = 1; i < nk - 1; i++) K[i] = n->keys[i - 1], I[i] = rec++;
        }
        I[nk - 1] = qh;
    }
    b->nknodes = (uint32_t)qt;
    free(queue);
    return 0;
}

/* The queries: Rodinia draws (rand() / RAND_MAX) * size; here a hash of (seed, stream, i). */
static uint32_t query(uint64_t seed, int stream, uint32_t i, uint32_t size)
{
    uint64_t z = seed * 0x9e3779b97f4a7c15ull + (uint64_t)stream * 0x632be59bd9b4e019ull + i + 1;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (uint32_t)((double)(z >> 11) / 9007199254740992.0 * size);
}
int32_t mw_wl_btree_query(uint64_t seed, int range, uint32_t i, uint32_t size)
{
    return (int32_t)query(seed, range, i, size);
}

/* ---- the kernels ---- */

/* One traversal's state at the current level: node, matching lanes. */
struct walk {
    uint32_t node, le, hit; /* lanes with keys[t] <= key; the lane with keys[t] <= key < keys[t+1] */
    uint32_t next;          /* the child the level moves to */
};
/* node of level L for key: the path is recomputed from the root, knodes breadth-first */
static uint32_t child_at(const struct bt *b, uint32_t node, int32_t key, uint32_t *slot)
{
    uint32_t t = 0;
    while (t < ORDER - 1 && !(b->keys[node][t] <= key && b->keys[node][t + 1] > key)) t++;
    *slot = t;
    return (uint32_t)b->idx[node][t];
}
static void level(const struct bt *b, uint32_t node, int32_t key, uint32_t thid0, uint32_t mask, struct walk *w)
{
    w->node = node, w->le = w->hit = 0;
    uint32_t slot;
    uint32_t c = child_at(b, node, key, &slot);
    w->next = c < b->nknodes ? c : node;
    FOR_LANES(mask, l)
    {
        uint32_t t = thid0 + (uint32_t)l;
        if (b->keys[node][t] <= key) w->le |= 1u << l;
        if (t == slot) w->hit |= 1u << l;
    }
}

struct kwarp {
    int step;
    uint32_t lvl;
    struct walk a, z; /* findK: a only; findRangeK: a = start, z = end */
    uint32_t eq, eq2;
};
static uint64_t kn(const struct bt *b, uint64_t base, uint32_t node, uint32_t field, uint32_t t)
{
    (void)b;
    return base + (uint64_t)node * KN_BYTES + field + (uint64_t)t * 4;
}

/* One level's test, steps 0..8 of a walk: curr = *currKnode; does keys[thid] <= key, and for those lanes
 * keys[thid + 1] > key? (knodes, curr, key: the kernel's arrays; the key's and curr's addresses this CTA's.) Where
 * no lane passes, the walk goes on at step `skip`; false: the step wrote no instruction. */
static bool level_test(struct mw_inst *o, struct kwarp *w, const struct bt *b, int step, uint32_t mask,
                       uint32_t thid0, const struct walk *wk, uint64_t knodes, uint64_t curr, uint64_t key, int skip)
{
    switch (step) {
    case 0: rs_mem(o, MW_OP_LD_GLOBAL, 8, mask, 2, 1, 0), rs_all(o, mask, curr); break;
    case 1: rs_alu(o, MW_OP_ALU, mask, 4, 2, 0); break;
    case 2:
        rs_mem(o, MW_OP_LD_GLOBAL, 4, mask, 5, 4, 0);
        FOR_LANES(mask, l) o->addr[l] = kn(b, knodes, wk->node, KN_KEYS, thid0 + (uint32_t)l);
        break;
    case 3: rs_mem(o, MW_OP_LD_GLOBAL, 4, mask, 3, 1, 0), rs_all(o, mask, key); break;
    case 4: rs_alu(o, MW_OP_ALU, mask, 6, 5, 3); break;
    case 5: rs_alu(o, MW_OP_BRANCH, mask, 0, 6, 0); break;
    case 6:
        if (!wk->le) {
            w->step = skip;
            return false;
        }
        rs_mem(o, MW_OP_LD_GLOBAL, 4, wk->le, 7, 4, 0);
        FOR_LANES(wk->le, l) o->addr[l] = kn(b, knodes, wk->node, KN_KEYS, thid0 + (uint32_t)l + 1);
        break;
    case 7: rs_alu(o, MW_OP_ALU, wk->le, 6, 7, 3); break;
    default:
        rs_alu(o, MW_OP_BRANCH, wk->le, 0, 6, 0);
        if (!wk->hit) w->step = skip;
        break;
    }
    return true;
}

/* findK: per level, if (keys[thid] <= key && keys[thid+1] > key) { if (knodes[offset].indices[thid] <
 * knodes_elem) offset = knodes[offset].indices[thid]; } __syncthreads(); if (thid == 0) curr = offset;
 * __syncthreads(); then at the leaf: if (keys[thid] == key) ans.value = records[indices[thid]].value. */
static int gen_findk(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                     struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct bt *b = k->data;
    struct kwarp *w = scratch;
    uint32_t bid = t0->ctaid[0], thid0 = t0->warp * MW_WARP_SIZE;
    int32_t key = b->qkey[bid];
    uint32_t lane0 = thid0 == 0 ? 1u : 0u;
    for (;;) {
        int s = w->step++;
        if (s == 0) {
            if (w->lvl == 0) w->a.next = 0;
            if (w->lvl == b->height) {
                w->step = 20;
                continue;
            }
            level(b, w->a.next, key, thid0, mask, &w->a);
        }
        switch (s) {
        case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7: case 8:
            if (!level_test(o, w, b, s, mask, thid0, &w->a, b->k_knodes, b->k_curr + bid * 8ull,
                            b->k_keys + bid * 4ull, 13))
                continue;
            break;
        /* the offset[bid] it reads equals curr[bid] at this point */
        case 9: rs_mem(o, MW_OP_LD_GLOBAL, 8, w->a.hit, 8, 1, 0), rs_all(o, w->a.hit, b->k_off + bid * 8ull); break;
        case 10:
            rs_mem(o, MW_OP_LD_GLOBAL, 4, w->a.hit, 9, 8, 0);
            FOR_LANES(w->a.hit, l) o->addr[l] = kn(b, b->k_knodes, w->a.node, KN_INDICES, thid0 + (uint32_t)l);
            break;
        case 11: rs_alu(o, MW_OP_ALU, w->a.hit, 6, 9, 0); break;
        case 12: rs_mem(o, MW_OP_ST_GLOBAL, 8, w->a.hit, 0, 1, 9), rs_all(o, w->a.hit, b->k_off + bid * 8ull); break;
        case 13: rs_alu(o, MW_OP_BARRIER, mask, 0, 0, 0), o->nsrc = 0; break;
        case 14:
            if (!lane0) {
                w->step = 16;
                continue;
            }
            rs_mem(o, MW_OP_LD_GLOBAL, 8, 1, 10, 1, 0), rs_all(o, 1, b->k_off + bid * 8ull);
            break;
        case 15: rs_mem(o, MW_OP_ST_GLOBAL, 8, 1, 0, 1, 10), rs_all(o, 1, b->k_curr + bid * 8ull); break;
        case 16: rs_alu(o, MW_OP_BARRIER, mask, 0, 0, 0), o->nsrc = 0; break;
        case 17:
            rs_alu(o, MW_OP_BRANCH, mask, 0, 11, 0);
            w->lvl++;
            w->step = 0;
            break;
        /* the leaf */
        case 20: rs_mem(o, MW_OP_LD_GLOBAL, 8, mask, 2, 1, 0), rs_all(o, mask, b->k_curr + bid * 8ull); break;
        case 21: rs_alu(o, MW_OP_ALU, mask, 4, 2, 0); break;
        case 22:
            rs_mem(o, MW_OP_LD_GLOBAL, 4, mask, 5, 4, 0);
            FOR_LANES(mask, l) o->addr[l] = kn(b, b->k_knodes, w->a.next, KN_KEYS, thid0 + (uint32_t)l);
            break;
        case 23: rs_mem(o, MW_OP_LD_GLOBAL, 4, mask, 3, 1, 0), rs_all(o, mask, b->k_keys + bid * 4ull); break;
        case 24:
            w->eq = 0;
            FOR_LANES(mask, l) if (b->keys[w->a.next][thid0 + (uint32_t)l] == key) w->eq |= 1u << l;
            rs_alu(o, MW_OP_ALU, mask, 6, 5, 3);
            break;
        case 25: rs_alu(o, MW_OP_BRANCH, mask, 0, 6, 0); break;
        case 26:
            if (!w->eq) return 0;
            rs_mem(o, MW_OP_LD_GLOBAL, 4, w->eq, 9, 4, 0);
            FOR_LANES(w->eq, l) o->addr[l] = kn(b, b->k_knodes, w->a.next, KN_INDICES, thid0 + (uint32_t)l);
            break;
        case 27:
            rs_mem(o, MW_OP_LD_GLOBAL, 4, w->eq, 12, 9, 0);
            FOR_LANES(w->eq, l) o->addr[l] = b->k_records + (uint64_t)b->idx[w->a.next][thid0 + (uint32_t)l] * 4;
            break;
        case 28: rs_mem(o, MW_OP_ST_GLOBAL, 4, w->eq, 0, 1, 12), rs_all(o, w->eq, b->k_ans + bid * 4ull); break;
        default: return 0;
        }
        o->pc = (uint64_t)s * 16;
        return 1;
    }
}

/* findRangeK: the same walk twice per level (start from currKnode into offset, end from lastKnode into
 * offset_2), then RecstartD = indices[thid] where keys[thid] == start; __syncthreads(); ReclenD =
 * indices[thid] - RecstartD + 1 where keys[thid] == end in the last node. */
static int gen_findrange(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                         struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct bt *b = k->data;
    struct kwarp *w = scratch;
    uint32_t bid = t0->ctaid[0], thid0 = t0->warp * MW_WARP_SIZE;
    int32_t key[2] = {b->qstart[bid], b->qend[bid]};
    uint64_t cur[2] = {b->r_curr, b->r_last}, off[2] = {b->r_off, b->r_off2}, kd[2] = {b->r_start, b->r_end};
    uint64_t rec[2] = {b->r_recstart, b->r_reclen};
    for (;;) {
        int s = w->step++;
        if (s == 0) {
            if (w->lvl == 0) w->a.next = w->z.next = 0;
            if (w->lvl == b->height) {
                w->step = 40;
                continue;
            }
            level(b, w->a.next, key[0], thid0, mask, &w->a);
            level(b, w->z.next, key[1], thid0, mask, &w->z);
        }
        int h = s < 40 ? (s >= 12 && s < 24) : (s >= 48);
        int r = s - 12 * h;
        struct walk *wk = h ? &w->z : &w->a;
        if (s < 24) {
            switch (r) {
            case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7: case 8:
                if (!level_test(o, w, b, r, mask, thid0, wk, b->r_knodes, cur[h] + bid * 8ull, kd[h] + bid * 4ull,
                                h ? 24 : 12))
                    continue;
                break;
            case 9:
                rs_mem(o, MW_OP_LD_GLOBAL, 4, wk->hit, 9, 4, 0);
                FOR_LANES(wk->hit, l) o->addr[l] = kn(b, b->r_knodes, wk->node, KN_INDICES, thid0 + (uint32_t)l);
                break;
            case 10: rs_alu(o, MW_OP_ALU, wk->hit, 6, 9, 0); break;
            case 11: rs_mem(o, MW_OP_ST_GLOBAL, 8, wk->hit, 0, 1, 9), rs_all(o, wk->hit, off[h] + bid * 8ull); break;
            }
        } else if (s < 40) {
            switch (s) {
            case 24: rs_alu(o, MW_OP_BARRIER, mask, 0, 0, 0), o->nsrc = 0; break;
            case 25: case 26: case 27: case 28: {
                if (thid0 != 0) {
                    w->step = 29;
                    continue;
                }
                int q = (s - 25) / 2;
                if ((s - 25) % 2 == 0) rs_mem(o, MW_OP_LD_GLOBAL, 8, 1, 10, 1, 0), rs_all(o, 1, off[q] + bid * 8ull);
                else rs_mem(o, MW_OP_ST_GLOBAL, 8, 1, 0, 1, 10), rs_all(o, 1, cur[q] + bid * 8ull);
                break;
            }
            case 29: rs_alu(o, MW_OP_BARRIER, mask, 0, 0, 0), o->nsrc = 0; break;
            case 30:
                rs_alu(o, MW_OP_BRANCH, mask, 0, 11, 0);
                w->lvl++;
                w->step = 0;
                break;
            default: w->step = 0; continue;
            }
        } else {
            /* 40..46 the start leaf, a barrier, 48..54 the end leaf */
            uint32_t node = h ? w->z.next : w->a.next, *eq = h ? &w->eq2 : &w->eq;
            switch (s) {
            case 40: case 48: rs_mem(o, MW_OP_LD_GLOBAL, 8, mask, 2, 1, 0), rs_all(o, mask, cur[h] + bid * 8ull); break;
            case 41: case 49:
                rs_mem(o, MW_OP_LD_GLOBAL, 4, mask, 5, 2, 0);
                FOR_LANES(mask, l) o->addr[l] = kn(b, b->r_knodes, node, KN_KEYS, thid0 + (uint32_t)l);
                break;
            case 42: case 50: rs_mem(o, MW_OP_LD_GLOBAL, 4, mask, 3, 1, 0), rs_all(o, mask, kd[h] + bid * 4ull); break;
            case 43: case 51:
                *eq = 0;
                FOR_LANES(mask, l) if (b->keys[node][thid0 + (uint32_t)l] == key[h]) *eq |= 1u << l;
                rs_alu(o, MW_OP_BRANCH, mask, 0, 5, 3);
                if (!*eq) w->step = h ? 99 : 47;
                break;
            case 44: case 52:
                rs_mem(o, MW_OP_LD_GLOBAL, 4, *eq, 9, 2, 0);
                FOR_LANES(*eq, l) o->addr[l] = kn(b, b->r_knodes, node, KN_INDICES, thid0 + (uint32_t)l);
                break;
            case 45:
                rs_mem(o, MW_OP_ST_GLOBAL, 4, *eq, 0, 1, 9), rs_all(o, *eq, rec[0] + bid * 4ull), w->step = 47;
                break;
            case 47: rs_alu(o, MW_OP_BARRIER, mask, 0, 0, 0), o->nsrc = 0, w->step = 48; break;
            case 53: rs_mem(o, MW_OP_LD_GLOBAL, 4, *eq, 12, 1, 0), rs_all(o, *eq, rec[0] + bid * 4ull); break;
            case 54: rs_alu(o, MW_OP_ALU, *eq, 9, 9, 12); break;
            case 55: rs_mem(o, MW_OP_ST_GLOBAL, 4, *eq, 0, 1, 9), rs_all(o, *eq, rec[1] + bid * 4ull); break;
            default: return 0;
            }
        }
        o->pc = (uint64_t)s * 16;
        return 1;
    }
}

int mw_wl_rodinia_btree(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    /* keys in the tree; the command file's j <count> <range> and k <count>. paper: mil.txt (1M keys) with
     * Rodinia's command.txt. */
    static const uint32_t keys[4] = {20000, 100000, 250000, 1000000}, nrange[4] = {12, 150, 1500, 6000},
                          rsize[4] = {100, 1000, 3000, 3000}, nfind[4] = {20, 250, 2500, 10000};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct btree t = {NULL, 0, 0, -1};
    struct bt *b = calloc(1, sizeof *b);
    struct mw_kgen_program p = {.owned = b, .free_owned = bt_free};
    if (!b) goto oom;
    b->size = keys[sz], b->nrange = nrange[sz], b->rsize = rsize[sz], b->nfind = nfind[sz];
    for (uint32_t i = 0; i < b->size; i++)
        if (bt_insert(&t, (int)i) != 0) goto oom;
    for (int c = t.root; !t.nodes[c].leaf; c = t.nodes[c].ptr[0]) b->height++;
    if (flatten(b, &t) != 0) goto oom;
    free(t.nodes), t.nodes = NULL;
    b->qkey = malloc(b->nfind * sizeof *b->qkey);
    b->qstart = malloc(b->nrange * sizeof *b->qstart);
    b->qend = malloc(b->nrange * sizeof *b->qend);
    if (!b->qkey || !b->qstart || !b->qend) goto oom;
    for (uint32_t i = 0; i < b->nfind; i++) b->qkey[i] = mw_wl_btree_query(seed, 0, i, b->size);
    for (uint32_t i = 0; i < b->nrange; i++) {
        int32_t s = mw_wl_btree_query(seed, 1, i, b->size), en = s + (int32_t)b->rsize;
        if (en >= (int32_t)b->size) s -= en - (int32_t)b->size, en = (int32_t)b->size - 1;
        b->qstart[i] = s, b->qend[i] = en;
    }
    uint64_t kmem = (uint64_t)b->nknodes * KN_BYTES, a = 0x10000000ull;
#define ALLOC(f, bytes) (b->f = a, a += ((uint64_t)(bytes) + 255) & ~255ull)
    ALLOC(r_knodes, kmem);
    ALLOC(r_curr, b->nrange * 8ull);
    ALLOC(r_off, b->nrange * 8ull);
    ALLOC(r_last, b->nrange * 8ull);
    ALLOC(r_off2, b->nrange * 8ull);
    ALLOC(r_start, b->nrange * 4ull);
    ALLOC(r_end, b->nrange * 4ull);
    ALLOC(r_recstart, b->nrange * 4ull);
    ALLOC(r_reclen, b->nrange * 4ull);
    a = 0x10000000ull; /* findRangeK's wrapper freed everything */
    ALLOC(k_records, b->size * 4ull);
    ALLOC(k_knodes, kmem);
    ALLOC(k_curr, b->nfind * 8ull);
    ALLOC(k_off, b->nfind * 8ull);
    ALLOC(k_keys, b->nfind * 4ull);
    ALLOC(k_ans, b->nfind * 4ull);
#undef ALLOC
    for (int i = 0; i < 2; i++) {
        struct mw_kgen_kernel *k = mw_kgen_append(&p);
        if (!k) goto oom;
        snprintf(k->k.name, sizeof k->k.name, "%s", i ? "findK" : "findRangeK");
        k->k.grid[0] = i ? b->nfind : b->nrange, k->k.grid[1] = k->k.grid[2] = 1;
        k->k.block[0] = ORDER, k->k.block[1] = k->k.block[2] = 1; /* order < 1024 ? order : 1024 */
        k->k.nregs = i ? 18 : 22; /* estimates */
        k->data = b;
        k->custom = i ? gen_findk : gen_findrange;
        k->ninsts = i ? 29 : 56; /* the steps of gen_findk (0..28) / gen_findrange (0..55) */
        k->scratch_bytes = sizeof(struct kwarp);
    }
    return mw_kgen_workload(w, "rodinia.btree", &p, e);
oom:
    free(t.nodes);
    free(p.kernels);
    bt_free(b);
    return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
}
