/* The SASS opcode table of the Accel-Sim trace reader (trace.c): each opcode's class and the binary versions
 * (sm) that have it, and the modifiers that change its width, caching or class. */
#include "trace_int.h"

#include <ctype.h>
#include <string.h>

/* Architecture ranges. Kepler/Maxwell/Pascal-only opcodes end at 69; later ones start at the first sm that
 * has them (70 Volta, 75 Turing, 80 Ampere, 90 Hopper). Opcodes first seen on Blackwell are listed from 90 so
 * that a newer trace labelled 90 is not refused over a table detail. */
#define ALL 0, 999
#define MP 0, 69
#define VO 70, 999
#define TU 75, 999
#define AM 80, 999
#define HO 90, 999

#define A MW_OP_ALU
#define D MW_OP_DP
#define S MW_OP_SFU
#define T MW_OP_TENSOR
#define B MW_OP_BRANCH

static const struct op_desc op_table[] = {
    /* fp32 */
    {"FADD", A, K_FIXED, ALL}, {"FADD32I", A, K_FIXED, ALL}, {"FCHK", A, K_FIXED, ALL},
    {"FFMA", A, K_FIXED, ALL}, {"FFMA32I", A, K_FIXED, ALL}, {"FMNMX", A, K_FIXED, ALL},
    {"FMUL", A, K_FIXED, ALL}, {"FMUL32I", A, K_FIXED, ALL}, {"FSEL", A, K_FIXED, ALL},
    {"FSET", A, K_FIXED, ALL}, {"FSETP", A, K_FIXED, ALL}, {"FSWZADD", A, K_FIXED, ALL},
    {"FCMP", A, K_FIXED, MP}, {"FMNMX3", A, K_FIXED, HO}, {"FFMA2", A, K_FIXED, HO},
    {"FADD2", A, K_FIXED, HO}, {"FMUL2", A, K_FIXED, HO},
    /* fp16 */
    {"HADD2", A, K_FIXED, ALL}, {"HADD2_32I", A, K_FIXED, ALL}, {"HFMA2", A, K_FIXED, ALL},
    {"HFMA2_32I", A, K_FIXED, ALL}, {"HMUL2", A, K_FIXED, ALL}, {"HMUL2_32I", A, K_FIXED, ALL},
    {"HSET2", A, K_FIXED, ALL}, {"HSETP2", A, K_FIXED, ALL}, {"HMNMX2", A, K_FIXED, AM},
    {"VHMNMX", A, K_FIXED, HO},
    /* fp64 */
    {"DADD", D, K_FIXED, ALL}, {"DFMA", D, K_FIXED, ALL}, {"DMUL", D, K_FIXED, ALL},
    {"DSETP", D, K_FIXED, ALL}, {"DMNMX", D, K_FIXED, MP}, {"DSET", D, K_FIXED, MP},
    /* special function unit and conversions */
    {"MUFU", S, K_FIXED, ALL}, {"RRO", S, K_FIXED, MP}, {"F2F", S, K_FIXED, ALL},
    {"F2I", S, K_FIXED, ALL}, {"I2F", S, K_FIXED, ALL}, {"I2I", S, K_FIXED, ALL},
    {"FRND", S, K_FIXED, ALL}, {"F2FP", S, K_FIXED, VO}, {"I2IP", S, K_FIXED, VO},
    {"I2FP", S, K_FIXED, AM}, {"F2IP", S, K_FIXED, AM},
    /* tensor cores */
    {"HMMA", T, K_FIXED, VO}, {"IMMA", T, K_FIXED, VO}, {"BMMA", T, K_FIXED, TU},
    {"DMMA", T, K_FIXED, AM}, {"HGMMA", T, K_FIXED, HO}, {"IGMMA", T, K_FIXED, HO},
    {"QGMMA", T, K_FIXED, HO}, {"BGMMA", T, K_FIXED, HO}, {"QMMA", T, K_FIXED, HO},
    {"OMMA", T, K_FIXED, HO}, {"UTCHMMA", T, K_FIXED, HO}, {"UTCIMMA", T, K_FIXED, HO},
    {"UTCQMMA", T, K_FIXED, HO}, {"UTCOMMA", T, K_FIXED, HO},
    /* integer */
    {"BFE", A, K_FIXED, MP}, {"BFI", A, K_FIXED, MP}, {"BMSK", A, K_FIXED, VO},
    {"BREV", A, K_FIXED, ALL}, {"FLO", A, K_FIXED, ALL}, {"IABS", A, K_FIXED, VO},
    {"IADD", A, K_FIXED, ALL}, {"IADD3", A, K_FIXED, ALL}, {"IADD32I", A, K_FIXED, ALL},
    {"ICMP", A, K_FIXED, MP}, {"IDP", A, K_FIXED, ALL}, {"IDP4A", A, K_FIXED, ALL},
    {"IMAD", A, K_FIXED, ALL}, {"IMADSP", A, K_FIXED, MP}, {"IMNMX", A, K_FIXED, ALL},
    {"IMUL", A, K_FIXED, ALL}, {"IMUL32I", A, K_FIXED, ALL}, {"ISCADD", A, K_FIXED, ALL},
    {"ISCADD32I", A, K_FIXED, ALL}, {"ISET", A, K_FIXED, MP}, {"ISETP", A, K_FIXED, ALL},
    {"LEA", A, K_FIXED, ALL}, {"LOP", A, K_FIXED, ALL}, {"LOP3", A, K_FIXED, ALL},
    {"LOP32I", A, K_FIXED, ALL}, {"POPC", A, K_FIXED, ALL}, {"SHF", A, K_FIXED, ALL},
    {"SHL", A, K_FIXED, ALL}, {"SHR", A, K_FIXED, ALL}, {"XMAD", A, K_FIXED, MP},
    {"VABSDIFF", A, K_FIXED, ALL}, {"VABSDIFF4", A, K_FIXED, VO}, {"VADD", A, K_FIXED, MP},
    {"VMAD", A, K_FIXED, MP}, {"VMNMX", A, K_FIXED, MP}, {"VSET", A, K_FIXED, MP},
    {"VSETP", A, K_FIXED, MP}, {"VSHL", A, K_FIXED, MP}, {"VSHR", A, K_FIXED, MP},
    {"VIADD", A, K_FIXED, HO}, {"VIMNMX", A, K_FIXED, HO}, {"VIADDMNMX", A, K_FIXED, HO},
    {"VIMNMX3", A, K_FIXED, HO}, {"REDUX", A, K_FIXED, AM}, {"CREDUX", A, K_FIXED, HO},
    /* moves, predicates, warp-level data exchange */
    {"MOV", A, K_FIXED, ALL}, {"MOV32I", A, K_FIXED, ALL}, {"MOVM", A, K_FIXED, TU},
    {"PRMT", A, K_FIXED, ALL}, {"SEL", A, K_FIXED, ALL}, {"SGXT", A, K_FIXED, VO},
    {"SHFL", A, K_FIXED, ALL}, {"PLOP3", A, K_FIXED, ALL}, {"PSETP", A, K_FIXED, ALL},
    {"PSET", A, K_FIXED, MP}, {"CSET", A, K_FIXED, MP}, {"CSETP", A, K_FIXED, MP},
    {"P2R", A, K_FIXED, ALL}, {"R2P", A, K_FIXED, ALL}, {"VOTE", A, K_FIXED, ALL},
    {"VOTE_VTG", A, K_FIXED, VO}, {"MATCH", A, K_FIXED, VO}, {"ELECT", A, K_FIXED, HO},
    /* special registers and other single-cycle bookkeeping */
    {"S2R", A, K_FIXED, ALL}, {"CS2R", A, K_FIXED, VO}, {"B2R", A, K_FIXED, ALL},
    {"R2B", A, K_FIXED, ALL}, {"CSMTEST", A, K_FIXED, VO}, {"DEPBAR", A, K_FIXED, ALL},
    {"TEXDEPBAR", A, K_FIXED, MP}, {"GETLMEMBASE", A, K_FIXED, VO}, {"SETLMEMBASE", A, K_FIXED, VO},
    {"LEPC", A, K_FIXED, VO}, {"PMTRIG", A, K_FIXED, ALL}, {"SETCTAID", A, K_FIXED, VO},
    {"QSPC", A, K_FIXED, VO}, {"ERRBAR", A, K_FIXED, VO}, {"CGAERRBAR", A, K_FIXED, HO},
    {"CCTL", A, K_FIXED, ALL}, {"CCTLL", A, K_FIXED, ALL}, {"CCTLT", A, K_FIXED, VO},
    {"LDGDEPBAR", A, K_FIXED, AM}, {"ARRIVES", A, K_FIXED, HO}, {"SYNCS", A, K_FIXED, HO},
    {"WARPGROUP", A, K_FIXED, HO}, {"USETMAXREG", A, K_FIXED, HO}, {"USETSHMSZ", A, K_FIXED, HO},
    {"UCGABAR_ARV", A, K_FIXED, HO}, {"UCGABAR_WAIT", A, K_FIXED, HO}, {"UTMACCTL", A, K_FIXED, HO},
    {"UTMACMDFLUSH", A, K_FIXED, HO}, {"CS2UR", A, K_FIXED, HO},
    {"NOP", MW_OP_NOP, K_FIXED, ALL},
    /* uniform datapath (Turing+) */
    {"R2UR", A, K_FIXED, TU}, {"S2UR", A, K_FIXED, TU}, {"UBMSK", A, K_FIXED, TU},
    {"UBREV", A, K_FIXED, TU}, {"UCLEA", A, K_FIXED, TU}, {"UFLO", A, K_FIXED, TU},
    {"UIADD3", A, K_FIXED, TU}, {"UIMAD", A, K_FIXED, TU}, {"UISETP", A, K_FIXED, TU},
    {"ULEA", A, K_FIXED, TU}, {"ULOP", A, K_FIXED, TU}, {"ULOP3", A, K_FIXED, TU},
    {"ULOP32I", A, K_FIXED, TU}, {"UMOV", A, K_FIXED, TU}, {"UP2UR", A, K_FIXED, TU},
    {"UPLOP3", A, K_FIXED, TU}, {"UPOPC", A, K_FIXED, TU}, {"UPRMT", A, K_FIXED, TU},
    {"UPSETP", A, K_FIXED, TU}, {"UR2UP", A, K_FIXED, TU}, {"USEL", A, K_FIXED, TU},
    {"USGXT", A, K_FIXED, TU}, {"USHF", A, K_FIXED, TU}, {"USHL", A, K_FIXED, TU},
    {"USHR", A, K_FIXED, TU}, {"VOTEU", A, K_FIXED, TU}, {"UF2FP", A, K_FIXED, AM},
    {"UFADD", A, K_FIXED, HO}, {"UFFMA", A, K_FIXED, HO}, {"UFMUL", A, K_FIXED, HO},
    {"UFSEL", A, K_FIXED, HO}, {"UFSETP", A, K_FIXED, HO}, {"UFRND", A, K_FIXED, HO},
    {"UF2I", A, K_FIXED, HO}, {"UI2F", A, K_FIXED, HO}, {"UI2FP", A, K_FIXED, HO},
    {"UIMNMX", A, K_FIXED, HO}, {"UVIMNMX", A, K_FIXED, HO},
    /* texture and surface: NVBit reports no addresses for them, so they run as long ALU work */
    {"TEX", A, K_FIXED, ALL}, {"TLD", A, K_FIXED, ALL}, {"TLD4", A, K_FIXED, ALL},
    {"TMML", A, K_FIXED, ALL}, {"TXD", A, K_FIXED, ALL}, {"TXQ", A, K_FIXED, ALL},
    {"TEXS", A, K_FIXED, MP}, {"TLDS", A, K_FIXED, MP}, {"TLD4S", A, K_FIXED, MP},
    {"SUATOM", A, K_FIXED, ALL}, {"SULD", A, K_FIXED, ALL}, {"SURED", A, K_FIXED, ALL},
    {"SUST", A, K_FIXED, ALL}, {"SUQUERY", A, K_FIXED, VO},
    /* memory */
    {"LDG", MW_OP_LD_GLOBAL, K_FIXED, ALL}, {"STG", MW_OP_ST_GLOBAL, K_FIXED, ALL},
    {"LDGSTS", MW_OP_LD_GLOBAL, K_FIXED, AM},
    {"LDS", MW_OP_LD_SHARED, K_FIXED, ALL}, {"STS", MW_OP_ST_SHARED, K_FIXED, ALL},
    {"LDSM", MW_OP_LD_SHARED, K_FIXED, TU}, {"STSM", MW_OP_ST_SHARED, K_FIXED, HO},
    {"STAS", MW_OP_ST_SHARED, K_FIXED, HO},
    {"LDL", MW_OP_LD_LOCAL, K_FIXED, ALL}, {"STL", MW_OP_ST_LOCAL, K_FIXED, ALL},
    {"LDC", MW_OP_LD_CONST, K_FIXED, ALL}, {"ULDC", MW_OP_LD_CONST, K_FIXED, TU},
    {"LDCU", MW_OP_LD_CONST, K_FIXED, HO},
    {"LD", MW_OP_LD_GLOBAL, K_GEN_LD, ALL}, {"ST", MW_OP_ST_GLOBAL, K_GEN_ST, ALL},
    {"ATOM", MW_OP_ATOMIC, K_GEN_ATOM, ALL}, {"ATOMG", MW_OP_ATOMIC, K_FIXED, VO},
    {"ATOMS", MW_OP_LD_SHARED, K_FIXED, ALL}, {"RED", MW_OP_ATOMIC, K_GEN_RED, ALL},
    {"REDG", MW_OP_ATOMIC, K_FIXED, HO},
    {"MEMBAR", MW_OP_MEMBAR, K_FIXED, ALL}, {"FENCE", MW_OP_MEMBAR, K_FIXED, HO},
    {"UTMALDG", A, K_TMA, HO}, {"UTMASTG", A, K_TMA, HO}, {"UTMAPF", A, K_TMA, HO},
    {"UTMAREDG", A, K_TMA, HO}, {"UBLKCP", A, K_TMA, HO}, {"UBLKPF", A, K_TMA, HO},
    {"UBLKRED", A, K_TMA, HO},
    /* control */
    {"BAR", MW_OP_BARRIER, K_FIXED, ALL}, {"EXIT", MW_OP_EXIT, K_FIXED, ALL},
    {"KILL", MW_OP_EXIT, K_FIXED, ALL},
    {"BRA", B, K_FIXED, ALL}, {"BRX", B, K_FIXED, ALL}, {"BRXU", B, K_FIXED, TU},
    {"JMP", B, K_FIXED, ALL}, {"JMX", B, K_FIXED, ALL}, {"JMXU", B, K_FIXED, TU},
    {"CALL", B, K_FIXED, VO}, {"RET", B, K_FIXED, ALL}, {"BREAK", B, K_FIXED, VO},
    {"BSSY", B, K_FIXED, VO}, {"BSYNC", B, K_FIXED, VO}, {"BMOV", B, K_FIXED, VO},
    {"BPT", B, K_FIXED, ALL}, {"NANOSLEEP", B, K_FIXED, VO}, {"RPCMOV", B, K_FIXED, VO},
    {"RTT", B, K_FIXED, VO}, {"WARPSYNC", B, K_FIXED, VO}, {"YIELD", B, K_FIXED, VO},
    {"CAL", B, K_FIXED, MP}, {"JCAL", B, K_FIXED, MP}, {"PRET", B, K_FIXED, MP},
    {"BRK", B, K_FIXED, MP}, {"PBK", B, K_FIXED, MP}, {"CONT", B, K_FIXED, MP},
    {"PCNT", B, K_FIXED, MP}, {"PEXIT", B, K_FIXED, MP}, {"SSY", B, K_FIXED, MP},
    {"SYNC", B, K_FIXED, MP}, {"ACQBULK", B, K_FIXED, HO}, {"ENDCOLLECTIVE", B, K_FIXED, HO},
    {"PREEXIT", B, K_FIXED, HO},
};

