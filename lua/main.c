/* The moonwarp command: `run` a workload on a machine config, `list-policies`, `list-workloads`, `dram`
 * (the DRAM controller alone on a request trace), `moonwarp script.lua [args]`, and with no arguments the Lua
 * REPL. Bad input exits 2 with file:line:col: message. Every command's help is in lua/help.c. */
#include "cmd_dram.h"
#include "cmd_info.h"
#include "help.h"
#include "lmoonwarp.h"
#include "paths.h"
#include "cmd_sweep.h"
#include "cmd_trace.h"
#include "config.h"
#include "lpolicy.h"
#include "policy.h"
#include "repl.h"
#include "report.h"
#include "sim.h"
#include "workload.h"
#include "lworkload.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


enum { EXIT_INPUT = 2, EXIT_RUN = 3 };


/* CPU time (user + system) of this process so far: a run's cost with its start-up. */
static double process_cpu_s(void)
{
    struct rusage u;
    if (getrusage(RUSAGE_SELF, &u)) return 0;
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}
static void usage(FILE *f) { mw_help_usage(f); }

static int print_err(const struct mw_err *e)
{
    char buf[1600];
    fprintf(stderr, "moonwarp: %s\n", mw_err_str(e, buf, sizeof buf));
    return e->code == MW_EHOOK ? EXIT_RUN : EXIT_INPUT;
}

static int list_policies(void)
{
    for (int k = 0; k <= MW_PT_COUNT; k++) { /* the decision points, then the bundles (policies.bundle) */
        enum mw_point pt = k < MW_PT_COUNT ? (enum mw_point)k : MW_PT_BUNDLE;
        const struct mw_policy *const *list = mw_policies(pt);
        if (!list) continue;
        printf("%s\n", mw_point_name(pt));
        for (const struct mw_policy *const *p = list; *p; p++) {
            printf("  %-12s %s\n", (*p)->name, (*p)->desc);
            for (int i = 0; i < (*p)->nparams; i++) {
                const struct mw_param_desc *d = &(*p)->params[i];
                static const char *const tn[] = {"int", "number", "bool", "enum"};
                printf("      %-16s %-6s default %-8s %s", d->name, tn[d->type], d->def, d->help);
                if (d->type == MW_PP_ENUM) printf(" (%s)", d->choices);
                else if (d->type != MW_PP_BOOL) printf(" [%g, %g]", d->min, d->max);
                printf("\n");
            }
        }
    }
    return 0;
}

/* The distinct kernel names a workload launches at its tiny size ("?" if it cannot be opened). */
static void kernel_names(const struct mw_builtin_desc *d, char *out, size_t n)
{
    struct mw_workload w;
    struct mw_err e;
    mw_err_clear(&e);
    snprintf(out, n, "?");
    if (d->open(&w, "tiny", 1, &e)) return;
    size_t len = 0;
    out[0] = 0;
    struct mw_kernel k;
    char seen[16][128];
    int nseen = 0;
    while (w.ops->next_kernel(&w, &k, &e) == 1) {
        int j = 0;
        while (j < nseen && strcmp(seen[j], k.name)) j++;
        if (j < nseen || nseen == 16) continue;
        snprintf(seen[nseen++], sizeof seen[0], "%s", k.name);
        len += (size_t)snprintf(out + len, len < n ? n - len : 0, "%s%s", len ? "," : "", k.name);
        if (len >= n) break;
    }
    mw_workload_close(&w);
}

