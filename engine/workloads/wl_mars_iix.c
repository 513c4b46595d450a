/* Mars inverted index (He et al., PACT'08; sample_apps/InvertedIndex with MarsLib's MAP_GROUP workflow): seeded
 * HTML-like documents split by the host into records of at least 1 KB ending at a newline, one record per map
 * thread (256-thread blocks). MapperCount and Mapper scan their record byte by byte with the source's link state
 * machine (<a ... href="url">), Mapper hashing each url and emitting (key, file id) through EmitIntermediate;
 * three prefix sums size the output; the group phase bitonic-sorts the <offset, size> pointers by (hash, url)
 * with one bitonicKernel launch per (k, j) and finds the key boundaries. */
#include "kgen.h"
#include "wl_pml.h"
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>

#define BLK 256       /* DEFAULT_DIMBLOCK */
#define KEYSZ 16      /* sizeof(II_KEY_T): file_buf, url_offset, url_hash */
#define VALSZ 12      /* sizeof(II_VAL_T): block_offset, block_size, file_id */
#define QCAP 64

enum { ST_START, ST_IN_TAG, ST_IN_ATAG, ST_FOUND_HREF, ST_START_LINK };

/* ---- the synthetic documents and the host-side MapReduce they drive ---- */
struct iix {
    char *text;               /* all files, each 256 B aligned as its own cudaMalloc */
    uint64_t text_len;
    uint32_t nfiles, nrec, nlinks;
    uint32_t *rec_off, *rec_size, *rec_file; /* record start (in text), size, file */
    uint32_t *rec_links;      /* links emitted by each record; prefix: first link of each record */
    uint32_t *rec_first;
    uint32_t *link_off;       /* url start (in text) of every link, in emission order */
    uint32_t *link_len;
    int32_t *link_hash;
    uint32_t R, levels;       /* bitonic: padded record count 2^levels */
    int32_t *snap;            /* d_R before every bitonic launch: levels (levels + 1) / 2 + 1 snapshots of R */
    uint32_t nsnap;
    uint32_t ngroups;
    uint8_t *bflag;           /* sorted position starts a new key */
    uint32_t *bsum;           /* exclusive prefix of bflag */
    /* device addresses */
    uint64_t files, in_keys, in_vals, in_os, cnt_k, cnt_v, cnt_c, ps_k, ps_v, ps_c, ikeys, ivals, ios, kvo, curi;
    uint64_t okeys, ovals, oos, dR, start, startsum, bound, range, sums;
    uint32_t threads;         /* map threads: grid * 256 */
};

static void iix_free(void *p)
{
    struct iix *m = p;
    if (!m) return;
    free(m->text), free(m->rec_off), free(m->rec_size), free(m->rec_file), free(m->rec_links), free(m->rec_first);
    free(m->link_off), free(m->link_len), free(m->link_hash), free(m->snap), free(m->bflag), free(m->bsum);
    free(m);
}

static const char *const words[] = {"the", "of", "and", "data", "graphics", "processor", "map", "reduce", "index",
                                    "search", "page", "web", "link", "parallel", "memory", "thread", "result",
                                    "news", "sports", "about", "contact", "home", "products", "a", "an", "at"};
#define NWORDS (sizeof words / sizeof words[0])

struct sbuf {
    char *p;
    uint64_t n, cap;
};
static int put(struct sbuf *b, const char *s, uint64_t len)
{
    if (b->n + len + 1 > b->cap) {
        uint64_t cap = b->cap ? b->cap * 2 : 1 << 20;
        while (cap < b->n + len + 1) cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) return -1;
        b->p = q, b->cap = cap;
    }
    memcpy(b->p + b->n, s, len);
    b->n += len;
    return 0;
}

/* One file: lines of words and tags; about a third of the lines hold a link to a url drawn with a skewed
 * (Zipf-like) popularity from 500 sites x 100 pages, so many urls repeat across files. */
static int gen_file(struct sbuf *b, uint64_t *s, uint64_t bytes)
{
    char tmp[256];
    uint64_t start = b->n;
    while (b->n - start < bytes) {
        int nw = 4 + (int)(pml_rand(s) % 12), link_at = pml_unif(s) < 0.45 ? (int)(pml_rand(s) % (uint64_t)nw) : -1;
        for (int w = 0; w < nw; w++) {
            int n = 0;
            if (w == link_at) {
                double u = pml_unif(s);
                unsigned site = (unsigned)(500.0 * u * u * u), page = (unsigned)(pml_rand(s) % 100);
                n = snprintf(tmp, sizeof tmp, "<a href=\"http://www.site%u.com/docs/page%u.html\">%s</a> ", site, page,
                             words[pml_rand(s) % NWORDS]);
            } else {
                uint64_t r = pml_rand(s) % 16;
                if (r == 0) n = snprintf(tmp, sizeof tmp, "<p>");
                else if (r == 1) n = snprintf(tmp, sizeof tmp, "<div class=\"c%u\">", (unsigned)(pml_rand(s) % 9));
                else if (r == 2) n = snprintf(tmp, sizeof tmp, "<img src=\"/i/%u.png\"> ", (unsigned)(pml_rand(s) % 99));
                else if (r == 3) n = snprintf(tmp, sizeof tmp, "<abbr>%s</abbr> ", words[pml_rand(s) % NWORDS]);
                else n = snprintf(tmp, sizeof tmp, "%s ", words[pml_rand(s) % NWORDS]);
            }
            if (put(b, tmp, (uint64_t)n)) return -1;
        }
        if (put(b, "\n", 1)) return -1;
    }
    return put(b, "", 0); /* keeps room for the terminating '\0' */
}

/* The link state machine's one-character steps (IN_ATAG's "href" look-ahead and START_LINK's scan to the closing
 * quote are their callers'). */
static int st_next(int st, char c)
{
    switch (st) {
    case ST_START: return c == '<' ? ST_IN_TAG : ST_START;
    case ST_IN_TAG: return c == 'a' ? ST_IN_ATAG : c == ' ' ? ST_IN_TAG : ST_START;
    case ST_IN_ATAG: return c == ' ' ? ST_IN_ATAG : ST_START;
    default: return (c == ' ' || c == '=') ? ST_FOUND_HREF : c == '"' ? ST_START_LINK : ST_START;
    }
}

/* The map function's state machine over one record: calls emit(url start, url length) for every link. Returns
 * the link count. */
static uint32_t scan_links(const char *buf, uint32_t size, uint32_t base, uint32_t *off, uint32_t *len)
{
    int st = ST_START;
    uint32_t n = 0;
    for (uint32_t j = 0; j < size; j++) {
        char c = buf[j];
        if (st == ST_IN_ATAG && c == 'h') {
            if (memcmp(buf + j, "href", 4) == 0 && buf[j + 4] != '\0') st = ST_FOUND_HREF, j += 3;
            else st = ST_START;
        } else if (st == ST_START_LINK) {
            uint32_t e = j;
            while (buf[e] != '"') e++;
            if (off) off[n] = base + j, len[n] = e - j;
            n++;
            j = e;
            st = ST_START;
        } else st = st_next(st, c);
    }
    return n;
}

static int32_t url_hash(const char *s, uint32_t len)
{
    int32_t h = (int32_t)len;
    for (uint32_t i = 0; i < len; i++) h = (int32_t)((uint32_t)h << 4) ^ (h >> 28) ^ (int32_t)s[i];
    return h;
}

