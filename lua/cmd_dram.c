/* `moonwarp dram --config X.yaml --trace T[.xz]`: one DRAM channel driven by a request trace with the DRAMSim3
 * oracle's front end (engine/workloads/dram_trace.c); prints the summary, its own speed, and optionally the oracle's
 * reference.csv row (--csv) and one row per request (--per-request FILE). */
#include "cmd_dram.h"
#include "config.h"
#include "dram_trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_OK = 0, EXIT_INPUT = 2, EXIT_RUN = 3 };
#define MAX_SETS 256

static void usage(FILE *f)
{
    fputs("usage: moonwarp dram --config FILE.yaml --trace FILE[.xz] [--set section.key=value]...\n"
          "                     [--csv] [--per-request FILE.csv] [--tick] [--repeat N]\n"
          "  --csv          print the summary as CSV (header + one row, the oracle's reference.csv columns);\n"
          "                 the human summary then goes to stderr\n"
          "  --per-request  write one row per request (completion order) to FILE ('-' = stdout)\n"
          "  --tick         step every DRAM cycle instead of jumping over idle ones (same results, slower)\n"
          "  --repeat N     run N times and report the median wall time (speed measurement)\n"
          "trace lines: 0x<hex address> READ|WRITE <cycle>\n",
          f);
}

