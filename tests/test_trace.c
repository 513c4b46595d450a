/* Tests of the Accel-Sim trace reader (engine/workloads/trace.c) on the sample traces in ../shared/traces and on small
 * traces written here. Expected numbers were counted from the trace text (xz -dc | grep/awk), not with this
 * reader; each says how. Malformed inputs are checked for their exact error text and position. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TRACES "../shared/traces/"
#define VA100 TRACES "microgpusim_vectoradd_100"
#define MATMUL TRACES "microgpusim_matrixmul_32"
#define VADD TRACES "mgpusim_vectoradd"
#define BTREE TRACES "mgpusim_btree1000"

static char g_dir[64];

static const char *const g_files[] = {"kernelslist.g", "kernel-1.traceg", "kernel-2.traceg", "kernel-3.traceg",
                                      "kernel-1.traceg.xz"};

static void clean_dir(void)
{
    char p[256];
    for (size_t i = 0; i < sizeof g_files / sizeof g_files[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", g_dir, g_files[i]);
        unlink(p);
    }
}

static int group_setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/mw_test_trace.XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    clean_dir();
    rmdir(g_dir);
    return 0;
}

static void write_file(const char *name, const char *text)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", g_dir, name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* All instructions of one warp of one CTA of the `kernel`-th kernel (1-based). Returns the count. */
static int read_warp(const char *path, int kernel, uint32_t cta, uint32_t warp, struct mw_inst *buf, int max)
{
    struct mw_workload w;
    struct mw_err e = {0};
    struct mw_kernel k;
    char msg[1400];
    int rc = mw_workload_open_trace(&w, path, &e);
    if (rc < 0) fail_msg("%s", mw_err_str(&e, msg, sizeof msg));
    for (int i = 0; i < kernel; i++) assert_int_equal(w.ops->next_kernel(&w, &k, &e), 1);
    void *st;
    for (uint32_t c = 0; c <= cta; c++) { /* open in increasing order, as the engine does */
        rc = w.ops->cta_open(&w, c, &st, &e);
        if (rc < 0) fail_msg("%s", mw_err_str(&e, msg, sizeof msg));
        if (c < cta) w.ops->cta_close(&w, st);
    }
    int n = 0;
    struct mw_inst in;
    while ((rc = w.ops->warp_next(&w, st, warp, &in, &e)) > 0) {
        if (n < max) buf[n] = in;
        n++;
    }
    assert_int_equal(rc, 0);
    w.ops->cta_close(&w, st);
    mw_workload_close(&w);
    return n;
}

static void assert_stride(const struct mw_inst *in, uint64_t base, int64_t stride)
{
    int k = 0;
    for (int l = 0; l < MW_WARP_SIZE; l++) {
        if (in->mask >> l & 1u) assert_int_equal(in->addr[l], base + (uint64_t)(stride * k++));
        else assert_int_equal(in->addr[l], 0);
    }
}

/* ---- sample traces ---------------------------------------------------------------------------------- */

/* vectorAdd n=100, plain .traceg, tracer v4, sm_61. One CTA of 1024 threads: warps 0..3 run 23 instructions,
 * warps 4..31 leave at the EXIT at 0x58 after 9 ("insts = 23" x4, "insts = 9" x28: 344). */
static void test_vectoradd100(void **state)
{
    (void)state;
    struct mw_trace_summary s;
    struct mw_err e = {0};
    assert_int_equal(mw_trace_stats(VA100, &s, &e), 0);
    assert_int_equal(s.nkernels, 1);
    assert_int_equal(s.nmemcpy, 3);          /* three MemcpyHtoD lines of 400 B */
    assert_int_equal(s.memcpy_bytes, 1200);
    const struct mw_trace_kernel_summary *k = &s.kernels[0];
    assert_string_equal(k->k.name, "_Z6vecAddIfEvPT_S1_S1_i");
    assert_int_equal(k->k.id, 1);
    assert_int_equal(k->k.grid[0], 1);
    assert_int_equal(k->k.grid[1], 1);
    assert_int_equal(k->k.grid[2], 1);
    assert_int_equal(k->k.block[0], 1024);
    assert_int_equal(k->k.block[1], 1);
    assert_int_equal(k->k.nregs, 8);
    assert_int_equal(k->k.shmem, 0);
    assert_int_equal(k->k.shmem_base, 0x00007f2b5a000000ull);
    assert_int_equal(k->k.local_base, 0x00007f2b58000000ull);
    assert_int_equal(k->info.binary_version, 61);
    assert_int_equal(k->info.tracer_version, 4);
    assert_string_equal(k->info.nvbit_version, "1.5.5");
    assert_int_equal(k->tbs, 1);
    assert_int_equal(k->warps, 32);
    assert_int_equal(k->insts, 344);
    /* grep -c per opcode: NOP 36, EXIT 36 of which 4 are mid-stream (warps 0..3, mask != ffffffff at 0x58),
     * LDG.E.CG 8, STG.E 4; the other 260 are integer/fp32 ALU */
    assert_int_equal(k->op[MW_OP_NOP], 36);
    assert_int_equal(k->op[MW_OP_EXIT], 32);
    assert_int_equal(k->op[MW_OP_BRANCH], 4);
    assert_int_equal(k->op[MW_OP_LD_GLOBAL], 8);
    assert_int_equal(k->op[MW_OP_ST_GLOBAL], 4);
    assert_int_equal(k->op[MW_OP_ALU], 260);
    assert_int_equal(k->mem_lanes, 300); /* 3 warps x 3 accesses x 32 lanes + warp 3: 3 x 4 lanes */
    mw_trace_summary_free(&s);

    /* warp 3: threads 96..127 of n=100, so only lanes 0..3 pass the bounds check */
    struct mw_inst in[32];
    assert_int_equal(read_warp(VA100, 1, 0, 3, in, 32), 23);
    assert_int_equal(in[3].op, MW_OP_ALU); /* 0028 XMAD.MRG 2 R0 R255: RZ dropped */
    assert_int_equal(in[3].ndst, 1);
    assert_int_equal(in[3].dst[0], 3);
    assert_int_equal(in[3].nsrc, 1);
    assert_int_equal(in[3].src[0], 0);
    assert_int_equal(in[8].pc, 0x58); /* EXIT fffffff0: 28 lanes leave, the warp goes on */
    assert_int_equal(in[8].mask, 0xfffffff0u);
    assert_int_equal(in[8].op, MW_OP_BRANCH);
    /* 0098 0000000f 1 R4 LDG.E.CG 1 R4 4 1 0x7f2b2d500180 4 (mode 1) */
    assert_int_equal(in[14].pc, 0x98);
    assert_int_equal(in[14].op, MW_OP_LD_GLOBAL);
    assert_int_equal(in[14].width, 4);
    assert_int_equal(in[14].flags, MW_IF_CG); /* bypasses L1D only with l1d.bypass_cg */
    assert_int_equal(in[14].mask, 0xf);
    assert_stride(&in[14], 0x7f2b2d500180ull, 4);
    /* 00d8 0000000f 0 STG.E 2 R6 R0 4 1 0x7f2b2d500580 4 */
    assert_int_equal(in[20].op, MW_OP_ST_GLOBAL);
    assert_int_equal(in[20].flags, 0);
    assert_int_equal(in[20].nsrc, 2);
    assert_stride(&in[20], 0x7f2b2d500580ull, 4);
    assert_int_equal(in[21].op, MW_OP_NOP);
    assert_int_equal(in[22].op, MW_OP_EXIT);
    assert_int_equal(in[22].pc, 0xf0);
    /* warp 4 stops at the full-mask EXIT */
    assert_int_equal(read_warp(VA100, 1, 0, 4, in, 32), 9);
    assert_int_equal(in[8].op, MW_OP_EXIT);
}

