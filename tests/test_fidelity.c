/* The mechanisms that bring the baseline in line with GPGPU-Sim / Accel-Sim, each on a hand-built case whose
 * answer is worked out in the comments: instruction fetch through the L1I (a cold code line costs one L2/DRAM
 * round trip, the next fetch of the same line none; two SMs fetching one line make one DRAM read), per-kernel code
 * addresses, GPGPU-Sim's cache accounting on a store-then-load sequence, the sectored L2 and the L1D flush at
 * kernel end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "config.h"
#include "kgen.h"
#include "sim.h"
#include "simrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a workload of hand-written warps whose every instruction (EXIT included) carries its own PC ---- */
struct fi {
    uint8_t op;
    uint8_t dst, src;
    uint64_t pc;   /* front-end PC (16 B per instruction) */
    uint64_t addr; /* memory: lane l accesses addr + 4 l */
    uint32_t lanes;/* active lanes (0 = all) */
};
struct fprog {
    const struct fi *code;
    int n;
};

static int fprog_next(const struct mw_kgen_kernel *k, const struct mw_tctx *lane0, uint32_t mask, void *scratch,
                      struct mw_inst *out, struct mw_err *e)
{
    (void)lane0, (void)e;
    const struct fprog *p = k->data;
    int *pos = scratch;
    if (*pos >= p->n) return 0;
    const struct fi *f = &p->code[(*pos)++];
    memset(out, 0, offsetof(struct mw_inst, addr));
    out->pc = f->pc;
    out->op = f->op;
    out->mask = f->lanes ? (mask & f->lanes) : mask;
    if (f->dst) out->dst[out->ndst++] = f->dst;
    out->src[out->nsrc++] = f->src;
    if (mw_op_is_mem(f->op)) {
        out->width = 4;
        for (int l = 0; l < MW_WARP_SIZE; l++) out->addr[l] = f->addr + 4u * (uint64_t)l;
    }
    return 1;
}

static void no_free(void *p) { (void)p; }

/* Kernels named names[i], each `ctas` CTAs of one warp running p (which must outlive the simulation). */
static void open_fprog(struct mw_workload *w, const struct fprog *p, const char *const *names, int nkernels, int ctas)
{
    struct mw_kgen_kernel *k = calloc((size_t)nkernels, sizeof *k);
    assert_non_null(k);
    for (int i = 0; i < nkernels; i++) {
        snprintf(k[i].k.name, sizeof k[i].k.name, "%s", names[i]);
        k[i].k.grid[0] = (uint32_t)ctas, k[i].k.grid[1] = k[i].k.grid[2] = 1;
        k[i].k.block[0] = MW_WARP_SIZE, k[i].k.block[1] = k[i].k.block[2] = 1;
        k[i].k.nregs = 16;
        k[i].custom = fprog_next;
        k[i].ninsts = (uint32_t)p->n; /* the programs' PCs are below 16 n */
        k[i].scratch_bytes = sizeof(int);
        k[i].data = p;
    }
    struct mw_kgen_program prog = {.kernels = k, .nkernels = nkernels, .owned = NULL, .free_owned = no_free};
    struct mw_err e;
    if (mw_kgen_workload(w, "fprog", &prog, &e)) fail_msg("workload: %s", e.msg);
}

/* Every clock at 700 MHz (all latencies in one unit), an address map that keeps a line in one DRAM row, perfect
 * instruction fetch unless sets enable the L1I. */
static void machine(struct mw_config *c, int sms, const char *const *sets, int nsets)
{
    struct mw_err e;
    mw_config_defaults(c);
    char n[32];
    snprintf(n, sizeof n, "gpu.n_sms=%d", sms);
    const char *base[] = {n, "clock.dram_mhz=700", "dram.address_map=RRRRRRRRRRRRBBBBCCCCCCSSSSSS", "l1i.enabled=false"};
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++)
        if (mw_config_set(c, base[i], &e)) fail_msg("%s: %s", base[i], e.msg);
    for (int i = 0; i < nsets; i++)
        if (mw_config_set(c, sets[i], &e)) fail_msg("%s: %s", sets[i], e.msg);
}