/* getCompareValue on two pointer entries (link numbers, -1 = padding); *chars = string-loop iterations. */
static int cmp_links(const struct iix *m, int32_t a, int32_t b, uint32_t *chars)
{
    *chars = 0;
    if (a == -1 || b == -1) return a == b ? 0 : a == -1 ? -1 : 1;
    int32_t ha = m->link_hash[a], hb = m->link_hash[b];
    if (ha != hb) return ha > hb ? 1 : -1;
    /* the urls end with the '\0' Mapper wrote over the closing quote */
    const char *u1 = m->text + m->link_off[a], *u2 = m->text + m->link_off[b];
    uint32_t l1 = m->link_len[a], l2 = m->link_len[b], i = 0;
    for (;; i++) {
        char c1 = i < l1 ? u1[i] : '\0', c2 = i < l2 ? u2[i] : '\0';
        if (!(c1 == c2 && c1 != '\0' && c2 != '\0')) {
            *chars = i;
            return c1 > c2 ? 1 : c1 < c2 ? -1 : 0;
        }
    }
}

/* ---- per-warp generation: a queue of instructions refilled one basic block at a time ---- */
struct qent {
    uint32_t mask;
    uint16_t pc;      /* the instruction's place in the kernel's code */
    uint8_t op, width, ndst, nsrc, dst, s0, s1;
    uint64_t addr[MW_WARP_SIZE];
};
struct lane {
    uint32_t rec, j, size, base, st, e, hi, emitted;
    int32_t a, b;    /* sort: the two pointer entries; cmp result */
    int32_t cmp;
    uint32_t chars, ci, pos;
    char c;
};
struct gwarp {
    int phase, sub, n, head;
    uint32_t live, alive, m[5], mh, scan, cmpm, swap;
    struct lane l[MW_WARP_SIZE];
    struct qent q[QCAP];
};

enum kind { K_MAPCOUNT, K_MAP, K_SCAN, K_UADD, K_INIT, K_BITONIC, K_BOUNDARY, K_WRITEB, K_SETB };
struct launch {
    const struct iix *m;
    int kind;
    uint32_t k, j, snap;      /* bitonic */
    uint32_t n, start;        /* elements; chunk start (chunked kernels) */
    uint64_t in, out, sums;   /* scan arrays */
};

static struct qent *q_push(struct gwarp *w, int pc, uint8_t op, uint32_t mask, int d, int a, int b)
{
    struct qent *e = &w->q[w->n++];
    e->pc = (uint16_t)pc, e->op = op, e->mask = mask, e->width = 0;
    bool st = op == MW_OP_ST_GLOBAL || op == MW_OP_ST_SHARED;
    e->ndst = (op == MW_OP_BRANCH || op == MW_OP_BARRIER || st) ? 0 : 1;
    e->nsrc = op == MW_OP_BARRIER ? 0 : op == MW_OP_BRANCH ? 1 : 2;
    e->dst = (uint8_t)d, e->s0 = (uint8_t)a, e->s1 = (uint8_t)b;
    return e;
}
#define QA(pc, mask, d, a, b) q_push(w, pc, MW_OP_ALU, mask, d, a, b)
#define QB(pc, mask, s) q_push(w, pc, MW_OP_BRANCH, mask, 0, s, 0)
#define QBAR(pc) q_push(w, pc, MW_OP_BARRIER, w->live, 0, 0, 0)
/* loads / stores: `expr` is lane l's address */
#define QLD(pc, mask, wd, d, a, expr)                                                                        \
    do {                                                                                                     \
        struct qent *e_ = q_push(w, pc, MW_OP_LD_GLOBAL, mask, d, a, 0);                                     \
        e_->width = wd;                                                                                      \
        PML_LANES(mask, l) e_->addr[l] = (expr);                                                             \
    } while (0)
#define QST(pc, mask, wd, a, v, expr)                                                                        \
    do {                                                                                                     \
        struct qent *e_ = q_push(w, pc, MW_OP_ST_GLOBAL, mask, 0, a, v);                                     \
        e_->width = wd;                                                                                      \
        PML_LANES(mask, l) e_->addr[l] = (expr);                                                             \
    } while (0)
#define QLDS(pc, mask, d, expr)                                                                              \
    do {                                                                                                     \
        struct qent *e_ = q_push(w, pc, MW_OP_LD_SHARED, mask, d, 1, 0);                                     \
        e_->width = 4;                                                                                       \
        PML_LANES(mask, l) e_->addr[l] = (expr);                                                             \
    } while (0)
#define QSTS(pc, mask, v, expr)                                                                              \
    do {                                                                                                     \
        struct qent *e_ = q_push(w, pc, MW_OP_ST_SHARED, mask, 0, 1, v);                                     \
        e_->width = 4;                                                                                       \
        PML_LANES(mask, l) e_->addr[l] = (expr);                                                             \
    } while (0)
#define TXT(off) (m->files + (uint64_t)(off)) /* a byte of the device copy of the documents */

/* A state case's head: c = buf[j] and the switch on it, at pc .. pc + 3. */
static void char_load(const struct iix *m, struct gwarp *w, uint32_t mask, int pc)
{
    QA(pc, mask, 10, 4, 2);
    QLD(pc + 1, mask, 1, 6, 10, TXT(w->l[l].base + w->l[l].j));
    QA(pc + 2, mask, 11, 6, 0);
    QB(pc + 3, mask, 11);
}

/* A one-character state case (START, IN_TAG, FOUND_HREF): the head, `tests` compares, the lanes step, and the
 * state register is written. */
static void char_case(const struct iix *m, struct gwarp *w, uint32_t mask, int pc, int tests)
{
    char_load(m, w, mask, pc);
    if (tests == 2) QA(pc + 4, mask, 12, 6, 0);
    PML_LANES(mask, l) w->l[l].st = (uint32_t)st_next((int)w->l[l].st, m->text[w->l[l].base + w->l[l].j]);
    QA(pc + 3 + tests, mask, 5, 11, tests == 2 ? 12 : 0);
}

/* Map phase (MapperCount when !map, Mapper when map). Registers: r1 index, r2 j, r3 size, r4 buf, r5 state,
 * r6 char, r7 link_end, r8 hash, r9 i, r10-r15 temporaries. The kernels' code (instructions, see map_layout): the
 * prologue from 0 (Mapper's extra loads 4..9), the record loop and the state cases from `loop` (the link scan at
 * loop + 54), a found link's handling from `link` (Mapper: the key store, the url hash and EmitIntermediate, 70
 * instructions; MapperCount: EmitInterCount, 9), the loop's tail and the epilogue from `tail`, 7 to the EXIT. */
