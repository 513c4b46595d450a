/* Accel-Sim SASS trace reader: kernelslist.g plus one kernel-N.traceg[.xz] per launch, as written by the
 * NVBit-based Accel-Sim tracer and its post-processor (tracer versions 1..6, sm_30..sm_90+). Streams one
 * thread block at a time; see trace.h for every modelling decision. Format from Accel-Sim's tracer/parser. */
#include "trace_int.h"
#include "xzfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Generic-address windows: 16 MiB above the shared and local bases the tracer records. Local offsets in
 * traces (LDL/STL) sit just below 16 MiB (the stack grows down from 0xffffff), which fixes the local size. */
#define TR_WINDOW (1ull << 24)
#define TR_MAX_TRACER 6
#define TR_PATH 512

/* ------------------------------------------------------------------------------------------------------ */
/* Reader state                                                                                           */
/* ------------------------------------------------------------------------------------------------------ */

struct tr_cmd {
    char *file; /* kernel trace path (resolved), NULL for a memcpy */
    int line;   /* in kernelslist.g */
};

#define OPC_CACHE 256
struct opc_entry {
    char key[48];
    bool used;
    struct op_info oi;
};

struct tr {
    char listpath[TR_PATH];
    struct tr_cmd *cmds;
    size_t ncmds, next_cmd;
    struct mw_trace_memcpy *mc;
    size_t nmc;
    uint32_t launched;

    /* current kernel */
    struct mw_xzfile *f;
    bool have_kernel, eof;
    char *pushed; /* a line handed back to the next read (still valid in f's buffer) */
    struct mw_kernel k;
    struct mw_trace_kernel_info info;
    uint32_t nctas, nwarps;
    int64_t last_tb;     /* linear id of the last TB read, -1 before the first */
    uint32_t next_open;  /* CTAs below this have been opened */
    struct tr_cta *pending;

    struct opc_entry cache[OPC_CACHE];
    unsigned cache_used;

    /* .mwtrace (trace_cache.c) */
    bool use_cache;
    char cache_dir[TR_PATH];
    struct tc_map *map;  /* the current kernel's cache, NULL when it is read from text */
    uint32_t map_next;   /* next thread block of the map to hand out */
    int cache_source;    /* enum mw_trace_source of the current kernel */

    bool failed;
    struct mw_err fail; /* sticky: the reader stops at its first error */
};

/* ------------------------------------------------------------------------------------------------------ */
/* Errors and small parsers                                                                               */
/* ------------------------------------------------------------------------------------------------------ */

static int tr_fail(struct tr *t, struct mw_err *e, int code, const char *file, int line, int col, const char *fmt,
                   ...) __attribute__((format(printf, 7, 8)));
static int tr_fail(struct tr *t, struct mw_err *e, int code, const char *file, int line, int col, const char *fmt,
                   ...)
{
    char msg[sizeof e->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    mw_err_set(e, code, file, line, col, "%s", msg);
    if (t) {
        t->failed = true;
        t->fail = *e;
    }
    return code;
}

/* An error at the current line of the kernel file. */
#define KFAIL(t, e, col, ...) tr_fail((t), (e), MW_EINVAL, (t)->info.file, (int)mw_xz_lineno((t)->f), (col), __VA_ARGS__)

static bool parse_dec(const char *s, uint64_t max, uint64_t *v)
{
    if (!isdigit((unsigned char)*s)) return false;
    uint64_t x = 0;
    for (; *s; s++) {
        if (!isdigit((unsigned char)*s)) return false;
        uint64_t d = (uint64_t)(*s - '0');
        if (x > max / 10 || d > max - x * 10) return false;
        x = x * 10 + d;
    }
    *v = x;
    return true;
}

static bool parse_sdec(const char *s, int64_t *v)
{
    bool neg = *s == '-';
    if (*s == '-' || *s == '+') s++;
    uint64_t u;
    if (!parse_dec(s, neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, &u)) return false;
    *v = neg ? (int64_t)(0 - u) : (int64_t)u;
    return true;
}

static bool parse_hex(const char *s, uint64_t *v)
{
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
    if (!*s || strlen(s) > 16) return false;
    uint64_t x = 0;
    for (; *s; s++) {
        int c = (unsigned char)*s, d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
        else return false;
        x = x << 4 | (uint64_t)d;
    }
    *v = x;
    return true;
}

/* Whitespace tokenizer working in place on a line; col is 1-based. */
struct tokz {
    char *p;
    const char *line;
};
static char *tok_next(struct tokz *z, int *col)
{
    char *q = z->p;
    while (*q == ' ' || *q == '\t') q++;
    *col = (int)(q - z->line) + 1;
    if (!*q) {
        z->p = q;
        return NULL;
    }
    char *s = q;
    while (*q && *q != ' ' && *q != '\t') q++;
    if (*q) *q++ = 0;
    z->p = q;
    return s;
}

/* "x,y,z" (parens optional when paren is false, required when true), each an unsigned 32-bit number. */
static bool parse_dim3(const char *s, bool paren, uint32_t out[3])
{
    while (*s == ' ') s++;
    if (paren && *s++ != '(') return false;
    for (int i = 0; i < 3; i++) {
        while (*s == ' ') s++;
        if (!isdigit((unsigned char)*s)) return false;
        uint64_t v = 0;
        while (isdigit((unsigned char)*s)) {
            v = v * 10 + (uint64_t)(*s++ - '0');
            if (v > UINT32_MAX) return false;
        }
        out[i] = (uint32_t)v;
        while (*s == ' ') s++;
        if (i < 2 && *s++ != ',') return false;
    }
    if (paren && *s++ != ')') return false;
    while (*s == ' ') s++;
    return *s == 0;
}

static void rtrim(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) s[--n] = 0;
}

static bool starts_with_word(const char *s, const char *w)
{
    size_t n = strlen(w);
    return strncmp(s, w, n) == 0 && (s[n] == ' ' || s[n] == '=' || s[n] == '\t');
}

