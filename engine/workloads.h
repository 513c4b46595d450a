/* Openers of the built-in workloads, listed in engine/workload.c's registry. */
#ifndef MW_WORKLOADS_H
#define MW_WORKLOADS_H

#include "workload.h"

int mw_wl_micro_stream(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_micro_colstride(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_micro_reuse(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);
int mw_wl_micro_compute(struct mw_workload *w, const char *size, uint64_t seed, struct mw_err *e);

#endif