/* matrixMul 32x32, .traceg.xz, v4, sm_61, one CTA of 32x32 threads. */
static void test_matrixmul(void **state)
{
    (void)state;
    struct mw_trace_summary s;
    struct mw_err e = {0};
    assert_int_equal(mw_trace_stats(MATMUL, &s, &e), 0);
    assert_int_equal(s.nkernels, 1);
    assert_int_equal(s.nmemcpy, 2);
    assert_int_equal(s.memcpy_bytes, 8192);
    const struct mw_trace_kernel_summary *k = &s.kernels[0];
    assert_string_equal(k->k.name, "_Z8mult_gpuIfEvPT_S1_S1_ii");
    assert_int_equal(k->k.grid[0] * k->k.grid[1] * k->k.grid[2], 1);
    assert_int_equal(k->k.block[0], 32);
    assert_int_equal(k->k.block[1], 32);
    assert_int_equal(k->k.block[2], 1);
    assert_int_equal(k->k.shmem, 8192);
    assert_int_equal(k->k.nregs, 30);
    assert_int_equal(k->warps, 32);
    assert_int_equal(k->insts, 4416); /* instruction lines: grep -c '^[0-9a-f]* [0-9a-f]* [0-9]' */
    /* per opcode (awk on the opcode field): LDS.U.32 1024 + LDS.U.128 256, STS 64, BAR.SYNC 64, MEMBAR.CTA
     * 64, LDG.E 64, STG.E 32, EXIT 32, BRA 64, NOP 96; ALU the remaining 2656 */
    assert_int_equal(k->op[MW_OP_LD_SHARED], 1280);
    assert_int_equal(k->op[MW_OP_ST_SHARED], 64);
    assert_int_equal(k->op[MW_OP_BARRIER], 64);
    assert_int_equal(k->op[MW_OP_MEMBAR], 64);
    assert_int_equal(k->op[MW_OP_LD_GLOBAL], 64);
    assert_int_equal(k->op[MW_OP_ST_GLOBAL], 32);
    assert_int_equal(k->op[MW_OP_EXIT], 32);
    assert_int_equal(k->op[MW_OP_BRANCH], 64);
    assert_int_equal(k->op[MW_OP_NOP], 96);
    assert_int_equal(k->op[MW_OP_ALU], 2656);
    assert_int_equal(k->mem_lanes, 46080); /* popcount of the masks of all memory lines (python) */
    mw_trace_summary_free(&s);

    static struct mw_inst in[200];
    assert_int_equal(read_warp(MATMUL, 1, 0, 0, in, 200), 138); /* warp 0: "insts = 138" */
    /* 48: 0208 ffffffff 1 R25 LDG.E 1 R8 4 1 0x7fb02d700000 4 */
    assert_int_equal(in[48].op, MW_OP_LD_GLOBAL);
    assert_int_equal(in[48].flags, 0);
    assert_stride(&in[48], 0x7fb02d700000ull, 4);
    /* 55: 0250 ffffffff 0 STS 2 R0 R22 4 1 0x1000 4 */
    assert_int_equal(in[55].op, MW_OP_ST_SHARED);
    assert_int_equal(in[55].width, 4);
    assert_stride(&in[55], 0x1000, 4);
    assert_int_equal(in[56].op, MW_OP_BARRIER); /* BAR.SYNC */
    assert_int_equal(in[57].op, MW_OP_MEMBAR);  /* MEMBAR.CTA */
    /* 66: 02c8 ffffffff 1 R8 LDS.U.128 1 R2 16 1 0x10 0: a broadcast (stride 0) of 16 bytes */
    assert_int_equal(in[66].op, MW_OP_LD_SHARED);
    assert_int_equal(in[66].width, 16);
    assert_stride(&in[66], 0x10, 0);
}