/* The value after "key =" on a TB-section line, or NULL. */
static const char *after_eq(const char *s)
{
    const char *q = strchr(s, '=');
    if (!q) return NULL;
    q++;
    while (*q == ' ' || *q == '\t') q++;
    return q;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Lines of the kernel file                                                                               */
/* ------------------------------------------------------------------------------------------------------ */

/* Next line (1) with trailing blanks removed, 0 at EOF, <0 on error. */
static int kline(struct tr *t, char **line, struct mw_err *e)
{
    if (t->pushed) {
        *line = t->pushed;
        t->pushed = NULL;
        return 1;
    }
    if (t->eof) return 0;
    size_t len;
    int rc = mw_xz_getline(t->f, line, &len, e);
    if (rc < 0) {
        if (rc == MW_EIO) { /* say what was expected, keep the decoder's diagnosis */
            struct mw_err orig = *e;
            mw_err_set(e, rc, orig.file, orig.line, 0, "expected intact trace data: %.900s", orig.msg);
        }
        t->failed = true;
        t->fail = *e;
        return rc;
    }
    if (rc == 0) {
        t->eof = true;
        return 0;
    }
    rtrim(*line);
    return 1;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Opcodes of the current kernel                                                                          */
/* ------------------------------------------------------------------------------------------------------ */

static unsigned opc_hash(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The decoded opcode if this kernel has seen it (op shorter than a cache key), else NULL. */
static const struct op_info *opc_find(const struct tr *t, const char *op)
{
    unsigned h = opc_hash(op) % OPC_CACHE;
    while (t->cache[h].used) {
        if (!strcmp(t->cache[h].key, op)) return &t->cache[h].oi;
        h = (h + 1) % OPC_CACHE;
    }
    return NULL;
}

static int decode_opcode(struct tr *t, const char *op, int col, struct op_info *oi, struct mw_err *e)
{
    size_t klen = strlen(op);
    unsigned h = 0;
    if (klen < sizeof t->cache[0].key) {
        const struct op_info *known = opc_find(t, op);
        if (known) {
            *oi = *known;
            return 0;
        }
        h = opc_hash(op) % OPC_CACHE;
        while (t->cache[h].used) h = (h + 1) % OPC_CACHE;
    }
    size_t n = strcspn(op, ".");
    const struct op_desc *d = tr_op_lookup(op, n);
    unsigned sm = t->info.binary_version;
    if (!d) {
        if (!sm) return KFAIL(t, e, col, "unknown SASS opcode '%.*s' (in '%s')", (int)n, op, op);
        return KFAIL(t, e, col, "unknown SASS opcode '%.*s' (in '%s') for sm_%u", (int)n, op, op, sm);
    }
    if (sm && (sm < d->lo || sm > d->hi)) {
        if (d->hi < 999)
            return KFAIL(t, e, col, "opcode '%s' is not sm_%u SASS (the table has it for sm_%u..sm_%u)", d->name,
                         sm, d->lo ? d->lo : 30, d->hi);
        return KFAIL(t, e, col, "opcode '%s' is not sm_%u SASS (the table has it from sm_%u on)", d->name, sm,
                     d->lo);
    }
    if (d->kind == K_TMA)
        return KFAIL(t, e, col, "opcode '%s' is a bulk tensor copy (TMA); its address format is not supported",
                     op);
    memset(oi, 0, sizeof *oi);
    oi->cls = d->cls;
    oi->kind = d->kind;
    tr_op_modifiers(op + n, oi, d);
    if (klen < sizeof t->cache[0].key) {
        if (t->cache_used >= OPC_CACHE * 3 / 4) {
            memset(t->cache, 0, sizeof t->cache);
            t->cache_used = 0;
            h = opc_hash(op) % OPC_CACHE;
        }
        memcpy(t->cache[h].key, op, klen + 1);
        t->cache[h].used = true;
        t->cache[h].oi = *oi;
        t->cache_used++;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Compact instruction records                                                                            */
/* ------------------------------------------------------------------------------------------------------ */

static int cta_reserve(struct tr_cta *c, size_t more)
{
    if (c->len + more <= c->cap) return 0;
    size_t nc = c->cap ? c->cap : 4096;
    while (nc < c->len + more) nc *= 2;
    uint8_t *nb = realloc(c->buf, nc);
    if (!nb) return MW_ENOMEM;
    c->buf = nb;
    c->cap = nc;
    return 0;
}

static inline void put(struct tr_cta *c, const void *p, size_t n)
{
    memcpy(c->buf + c->len, p, n);
    c->len += n;
}

/* Register token: R<n>, UR<n>, RZ, URZ, P<n>/PT/UP<n>/UPT. 1 = register in *r, 0 = dropped, -1 = bad. */
static int parse_reg(const char *s, uint16_t *r)
{
    uint64_t v;
    if (!strcmp(s, "RZ") || !strcmp(s, "URZ") || !strcmp(s, "PT") || !strcmp(s, "UPT")) return 0;
    if (s[0] == 'R' && parse_dec(s + 1, 1000, &v)) {
        if (v > 255) return -1;
        if (v == 255) return 0; /* RZ */
        *r = (uint16_t)v;
        return 1;
    }
    if (s[0] == 'U' && s[1] == 'R' && parse_dec(s + 2, 1000, &v)) {
        if (v > 63) return -1;
        if (v == 63) return 0; /* URZ */
        *r = (uint16_t)(MW_REG_UNIFORM_BASE + v);
        return 1;
    }
    if ((s[0] == 'P' && parse_dec(s + 1, 7, &v)) || (s[0] == 'U' && s[1] == 'P' && parse_dec(s + 2, 7, &v)))
        return 0;
    return -1;
}

/* Which window of the kernel a generic address falls in: 1 shared, 2 local, 0 global. */
static int generic_space(const struct mw_kernel *k, uint64_t a)
{
    bool sh = k->shmem_base && a >= k->shmem_base && a - k->shmem_base < TR_WINDOW;
    bool lo = k->local_base && a >= k->local_base && a - k->local_base < TR_WINDOW;
    if (sh && lo) return k->shmem_base >= k->local_base ? 1 : 2; /* overlapping windows: the nearer base */
    return sh ? 1 : lo ? 2 : 0;
}

/* The full parser of one instruction line: fills l (l->op points into line, which it splits in place) and oi,
 * or reports the first thing wrong as file:line:col. */
static int scan_inst(struct tr *t, char *line, struct tr_line *l, struct op_info *oi, struct mw_err *e)
{
    struct tokz z = {line, line};
    int col;
    char *s;
    uint64_t v;
#define NEED(what)                                                                                            \
    do {                                                                                                      \
        s = tok_next(&z, &col);                                                                               \
        if (!s) return KFAIL(t, e, col, "expected %s, found end of line", what);                              \
    } while (0)

    if (t->info.tracer_version < 3) { /* legacy lines: tb x, y, z and warp before the PC */
        for (int i = 0; i < 4; i++) {
            NEED("thread block / warp id (tracer version < 3)");
            if (!parse_dec(s, UINT32_MAX, &v))
                return KFAIL(t, e, col, "expected thread block / warp id (tracer version < 3), found '%s'", s);
        }
    }
    if (t->info.lineinfo) {
        NEED("source line number");
        if (!parse_dec(s, UINT32_MAX, &v)) return KFAIL(t, e, col, "expected source line number, found '%s'", s);
    }
    l->ndst = l->nsrc = 0;
    NEED("hex PC");
    if (!parse_hex(s, &l->pc)) return KFAIL(t, e, col, "expected hex PC, found '%s'", s);
    NEED("hex active mask");
    if (!parse_hex(s, &v) || v > UINT32_MAX) return KFAIL(t, e, col, "expected hex active mask, found '%s'", s);
    l->mask = (uint32_t)v;

    NEED("destination register count");
    if (!parse_dec(s, 64, &v)) return KFAIL(t, e, col, "expected destination register count, found '%s'", s);
    for (uint64_t i = 0, n = v; i < n; i++) {
        NEED("destination register");
        uint16_t r;
        int rc = parse_reg(s, &r);
        if (rc < 0) return KFAIL(t, e, col, "expected destination register (R<n>, UR<n>), found '%s'", s);
        if (rc > 0 && l->ndst < MW_INST_MAX_DST) l->dst[l->ndst++] = r;
    }
    NEED("opcode");
    l->op = s;
    l->opcol = col;
    if (!isupper((unsigned char)s[0])) return KFAIL(t, e, col, "expected opcode, found '%s'", s);
    NEED("source register count");
    if (!parse_dec(s, 64, &v)) return KFAIL(t, e, col, "expected source register count, found '%s'", s);
    for (uint64_t i = 0, n = v; i < n; i++) {
        NEED("source register");
        uint16_t r;
        int rc = parse_reg(s, &r);
        if (rc < 0) return KFAIL(t, e, col, "expected source register (R<n>, UR<n>), found '%s'", s);
        if (rc > 0 && l->nsrc < MW_INST_MAX_SRC) l->src[l->nsrc++] = r;
    }
    NEED("memory width");
    if (!parse_dec(s, 1024, &l->memw)) return KFAIL(t, e, col, "expected memory width, found '%s'", s);

    int rc = decode_opcode(t, l->op, l->opcol, oi, e);
    if (rc < 0) return rc;

    /* address fields */
    int lanes = mw_popcount32(l->mask);
    l->mode = -1;
    l->base = 0;
    l->stride = 0;
    if (l->memw > 0) {
        NEED("address mode");
        if (!parse_dec(s, 2, &v)) return KFAIL(t, e, col, "expected address mode 0, 1 or 2, found '%s'", s);
        l->mode = (int)v;
        if (l->mode == 0) {
            for (int i = 0; i < lanes; i++) {
                NEED("hex address");
                if (!parse_hex(s, &l->list[i])) return KFAIL(t, e, col, "expected hex address, found '%s'", s);
            }
            l->base = lanes ? l->list[0] : 0;
        } else {
            NEED("hex base address");
            if (!parse_hex(s, &l->base)) return KFAIL(t, e, col, "expected hex base address, found '%s'", s);
            if (l->mode == 1) {
                NEED("decimal stride");
                if (!parse_sdec(s, &l->stride)) return KFAIL(t, e, col, "expected decimal stride, found '%s'", s);
            } else {
                for (int i = 0; i + 1 < lanes; i++) {
                    NEED("decimal address delta");
                    if (!parse_sdec(s, &l->deltas[i]))
                        return KFAIL(t, e, col, "expected decimal address delta, found '%s'", s);
                }
            }
        }
    }
    if (t->info.tracer_version >= 5) {
        NEED("immediate (tracer version 5+)");
        int64_t imm;
        if (!parse_sdec(s, &imm) && !parse_hex(s, &v))
            return KFAIL(t, e, col, "expected immediate (tracer version 5+), found '%s'", s);
    }
    s = tok_next(&z, &col);
    if (s) return KFAIL(t, e, col, "expected end of line, found '%s'", s);
#undef NEED
    return 0;
}

/* The scanned line as a compact record in c's buffer: class and space decided, addresses compressed. */
static int put_inst(struct tr *t, struct tr_cta *c, const struct tr_line *l, const struct op_info *oi,
                    struct mw_err *e)
{
    int lanes = mw_popcount32(l->mask);
    int mode = l->mode;
    uint64_t base = l->base;
    struct tr_rec h = {.pc = l->pc, .mask = l->mask, .ndst = l->ndst, .nsrc = l->nsrc, .pad = {0}};

    /* class, space, width */
    int cls = oi->cls;
    uint64_t sub = 0; /* window base subtracted from generic shared/local addresses */
    if (oi->kind != K_FIXED && oi->kind != K_TMA && mode >= 0 && lanes > 0) {
        int sp = generic_space(&t->k, base);
        if (sp == 1) {
            sub = t->k.shmem_base;
            cls = oi->kind == K_GEN_ST || oi->kind == K_GEN_RED ? MW_OP_ST_SHARED : MW_OP_LD_SHARED;
        } else if (sp == 2) {
            sub = t->k.local_base;
            cls = oi->kind == K_GEN_LD ? MW_OP_LD_LOCAL : MW_OP_ST_LOCAL;
            if (oi->kind == K_GEN_ATOM || oi->kind == K_GEN_RED)
                return KFAIL(t, e, l->opcol, "atomic '%s' to a local-memory address 0x%llx", l->op,
                             (unsigned long long)base);
        }
    }
    h.op = (uint8_t)cls;
    if (mw_op_is_mem(cls)) {
        h.width = oi->width ? oi->width : l->memw ? (uint8_t)(l->memw > 255 ? 255 : l->memw) : 4;
        if (cls == MW_OP_LD_GLOBAL || cls == MW_OP_ST_GLOBAL) h.flags = oi->flags;
        if (cls != MW_OP_LD_CONST && mode < 0)
            return KFAIL(t, e, l->opcol, "expected memory width > 0 and addresses for memory instruction '%s'",
                         l->op);
    }
    if (!mw_op_is_mem(cls) || cls == MW_OP_LD_CONST || mode < 0) h.amode = AM_NONE;
    else if (mode == 1) h.amode = AM_STRIDE;
    else if (mode == 0) h.amode = AM_LIST;
    else {
        h.amode = AM_DELTA32;
        for (int i = 0; i + 1 < lanes; i++)
            if (l->deltas[i] < INT32_MIN || l->deltas[i] > INT32_MAX) h.amode = AM_DELTA64;
    }

    if (cta_reserve(c, tr_rec_size(&h)) < 0)
        return tr_fail(t, e, MW_ENOMEM, t->info.file, (int)mw_xz_lineno(t->f), 0, "out of memory");
    put(c, &h, sizeof h);
    put(c, l->dst, 2u * h.ndst);
    put(c, l->src, 2u * h.nsrc);
    base -= sub;
    switch (h.amode) {
    case AM_STRIDE:
        put(c, &base, 8);
        put(c, &l->stride, 8);
        break;
    case AM_LIST:
        for (int i = 0; i < lanes; i++) {
            uint64_t a = l->list[i] - sub;
            put(c, &a, 8);
        }
        break;
    case AM_DELTA32:
        put(c, &base, 8);
        for (int i = 0; i + 1 < lanes; i++) {
            int32_t d = (int32_t)l->deltas[i];
            put(c, &d, 4);
        }
        break;
    case AM_DELTA64:
        put(c, &base, 8);
        put(c, l->deltas, 8u * (size_t)(lanes - 1));
        break;
    default: break;
    }
    return 0;
}

/* Parse one instruction line into c's buffer: the one-pass scanner (trace_line.c) when the line is well formed
 * and its opcode already decoded in this kernel, else the full parser, which decodes and reports errors. */
static int parse_inst(struct tr *t, struct tr_cta *c, char *line, struct mw_err *e)
{
    struct tr_line l;
    char opbuf[sizeof t->cache[0].key];
    const struct op_info *known;
    if (tr_line_scan(line, t->info.tracer_version, t->info.lineinfo != 0, &l, opbuf, sizeof opbuf) &&
        (known = opc_find(t, opbuf)) != NULL)
        return put_inst(t, c, &l, known, e);
    struct op_info oi;
    int rc = scan_inst(t, line, &l, &oi, e);
    return rc < 0 ? rc : put_inst(t, c, &l, &oi, e);
}

/* ------------------------------------------------------------------------------------------------------ */
/* Thread blocks                                                                                          */
/* ------------------------------------------------------------------------------------------------------ */

static struct tr_cta *cta_new(uint32_t id, uint32_t nwarps)
{
    struct tr_cta *c = calloc(1, sizeof *c + nwarps * sizeof c->w[0]);
    if (!c) return NULL;
    c->id = id;
    c->nwarps = nwarps;
    return c;
}

static void cta_free(struct tr_cta *c)
{
    if (!c) return;
    if (c->map) tc_close(c->map);
    else free(c->buf);
    free(c);
}

/* Check the warp being read got all its announced instructions. */
static int warp_complete(struct tr *t, struct tr_cta *c, int64_t warp, uint32_t got, struct mw_err *e)
{
    if (warp >= 0 && got < c->w[warp].n)
        return KFAIL(t, e, 1, "expected %u instructions for warp %lld ('insts = %u'), found %u", c->w[warp].n,
                     (long long)warp, c->w[warp].n, got);
    return 0;
}

/* Read the next thread block of the file: 1 = *out, 0 = no more, <0 = error. */
static int read_tb(struct tr *t, struct tr_cta **out, struct mw_err *e)
{
    char *line;
    int rc;
    *out = NULL;
    for (;;) { /* between thread blocks: blank lines and comments */
        rc = kline(t, &line, e);
        if (rc <= 0) return rc;
        if (!line[0]) continue;
        if (!strcmp(line, "#BEGIN_TB")) break;
        if (!strcmp(line, "#END_TB")) return KFAIL(t, e, 1, "expected #BEGIN_TB, found #END_TB");
        if (line[0] == '#') continue;
        return KFAIL(t, e, 1, "expected #BEGIN_TB, found '%.40s'", line);
    }
    struct tr_cta *c = cta_new(0, t->nwarps);
    if (!c) return tr_fail(t, e, MW_ENOMEM, t->info.file, 0, 0, "out of memory");
    bool have_tb = false;
    int64_t warp = -1;   /* warp being read */
    uint32_t got = 0;    /* its instructions so far */
    bool have_insts = false;
    for (;;) {
        rc = kline(t, &line, e);
        if (rc < 0) goto fail;
        if (rc == 0) {
            rc = tr_fail(t, e, MW_EINVAL, t->info.file, (int)mw_xz_lineno(t->f), 0,
                         "expected #END_TB before end of file");
            goto fail;
        }
        if (isdigit((unsigned char)line[0])) goto inst; /* an instruction line: no keyword starts with a digit */
        if (!line[0]) continue;
        if (line[0] == '#') {
            if (!strcmp(line, "#END_TB")) {
                if (!have_tb) {
                    rc = KFAIL(t, e, 1, "expected 'thread block = x,y,z' before #END_TB");
                    goto fail;
                }
                if ((rc = warp_complete(t, c, warp, got, e)) < 0) goto fail;
                break;
            }
            if (!strcmp(line, "#BEGIN_TB")) {
                rc = KFAIL(t, e, 1, "expected #END_TB before the next #BEGIN_TB");
                goto fail;
            }
            continue; /* comment */
        }
        if (starts_with_word(line, "thread")) {
            uint32_t b[3];
            const char *v = after_eq(line);
            if (have_tb) {
                rc = KFAIL(t, e, 1, "expected one 'thread block' line per #BEGIN_TB, found a second");
                goto fail;
            }
            if (!starts_with_word(line, "thread block") && strncmp(line, "thread block=", 13)) v = NULL;
            if (!v || !parse_dim3(v, false, b)) {
                rc = KFAIL(t, e, 1, "expected 'thread block = x,y,z', found '%.60s'", line);
                goto fail;
            }
            if (b[0] >= t->k.grid[0] || b[1] >= t->k.grid[1] || b[2] >= t->k.grid[2]) {
                rc = KFAIL(t, e, 1, "thread block (%u,%u,%u) is outside the grid (%u,%u,%u)", b[0], b[1], b[2],
                           t->k.grid[0], t->k.grid[1], t->k.grid[2]);
                goto fail;
            }
            c->id = b[0] + t->k.grid[0] * (b[1] + t->k.grid[1] * b[2]);
            c->line = (int)mw_xz_lineno(t->f);
            c->present = true;
            if ((int64_t)c->id <= t->last_tb) {
                rc = KFAIL(t, e, 1,
                           "thread block (%u,%u,%u) (linear id %u) comes after linear id %lld; expected thread "
                           "blocks in increasing order",
                           b[0], b[1], b[2], c->id, (long long)t->last_tb);
                goto fail;
            }
            have_tb = true;
            continue;
        }
        if (starts_with_word(line, "cluster")) { /* sm_90: cluster id / cluster cta / cluster rank */
            if (!after_eq(line)) {
                rc = KFAIL(t, e, 1, "expected 'cluster <field> = <value>', found '%.60s'", line);
                goto fail;
            }
            continue;
        }
        if (starts_with_word(line, "warp")) {
            uint64_t n;
            const char *v = after_eq(line);
            if (!have_tb) {
                rc = KFAIL(t, e, 1, "expected 'thread block = x,y,z' before the first warp");
                goto fail;
            }
            if ((rc = warp_complete(t, c, warp, got, e)) < 0) goto fail;
            if (!v || !parse_dec(v, UINT32_MAX, &n)) {
                rc = KFAIL(t, e, 1, "expected 'warp = <n>', found '%.60s'", line);
                goto fail;
            }
            if (n >= c->nwarps) {
                rc = KFAIL(t, e, 1, "warp %llu is outside the CTA (%u threads = %u warps)", (unsigned long long)n,
                           mw_kernel_cta_threads(&t->k), c->nwarps);
                goto fail;
            }
            if (c->w[n].seen) {
                rc = KFAIL(t, e, 1, "warp %llu appears twice in thread block %u", (unsigned long long)n, c->id);
                goto fail;
            }
            c->w[n].seen = true;
            warp = (int64_t)n;
            got = 0;
            have_insts = false;
            t->info.warps_read++;
            continue;
        }
        if (starts_with_word(line, "insts")) {
            uint64_t n;
            const char *v = after_eq(line);
            if (warp < 0 || have_insts) {
                rc = KFAIL(t, e, 1, "expected 'warp = <n>' before 'insts ='");
                goto fail;
            }
            if (!v || !parse_dec(v, UINT32_MAX, &n)) {
                rc = KFAIL(t, e, 1, "expected 'insts = <count>', found '%.60s'", line);
                goto fail;
            }
            c->w[warp].n = c->w[warp].left = (uint32_t)n;
            c->w[warp].off = c->len;
            have_insts = true;
            continue;
        }
    inst: /* an instruction line */
        if (!have_insts) {
            rc = KFAIL(t, e, 1, "expected 'warp = <n>' and 'insts = <count>' before instructions, found '%.40s'",
                       line);
            goto fail;
        }
        if (got == c->w[warp].n) {
            rc = KFAIL(t, e, 1,
                       "expected 'warp = <n>' or #END_TB after the %u instructions of warp %lld ('insts = %u')",
                       got, (long long)warp, got);
            goto fail;
        }
        if ((rc = parse_inst(t, c, line, e)) < 0) goto fail;
        got++;
        t->info.insts_read++;
    }
    t->last_tb = c->id;
    t->info.tbs_read++;
    *out = c;
    return 1;
fail:
    cta_free(c);
    return rc;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Kernel header                                                                                          */
/* ------------------------------------------------------------------------------------------------------ */

static void close_kernel(struct tr *t)
{
    cta_free(t->pending);
    t->pending = NULL;
    mw_xz_close(t->f);
    t->f = NULL;
    t->pushed = NULL;
    t->have_kernel = false;
    tc_close(t->map);
    t->map = NULL;
}

static int parse_header(struct tr *t, struct mw_err *e)
{
    char *line;
    int rc;
    bool grid = false, block = false;
    while ((rc = kline(t, &line, e)) > 0) {
        if (!line[0]) continue;
        if (line[0] == '#') {
            if (!strcmp(line, "#BEGIN_TB")) t->pushed = line;
            break; /* "#traces format = ..." ends the header */
        }
        if (line[0] != '-')
            return KFAIL(t, e, 1, "expected a '-<key> = <value>' kernel header line, found '%.40s'", line);
        char *eq = strchr(line, '=');
        if (!eq) return KFAIL(t, e, 1, "expected '-<key> = <value>', found '%.60s'", line);
        char *key = line + 1, *val = eq + 1;
        *eq = 0;
        rtrim(key);
        while (*val == ' ' || *val == '\t') val++;
        int vcol = (int)(val - line) + 1;
        uint64_t v = 0;
        struct mw_trace_kernel_info *in = &t->info;
#define NUM(max, what)                                                                                        \
    do {                                                                                                      \
        if (!parse_dec(val, (max), &v)) return KFAIL(t, e, vcol, "expected %s, found '%s'", what, val);       \
    } while (0)
        if (!strcmp(key, "kernel name")) {
            snprintf(in->name, sizeof in->name, "%s", val);
            snprintf(t->k.name, sizeof t->k.name, "%s", val);
        } else if (!strcmp(key, "kernel id")) {
            NUM(UINT32_MAX, "kernel id");
            in->trace_id = (uint32_t)v;
        } else if (!strcmp(key, "grid dim") || !strcmp(key, "block dim") || !strcmp(key, "cluster dim")) {
            uint32_t d[3];
            if (!parse_dim3(val, true, d)) return KFAIL(t, e, vcol, "expected (x,y,z), found '%s'", val);
            if (key[0] != 'c' && (!d[0] || !d[1] || !d[2]))
                return KFAIL(t, e, vcol, "expected dimensions of at least 1, found '%s'", val);
            if (key[0] == 'g') {
                if ((uint64_t)d[0] * d[1] * d[2] > UINT32_MAX)
                    return KFAIL(t, e, vcol, "expected a grid of at most 2^32-1 CTAs, found '%s'", val);
                memcpy(t->k.grid, d, sizeof d);
                grid = true;
            } else if (key[0] == 'b') {
                if ((uint64_t)d[0] * d[1] * d[2] > 65536)
                    return KFAIL(t, e, vcol, "expected a block of at most 65536 threads, found '%s'", val);
                memcpy(t->k.block, d, sizeof d);
                block = true;
            } else {
                memcpy(in->cluster, d, sizeof d);
            }
        } else if (!strcmp(key, "shmem")) {
            NUM(UINT32_MAX, "shared memory bytes");
            t->k.shmem = (uint32_t)v;
        } else if (!strcmp(key, "nregs")) {
            NUM(MW_MAX_REGS, "registers per thread");
            t->k.nregs = (uint32_t)v;
        } else if (!strcmp(key, "binary version")) {
            NUM(9999, "binary version");
            in->binary_version = (uint32_t)v;
        } else if (!strcmp(key, "cuda stream id")) {
            NUM(UINT64_MAX, "cuda stream id");
            in->stream_id = v;
        } else if (!strcmp(key, "shmem base_addr")) {
            if (!parse_hex(val, &t->k.shmem_base)) return KFAIL(t, e, vcol, "expected hex address, found '%s'", val);
        } else if (!strcmp(key, "local mem base_addr")) {
            if (!parse_hex(val, &t->k.local_base)) return KFAIL(t, e, vcol, "expected hex address, found '%s'", val);
        } else if (!strcmp(key, "nvbit version")) {
            snprintf(in->nvbit_version, sizeof in->nvbit_version, "%s", val);
        } else if (!strcmp(key, "accelsim tracer version")) {
            NUM(UINT32_MAX, "tracer version");
            if (v < 1 || v > TR_MAX_TRACER)
                return KFAIL(t, e, vcol, "expected tracer version 1..%d, found '%s'", TR_MAX_TRACER, val);
            in->tracer_version = (uint32_t)v;
        } else if (!strcmp(key, "enable lineinfo")) {
            NUM(1, "0 or 1");
            in->lineinfo = (uint32_t)v;
        } else {
            return KFAIL(t, e, 2, "unknown kernel header key '%s'", key);
        }
#undef NUM
    }
    if (rc < 0) return rc;
    if (!grid || !block)
        return KFAIL(t, e, 0, "expected '-%s dim = (x,y,z)' in the kernel header", grid ? "block" : "grid");
    return 0;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Workload ops                                                                                           */
/* ------------------------------------------------------------------------------------------------------ */

/* The next thread block of the current kernel, from its cache or its text: 1 = *out, 0 = no more, <0 = error. */
static int next_tb(struct tr *t, struct tr_cta **out, struct mw_err *e)
{
    if (!t->map) return read_tb(t, out, e);
    *out = NULL;
    if (t->map_next == tc_ntbs(t->map)) return 0;
    uint32_t ws;
    uint64_t ni;
    *out = tc_cta(t->map, t->map_next++, &ws, &ni);
    if (!*out) return tr_fail(t, e, MW_ENOMEM, t->info.file, 0, 0, "out of memory");
    t->info.tbs_read++; /* the streaming counters as the text reader would have them */
    t->info.warps_read += ws;
    t->info.insts_read += ni;
    return 1;
}

/* Parse the whole kernel file (header already read) into a new cache at path. 0, or <0 when the file cannot be
 * parsed or the cache cannot be written (the caller then reads the text as usual and meets any error there). */
static int cache_build(struct tr *t, const char *path, struct mw_err *e)
{
    struct tc_writer *cw = tc_begin(path, t->info.file);
    if (!cw) return MW_EIO;
    int rc;
    struct tr_cta *c;
    while ((rc = read_tb(t, &c, e)) > 0) {
        rc = tc_put_cta(cw, c);
        cta_free(c);
        if (rc < 0) break;
    }
    if (rc < 0) {
        tc_abort(cw);
        return rc;
    }
    struct tc_kernel kk = {.k = t->k, .info = t->info};
    return tc_commit(cw, &kk);
}

/* Open the current kernel (t->info.file) from its cache, building the cache first when it is missing or stale.
 * 1 = the kernel is open from the cache, 0 = read it from text. */
static int cache_kernel(struct tr *t, struct mw_err *e)
{
    char path[TR_PATH * 2];
    char file[sizeof t->info.file];
    memcpy(file, t->info.file, sizeof file);
    if (!tc_path(file, t->cache_dir, path, sizeof path)) return 0;
    struct tc_map *m = tc_open(path, file, NULL);
    int source = MW_TRACE_FROM_CACHE;
    if (!m) {
        t->f = mw_xz_open(file, e);
        int rc = t->f ? parse_header(t, e) : -1;
        if (rc >= 0) {
            t->nctas = mw_kernel_ctas(&t->k);
            t->nwarps = mw_kernel_cta_warps(&t->k);
            t->last_tb = -1;
            rc = cache_build(t, path, e);
        }
        /* back to the state before: the text reader starts afresh if the cache cannot be used */
        close_kernel(t);
        t->failed = false;
        t->eof = false;
        memset(&t->k, 0, sizeof t->k);
        memset(&t->info, 0, sizeof t->info);
        memcpy(t->info.file, file, sizeof file);
        memset(t->cache, 0, sizeof t->cache);
        t->cache_used = 0;
        if (rc < 0 || !(m = tc_open(path, file, NULL))) return 0;
        source = MW_TRACE_CACHE_BUILT;
    }
    t->map = m;
    t->map_next = 0;
    t->k = tc_kernel(m)->k;
    t->info = tc_kernel(m)->info;
    memcpy(t->info.file, file, sizeof file);
    t->info.tbs_read = 0;
    t->info.warps_read = t->info.insts_read = 0;
    t->cache_source = source;
    return 1;
}

static int tr_next_kernel(struct mw_workload *w, struct mw_kernel *k, struct mw_err *e)
{
    struct tr *t = w->self;
    if (t->failed) {
        *e = t->fail;
        return t->fail.code;
    }
    close_kernel(t);
    while (t->next_cmd < t->ncmds && !t->cmds[t->next_cmd].file) t->next_cmd++;
    if (t->next_cmd == t->ncmds) return 0;
    const struct tr_cmd *cmd = &t->cmds[t->next_cmd++];
    memset(&t->k, 0, sizeof t->k);
    memset(&t->info, 0, sizeof t->info);
    memset(t->cache, 0, sizeof t->cache);
    t->cache_used = 0;
    snprintf(t->info.file, sizeof t->info.file, "%s", cmd->file);
    t->eof = false;
    t->cache_source = MW_TRACE_FROM_TEXT;
    if (!t->use_cache || !cache_kernel(t, e)) {
        t->f = mw_xz_open(cmd->file, e);
        if (!t->f) {
            /* checked at open; it vanished since */
            return tr_fail(t, e, e->code, t->listpath, cmd->line, 0, "cannot open kernel trace '%s': %s",
                           cmd->file, e->msg);
        }
        int rc = parse_header(t, e);
        if (rc < 0) return rc;
    }
    t->launched++;
    t->k.id = t->launched;
    t->have_kernel = true;
    t->nctas = mw_kernel_ctas(&t->k);
    t->nwarps = mw_kernel_cta_warps(&t->k);
    t->last_tb = -1;
    t->next_open = 0;
    *k = t->k;
    return 1;
}

static int tr_cta_open(struct mw_workload *w, uint32_t cta, void **state, struct mw_err *e)
{
    struct tr *t = w->self;
    *state = NULL;
    if (t->failed) {
        *e = t->fail;
        return t->fail.code;
    }
    if (!t->have_kernel) return mw_err_set(e, MW_EINVAL, t->listpath, 0, 0, "cta_open with no kernel open");
    if (cta >= t->nctas || cta < t->next_open)
        return mw_err_set(e, MW_EINVAL, t->info.file, 0, 0,
                          "CTA %u opened out of order or outside the grid (next %u, grid of %u)", cta, t->next_open,
                          t->nctas);
    t->next_open = cta + 1;
    struct tr_cta *c = NULL;
    for (;;) {
        if (!t->pending) {
            int rc = next_tb(t, &t->pending, e);
            if (rc < 0) return rc;
            if (rc == 0) break; /* end of file: the rest of the grid is absent */
        }
        if (t->pending->id < cta) { /* the caller skipped it */
            cta_free(t->pending);
            t->pending = NULL;
            continue;
        }
        if (t->pending->id == cta) { /* otherwise cta is absent; the later one waits for its own open */
            c = t->pending;
            t->pending = NULL;
        }
        break;
    }
    if (!c) { /* absent thread block: warps with no instructions */
        c = cta_new(cta, t->nwarps);
        if (!c) return tr_fail(t, e, MW_ENOMEM, t->info.file, 0, 0, "out of memory");
    }
    *state = c;
    return 0;
}

static int tr_warp_next(struct mw_workload *w, void *state, uint32_t warp, struct mw_inst *out, struct mw_err *e)
{
    (void)w;
    struct tr_cta *c = state;
    if (!c || warp >= c->nwarps)
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "warp %u is outside the CTA (%u warps)", warp,
                          c ? c->nwarps : 0);
    struct tr_wcur *wc = &c->w[warp];
    if (!wc->left) return 0;
    const uint8_t *p = c->buf + wc->off;
    struct tr_rec h;
    memcpy(&h, p, sizeof h);
    wc->off += tr_rec_size(&h);
    wc->left--;
    p += sizeof h;
    out->pc = h.pc;
    out->mask = h.mask;
    out->op = h.op;
    if (h.op == MW_OP_EXIT && wc->left) out->op = MW_OP_BRANCH; /* not the warp's end: a partial exit */
    out->width = h.width;
    out->flags = h.flags;
    out->ndst = h.ndst;
    out->nsrc = h.nsrc;
    memcpy(out->dst, p, 2u * h.ndst);
    p += 2u * h.ndst;
    memcpy(out->src, p, 2u * h.nsrc);
    p += 2u * h.nsrc;
    if (!mw_op_is_mem(h.op)) return 1;
    memset(out->addr, 0, sizeof out->addr);
    uint64_t a = 0;
    int64_t d = 0;
    int k = 0;
    switch (h.amode) {
    case AM_STRIDE:
        memcpy(&a, p, 8);
        memcpy(&d, p + 8, 8);
        for (int l = 0; l < MW_WARP_SIZE; l++)
            if (h.mask >> l & 1u) out->addr[l] = a + (uint64_t)d * (uint64_t)k++;
        break;
    case AM_LIST:
        for (int l = 0; l < MW_WARP_SIZE; l++)
            if (h.mask >> l & 1u) memcpy(&out->addr[l], p + 8 * k++, 8);
        break;
    case AM_DELTA32:
    case AM_DELTA64:
        memcpy(&a, p, 8);
        p += 8;
        for (int l = 0; l < MW_WARP_SIZE; l++) {
            if (!(h.mask >> l & 1u)) continue;
            if (k++) {
                if (h.amode == AM_DELTA32) {
                    int32_t d32;
                    memcpy(&d32, p, 4);
                    p += 4;
                    d = d32;
                } else {
                    memcpy(&d, p, 8);
                    p += 8;
                }
                a += (uint64_t)d;
            }
            out->addr[l] = a;
        }
        break;
    default: break;
    }
    return 1;
}

static void tr_cta_close(struct mw_workload *w, void *state)
{
    (void)w;
    cta_free(state);
}

static void tr_destroy(struct mw_workload *w)
{
    struct tr *t = w->self;
    if (!t) return;
    close_kernel(t);
    for (size_t i = 0; i < t->ncmds; i++) free(t->cmds[i].file);
    free(t->cmds);
    free(t->mc);
    free(t);
    w->self = NULL;
}

static const struct mw_workload_ops trace_ops = {
    .kind = "trace",
    .next_kernel = tr_next_kernel,
    .cta_open = tr_cta_open,
    .warp_next = tr_warp_next,
    .cta_close = tr_cta_close,
    .destroy = tr_destroy,
};

/* ------------------------------------------------------------------------------------------------------ */
/* kernelslist.g                                                                                          */
/* ------------------------------------------------------------------------------------------------------ */

static bool file_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static bool ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && !strcmp(s + n - m, suf);
}

static int add_cmd(struct tr *t, size_t *cap, char *file, int line)
{
    if (t->ncmds == *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        struct tr_cmd *nb = realloc(t->cmds, nc * sizeof *nb);
        if (!nb) return MW_ENOMEM;
        t->cmds = nb;
        *cap = nc;
    }
    t->cmds[t->ncmds].file = file;
    t->cmds[t->ncmds].line = line;
    t->ncmds++;
    return 0;
}

static int parse_memcpy(struct tr *t, size_t *cap, char *line, int lineno, uint32_t kernels, struct mw_err *e)
{
    const char *what = "expected 'Memcpy<HtoD|DtoH>,<hex address>,<bytes>'";
    char *c1 = strchr(line, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
    if (!c1 || !c2 || strchr(c2 + 1, ','))
        return tr_fail(t, e, MW_EINVAL, t->listpath, lineno, 1, "%s, found '%.60s'", what, line);
    *c1 = *c2 = 0;
    struct mw_trace_memcpy m = {.before_kernel = kernels, .to_device = !strcmp(line, "MemcpyHtoD")};
    if (!parse_hex(c1 + 1, &m.addr))
        return tr_fail(t, e, MW_EINVAL, t->listpath, lineno, (int)(c1 - line) + 2, "expected hex address, found '%s'",
                       c1 + 1);
    if (!parse_dec(c2 + 1, UINT64_MAX, &m.bytes))
        return tr_fail(t, e, MW_EINVAL, t->listpath, lineno, (int)(c2 - line) + 2, "expected byte count, found '%s'",
                       c2 + 1);
    if ((t->nmc & (t->nmc - 1)) == 0) { /* grow at powers of two */
        struct mw_trace_memcpy *nb = realloc(t->mc, (t->nmc ? t->nmc * 2 : 1) * sizeof *nb);
        if (!nb) return tr_fail(t, e, MW_ENOMEM, t->listpath, lineno, 0, "out of memory");
        t->mc = nb;
    }
    t->mc[t->nmc++] = m;
    return add_cmd(t, cap, NULL, lineno) < 0 ? tr_fail(t, e, MW_ENOMEM, t->listpath, lineno, 0, "out of memory") : 0;
}

static int parse_list(struct tr *t, const char *dir, struct mw_err *e)
{
    struct mw_xzfile *f = mw_xz_open(t->listpath, e);
    if (!f) return e->code;
    size_t cap = 0, len;
    uint32_t kernels = 0;
    char *line;
    int rc;
    while ((rc = mw_xz_getline(f, &line, &len, e)) > 0) {
        int ln = (int)mw_xz_lineno(f);
        rtrim(line);
        while (*line == ' ' || *line == '\t') line++;
        if (!line[0] || line[0] == '#') continue;
        if (!strncmp(line, "Memcpy", 6)) {
            rc = parse_memcpy(t, &cap, line, ln, kernels, e);
            if (rc < 0) break;
            continue;
        }
        if (strncmp(line, "kernel", 6)) {
            rc = tr_fail(t, e, MW_EINVAL, t->listpath, ln, 1,
                         "expected 'kernel-<n>.traceg' or 'MemcpyHtoD,<address>,<bytes>', found '%.60s'", line);
            break;
        }
        if (ends_with(line, ".trace") || ends_with(line, ".trace.xz")) {
            rc = tr_fail(t, e, MW_EINVAL, t->listpath, ln, 1,
                         "'%s' is raw tracer output; run Accel-Sim's post-traces-processing to get .traceg files",
                         line);
            break;
        }
        char path[TR_PATH];
        int n = dir[0] ? snprintf(path, sizeof path, "%s/%s", dir, line) : snprintf(path, sizeof path, "%s", line);
        if (n < 0 || (size_t)n + 4 > sizeof path) {
            rc = tr_fail(t, e, MW_EINVAL, t->listpath, ln, 1, "kernel trace path too long");
            break;
        }
        if (!file_exists(path)) {
            if (!ends_with(path, ".xz")) strcat(path, ".xz");
            if (!file_exists(path)) {
                rc = tr_fail(t, e, MW_EINVAL, t->listpath, ln, 1,
                             "expected kernel trace '%s' (or '%s.xz') next to the list, found no such file", line,
                             line);
                break;
            }
        }
        char *p = strdup(path);
        if (!p || add_cmd(t, &cap, p, ln) < 0) {
            free(p);
            rc = tr_fail(t, e, MW_ENOMEM, t->listpath, ln, 0, "out of memory");
            break;
        }
        kernels++;
    }
    mw_xz_close(f);
    return rc < 0 ? rc : 0;
}

int mw_workload_open_trace(struct mw_workload *w, const char *path, struct mw_err *e)
{
    memset(w, 0, sizeof *w);
    struct tr *t = calloc(1, sizeof *t);
    if (!t) return mw_err_set(e, MW_ENOMEM, path, 0, 0, "out of memory");
    struct stat st;
    char dir[TR_PATH];
    if (strlen(path) + 16 > sizeof dir) {
        free(t);
        return mw_err_set(e, MW_EINVAL, path, 0, 0, "trace path too long");
    }
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        size_t n = strlen(path);
        while (n > 1 && path[n - 1] == '/') n--;
        snprintf(dir, sizeof dir, "%.*s", (int)n, path);
        snprintf(t->listpath, sizeof t->listpath, "%.*s/kernelslist.g", (int)(sizeof dir - 16), dir);
    } else {
        memcpy(t->listpath, path, strlen(path) + 1); /* fits: checked above */
        const char *sl = strrchr(path, '/');
        size_t n = sl ? (size_t)(sl - path) : 0;
        memcpy(dir, path, n);
        dir[n] = 0;
        if (sl == path) strcpy(dir, "/");
    }
    int rc = parse_list(t, dir, e);
    if (rc < 0) {
        w->self = t;
        tr_destroy(w);
        return rc;
    }
    t->failed = false;
    w->ops = &trace_ops;
    w->self = t;
    /* the workload's name: the trace folder's */
    const char *d = dir[0] ? dir : ".";
    const char *base = strrchr(d, '/');
    base = base && base[1] ? base + 1 : d;
    if (!strcmp(base, ".") || !strcmp(base, "/")) base = "trace";
    snprintf(w->name, sizeof w->name, "%.*s", (int)sizeof w->name - 1, base);
    return 0;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Queries and the whole-trace summary                                                                    */
/* ------------------------------------------------------------------------------------------------------ */

const struct mw_trace_kernel_info *mw_trace_kernel_info(const struct mw_workload *w)
{
    if (!w || w->ops != &trace_ops) return NULL;
    const struct tr *t = w->self;
    return t->have_kernel ? &t->info : NULL;
}

const struct mw_trace_memcpy *mw_trace_memcpys(const struct mw_workload *w, size_t *n)
{
    *n = 0;
    if (!w || w->ops != &trace_ops) return NULL;
    const struct tr *t = w->self;
    *n = t->nmc;
    return t->mc;
}

void mw_trace_summary_free(struct mw_trace_summary *s)
{
    if (!s) return;
    free(s->kernels);
    memset(s, 0, sizeof *s);
}

int mw_trace_stats(const char *path, struct mw_trace_summary *out, struct mw_err *e)
{
    memset(out, 0, sizeof *out);
    struct mw_workload w;
    int rc = mw_workload_open_trace(&w, path, e);
    if (rc < 0) return rc;
    struct tr *t = w.self;
    out->nmemcpy = (uint32_t)t->nmc;
    for (size_t i = 0; i < t->nmc; i++) out->memcpy_bytes += t->mc[i].bytes;
    struct mw_kernel k;
    struct mw_inst in;
    uint32_t cap = 0;
    while ((rc = w.ops->next_kernel(&w, &k, e)) > 0) {
        if (out->nkernels == cap) {
            cap = cap ? cap * 2 : 4;
            struct mw_trace_kernel_summary *nb = realloc(out->kernels, cap * sizeof *nb);
            if (!nb) {
                rc = mw_err_set(e, MW_ENOMEM, path, 0, 0, "out of memory");
                break;
            }
            out->kernels = nb;
        }
        struct mw_trace_kernel_summary *ks = &out->kernels[out->nkernels++];
        memset(ks, 0, sizeof *ks);
        ks->k = k;
        ks->ctas = mw_kernel_ctas(&k);
        for (uint32_t c = 0; c < ks->ctas && rc >= 0; c++) {
            void *st;
            rc = w.ops->cta_open(&w, c, &st, e);
            if (rc < 0) break;
            struct tr_cta *cs = st;
            ks->tbs += cs->present;
            for (uint32_t wi = 0; wi < cs->nwarps && rc >= 0; wi++) {
                ks->warps += cs->w[wi].seen;
                while ((rc = w.ops->warp_next(&w, st, wi, &in, e)) > 0) {
                    ks->insts++;
                    ks->op[in.op]++;
                    if (mw_op_is_mem(in.op)) ks->mem_lanes += (uint64_t)mw_popcount32(in.mask);
                }
            }
            w.ops->cta_close(&w, st);
        }
        ks->info = t->info;
        out->insts += ks->insts;
        for (int o = 0; o < MW_OP_COUNT; o++) out->op[o] += ks->op[o];
        if (rc < 0) break;
        /* the rest of the file must be well formed too (a thread block there would be out of order) */
        struct tr_cta *extra = NULL;
        rc = next_tb(t, &extra, e);
        cta_free(extra);
        if (rc < 0) break;
    }
    w.ops->destroy(&w);
    if (rc < 0) {
        mw_trace_summary_free(out);
        return rc;
    }
    return 0;
}

void mw_trace_set_cache(struct mw_workload *w, bool on, const char *dir)
{
    if (!w || w->ops != &trace_ops) return;
    struct tr *t = w->self;
    t->use_cache = on;
    snprintf(t->cache_dir, sizeof t->cache_dir, "%s", dir ? dir : "");
}

int mw_trace_source(const struct mw_workload *w)
{
    if (!w || w->ops != &trace_ops) return -1;
    const struct tr *t = w->self;
    return t->have_kernel ? t->cache_source : -1;
}
