/* Workload registry and helpers: the built-in list (micro-kernels, benchmark models) and opening by name. */
#include "workload.h"
#include "workloads.h"

#include <string.h>

const char *const mw_op_names[MW_OP_COUNT] = {
    "nop",       "alu",       "dp",        "sfu",       "tensor",   "branch",   "barrier",   "membar",   "exit",
    "ld_global", "st_global", "atomic",    "ld_local",  "st_local", "ld_shared", "st_shared", "ld_const",
};

const struct mw_builtin_desc mw_builtin_workloads[] = {
    {"micro.stream", "micro", "coalesced streaming loads, one 128 B line per warp load", "tiny|small|default",
     mw_wl_micro_stream},
    {"micro.colstride", "micro", "column-strided load: 32 lanes, 4 KB apart, all in one L1D set", "tiny|small|default",
     mw_wl_micro_colstride},
    {"micro.reuse", "micro", "a loop re-reading a 4 KB array (fits in L1D)", "tiny|small|default", mw_wl_micro_reuse},
    {"micro.compute", "micro", "ALU only, dependent chains", "tiny|small|default", mw_wl_micro_compute},
};
const int mw_builtin_nworkloads = (int)(sizeof mw_builtin_workloads / sizeof mw_builtin_workloads[0]);

int mw_workload_open_builtin(struct mw_workload *w, const char *name, const char *size, uint64_t seed,
                             struct mw_err *e)
{
    for (int i = 0; i < mw_builtin_nworkloads; i++)
        if (strcmp(mw_builtin_workloads[i].name, name) == 0) return mw_builtin_workloads[i].open(w, size, seed, e);
    return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "unknown workload '%s' (see 'moonwarp list-workloads')", name);
}

void mw_workload_close(struct mw_workload *w)
{
    if (w->ops && w->ops->destroy) w->ops->destroy(w);
    memset(w, 0, sizeof *w);
}
