/* The text of `moonwarp help`, `moonwarp CMD --help` and the man page moonwarp.1, kept as one table of commands.
 * The build writes moonwarp.1 with `moonwarp help --man`, so the man page is this text and nothing else. */
#include "help.h"

#include "lmoonwarp.h"

#include <stdbool.h>
#include <string.h>

struct opt {
    const char *flag, *text;
};
struct cmd {
    const char *name;
    const char *synopsis; /* after "moonwarp " */
    const char *summary;  /* one line */
    const char *about;    /* paragraphs, '\n' separated */
    struct opt opts[16];
    const char *examples[6];
};

static const struct cmd cmds[] = {
    {"run",
     "run --config NAME|FILE.yaml (--workload NAME|FILE.lua [--size S] | --trace DIR|kernelslist.g) "
     "[--set section.key=value]... [--seed N] [--max-cycles N] [--out DIR] [--format json,csv,table] [--quiet]",
     "simulate one workload on one machine and write its stats",
     "Runs a built-in benchmark model (moonwarp list-workloads), a Lua workload generator or an Accel-Sim trace on a "
     "machine config to completion, prints a summary and its own speed, shows progress on stderr for runs longer "
     "than a second, and writes the stats. Ctrl-C stops the run at a cycle boundary.\n"
     "A config is a preset name (moonwarp list-configs) or a YAML file; --set overrides any field after it, "
     "policies included (policies.POINT=NAME, policies.POINT.PARAM=VALUE; moonwarp list-policies).",
     {{"--config NAME|FILE", "machine preset by name (gtx480) or a YAML file; without it, moonwarp's defaults (GTX480)"},
      {"--workload NAME|FILE.lua", "a built-in workload or a Lua workload generator"},
      {"--size S", "the workload's size: tiny, small, default or paper"},
      {"--trace DIR|kernelslist.g", "an Accel-Sim trace instead of --workload"},
      {"--set section.key=value", "override one config field; repeatable"},
      {"--seed N", "seed of workload inputs and Lua policies (sim.seed)"},
      {"--max-cycles N", "stop after N core cycles (0 = no limit)"},
      {"--out DIR", "folder for the stats files (default: the current folder; created if missing)"},
      {"--format LIST", "json (DIR/stats.json, the default), csv (DIR/stats.csv: name,value,unit,description) "
                        "and/or table (every counter on stdout); comma-separated. Files are written atomically (a temporary file renamed)"},
      {"--quiet, -q", "no summary and no progress; only the speed line"},
      {NULL, NULL}},
     {"moonwarp run --config gtx480 --workload micro.colstride",
      "moonwarp run --config gtx480 --workload polybench.bicg --size small --set policies.warp_scheduler=lrr --out out/",
      "moonwarp run --config oaws --workload micro.stream --format csv,table --out out/",
      "moonwarp run --config experiments/configs/gtx480.yaml --trace traces/kernelslist.g", NULL}},
    {"list-configs", "list-configs", "the machine presets, each with its one-line description",
     "Lists the presets that --config NAME and config = \"NAME\" find (the installed ones, or the source tree's "
     "experiments/configs when run from the build folder), with the path of each.",
     {{NULL, NULL}},
     {"moonwarp list-configs", NULL}},
    {"list-policies", "list-policies", "every decision point, its policies, their parameters and defaults",
     "For each decision point, the built-in policies (choose one with --set policies.POINT=NAME) and each policy's "
     "parameters with type, default, range and meaning (--set policies.POINT.PARAM=VALUE).",
     {{NULL, NULL}},
     {"moonwarp list-policies", "moonwarp run --config gtx480 --workload micro.stream --set policies.warp_scheduler=two_level",
      NULL}},
    {"list-workloads", "list-workloads", "the built-in benchmark models, their sizes and kernels",
     "Every built-in workload: name, suite, sizes and description, and the kernels it launches.",
     {{NULL, NULL}},
     {"moonwarp list-workloads", NULL}},
    {"list-stats", "list-stats", "every counter a run reports, with its description and unit",
     "The counters as totals over instances (unit.counter); a run also reports each instance "
     "(unit.INSTANCE.counter: l1d.3.mshr_fail) and the counters the chosen policies publish (policy.POINT.NAME).",
     {{NULL, NULL}},
     {"moonwarp list-stats", "moonwarp list-stats | grep ^l1d", NULL}},
    {"dram",
     "dram --config NAME|FILE.yaml --trace FILE[.xz] [--set section.key=value]... [--csv] [--per-request FILE.csv] "
     "[--tick] [--repeat N]",
     "the DRAM controller alone on a request trace",
     "Feeds a trace of lines `0x<hex address> READ|WRITE <cycle>` to one memory partition's DRAM controller and "
     "prints its latency and row-buffer statistics.",
     {{"--csv", "print the summary as CSV (the human summary goes to stderr)"},
      {"--per-request FILE", "one row per request in completion order ('-' = stdout)"},
      {"--tick", "step every DRAM cycle instead of jumping over idle ones (same results, slower)"},
      {"--repeat N", "run N times and report the median wall time"},
      {NULL, NULL}},
     {"moonwarp dram --config dram/gtx480_partition_dramsim3 --trace a_stream.trace.xz --csv", NULL}},
    {"trace", "trace --workload NAME|FILE.lua [--size S] [--seed N] --out DIR",
     "export a workload as an Accel-Sim trace",
     "Writes DIR/kernelslist.g and DIR/kernel-N.traceg, which moonwarp (--trace) and Accel-Sim both run.",
     {{"--workload NAME", "a built-in workload or a Lua workload generator"},
      {"--size S", "the workload's size"},
      {"--seed N", "seed of the workload's inputs"},
      {"--out DIR", "the trace folder"},
      {NULL, NULL}},
     {"moonwarp trace --workload rodinia.bfs --size tiny --out /tmp/bfs_trace", NULL}},
    {"trace-info", "trace-info DIR|kernelslist.g", "per-kernel counts of an Accel-Sim trace",
     "Reads a whole trace and prints per kernel its launch shape, thread blocks and warps, warp instructions by "
     "operation class and memory accesses. A malformed line is reported as file:line.",
     {{NULL, NULL}},
     {"moonwarp trace-info /tmp/bfs_trace", NULL}},
    {"sweep", "sweep SPEC.yaml [--store DB] [--jobs N] [--out DIR]",
     "a workloads x policies x seeds sweep written in YAML",
     "Checks the spec (file:line:col errors), runs it with the experiment library (moonwarp.experiment), keeps "
     "completed runs in an SQLite store so that a rerun continues, and prints the normalized table. See "
     "docs/sweeps.md for the spec.",
     {{"--store DB", "the results store (overrides the spec's store)"},
      {"--jobs N", "runs at once, each in its own process"},
      {"--out DIR", "results.csv and the bar chart"},
      {"--backend slurm", "submit the runs not yet stored as one Slurm job array (sbatch --array) instead"},
      {"--shared DIR", "with slurm: the folder every node sees (run descriptions, result files, logs)"},
      {"--partition P, --time T", "with slurm: sbatch's partition and time limit"},
      {"--wait, --poll S", "with slurm: wait for the array, polling every S seconds, then collect"},
      {"--no-submit", "with slurm: only collect the finished results into the store"},
      {NULL, NULL}},
     {"moonwarp sweep sweep.yaml --store out/sweep.db --jobs 2 --out out/",
      "moonwarp sweep sweep.yaml --store out/sweep.db --backend slurm --shared /scratch/me/sw --wait", NULL}},
    {"results", "results DB [--csv] [--stats a,b,...]", "what a results store holds",
     "One line (or CSV row) per stored run: its workload, policy, config and the chosen stats.",
     {{"--csv", "CSV instead of lines"}, {"--stats LIST", "the stats to show (default: every stat with --csv, gpu.ipc and gpu.cycles otherwise)"}, {NULL, NULL}},
     {"moonwarp results out/sweep.db --csv --stats gpu.ipc,l1d.miss_rate", NULL}},
    {"script", "SCRIPT.lua [args...]", "run a Lua experiment script",
     "Runs the script with the full Lua standard library, require \"moonwarp\" and the shipped library "
     "(require \"moonwarp.experiment\"); arg[1..] and ... are the arguments. Any readable path containing / is run "
     "as a script. A script error prints its traceback and exits 1.",
     {{NULL, NULL}},
     {"moonwarp experiments/demo.lua out/demo small",
      "moonwarp share/moonwarp/examples/demo.lua /tmp/demo small micro", NULL}},
    {"repl", "[repl]", "the interactive Lua REPL (moonwarp with no arguments)",
     "A Lua 5.4 prompt with the module as mw. Expressions and =expr print their values; tables and simulations "
     "print as indented, key-sorted text (long lists shortened, deep tables cut). TAB completes globals, fields, "
     "sim: methods, stat names in sim:stats()[\"...\"], workload, preset, decision-point and policy names. "
     "History is kept in ~/.moonwarp_history. Ctrl-C pauses a running sim:run(), stops other Lua code, or drops "
     "the line being typed; Ctrl-D quits.",
     {{NULL, NULL}},
     {"moonwarp", "mw> sim = mw.sim{config = \"gtx480\", workload = \"micro.stream\", size = \"tiny\"}",
      "mw> sim:step(100)", "mw> sim:warps(0)[1]", NULL}},
    {"help", "help [COMMAND] | --help | --version", "this help, one command's help, or the version",
     "moonwarp COMMAND --help is the same as moonwarp help COMMAND; moonwarp help --man writes the man page "
     "moonwarp.1 (roff) from this same text.",
     {{"--version", "print the version"}, {NULL, NULL}},
     {"moonwarp help run", "moonwarp sweep --help", NULL}},
};
enum { NCMDS = sizeof cmds / sizeof cmds[0] };

