/* Internal to the Accel-Sim trace reader (trace.c, trace_op.c, trace_line.c): the SASS opcode table's entry
 * type and lookups, and one instruction line as scanned before it becomes a compact record. */
#ifndef MW_TRACE_INT_H
#define MW_TRACE_INT_H

#include "trace.h"

enum op_kind {
    K_FIXED = 0, /* the class is the table's */
    K_GEN_LD,    /* generic LD: shared / local / global by address */
    K_GEN_ST,
    K_GEN_ATOM,
    K_GEN_RED,
    K_TMA,       /* Hopper bulk-tensor copies: their lines use address formats this reader does not decode */
};

struct op_desc {
    const char *name;
    uint8_t cls;   /* enum mw_op */
    uint8_t kind;  /* enum op_kind */
    uint16_t lo, hi; /* binary versions (sm) that have it */
};

/* Opcode decoded once per distinct opcode string of a kernel (binary version fixed). */
struct op_info {
    uint8_t cls, kind;
    uint8_t width;  /* bytes per lane from the modifiers, 0 = not given */
    uint8_t flags;  /* MW_IF_BYPASS_L1 if the modifiers ask for it (applied to global accesses only) */
};

/* The table entry of a base opcode name (len bytes at base, no modifiers), or NULL. */
const struct op_desc *tr_op_lookup(const char *base, size_t len);
/* Width, cache flags and class changes from the modifiers ("" or ".E.64.STRONG.GPU") of an opcode of d. */
void tr_op_modifiers(const char *mods, struct op_info *oi, const struct op_desc *d);

/* One instruction line's fields as written, before its opcode is decoded into a class. */
struct tr_line {
    uint64_t pc;
    uint32_t mask;
    uint8_t ndst, nsrc; /* registers kept: dropped ones (RZ, predicates) and those past the maximum are not */
    uint16_t dst[MW_INST_MAX_DST], src[MW_INST_MAX_SRC];
    const char *op;     /* the opcode with its modifiers, NUL-terminated */
    int opcol;          /* its 1-based column */
    uint64_t memw;      /* the memory width field */
    int mode;           /* address mode 0, 1 or 2; -1 when the width is 0 (no address fields) */
    uint64_t base;      /* mode 1 and 2: the base; mode 0: the first address (0 without lanes) */
    int64_t stride;     /* mode 1 */
    int64_t deltas[MW_WARP_SIZE]; /* mode 2: one per active lane after the first */
    uint64_t list[MW_WARP_SIZE];  /* mode 0: one per active lane */
};

/* Scan one instruction line of a kernel of the given tracer version (lineinfo: lines start with a source line
 * number) in a single pass; the opcode is copied to opbuf (opcap bytes). False, with nothing of the line's
 * meaning decided, when the line is not well formed or holds something the fast path leaves to trace.c's full
 * parser (which then reports the error with its position, or accepts it). */
bool tr_line_scan(const char *line, unsigned tracer_version, bool lineinfo, struct tr_line *l, char *opbuf,
                  size_t opcap);

/* One warp's place in its thread block's record buffer. */
struct tr_wcur {
    size_t off;     /* next record */
    uint32_t left;  /* records left */
    uint32_t n;     /* records announced by "insts =" */
    bool seen;
};

/* A thread block's instructions, as compact records (trace.c, put_inst): a header (struct tr_rec), then the
 * destination and source registers (u16 each), then the addresses in the record's address mode. */
struct tc_map;
struct tr_cta {
    uint32_t id;
    bool present;  /* listed in the file */
    struct tc_map *map; /* buf points into this .mwtrace mapping (a reference to it), else buf is owned */
    int line;      /* its "thread block =" line */
    uint32_t nwarps;
    uint8_t *buf;
    size_t len, cap;
    struct tr_wcur w[];
};

enum tr_amode {
    AM_NONE = 0, /* not a memory instruction, or one without addresses (constant loads) */
    AM_STRIDE,   /* u64 base, i64 stride: k-th active lane at base + k*stride */
    AM_LIST,     /* u64 per active lane */
    AM_DELTA32,  /* u64 base, then i32 delta from the previous active lane, per further active lane */
    AM_DELTA64,  /* same with i64 deltas */
    AM_COUNT
};

struct tr_rec {
    uint64_t pc;
    uint32_t mask;
    uint8_t op, width, flags, ndst, nsrc, amode;
    uint8_t pad[6]; /* zero: records are written to .mwtrace files byte for byte */
};

/* Bytes of a record with header h. */
static inline size_t tr_rec_size(const struct tr_rec *h)
{
    size_t n = sizeof *h + 2u * (size_t)(h->ndst + h->nsrc);
    int lanes = mw_popcount32(h->mask);
    switch (h->amode) {
    case AM_STRIDE: n += 16; break;
    case AM_LIST: n += 8u * (size_t)lanes; break;
    case AM_DELTA32: n += 8 + 4u * (size_t)(lanes > 0 ? lanes - 1 : 0); break;
    case AM_DELTA64: n += 8 + 8u * (size_t)(lanes > 0 ? lanes - 1 : 0); break;
    default: break;
    }
    return n;
}

/* A fingerprint of the opcode table (names, classes, kinds, versions): part of a .mwtrace file's identity. */
uint64_t tr_op_table_hash(void);

/* ---- .mwtrace: a binary cache of one parsed kernel file (trace_cache.c) ---- */

/* A kernel as the cache stores it: the header facts and, per thread block present in the file, its records. */
struct tc_kernel {
    struct mw_kernel k;
    struct mw_trace_kernel_info info; /* tbs_read, warps_read, insts_read: the whole file's */
};

struct tc_map;    /* an open, checked cache file (mapped read-only) */
struct tc_writer; /* a cache file being written (a temporary file renamed at the end) */

/* Where the cache of kernel file src lives: beside it (src + ".mwtrace") when dir is empty and src's folder is
 * writable, else in dir (or $XDG_CACHE_HOME/moonwarp, ~/.cache/moonwarp when dir is empty) under a name made of
 * a hash of src's real path and its base name. False when no place can be named or created. */
bool tc_path(const char *src, const char *dir, char *out, size_t cap);
/* The cache at path if it is intact and made from src as it is now (size, mtime, real path, format version,
 * opcode table), else NULL (why in *why, for tests and messages). */
struct tc_map *tc_open(const char *path, const char *src, const char **why);
/* Drop a reference: the opener's, or a CTA's from tc_cta (the mapping lives while a CTA of it is open). */
void tc_close(struct tc_map *m);
const struct tc_kernel *tc_kernel(const struct tc_map *m);
uint32_t tc_ntbs(const struct tc_map *m);
/* The i-th thread block present in the file (increasing ids) as a CTA whose records point into the mapping (it
 * holds a reference; cta_free drops it); warps_seen/insts: its counts for the reader's streaming counters. NULL if
 * out of memory. */
struct tr_cta *tc_cta(struct tc_map *m, uint32_t i, uint32_t *warps_seen, uint64_t *insts);
uint32_t tc_tb_id(const struct tc_map *m, uint32_t i);

struct tc_writer *tc_begin(const char *path, const char *src);
int tc_put_cta(struct tc_writer *w, const struct tr_cta *c);
/* Write the kernel facts and the index, then rename into place. 0 or <0 (the temporary file is removed). */
int tc_commit(struct tc_writer *w, const struct tc_kernel *k);
void tc_abort(struct tc_writer *w);

#endif
