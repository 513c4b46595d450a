/* Rodinia's merge sort (cuda/hybridsort: the bucket sort that splits the list into DIVISIONS = 1024 buckets, then
 * the float4 merge sort of each bucket), as hybridsort's main runs it on a seeded list of random floats in [0, 1):
 *   histogram1024Kernel <<<64, 192>>>   per-warp 1024-bin histograms in shared memory (tagged-write collision
 *                                       loop), merged with atomicAdd; the host turns it into 1023 pivots
 *   bucketcount <<<ceil(n / 4096), 32>>> each element's bucket by a 10-step binary search of the pivot array
 *                                       (texture fetches: every thread reads the same few lines), its rank by a
 *                                       tagged shared-memory counter, indice[] and the per-CTA counts
 *   bucketprefixoffset <<<8, 128>>>     per-bucket prefix over the CTAs' counts
 *   bucketsort <<<ceil(n / 4096), 32>>> scatter of every element to its bucket (buckets padded to whole float4s)
 *   mergeSortFirst <<<ceil(n4 / 256), 256>>> sorts each float4
 *   mergeSortPass <<<grid, 208>>> x k   one thread merges two sorted runs of nrElems / 2 float4s of a bucket,
 *                                       nrElems = 2, 4, ... until one thread covers the largest bucket
 *   mergepack <<<(ceil(largest / 256), 1024), 256>>> drops the padding
 * Texture fetches (tex1Dfetch of the pivots and of the merge input) are modelled as global loads of their width.
 * Which run element a merge reads next depends on the data: the host runs the same merges on the same list. */
#include "wl_graph.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define DIV 1024       /* DIVISIONS */
#define HBLK 64        /* histogram1024Kernel's grid */
#define HTHR 192       /* and block: 6 warps, one 1024-bin histogram each */
#define BAND 128       /* BUCKET_BAND */
#define MTHR 208       /* mergeSortPass's threads.x */

struct mpass {
    uint32_t nr, tpd, grid, thr;
    uint64_t src, dst;
    uint8_t *kind;     /* per thread: 0 returns, 1 copies (no B run), 2 merges */
    uint32_t *iters;   /* loop trips */
    uint64_t *bit;     /* first bit in the pass's choice bits (1 = A advanced) */
    uint64_t *bits;
};

struct ms {
    uint32_t n, nblk, list4, L4;  /* elements, bucket CTAs, float4s after padding, largest bucket in float4s */
    float *data, mn, mx;
    uint16_t *bin, *bucket;       /* per element: histogram bin, bucket */
    uint32_t *rank;               /* per element: addOffset's result in its CTA's counter */
    float piv[DIV];
    uint32_t cnt[DIV], nulls[DIV], start4[DIV + 1], orig[DIV + 1], loff[DIV];
    uint32_t *prefix;             /* nblk * DIV after bucketprefixoffset */
    float *bucketed;              /* the bucket sort's output, list4 * 4 floats (padding zeros) */
    struct mpass *p;
    int np;
    /* device arrays */
    uint64_t input, output, hist, pivots, indice, prefixes, offsets, loffsets;
};

static void ms_free(void *v)
{
    struct ms *s = v;
    if (!s) return;
    for (int i = 0; i < s->np; i++) free(s->p[i].kind), free(s->p[i].iters), free(s->p[i].bit), free(s->p[i].bits);
    free(s->p), free(s->data), free(s->bin), free(s->bucket), free(s->rank), free(s->prefix), free(s->bucketed);
    free(s);
}

/* The element list of a seed: hybridsort's "r" input (rand() / RAND_MAX), drawn from splitmix64. */
float mw_wl_mergesort_value(uint64_t seed, uint32_t i)
{
    uint64_t z = seed * 0x9e3779b97f4a7c15ull + 0x6d657267ull + (uint64_t)i * 0xbf58476d1ce4e5b9ull;
    return (float)(gr_splitmix(&z) >> 40) / (float)(1u << 24);
}

/* histogram1024Kernel's bin of x */
static uint32_t hist_bin(const struct ms *s, float x)
{
    return (uint32_t)((x - s->mn) / (s->mx - s->mn) * 1024.0f) & 0x3ffu;
}

/* calcPivotPoints: walk the histogram, cutting a pivot each time n / DIV elements have been passed, linearly
 * inside the bin where the cut falls. */
static void pivots(struct ms *s, const uint32_t *h)
{
    float width = (s->mx - s->mn) / 1024.0f, per = (float)s->n / (float)DIV, need = per, at = s->mn;
    float hv[1024];
    int p = 0;
    for (int i = 0; i < 1024; i++) hv[i] = (float)h[i];
    for (int i = 0; i < 1024 && p < DIV; i++) {
        if (i == 1023) {
            s->piv[p++] = at + need / hv[i] * width;
            break;
        }
        while (hv[i] > need && p < DIV) {
            s->piv[p++] = at + need / hv[i] * width;
            at += need / hv[i] * width;
            hv[i] -= need;
            need = per;
        }
        need -= hv[i];
        at = s->mn + width * (float)(i + 1);
    }
    for (; p < DIV; p++) s->piv[p] = p ? s->piv[p - 1] : s->mx;
}

/* bucketcount's search: idx 511, jumps 256 .. 1, then one more step; path[] gets the 10 pivot indices read. */
static uint32_t bucket_of(const struct ms *s, float x, uint32_t *path)
{
    int idx = DIV / 2 - 1, jump = DIV / 4, k = 0;
    float pv = s->piv[idx];
    if (path) path[k++] = (uint32_t)idx;
    while (jump >= 1) {
        idx = x < pv ? idx - jump : idx + jump;
        pv = s->piv[idx];
        if (path) path[k++] = (uint32_t)idx;
        jump /= 2;
    }
    return (uint32_t)(x < pv ? idx : idx + 1);
}

