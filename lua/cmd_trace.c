/* `moonwarp trace --workload NAME [--size S] [--seed N] --out DIR`: export a built-in workload as an Accel-Sim
 * trace folder (kernelslist.g + kernel-N.traceg) that moonwarp and Accel-Sim can both run. */
#include "cmd_trace.h"
#include "lworkload.h"

#include "trace.h"
#include "trace_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mw_cmd_trace(int argc, char **argv)
{
    const char *wl = NULL, *size = NULL, *out = NULL;
    unsigned long long seed = 1;
    for (int i = 1; i < argc; i += 2) { /* option, value */
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

/* `moonwarp trace-info DIR|kernelslist.g`: read a whole trace (streaming) and print per kernel its launch
 * shape, thread blocks and warps present, warp instructions by operation class and thread-level memory
 * accesses; a malformed trace gives its file:line error and exit status 2. */
int mw_cmd_trace_info(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: moonwarp trace-info DIR|kernelslist.g\n");
        return 2;
    }
    struct mw_err e;
    mw_err_clear(&e);
    struct mw_trace_summary s;
    char buf[1600];
    if (mw_trace_stats(argv[1], &s, &e)) {
        fprintf(stderr, "moonwarp: %s\n", mw_err_str(&e, buf, sizeof buf));
        return 2;
    }
    printf("%s: %u kernels, %llu warp instructions, %u memcpys (%llu bytes)\n", argv[1], s.nkernels,
           (unsigned long long)s.insts, s.nmemcpy, (unsigned long long)s.memcpy_bytes);
    for (uint32_t i = 0; i < s.nkernels; i++) {
        const struct mw_trace_kernel_summary *k = &s.kernels[i];
        printf("kernel %u %s: grid (%u,%u,%u) block (%u,%u,%u) regs %u shmem %u; %u/%u blocks, %llu warps, "
               "%llu warp insts, %llu memory lanes\n",
               k->k.id, k->k.name, k->k.grid[0], k->k.grid[1], k->k.grid[2], k->k.block[0], k->k.block[1],
               k->k.block[2], k->k.nregs, k->k.shmem, k->tbs, k->ctas, (unsigned long long)k->warps,
               (unsigned long long)k->insts, (unsigned long long)k->mem_lanes);
        printf("   ");
        for (int op = 1; op < MW_OP_COUNT; op++)
            if (k->op[op]) printf(" %s %llu", mw_op_names[op], (unsigned long long)k->op[op]);
        printf("\n");
    }
    mw_trace_summary_free(&s);
    return 0;
}
