/* Writing a run's results: stats.json (an object with `stats`: name -> value, and `run`: wall time and speed),
 * written to a temporary file and renamed so that a failed run leaves nothing half-written. */
#ifndef MW_REPORT_H
#define MW_REPORT_H

#include "stats.h"

#include <stdio.h>

struct mw_run_info {
    const char *config, *workload;
    uint64_t seed;
    double wall_s;
    double cpu_s;    /* the process's CPU time (user + system) when the run ended, start-up included */
    double cycles_per_s, warp_insts_per_s;
    bool completed;
};

int mw_write_stats_json(const char *path, const struct mw_stat_list *l, const struct mw_run_info *ri, struct mw_err *e);
/* Print the human summary (the headline counters) to f. */
void mw_print_summary(FILE *f, const struct mw_stat_list *l);

#endif