static const struct cmd *find(const char *name)
{
    for (int i = 0; i < NCMDS; i++)
        if (!strcmp(cmds[i].name, name)) return &cmds[i];
    return NULL;
}

int mw_help_known(const char *name) { return find(name) != NULL; }

/* text wrapped at width, every line starting with indent spaces */
static void wrap(FILE *f, const char *text, int indent, int first, int width)
{
    int col = first;
    const char *p = text;
    while (*p) {
        if (*p == '\n') {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
            p++;
            continue;
        }
        size_t w = strcspn(p, " \n");
        if (col > indent && col + 1 + (int)w > width) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', f);
            col++;
        }
        fwrite(p, 1, w, f);
        col += (int)w;
        p += w;
        while (*p == ' ') p++;
    }
    fputc('\n', f);
}

void mw_help_usage(FILE *f)
{
    fputs("usage:\n", f);
    for (int i = 0; i < NCMDS; i++) {
        fputs("  moonwarp ", f);
        wrap(f, cmds[i].synopsis, 13, 11, 110);
    }
    fputs("`moonwarp help COMMAND` or `moonwarp COMMAND --help` for a command's options and examples.\n", f);
}

void mw_help_overview(FILE *f)
{
    fprintf(f, "moonwarp %s: a cycle-level GPU simulator for memory-hierarchy research, scriptable in Lua.\n\n", MW_VERSION);
    fputs("commands:\n", f);
    for (int i = 0; i < NCMDS; i++) fprintf(f, "  %-15s %s\n", cmds[i].name, cmds[i].summary);
    fputs("\n", f);
    mw_help_usage(f);
    fputs("\nexamples:\n"
          "  moonwarp list-configs\n"
          "  moonwarp run --config gtx480 --workload micro.colstride\n"
          "  moonwarp experiments/demo.lua\n"
          "  moonwarp                         # the REPL\n",
          f);
}