#undef A
#undef D
#undef S
#undef T
#undef B
#undef ALL
#undef MP
#undef VO
#undef TU
#undef AM
#undef HO

const struct op_desc *tr_op_lookup(const char *base, size_t len)
{
    for (size_t i = 0; i < sizeof op_table / sizeof op_table[0]; i++)
        if (strlen(op_table[i].name) == len && memcmp(op_table[i].name, base, len) == 0) return &op_table[i];
    return NULL;
}

/* Bytes per lane named by a modifier: .8/.16/.32/.64/.128 or U8, S16, F32, B64 ... */
static int mod_width(const char *t, size_t n)
{
    size_t i = 0;
    if (n > 1 && (t[0] == 'U' || t[0] == 'S' || t[0] == 'F' || t[0] == 'B')) i = 1;
    if (i == n) return 0;
    unsigned v = 0;
    for (size_t j = i; j < n; j++) {
        if (!isdigit((unsigned char)t[j]) || v > 1000) return 0;
        v = v * 10 + (unsigned)(t[j] - '0');
    }
    return v == 8 || v == 16 || v == 32 || v == 64 || v == 128 ? (int)(v / 8) : 0;
}

static bool tok_is(const char *t, size_t n, const char *s) { return strlen(s) == n && memcmp(t, s, n) == 0; }