/* vectorAdd 50000 floats, v5 (trailing immediate), sm_80: 196 CTAs of 256 threads. */
static void test_vectoradd_sm80(void **state)
{
    (void)state;
    struct mw_trace_summary s;
    struct mw_err e = {0};
    assert_int_equal(mw_trace_stats(VADD, &s, &e), 0);
    assert_int_equal(s.nkernels, 1);
    const struct mw_trace_kernel_summary *k = &s.kernels[0];
    assert_int_equal(k->k.grid[0], 196);
    assert_int_equal(k->k.block[0], 256);
    assert_int_equal(k->info.tracer_version, 5);
    assert_int_equal(k->info.binary_version, 80);
    assert_int_equal(k->tbs, 196);   /* grep -c '#BEGIN_TB' */
    assert_int_equal(k->warps, 1568);
    /* "insts = 17" x1563 + "insts = 6" x5 = 26601 */
    assert_int_equal(k->insts, 26601);
    assert_int_equal(k->op[MW_OP_EXIT], 1568);   /* one per warp ... */
    assert_int_equal(k->op[MW_OP_BRANCH], 1563); /* ... plus the bounds-check EXIT of the 1563 full warps */
    assert_int_equal(k->op[MW_OP_LD_GLOBAL], 3126);
    assert_int_equal(k->op[MW_OP_ST_GLOBAL], 1563);
    assert_int_equal(k->op[MW_OP_LD_CONST], 1563); /* ULDC.64 */
    assert_int_equal(k->op[MW_OP_ALU], 17218);
    assert_int_equal(k->mem_lanes, 200000);
    mw_trace_summary_free(&s);

    /* CTA 195 holds elements 49920..50175: warp 2 has lanes 0..15 in range */
    struct mw_inst in[32];
    assert_int_equal(read_warp(VADD, 1, 195, 2, in, 32), 17);
    assert_int_equal(in[5].op, MW_OP_BRANCH); /* 0050 ffff0000 EXIT */
    assert_int_equal(in[7].op, MW_OP_LD_CONST); /* 0070 0000ffff ULDC.64 */
    assert_int_equal(in[7].width, 8);
    assert_int_equal(in[7].addr[0], 0);
    /* 00a0 0000ffff 1 R4 LDG.E 1 R4 4 1 0x7fb0fc461b00 4 0 */
    assert_int_equal(in[10].op, MW_OP_LD_GLOBAL);
    assert_int_equal(in[10].mask, 0x0000ffffu);
    assert_int_equal(in[10].flags, 0);
    assert_stride(&in[10], 0x7fb0fc461b00ull, 4);
    assert_int_equal(in[16].op, MW_OP_EXIT);
    assert_int_equal(read_warp(VADD, 1, 195, 3, in, 32), 6); /* "insts = 6" */
}

/* Rodinia b+tree on H100: sm_90, v5, two kernels from a multi-context kernelslist. */
static void test_btree_sm90(void **state)
{
    (void)state;
    struct mw_trace_summary s;
    struct mw_err e = {0};
    assert_int_equal(mw_trace_stats(BTREE, &s, &e), 0);
    assert_int_equal(s.nkernels, 2);
    assert_int_equal(s.nmemcpy, 2);
    assert_int_equal(s.memcpy_bytes, 43560 + 4000);
    for (int i = 0; i < 2; i++) {
        const struct mw_trace_kernel_summary *k = &s.kernels[i];
        assert_string_equal(k->k.name, "_Z15find_key_kernelPK5knodeiPKiPii");
        assert_int_equal(k->k.id, (uint32_t)i + 1);
        assert_int_equal(k->info.trace_id, (uint32_t)i + 1);
        assert_int_equal(k->info.binary_version, 90);
        assert_string_equal(k->info.nvbit_version, "1.7.4");
        assert_int_equal(k->k.grid[0], 8);
        assert_int_equal(k->k.block[0], 128);
        assert_int_equal(k->k.nregs, 32);
        assert_int_equal(k->tbs, 8);
        assert_int_equal(k->warps, 32);
        assert_int_equal(k->insts, 21832); /* sum of the 23 opcodes' grep counts */
        /* LDG.E 8480, STG.E 32, LDL 1928, STL.64 4224, LDC/LDC.64/ULDC/ULDC.64 32+160+64+64, BRA 1776 +
         * BSSY 160 + BSYNC 784 + 32 mid-stream EXITs, EXIT 32 at the warps' ends, ALU 4064 (VIADD, LEA, ...) */
        assert_int_equal(k->op[MW_OP_LD_GLOBAL], 8480);
        assert_int_equal(k->op[MW_OP_ST_GLOBAL], 32);
        assert_int_equal(k->op[MW_OP_LD_LOCAL], 1928);
        assert_int_equal(k->op[MW_OP_ST_LOCAL], 4224);
        assert_int_equal(k->op[MW_OP_LD_CONST], 320);
        assert_int_equal(k->op[MW_OP_BRANCH], 2752);
        assert_int_equal(k->op[MW_OP_EXIT], 32);
        assert_int_equal(k->op[MW_OP_ALU], 4064);
        assert_int_equal(k->mem_lanes, 437382);
    }
    mw_trace_summary_free(&s);

    static struct mw_inst in[700];
    assert_int_equal(read_warp(BTREE, 1, 0, 1, in, 700), 683); /* CTA 0 warp 1: "insts = 683" */
    assert_int_equal(read_warp(BTREE, 2, 0, 0, in, 700), 685);
    assert_int_equal(in[2].op, MW_OP_LD_CONST); /* ULDC */
    assert_int_equal(in[2].width, 4);
    assert_int_equal(in[3].op, MW_OP_ALU); /* 0030 ffffffff 1 R1 VIADD 1 R1 0 -264 */
    assert_int_equal(in[3].dst[0], 1);
    /* 147: 0870 f1ffffff 1 R28 LDL 1 R6 4 2 0xfffc50 <12 x 0> 4 <11 x 0> -4 0 0 0 | imm 0 (mode 2)
     * active lanes 0..24 and 28..31: the 13th delta moves lane 13, the 25th lane 28 */
    assert_int_equal(in[147].op, MW_OP_LD_LOCAL);
    assert_int_equal(in[147].mask, 0xf1ffffffu);
    for (int l = 0; l < 32; l++) {
        uint64_t want = l < 13 ? 0xfffc50 : l < 25 ? 0xfffc54 : l < 28 ? 0 : 0xfffc50;
        assert_int_equal(in[147].addr[l], want);
    }
    /* 151: 08b0 ffffffff 1 R12 LDG.E 1 R28 4 2 0x7f1269c00108 <12 x 0> 264 <11 x 0> 264 0 0 -528 0 0 0 | 0 */
    assert_int_equal(in[151].op, MW_OP_LD_GLOBAL);
    assert_int_equal(in[151].src[0], 28);
    for (int l = 0; l < 32; l++) {
        uint64_t want = 0x7f1269c00108ull + (l < 13 ? 0 : l < 25 ? 264 : l < 28 ? 528 : 0);
        assert_int_equal(in[151].addr[l], want);
    }
}

