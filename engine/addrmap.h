/* Address mapping: which L2 slice (and so which memory partition / DRAM channel) a global address belongs to,
 * its partition-local DRAM address, and its slice-local address (the L2 set index). A leaf unit: the L1D, the
 * L2 slices and the partitions all ask it. */
#ifndef MW_ADDRMAP_H
#define MW_ADDRMAP_H

#include "simctx.h"

int mw_addr_slice(const struct mw_sim *s, uint64_t addr);
uint64_t mw_addr_local(const struct mw_sim *s, uint64_t addr);      /* partition-local (DRAM) address */
uint64_t mw_addr_slice_local(const struct mw_sim *s, uint64_t addr);/* slice-local (L2 set index) address */

#endif
