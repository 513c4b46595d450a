/* Maximum occupancy per kernel (engine/dispatch.c, mw_occupancy) and the statically unused registers it leaves
 * (gpu.sur_regs, Linebacker §2.4): hand-computed launches on the Linebacker machine, and a two-kernel run whose
 * cycle-weighted SUR tests/lua/occupancy.lua checks against the kernels' own start / end events. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "config.h"
#include "dispatch.h"
#include "runcmd.h"
#include "sm.h"

#include <stdio.h>
#include <string.h>

static void lb_config(struct mw_config *c)
{
    struct mw_err e;
    mw_config_defaults(c);
    if (mw_config_load_file(c, "experiments/configs/linebacker.yaml", &e)) fail_msg("config: %s", e.msg);
}
static struct mw_kernel kern(uint32_t threads, uint32_t regs, uint32_t shmem)
{
    struct mw_kernel k = {.grid = {1, 1, 1}, .block = {threads, 1, 1}, .nregs = regs, .shmem = shmem};
    return k;
}

/* Linebacker machine: 64 warps, 2,048 threads, 32 CTAs, 65,536 registers in 128s per warp, 96 KB shared memory.
 *  256 threads, 20 regs: 640 a warp, 5,120 a CTA; by warps 8, threads 8, registers 12 -> 8 (40,960 registers)
 *  256 threads, 33 regs: 1,056 a warp -> 1,152 (GPGPU-Sim: (33 + 3) & ~3 = 36 a thread), 9,216 a CTA;
 *                        65,536 / 9,216 = 7 -> 7 (registers bind)
 *  64 threads, 8 regs:   256 a warp, 512 a CTA; warps 32, threads 32, registers 128, CTAs 32 -> 32 (CTA limit)
 *  128 threads, 16 regs, 40 KB shared: 98,304 / 40,960 = 2 -> 2 (shared memory binds)
 *  1,024 threads, 64 regs: 2,048 a warp, 65,536 a CTA: 1 by registers, 2 by warps -> 1 (all 65,536 registers) */
static void test_occupancy_limits(void **st)
{
    (void)st;
    struct mw_config c;
    lb_config(&c);
    struct mw_kernel k = kern(256, 20, 0);
    assert_int_equal(mw_cta_regs(&c, &k), 5120);
    assert_int_equal(mw_occupancy(&c, &k), 8);
    assert_int_equal(c.sm.registers - mw_occupancy(&c, &k) * mw_cta_regs(&c, &k), 24576); /* SUR: 96 KB */
    k = kern(256, 33, 0);
    assert_int_equal(mw_cta_regs(&c, &k), 9216);
    assert_int_equal(mw_occupancy(&c, &k), 7);
    k = kern(64, 8, 0);
    assert_int_equal(mw_occupancy(&c, &k), 32);
    k = kern(128, 16, 40960);
    assert_int_equal(mw_occupancy(&c, &k), 2);
    k = kern(1024, 64, 0);
    assert_int_equal(mw_occupancy(&c, &k), 1);
    assert_int_equal(mw_cta_regs(&c, &k), 65536); /* SUR 0 */
}

static void test_weighted_sur(void **st)
{
    (void)st;
    char out[4096];
    int rc = run_cmd("'" MW_BINARY "' tests/lua/occupancy.lua", out, sizeof out);
    if (rc) fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "ok  gpu.sur_regs"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_occupancy_limits),
        cmocka_unit_test(test_weighted_sur),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
