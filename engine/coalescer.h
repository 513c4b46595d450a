/* Address generation for the LDST unit: the coalescer (Fermi: one request per 128 B segment touched, shrunk
 * to 64 / 32 B; or one per 32 B sector), shared-memory bank conflicts, and the translation of per-thread local
 * offsets into the interleaved local-memory window. Pure functions of an instruction. */
#ifndef MW_COALESCER_H
#define MW_COALESCER_H

#include "config.h"
#include "l1d.h"
#include "policy.h"
#include "workload.h"

struct mw_coalescer {
    uint64_t line_bytes;
    bool sector_mode;
    struct mw_set_index idx; /* the L1D's, so that each request carries its set */
};
void mw_coalescer_init(struct mw_coalescer *co, const struct mw_config *c, const struct mw_set_index *idx);
/* The requests of a global/local memory instruction, in lane order of first touch; returns how many. `out`
 * has room for MW_WARP_SIZE * 2. */
int mw_coalesce(const struct mw_coalescer *co, const struct mw_inst *in, struct mw_coal_req *out);
/* LDST cycles a shared-memory access occupies: the most distinct words any of the 32 banks serves. */
int mw_shared_conflicts(const struct mw_inst *in);
/* Local memory: per-thread offsets below MW_LOCAL_WINDOW become addresses in the interleaved local window. */
#define MW_LOCAL_WINDOW (1ull << 24)
#define MW_LOCAL_BASE (1ull << 40)
const struct mw_inst *mw_local_translate(const struct mw_config *c, int sm, int w, const struct mw_inst *in,
                                         struct mw_inst *out);

#endif
