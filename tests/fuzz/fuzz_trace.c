/* The Accel-Sim trace reader driving the engine: the input is one kernel trace (kernel-1.traceg), xz-compressed
 * when the first byte is odd (kernel-1.traceg.xz: the reader's decoder sees the rest), listed by a kernelslist.g;
 * a small GPU runs it for at most a few thousand cycles. Every input must end in a run or a clean error. */
#include "fuzz_common.h"

#include "config.h"
#include "sim.h"
#include "workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (!n) return 0;
    bool xz = d[0] & 1;
    char list[] = "kernel-1.traceg\n";
    unlink(xz ? fz_write(1, "kernel-1.traceg", NULL, 0) : fz_write(1, "kernel-1.traceg.xz", NULL, 0));
    fz_write(2, xz ? "kernel-1.traceg.xz" : "kernel-1.traceg", d + 1, n - 1);
    const char *kl = fz_write(0, "kernelslist.g", (const uint8_t *)list, strlen(list));
    struct mw_err e;
    mw_err_clear(&e);
    struct mw_workload w;
    memset(&w, 0, sizeof w);
    if (mw_workload_open_trace(&w, kl, &e)) {
        if (!e.msg[0]) abort();
        return 0;
    }
    struct mw_config *c = malloc(sizeof *c);
    mw_config_defaults(c);
    c->gpu.n_sms = 2;
    struct mw_sim *s = mw_sim_create(c, &e);
    if (!s) abort();
    if (mw_sim_set_workload(s, &w, &e) == 0) {
        int rc = mw_sim_run(s, 3000, &e);
        if (rc < 0 && !e.msg[0]) abort();
    } else if (!e.msg[0]) abort();
    mw_sim_destroy(s);
    free(c);
    return 0;
}