static int fail(const struct mw_err *e)
{
    char buf[1600];
    fprintf(stderr, "moonwarp dram: %s\n", mw_err_str(e, buf, sizeof buf));
    return e->code == MW_EHOOK || e->code == MW_ENOMEM ? EXIT_RUN : EXIT_INPUT;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void summary(FILE *f, const struct mw_config *c, const char *cfg_path, const struct mw_dram_trace_result *r,
                    const char *policy, double wall, int repeat)
{
    const struct mw_dram_stats *s = &r->st;
    double tck_ns = 1000.0 / c->clock.dram_mhz;
    double atom = (double)(c->dram.bus_bytes * c->dram.burst_length);
    double burst = (double)((c->dram.burst_length + c->dram.data_rate - 1) / c->dram.data_rate);
    double peak = atom / (burst * tck_ns);
    uint64_t cols = s->row_hits + s->row_misses + s->row_conflicts;
    fprintf(f, "dram: trace %s on %s, scheduler %s\n", r->name, cfg_path, policy);
    fprintf(f, "  requests          %llu (%llu reads, %llu writes)\n", (unsigned long long)r->requests,
            (unsigned long long)r->reads, (unsigned long long)r->writes);
    fprintf(f, "  cycles            %llu (%.3f us at %g MHz)\n", (unsigned long long)r->cycles,
            (double)r->cycles * tck_ns / 1000.0, c->clock.dram_mhz);
    fprintf(f, "  read latency      avg %.2f, max %llu cycles (queue entry to last data beat)\n", r->avg_read_latency,
            (unsigned long long)s->read_latency_max);
    fprintf(f, "  bandwidth         %.3f GB/s (%.1f %% of the channel's %.2f GB/s)\n", r->bandwidth_gbps,
            peak > 0 ? 100.0 * r->bandwidth_gbps / peak : 0.0, peak);
    fprintf(f, "  row hit rate      %.5f (%llu hits, %llu misses, %llu conflicts of %llu column commands)\n",
            r->row_hit_rate, (unsigned long long)s->row_hits, (unsigned long long)s->row_misses,
            (unsigned long long)s->row_conflicts, (unsigned long long)cols);
    fprintf(f, "  commands          %llu ACT, %llu PRE; data bus busy %llu cycles; front end refused %llu cycles\n",
            (unsigned long long)s->activates, (unsigned long long)s->precharges,
            (unsigned long long)s->data_bus_busy, (unsigned long long)s->queue_full);
    fprintf(f, "  speed             %.0f requests/s, %.0f DRAM cycles/s, wall %.4f s%s\n",
            wall > 0 ? (double)r->requests / wall : 0.0, wall > 0 ? (double)r->cycles / wall : 0.0, wall,
            repeat > 1 ? " (median of the runs)" : "");
}

int mw_cmd_dram(int argc, char **argv)
{
    const char *cfg_path = NULL, *trace = NULL, *per_req = NULL;
    const char *sets[MAX_SETS];
    int nsets = 0, repeat = 1;
    bool csv = false, tick = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_val = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return EXIT_OK;
        } else if (!strcmp(a, "--csv")) {
            csv = true;
        } else if (!strcmp(a, "--tick")) {
            tick = true;
        } else if (has_val && !strcmp(a, "--config")) {
            cfg_path = argv[++i];
        } else if (has_val && !strcmp(a, "--trace")) {
            trace = argv[++i];
        } else if (has_val && !strcmp(a, "--per-request")) {
            per_req = argv[++i];
        } else if (has_val && !strcmp(a, "--set")) {
            if (nsets == MAX_SETS) {
                fprintf(stderr, "moonwarp dram: more than %d --set options\n", MAX_SETS);
                return EXIT_INPUT;
            }
            sets[nsets++] = argv[++i];
        } else if (has_val && !strcmp(a, "--repeat")) {
            char *end;
            errno = 0;
            long v = strtol(argv[++i], &end, 10);
            if (errno || *end || v < 1 || v > 1000) {
                fprintf(stderr, "moonwarp dram: --repeat: expected a count from 1 to 1000, got '%s'\n", argv[i]);
                return EXIT_INPUT;
            }
            repeat = (int)v;
        } else {
            fprintf(stderr, "moonwarp dram: %s '%s'\n",
                    a[0] == '-' ? "unknown option or missing value" : "unexpected argument", a);
            usage(stderr);
            return EXIT_INPUT;
        }
    }
    if (!cfg_path || !trace) {
        fprintf(stderr, "moonwarp dram: --config and --trace are required\n");
        usage(stderr);
        return EXIT_INPUT;
    }

    struct mw_err e;
    mw_err_clear(&e);
    struct mw_config *c = malloc(sizeof *c);
    if (!c) {
        fprintf(stderr, "moonwarp dram: out of memory\n");
        return EXIT_RUN;
    }
    int rc = 0;
    FILE *prf = NULL;
    mw_config_defaults(c);
    if (mw_config_load_file(c, cfg_path, &e)) goto err;
    for (int i = 0; i < nsets; i++)
        if (mw_config_set(c, sets[i], &e)) goto err;
    if (mw_config_validate(c, &e)) goto err;

    struct mw_policy_inst pi;
    if (mw_dram_trace_policy(c, &pi, &e)) goto err;
    if (per_req) {
        prf = strcmp(per_req, "-") == 0 ? stdout : fopen(per_req, "w");
        if (!prf) {
            mw_err_set(&e, MW_EIO, per_req, 0, 0, "cannot write: %s", strerror(errno));
            mw_policy_inst_fini(&pi);
            goto err;
        }
    }
    struct mw_dram_trace_result res;
    double walls[1000];
    for (int k = 0; k < repeat; k++) {
        struct mw_dram_trace_opts o = {.per_request = k == 0 ? prf : NULL, .tick_all = tick};
        if (mw_dram_trace_run(c, &pi, trace, &o, &res, &e)) {
            mw_policy_inst_fini(&pi);
            goto err;
        }
        walls[k] = res.wall_s;
    }
    qsort(walls, (size_t)repeat, sizeof walls[0], cmp_double);
    double wall = repeat % 2 ? walls[repeat / 2] : 0.5 * (walls[repeat / 2 - 1] + walls[repeat / 2]);
    summary(csv ? stderr : stdout, c, cfg_path, &res, pi.pol->name, wall, repeat);
    mw_policy_inst_fini(&pi);
    if (csv) {
        printf("%s\n", MW_DRAM_TRACE_CSV_HEADER);
        mw_dram_trace_csv_row(stdout, &res);
    }
    goto out;
err:
    rc = fail(&e);
out:
    if (prf && prf != stdout && fclose(prf) && !rc) {
        fprintf(stderr, "moonwarp dram: %s: write failed: %s\n", per_req, strerror(errno));
        rc = EXIT_RUN;
    }
    free(c);
    return rc;
}