/* The reader reads a thread block only when it is opened. */
static void test_streaming(void **state)
{
    (void)state;
    struct mw_workload w;
    struct mw_err e = {0};
    struct mw_kernel k;
    void *st;
    assert_int_equal(mw_workload_open_trace(&w, VADD "/kernelslist.g", &e), 0);
    assert_string_equal(w.name, "mgpusim_vectoradd");
    assert_string_equal(w.ops->kind, "trace");
    size_t nmc;
    const struct mw_trace_memcpy *mc = mw_trace_memcpys(&w, &nmc);
    assert_int_equal(nmc, 2);
    assert_int_equal(mc[1].addr, 0x00007fb0fc430e00ull);
    assert_int_equal(mc[1].bytes, 200000);
    assert_true(mc[1].to_device);
    assert_int_equal(mc[1].before_kernel, 0);
    assert_null(mw_trace_kernel_info(&w));
    assert_int_equal(w.ops->next_kernel(&w, &k, &e), 1);
    const struct mw_trace_kernel_info *ki = mw_trace_kernel_info(&w);
    assert_non_null(ki);
    assert_int_equal(ki->tbs_read, 0);
    assert_int_equal(w.ops->cta_open(&w, 0, &st, &e), 0);
    assert_int_equal(ki->tbs_read, 1);
    assert_int_equal(ki->insts_read, 8 * 17);
    void *st1;
    assert_int_equal(w.ops->cta_open(&w, 1, &st1, &e), 0); /* two CTAs in flight */
    assert_int_equal(ki->tbs_read, 2);
    w.ops->cta_close(&w, st);
    w.ops->cta_close(&w, st1);
    /* opening a later CTA skips the ones in between (parsed and dropped) */
    assert_int_equal(w.ops->cta_open(&w, 100, &st, &e), 0);
    assert_int_equal(ki->tbs_read, 101);
    struct mw_inst in;
    assert_int_equal(w.ops->warp_next(&w, st, 0, &in, &e), 1);
    assert_int_equal(in.pc, 0);
    w.ops->cta_close(&w, st);
    /* CTAs go forward only */
    assert_true(w.ops->cta_open(&w, 50, &st, &e) < 0);
    assert_non_null(strstr(e.msg, "out of order"));
    assert_int_equal(w.ops->next_kernel(&w, &k, &e), 0);
    mw_workload_close(&w);
}

/* ---- features absent from the samples, on traces written here ------------------------------------------ */

static const char *const k1_synth =
    "-kernel name = _Z5synthPi\n-kernel id = 7\n-grid dim = (2,1,1)\n-block dim = (64,1,1)\n-shmem = 1024\n"
    "-nregs = 16\n-binary version = 75\n-cuda stream id = 3\n-shmem base_addr = 0x00007f0000000000\n"
    "-local mem base_addr = 0x00007e0000000000\n-nvbit version = 1.5.5\n-accelsim tracer version = 5\n"
    "-enable lineinfo = 0\n\n#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
    "mem_width [adrrescompress?] [mem_addresses] immediate\n\n"
    "#BEGIN_TB\n\nthread block = 1,0,0\n\nwarp = 1\ninsts = 12\n"
    "0000 0000000f 1 R4 LDG.E.64.STRONG.GPU 1 R2 8 0 0x1000 0x1008 0x2000 0x0000000000003000 0 \n"
    "0010 ffffffff 1 UR4 LD.E 2 R2 UR6 4 1 0x7f0000000100 4 0\n"
    "0020 00000003 1 R5 LD.E.U16 1 R2 2 2 0x7e0000000040 8 0\n"
    "0030 80000001 1 R6 ATOM.E.ADD.STRONG.GPU 2 R2 R3 4 2 0x5000 -16 0\n"
    "0040 0000ff00 1 R8 LDSM.16.M88.4 1 R9 2 1 0x200 16 0\n"
    "0050 ffffffff 1 R10 HMMA.1688.F32 3 R12 R14 R10 0 0\n"
    "0060 ffffffff 1 R11 MUFU.RCP 1 R11 0 0\n"
    "0070 ffffffff 1 R16 DFMA 3 R16 R18 R20 0 0\n"
    "0080 ffffffff 1 UR5 UIADD3 2 UR4 URZ 0 0\n"
    "0090 ffffffff 0 BAR.SYNC 0 0 0\n"
    "00a0 00000001 0 RED.E.ADD 2 R2 R3 4 1 0x7f0000000010 0 0\n"
    "00b0 ffffffff 0 EXIT 0 0 0\n"
    "#END_TB\n";

/* sm_90 with cluster lines and source line numbers */
static const char *const k2_cluster =
    "-kernel name = k2\n-kernel id = 8\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n-nregs = 8\n"
    "-binary version = 90\n-cuda stream id = 0\n-shmem base_addr = 0x00007f0000000000\n"
    "-local mem base_addr = 0x00007e0000000000\n-nvbit version = 1.7.4\n-accelsim tracer version = 5\n"
    "-enable lineinfo = 1\n-cluster dim = (1,1,1)\n\n#traces format = ...\n\n"
    "#BEGIN_TB\nthread block = 0,0,0\ncluster id = 0,0,0\ncluster cta = 0,0,0\ncluster rank = 0\n\n"
    "warp = 0\ninsts = 3\n"
    "12 0000 ffffffff 1 R1 VIADD 1 R1 0 -264\n"
    "13 0010 ffffffff 1 R2 LDG.E.128.STRONG.SYS 1 R4 16 1 0x7000 16 0\n"
    "14 0020 ffffffff 0 EXIT 0 0 0\n"
    "#END_TB\n";

