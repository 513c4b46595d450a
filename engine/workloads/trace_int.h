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

#endif