/* The tagged shared-memory write loop (addData1024 / addOffset) for the lanes of `pend` with keys key[l]: every
 * round each pending lane writes its tagged count, the last writer of each word (the highest lane) reads its own
 * tag back and leaves. Returns the lanes still pending after one round. */
static uint32_t tag_round(uint32_t pend, const uint32_t *key)
{
    uint32_t win = 0;
    FOR_LANES(pend, l)
    {
        bool last = true;
        for (int j = l + 1; j < MW_WARP_SIZE; j++)
            if ((pend >> j & 1u) && key[j] == key[l]) last = false;
        if (last) win |= 1u << l;
    }
    return pend & ~win;
}

static int cmpf(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* The bucket sort and every merge pass, as the kernels compute them. */
static int ms_host(struct ms *s)
{
    uint32_t n = s->n;
    s->mn = s->mx = s->data[0];
    for (uint32_t i = 1; i < n; i++) {
        if (s->data[i] < s->mn) s->mn = s->data[i];
        if (s->data[i] > s->mx) s->mx = s->data[i];
    }
    uint32_t h[1024] = {0};
    for (uint32_t i = 0; i < n; i++) h[s->bin[i] = (uint16_t)hist_bin(s, s->data[i])]++;
    pivots(s, h);
    s->nblk = (n - 1) / (32 * BAND) + 1;
    s->prefix = calloc((size_t)s->nblk * DIV, sizeof *s->prefix);
    if (!s->prefix) return -1;
    /* bucketcount: CTA b's one warp walks elements b * 32 + lane + k * 32 * nblk */
    uint32_t stride = 32 * s->nblk, key[MW_WARP_SIZE];
    for (uint32_t i = 0; i < n; i++) s->bucket[i] = (uint16_t)bucket_of(s, s->data[i], NULL);
    for (uint32_t b = 0; b < s->nblk; b++) {
        uint32_t *c = s->prefix + (size_t)b * DIV;
        for (uint32_t base = b * 32; base < n; base += stride) {
            uint32_t pend = 0;
            for (int l = 0; l < MW_WARP_SIZE; l++)
                if (base + (uint32_t)l < n) pend |= 1u << l, key[l] = s->bucket[base + l];
            while (pend) {
                uint32_t left = tag_round(pend, key);
                FOR_LANES(pend & ~left, l) s->rank[base + l] = c[key[l]]++;
                pend = left;
            }
        }
    }
    /* bucketprefixoffset, then the host's offsets and padding */
    for (uint32_t d = 0; d < DIV; d++) {
        uint32_t sum = 0;
        for (uint32_t b = 0; b < s->nblk; b++) {
            uint32_t x = s->prefix[(size_t)b * DIV + d];
            s->prefix[(size_t)b * DIV + d] = sum;
            sum += x;
        }
        s->cnt[d] = sum;
    }
    s->orig[0] = s->start4[0] = 0;
    s->L4 = 0;
    for (uint32_t d = 0; d < DIV; d++) {
        s->orig[d + 1] = s->orig[d] + s->cnt[d];
        s->nulls[d] = s->cnt[d] % 4 ? (s->cnt[d] & ~3u) + 4 - s->cnt[d] : 0;
        uint32_t sz = (s->cnt[d] + s->nulls[d]) / 4;
        s->loff[d] = s->start4[d] * 4;
        s->start4[d + 1] = s->start4[d] + sz;
        if (sz > s->L4) s->L4 = sz;
    }
    s->list4 = s->start4[DIV];
    s->bucketed = calloc((size_t)s->list4 * 4, sizeof *s->bucketed);
    if (!s->bucketed) return -1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = (i % stride) / 32, d = s->bucket[i];
        s->bucketed[s->loff[d] + s->prefix[(size_t)b * DIV + d] + s->rank[i]] = s->data[i];
    }
    /* mergeSortFirst, then the passes on a working copy */
    float *cur = malloc((size_t)s->list4 * 16), *nxt = malloc((size_t)s->list4 * 16);
    if (!cur || !nxt) {
        free(cur), free(nxt);
        return -1;
    }
    memcpy(cur, s->bucketed, (size_t)s->list4 * 16);
    for (uint32_t q = 0; q < s->list4; q++) qsort(cur + 4 * q, 4, sizeof(float), cmpf);
    s->p = calloc(40, sizeof *s->p);
    if (!s->p) goto oom;
    for (uint32_t nr = 2;; nr *= 2) {
        struct mpass *P = &s->p[s->np++];
        P->nr = nr;
        P->tpd = (uint32_t)ceil((double)s->L4 * 4 / (double)(nr * 4));
        uint64_t need = (uint64_t)P->tpd * DIV;
        P->thr = MTHR;
        P->grid = (uint32_t)((need + MTHR - 1) / MTHR);
        if (P->grid < 8) P->grid = 8, P->thr = (uint32_t)((need + 7) / 8);
        uint64_t nt = (uint64_t)P->grid * P->thr, nbits = 0;
        P->kind = calloc(nt, 1), P->iters = calloc(nt, 4), P->bit = calloc(nt, 8);
        P->bits = calloc((size_t)s->list4 / 64 + 2, 8);
        if (!P->kind || !P->iters || !P->bit || !P->bits) goto oom;
        memcpy(nxt, cur, (size_t)s->list4 * 16);
        uint32_t half = nr / 2;
        for (uint64_t t = 0; t < nt; t++) {
            uint64_t div = t / P->tpd;
            if (div >= DIV) continue;
            uint32_t A = s->start4[div] + (uint32_t)(t - div * P->tpd) * nr, end = s->start4[div + 1], B = A + half;
            if (A >= end) continue;
            if (B >= end) {
                P->kind[t] = 1, P->iters[t] = end - A;
                continue;
            }
            uint32_t lb = end - B < half ? end - B : half;
            P->kind[t] = 2, P->iters[t] = half + lb - 1, P->bit[t] = nbits;
            /* the loop's choice: advance A while both runs have elements left and nextA.x < nextB.x */
            uint32_t ai = 0, bi = 0, o = 4 * A;
            const float *ra = cur + 4 * (size_t)A, *rb = cur + 4 * (size_t)B;
            for (uint32_t it = 0; it + 1 < P->iters[t]; it++) {
                bool la = ai + 1 < half, lbl = bi + 1 < lb, takeA = la && (!lbl || ra[4 * (ai + 1)] < rb[4 * (bi + 1)]);
                if (takeA) P->bits[nbits >> 6] |= 1ull << (nbits & 63), ai++;
                else bi++;
                nbits++;
            }
            /* the merged run, as the network leaves it: sorted */
            uint32_t x = 0, y = 0, na = 4 * half, nb = 4 * lb;
            while (x < na || y < nb) nxt[o++] = (y >= nb || (x < na && ra[x] <= rb[y])) ? ra[x++] : rb[y++];
        }
        float *tmp = cur;
        cur = nxt, nxt = tmp;
        if (P->tpd == 1 || s->np == 40) break;
    }
    free(cur), free(nxt);
    return 0;
oom:
    free(cur), free(nxt);
    return -1;
}