/* an old tracer: no version line, each instruction prefixed with tb x y z and warp id */
static const char *const k3_legacy =
    "-kernel name = k3\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-binary version = 61\n\n"
    "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
    "0 0 0 0 0008 ffffffff 1 R1 XMAD 2 R2 R3 0\n"
    "0 0 0 0 0010 ffffffff 0 EXIT 0 0\n"
    "#END_TB\n";

static void test_synthetic(void **state)
{
    (void)state;
    clean_dir();
    write_file("kernelslist.g", "MemcpyHtoD,0x0000000000100000,4096\n\nkernel-1.traceg\n"
                                "MemcpyDtoH,0x0000000000100000,4096\nkernel-2.traceg\nkernel-3.traceg\n");
    write_file("kernel-1.traceg", k1_synth);
    write_file("kernel-2.traceg", k2_cluster);
    write_file("kernel-3.traceg", k3_legacy);

    struct mw_trace_summary s;
    struct mw_err e = {0};
    char msg[1400];
    if (mw_trace_stats(g_dir, &s, &e) < 0) fail_msg("%s", mw_err_str(&e, msg, sizeof msg));
    assert_int_equal(s.nkernels, 3);
    assert_int_equal(s.nmemcpy, 2);
    assert_int_equal(s.kernels[0].ctas, 2);
    assert_int_equal(s.kernels[0].tbs, 1); /* CTA 0 is absent: it runs as empty warps */
    assert_int_equal(s.kernels[0].insts, 12);
    assert_int_equal(s.kernels[0].k.id, 1);
    assert_int_equal(s.kernels[0].info.trace_id, 7);
    assert_int_equal(s.kernels[0].info.stream_id, 3);
    assert_int_equal(s.kernels[1].info.lineinfo, 1);
    assert_int_equal(s.kernels[1].info.cluster[0], 1);
    assert_int_equal(s.kernels[1].insts, 3);
    assert_int_equal(s.kernels[2].info.tracer_version, 0);
    assert_int_equal(s.kernels[2].insts, 2);
    mw_trace_summary_free(&s);

    struct mw_workload w;
    assert_int_equal(mw_workload_open_trace(&w, g_dir, &e), 0);
    size_t nmc;
    const struct mw_trace_memcpy *mc = mw_trace_memcpys(&w, &nmc);
    assert_int_equal(nmc, 2);
    assert_false(mc[1].to_device);
    assert_int_equal(mc[1].before_kernel, 1);
    struct mw_kernel k;
    void *st;
    struct mw_inst in;
    assert_int_equal(w.ops->next_kernel(&w, &k, &e), 1);
    assert_int_equal(w.ops->cta_open(&w, 0, &st, &e), 0);
    assert_int_equal(w.ops->warp_next(&w, st, 0, &in, &e), 0);
    assert_int_equal(w.ops->warp_next(&w, st, 1, &in, &e), 0);
    assert_true(w.ops->warp_next(&w, st, 2, &in, &e) < 0); /* a 64-thread CTA has 2 warps */
    w.ops->cta_close(&w, st);
    mw_workload_close(&w);

    struct mw_inst v[12];
    assert_int_equal(read_warp(g_dir, 1, 1, 1, v, 12), 12);
    /* mode 0, list of addresses; .64 and .STRONG.GPU */
    assert_int_equal(v[0].op, MW_OP_LD_GLOBAL);
    assert_int_equal(v[0].width, 8);
    assert_int_equal(v[0].flags, MW_IF_BYPASS_L1);
    assert_int_equal(v[0].addr[0], 0x1000);
    assert_int_equal(v[0].addr[1], 0x1008);
    assert_int_equal(v[0].addr[2], 0x2000);
    assert_int_equal(v[0].addr[3], 0x3000);
    assert_int_equal(v[0].addr[4], 0);
    /* generic LD into the shared window becomes a shared load at the window offset; uniform registers */
    assert_int_equal(v[1].op, MW_OP_LD_SHARED);
    assert_int_equal(v[1].ndst, 1);
    assert_int_equal(v[1].dst[0], MW_REG_UNIFORM_BASE + 4);
    assert_int_equal(v[1].nsrc, 2);
    assert_int_equal(v[1].src[0], 2);
    assert_int_equal(v[1].src[1], MW_REG_UNIFORM_BASE + 6);
    assert_stride(&v[1], 0x100, 4);
    /* generic LD.U16 into the local window, mode 2 */
    assert_int_equal(v[2].op, MW_OP_LD_LOCAL);
    assert_int_equal(v[2].width, 2);
    assert_int_equal(v[2].addr[0], 0x40);
    assert_int_equal(v[2].addr[1], 0x48);
    /* generic ATOM outside both windows: a global atomic; negative delta; no bypass flag on atomics */
    assert_int_equal(v[3].op, MW_OP_ATOMIC);
    assert_int_equal(v[3].width, 4);
    assert_int_equal(v[3].flags, 0);
    assert_int_equal(v[3].addr[0], 0x5000);
    assert_int_equal(v[3].addr[31], 0x4ff0);
    /* LDSM: 16-byte rows whatever the element size; lanes 8..15 */
    assert_int_equal(v[4].op, MW_OP_LD_SHARED);
    assert_int_equal(v[4].width, 16);
    assert_stride(&v[4], 0x200, 16);
    assert_int_equal(v[5].op, MW_OP_TENSOR);
    assert_int_equal(v[5].nsrc, 3);
    assert_int_equal(v[6].op, MW_OP_SFU);
    assert_int_equal(v[7].op, MW_OP_DP);
    assert_int_equal(v[8].op, MW_OP_ALU); /* UIADD3 UR5 <- UR4, URZ */
    assert_int_equal(v[8].dst[0], MW_REG_UNIFORM_BASE + 5);
    assert_int_equal(v[8].nsrc, 1);
    assert_int_equal(v[9].op, MW_OP_BARRIER);
    assert_int_equal(v[10].op, MW_OP_ST_SHARED); /* RED to the shared window */
    assert_int_equal(v[10].addr[0], 0x10);
    assert_int_equal(v[11].op, MW_OP_EXIT);

    assert_int_equal(read_warp(g_dir, 2, 0, 0, v, 12), 3);
    assert_int_equal(v[0].op, MW_OP_ALU);
    assert_int_equal(v[1].op, MW_OP_LD_GLOBAL);
    assert_int_equal(v[1].width, 16);
    assert_int_equal(v[1].flags, MW_IF_BYPASS_L1);
    assert_stride(&v[1], 0x7000, 16);
    assert_int_equal(read_warp(g_dir, 3, 0, 0, v, 12), 2);
    assert_int_equal(v[0].pc, 8);
    assert_int_equal(v[0].nsrc, 2);
    assert_int_equal(v[1].op, MW_OP_EXIT);
}