/* Build the machine (sms SMs, sets on top of machine()'s), run kernels names[0..nk) of p to completion and collect
 * the stats; c gets the config used. */
static void run_prog(int sms, const char *const *sets, int nsets, const struct fprog *p, const char *const *names,
                     int nk, int ctas, struct mw_config *c, struct mw_stat_list *l)
{
    machine(c, sms, sets, nsets);
    struct mw_workload w;
    open_fprog(&w, p, names, nk, ctas);
    struct mw_sim *s = sr_sim(c, &w);
    sr_run(s, 100000, names[0]);
    sr_stats(s, l);
    mw_sim_destroy(s);
}

/* One read of a whole 128 B line that misses L2 and opens a DRAM row, from the cycle the SM's request leaves
 * to the cycle its data is at the SM (the terms of test_engine's single-miss latency):
 *   request crossbar icnt.latency (1 flit) + L2 lookup l2.latency + L2 -> DRAM pipe dram.latency + 1 (queue entry)
 *   + DRAM 1 + tRCD + tCCD + tCL + burst (two 64 B atoms of an idle bank) + 1 (DRAM -> L2, no fixed delay)
 *   + 1 (reply hand-off)
 *   + reply crossbar icnt.latency + flits - 1, flits = ceil((header + 128) / flit). */
static uint64_t line_round_trip(const struct mw_config *c)
{
    uint64_t burst = (uint64_t)(c->dram.burst_length / c->dram.data_rate);
    uint64_t flits = (uint64_t)((c->icnt.header_bytes + 128 + c->icnt.flit_bytes - 1) / c->icnt.flit_bytes);
    uint64_t dram = 1 + (uint64_t)c->dram.tRCD + (uint64_t)c->dram.tCCD + (uint64_t)c->dram.tCL + burst;
    return (uint64_t)c->icnt.latency + (uint64_t)c->l2.latency + (uint64_t)c->dram.latency + 1 + dram + 1 + 1 +
           (uint64_t)c->icnt.latency + flits - 1;
}

#define ALU(d, pc) {MW_OP_ALU, d, 0, pc, 0, 0}
#define ALU_ON(d, src, pc) {MW_OP_ALU, d, src, pc, 0, 0}
#define EXIT(pc) {MW_OP_EXIT, 0, 0, pc, 0, 0}

/* One warp, four independent ALU instructions and EXIT, all in the first 128 B code line (8 B instructions).
 * Cycle 0: the CTA launches, the fetch stage finds the warp's buffer empty, the L1I misses and the request leaves.
 * Cycle R (R = the line's round trip): the line fills and the warp enters the fetch buffer; R + 1: decode puts
 * instructions 0 and 1 in its buffer; R + 2 and R + 3: they issue (two SP pipes). In R + 3, after the issue, the
 * buffer is empty: the second fetch hits the same line (no memory traffic); R + 4: decode; R + 5, R + 6: issue. */