struct map_layout {
    int loop, link, tail, end;
};
static struct map_layout map_layout(bool map)
{
    struct map_layout y;
    y.loop = map ? 10 : 4;
    y.link = y.loop + 58;
    y.tail = y.link + (map ? 70 : 9);
    y.end = y.tail + 7;
    return y;
}
enum {
    PH_PRO, PH_TOP, PH_SW, PH_C0, PH_C1, PH_C2, PH_C3, PH_C4, PH_LSCAN, PH_LPOST, PH_HASH, PH_EMIT, PH_INC,
    PH_EPI, PH_DONE
};
static void map_refill(const struct launch *L, const struct mw_tctx *t0, uint32_t mask, struct gwarp *w)
{
    const struct iix *m = L->m;
    bool map = L->kind == K_MAP;
    const struct map_layout y = map_layout(map);
    const int P = y.loop, V = y.link, T = y.tail;
    for (;;) {
        switch (w->phase) {
        case PH_PRO: {
            w->live = 0;
            PML_LANES(mask, l) {
                uint32_t r = (uint32_t)t0->gtid + (uint32_t)l;
                if (r >= m->nrec) continue; /* index * recordsPerTask >= recordNum: return */
                w->live |= 1u << l;
                w->l[l] = (struct lane){.rec = r, .size = m->rec_size[r], .base = m->rec_off[r],
                                        .emitted = 0, .st = ST_START};
            }
            QA(0, mask, 1, 0, 0);
            QA(1, mask, 10, 1, 0);
            QB(2, mask, 10);
            uint32_t lv = w->live;
            if (!lv) { w->phase = PH_DONE; return; }
            QA(3, lv, 11, 1, 0);
            if (map) {
                QLD(4, lv, 4, 12, 1, m->ps_c + (uint64_t)w->l[l].rec * 4);
                QA(5, lv, 13, 12, 0);
                QLD(6, lv, 16, 14, 13, m->ios + (uint64_t)m->rec_first[w->l[l].rec] * 16);
                QLD(7, lv, 4, 10, 1, m->ps_k + (uint64_t)w->l[l].rec * 4);
                QLD(8, lv, 4, 11, 1, m->ps_v + (uint64_t)w->l[l].rec * 4);
                QST(9, lv, 16, 13, 14, m->ios + (uint64_t)m->rec_first[w->l[l].rec] * 16);
            }
            QA(P, lv, 9, 11, 1); /* i = recordBase + tid < terminate */
            QB(P + 1, lv, 9);
            QLD(P + 2, lv, 16, 12, 9, m->in_os + (uint64_t)w->l[l].rec * 16);
            QA(P + 3, lv, 13, 12, 0);
            QLD(P + 4, lv, 4, 14, 13, m->in_vals + (uint64_t)w->l[l].rec * VALSZ);
            QLD(P + 5, lv, 4, 3, 13, m->in_vals + (uint64_t)w->l[l].rec * VALSZ + 4);
            QLD(P + 6, lv, 8, 4, 13, m->in_keys + (uint64_t)w->l[l].rec * KEYSZ);
            QA(P + 7, lv, 4, 4, 14);
            w->alive = lv;
            w->phase = PH_TOP;
            return;
        }
        case PH_TOP: /* the lanes that passed the previous test test again */
            QA(P + 8, w->alive, 10, 2, 3);
            QB(P + 9, w->alive, 10);
            PML_LANES(w->alive, l) if (w->l[l].j >= w->l[l].size) w->alive &= ~(1u << l);
            w->phase = w->alive ? PH_SW : PH_EPI;
            return;
        case PH_SW:
            for (int c = 0; c < 5; c++) w->m[c] = 0;
            PML_LANES(w->alive, l) w->m[w->l[l].st] |= 1u << l;
            QA(P + 10, w->alive, 10, 5, 0);
            QB(P + 11, w->alive, 10);
            w->phase = PH_C0;
            return;
        case PH_C0: /* START: '<' -> IN_TAG */
            w->phase = PH_C1;
            if (!w->m[0]) continue;
            char_case(m, w, w->m[0], P + 12, 1);
            return;
        case PH_C1: /* IN_TAG: 'a' -> IN_ATAG, ' ' stays, else START */
            w->phase = PH_C2;
            if (!w->m[1]) continue;
            char_case(m, w, w->m[1], P + 17, 2);
            return;
        case PH_C2: { /* IN_ATAG: "href" -> FOUND_HREF (j += 3), ' ' stays, else START */
            w->phase = PH_C3;
            if (!w->m[2]) continue;
            uint32_t m2 = w->m[2], mh = 0, found = 0;
            char_load(m, w, m2, P + 23);
            PML_LANES(m2, l) if (m->text[w->l[l].base + w->l[l].j] == 'h') mh |= 1u << l;
            /* for (x = 0; x < 5; x++) if (href[x] != url_start[x]) break; (unrolled) */
            uint32_t cmpm = mh;
            for (int x = 0; x < 5 && cmpm; x++) {
                QLD(P + 27 + 3 * x, cmpm, 1, 12, 10, TXT(w->l[l].base + w->l[l].j + (uint32_t)x));
                QA(P + 28 + 3 * x, cmpm, 13, 12, 0);
                QB(P + 29 + 3 * x, cmpm, 13);
                uint32_t next = 0;
                PML_LANES(cmpm, l) {
                    char c = m->text[w->l[l].base + w->l[l].j + (uint32_t)x];
                    if (x < 4 && c == "href"[x]) next |= 1u << l;
                    else if (x == 4 && c == '\0') next |= 1u << l;
                    else if (x == 4) found |= 1u << l; /* href[4] == '\0' != url_start[4] */
                }
                cmpm = next;
            }
            if (mh) {
                QA(P + 42, mh, 13, 12, 0);
                QB(P + 43, mh, 13);
            }
            if (found) QA(P + 44, found, 2, 2, 0); /* j += 3 */
            uint32_t other = m2 & ~mh;
            if (other) QA(P + 45, other, 12, 6, 0);
            PML_LANES(m2, l) {
                if (found >> l & 1u) w->l[l].st = ST_FOUND_HREF, w->l[l].j += 3;
                else if (mh >> l & 1u) w->l[l].st = ST_START;
                else w->l[l].st = st_next(ST_IN_ATAG, m->text[w->l[l].base + w->l[l].j]);
            }
            QA(P + 46, m2, 5, 11, 12);
            return;
        }
        case PH_C3: /* FOUND_HREF: ' ' or '=' stay, '"' -> START_LINK, else START */
            w->phase = PH_C4;
            if (!w->m[3]) continue;
            char_case(m, w, w->m[3], P + 47, 2);
            return;
        case PH_C4: /* START_LINK: scan to the closing quote */
            if (!w->m[4]) { w->phase = PH_INC; continue; }
            PML_LANES(w->m[4], l) w->l[l].e = w->l[l].base + w->l[l].j;
            QA(P + 53, w->m[4], 7, 4, 2);
            w->scan = w->m[4];
            w->phase = PH_LSCAN;
            return;
        case PH_LSCAN: { /* for (; *link_end != '"'; link_end++); */
            QLD(P + 54, w->scan, 1, 6, 7, TXT(w->l[l].e));
            QA(P + 55, w->scan, 11, 6, 0);
            QB(P + 56, w->scan, 11);
            uint32_t next = 0;
            PML_LANES(w->scan, l) if (m->text[w->l[l].e] != '"') next |= 1u << l;
            if (next) QA(P + 57, next, 7, 7, 0);
            PML_LANES(next, l) w->l[l].e++;
            w->scan = next;
            if (!next) w->phase = PH_LPOST;
            return;
        }
        case PH_LPOST: {
            uint32_t m4 = w->m[4];
            if (map) {
                QST(V, m4, 1, 7, 0, TXT(w->l[l].e)); /* *link_end = '\0' */
                QA(V + 1, m4, 10, 2, 0);
                QST(V + 2, m4, 4, 4, 10, m->in_keys + (uint64_t)w->l[l].rec * KEYSZ + 8); /* pKey->url_offset */
                QA(V + 3, m4, 8, 7, 4); /* hash = len */
                PML_LANES(m4, l) w->l[l].hi = 0;
                w->scan = 0;
                PML_LANES(m4, l) if (w->l[l].e > w->l[l].base + w->l[l].j) w->scan |= 1u << l;
                QB(V + 4, m4, 8);
                w->phase = w->scan ? PH_HASH : PH_EMIT;
            } else {
                /* EmitInterCount: three per-thread counters += */
                const uint64_t cnt[3] = {m->cnt_k, m->cnt_v, m->cnt_c};
                for (int i = 0; i < 3; i++) {
                    int pc = V + 3 * i;
                    uint8_t r = (uint8_t)(10 + i);
                    QLD(pc, m4, 4, r, 1, cnt[i] + (uint64_t)w->l[l].rec * 4);
                    QA(pc + 1, m4, r, r, 0);
                    QST(pc + 2, m4, 4, 1, r, cnt[i] + (uint64_t)w->l[l].rec * 4);
                }
                w->phase = PH_EMIT;
            }
            return;
        }
        case PH_HASH: { /* hash = (hash << 4) ^ (hash >> 28) ^ str[i] */
            QLD(V + 5, w->scan, 1, 6, 9, TXT(w->l[l].base + w->l[l].j + w->l[l].hi));
            QA(V + 6, w->scan, 10, 8, 0);
            QA(V + 7, w->scan, 11, 8, 0);
            QA(V + 8, w->scan, 8, 10, 11);
            QA(V + 9, w->scan, 8, 8, 6);
            QA(V + 10, w->scan, 9, 9, 0);
            QB(V + 11, w->scan, 9);
            uint32_t next = 0;
            PML_LANES(w->scan, l) if (w->l[l].base + w->l[l].j + ++w->l[l].hi < w->l[l].e) next |= 1u << l;
            w->scan = next;
            if (!next) w->phase = PH_EMIT;
            return;
        }
        case PH_EMIT: {
            uint32_t m4 = w->m[4];
            if (map) {
                QST(V + 12, m4, 4, 4, 8, m->in_keys + (uint64_t)w->l[l].rec * KEYSZ + 12); /* pKey->url_hash */
                /* EmitIntermediate: copy the key and the value byte by byte into this thread's slice */
                QLD(V + 13, m4, 8, 10, 1, m->kvo + (uint64_t)w->l[l].rec * 8);
                QLD(V + 14, m4, 4, 11, 1, m->ps_k + (uint64_t)w->l[l].rec * 4);
                QLD(V + 15, m4, 4, 12, 1, m->ps_v + (uint64_t)w->l[l].rec * 4);
                QA(V + 16, m4, 13, 11, 10);
                for (uint32_t i = 0; i < KEYSZ; i++) {
                    QLD(V + 17 + 2 * (int)i, m4, 1, 14, 4, m->in_keys + (uint64_t)w->l[l].rec * KEYSZ + i);
                    QST(V + 18 + 2 * (int)i, m4, 1, 13, 14,
                        m->ikeys + (uint64_t)(m->rec_first[w->l[l].rec] + w->l[l].emitted) * KEYSZ + i);
                }
                for (uint32_t i = 0; i < 4; i++) {
                    QLD(V + 49 + 2 * (int)i, m4, 1, 14, 4, m->in_vals + (uint64_t)w->l[l].rec * VALSZ + 8 + i);
                    QST(V + 50 + 2 * (int)i, m4, 1, 13, 14,
                        m->ivals + (uint64_t)(m->rec_first[w->l[l].rec] + w->l[l].emitted) * 4 + i);
                }
                QA(V + 57, m4, 10, 10, 0);
                QST(V + 58, m4, 8, 1, 10, m->kvo + (uint64_t)w->l[l].rec * 8);
                QLD(V + 59, m4, 4, 11, 1, m->curi + (uint64_t)w->l[l].rec * 4);
                QLD(V + 60, m4, 4, 12, 1, m->ps_c + (uint64_t)w->l[l].rec * 4);
                QA(V + 61, m4, 13, 11, 12);
                QLD(V + 62, m4, 16, 14, 13, m->ios + (uint64_t)(m->rec_first[w->l[l].rec] + w->l[l].emitted) * 16);
                QLD(V + 63, m4, 16, 15, 13,
                    m->ios + ((uint64_t)(m->rec_first[w->l[l].rec] + w->l[l].emitted) - 1) * 16);
                QA(V + 64, m4, 10, 11, 0);
                QB(V + 65, m4, 10);
                QA(V + 66, m4, 14, 15, 0);
                QST(V + 67, m4, 16, 13, 14, m->ios + (uint64_t)(m->rec_first[w->l[l].rec] + w->l[l].emitted) * 16);
                QA(V + 68, m4, 11, 11, 0);
                QST(V + 69, m4, 4, 1, 11, m->curi + (uint64_t)w->l[l].rec * 4);
            }
            QA(T, m4, 2, 2, 7); /* j += link_end - (buf + j); state = START */
            QA(T + 1, m4, 5, 0, 0);
            PML_LANES(m4, l) {
                w->l[l].j = w->l[l].e - w->l[l].base;
                w->l[l].st = ST_START;
                w->l[l].emitted++;
            }
            w->phase = PH_INC;
            return;
        }
        case PH_INC:
            QA(T + 2, w->alive, 2, 2, 0);
            QB(T + 3, w->alive, 2);
            PML_LANES(w->alive, l) w->l[l].j++;
            w->phase = PH_TOP;
            return;
        case PH_EPI:
            QA(T + 4, w->live, 9, 9, 0); /* i += blockDim.x */
            QA(T + 5, w->live, 10, 9, 0);
            QB(T + 6, w->live, 10);
            w->phase = PH_DONE;
            return;
        default: return;
        }
    }
}