static void test_op_class(void **state)
{
    (void)state;
    assert_int_equal(mw_trace_op_class("LDG.E.64.SYS", 70), MW_OP_LD_GLOBAL);
    assert_int_equal(mw_trace_op_class("XMAD.PSL.CBCC", 61), MW_OP_ALU);
    assert_int_equal(mw_trace_op_class("XMAD", 80), -1);
    assert_int_equal(mw_trace_op_class("VIADD", 90), MW_OP_ALU);
    assert_int_equal(mw_trace_op_class("VIADD", 86), -1);
    assert_int_equal(mw_trace_op_class("ULDC.64", 75), MW_OP_LD_CONST);
    assert_int_equal(mw_trace_op_class("ULDC", 61), -1);
    assert_int_equal(mw_trace_op_class("BAR.SYNC.DEFER_BLOCKING", 80), MW_OP_BARRIER);
    assert_int_equal(mw_trace_op_class("BAR.ARV", 80), MW_OP_ALU);
    assert_int_equal(mw_trace_op_class("MEMBAR.SC.GPU", 80), MW_OP_MEMBAR);
    assert_int_equal(mw_trace_op_class("DMMA.884", 80), MW_OP_TENSOR);
    assert_int_equal(mw_trace_op_class("DADD", 0), MW_OP_DP);
    assert_int_equal(mw_trace_op_class("MUFU.EX2", 61), MW_OP_SFU);
    assert_int_equal(mw_trace_op_class("ATOMS.CAS", 80), MW_OP_LD_SHARED);
    assert_int_equal(mw_trace_op_class("REDG.E.ADD.STRONG.GPU", 90), MW_OP_ATOMIC);
    assert_int_equal(mw_trace_op_class("LDGSTS.E.BYPASS.LTC128B.128", 80), MW_OP_LD_GLOBAL);
    assert_int_equal(mw_trace_op_class("BSSY", 70), MW_OP_BRANCH);
    assert_int_equal(mw_trace_op_class("SSY", 70), -1);
    assert_int_equal(mw_trace_op_class("UTMALDG.2D", 90), -1);
    assert_int_equal(mw_trace_op_class("FROB", 0), -1);
}

/* ---- malformed inputs --------------------------------------------------------------------------------- */

/* Header lines 1..13, blank, format comment (15), blank, #BEGIN_TB (17), thread block (18), warp (19),
 * insts (20), instruction lines from 21. */
#define HDR(sm)                                                                                                \
    "-kernel name = bad\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n-nregs = 8\n" \
    "-binary version = " sm "\n-cuda stream id = 0\n-shmem base_addr = 0x00007f0000000000\n"                 \
    "-local mem base_addr = 0x00007e0000000000\n-nvbit version = 1.7\n-accelsim tracer version = 5\n"        \
    "-enable lineinfo = 0\n\n#traces format = ...\n\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n"

/* Write kernelslist.g + kernel-1.traceg, read the whole trace, and compare the error with
 * "<file>:<where>: <what>" where file is "kernel-1.traceg" or "kernelslist.g" in the temp dir. */
static void expect_error(const char *list, const char *kernel, const char *file, const char *where_what)
{
    clean_dir();
    write_file("kernelslist.g", list ? list : "kernel-1.traceg\n");
    if (kernel) write_file("kernel-1.traceg", kernel);
    struct mw_trace_summary s;
    struct mw_err e = {0};
    char got[1400], want[1400];
    int rc = mw_trace_stats(g_dir, &s, &e);
    assert_true(rc < 0);
    assert_int_equal(e.code, rc);
    assert_null(s.kernels);
    snprintf(want, sizeof want, "%s/%s:%s", g_dir, file, where_what);
    assert_string_equal(mw_err_str(&e, got, sizeof got), want);
}