static void test_ifetch_cold_line_then_hit(void **st)
{
    (void)st;
    static const struct fi code[] = {ALU(2, 0x00), ALU(3, 0x10), ALU(4, 0x20), ALU(5, 0x30), EXIT(0x40)};
    static const struct fprog p = {code, 5};
    const char *sets[] = {"l1i.enabled=true", "sm.inst_bytes=8"};
    struct mw_config c;
    machine(&c, 1, sets, 2);
    struct mw_workload w;
    const char *names[] = {"k"};
    open_fprog(&w, &p, names, 1, 1);
    struct mw_sim *s = sr_sim(&c, &w);
    struct sr_spy spy;
    sr_spy_install(&spy, s, "gto", NULL, NULL, 0, 16);
    sr_run(s, 100000, "cold line");
    uint64_t R = line_round_trip(&c);
    assert_int_equal(spy.n, 5);
    assert_int_equal(spy.log[0].cycle, R + 2);
    assert_int_equal(spy.log[1].cycle, R + 3);
    assert_int_equal(spy.log[2].cycle, R + 5);
    assert_int_equal(spy.log[3].cycle, R + 6);
    struct mw_stat_list l;
    sr_stats(s, &l);
    assert_int_equal((uint64_t)sr_stat(&l, "l1i.misses"), 1);
    assert_int_equal((uint64_t)sr_stat(&l, "l1i.hits"), 2); /* the second pair and EXIT */
    assert_int_equal((uint64_t)sr_stat(&l, "dram.reads"), 1);
    /* scheduler 0 (warp 0's) saw it wait for its code line for about R cycles (the cycle the miss was sent and
     * the cycle the line came back are counted by their other stall reason or not, within one) */
    double sf = sr_stat(&l, "sm.stall_fetch");
    assert_true(sf >= (double)R - 1 && sf <= (double)R + 1);
    assert_int_equal((uint64_t)sr_stat(&l, "sm.issue_slots"), 2 * (uint64_t)sr_stat(&l, "gpu.cycles"));
    mw_stat_list_fini(&l);
    sr_spy_fini(&spy);
    mw_sim_destroy(s);

    /* perfect fetch: the first instruction issues in cycle 0 */
    const char *pset[] = {"l1i.enabled=false"};
    machine(&c, 1, pset, 1);
    open_fprog(&w, &p, names, 1, 1);
    s = sr_sim(&c, &w);
    sr_spy_install(&spy, s, "gto", NULL, NULL, 0, 16);
    sr_run(s, 100000, "perfect");
    assert_int_equal(spy.log[0].cycle, 0);
    sr_stats(s, &l);
    assert_int_equal((uint64_t)sr_stat(&l, "l1i.accesses"), 0);
    assert_int_equal((uint64_t)sr_stat(&l, "dram.reads"), 0);
    mw_stat_list_fini(&l);
    sr_spy_fini(&spy);
    mw_sim_destroy(s);
}

/* Two CTAs on two SMs run the same kernel: both miss on its one code line in their own L1I, but the L2 fetches
 * it from DRAM once (the second request merges into the first's MSHR entry or hits the filled line). */
static void test_ifetch_two_sms_one_dram_read(void **st)
{
    (void)st;
    static const struct fi code[] = {ALU(2, 0x00), ALU(3, 0x10), EXIT(0x20)};
    static const struct fprog p = {code, 3};
    const char *sets[] = {"l1i.enabled=true"};
    struct mw_config c;
    const char *names[] = {"k"};
    struct mw_stat_list l;
    run_prog(2, sets, 1, &p, names, 1, 2, &c, &l);
    assert_int_equal((uint64_t)sr_stat(&l, "l1i.0.misses"), 1);
    assert_int_equal((uint64_t)sr_stat(&l, "l1i.1.misses"), 1);
    assert_int_equal((uint64_t)sr_stat(&l, "l2.reads"), 2);
    assert_int_equal((uint64_t)sr_stat(&l, "dram.reads"), 1);
    mw_stat_list_fini(&l);
}

/* Code addresses: kernels named differently get different ranges, a relaunch of a name its old range; a
 * front-end PC of 16 B per instruction becomes sm.inst_bytes per instruction. */
