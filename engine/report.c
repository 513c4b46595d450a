/* stats.json and the console summary. */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    while (s && *s) {
        size_t n = 0; /* a run of characters that need no escape, written at once */
        while (s[n] && s[n] != '"' && s[n] != '\\' && (unsigned char)s[n] >= 0x20) n++;
        if (n) {
            fwrite(s, 1, n, f);
            s += n;
            continue;
        }
        unsigned char c = (unsigned char)*s++;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else fprintf(f, "\\u%04x", c);
    }
    fputc('"', f);
}

static void json_num(FILE *f, double v)
{
    if (!isfinite(v)) fputs("null", f);
    else if (v == floor(v) && fabs(v) < 9e15 && !(v == 0 && signbit(v))) {
        /* an integer (exact: below 9e15 < 2^53), as "%.0f" prints it, without printf's floating-point path */
        char buf[24];
        int k = sizeof buf;
        long long x = (long long)v;
        unsigned long long u = x < 0 ? 0ull - (unsigned long long)x : (unsigned long long)x;
        do buf[--k] = (char)('0' + u % 10);
        while ((u /= 10) > 0);
        if (x < 0) buf[--k] = '-';
        fwrite(buf + k, 1, sizeof buf - (size_t)k, f);
    } else if (v == floor(v) && fabs(v) < 9e15) fprintf(f, "%.0f", v);
    else fprintf(f, "%.9g", v);
}

int mw_write_stats_json(const char *path, const struct mw_stat_list *l, const struct mw_run_info *ri, struct mw_err *e)
{
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n);
    if (!tmp) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    snprintf(tmp, n, "%s.tmp%d", path, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        int rc = mw_err_set(e, MW_EIO, path, 0, 0, "cannot write: %s", strerror(errno));
        free(tmp);
        return rc;
    }
    fputs("{\n  \"run\": {", f);
    fputs("\"config\": ", f), json_str(f, ri->config);
    fputs(", \"workload\": ", f), json_str(f, ri->workload);
    fprintf(f, ", \"seed\": %llu, \"completed\": %s, \"wall_s\": ", (unsigned long long)ri->seed,
            ri->completed ? "true" : "false");
    json_num(f, ri->wall_s);
    fputs(", \"cpu_s\": ", f), json_num(f, ri->cpu_s);
    fputs(", \"cycles_per_s\": ", f), json_num(f, ri->cycles_per_s);
    fputs(", \"warp_insts_per_s\": ", f), json_num(f, ri->warp_insts_per_s);
    fputs("},\n  \"stats\": {\n", f);
    for (int i = 0; i < l->n; i++) {
        fputs("    ", f);
        json_str(f, l->v[i].name);
        fputs(": ", f);
        json_num(f, l->v[i].value);
        fputs(i + 1 < l->n ? ",\n" : "\n", f);
    }
    fputs("  }\n}\n", f);
    bool bad = ferror(f) != 0 || fflush(f) != 0 || fsync(fileno(f)) != 0; /* on disk before it takes the name */
    if (fclose(f) != 0) bad = true;
    if (bad || rename(tmp, path) != 0) {
        int rc = mw_err_set(e, MW_EIO, path, 0, 0, "cannot write: %s", strerror(errno));
        unlink(tmp);
        free(tmp);
        return rc;
    }
    free(tmp);
    return 0;
}

void mw_print_summary(FILE *f, const struct mw_stat_list *l)
{
    static const char *const keys[] = {
        "gpu.cycles",         "gpu.warp_insts",        "gpu.thread_insts",  "gpu.ipc",
        "l1d.accesses",       "l1d.hits",              "l1d.misses",        "l1d.miss_rate",
        "l1d.bypasses",       "l1d.line_alloc_fail",   "l1d.mshr_fail",     "l1d.miss_queue_fail",
        "l2.accesses",        "l2.hits",               "l2.misses",         "l2.mshr_merges",
        "dram.reads",         "dram.writes",           "dram.row_hits",     "dram.row_hit_rate",
        "dram.avg_read_latency", "mem.avg_load_latency", "mem.max_load_latency",
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const struct mw_stat_entry *s = mw_stat_list_get(l, keys[i]);
        if (!s) continue;
        if (s->value == floor(s->value) && fabs(s->value) < 9e15)
            fprintf(f, "  %-24s %14.0f  %s\n", s->name, s->value, s->unit ? s->unit : "");
        else
            fprintf(f, "  %-24s %14.4f  %s\n", s->name, s->value, s->unit ? s->unit : "");
    }
}