struct mslaunch {
    const struct ms *s;
    const struct mpass *P;
    uint64_t src, dst;
};

struct mwarp {
    int line;
    uint32_t a, b, c, pend;
    int64_t it, k, j, r;
    uint64_t pos[MW_WARP_SIZE];
    uint32_t key[MW_WARP_SIZE], path[MW_WARP_SIZE][10], ai[MW_WARP_SIZE], bi[MW_WARP_SIZE];
};

#define PC(i) ((uint64_t)(i) * 16u)

static void sh(struct mw_inst *o, uint64_t pc, uint8_t op, uint32_t mask, uint16_t r, uint16_t a)
{
    gi_head(o, pc, op, mask);
    o->width = 4, o->nsrc = 1, o->src[0] = a;
    if (op == MW_OP_LD_SHARED) o->ndst = 1, o->dst[0] = r;
    else o->nsrc = 2, o->src[1] = r;
}

/* histogram1024Kernel: zero s_Hist (6144 words, 32 per thread), then for (pos = gtid; pos < n; pos += 12288)
 * addData1024(s_Hist + warpBase, bin(d_Data[pos])); then per bin pos = tid, tid + 192, ...: sum of the 6 warps'
 * counts, atomicAdd(d_Result + pos, sum). */
static int gen_hist(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                    struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct mslaunch *L = k->data;
    const struct ms *s = L->s;
    struct mwarp *w = scratch;
    const uint32_t tid0 = t0->tid[0], wb = (tid0 / 32) * 1024 * 4;
    CO_BEGIN(w);
    for (w->it = 0; w->it < 4; w->it++) {
        gi_alu(o, PC(w->it), mask, (uint16_t)(1 + w->it), 0, 0); /* gtid, numThreads, warpBase, threadTag */
        CO_YIELD(w);
    }
    for (w->it = 0; w->it < 6144 / HTHR; w->it++) {
        sh(o, PC(4), MW_OP_ST_SHARED, mask, 0, 5);
        FOR_LANES(mask, l) o->addr[l] = (tid0 + (uint64_t)l + (uint64_t)w->it * HTHR) * 4;
        CO_YIELD(w);
        gi_alu(o, PC(5), mask, 5, 5, 0);
        CO_YIELD(w);
        gi_br(o, PC(6), mask, 5, 0);
        CO_YIELD(w);
    }
    gi_head(o, PC(7), MW_OP_BARRIER, mask);
    CO_YIELD(w);
    for (w->k = 0;; w->k++) {
        w->a = 0;
        FOR_LANES(mask, l)
        {
            w->pos[l] = t0->gtid + (uint64_t)l + (uint64_t)w->k * HBLK * HTHR;
            if (w->pos[l] < s->n) w->a |= 1u << l, w->key[l] = s->bin[w->pos[l]];
        }
        gi_br(o, PC(8), mask, 6, 2); /* pos < dataN */
        CO_YIELD(w);
        if (!w->a) break;
        gi_ld(o, PC(9), w->a, 4, 7, 6);
        FOR_LANES(w->a, l) o->addr[l] = s->input + w->pos[l] * 4;
        CO_YIELD(w);
        for (w->j = 0; w->j < 4; w->j++) {
            gi_alu(o, PC(10 + w->j), w->a, 7, 7, 0); /* - min, / (max - min), * 1024, & 0x3ff */
            CO_YIELD(w);
        }
        for (w->pend = w->a; w->pend;) {
            sh(o, PC(14), MW_OP_LD_SHARED, w->pend, 8, 7);
            FOR_LANES(w->pend, l) o->addr[l] = wb + w->key[l] * 4ull;
            CO_YIELD(w);
            gi_alu(o, PC(15), w->pend, 8, 8, 4);
            CO_YIELD(w);
            sh(o, PC(16), MW_OP_ST_SHARED, w->pend, 8, 7);
            FOR_LANES(w->pend, l) o->addr[l] = wb + w->key[l] * 4ull;
            CO_YIELD(w);
            sh(o, PC(17), MW_OP_LD_SHARED, w->pend, 9, 7);
            FOR_LANES(w->pend, l) o->addr[l] = wb + w->key[l] * 4ull;
            CO_YIELD(w);
            w->b = tag_round(w->pend, w->key);
            gi_br(o, PC(18), w->pend, 9, 8);
            CO_YIELD(w);
            w->pend = w->b;
        }
        gi_alu(o, PC(19), w->a, 6, 6, 2);
        CO_YIELD(w);
    }
    gi_head(o, PC(20), MW_OP_BARRIER, mask);
    CO_YIELD(w);
    for (w->k = 0;; w->k++) {
        GR_WHERE(w->a, mask, l, tid0 + (uint64_t)l + (uint64_t)w->k * HTHR < 1024);
        gi_br(o, PC(21), mask, 10, 0);
        CO_YIELD(w);
        if (!w->a) break;
        for (w->j = 0; w->j < 6; w->j++) {
            sh(o, PC(22 + 2 * w->j), MW_OP_LD_SHARED, w->a, 11, 10);
            FOR_LANES(w->a, l) o->addr[l] = ((uint64_t)w->j * 1024 + tid0 + (uint64_t)l + (uint64_t)w->k * HTHR) * 4;
            CO_YIELD(w);
            gi_alu(o, PC(23 + 2 * w->j), w->a, 12, 12, 11);
            CO_YIELD(w);
        }
        gi_atom(o, PC(34), w->a, 0, 10, 12);
        FOR_LANES(w->a, l) o->addr[l] = s->hist + (tid0 + (uint64_t)l + (uint64_t)w->k * HTHR) * 4;
        CO_YIELD(w);
        gi_alu(o, PC(35), w->a, 10, 10, 0);
        CO_YIELD(w);
    }
    CO_END(w);
}
enum { HIST_INSTS = 36 };