static uint64_t g_pcs[16];
static int g_npcs;
static void log_pc(struct sr_spy *spy, struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    (void)spy, (void)pi, (void)sm, (void)sched, (void)w;
    if (g_npcs < 16) g_pcs[g_npcs++] = in->pc;
}
static void test_code_addresses(void **st)
{
    (void)st;
    static const struct fi code[] = {ALU(2, 0x00), ALU(3, 0x10), EXIT(0x20)};
    static const struct fprog p = {code, 3};
    const char *sets[] = {"sm.inst_bytes=8"};
    struct mw_config c;
    machine(&c, 1, sets, 1);
    struct mw_workload w;
    const char *names[] = {"a", "b", "a"};
    open_fprog(&w, &p, names, 3, 1);
    struct mw_sim *s = sr_sim(&c, &w);
    struct sr_spy spy;
    sr_spy_install(&spy, s, "gto", NULL, NULL, 0, 0);
    spy.on_issue = log_pc;
    g_npcs = 0;
    sr_run(s, 100000, "code addresses");
    assert_int_equal(g_npcs, 9);
    uint64_t a = g_pcs[0], b = g_pcs[3];
    assert_int_equal(g_pcs[1], a + 8); /* 16 B front-end step -> 8 B */
    assert_int_equal(g_pcs[2], a + 16);
    assert_int_not_equal(a, b);
    assert_true(b > a + 0x10000); /* a range of its own, far from a's code */
    assert_int_equal(g_pcs[4], b + 8);
    assert_int_equal(g_pcs[6], a); /* "a" again: the same code */
    sr_spy_fini(&spy);
    mw_sim_destroy(s);
}

/* GPGPU-Sim's L1D accounting on one warp (one 128 B line per access, line A then line B):
 *   i0 ST A   A absent: access, miss (write-through, no allocation)
 *   i1 LD A   A absent: access, miss; the line is reserved and fetched
 *   i2 ALU    waits for i1's data
 *   i3 LD A   A present: access, hit
 *   i4 ST A   A present: access, hit (the line is invalidated)
 *   i5 LD B   B absent: access, miss
 *   i6 LD B   B reserved and in flight: access, pending hit
 * GPGPU-Sim: 6 accesses (the ALU is none), 3 misses, 1 pending hit, miss rate 3/6. moonwarp's own counters see only the loads:
 * 4 accesses, 1 hit, 3 misses (i6's merge counts as a miss there). */
static void test_gpgpusim_accounting(void **st)
{
    (void)st;
    const uint64_t A = 0x100000, B = 0x200000;
    const struct fi code[] = {
        {MW_OP_ST_GLOBAL, 0, 0, 0x00, A, 0}, {MW_OP_LD_GLOBAL, 2, 0, 0x10, A, 0}, ALU_ON(3, 2, 0x20),
        {MW_OP_LD_GLOBAL, 4, 3, 0x30, A, 0}, {MW_OP_ST_GLOBAL, 0, 4, 0x40, A, 0}, {MW_OP_LD_GLOBAL, 5, 0, 0x50, B, 0},
        {MW_OP_LD_GLOBAL, 6, 0, 0x60, B, 0}, EXIT(0x70)};
    const struct fprog p = {code, 8};
    struct mw_config c;
    const char *names[] = {"k"};
    struct mw_stat_list l;
    run_prog(1, NULL, 0, &p, names, 1, 1, &c, &l);
    assert_int_equal((uint64_t)sr_stat(&l, "l1d.gpgpusim_accesses"), 6);
    assert_int_equal((uint64_t)sr_stat(&l, "l1d.gpgpusim_misses"), 3);
    assert_int_equal((uint64_t)sr_stat(&l, "l1d.gpgpusim_pending_hits"), 1);
    assert_true(sr_stat(&l, "l1d.gpgpusim_miss_rate") == 3.0 / 6.0);
    assert_int_equal((uint64_t)sr_stat(&l, "l1d.accesses"), 4);
    assert_int_equal((uint64_t)sr_stat(&l, "l1d.hits"), 1);
    assert_int_equal((uint64_t)sr_stat(&l, "l1d.misses"), 3);
    mw_stat_list_fini(&l);
}

/* A sectored L2 looks a 128 B read up as four 32 B sectors (four accesses, four MSHR entries, four 32 B DRAM
 * reads) and answers the L1D once, when the last sector is back; a line L2 makes one access and one DRAM read.
 * A one-lane store is one 32 B sector either way: one access, a miss (absent line), no DRAM read (the L2
 * allocates written sectors without fetching). */