/* The lanes of mask whose element first + lane is below n. */
static uint32_t in_range(uint32_t mask, uint32_t first, uint32_t n)
{
    uint32_t in = 0;
    PML_LANES(mask, l) if (first + (uint32_t)l < n) in |= 1u << l;
    return in;
}

/* prescanArray's block kernel (CUDA SDK scan_largearray as in MarsScan.cu): 256 threads scan 512 elements in
 * shared memory (up-sweep, clear, down-sweep, one barrier a level), storing each block's sum when there are several
 * blocks; uniformAdd adds the scanned block sums back. */
static void scan_refill(const struct launch *L, const struct mw_tctx *t0, uint32_t mask, struct gwarp *w)
{
    uint32_t blockbase = t0->ctaid[0] * 512, tid0 = t0->tid[0];
    w->live = mask;
    if (L->kind == K_UADD) {
        uint32_t act = in_range(mask, blockbase + 512 + tid0, L->n);
        QA(0, mask, 1, 0, 0);
        QLD(1, mask, 4, 2, 1, L->sums + (uint64_t)t0->ctaid[0] * 4 + 4); /* uniforms[blockIdx.x] (from block 1) */
        if (!act) { w->phase = PH_DONE; return; }
        QLD(2, act, 4, 3, 1, L->out + (uint64_t)(blockbase + 512 + tid0 + (uint32_t)l) * 4);
        uint32_t act2 = in_range(mask, blockbase + 512 + 256 + tid0, L->n);
        if (act2) QLD(3, act2, 4, 4, 1, L->out + (uint64_t)(blockbase + 512 + 256 + tid0 + (uint32_t)l) * 4);
        QA(4, act, 3, 3, 2);
        QST(6, act, 4, 1, 3, L->out + (uint64_t)(blockbase + 512 + tid0 + (uint32_t)l) * 4);
        if (act2) {
            QA(5, act2, 4, 4, 2);
            QST(7, act2, 4, 1, 4, L->out + (uint64_t)(blockbase + 512 + 256 + tid0 + (uint32_t)l) * 4);
        }
        w->phase = PH_DONE;
        return;
    }
    switch (w->phase) {
    case 0: {
        uint32_t a = in_range(mask, blockbase + tid0, L->n), b = in_range(mask, blockbase + tid0 + 256, L->n);
        QA(0, mask, 1, 0, 0);
        QA(1, mask, 2, 1, 0);
        if (a) QLD(2, a, 4, 3, 2, L->in + (uint64_t)(blockbase + tid0 + (uint32_t)l) * 4);
        if (b) QLD(3, b, 4, 4, 2, L->in + (uint64_t)(blockbase + tid0 + 256 + (uint32_t)l) * 4);
        QSTS(4, mask, 3, (uint64_t)(tid0 + (uint32_t)l + ((tid0 + (uint32_t)l) >> 4)) * 4);
        QSTS(5, mask, 4, (uint64_t)(tid0 + 256 + (uint32_t)l + ((tid0 + 256 + (uint32_t)l) >> 4)) * 4);
        w->phase = 1, w->sub = 0;
        return;
    }
    case 1: { /* up-sweep: d = 256 >> sub active threads */
        uint32_t d = 256u >> w->sub, off = 1u << w->sub, act = in_range(mask, tid0, d);
        QBAR(6);
        if (act) {
            QA(7, act, 5, 1, 0);
            QLDS(8, act, 6, (uint64_t)(off * (2 * (tid0 + (uint32_t)l) + 1) - 1) * 4);
            QLDS(9, act, 7, (uint64_t)(off * (2 * (tid0 + (uint32_t)l) + 2) - 1) * 4);
            QA(10, act, 7, 7, 6);
            QSTS(11, act, 7, (uint64_t)(off * (2 * (tid0 + (uint32_t)l) + 2) - 1) * 4);
        }
        QA(12, mask, 8, 8, 0);
        QB(13, mask, 8);
        if (++w->sub == 9) w->phase = 2, w->sub = 0;
        return;
    }
    case 2: { /* thread 0 stores the block sum and clears the last element */
        uint32_t t0m = tid0 == 0 ? (mask & 1u) : 0;
        QBAR(14);
        if (t0m) {
            QLDS(15, t0m, 6, 511 * 4);
            if (L->sums) QST(16, t0m, 4, 1, 6, L->sums + (uint64_t)t0->ctaid[0] * 4);
            QSTS(17, t0m, 0, 511 * 4);
        }
        w->phase = 3, w->sub = 0;
        return;
    }
    case 3: { /* down-sweep */
        uint32_t d = 1u << w->sub, off = 256u >> w->sub, act = in_range(mask, tid0, d);
        QBAR(18);
        if (act) {
            QLDS(19, act, 6, (uint64_t)(off * (2 * (tid0 + (uint32_t)l) + 1) - 1) * 4);
            QLDS(20, act, 7, (uint64_t)(off * (2 * (tid0 + (uint32_t)l) + 2) - 1) * 4);
            QSTS(21, act, 7, (uint64_t)(off * (2 * (tid0 + (uint32_t)l) + 1) - 1) * 4);
            QA(22, act, 7, 7, 6);
            QSTS(23, act, 7, (uint64_t)(off * (2 * (tid0 + (uint32_t)l) + 2) - 1) * 4);
        }
        QA(24, mask, 8, 8, 0);
        QB(25, mask, 8);
        if (++w->sub == 9) w->phase = 4;
        return;
    }
    case 4: {
        uint32_t a = in_range(mask, blockbase + tid0, L->n), b = in_range(mask, blockbase + tid0 + 256, L->n);
        QBAR(26);
        QLDS(27, mask, 3, (uint64_t)(tid0 + (uint32_t)l + ((tid0 + (uint32_t)l) >> 4)) * 4);
        QLDS(28, mask, 4, (uint64_t)(tid0 + 256 + (uint32_t)l + ((tid0 + 256 + (uint32_t)l) >> 4)) * 4);
        if (a) QST(29, a, 4, 2, 3, L->out + (uint64_t)(blockbase + tid0 + (uint32_t)l) * 4);
        if (b) QST(30, b, 4, 2, 4, L->out + (uint64_t)(blockbase + tid0 + 256 + (uint32_t)l) * 4);
        w->phase = PH_DONE;
        return;
    }
    default: return;
    }
}