/* bucketcount: zero s_offset (1024 words), then per element: the pivot search (10 texture fetches), addOffset,
 * indice[tid] = (rank << 10) + bucket; then d_prefixoffsets[blockIdx.x * 1024 + i] = s_offset[i]. */
static int gen_count(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                     struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct mslaunch *L = k->data;
    const struct ms *s = L->s;
    struct mwarp *w = scratch;
    const uint32_t stride = 32 * s->nblk;
    CO_BEGIN(w);
    for (w->it = 0; w->it < 3; w->it++) {
        gi_alu(o, PC(w->it), mask, (uint16_t)(1 + w->it), 0, 0);
        CO_YIELD(w);
    }
    for (w->it = 0; w->it < DIV / 32; w->it++) {
        sh(o, PC(3), MW_OP_ST_SHARED, mask, 0, 4);
        FOR_LANES(mask, l) o->addr[l] = ((uint64_t)l + (uint64_t)w->it * 32) * 4;
        CO_YIELD(w);
        gi_alu(o, PC(4), mask, 4, 4, 0);
        CO_YIELD(w);
        gi_br(o, PC(5), mask, 4, 0);
        CO_YIELD(w);
    }
    gi_head(o, PC(6), MW_OP_BARRIER, mask);
    CO_YIELD(w);
    for (w->k = 0;; w->k++) {
        w->a = 0;
        FOR_LANES(mask, l)
        {
            w->pos[l] = t0->gtid + (uint64_t)l + (uint64_t)w->k * stride;
            if (w->pos[l] < s->n) w->a |= 1u << l;
        }
        gi_br(o, PC(7), mask, 1, 2);
        CO_YIELD(w);
        if (!w->a) break;
        gi_ld(o, PC(8), w->a, 4, 5, 1); /* elem = input[tid] */
        FOR_LANES(w->a, l) o->addr[l] = s->input + w->pos[l] * 4;
        CO_YIELD(w);
        FOR_LANES(w->a, l) w->key[l] = bucket_of(s, s->data[w->pos[l]], w->path[l]);
        gi_alu(o, PC(9), w->a, 6, 0, 0); /* idx = 511 */
        CO_YIELD(w);
        gi_ld(o, PC(10), w->a, 4, 7, 6);
        FOR_LANES(w->a, l) o->addr[l] = s->pivots + w->path[l][0] * 4ull;
        CO_YIELD(w);
        for (w->j = 1; w->j < 10; w->j++) {
            gi_alu(o, PC(11), w->a, 6, 5, 7); /* idx = elem < piv ? idx - jump : idx + jump */
            CO_YIELD(w);
            gi_ld(o, PC(12), w->a, 4, 7, 6);
            FOR_LANES(w->a, l) o->addr[l] = s->pivots + w->path[l][w->j] * 4ull;
            CO_YIELD(w);
            gi_alu(o, PC(13), w->a, 8, 8, 0); /* jump >>= 1 */
            CO_YIELD(w);
            gi_br(o, PC(14), w->a, 8, 0);
            CO_YIELD(w);
        }
        gi_alu(o, PC(15), w->a, 6, 5, 7);
        CO_YIELD(w);
        for (w->pend = w->a; w->pend;) {
            sh(o, PC(16), MW_OP_LD_SHARED, w->pend, 9, 6);
            FOR_LANES(w->pend, l) o->addr[l] = w->key[l] * 4ull;
            CO_YIELD(w);
            gi_alu(o, PC(17), w->pend, 9, 9, 3);
            CO_YIELD(w);
            sh(o, PC(18), MW_OP_ST_SHARED, w->pend, 9, 6);
            FOR_LANES(w->pend, l) o->addr[l] = w->key[l] * 4ull;
            CO_YIELD(w);
            sh(o, PC(19), MW_OP_LD_SHARED, w->pend, 10, 6);
            FOR_LANES(w->pend, l) o->addr[l] = w->key[l] * 4ull;
            CO_YIELD(w);
            w->b = tag_round(w->pend, w->key);
            gi_br(o, PC(20), w->pend, 10, 9);
            CO_YIELD(w);
            w->pend = w->b;
        }
        gi_alu(o, PC(21), w->a, 11, 9, 6);
        CO_YIELD(w);
        gi_st(o, PC(22), w->a, 4, 1, 11);
        FOR_LANES(w->a, l) o->addr[l] = s->indice + w->pos[l] * 4;
        CO_YIELD(w);
        gi_alu(o, PC(23), w->a, 1, 1, 2);
        CO_YIELD(w);
    }
    gi_head(o, PC(24), MW_OP_BARRIER, mask);
    CO_YIELD(w);
    for (w->it = 0; w->it < DIV / 32; w->it++) {
        sh(o, PC(25), MW_OP_LD_SHARED, mask, 12, 4);
        FOR_LANES(mask, l) o->addr[l] = ((uint64_t)l + (uint64_t)w->it * 32) * 4;
        CO_YIELD(w);
        gi_alu(o, PC(26), mask, 12, 12, 0);
        CO_YIELD(w);
        gi_st(o, PC(27), mask, 4, 4, 12);
        FOR_LANES(mask, l) o->addr[l] = s->prefixes + ((uint64_t)t0->ctaid[0] * DIV + (uint64_t)l + (uint64_t)w->it * 32) * 4;
        CO_YIELD(w);
        gi_alu(o, PC(28), mask, 4, 4, 0);
        CO_YIELD(w);
        gi_br(o, PC(29), mask, 4, 0);
        CO_YIELD(w);
    }
    CO_END(w);
}
enum { COUNT_INSTS = 30 };

