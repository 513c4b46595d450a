/* `moonwarp trace --workload NAME [--size S] [--seed N] --out DIR`: export a built-in workload as an Accel-Sim
 * trace folder (kernelslist.g + kernel-N.traceg) that moonwarp and Accel-Sim can both run. */
#include "cmd_trace.h"
#include "lworkload.h"

#include "trace_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mw_cmd_trace(int argc, char **argv)
{
    const char *wl = NULL, *size = NULL, *out = NULL;
    unsigned long long seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            fprintf(stderr, "moonwarp trace: %s needs a value\n", a);
            return 2;
        }
        if (!strcmp(a, "--workload")) wl = v;
        else if (!strcmp(a, "--size")) size = v;
        else if (!strcmp(a, "--out")) out = v;
        else if (!strcmp(a, "--seed")) seed = strtoull(v, NULL, 0);
        else {
            fprintf(stderr, "moonwarp trace: unknown option '%s'\n", a);
            return 2;
        }
        i++;
    }
    if (!wl || !out) {
        fprintf(stderr, "usage: moonwarp trace --workload NAME [--size S] [--seed N] --out DIR\n");
        return 2;
    }
    struct mw_err e;
    mw_err_clear(&e);
    struct mw_workload w = {0};
    char buf[1600];
    int rc = mw_lua_workload_path(wl) ? mw_lua_workload_open_file(&w, wl, seed, &e)
                                     : mw_workload_open_builtin(&w, wl, size, seed, &e);
    if (rc || mw_trace_export(&w, out, &e)) {
        fprintf(stderr, "moonwarp: %s\n", mw_err_str(&e, buf, sizeof buf));
        if (w.ops) mw_workload_close(&w);
        return 2;
    }
    mw_workload_close(&w);
    printf("trace: %s/kernelslist.g\n", out);
    return 0;
}