/* getCompareValue(d_rawData, a, b) for the active lanes whose pointer entries are in w->l[].a / .b: the -1 test, the
 * two url_hash loads, and for equal hashes the string loop; keys at `keys` (16 B each, link-numbered by `kidx`).
 * Its code is the 16 instructions from pcb. */
enum { CP_START, CP_STR, CP_END };
static bool cmp_refill(const struct iix *m, struct gwarp *w, uint32_t act, uint64_t keys, bool sorted, int pcb)
{
    switch (w->sub) {
    case CP_START: {
        uint32_t real = 0, eq = 0;
        QA(pcb, act, 10, 2, 3); /* v1 == -1 || v2 == -1 */
        QB(pcb + 1, act, 10);
        PML_LANES(act, l) {
            w->l[l].cmp = cmp_links(m, w->l[l].a, w->l[l].b, &w->l[l].chars);
            w->l[l].ci = 0;
            if (w->l[l].a != -1 && w->l[l].b != -1) {
                real |= 1u << l;
                if (m->link_hash[w->l[l].a] == m->link_hash[w->l[l].b]) eq |= 1u << l;
            }
        }
        if (real) {
            QLD(pcb + 2, real, 4, 11, 2, keys + (uint64_t)(sorted ? w->l[l].pos : (uint32_t)w->l[l].a) * KEYSZ + 12);
            QLD(pcb + 3, real, 4, 12, 3,
                keys + (uint64_t)(sorted ? w->l[l].pos - 1 : (uint32_t)w->l[l].b) * KEYSZ + 12);
            QA(pcb + 4, real, 13, 11, 12);
            QB(pcb + 5, real, 13);
        }
        if (eq) {
            QLD(pcb + 6, eq, 8, 14, 2, keys + (uint64_t)(sorted ? w->l[l].pos : (uint32_t)w->l[l].a) * KEYSZ);
            QLD(pcb + 7, eq, 4, 15, 2,
                keys + (uint64_t)(sorted ? w->l[l].pos : (uint32_t)w->l[l].a) * KEYSZ + 8);
            QLD(pcb + 8, eq, 8, 16, 3,
                keys + (uint64_t)(sorted ? w->l[l].pos - 1 : (uint32_t)w->l[l].b) * KEYSZ);
            QLD(pcb + 9, eq, 4, 17, 3,
                keys + (uint64_t)(sorted ? w->l[l].pos - 1 : (uint32_t)w->l[l].b) * KEYSZ + 8);
        }
        w->cmpm = eq;
        w->sub = eq ? CP_STR : CP_END;
        return false;
    }
    case CP_STR: { /* for (; *url1 == *url2 && *url1 != '\0' && *url2 != '\0'; url1++, url2++); */
        QLD(pcb + 10, w->cmpm, 1, 18, 14, TXT(m->link_off[w->l[l].a] + w->l[l].ci));
        QLD(pcb + 11, w->cmpm, 1, 19, 16, TXT(m->link_off[w->l[l].b] + w->l[l].ci));
        QA(pcb + 12, w->cmpm, 20, 18, 19);
        QB(pcb + 13, w->cmpm, 20);
        uint32_t next = 0;
        PML_LANES(w->cmpm, l) if (w->l[l].ci++ < w->l[l].chars) next |= 1u << l;
        if (next) QA(pcb + 14, next, 14, 14, 0);
        w->cmpm = next;
        if (!next) w->sub = CP_END;
        return false;
    }
    default:
        QA(pcb + 15, act, 21, 20, 13); /* the result */
        return true;
    }
}

/* The bitonic and chunked kernels' opening: the index, `if (i < n)` (act: the lanes that pass); false when none
 * does and the warp is done. */