static void test_sectored_l2(void **st)
{
    (void)st;
    static const struct fi code[] = {{MW_OP_LD_GLOBAL, 2, 0, 0x00, 0x300000, 0}, ALU_ON(3, 2, 0x10),
                                     {MW_OP_ST_GLOBAL, 0, 3, 0x20, 0x400000, 1u}, ALU(5, 0x30), EXIT(0x40)};
    static const struct fprog p = {code, 5};
    for (int sectored = 0; sectored < 2; sectored++) {
        const char *sets[] = {sectored ? "l2.sectored=true" : "l2.sectored=false"};
        struct mw_config c;
        const char *names[] = {"k"};
        struct mw_stat_list l;
        run_prog(1, sets, 1, &p, names, 1, 1, &c, &l);
        assert_int_equal((uint64_t)sr_stat(&l, "l2.gpgpusim_accesses"), sectored ? 4 + 1 : 1 + 1);
        assert_int_equal((uint64_t)sr_stat(&l, "l2.gpgpusim_misses"), sectored ? 4 + 1 : 1 + 1);
        assert_int_equal((uint64_t)sr_stat(&l, "dram.reads"), sectored ? 4 : 1);
        assert_int_equal((uint64_t)sr_stat(&l, "l2.sector_splits"), sectored ? 1 : 0);
        assert_int_equal((uint64_t)sr_stat(&l, "l1d.fills"), 1);
        assert_int_equal((uint64_t)sr_stat(&l, "icnt.reply.packets"), 2);
        mw_stat_list_fini(&l);
    }
}

/* Two launches of a kernel that loads line A: with l1d.flush_at_kernel_end the second launch misses again. */
static void test_flush_at_kernel_end(void **st)
{
    (void)st;
    static const struct fi code[] = {{MW_OP_LD_GLOBAL, 2, 0, 0x00, 0x500000, 0}, ALU_ON(3, 2, 0x10), EXIT(0x20)};
    static const struct fprog p = {code, 3};
    for (int flush = 0; flush < 2; flush++) {
        const char *sets[] = {flush ? "l1d.flush_at_kernel_end=true" : "l1d.flush_at_kernel_end=false"};
        struct mw_config c;
        const char *names[] = {"k", "k"};
        struct mw_stat_list l;
        run_prog(1, sets, 1, &p, names, 2, 1, &c, &l);
        assert_int_equal((uint64_t)sr_stat(&l, "l1d.misses"), flush ? 2 : 1);
        assert_int_equal((uint64_t)sr_stat(&l, "l1d.hits"), flush ? 0 : 1);
        mw_stat_list_fini(&l);
    }
}

/* l1d.latency_pipe (GPGPU-Sim 4's -gpgpu_l1_latency): an access meets the tags hit_latency cycles after it
 * enters, so a miss leaves that much later: one load miss takes the line's round trip plus hit_latency, without
 * the pipe the round trip alone (the load's latency is measured from the L1D access to its data at the SM). */
static void test_l1d_latency_pipe(void **st)
{
    (void)st;
    static const struct fi code[] = {{MW_OP_LD_GLOBAL, 2, 0, 0x00, 0x600000, 0}, ALU_ON(3, 2, 0x10), EXIT(0x20)};
    static const struct fprog p = {code, 3};
    for (int pipe = 0; pipe < 2; pipe++) {
        const char *sets[] = {pipe ? "l1d.latency_pipe=true" : "l1d.latency_pipe=false", "l1d.hit_latency=35"};
        struct mw_config c;
        const char *names[] = {"k"};
        struct mw_stat_list l;
        run_prog(1, sets, 2, &p, names, 1, 1, &c, &l);
        assert_int_equal((uint64_t)sr_stat(&l, "mem.max_load_latency"), line_round_trip(&c) + (pipe ? 35 : 0));
        mw_stat_list_fini(&l);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ifetch_cold_line_then_hit), cmocka_unit_test(test_ifetch_two_sms_one_dram_read),
        cmocka_unit_test(test_code_addresses),            cmocka_unit_test(test_gpgpusim_accounting),
        cmocka_unit_test(test_sectored_l2),               cmocka_unit_test(test_flush_at_kernel_end),
        cmocka_unit_test(test_l1d_latency_pipe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