int mw_help_command(FILE *f, const char *name)
{
    const struct cmd *c = find(name);
    if (!c) return -1;
    fputs("usage: moonwarp ", f);
    wrap(f, c->synopsis, 16, 16, 110);
    fputs("\n", f);
    wrap(f, c->about, 0, 0, 110);
    if (c->opts[0].flag) {
        fputs("\noptions:\n", f);
        for (const struct opt *o = c->opts; o->flag; o++) {
            int w = fprintf(f, "  %-27s", o->flag);
            if (w > 29) fprintf(f, "\n%*s", 29, "");
            wrap(f, o->text, 29, 29, 110);
        }
    }
    fputs("\nexamples:\n", f);
    for (const char *const *e = c->examples; *e; e++) fprintf(f, "  %s\n", *e);
    return 0;
}

/* ---- man page ----------------------------------------------------------------------------------------------- */
/* roff text: backslashes escaped, '-' as \- (a real hyphen-minus), a leading '.' or '\'' protected */
static void roff(FILE *f, const char *s)
{
    bool bol = true;
    for (; *s; s++) {
        if (bol && (*s == '.' || *s == '\'')) fputs("\\&", f);
        bol = *s == '\n';
        if (*s == '\\') fputs("\\e", f);
        else if (*s == '-') fputs("\\-", f);
        else fputc(*s, f);
    }
}

