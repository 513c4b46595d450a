/* `moonwarp list-configs` (the presets and their one-line descriptions), `moonwarp list-stats` (every counter with
 * its description and unit, from the stats declared as data) and the CSV and table forms of a run's stats. */
#include "cmd_info.h"

#include "config.h"
#include "paths.h"
#include "sim.h"
#include "workload.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void print_preset(void *ud, const char *name, const char *path, const char *desc)
{
    (void)ud;
    printf("%-34s %s\n%-34s   %s\n", name, desc[0] ? desc : "(no description)", "", path);
}

int mw_cmd_list_configs(int argc, char **argv)
{
    (void)argc, (void)argv;
    const char *dir = mw_dir(MW_DIR_CONFIGS);
    if (mw_list_presets(print_preset, NULL) == 0) {
        fprintf(stderr, "moonwarp: no presets found%s%s\n", dir[0] ? " in " : "", dir);
        return 1;
    }
    printf("\n%s presets in %s; --config NAME (or config = \"NAME\" in Lua) picks one, a path still works.\n",
           mw_installed() ? "installed" : "source-tree", dir);
    return 0;
}

int mw_stat_catalogue(struct mw_stat_list *l)
{
    struct mw_err e;
    mw_err_clear(&e);
    struct mw_config *cfg = malloc(sizeof *cfg);
    if (!cfg) return MW_ENOMEM;
    mw_config_defaults(cfg);
    struct mw_workload w;
    int rc = mw_workload_open_builtin(&w, "micro.stream", "tiny", 1, &e);
    struct mw_sim *s = rc ? NULL : mw_sim_create(cfg, &e);
    if (!s) {
        if (!rc) mw_workload_close(&w);
        free(cfg);
        return rc ? rc : e.code ? e.code : MW_EINVAL;
    }
    rc = mw_sim_set_workload(s, &w, &e);
    if (!rc) rc = mw_sim_run(s, 1, &e) < 0 ? e.code : 0;
    if (!rc) rc = mw_sim_stats(s, l, false);
    mw_sim_destroy(s);
    free(cfg);
    return rc;
}

int mw_cmd_list_stats(int argc, char **argv)
{
    (void)argc, (void)argv;
    struct mw_stat_list l;
    mw_stat_list_init(&l);
    int rc = mw_stat_catalogue(&l);
    if (rc) {
        fprintf(stderr, "moonwarp: cannot list the stats (error %d)\n", rc);
        mw_stat_list_fini(&l);
        return 1;
    }
    printf("%-30s %-14s %s\n", "name", "unit", "description");
    for (int i = 0; i < l.n; i++)
        printf("%-30s %-14s %s\n", l.v[i].name, l.v[i].unit && l.v[i].unit[0] ? l.v[i].unit : "-",
               l.v[i].desc ? l.v[i].desc : "");
    printf("\n%d counters. A run also reports each instance, unit.INSTANCE.counter (l1d.3.mshr_fail, dram.2.row_hits), "
           "and the counters its policies publish, policy.POINT.NAME.\n",
           l.n);
    mw_stat_list_fini(&l);
    return 0;
}

/* A value as stats.json writes it: an exact integer, else 9 significant digits; empty for NaN/inf. */
static void num(FILE *f, double v)
{
    if (!isfinite(v)) return;
    if (v == floor(v) && fabs(v) < 9e15) fprintf(f, "%.0f", v);
    else fprintf(f, "%.9g", v);
}

static void csv_field(FILE *f, const char *s)
{
    if (!s) s = "";
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

int mw_write_stats_csv(const char *path, const struct mw_stat_list *l, struct mw_err *e)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp%d", path, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) return mw_err_set(e, MW_EIO, path, 0, 0, "cannot write: %s", strerror(errno));
    fputs("name,value,unit,description\n", f);
    for (int i = 0; i < l->n; i++) {
        csv_field(f, l->v[i].name);
        fputc(',', f);
        num(f, l->v[i].value);
        fputc(',', f);
        csv_field(f, l->v[i].unit);
        fputc(',', f);
        csv_field(f, l->v[i].desc);
        fputc('\n', f);
    }
    bool bad = ferror(f) != 0 || fflush(f) != 0 || fsync(fileno(f)) != 0; /* on disk before it takes the name */
    if (fclose(f) != 0) bad = true;
    if (bad || rename(tmp, path) != 0) {
        int rc = mw_err_set(e, MW_EIO, path, 0, 0, "cannot write: %s", strerror(errno));
        unlink(tmp);
        return rc;
    }
    return 0;
}

void mw_print_stats_table(FILE *f, const struct mw_stat_list *l)
{
    int w = 4;
    for (int i = 0; i < l->n; i++) {
        int k = (int)strlen(l->v[i].name);
        if (k > w) w = k;
    }
    fprintf(f, "%-*s %18s  %-12s %s\n", w, "name", "value", "unit", "description");
    for (int i = 0; i < l->n; i++) {
        const struct mw_stat_entry *s = &l->v[i];
        char v[64];
        if (!isfinite(s->value)) snprintf(v, sizeof v, "-");
        else if (s->value == floor(s->value) && fabs(s->value) < 9e15) snprintf(v, sizeof v, "%.0f", s->value);
        else snprintf(v, sizeof v, "%.6f", s->value);
        fprintf(f, "%-*s %18s  %-12s %s\n", w, s->name, v, s->unit && s->unit[0] ? s->unit : "-", s->desc ? s->desc : "");
    }
}
