/* Every built-in policy's ops table, for the registry (engine/registry.c). */
#ifndef MW_POLICIES_H
#define MW_POLICIES_H

#include "policy.h"

extern const struct mw_warp_sched_ops mw_pol_lrr, mw_pol_gto, mw_pol_two_level;
extern const struct mw_l1d_bypass_ops mw_pol_bypass_none, mw_pol_bypass_all;
extern const struct mw_granularity_ops mw_pol_gran_line, mw_pol_gran_sector;
extern const struct mw_dram_sched_ops mw_pol_dram_fcfs, mw_pol_dram_frfcfs;
extern const struct mw_cta_throttle_ops mw_pol_cta_none, mw_pol_cta_static;
extern const struct mw_ldst_sched_ops mw_pol_ldst_inorder;
extern const struct mw_replacement_ops mw_pol_repl_lru, mw_pol_repl_fifo;

#endif