void mw_help_man(FILE *f)
{
    fprintf(f, ".\\\" moonwarp.1, written by `moonwarp help --man` from lua/help.c: edit that file, not this one.\n"
               ".TH MOONWARP 1 \"\" \"moonwarp %s\" \"User Commands\"\n.SH NAME\nmoonwarp \\- ",
            MW_VERSION);
    fputs("a cycle\\-level GPU simulator for memory\\-hierarchy research, scriptable in Lua\n.SH SYNOPSIS\n", f);
    for (int i = 0; i < NCMDS; i++) {
        fputs(".B moonwarp\n", f);
        roff(f, cmds[i].synopsis);
        fputs("\n.br\n", f);
    }
    fputs(".SH DESCRIPTION\nmoonwarp simulates a GPU cycle by cycle (SIMT pipeline, coalescer, L1D with MSHRs, "
          "crossbar, L2 slices, GDDR DRAM controllers) on machines described in YAML, with every decision that "
          "memory\\-hierarchy research changes (warp scheduling, L1D bypass, cache granularity, DRAM scheduling, "
          "CTA throttling, request scheduling, replacement) a plug\\-in point for a built\\-in policy or a Lua "
          "function.\n.SH COMMANDS\n",
          f);
    for (int i = 0; i < NCMDS; i++) {
        const struct cmd *c = &cmds[i];
        fputs(".SS ", f);
        roff(f, c->name);
        fputs("\n.B moonwarp\n", f);
        roff(f, c->synopsis);
        fputs("\n.PP\n", f);
        for (const char *p = c->about; *p;) {
            size_t n = strcspn(p, "\n");
            char para[2048];
            snprintf(para, sizeof para, "%.*s", (int)n, p);
            roff(f, para);
            fputs("\n.PP\n", f);
            p += n;
            if (*p) p++;
        }
        for (const struct opt *o = c->opts; o->flag; o++) {
            fputs(".TP\n.B ", f);
            roff(f, o->flag);
            fputc('\n', f);
            roff(f, o->text);
            fputc('\n', f);
        }
        fputs(".PP\nExamples:\n.RS\n.nf\n", f);
        for (const char *const *e = c->examples; *e; e++) {
            roff(f, *e);
            fputc('\n', f);
        }
        fputs(".fi\n.RE\n", f);
    }
    fputs(".SH FILES\n.TP\n.I PREFIX/share/moonwarp/configs\nthe machine presets (moonwarp list\\-configs)\n"
          ".TP\n.I PREFIX/share/lua/5.4/moonwarp\nthe Lua library (moonwarp.experiment)\n"
          ".TP\n.I PREFIX/lib/lua/5.4/moonwarp.so\nthe module for a stock lua5.4 (require \"moonwarp\")\n"
          ".TP\n.I PREFIX/share/moonwarp/examples\nexperiment scripts (demo.lua)\n"
          ".TP\n.I PREFIX/share/doc/moonwarp\nREADME.md and the documentation\n"
          ".TP\n.I ~/.moonwarp_history\nthe REPL's history\n"
          ".PP\nAn installed moonwarp finds these relative to its own location; no environment variable is needed.\n"
          ".SH EXIT STATUS\n0 success; 1 a script or Lua error; 2 bad input (a config error is reported as "
          "file:line:col: message); 3 a run that failed (a Lua policy error).\n"
          ".SH SEE ALSO\n.BR lua5.4 (1);\nREADME.md, docs/lua.md, docs/decision\\-points.md and docs/sweeps.md in "
          "PREFIX/share/doc/moonwarp.\n",
          f);
}