static bool guard_head(struct gwarp *w, uint32_t mask, uint32_t act)
{
    w->live = mask;
    QA(0, mask, 1, 0, 0);
    QA(1, mask, 2, 1, 0);
    QB(2, mask, 2);
    w->alive = act;
    if (!act) w->phase = PH_DONE;
    return act != 0;
}

/* bitonicKernel(k, j): dataIdx = global thread, ixj = dataIdx ^ j; if ixj > dataIdx compare and maybe swap. */
static void bitonic_refill(const struct launch *L, const struct mw_tctx *t0, uint32_t mask, struct gwarp *w)
{
    const struct iix *m = L->m;
    const int32_t *R = m->snap + (uint64_t)L->snap * m->R;
    switch (w->phase) {
    case 0: {
        uint32_t act = 0;
        PML_LANES(mask, l) {
            uint32_t i = (uint32_t)t0->gtid + (uint32_t)l, x = i ^ L->j;
            w->l[l].pos = i;
            if (x > i) {
                act |= 1u << l;
                w->l[l].a = R[i], w->l[l].b = R[x];
            }
        }
        if (!guard_head(w, mask, act)) return;
        QLD(3, act, 16, 2, 1, m->dR + (uint64_t)w->l[l].pos * 16);
        QLD(4, act, 16, 3, 1, m->dR + (uint64_t)(w->l[l].pos ^ L->j) * 16);
        QA(5, act, 4, 1, 0); /* (dataIdx & k) == 0 */
        QB(6, act, 4);
        w->phase = 1, w->sub = CP_START;
        return;
    }
    case 1:
        if (!cmp_refill(m, w, w->alive, m->ikeys, false, 7)) return;
        w->swap = 0;
        PML_LANES(w->alive, l) {
            bool up = (w->l[l].pos & L->k) == 0;
            if ((up && w->l[l].cmp == 1) || (!up && w->l[l].cmp == -1)) w->swap |= 1u << l;
        }
        QB(23, w->alive, 21);
        if (w->swap) {
            QST(24, w->swap, 16, 1, 3, m->dR + (uint64_t)w->l[l].pos * 16);
            QST(25, w->swap, 16, 1, 2, m->dR + (uint64_t)(w->l[l].pos ^ L->j) * 16);
        }
        w->phase = PH_DONE;
        return;
    default: return;
    }
}

/* The chunked helper kernels: initialize_kernel, getChunkBoundary_kernel, writeBoundary_kernel,
 * setBoundaryInt2_kernel (512 x 512 threads a chunk, pos = chunk start + global thread). */
static void chunk_refill(const struct launch *L, const struct mw_tctx *t0, uint32_t mask, struct gwarp *w)
{
    const struct iix *m = L->m;
    uint32_t act = 0;
    PML_LANES(mask, l) {
        uint32_t pos = L->start + (uint32_t)t0->gtid + (uint32_t)l;
        w->l[l].pos = pos;
        if (pos < L->n) act |= 1u << l;
    }
    if (w->phase == 0) {
        if (!guard_head(w, mask, act)) return;
        switch (L->kind) {
        case K_INIT: QST(3, act, 16, 2, 0, m->dR + (uint64_t)w->l[l].pos * 16); w->phase = PH_DONE; return;
        case K_WRITEB: { /* if (d_startArray[pos] == 1) d_boundary[d_startSumArray[pos]] = pos */
            uint32_t flag = 0;
            QLD(3, act, 4, 3, 2, m->start + (uint64_t)w->l[l].pos * 4);
            QLD(4, act, 4, 4, 2, m->startsum + (uint64_t)w->l[l].pos * 4);
            QB(5, act, 3);
            PML_LANES(act, l) if (m->bflag[w->l[l].pos]) flag |= 1u << l;
            if (flag) QST(6, flag, 4, 4, 2, m->bound + (uint64_t)m->bsum[w->l[l].pos] * 4);
            w->phase = PH_DONE;
            return;
        }
        case K_SETB:
            QLD(3, act, 4, 3, 2, m->bound + (uint64_t)w->l[l].pos * 4);
            QA(4, act, 5, 2, 0);
            QB(5, act, 5);
            QLD(6, act, 4, 4, 2, m->bound + (uint64_t)w->l[l].pos * 4 + 4);
            QST(7, act, 8, 2, 3, m->range + (uint64_t)w->l[l].pos * 8);
            w->phase = PH_DONE;
            return;
        default: { /* K_BOUNDARY: pos == 0 -> 1, else compare with the left neighbour */
            const int32_t *S = m->snap + (uint64_t)(m->nsnap - 1) * m->R + (m->R - m->nlinks);
            uint32_t rest = 0;
            PML_LANES(act, l) if (w->l[l].pos > 0) {
                rest |= 1u << l;
                w->l[l].a = S[w->l[l].pos], w->l[l].b = S[w->l[l].pos - 1];
            }
            QA(3, act, 3, 2, 0);
            QB(4, act, 3);
            w->cmpm = act;
            w->alive = rest;
            if (!rest) { w->phase = 2; return; }
            QLD(5, rest, 16, 2, 1, m->oos + (uint64_t)w->l[l].pos * 16);
            QLD(6, rest, 16, 3, 1, m->oos + (uint64_t)(w->l[l].pos - 1) * 16);
            w->phase = 1, w->sub = CP_START;
            return;
        }
        }
    }
    if (w->phase == 1) {
        if (!cmp_refill(m, w, w->alive, m->okeys, true, 7)) return;
        w->phase = 2;
        return;
    }
    if (w->phase == 2) {
        uint32_t a = 0;
        PML_LANES(mask, l) if (w->l[l].pos < L->n) a |= 1u << l;
        QST(23, a, 4, 2, 21, m->start + (uint64_t)w->l[l].pos * 4);
        w->phase = PH_DONE;
    }
}

/* A kernel's code size in instructions: the last place each refill function above gives it, plus one. */
static uint32_t code_insts(int kind)
{
    switch (kind) {
    case K_MAPCOUNT: return (uint32_t)map_layout(false).end;
    case K_MAP: return (uint32_t)map_layout(true).end;
    case K_SCAN: return 31;
    case K_UADD: return 8;
    case K_INIT: return 4;
    case K_BITONIC: return 26; /* the compare at 7..22 */
    case K_BOUNDARY: return 24; /* the compare at 7..22 */
    case K_WRITEB: return 7;
    default: return 8; /* K_SETB */
    }
}

static int gen(const struct mw_kgen_kernel *k, const struct mw_tctx *t0, uint32_t mask, void *scratch,
               struct mw_inst *o, struct mw_err *e)
{
    (void)e;
    const struct launch *L = k->data;
    struct gwarp *w = scratch;
    while (w->head == w->n) {
        if (w->phase == PH_DONE) return 0;
        w->n = w->head = 0;
        switch (L->kind) {
        case K_MAPCOUNT:
        case K_MAP: map_refill(L, t0, mask, w); break;
        case K_SCAN:
        case K_UADD: scan_refill(L, t0, mask, w); break;
        case K_BITONIC: bitonic_refill(L, t0, mask, w); break;
        default: chunk_refill(L, t0, mask, w); break;
        }
    }
    const struct qent *q = &w->q[w->head++];
    pml_inst(o, (uint64_t)q->pc * MW_WL_INST_BYTES, q->op, q->mask);
    o->width = q->width, o->ndst = q->ndst, o->nsrc = q->nsrc;
    o->dst[0] = q->dst, o->src[0] = q->s0, o->src[1] = q->s1;
    if (mw_op_is_mem(q->op)) PML_LANES(q->mask, l) o->addr[l] = q->addr[l];
    return 1;
}