/* bucketprefixoffset: for (i = tid; i < blocks * 1024; i += 1024) { x = pre[i]; pre[i] = sum; sum += x; }
 * d_offsets[tid] = sum */
static int gen_prefix(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                      struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct mslaunch *L = k->data;
    const struct ms *s = L->s;
    struct mwarp *w = scratch;
    CO_BEGIN(w);
    gi_alu(o, PC(0), mask, 1, 0, 0);
    CO_YIELD(w);
    gi_alu(o, PC(1), mask, 2, 0, 0);
    CO_YIELD(w);
    for (w->it = 0;; w->it++) {
        gi_br(o, PC(2), mask, 1, 2);
        CO_YIELD(w);
        if (w->it >= s->nblk) break;
        gi_ld(o, PC(3), mask, 4, 3, 1);
        FOR_LANES(mask, l) o->addr[l] = s->prefixes + (t0->gtid + (uint64_t)l + (uint64_t)w->it * DIV) * 4;
        CO_YIELD(w);
        gi_st(o, PC(4), mask, 4, 1, 4);
        FOR_LANES(mask, l) o->addr[l] = s->prefixes + (t0->gtid + (uint64_t)l + (uint64_t)w->it * DIV) * 4;
        CO_YIELD(w);
        gi_alu(o, PC(5), mask, 4, 4, 3);
        CO_YIELD(w);
        gi_alu(o, PC(6), mask, 1, 1, 0);
        CO_YIELD(w);
    }
    gi_st(o, PC(7), mask, 4, 1, 4);
    FOR_LANES(mask, l) o->addr[l] = s->offsets + (t0->gtid + (uint64_t)l) * 4;
    CO_YIELD(w);
    CO_END(w);
}
enum { PREFIX_INSTS = 8 };

/* bucketsort: s_offset[i] = l_offsets[i] + d_prefixoffsets[blockIdx.x * 1024 + i]; then per element
 * output[s_offset[id & 1023] + (id >> 10)] = input[tid] with id = indice[tid] */
static int gen_scatter(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                       struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct mslaunch *L = k->data;
    const struct ms *s = L->s;
    struct mwarp *w = scratch;
    const uint32_t stride = 32 * s->nblk, blk = t0->ctaid[0];
    CO_BEGIN(w);
    for (w->it = 0; w->it < 3; w->it++) {
        gi_alu(o, PC(w->it), mask, (uint16_t)(1 + w->it), 0, 0);
        CO_YIELD(w);
    }
    for (w->it = 0; w->it < DIV / 32; w->it++) {
        gi_alu(o, PC(3), mask, 4, 4, 0);
        CO_YIELD(w);
        gi_ld(o, PC(4), mask, 4, 5, 4);
        FOR_LANES(mask, l) o->addr[l] = s->loffsets + ((uint64_t)l + (uint64_t)w->it * 32) * 4;
        CO_YIELD(w);
        gi_ld(o, PC(5), mask, 4, 6, 4);
        FOR_LANES(mask, l) o->addr[l] = s->prefixes + ((uint64_t)blk * DIV + (uint64_t)l + (uint64_t)w->it * 32) * 4;
        CO_YIELD(w);
        gi_alu(o, PC(6), mask, 5, 5, 6);
        CO_YIELD(w);
        sh(o, PC(7), MW_OP_ST_SHARED, mask, 5, 4);
        FOR_LANES(mask, l) o->addr[l] = ((uint64_t)l + (uint64_t)w->it * 32) * 4;
        CO_YIELD(w);
        gi_alu(o, PC(8), mask, 4, 4, 0);
        CO_YIELD(w);
        gi_br(o, PC(9), mask, 4, 0);
        CO_YIELD(w);
    }
    gi_head(o, PC(10), MW_OP_BARRIER, mask);
    CO_YIELD(w);
    for (w->k = 0;; w->k++) {
        w->a = 0;
        FOR_LANES(mask, l)
        {
            w->pos[l] = t0->gtid + (uint64_t)l + (uint64_t)w->k * stride;
            if (w->pos[l] < s->n) w->a |= 1u << l;
        }
        gi_br(o, PC(11), mask, 1, 2);
        CO_YIELD(w);
        if (!w->a) break;
        gi_ld(o, PC(12), w->a, 4, 7, 1);
        FOR_LANES(w->a, l) o->addr[l] = s->input + w->pos[l] * 4;
        CO_YIELD(w);
        gi_ld(o, PC(13), w->a, 4, 8, 1);
        FOR_LANES(w->a, l) o->addr[l] = s->indice + w->pos[l] * 4;
        CO_YIELD(w);
        gi_alu(o, PC(14), w->a, 9, 8, 0);
        CO_YIELD(w);
        sh(o, PC(15), MW_OP_LD_SHARED, w->a, 10, 9);
        FOR_LANES(w->a, l) o->addr[l] = s->bucket[w->pos[l]] * 4ull;
        CO_YIELD(w);
        gi_alu(o, PC(16), w->a, 10, 10, 8);
        CO_YIELD(w);
        gi_st(o, PC(17), w->a, 4, 10, 7);
        FOR_LANES(w->a, l)
        {
            uint64_t i = w->pos[l], d = s->bucket[i];
            o->addr[l] = s->output + (s->loff[d] + s->prefix[(size_t)blk * DIV + d] + s->rank[i]) * 4ull;
        }
        CO_YIELD(w);
        gi_alu(o, PC(18), w->a, 1, 1, 2);
        CO_YIELD(w);
    }
    CO_END(w);
}
enum { SCATTER_INSTS = 19 };

