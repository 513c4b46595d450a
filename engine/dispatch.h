/* The kernel launcher and CTA dispatcher: takes the workload's kernels one at a time, checks that a CTA fits
 * on an SM, and places CTAs on SMs that can take one (hardware limits and the CTA-throttling decision point),
 * rotating the starting SM. */
#ifndef MW_DISPATCH_H
#define MW_DISPATCH_H

#include "simctx.h"

/* End the current kernel if all its CTAs are done and start the next one (KERNEL_END/START events). */
int mw_dispatch_kernels(struct mw_sim *s, struct mw_err *e);
/* Place as many CTAs as the SMs take this cycle; returns how many, or < 0 on error. */
int mw_dispatch_ctas(struct mw_sim *s, struct mw_err *e);
/* The CTAs of kernel k one SM holds at most by its limits (CTAs, warps, threads, registers, shared memory). */
uint32_t mw_occupancy(const struct mw_config *c, const struct mw_kernel *k);
/* Could a CTA be placed now? */
bool mw_dispatch_ready(struct mw_sim *s);

#endif