/* ---- the host side: documents, records, the map output, the sort, the launch sequence ---- */
int mw_wl_iix_docs(int sz, uint64_t seed, char **text, uint64_t *len, uint32_t **rec_off, uint32_t **rec_size,
                   uint32_t **rec_file, uint32_t *nrec, uint32_t *nfiles)
{
    static const uint32_t target[4] = {8, 512, 3840, 8192};
    static const uint64_t fbytes[4] = {2048, 16384, 65536, 65536};
    /* main.cu cuts records of 1024 bytes (the paper size); the smaller sizes cut 256 so that the map kernels
     * still fill the GPU (default: 15 blocks of 256 threads) within a few million warp instructions */
    static const uint64_t recbytes[4] = {256, 256, 256, 1024};
    uint64_t s = seed * 0x9e3779b97f4a7c15ull ^ 0x11c0ffeeull;
    struct sbuf b = {0};
    uint32_t n = 0, cap = 0, nf = 0;
    uint32_t *ro = NULL, *rs = NULL, *rf = NULL;
    while (n < target[sz]) {
        uint64_t start = b.n;
        if (gen_file(&b, &s, fbytes[sz]) != 0) goto oom;
        uint64_t size = b.n - start + 1; /* filelist.size = st_size + 1, the last byte '\0' */
        for (int z = 0; z < 2; z++) { /* the file's '\0', and one more byte the chunking loop may look at */
            if (put(&b, "", 0) != 0) goto oom;
            b.p[b.n++] = '\0';
        }
        /* main.cu: records of 1024 bytes extended to the next newline, which becomes '\0' */
        uint64_t off = 0;
        char *p = b.p + start, *st = p;
        for (;;) {
            uint64_t bs = recbytes[sz];
            if (off + bs > size) bs = size - off;
            p += bs;
            while (*p != '\n' && *p != '\0') p++;
            uint64_t rsz;
            bool last = *p == '\0';
            if (!last) {
                *p = '\0';
                p++;
                rsz = (uint64_t)(p - st);
            } else rsz = size - off;
            if (n == cap) {
                cap = cap ? 2 * cap : 1024;
                uint32_t *a1 = realloc(ro, cap * sizeof *ro), *a2 = a1 ? realloc(rs, cap * sizeof *rs) : NULL;
                if (a1) ro = a1;
                if (a2) rs = a2;
                uint32_t *a3 = a2 ? realloc(rf, cap * sizeof *rf) : NULL;
                if (!a3) goto oom;
                rf = a3;
            }
            ro[n] = (uint32_t)(start + off), rs[n] = (uint32_t)rsz, rf[n] = nf, n++;
            if (last) break;
            off += rsz;
            st = p;
        }
        nf++;
        /* the next file is its own cudaMalloc: 256 B aligned */
        while (b.n % 256) {
            if (put(&b, "", 0) != 0) goto oom;
            b.p[b.n++] = '\0';
        }
    }
    *text = b.p, *len = b.n, *rec_off = ro, *rec_size = rs, *rec_file = rf, *nrec = n, *nfiles = nf;
    return 0;
oom:
    free(b.p), free(ro), free(rs), free(rf);
    return -1;
}

static struct launch *add(struct mw_kgen_program *p, struct launch **ls, uint32_t *nl, uint32_t *capl,
                          const struct iix *m, const char *name, int kind, uint32_t grid, uint32_t block,
                          uint32_t regs, uint32_t shmem)
{
    if (*nl == *capl) return NULL; /* sized in advance: the kernels point into the array */
    struct launch *L = &(*ls)[(*nl)++];
    memset(L, 0, sizeof *L);
    L->m = m, L->kind = kind;
    struct mw_kgen_kernel *k = mw_kgen_append(p);
    if (!k) return NULL;
    snprintf(k->k.name, sizeof k->k.name, "%s", name);
    k->k.grid[0] = grid, k->k.grid[1] = k->k.grid[2] = 1;
    k->k.block[0] = block, k->k.block[1] = k->k.block[2] = 1;
    k->k.nregs = regs, k->k.shmem = shmem;
    k->data = L;
    k->custom = gen;
    k->ninsts = code_insts(kind);
    k->scratch_bytes = sizeof(struct gwarp);
    return L;
}

/* prefexSum / prescanArray over n ints: the block scan, and for several blocks the scan of the block sums and
 * uniformAdd. */
static int add_scan(struct mw_kgen_program *p, struct launch **ls, uint32_t *nl, uint32_t *capl, const struct iix *m,
                    uint32_t n, uint64_t in, uint64_t out)
{
    uint32_t nb = (n + 511) / 512;
    struct launch *L = add(p, ls, nl, capl, m, "prescan", K_SCAN, nb, 256, 12, 512 * 4 + 64);
    if (!L) return -1;
    L->n = n, L->in = in, L->out = out, L->sums = nb > 1 ? m->sums : 0;
    if (nb > 1) {
        L = add(p, ls, nl, capl, m, "prescan", K_SCAN, 1, 256, 12, 512 * 4 + 64);
        if (!L) return -1;
        L->n = nb, L->in = m->sums, L->out = m->sums;
        L = add(p, ls, nl, capl, m, "uniformAdd", K_UADD, nb - 1, 256, 8, 4);
        if (!L) return -1;
        L->n = n, L->out = out, L->sums = m->sums;
    }
    return 0;
}

struct iix_owned {
    struct iix *m;
    struct launch *ls;
};
static void owned_free(void *p)
{
    struct iix_owned *o = p;
    if (!o) return;
    iix_free(o->m), free(o->ls), free(o);
}