static int list_workloads(void)
{
    printf("%-22s %-10s %-24s %s\n", "name", "suite", "sizes", "description / kernels");
    for (int i = 0; i < mw_builtin_nworkloads; i++) {
        const struct mw_builtin_desc *d = &mw_builtin_workloads[i];
        char names[512];
        kernel_names(d, names, sizeof names);
        printf("%-22s %-10s %-24s %s\n%-58s kernels: %s\n", d->name, d->suite, d->sizes, d->desc, "", names);
    }
    return 0;
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct progress {
    double t0;
    bool shown;
};

static void on_progress(void *ud, const struct mw_sim *s)
{
    struct progress *p = ud;
    double dt = wall_now() - p->t0;
    fprintf(stderr, "\r  cycle %12llu  %8.1f s  %10.0f cycles/s", (unsigned long long)mw_now(s), dt,
            dt > 0 ? (double)mw_now(s) / dt : 0.0);
    p->shown = true;
}

static struct mw_sim *interrupt_target;
static void on_sigint(int sig)
{
    (void)sig;
    if (interrupt_target) mw_sim_interrupt(interrupt_target);
}

enum { FMT_JSON = 1, FMT_CSV = 2, FMT_TABLE = 4 };
/* --format json,csv,table */
static int parse_formats(const char *v, unsigned *out)
{
    static const char *const names[] = {"json", "csv", "table"};
    for (const char *p = v;;) {
        size_t n = strcspn(p, ",");
        int k = 0;
        while (k < 3 && !(strlen(names[k]) == n && !strncmp(p, names[k], n))) k++;
        if (k == 3) {
            fprintf(stderr, "moonwarp run: --format: unknown format '%.*s' (json, csv, table; comma-separated)\n", (int)n, p);
            return -1;
        }
        *out |= 1u << k;
        if (!p[n]) return 0;
        p += n + 1;
    }
}

/* --config NAME: the preset's path in place of the name (argv entries point into a static buffer). */
static int resolve_config_args(int argc, char **argv)
{
    static char paths[4][4096];
    int k = 0;
    for (int i = 0; i + 1 < argc && k < 4; i++) {
        if (strcmp(argv[i], "--config")) continue;
        if (mw_resolve_config(argv[i + 1], paths[k], sizeof paths[k])) {
            fprintf(stderr, "moonwarp: %s\n", paths[k]);
            return -1;
        }
        argv[++i] = paths[k++];
    }
    return 0;
}


/* mkdir -p: create DIR and any missing parents (an existing folder is fine). 0, or -1 with errno set. */
static int mkdir_p(const char *dir)
{
    char path[4096];
    size_t n = strlen(dir);
    if (n == 0 || n >= sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(path, dir, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (path[i] != '/' && path[i] != '\0') continue;
        char c = path[i];
        path[i] = '\0';
        struct stat sb;
        if (stat(path, &sb) != 0) {
            if (mkdir(path, 0777) != 0 && errno != EEXIST) return -1;
        } else if (!S_ISDIR(sb.st_mode)) {
            errno = ENOTDIR;
            return -1;
        }
        path[i] = c;
    }
    return 0;
}
static int cmd_run(int argc, char **argv)
{
    const char *cfg_path = NULL, *wl_name = NULL, *trace = NULL, *out = ".", *size = NULL;
    const char *sets[256];
    int nsets = 0;
    long long seed = -1, max_cycles = -1;
    bool quiet = false;
    unsigned formats = 0; /* FMT_* bits; none given = json */
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEEDV()                                                 \
    if (!v) {                                                   \
        fprintf(stderr, "moonwarp: %s needs a value\n", a);     \
        return EXIT_INPUT;                                      \
    }                                                           \
    i++
        if (!strcmp(a, "--config")) {
            NEEDV();
            cfg_path = v;
        } else if (!strcmp(a, "--workload")) {
            NEEDV();
            wl_name = v;
        } else if (!strcmp(a, "--trace")) {
            NEEDV();
            trace = v;
        } else if (!strcmp(a, "--size")) {
            NEEDV();
            size = v;
        } else if (!strcmp(a, "--out")) {
            NEEDV();
            out = v;
        } else if (!strcmp(a, "--set")) {
            NEEDV();
            if (nsets == 256) {
                fprintf(stderr, "moonwarp: too many --set options\n");
                return EXIT_INPUT;
            }
            sets[nsets++] = v;
        } else if (!strcmp(a, "--seed") || !strcmp(a, "--max-cycles")) {
            NEEDV();
            char *end;
            errno = 0;
            long long x = strtoll(v, &end, 0);
            if (errno || *end || x < 0) {
                fprintf(stderr, "moonwarp: %s: '%s' is not a non-negative integer\n", a, v);
                return EXIT_INPUT;
            }
            const struct mw_cfg_field *f = mw_config_find("sim", !strcmp(a, "--seed") ? "seed" : "max_cycles");
            if ((double)x > f->max) { /* the config's own range: checked here, since it is assigned after validation */
                fprintf(stderr, "moonwarp: %s: %s is out of range 0..%.0f\n", a, v, f->max);
                return EXIT_INPUT;
            }
            if (!strcmp(a, "--seed")) seed = x;
            else max_cycles = x;
        } else if (!strcmp(a, "--format")) {
            NEEDV();
            if (parse_formats(v, &formats)) return EXIT_INPUT;
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) quiet = true;
        else {
            fprintf(stderr, "moonwarp run: unknown option '%s'\n", a);
            usage(stderr);
            return EXIT_INPUT;
        }
#undef NEEDV
    }
    if (!wl_name == !trace) {
        fprintf(stderr, "moonwarp run: give exactly one of --workload and --trace\n");
        return EXIT_INPUT;
    }
    if (!formats) formats = FMT_JSON;
    struct stat osb;
    if (stat(out, &osb) == 0 && !S_ISDIR(osb.st_mode)) { /* before the run, not after it */
        fprintf(stderr, "moonwarp: --out: '%s' exists and is not a folder\n", out);
        return EXIT_INPUT;
    }
    const char *cfg_name = cfg_path;
    char cfg_buf[4096];
    if (cfg_path) {
        if (mw_resolve_config(cfg_path, cfg_buf, sizeof cfg_buf)) {
            fprintf(stderr, "moonwarp: %s\n", cfg_buf);
            return EXIT_INPUT;
        }
        cfg_path = cfg_buf;
    }
    struct mw_err e;
    mw_err_clear(&e);
    static struct mw_config cfg;
    mw_config_defaults(&cfg);
    if (cfg_path && mw_config_load_file(&cfg, cfg_path, &e)) return print_err(&e);
    for (int i = 0; i < nsets; i++)
        if (mw_config_set(&cfg, sets[i], &e)) return print_err(&e);
    if (seed >= 0) cfg.sim.seed = seed;
    if (max_cycles >= 0) cfg.sim.max_cycles = max_cycles;
    if (mw_config_validate(&cfg, &e)) return print_err(&e);

    struct mw_workload wl;
    int rc = trace                           ? mw_workload_open_trace(&wl, trace, &e)
             : mw_lua_workload_path(wl_name) ? mw_lua_workload_open_file(&wl, wl_name, (uint64_t)cfg.sim.seed, &e)
                                             : mw_workload_open_builtin(&wl, wl_name, size, (uint64_t)cfg.sim.seed, &e);
    if (rc) return print_err(&e);
    struct mw_sim *s = mw_sim_create(&cfg, &e);
    if (!s) {
        mw_workload_close(&wl);
        return print_err(&e);
    }
    if (mw_sim_set_workload(s, &wl, &e) || mw_lua_install_config_policies(s, &cfg, &e)) {
        mw_sim_destroy(s);
        return print_err(&e);
    }
    if (mkdir_p(out) != 0) {
        fprintf(stderr, "moonwarp: cannot create output folder '%s': %s\n", out, strerror(errno));
        mw_sim_destroy(s);
        return EXIT_INPUT;
    }
    struct progress pr = {.t0 = wall_now()};
    if (!quiet) mw_sim_set_progress(s, on_progress, &pr, 1000);
    interrupt_target = s;
    signal(SIGINT, on_sigint);
    double t0 = wall_now();
    rc = mw_sim_run(s, 0, &e);
    double wall = wall_now() - t0;
    signal(SIGINT, SIG_DFL);
    interrupt_target = NULL;
    if (pr.shown) fputc('\n', stderr);
    if (rc < 0) {
        int x = print_err(&e);
        fprintf(stderr, "moonwarp: the run stopped at core cycle %llu; no stats written\n",
                (unsigned long long)mw_now(s));
        mw_sim_destroy(s);
        return x;
    }
    struct mw_stat_list l;
    mw_stat_list_init(&l);
    mw_sim_stats(s, &l, true);
    const struct mw_stat_entry *cyc = mw_stat_list_get(&l, "gpu.cycles"), *wi = mw_stat_list_get(&l, "gpu.warp_insts");
    struct mw_run_info ri = {.config = cfg_name ? cfg_name : "(defaults)",
                             .workload = trace ? trace : wl_name,
                             .seed = (uint64_t)cfg.sim.seed,
                             .wall_s = wall,
                             .cpu_s = process_cpu_s(),
                             .cycles_per_s = wall > 0 ? cyc->value / wall : 0,
                             .warp_insts_per_s = wall > 0 ? wi->value / wall : 0,
                             .completed = rc == 1};
    char path[4096];
    snprintf(path, sizeof path, "%s/stats.json", out);
    if (!quiet) {
        printf("moonwarp: %s on %s%s\n", ri.workload, ri.config, rc == 1 ? "" : " (stopped before completion)");
        mw_print_summary(stdout, &l);
    }
    printf("speed: %.0f simulated cycles/s, %.0f warp instructions/s (%.0f cycles, %.0f warp insts in %.3f s)\n",
           ri.cycles_per_s, ri.warp_insts_per_s, cyc->value, wi->value, wall);
    int ret = 0;
    if (formats & FMT_TABLE) mw_print_stats_table(stdout, &l);
    if ((formats & FMT_JSON) && mw_write_stats_json(path, &l, &ri, &e)) ret = print_err(&e);
    else if ((formats & FMT_JSON) && !quiet) printf("stats: %s\n", path);
    snprintf(path, sizeof path, "%s/stats.csv", out);
    if (!ret && (formats & FMT_CSV) && mw_write_stats_csv(path, &l, &e)) ret = print_err(&e);
    else if (!ret && (formats & FMT_CSV) && !quiet) printf("stats: %s\n", path);
    mw_stat_list_fini(&l);
    mw_sim_destroy(s);
    return ret;
}

int main(int argc, char **argv)
{
    if (argc < 2) return mw_repl_main();
    const char *cmd = argv[1];
    size_t clen = strlen(cmd);
    if ((clen > 4 && !strcmp(cmd + clen - 4, ".lua")) || (strchr(cmd, '/') && access(cmd, R_OK) == 0))
        return mw_script_main(argc - 1, argv + 1);
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V") || !strcmp(cmd, "version")) {
        printf("moonwarp %s (%s; files: %s)\n", MW_VERSION, LUA_RELEASE, mw_installed() ? "installed" : "source tree");
        return 0;
    }
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        if (argc > 2 && !strcmp(argv[2], "--man")) {
            mw_help_man(stdout);
            return 0;
        }
        if (argc > 2 && mw_help_command(stdout, argv[2])) {
            fprintf(stderr, "moonwarp: no command '%s'\n", argv[2]);
            usage(stderr);
            return EXIT_INPUT;
        }
        if (argc <= 2) mw_help_overview(stdout);
        return 0;
    }
    /* COMMAND --help (before the command parses anything); list-x and --list-x are the same command */
    const char *hname = !strncmp(cmd, "--list-", 7) ? cmd + 2 : cmd;
    if (mw_help_known(hname) && strcmp(hname, "help"))
        for (int i = 2; i < argc; i++)
            if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return mw_help_command(stdout, hname), 0;
    if (!strncmp(hname, "list-", 5) && argc > 2) { /* every list-x command */
        fprintf(stderr, "moonwarp %s: takes no arguments, got '%s'\n", hname, argv[2]);
        return EXIT_INPUT;
    }
    if (!strcmp(cmd, "list-configs") || !strcmp(cmd, "--list-configs")) return mw_cmd_list_configs(argc - 1, argv + 1);
    if (!strcmp(cmd, "list-stats") || !strcmp(cmd, "--list-stats")) return mw_cmd_list_stats(argc - 1, argv + 1);
    if (!strcmp(cmd, "run")) return cmd_run(argc - 2, argv + 2);
    if (!strcmp(cmd, "repl") && argc == 2) return mw_repl_main();
    if (!strcmp(cmd, "list-policies") || !strcmp(cmd, "--list-policies")) return list_policies();
    if (!strcmp(cmd, "list-workloads") || !strcmp(cmd, "--list-workloads")) return list_workloads();
    if (!strcmp(cmd, "dram")) return resolve_config_args(argc, argv) ? EXIT_INPUT : mw_cmd_dram(argc - 1, argv + 1);
    if (!strcmp(cmd, "trace")) return mw_cmd_trace(argc - 1, argv + 1);
    if (!strcmp(cmd, "sweep")) return mw_cmd_sweep(argc - 1, argv + 1);
    if (!strcmp(cmd, "results")) return mw_cmd_results(argc - 1, argv + 1);
    if (!strcmp(cmd, "sweep-task")) return mw_cmd_sweep_task(argc - 1, argv + 1);
    if (!strcmp(cmd, "trace-info")) return mw_cmd_trace_info(argc - 1, argv + 1);
    fprintf(stderr, "moonwarp: unknown command '%s'\n", cmd);
    usage(stderr);
    return EXIT_INPUT;
}
