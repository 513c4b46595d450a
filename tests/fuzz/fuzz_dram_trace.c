/* The DRAM request-trace reader (`moonwarp dram`): the input is a trace file, run through a controller with a
 * cycle cap. Every input must end in a result or a clean error. */
#include "fuzz_common.h"

#include "config.h"
#include "dram_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    const char *path = fz_write(0, "req.trace", d, n);
    struct mw_config *c = malloc(sizeof *c);
    mw_config_defaults(c);
    struct mw_dram_trace_opts o = {NULL, false, 200000};
    struct mw_dram_trace_result r;
    struct mw_err e;
    mw_err_clear(&e);
    int rc = mw_dram_trace_run(c, NULL, path, &o, &r, &e);
    if (rc && !e.msg[0]) abort();
    free(c);
    return 0;
}