int mw_wl_mars_iix(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e)
{
    int sz = mw_kgen_size(size, e);
    if (sz < 0) return sz;
    struct iix_owned *o = calloc(1, sizeof *o);
    struct iix *m = o ? calloc(1, sizeof *m) : NULL;
    struct mw_kgen_program p = {.owned = o, .free_owned = owned_free};
    if (!m) {
        free(o);
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    }
    o->m = m;
    if (mw_wl_iix_docs(sz, seed, &m->text, &m->text_len, &m->rec_off, &m->rec_size, &m->rec_file, &m->nrec,
                       &m->nfiles) != 0)
        goto oom;
    /* the map output: links in emission order, their hashes */
    m->rec_links = calloc(m->nrec, sizeof *m->rec_links);
    m->rec_first = calloc((size_t)m->nrec + 1, sizeof *m->rec_first);
    if (!m->rec_links || !m->rec_first) goto oom;
    for (uint32_t r = 0; r < m->nrec; r++) {
        m->rec_links[r] = scan_links(m->text + m->rec_off[r], m->rec_size[r], m->rec_off[r], NULL, NULL);
        m->rec_first[r + 1] = m->rec_first[r] + m->rec_links[r];
    }
    m->nlinks = m->rec_first[m->nrec];
    uint32_t nl = m->nlinks ? m->nlinks : 1;
    m->link_off = malloc(nl * sizeof *m->link_off);
    m->link_len = malloc(nl * sizeof *m->link_len);
    m->link_hash = malloc(nl * sizeof *m->link_hash);
    if (!m->link_off || !m->link_len || !m->link_hash) goto oom;
    for (uint32_t r = 0; r < m->nrec; r++)
        scan_links(m->text + m->rec_off[r], m->rec_size[r], m->rec_off[r], m->link_off + m->rec_first[r],
                   m->link_len + m->rec_first[r]);
    for (uint32_t i = 0; i < m->nlinks; i++) m->link_hash[i] = url_hash(m->text + m->link_off[i], m->link_len[i]);
    /* bitonicSortGPU: R = 2^level >= rLen (at least one 256-thread block); d_R = the pointers then -1 padding;
     * one launch per (k, j), the state before each kept for the generator */
    m->R = 256, m->levels = 8;
    while (m->R < m->nlinks) m->R *= 2, m->levels++;
    if (m->R > 256u * 1024u) {
        owned_free(o);
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "mars.iix: %u links exceed the single-pass bitonic sort",
                          m->nlinks);
    }
    uint32_t nbit = m->levels * (m->levels + 1) / 2;
    m->nsnap = nbit + 1;
    m->snap = malloc((size_t)m->nsnap * m->R * sizeof *m->snap);
    if (!m->snap) goto oom;
    for (uint32_t i = 0; i < m->R; i++) m->snap[i] = i < m->nlinks ? (int32_t)i : -1;
    uint32_t sn = 0;
    for (uint32_t k = 2; k <= m->R; k *= 2)
        for (uint32_t j = k / 2; j > 0; j /= 2) {
            int32_t *cur = m->snap + (uint64_t)sn * m->R, *nx = cur + m->R;
            memcpy(nx, cur, m->R * sizeof *cur);
            for (uint32_t i = 0; i < m->R; i++) {
                uint32_t x = i ^ j, dummy;
                if (x <= i) continue;
                int c = cmp_links(m, cur[i], cur[x], &dummy);
                if (((i & k) == 0 && c == 1) || ((i & k) != 0 && c == -1)) nx[i] = cur[x], nx[x] = cur[i];
            }
            sn++;
        }
    /* key boundaries of the sorted output (its last rLen entries) */
    const int32_t *S = m->snap + (uint64_t)nbit * m->R + (m->R - m->nlinks);
    m->bflag = calloc(nl, 1);
    m->bsum = calloc(nl, sizeof *m->bsum);
    if (!m->bflag || !m->bsum) goto oom;
    for (uint32_t i = 0, g = 0; i < m->nlinks; i++) {
        uint32_t dummy;
        m->bflag[i] = i == 0 || cmp_links(m, S[i], S[i - 1], &dummy) != 0;
        m->bsum[i] = g;
        g += m->bflag[i];
        m->ngroups = g;
    }
    /* device memory in cudaMalloc order */
    uint32_t grid = (m->nrec + BLK - 1) / BLK;
    m->threads = grid * BLK;
    uint64_t a = 0x10000000ull;
#define ALLOC(f, bytes) (m->f = a, a += ((uint64_t)(bytes) + 255) & ~255ull)
    ALLOC(files, m->text_len);
    ALLOC(in_keys, (uint64_t)m->nrec * KEYSZ);
    ALLOC(in_vals, (uint64_t)m->nrec * VALSZ);
    ALLOC(in_os, (uint64_t)m->nrec * 16);
    ALLOC(cnt_k, m->threads * 4ull);
    ALLOC(cnt_v, m->threads * 4ull);
    ALLOC(cnt_c, m->threads * 4ull);
    ALLOC(ps_k, m->threads * 4ull);
    ALLOC(ps_v, m->threads * 4ull);
    ALLOC(ps_c, m->threads * 4ull);
    ALLOC(ikeys, (uint64_t)nl * KEYSZ);
    ALLOC(ivals, (uint64_t)nl * 4);
    ALLOC(ios, (uint64_t)nl * 16);
    ALLOC(kvo, m->threads * 8ull);
    ALLOC(curi, m->threads * 4ull);
    ALLOC(okeys, (uint64_t)nl * KEYSZ);
    ALLOC(ovals, (uint64_t)nl * 4);
    ALLOC(oos, (uint64_t)nl * 16);
    ALLOC(dR, (uint64_t)m->R * 16);
    ALLOC(start, (uint64_t)nl * 4);
    ALLOC(startsum, (uint64_t)nl * 4);
    ALLOC(bound, (uint64_t)(m->ngroups ? m->ngroups : 1) * 4);
    ALLOC(range, (uint64_t)(m->ngroups ? m->ngroups : 1) * 8);
    ALLOC(sums, 4096 * 4);
#undef ALLOC
    /* the launch sequence */
    uint32_t capl = 16 + nbit + 4 * ((m->nlinks >> 18) + 1);
    o->ls = calloc(capl, sizeof *o->ls);
    if (!o->ls) goto oom;
    uint32_t n = 0;
    struct launch *L;
    const uint32_t CH = 512 * 512;
    /* the helper kernels always launch 512 blocks of 512 threads a chunk; tiny and small launch only the blocks
     * holding elements, so that unit tests stay small */
#define CHUNK_GRID(cnt) (sz <= MW_SIZE_SMALL ? ((cnt) - st < CH ? ((cnt) - st + 511) / 512 : 512) : 512)
    if (!add(&p, &o->ls, &n, &capl, m, "MapperCount", K_MAPCOUNT, grid, BLK, 28, 0)) goto oom;
    if (add_scan(&p, &o->ls, &n, &capl, m, m->threads, m->cnt_k, m->ps_k) ||
        add_scan(&p, &o->ls, &n, &capl, m, m->threads, m->cnt_v, m->ps_v) ||
        add_scan(&p, &o->ls, &n, &capl, m, m->threads, m->cnt_c, m->ps_c))
        goto oom;
    if (!add(&p, &o->ls, &n, &capl, m, "Mapper", K_MAP, grid, BLK, 32, BLK * 4 * 5)) goto oom;
    for (uint32_t st = 0; st < m->R; st += CH) {
        if (!(L = add(&p, &o->ls, &n, &capl, m, "initialize_kernel", K_INIT, CHUNK_GRID(m->R), 512, 8, 0))) goto oom;
        L->n = m->R, L->start = st;
    }
    sn = 0;
    for (uint32_t k = 2; k <= m->R; k *= 2)
        for (uint32_t j = k / 2; j > 0; j /= 2) {
            if (!(L = add(&p, &o->ls, &n, &capl, m, "bitonicKernel", K_BITONIC, m->R / 256, 256, 20, 0))) goto oom;
            L->k = k, L->j = j, L->snap = sn++;
        }
    for (uint32_t st = 0; st < m->nlinks; st += CH) {
        if (!(L = add(&p, &o->ls, &n, &capl, m, "getChunkBoundary_kernel", K_BOUNDARY, CHUNK_GRID(m->nlinks), 512, 20, 0))) goto oom;
        L->n = m->nlinks, L->start = st;
    }
    if (add_scan(&p, &o->ls, &n, &capl, m, m->nlinks, m->start, m->startsum)) goto oom;
    for (uint32_t st = 0; st < m->nlinks; st += CH) {
        if (!(L = add(&p, &o->ls, &n, &capl, m, "writeBoundary_kernel", K_WRITEB, CHUNK_GRID(m->nlinks), 512, 10, 0))) goto oom;
        L->n = m->nlinks, L->start = st;
    }
    for (uint32_t st = 0; st < m->ngroups; st += CH) {
        if (!(L = add(&p, &o->ls, &n, &capl, m, "setBoundaryInt2_kernel", K_SETB, CHUNK_GRID(m->ngroups), 512, 10, 0))) goto oom;
        L->n = m->ngroups, L->start = st;
    }
#undef CHUNK_GRID
    return mw_kgen_workload(w, "mars.iix", &p, e);
oom:
    free(p.kernels);
    owned_free(o);
    return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
}