static void test_malformed_lines(void **state)
{
    (void)state;
    const char *K = "kernel-1.traceg";
    /* truncated line: the stride is missing (the line is 40 characters long) */
    expect_error(NULL, HDR("80") "insts = 1\n0000 ffffffff 1 R4 LDG.E 1 R2 4 1 0x1000\n#END_TB\n", K,
                 "21:41: expected decimal stride, found end of line");
    expect_error(NULL, HDR("80") "insts = 1\n0000 ffffffff 1\n#END_TB\n", K,
                 "21:16: expected destination register, found end of line");
    /* bad address mode */
    expect_error(NULL, HDR("80") "insts = 1\n0000 ffffffff 1 R4 LDG.E 1 R2 4 7 0x1000 4 0\n#END_TB\n", K,
                 "21:33: expected address mode 0, 1 or 2, found '7'");
    /* bad hex: base address, list address, mask, PC */
    expect_error(NULL, HDR("80") "insts = 1\n0000 ffffffff 1 R4 LDG.E 1 R2 4 1 0x10g0 4 0\n#END_TB\n", K,
                 "21:35: expected hex base address, found '0x10g0'");
    expect_error(NULL, HDR("80") "insts = 1\n0000 00000003 1 R4 LDG.E 1 R2 4 0 0x1000 zz 0\n#END_TB\n", K,
                 "21:42: expected hex address, found 'zz'");
    expect_error(NULL, HDR("80") "insts = 1\n0000 fffffffff 0 NOP 0 0 0\n#END_TB\n", K,
                 "21:6: expected hex active mask, found 'fffffffff'");
    expect_error(NULL, HDR("80") "insts = 1\n00x0 ffffffff 0 NOP 0 0 0\n#END_TB\n", K,
                 "21:1: expected hex PC, found '00x0'");
    /* registers, counts, trailing fields */
    expect_error(NULL, HDR("80") "insts = 1\n0000 ffffffff 0 IADD3 1 Q5 0 0\n#END_TB\n", K,
                 "21:25: expected source register (R<n>, UR<n>), found 'Q5'");
    expect_error(NULL, HDR("80") "insts = 1\n0000 ffffffff 0 NOP 0 0\n#END_TB\n", K,
                 "21:24: expected immediate (tracer version 5+), found end of line");
    expect_error(NULL, HDR("80") "insts = 1\n0000 ffffffff 0 NOP 0 0 0 7\n#END_TB\n", K,
                 "21:27: expected end of line, found '7'");
    expect_error(NULL, HDR("80") "insts = 1\n0000 ffffffff 1 R4 LDG.E 1 R2 0 0\n#END_TB\n", K,
                 "21:20: expected memory width > 0 and addresses for memory instruction 'LDG.E'");
    /* unknown opcode, and one from another architecture */
    expect_error(NULL, HDR("80") "insts = 1\n0000 ffffffff 0 FROB.X 0 0 0\n#END_TB\n", K,
                 "21:17: unknown SASS opcode 'FROB' (in 'FROB.X') for sm_80");
    expect_error(NULL, HDR("80") "insts = 1\n0000 ffffffff 1 R1 XMAD 2 R2 R3 0 0\n#END_TB\n", K,
                 "21:20: opcode 'XMAD' is not sm_80 SASS (the table has it for sm_30..sm_69)");
    expect_error(NULL, HDR("90") "insts = 1\n0000 ffffffff 0 UTMALDG.2D 0 0 0\n#END_TB\n", K,
                 "21:17: opcode 'UTMALDG.2D' is a bulk tensor copy (TMA); its address format is not supported");
    /* missing #END_TB */
    expect_error(NULL, HDR("80") "insts = 1\n0000 ffffffff 0 NOP 0 0 0\n", K,
                 "21: expected #END_TB before end of file");
    expect_error(NULL, HDR("80") "insts = 1\n0000 ffffffff 0 NOP 0 0 0\n#BEGIN_TB\n", K,
                 "22:1: expected #END_TB before the next #BEGIN_TB");
    /* insts count mismatch, both ways */
    expect_error(NULL, HDR("80") "insts = 3\n0000 ffffffff 0 NOP 0 0 0\n0010 ffffffff 0 NOP 0 0 0\n#END_TB\n", K,
                 "23:1: expected 3 instructions for warp 0 ('insts = 3'), found 2");
    expect_error(NULL, HDR("80") "insts = 1\n0000 ffffffff 0 NOP 0 0 0\n0010 ffffffff 0 NOP 0 0 0\n#END_TB\n", K,
                 "22:1: expected 'warp = <n>' or #END_TB after the 1 instructions of warp 0 ('insts = 1')");
    /* TB structure */
    expect_error(NULL, HDR("80") "insts = 0\nwarp = 1\ninsts = 0\n#END_TB\n", K,
                 "21:1: warp 1 is outside the CTA (32 threads = 1 warps)");
    expect_error(NULL, HDR("80") "insts = x\n#END_TB\n", K, "20:1: expected 'insts = <count>', found 'insts = x'");
    expect_error(NULL,
                 "-grid dim = (2,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = 4\n"
                 "#BEGIN_TB\nthread block = 1,0,0\n#END_TB\n#BEGIN_TB\nthread block = 0,0,0\n#END_TB\n",
                 K,
                 "8:1: thread block (0,0,0) (linear id 0) comes after linear id 1; expected thread blocks in "
                 "increasing order");
    expect_error(NULL, "-grid dim = (2,1,1)\n-block dim = (32,1,1)\n#BEGIN_TB\nthread block = 2,0,0\n#END_TB\n", K,
                 "4:1: thread block (2,0,0) is outside the grid (2,1,1)");
}

static void test_malformed_files(void **state)
{
    (void)state;
    /* header */
    expect_error(NULL, "-kernel name = x\n-frobnicate = 1\n", "kernel-1.traceg",
                 "2:2: unknown kernel header key 'frobnicate'");
    expect_error(NULL, "-grid dim = (1,1)\n", "kernel-1.traceg", "1:13: expected (x,y,z), found '(1,1)'");
    expect_error(NULL, "-grid dim = (1,1,1)\n#BEGIN_TB\n", "kernel-1.traceg",
                 "2: expected '-block dim = (x,y,z)' in the kernel header");
    expect_error(NULL, "-accelsim tracer version = 9\n", "kernel-1.traceg",
                 "1:28: expected tracer version 1..6, found '9'");
    /* kernelslist.g */
    expect_error("MemcpyHtoD,0x100,16\nkernel-1.traceg\nkernel-2.traceg\n", HDR("80") "insts = 0\n#END_TB\n",
                 "kernelslist.g",
                 "3:1: expected kernel trace 'kernel-2.traceg' (or 'kernel-2.traceg.xz') next to the list, found "
                 "no such file");
    expect_error("MemcpyHtoD,0xZZ,16\n", NULL, "kernelslist.g", "1:12: expected hex address, found '0xZZ'");
    expect_error("MemcpyHtoD,0x100\n", NULL, "kernelslist.g",
                 "1:1: expected 'Memcpy<HtoD|DtoH>,<hex address>,<bytes>', found 'MemcpyHtoD,0x100'");
    expect_error("launch kernel-1\n", NULL, "kernelslist.g",
                 "1:1: expected 'kernel-<n>.traceg' or 'MemcpyHtoD,<address>,<bytes>', found 'launch kernel-1'");
    expect_error("kernel-1.trace.xz\n", NULL, "kernelslist.g",
                 "1:1: 'kernel-1.trace.xz' is raw tracer output; run Accel-Sim's post-traces-processing to get "
                 ".traceg files");

    /* corrupt and truncated .xz: the matrixMul sample with a flipped byte, and cut short */
    FILE *f = fopen(MATMUL "/kernel-1.traceg.xz", "rb");
    assert_non_null(f);
    static unsigned char buf[4096];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    assert_int_equal(n, 2396);
    char p[256];
    struct mw_err e = {0};
    struct mw_trace_summary s;
    char got[1400], want[300];
    for (int variant = 0; variant < 2; variant++) {
        clean_dir();
        write_file("kernelslist.g", "kernel-1.traceg\n");
        snprintf(p, sizeof p, "%s/kernel-1.traceg.xz", g_dir);
        f = fopen(p, "wb");
        assert_non_null(f);
        if (variant == 0) {
            buf[1200] ^= 0x55;
            fwrite(buf, 1, n, f);
            buf[1200] ^= 0x55;
        } else {
            fwrite(buf, 1, 1500, f);
        }
        fclose(f);
        assert_true(mw_trace_stats(g_dir, &s, &e) < 0);
        assert_int_equal(e.code, MW_EIO);
        assert_string_equal(e.file, p);
        assert_true(e.line >= 1); /* the decoder reads ahead, so the line is where decoding stopped */
        mw_err_str(&e, got, sizeof got);
        snprintf(want, sizeof want, "%s:%d: expected intact trace data: xz data is", p, e.line);
        assert_memory_equal(got, want, strlen(want));
    }
    /* a missing folder */
    snprintf(p, sizeof p, "%s/nowhere", g_dir);
    assert_true(mw_workload_open_trace(&(struct mw_workload){0}, p, &e) < 0);
    assert_int_equal(e.code, MW_EIO);
}

