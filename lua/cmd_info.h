/* The informational commands (list-configs, list-stats) and the stats writers of `run --format`. */
#ifndef MW_CMD_INFO_H
#define MW_CMD_INFO_H

#include "stats.h"

#include <stdio.h>

int mw_cmd_list_configs(int argc, char **argv);
int mw_cmd_list_stats(int argc, char **argv);

/* Every counter a run reports, as totals (unit.counter) with descriptions and units, read from a default machine
 * after one cycle of a tiny workload (the stats are declared as data, engine/stats.h; the derived ones are added
 * by mw_sim_stats). 0 or a negative error code. */
int mw_stat_catalogue(struct mw_stat_list *l);

/* stats.csv: a header `name,value,unit,description` and one row per counter, written to path.tmpPID and renamed. */
int mw_write_stats_csv(const char *path, const struct mw_stat_list *l, struct mw_err *e);
/* Every counter as an aligned table: name, value, unit, description. */
void mw_print_stats_table(FILE *f, const struct mw_stat_list *l);

#endif
