/* OAWS Fig. 4's view of the SM (Wang et al., PACT'16): global/local loads and the MSHR entries they allocate, by
 * the issuing warp's age rank among the SM's resident warps (0 = oldest; the order GTO prefers), in bins of 8.
 * Part of the SM's counters (engine/sm_stats.h). */
#ifndef MW_SM_AGE_STATS_H
#define MW_SM_AGE_STATS_H

#define MW_SM_AGE_BINS 5 /* ranks 0-7, 8-15, 16-23, 24-31, 32 and up */
#define MW_SM_AGE_STATS(X)                                                                                \
    X(ld_age0_7, "global/local loads issued by warps of age rank 0-7 (0 = oldest resident)", "inst", SUM)  \
    X(ld_age8_15, "global/local loads issued by warps of age rank 8-15", "inst", SUM)                      \
    X(ld_age16_23, "global/local loads issued by warps of age rank 16-23", "inst", SUM)                    \
    X(ld_age24_31, "global/local loads issued by warps of age rank 24-31", "inst", SUM)                    \
    X(ld_age32_up, "global/local loads issued by warps of age rank 32 and up", "inst", SUM)               \
    X(mshr_age0_7, "L1D MSHR entries allocated by loads of warps of age rank 0-7", "entry", SUM)           \
    X(mshr_age8_15, "L1D MSHR entries allocated by loads of warps of age rank 8-15", "entry", SUM)         \
    X(mshr_age16_23, "L1D MSHR entries allocated by loads of warps of age rank 16-23", "entry", SUM)       \
    X(mshr_age24_31, "L1D MSHR entries allocated by loads of warps of age rank 24-31", "entry", SUM)       \
    X(mshr_age32_up, "L1D MSHR entries allocated by loads of warps of age rank 32 and up", "entry", SUM)   \
    X(ldst_coal, "LDST cycles an access went to L1D and more of its instruction remain (OAWS's LDST_COAL)", "core cycles", SUM) \
    X(ldst_icnt_store, "ldst_stall_miss_queue cycles (OAWS's LDST_ICNT) whose request was a store", "core cycles", SUM)

#endif
