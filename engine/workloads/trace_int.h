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

#endif
