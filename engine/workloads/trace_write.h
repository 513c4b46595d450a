/* Exporting any workload (built-in kernel models, Lua generators) as an Accel-Sim trace folder, so the same
 * workload can run on Accel-Sim beside moonwarp; reading the folder back gives the same instruction streams. */
#ifndef MW_TRACE_WRITE_H
#define MW_TRACE_WRITE_H

#include "workload.h"

/* Write dir/kernelslist.g and dir/kernel-N.traceg for every kernel of w (consumed: w is at its end after).
 * The folder is created if needed; files are written under temporary names and renamed when complete. */
int mw_trace_export(struct mw_workload *w, const char *dir, struct mw_err *e);

#endif