/* mergeSortFirst: if (gtid < listsize / 4) result[gtid] = sortElem(tex1Dfetch(tex, gtid)) */
static int gen_first(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                     struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct mslaunch *L = k->data;
    const struct ms *s = L->s;
    struct mwarp *w = scratch;
    CO_BEGIN(w);
    gi_alu(o, PC(0), mask, 1, 0, 0);
    CO_YIELD(w);
    gi_alu(o, PC(1), mask, 2, 0, 0);
    CO_YIELD(w);
    GR_WHERE(w->a, mask, l, t0->gtid + (uint64_t)l < s->list4);
    gi_br(o, PC(2), mask, 1, 2);
    CO_YIELD(w);
    if (!w->a) goto done;
    gi_ld(o, PC(3), w->a, 16, 3, 1);
    FOR_LANES(w->a, l) o->addr[l] = L->src + (t0->gtid + (uint64_t)l) * 16;
    CO_YIELD(w);
    for (w->j = 0; w->j < 10; w->j++) { /* sortElem: 10 fminf / fmaxf */
        gi_alu(o, PC(4 + w->j), w->a, (uint16_t)(4 + w->j % 4), 3, (uint16_t)(4 + (w->j + 1) % 4));
        CO_YIELD(w);
    }
    gi_st(o, PC(14), w->a, 16, 1, 4);
    FOR_LANES(w->a, l) o->addr[l] = L->dst + (t0->gtid + (uint64_t)l) * 16;
    CO_YIELD(w);
done:
    CO_END(w);
}
enum { FIRST_INSTS = 15 };

static bool pbit(const struct mpass *P, uint64_t i) { return P->bits[i >> 6] >> (i & 63) & 1u; }