/* The one-pass line scanner (trace_line.c) takes well-formed lines and leaves everything else to the full
 * parser. Warp 0 spells each instruction the usual way (scanner); warp 1 spells the same instructions with,
 * in every line, a number of more than 18 digits (leading zeros), which only the full parser takes, plus tabs,
 * 0X, upper-case hex and a '+' sign. Both must give the same instructions. */
static void test_scanner_and_full_parser_agree(void **state)
{
    (void)state;
    clean_dir();
    write_file("kernelslist.g", "kernel-1.traceg\n");
    write_file("kernel-1.traceg",
               "-grid dim = (1,1,1)\n-block dim = (64,1,1)\n-binary version = 80\n"
               "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007e0000000000\n"
               "-accelsim tracer version = 5\n\n#traces format = x\n\n#BEGIN_TB\nthread block = 0,0,0\n"
               "warp = 0\ninsts = 5\n"
               "0000 ffffffff 2 R4 UR5 IMAD.WIDE 3 R6 RZ P1 0 0\n"
               "0010 0000000f 1 R3 LDG.E.64 1 R2 8 1 0x7fb0fc430e00 8 0\n"
               "0020 00000007 1 R3 LD.E 1 R2 4 2 0x7f0000000100 -4 4 0\n"
               "0030 00000003 0 STG.E 2 R6 R9 4 0 0x1000 0x2000 0x10\n"
               "0040 ffffffff 0 EXIT 0 0 0\n"
               "warp = 1\ninsts = 5\n"
               "0x0000\tFFFFFFFF 2\tR0004 UR05 IMAD.WIDE 0000000000000000000003 R6 RZ P1 0 0\n"
               "0X0010 0000000f 1 R3 LDG.E.64 1 R2 8 1 0X7FB0FC430E00 +0000000000000000000008 0\n"
               "0020 00000007 1 R3 LD.E 1 R2 4 2 0x7f0000000100 -0000000000000000000004 4 0\n"
               "0030 00000003 0 STG.E 2 R6 R9 00000000000000000000004 0 0x1000 0x2000 0x10\n"
               "0040 ffffffff 0 EXIT 0 0 0000000000000000000000\n"
               "#END_TB\n");
    struct mw_inst a[5], b[5];
    assert_int_equal(read_warp(g_dir, 1, 0, 0, a, 5), 5);
    assert_int_equal(read_warp(g_dir, 1, 0, 1, b, 5), 5);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(a[i].pc, b[i].pc);
        assert_int_equal(a[i].mask, b[i].mask);
        assert_int_equal(a[i].op, b[i].op);
        assert_int_equal(a[i].width, b[i].width);
        assert_int_equal(a[i].flags, b[i].flags);
        assert_int_equal(a[i].ndst, b[i].ndst);
        assert_int_equal(a[i].nsrc, b[i].nsrc);
        assert_memory_equal(a[i].dst, b[i].dst, sizeof a[i].dst[0] * a[i].ndst);
        assert_memory_equal(a[i].src, b[i].src, sizeof a[i].src[0] * a[i].nsrc);
        if (mw_op_is_mem(a[i].op)) assert_memory_equal(a[i].addr, b[i].addr, sizeof a[i].addr);
    }
    /* what the lines say, checked once */
    assert_int_equal(a[0].ndst, 2);
    assert_int_equal(a[0].dst[0], 4);
    assert_int_equal(a[0].dst[1], MW_REG_UNIFORM_BASE + 5);
    assert_int_equal(a[0].nsrc, 1); /* RZ and P1 dropped */
    assert_int_equal(a[1].width, 8);
    assert_stride(&a[1], 0x7fb0fc430e00, 8);
    assert_int_equal(a[2].op, MW_OP_LD_SHARED); /* generic load in the shared window, as an offset */
    assert_int_equal(a[2].addr[0], 0x100);
    assert_int_equal(a[2].addr[1], 0xfc);
    assert_int_equal(a[2].addr[2], 0x100);
    assert_int_equal(a[3].addr[0], 0x1000);
    assert_int_equal(a[3].addr[1], 0x2000);
    assert_int_equal(a[4].op, MW_OP_EXIT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectoradd100),   cmocka_unit_test(test_matrixmul),
        cmocka_unit_test(test_vectoradd_sm80), cmocka_unit_test(test_btree_sm90),
        cmocka_unit_test(test_streaming),      cmocka_unit_test(test_synthetic),
        cmocka_unit_test(test_op_class),       cmocka_unit_test(test_malformed_lines),
        cmocka_unit_test(test_malformed_files), cmocka_unit_test(test_scanner_and_full_parser_agree),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
