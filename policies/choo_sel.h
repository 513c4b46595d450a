/* Shared rules of Choo 2016's selective-caching policies (policies/choo_sel.c, lasc.c, memsched.c): the per-set
 * contention rule of IndSelCaching (thesis §4.3.2) and the load-PC hashes of the per-line and per-PC tables. */
#ifndef MW_CHOO_SEL_H
#define MW_CHOO_SEL_H

#include "policy.h"

/* Schemes when an instruction's divergence N exceeds the associativity n (§4.3.1, §4.3.2):
 * a = bypass all N, b = cache the first n, c = cache the last n, set = scheme c per L1D set (IndSelCaching). */
enum choo_scheme { CHOO_A = 0, CHOO_B, CHOO_C, CHOO_SET };

/* Does request `index` of the instruction's n requests (reqs[].set) bypass under `scheme`? Only divergent
 * instructions (n > assoc) bypass anything (§1.1 of the extraction: the detector triggers on N > assoc). */
static inline bool choo_sel_bypass(int scheme, const struct mw_coal_req *reqs, int n, int index, int assoc)
{
    if (n <= assoc) return false;
    switch (scheme) {
    case CHOO_A: return true;
    case CHOO_B: return index >= assoc;
    case CHOO_C: return index < n - assoc;
    default: break;
    }
    /* R_s = the requests mapping to this request's set, in issue order: the last n of R_s are cached */
    int s = reqs[index].set, total = 0, before = 0;
    for (int i = 0; i < n; i++)
        if (reqs[i].set == s) {
            total++;
            if (i < index) before++;
        }
    return total > assoc && before < total - assoc;
}

/* A load PC folded to `bits` bits (7 for LocSelCaching's per-line hashed PC, 6 for LASC's 64-entry RFT). PCs are
 * code addresses of 8-byte instructions (GTX480 preset: sm.inst_bytes = 8), so the low three bits carry nothing. */
static inline unsigned choo_hash_pc(uint64_t pc, int bits)
{
    uint64_t x = pc >> 3;
    unsigned h = 0;
    while (x) {
        h ^= (unsigned)(x & ((1u << bits) - 1));
        x >>= bits;
    }
    return h;
}

#endif
