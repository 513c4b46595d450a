/* The trace reader's fast path: one pass over a well-formed Accel-Sim instruction line, without tokenizing in
 * place or per-token calls. It takes exactly what trace.c's full parser takes, with the same values, and gives
 * up on anything else (a bad field, a number of more than 18 digits), so that the full parser, which reports
 * file:line:col errors, reads that line again. Parsing was about a third of a trace run. */
#include "trace_int.h"

#include <string.h>

static inline const char *skip_blank(const char *p)
{
    while (*p == ' ' || *p == '\t') p++;
    return p;
}

static inline bool tok_end(char c) { return c == ' ' || c == '\t' || c == 0; }

/* Unsigned decimal token of 1..18 digits (no overflow possible): the text after it, or NULL. */
static inline const char *scan_dec(const char *p, uint64_t *v)
{
    const char *s = p;
    uint64_t x = 0;
    while ((unsigned)(*p - '0') < 10) x = x * 10 + (uint64_t)(*p++ - '0');
    if (p == s || p - s > 18 || !tok_end(*p)) return NULL;
    *v = x;
    return p;
}

/* Optional sign, then 1..18 decimal digits. */
static inline const char *scan_sdec(const char *p, int64_t *v)
{
    bool neg = *p == '-';
    if (*p == '-' || *p == '+') p++;
    uint64_t u;
    if (!(p = scan_dec(p, &u))) return NULL;
    *v = neg ? -(int64_t)u : (int64_t)u;
    return p;
}

/* A hex digit's value plus 1; 0 for any other byte. */
static const uint8_t hex_val1[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
    ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
    ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* Optional 0x/0X, then 1..16 hex digits. */
static inline const char *scan_hex(const char *p, uint64_t *v)
{
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) p += 2;
    const char *s = p;
    uint64_t x = 0;
    unsigned d;
    while ((d = hex_val1[(unsigned char)*p]) != 0) {
        x = x << 4 | (d - 1);
        p++;
    }
    if (p == s || p - s > 16 || !tok_end(*p)) return NULL;
    *v = x;
    return p;
}

/* A register token: *keep = 1 with *r for R<n> (n < 255) and UR<n> (n < 63); *keep = 0 for RZ, R255, URZ,
 * UR63 and predicates (P<n>, PT, UP<n>, UPT; n <= 7). NULL for anything else. */
static inline const char *scan_reg(const char *p, int *keep, uint16_t *r)
{
    uint64_t v;
    const char *q;
    *keep = 0;
    if (p[0] == 'R') {
        if (p[1] == 'Z' && tok_end(p[2])) return p + 2;
        if (!(q = scan_dec(p + 1, &v)) || v > 255) return NULL;
        if (v < 255) {
            *keep = 1;
            *r = (uint16_t)v;
        }
        return q;
    }
    bool uni = p[0] == 'U';
    if (uni && p[1] == 'R') {
        if (p[2] == 'Z' && tok_end(p[3])) return p + 3;
        if (!(q = scan_dec(p + 2, &v)) || v > 63) return NULL;
        if (v < 63) {
            *keep = 1;
            *r = (uint16_t)(MW_REG_UNIFORM_BASE + v);
        }
        return q;
    }
    if (uni) p++;
    if (p[0] != 'P') return NULL;
    if (p[1] == 'T' && tok_end(p[2])) return p + 2;
    if (!(q = scan_dec(p + 1, &v)) || v > 7) return NULL;
    return q;
}

bool tr_line_scan(const char *line, unsigned tracer_version, bool lineinfo, struct tr_line *l, char *opbuf,
                  size_t opcap)
{
    const char *p = skip_blank(line);
    uint64_t v;
    for (int i = (tracer_version < 3 ? 4 : 0) + (lineinfo ? 1 : 0); i > 0; i--) { /* ids, source line */
        if (!(p = scan_dec(p, &v)) || v > UINT32_MAX) return false;
        p = skip_blank(p);
    }
    if (!(p = scan_hex(p, &l->pc))) return false;
    p = skip_blank(p);
    if (!(p = scan_hex(p, &v)) || v > UINT32_MAX) return false;
    l->mask = (uint32_t)v;
    p = skip_blank(p);

    l->ndst = l->nsrc = 0;
    if (!(p = scan_dec(p, &v)) || v > 64) return false;
    for (uint64_t i = 0, n = v; i < n; i++) {
        int keep;
        uint16_t r;
        if (!(p = scan_reg(skip_blank(p), &keep, &r))) return false;
        if (keep && l->ndst < MW_INST_MAX_DST) l->dst[l->ndst++] = r;
    }
    p = skip_blank(p);
    if ((unsigned)(*p - 'A') >= 26) return false; /* an opcode starts with an upper-case letter */
    const char *op = p;
    while (!tok_end(*p)) p++;
    size_t oplen = (size_t)(p - op);
    if (oplen >= opcap) return false;
    memcpy(opbuf, op, oplen);
    opbuf[oplen] = 0;
    l->op = opbuf;
    l->opcol = (int)(op - line) + 1;
    p = skip_blank(p);
    if (!(p = scan_dec(p, &v)) || v > 64) return false;
    for (uint64_t i = 0, n = v; i < n; i++) {
        int keep;
        uint16_t r;
        if (!(p = scan_reg(skip_blank(p), &keep, &r))) return false;
        if (keep && l->nsrc < MW_INST_MAX_SRC) l->src[l->nsrc++] = r;
    }
    p = skip_blank(p);
    if (!(p = scan_dec(p, &l->memw)) || l->memw > 1024) return false;

    l->mode = -1;
    l->base = 0;
    l->stride = 0;
    if (l->memw > 0) {
        int lanes = mw_popcount32(l->mask);
        if (!(p = scan_dec(skip_blank(p), &v)) || v > 2) return false;
        l->mode = (int)v;
        if (l->mode == 0) {
            for (int i = 0; i < lanes; i++)
                if (!(p = scan_hex(skip_blank(p), &l->list[i]))) return false;
            l->base = lanes ? l->list[0] : 0;
        } else {
            if (!(p = scan_hex(skip_blank(p), &l->base))) return false;
            if (l->mode == 1) {
                if (!(p = scan_sdec(skip_blank(p), &l->stride))) return false;
            } else {
                for (int i = 0; i + 1 < lanes; i++)
                    if (!(p = scan_sdec(skip_blank(p), &l->deltas[i]))) return false;
            }
        }
    }
    if (tracer_version >= 5) { /* the immediate: decimal or hex, not kept */
        int64_t imm;
        p = skip_blank(p);
        const char *q = scan_sdec(p, &imm);
        if (!q && !(q = scan_hex(p, &v))) return false;
        p = q;
    }
    return *skip_blank(p) == 0;
}
