/* Register-file banks with arbitration, for the policies that keep data in the register file (Linebacker, CERF):
 * per SM, which banks are taken in each of the next RFB_RING core cycles. A bank serves one warp register (128 B)
 * per cycle; a request takes its bank at the first cycle from the asked one at which the bank is free, and waits
 * the difference (a bank conflict when it waits). The engine has no operand collector, so the operand side is a
 * counted estimate: each issued instruction's distinct source registers (RZ and uniform registers excluded) take
 * their banks at the issue cycle, in issue order; they are never delayed (issue timing is the engine's), but each
 * one that finds its bank taken counts as a conflict and takes the next free cycle, so it can push a later victim
 * access back. Victim accesses (a line read or written in the register file) take the bank of their physical warp
 * register and are delayed by what they wait. Bank of warp register r of warp w: (r [+ w]) mod banks, as
 * GPGPU-Sim's register_bank() (the + w when gpgpu_reg_bank_use_warp_id, off by default); a victim register is a
 * physical register number, so its bank is rn mod banks. Pure, no engine calls: the tests drive it by hand. */
#ifndef MW_RF_BANKS_H
#define MW_RF_BANKS_H

#include <stdbool.h>
#include <stdint.h>

#include "workload.h"

#define RFB_RING 64 /* cycles of look-ahead per SM (a power of two); a request waits at most this long */
#define RFB_MAX_BANKS 64

struct rfb_sm {
    uint64_t cyc[RFB_RING];  /* the cycle each slot describes */
    uint64_t busy[RFB_RING]; /* banks taken in that cycle */
};

/* What a run did to the banks of all SMs: the counters behind Fig. 16. */
struct rfb_count {
    uint64_t operand_reads, operand_conflicts; /* source-register reads, and those that found their bank taken */
    uint64_t victim_accesses, victim_conflicts, victim_wait; /* victim line reads / writes, delayed ones, cycles */
};

/* Take bank `bank` at the first cycle >= t at which it is free. Returns the cycles waited (RFB_RING if every
 * slot of the ring is taken: the request is then counted as waiting that long and takes no slot). */
static inline int rfb_take(struct rfb_sm *m, int bank, uint64_t t)
{
    for (int d = 0; d < RFB_RING; d++) {
        uint64_t c = t + (uint64_t)d;
        int i = (int)(c & (RFB_RING - 1));
        if (m->cyc[i] != c) m->cyc[i] = c, m->busy[i] = 0;
        if (!(m->busy[i] >> bank & 1u)) {
            m->busy[i] |= 1ull << bank;
            return d;
        }
    }
    return RFB_RING;
}

static inline int rfb_bank(int reg, int warp, int banks, bool warp_skew)
{
    return (int)(((unsigned)reg + (warp_skew ? (unsigned)warp : 0u)) % (unsigned)banks);
}

/* The operand reads of instruction `in` issued by warp `warp` at cycle `now`. Returns the conflicts it caused. */
static inline int rfb_operands(struct rfb_sm *m, struct rfb_count *n, const struct mw_inst *in, int warp,
                               uint64_t now, int banks, bool warp_skew)
{
    int conflicts = 0;
    for (int i = 0; i < in->nsrc && i < MW_INST_MAX_SRC; i++) {
        int r = in->src[i];
        if (r >= MW_REG_UNIFORM_BASE) continue; /* uniform registers are another file */
        bool dup = false;
        for (int j = 0; j < i && !dup; j++) dup = in->src[j] == r; /* one read serves a repeated operand */
        if (dup) continue;
        n->operand_reads++;
        if (rfb_take(m, rfb_bank(r, warp, banks, warp_skew), now) > 0) conflicts++;
    }
    n->operand_conflicts += (uint64_t)conflicts;
    return conflicts;
}

/* A victim line read or written in warp register rn at cycle `now`. Returns the cycles it waits for its bank. */
static inline int rfb_victim(struct rfb_sm *m, struct rfb_count *n, int rn, uint64_t now, int banks)
{
    int d = rfb_take(m, rfb_bank(rn, 0, banks, false), now);
    n->victim_accesses++;
    if (d > 0) n->victim_conflicts++, n->victim_wait += (uint64_t)d;
    return d;
}

#endif