void tr_op_modifiers(const char *mods, struct op_info *oi, const struct op_desc *d)
{
    /* mods: the text after the base name, ".E.64.STRONG.GPU" or "" */
    const char *p = mods;
    bool strong = false;
    while (*p == '.') {
        const char *t = ++p;
        while (*p && *p != '.') p++;
        size_t n = (size_t)(p - t);
        if (!oi->width) oi->width = (uint8_t)mod_width(t, n);
        if (tok_is(t, n, "CG")) oi->flags |= MW_IF_CG;
        if (tok_is(t, n, "CV") || tok_is(t, n, "VOLATILE") || tok_is(t, n, "MMIO") ||
            tok_is(t, n, "NA") || tok_is(t, n, "BYPASS"))
            oi->flags |= MW_IF_BYPASS_L1;
        if (strong && (tok_is(t, n, "GPU") || tok_is(t, n, "SYS"))) oi->flags |= MW_IF_BYPASS_L1;
        strong = tok_is(t, n, "STRONG");
        if (d->cls == MW_OP_BARRIER && tok_is(t, n, "ARV")) oi->cls = MW_OP_ALU; /* arrive does not wait */
    }
    /* ldmatrix / stmatrix: every address names a 16-byte row, whatever the element size says */
    if (!strcmp(d->name, "LDSM") || !strcmp(d->name, "STSM")) oi->width = 16;
}

int mw_trace_op_class(const char *opcode, unsigned sm)
{
    size_t n = strcspn(opcode, ".");
    const struct op_desc *d = tr_op_lookup(opcode, n);
    if (!d || d->kind == K_TMA || (sm && (sm < d->lo || sm > d->hi))) return -1;
    struct op_info oi = {.cls = d->cls, .kind = d->kind};
    tr_op_modifiers(opcode + n, &oi, d);
    return oi.cls;
}

uint64_t tr_op_table_hash(void)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a over every entry's fields */
    for (size_t i = 0; i < sizeof op_table / sizeof op_table[0]; i++) {
        const struct op_desc *d = &op_table[i];
        unsigned char b[7] = {d->cls, d->kind, (unsigned char)d->lo, (unsigned char)(d->lo >> 8),
                              (unsigned char)d->hi, (unsigned char)(d->hi >> 8), 0xff};
        for (const char *c = d->name; *c; c++) h = (h ^ (unsigned char)*c) * 1099511628211ull;
        for (size_t j = 0; j < sizeof b; j++) h = (h ^ b[j]) * 1099511628211ull;
    }
    return h;
}