/* mergeSortPass: see the file's head; the thread's kind, trips and choices come from the host's merge. */
static int gen_pass(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                    struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct mslaunch *L = k->data;
    const struct ms *s = L->s;
    const struct mpass *P = L->P;
    struct mwarp *w = scratch;
    const uint32_t half = P->nr / 2;
#define TID(l) (t0->gtid + (uint64_t)(l))
#define DIVN(l) (TID(l) / P->tpd)
#define ASTART(l) (s->start4[DIVN(l)] + (TID(l) - DIVN(l) * P->tpd) * (uint64_t)P->nr)
    CO_BEGIN(w);
    gi_alu(o, PC(0), mask, 1, 0, 0);
    CO_YIELD(w);
    gi_alu(o, PC(1), mask, 2, 1, 0);
    CO_YIELD(w);
    GR_WHERE(w->a, mask, l, DIVN(l) < DIV);
    gi_br(o, PC(2), mask, 2, 0);
    CO_YIELD(w);
    if (!w->a) goto done;
    gi_alu(o, PC(3), w->a, 3, 1, 2);
    CO_YIELD(w);
    gi_op(o, PC(4), MW_OP_LD_CONST, w->a, 4, 2, 0); /* constStartAddr[division] */
    CO_YIELD(w);
    gi_alu(o, PC(5), w->a, 4, 4, 3);
    CO_YIELD(w);
    gi_op(o, PC(6), MW_OP_LD_CONST, w->a, 5, 2, 0);
    CO_YIELD(w);
    GR_WHERE(w->b, w->a, l, P->kind[TID(l)] != 0);
    gi_br(o, PC(7), w->a, 4, 5);
    CO_YIELD(w);
    if (!w->b) goto done;
    gi_alu(o, PC(8), w->b, 6, 4, 0);
    CO_YIELD(w);
    gi_alu(o, PC(9), w->b, 7, 4, 0);
    CO_YIELD(w);
    GR_WHERE(w->c, w->b, l, P->kind[TID(l)] == 1);
    gi_br(o, PC(10), w->b, 6, 5);
    CO_YIELD(w);
    if (w->c) { /* no B run: copy the A run */
        gi_alu(o, PC(11), w->c, 8, 5, 4);
        CO_YIELD(w);
        for (w->it = 0;; w->it++) {
            GR_WHERE(w->pend, w->c, l, w->it < P->iters[TID(l)]);
            gi_br(o, PC(12), w->c, 9, 8);
            CO_YIELD(w);
            if (!w->pend) break;
            gi_ld(o, PC(13), w->pend, 16, 10, 9);
            FOR_LANES(w->pend, l) o->addr[l] = L->src + (ASTART(l) + (uint64_t)w->it) * 16;
            CO_YIELD(w);
            gi_st(o, PC(14), w->pend, 16, 9, 10);
            FOR_LANES(w->pend, l) o->addr[l] = L->dst + (ASTART(l) + (uint64_t)w->it) * 16;
            CO_YIELD(w);
            gi_alu(o, PC(15), w->pend, 9, 9, 0);
            CO_YIELD(w);
        }
    }
    w->b &= ~w->c;
    if (!w->b) goto done;
    gi_ld(o, PC(16), w->b, 16, 10, 4); /* a = tex(Astart) */
    FOR_LANES(w->b, l) o->addr[l] = L->src + ASTART(l) * 16;
    CO_YIELD(w);
    gi_ld(o, PC(17), w->b, 16, 11, 6); /* b = tex(Bstart) */
    FOR_LANES(w->b, l) o->addr[l] = L->src + (ASTART(l) + half) * 16;
    CO_YIELD(w);
    gi_alu(o, PC(18), w->b, 12, 0, 0);
    CO_YIELD(w);
    FOR_LANES(w->b, l) w->ai[l] = w->bi[l] = 0;
    for (w->it = 0;; w->it++) {
        GR_WHERE(w->pend, w->b, l, w->it < P->iters[TID(l)]);
        if (!w->pend) break;
        gi_ld(o, PC(19), w->pend, 16, 13, 4); /* nextA */
        FOR_LANES(w->pend, l) o->addr[l] = L->src + (ASTART(l) + w->ai[l] + 1) * 16;
        CO_YIELD(w);
        gi_ld(o, PC(20), w->pend, 16, 14, 6); /* nextB */
        FOR_LANES(w->pend, l) o->addr[l] = L->src + (ASTART(l) + half + w->bi[l] + 1) * 16;
        CO_YIELD(w);
        for (w->j = 0; w->j < 28; w->j++) { /* getLowest, getHighest (4 each), two sortElem (10 each) */
            gi_alu(o, PC(21 + w->j), w->pend, (uint16_t)(15 + w->j % 8), 10, 11);
            CO_YIELD(w);
        }
        gi_st(o, PC(49), w->pend, 16, 7, 15);
        FOR_LANES(w->pend, l) o->addr[l] = L->dst + (ASTART(l) + (uint64_t)w->it) * 16;
        CO_YIELD(w);
        gi_alu(o, PC(50), w->pend, 7, 7, 0);
        CO_YIELD(w);
        gi_alu(o, PC(51), w->pend, 24, 12, 0);
        CO_YIELD(w);
        gi_alu(o, PC(52), w->pend, 25, 12, 5);
        CO_YIELD(w);
        gi_br(o, PC(53), w->pend, 24, 0);
        CO_YIELD(w);
        gi_br(o, PC(54), w->pend, 13, 14); /* nextA.x < nextB.x */
        CO_YIELD(w);
        FOR_LANES(w->pend, l)
        {
            if ((uint64_t)w->it + 1 >= P->iters[TID(l)]) continue;
            if (pbit(P, P->bit[TID(l)] + (uint64_t)w->it)) w->ai[l]++;
            else w->bi[l]++;
        }
        gi_alu(o, PC(55), w->pend, 26, 13, 14);
        CO_YIELD(w);
        gi_br(o, PC(56), w->pend, 24, 25);
        CO_YIELD(w);
    }
    gi_st(o, PC(57), w->b, 16, 7, 11); /* resStart[outidx] = b */
    FOR_LANES(w->b, l) o->addr[l] = L->dst + (ASTART(l) + P->iters[TID(l)]) * 16;
    CO_YIELD(w);
done:
    CO_END(w);
#undef TID
#undef DIVN
#undef ASTART
}
enum { PASS_INSTS = 58 };

/* mergepack: idx = blockIdx.x * 256 + threadIdx.x, division = blockIdx.y; outPos = finalStartAddr[division] +
 * idx; if (outPos < finalStartAddr[division + 1]) result[outPos] = orig[constStartAddr[division] * 4 +
 * nullElems[division] + idx] */
static int gen_pack(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
                    struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct mslaunch *L = k->data;
    const struct ms *s = L->s;
    struct mwarp *w = scratch;
    const uint32_t d = t0->ctaid[1];
    const uint64_t idx0 = (uint64_t)t0->ctaid[0] * t0->ntid[0] + t0->tid[0];
    CO_BEGIN(w);
    gi_alu(o, PC(0), mask, 1, 0, 0);
    CO_YIELD(w);
    gi_op(o, PC(1), MW_OP_LD_CONST, mask, 2, 0, 0);
    CO_YIELD(w);
    gi_op(o, PC(2), MW_OP_LD_CONST, mask, 3, 0, 0);
    CO_YIELD(w);
    gi_alu(o, PC(3), mask, 4, 2, 1);
    CO_YIELD(w);
    GR_WHERE(w->a, mask, l, s->orig[d] + idx0 + (uint64_t)l < s->orig[d + 1]);
    gi_br(o, PC(4), mask, 4, 3);
    CO_YIELD(w);
    if (!w->a) goto done;
    gi_op(o, PC(5), MW_OP_LD_CONST, w->a, 5, 0, 0);
    CO_YIELD(w);
    gi_op(o, PC(6), MW_OP_LD_CONST, w->a, 6, 0, 0);
    CO_YIELD(w);
    gi_alu(o, PC(7), w->a, 7, 5, 6);
    CO_YIELD(w);
    gi_ld(o, PC(8), w->a, 4, 8, 7);
    FOR_LANES(w->a, l) o->addr[l] = L->src + ((uint64_t)s->start4[d] * 4 + s->nulls[d] + idx0 + (uint64_t)l) * 4;
    CO_YIELD(w);
    gi_st(o, PC(9), w->a, 4, 4, 8);
    FOR_LANES(w->a, l) o->addr[l] = L->dst + (s->orig[d] + idx0 + (uint64_t)l) * 4;
    CO_YIELD(w);
done:
    CO_END(w);
}
enum { PACK_INSTS = 10 };

