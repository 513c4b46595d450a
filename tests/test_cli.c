/* Command-line tools on inputs whose numbers are known: trace-info on a sample trace (the counts the trace
 * reader tests check: kernel 1 of mgpusim_btree1000 has 21832 warp instructions in 32 warps of 8 blocks), and
 * a malformed trace line reported as file:line with exit status 2. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "runcmd.h"

static char out[1 << 16];

static void test_trace_info(void **state)
{
    (void)state;
    int rc = run_cmd("'" MW_BINARY "' trace-info ../shared/traces/mgpusim_btree1000", out, sizeof out);
    print_message("%s", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "2 kernels, 43664 warp instructions, 2 memcpys"));
    assert_non_null(strstr(out, "grid (8,1,1) block (128,1,1) regs 32 shmem 0; 8/8 blocks, 32 warps, 21832 warp insts"));
    assert_non_null(strstr(out, "exit 32 ld_global 8480 st_global 32 ld_local 1928 st_local 4224"));
}

static void test_trace_info_malformed(void **state)
{
    (void)state;
    char dir[] = "/tmp/mw_cli_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], cmd[1024];
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "kernel-1.traceg\n");
    fclose(f);
    snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "-kernel name = k\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n"
               "-nregs = 8\n-binary version = 70\n-cuda stream id = 0\n-shmem base_addr = 0x0\n"
               "-local mem base_addr = 0x0\n-nvbit version = 1.5.5\n-accelsim tracer version = 4\n\n"
               "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
               "[adrrescompress?] [mem_addresses]\n\n#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\n"
               "insts = 1\n0000 ffffffff 1 R1 LDG.E 1 R2 4 7 0x10\n#END_TB\n");
    fclose(f);
    snprintf(cmd, sizeof cmd, "'" MW_BINARY "' trace-info %s", dir);
    int rc = run_cmd(cmd, out, sizeof out);
    print_message("%s", out);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, "kernel-1.traceg:22"));
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* run --out creates missing parent folders (as its help says), and a path through a file is refused with the
 * path named, exit status 2 and no stats written. */
static void test_run_out_dirs(void **state)
{
    (void)state;
    char dir[] = "/tmp/mw_cli_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char cmd[1024], path[256];
    snprintf(cmd, sizeof cmd,
             "'" MW_BINARY "' run --config gtx480 --quiet --workload micro.stream --size small --out %s/a/b/c", dir);
    int rc = run_cmd(cmd, out, sizeof out);
    print_message("%s", out);
    assert_int_equal(rc, 0);
    snprintf(path, sizeof path, "%s/a/b/c/stats.json", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    fclose(f);
    snprintf(path, sizeof path, "%s/file", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(cmd, sizeof cmd,
             "'" MW_BINARY "' run --config gtx480 --quiet --workload micro.stream --size small --out %s/file/x", dir);
    rc = run_cmd(cmd, out, sizeof out);
    print_message("%s", out);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, "cannot create output folder"));
    assert_non_null(strstr(out, "Not a directory"));
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_trace_info), cmocka_unit_test(test_trace_info_malformed),
                                       cmocka_unit_test(test_run_out_dirs)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