struct msown {
    struct ms *s;
    struct mslaunch *l;
};
static void own_free(void *p)
{
    struct msown *o = p;
    if (!o) return;
    ms_free(o->s), free(o->l), free(o);
}

static struct mw_kgen_kernel *add(struct mw_kgen_program *p, const char *name, uint32_t gx, uint32_t gy,
                                  uint32_t bx, uint32_t regs, uint32_t shmem, const struct mslaunch *L,
                                  int (*gen)(const struct mw_kgen_kernel *, const struct mw_tctx *, uint32_t, void *,
                                             struct mw_inst *, struct mw_err *),
                                  uint32_t ninsts)
{
    struct mw_kgen_kernel *k = mw_kgen_append(p);
    if (!k) return NULL;
    snprintf(k->k.name, sizeof k->k.name, "%s", name);
    k->k.grid[0] = gx, k->k.grid[1] = gy, k->k.grid[2] = 1;
    k->k.block[0] = bx, k->k.block[1] = k->k.block[2] = 1;
    k->k.nregs = regs, k->k.shmem = shmem;
    k->data = L, k->custom = gen, k->ninsts = ninsts, k->scratch_bytes = sizeof(struct mwarp);
    return k;
}

int mw_wl_rodinia_mergesort(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    /* elements; Rodinia's run sorts a static list of tens of millions of floats (the OpenCL version's SIZE is
     * 128,024,000), far past a simulation budget: default 2^20 floats (4 MB, five times the L2) */
    static const uint32_t nel[4] = {16384, 131072, 1u << 20, 1u << 22};
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct msown *own = calloc(1, sizeof *own);
    struct ms *s = own ? calloc(1, sizeof *s) : NULL;
    if (!s) {
        free(own);
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    }
    own->s = s;
    struct mw_kgen_program p = {.owned = own, .free_owned = own_free};
    uint32_t n = s->n = nel[sz];
    s->data = malloc((size_t)n * 4), s->bin = malloc((size_t)n * 2), s->bucket = malloc((size_t)n * 2);
    s->rank = malloc((size_t)n * 4);
    if (!s->data || !s->bin || !s->bucket || !s->rank) goto oom;
    for (uint32_t i = 0; i < n; i++) s->data[i] = mw_wl_mergesort_value(seed, i);
    if (ms_host(s) != 0) goto oom;
    uint64_t top = 0x10000000ull; /* hybridsort's cudaMalloc order */
    uint64_t lbytes = ((uint64_t)n + DIV * 4) * 4;
    s->input = gr_alloc(&top, lbytes), s->output = gr_alloc(&top, lbytes);
    s->hist = gr_alloc(&top, 1024 * 4), s->pivots = gr_alloc(&top, DIV * 4);
    s->indice = gr_alloc(&top, (uint64_t)n * 4), s->prefixes = gr_alloc(&top, (uint64_t)s->nblk * DIV * 4);
    s->offsets = gr_alloc(&top, DIV * 4), s->loffsets = gr_alloc(&top, DIV * 4);
    own->l = calloc((size_t)s->np + 3, sizeof *own->l);
    if (!own->l) goto oom;
    struct mslaunch *L0 = &own->l[0];
    *L0 = (struct mslaunch){s, NULL, 0, 0};
    if (!add(&p, "histogram1024Kernel", HBLK, 1, HTHR, 14, 6 * 1024 * 4, L0, gen_hist, HIST_INSTS) ||
        !add(&p, "bucketcount", s->nblk, 1, 32, 18, DIV * 4, L0, gen_count, COUNT_INSTS) ||
        !add(&p, "bucketprefixoffset", DIV / 128, 1, 128, 8, 0, L0, gen_prefix, PREFIX_INSTS) ||
        !add(&p, "bucketsort", s->nblk, 1, 32, 12, DIV * 4, L0, gen_scatter, SCATTER_INSTS))
        goto oom;
    /* merge sort: d_origList = the bucket sort's output, d_resultList = d_input; each pass swaps them */
    uint64_t orig = s->output, res = s->input;
    own->l[1] = (struct mslaunch){s, NULL, orig, res};
    if (!add(&p, "mergeSortFirst", (s->list4 + 255) / 256, 1, 256, 10, 0, &own->l[1], gen_first, FIRST_INSTS))
        goto oom;
    for (int i = 0; i < s->np; i++) {
        uint64_t t = orig;
        orig = res, res = t;
        struct mpass *P = &s->p[i];
        P->src = orig, P->dst = res;
        own->l[2 + i] = (struct mslaunch){s, P, orig, res};
        if (!add(&p, "mergeSortPass", P->grid, 1, P->thr, 24, 0, &own->l[2 + i], gen_pass, PASS_INSTS)) goto oom;
    }
    /* mergepack(d_resultList, d_origList) */
    own->l[2 + s->np] = (struct mslaunch){s, NULL, res, orig};
    uint32_t big = s->L4 * 4;
    if (!add(&p, "mergepack", (big + 255) / 256, DIV, 256, 8, 0, &own->l[2 + s->np], gen_pack, PACK_INSTS))
        goto oom;
    return mw_kgen_workload(w, "rodinia.mergesort", &p, e);
oom:
    return gr_fail(&p, e);
}
