/* Whole-machine tests with hand-computed expectations: one load's latency through L1D, interconnect, L2 and
 * DRAM; a DRAM row hit vs a row conflict; MSHR merging; line-allocation stalls of a column-strided load on a
 * 4-way L1D; clock fast-forward and repeated runs giving identical statistics. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "config.h"
#include "kgen.h"
#include "sim.h"
#include "coalescer.h"
#include "simrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a tiny programmable workload: one CTA, each warp runs the same list of loads ---- */
struct tw {
    uint64_t addr[4]; /* per load: base address; lane l reads base + 4*l (one 128 B line) */
    int nloads;
    bool dependent;   /* each load's address register depends on the previous load */
};

static uint64_t ld0(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    return ((const struct tw *)d)->addr[0] + 4 * t->lane;
}
static uint64_t ld1(const struct mw_tctx *t, int64_t it, const void *d)
{
    (void)it;
    return ((const struct tw *)d)->addr[1] + 4 * t->lane;
}

static struct tw g_tw;
static void no_free(void *p) { (void)p; }

static void open_loads(struct mw_workload *w, int threads, uint64_t a0, uint64_t a1, int nloads)
{
    static const struct mw_tinst two[] = {
        MW_T_LD(2, 1, ld0),   /* r2 = A[...]            */
        MW_T_ALU(1, 2, 2),    /* r1 = f(r2): next address depends on the first load */
        MW_T_LD(3, 1, ld1),   /* r3 = B[...]            */
        MW_T_ALU(4, 3, 3),
    };
    g_tw.addr[0] = a0, g_tw.addr[1] = a1, g_tw.nloads = nloads;
    struct mw_kgen_kernel *k = calloc(1, sizeof *k);
    snprintf(k->k.name, sizeof k->k.name, "test_loads");
    k->k.grid[0] = k->k.grid[1] = k->k.grid[2] = 1;
    k->k.block[0] = (uint32_t)threads, k->k.block[1] = k->k.block[2] = 1;
    k->k.nregs = 8;
    k->pro = two;
    k->npro = nloads == 1 ? 2 : 4;
    k->data = &g_tw;
    struct mw_kgen_program p = {.kernels = k, .nkernels = 1, .owned = NULL, .free_owned = no_free};
    struct mw_err e;
    assert_int_equal(mw_kgen_workload(w, "test_loads", &p, &e), 0);
}

static void base_config(struct mw_config *c)
{
    struct mw_err e;
    mw_config_defaults(c);
    /* one SM, every clock at 700 MHz so that all latencies add up in one unit */
    /* (perfect instruction fetch: these latencies and counts are the data path's alone) */
    const char *sets[] = {"gpu.n_sms=1", "clock.dram_mhz=700", "dram.address_map=RRRRRRRRRRRRBBBBCCCCCCSSSSSS",
                          "l1i.enabled=false"};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) assert_int_equal(mw_config_set(c, sets[i], &e), 0);
}

static double stat(struct mw_stat_list *l, const char *name)
{
    const struct mw_stat_entry *s = mw_stat_list_get(l, name);
    if (!s) fail_msg("no stat '%s'", name);
    return s->value;
}

static void run_collect(const struct mw_config *c, struct mw_workload *w, struct mw_stat_list *l)
{
    struct mw_err e;
    struct mw_sim *s = mw_sim_create(c, &e);
    if (!s) fail_msg("create: %s", e.msg);
    assert_int_equal(mw_sim_set_workload(s, w, &e), 0);
    int rc = mw_sim_run(s, 0, &e);
    if (rc != 1) fail_msg("run: %d %s", rc, e.msg);
    mw_stat_list_init(l);
    assert_int_equal(mw_sim_stats(s, l, true), 0);
    mw_sim_destroy(s);
}

/* Latency of one load that misses L1D and L2 and opens a DRAM row, from the L1D access to the data at the SM.
 * Each term is a configured latency or a documented hand-off:
 *   request crossbar      icnt.latency (1 flit)
 *   L2 lookup pipe        l2.latency
 *   L2 -> DRAM pipe       dram.latency
 *   DRAM queue entry      1 (a request is in the controller's queue the cycle after it is offered)
 *   DRAM, idle bank       1 + tRCD + tCCD + tCL + burst: ACT, then the line's two 64 B column reads tCCD apart
 *                         (the oracle's idle row-miss read of one 64 B atom is 1 + tRCD + tCL + burst = 27)
 *   DRAM -> L2            1 (no fixed delay, GPGPU-Sim's dram_L2 queue; the slice, which ticks before the channel
 *                         in an instant, takes the data at its next cycle)
 *   reply hand-off        1 (the L2 injects after the interconnect has ticked in that instant)
 *   reply crossbar        icnt.latency + (flits - 1), flits = ceil((header + 128) / flit) = 5 */
static void test_single_miss_latency(void **st)
{
    (void)st;
    struct mw_config c;
    base_config(&c);
    struct mw_workload w;
    open_loads(&w, 32, 0x100000, 0, 1);
    struct mw_stat_list l;
    run_collect(&c, &w, &l);
    uint64_t burst = (uint64_t)(c.dram.burst_length / c.dram.data_rate);
    uint64_t flits = (uint64_t)((c.icnt.header_bytes + 128 + c.icnt.flit_bytes - 1) / c.icnt.flit_bytes);
    uint64_t dram = 1 + (uint64_t)c.dram.tRCD + (uint64_t)c.dram.tCCD + (uint64_t)c.dram.tCL + burst;
    uint64_t expect = (uint64_t)c.icnt.latency + (uint64_t)c.l2.latency + (uint64_t)c.dram.latency + 1 + dram + 1 + 1 +
                      (uint64_t)c.icnt.latency + flits - 1;
    assert_int_equal((uint64_t)stat(&l, "mem.max_load_latency"), expect);
    assert_int_equal((uint64_t)stat(&l, "l1d.misses"), 1);
    assert_int_equal((uint64_t)stat(&l, "l2.misses"), 1);
    assert_int_equal((uint64_t)stat(&l, "dram.reads"), 1);
    assert_int_equal((uint64_t)stat(&l, "dram.row_misses"), 1); /* the first atom opens the row ... */
    assert_int_equal((uint64_t)stat(&l, "dram.row_hits"), 1);   /* ... the second finds it open */
    assert_int_equal((uint64_t)stat(&l, "dram.avg_read_latency"), dram);
    mw_stat_list_fini(&l);
}

/* Two dependent loads to the same DRAM bank: the second hits the open row, or conflicts with it. The runs
 * differ only in the second load's DRAM service: a conflict costs tRP + tRCD more than a hit. Addresses:
 * interleave 256 B over 6 partitions x 2 slices, so +12 x 256 B stays in the slice; the local address then
 * moves by 512 B (column bits) or 64 KB (the next row, same bank). */
static void test_row_hit_vs_conflict(void **st)
{
    (void)st;
    struct mw_config c;
    base_config(&c);
    uint64_t a = 0x200000;
    uint64_t hit = a + 2 * 6 * 256;          /* local + 512: same row and bank, another column */
    uint64_t conflict = a + 256ull * 6 * 256; /* local + 64 KB: next row, same bank */
    struct mw_workload w;
    struct mw_stat_list lh, lc;
    open_loads(&w, 32, a, hit, 2);
    run_collect(&c, &w, &lh);
    open_loads(&w, 32, a, conflict, 2);
    run_collect(&c, &w, &lc);
    /* each 128 B line is two 64 B column commands: hit run = miss, hit | hit, hit; conflict run = miss, hit |
     * conflict, hit */
    assert_int_equal((uint64_t)stat(&lh, "dram.row_hits"), 3);
    assert_int_equal((uint64_t)stat(&lh, "dram.row_misses"), 1);
    assert_int_equal((uint64_t)stat(&lh, "dram.row_conflicts"), 0);
    assert_int_equal((uint64_t)stat(&lc, "dram.row_hits"), 2);
    assert_int_equal((uint64_t)stat(&lc, "dram.row_conflicts"), 1);
    assert_int_equal((uint64_t)(stat(&lc, "gpu.cycles") - stat(&lh, "gpu.cycles")), c.dram.tRP + c.dram.tRCD);
    mw_stat_list_fini(&lh);
    mw_stat_list_fini(&lc);
}

/* Two warps of one CTA load the same line at about the same time: one MSHR entry, one L2 read, one DRAM read. */
static void test_mshr_merge(void **st)
{
    (void)st;
    struct mw_config c;
    base_config(&c);
    struct mw_workload w;
    open_loads(&w, 64, 0x300000, 0, 1);
    struct mw_stat_list l;
    run_collect(&c, &w, &l);
    assert_int_equal((uint64_t)stat(&l, "l1d.misses"), 2);
    assert_int_equal((uint64_t)stat(&l, "l1d.mshr_merges"), 1);
    assert_int_equal((uint64_t)stat(&l, "l2.accesses"), 1);
    assert_int_equal((uint64_t)stat(&l, "dram.reads"), 1);
    mw_stat_list_fini(&l);
}

/* One warp's column-strided load: 32 lanes 4096 B apart = 32 lines in one set of a 32-set L1D. A 4-way set
 * reserves 4 lines (allocate-on-miss); the fifth request finds every way reserved and stalls the LDST unit
 * until a fill frees one, so line-allocation failures appear; with 32 ways there are none. */
static void test_colstride_line_alloc(void **st)
{
    (void)st;
    struct mw_config c;
    base_config(&c);
    struct mw_err e;
    struct mw_workload w;
    assert_int_equal(mw_workload_open_builtin(&w, "micro.colstride", "tiny", 1, &e), 0);
    struct mw_stat_list l;
    run_collect(&c, &w, &l);
    assert_int_equal((uint64_t)stat(&l, "sm.coalesced_reqs"), 32 + 1); /* the load, then the epilogue's store */
    assert_int_equal((uint64_t)stat(&l, "l1d.misses"), 32);
    assert_true(stat(&l, "l1d.line_alloc_fail") > 0);
    assert_int_equal((uint64_t)stat(&l, "l1d.line_alloc_fail"), (uint64_t)stat(&l, "sm.ldst_stall_line_alloc"));
    assert_int_equal((uint64_t)stat(&l, "l1d.mshr_fail"), 0);
    mw_stat_list_fini(&l);

    struct mw_config c32 = c;
    assert_int_equal(mw_config_set(&c32, "l1d.assoc=32", &e), 0);
    assert_int_equal(mw_workload_open_builtin(&w, "micro.colstride", "tiny", 1, &e), 0);
    run_collect(&c32, &w, &l);
    assert_int_equal((uint64_t)stat(&l, "l1d.line_alloc_fail"), 0);
    mw_stat_list_fini(&l);
}

static int coal(const struct mw_config *c, const struct mw_inst *in, struct mw_coal_req *r)
{
    struct mw_set_index ix;
    struct mw_coalescer co;
    mw_set_index_init(&ix, c);
    mw_coalescer_init(&co, c, &ix);
    return mw_coalesce(&co, in, r);
}

/* The coalescer on that load: 32 requests, every one in the same set. */
static void test_colstride_one_set(void **st)
{
    (void)st;
    struct mw_config c;
    base_config(&c);
    struct mw_err e;
    struct mw_sim *s = mw_sim_create(&c, &e);
    assert_non_null(s);
    struct mw_inst in = {.op = MW_OP_LD_GLOBAL, .width = 4, .mask = 0xffffffffu};
    for (int l = 0; l < 32; l++) in.addr[l] = 0x10000000ull + 4096ull * (uint64_t)l + 8;
    struct mw_coal_req r[64];
    int n = coal(&c, &in, r);
    assert_int_equal(n, 32);
    for (int i = 0; i < n; i++) assert_int_equal(r[i].set, r[0].set);
    /* and a coalesced load: 32 consecutive floats = one 128 B request */
    for (int l = 0; l < 32; l++) in.addr[l] = 0x10000000ull + 4ull * (uint64_t)l;
    n = coal(&c, &in, r);
    assert_int_equal(n, 1);
    assert_int_equal(r[0].size, 128);
    /* 8 lanes in one 32 B sector: shrunk to a 32 B request (Fermi rule) */
    in.mask = 0xff;
    n = coal(&c, &in, r);
    assert_int_equal(n, 1);
    assert_int_equal(r[0].size, 32);
    mw_sim_destroy(s);

    /* a 48-set L1D (Linebacker's 48 KB 8-way): line l*32 lands in set (32 l) mod 48, i.e. sets 0, 32, 16 */
    assert_int_equal(mw_config_set(&c, "l1d.size_bytes=49152", &e), 0);
    assert_int_equal(mw_config_set(&c, "l1d.assoc=8", &e), 0);
    s = mw_sim_create(&c, &e);
    assert_non_null(s);
    in.mask = 0xffffffffu;
    for (int l = 0; l < 32; l++) in.addr[l] = 4096ull * (uint64_t)l;
    n = coal(&c, &in, r);
    assert_int_equal(n, 32);
    int seen[48] = {0}, distinct = 0;
    for (int i = 0; i < n; i++) {
        assert_int_equal(r[i].set, (32 * i) % 48);
        distinct += !seen[r[i].set]++;
    }
    assert_int_equal(distinct, 3);
    mw_sim_destroy(s);
}

static void same_lists(struct mw_stat_list *a, struct mw_stat_list *b)
{
    assert_int_equal(a->n, b->n);
    for (int i = 0; i < a->n; i++) {
        assert_string_equal(a->v[i].name, b->v[i].name);
        if (sr_effort_stat(a->v[i].name)) continue; /* the engine's work: fast-forward saves it */
        if (memcmp(&a->v[i].value, &b->v[i].value, sizeof(double)) != 0)
            fail_msg("%s differs: %.17g vs %.17g", a->v[i].name, a->v[i].value, b->v[i].value);
    }
}

/* The same config, workload and seed give bit-identical stats; fast-forwarding the clocks changes nothing. */
static void test_determinism_and_fast_forward(void **st)
{
    (void)st;
    const char *wls[] = {"micro.stream", "micro.colstride"};
    for (int k = 0; k < 2; k++) {
        struct mw_config c;
        struct mw_err e;
        mw_config_defaults(&c);
        struct mw_workload w;
        struct mw_stat_list a, b, f;
        assert_int_equal(mw_workload_open_builtin(&w, wls[k], "small", 7, &e), 0);
        run_collect(&c, &w, &a);
        assert_int_equal(mw_workload_open_builtin(&w, wls[k], "small", 7, &e), 0);
        run_collect(&c, &w, &b);
        same_lists(&a, &b);
        assert_int_equal(mw_config_set(&c, "sim.fast_forward=false", &e), 0);
        assert_int_equal(mw_workload_open_builtin(&w, wls[k], "small", 7, &e), 0);
        run_collect(&c, &w, &f);
        same_lists(&a, &f);
        assert_true(stat(&a, "gpu.warp_insts") > 0);
        mw_stat_list_fini(&a);
        mw_stat_list_fini(&b);
        mw_stat_list_fini(&f);
    }
}

/* Idle units are skipped (an SM sleeps until a reply, a launch or its next ready cycle; L2 slices and DRAM
 * channels until their next event) only when sim.fast_forward is on: every counter must match a run that ticks
 * every unit every cycle, across the decision points' alternatives, barriers and data-dependent kernels. A run
 * split into 997-cycle chunks with stats read between them (which settles sleeping SMs' skipped cycles) must
 * match too. */
static void test_unit_skipping_exact(void **st)
{
    (void)st;
    static const struct {
        const char *wl, *size, *set[2];
    } cases[] = {
        {"rodinia.bfs", "small", {NULL, NULL}},
        {"rodinia.srad_v2", "tiny", {"policies.warp_scheduler=two_level", NULL}},
        {"polybench.bicg", "tiny", {"policies.l1d_bypass=all", "policies.warp_scheduler=lrr"}},
        {"rodinia.cfd", "tiny", {"policies.granularity=sector", NULL}},
        {"graph.cc", "tiny", {"l1d.alloc=on_fill", "policies.replacement=fifo"}},
        {"micro.colstride", "small", {"dram.queue_mode=split", "policies.dram_scheduler=fcfs"}},
        {"parboil.spmv", "tiny", {"policies.cta_throttle=static", NULL}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct mw_config c;
        struct mw_err e;
        mw_config_defaults(&c);
        for (int j = 0; j < 2 && cases[i].set[j]; j++) assert_int_equal(mw_config_set(&c, cases[i].set[j], &e), 0);
        struct mw_workload w;
        struct mw_stat_list a, f, ch;
        assert_int_equal(mw_workload_open_builtin(&w, cases[i].wl, cases[i].size, 3, &e), 0);
        run_collect(&c, &w, &a);
        /* chunked, with stats read in between */
        assert_int_equal(mw_workload_open_builtin(&w, cases[i].wl, cases[i].size, 3, &e), 0);
        struct mw_sim *s = mw_sim_create(&c, &e);
        assert_non_null(s);
        assert_int_equal(mw_sim_set_workload(s, &w, &e), 0);
        int rc, chunks = 0;
        while ((rc = mw_sim_run(s, 997, &e)) == 0) {
            struct mw_stat_list mid;
            mw_stat_list_init(&mid);
            assert_int_equal(mw_sim_stats(s, &mid, true), 0);
            mw_stat_list_fini(&mid);
            chunks++;
        }
        assert_int_equal(rc, 1);
        assert_true(chunks > 3);
        mw_stat_list_init(&ch);
        assert_int_equal(mw_sim_stats(s, &ch, true), 0);
        mw_sim_destroy(s);
        same_lists(&a, &ch);
        assert_int_equal(mw_config_set(&c, "sim.fast_forward=false", &e), 0);
        assert_int_equal(mw_workload_open_builtin(&w, cases[i].wl, cases[i].size, 3, &e), 0);
        run_collect(&c, &w, &f);
        same_lists(&a, &f);
        assert_true(stat(&a, "gpu.warp_insts") > 0);
        mw_stat_list_fini(&a);
        mw_stat_list_fini(&f);
        mw_stat_list_fini(&ch);
    }
}

/* Run `wl` at `size` with config overrides `sets` and collect its stats into `out`; fails unless the run
 * completes within `cap` cycles. */
static void complete_with(const char *wl, const char *size, const char *const *sets, int nsets, uint64_t cap,
                          struct mw_stat_list *out)
{
    struct mw_config c;
    struct mw_err e;
    mw_config_defaults(&c);
    c.l1i.enabled = false; /* packet and flit counts of data only */
    for (int i = 0; i < nsets; i++) assert_int_equal(mw_config_set(&c, sets[i], &e), 0);
    struct mw_workload w;
    assert_int_equal(mw_workload_open_builtin(&w, wl, size, 1, &e), 0);
    struct mw_sim *s = mw_sim_create(&c, &e);
    assert_non_null(s);
    assert_int_equal(mw_sim_set_workload(s, &w, &e), 0);
    int rc = mw_sim_run(s, cap, &e);
    if (rc != 1) fail_msg("%s (%s): not complete after %llu cycles (rc %d: %s)", wl, nsets ? sets[0] : "defaults",
                          (unsigned long long)cap, rc, rc < 0 ? e.msg : "");
    mw_stat_list_init(out);
    assert_int_equal(mw_sim_stats(s, out, false), 0);
    mw_sim_destroy(s);
}

/* Sector granularity fetches only the missing sectors of a line that is partly valid (CFD's and BFS's gathers):
 * a fill must leave no sector pending, or the line can never be evicted and the SM stalls for good. These
 * workloads do meet such lines in sector mode (sector misses), never in line mode.
 *
 * And it brings only the sectors a load touches. micro.colstride (tiny) is one warp whose load reads 4 B from
 * each of 32 lines 4 KB apart (sector 0 of each), then stores one coalesced 128 B line. Each of the 32 misses
 * comes back as one reply packet of header + data in 32 B flits:
 *   line:               data 128 B, ceil((8 + 128) / 32) = 5 flits
 *   sector:             data  32 B, ceil((8 +  32) / 32) = 2 flits
 *   sector, granule 64: data  64 B, ceil((8 +  64) / 32) = 3 flits
 * plus the store's acknowledgement, a header alone (1 flit): 161, 65 and 97 reply flits. The requests are the
 * same in every mode (32 header-only reads + the store's 8 + 128 B = 37 flits), and so are the misses. */
static void test_sector_granularity_completes(void **st)
{
    (void)st;
    const char *wls[] = {"rodinia.cfd", "rodinia.bfs", "graph.cc"};
    const char *sector[] = {"policies.granularity=sector"};
    for (int k = 0; k < 3; k++) {
        struct mw_stat_list line, sec;
        complete_with(wls[k], "tiny", NULL, 0, 5000000, &line);
        complete_with(wls[k], "tiny", sector, 1, 5000000, &sec);
        assert_true(stat(&line, "gpu.warp_insts") > 0);
        assert_true(stat(&sec, "gpu.warp_insts") == stat(&line, "gpu.warp_insts"));
        assert_int_equal((uint64_t)stat(&line, "l1d.sector_misses"), 0);
        assert_true(stat(&sec, "l1d.sector_misses") > 0);
        mw_stat_list_fini(&line);
        mw_stat_list_fini(&sec);
    }

    static const char *const modes[3][2] = {{"policies.granularity=line", NULL},
                                            {"policies.granularity=sector", NULL},
                                            {"policies.granularity=sector", "policies.granularity.granule=64"}};
    static const uint64_t data_bytes[3] = {128, 32, 64};
    struct mw_config c;
    mw_config_defaults(&c);
    const uint64_t flit = (uint64_t)c.icnt.flit_bytes, hdr = (uint64_t)c.icnt.header_bytes;
    assert_int_equal(flit, 32);
    assert_int_equal(hdr, 8);
    for (int m = 0; m < 3; m++) {
        struct mw_stat_list l;
        complete_with("micro.colstride", "tiny", modes[m], modes[m][1] ? 2 : 1, 5000000, &l);
        uint64_t per_miss = (hdr + data_bytes[m] + flit - 1) / flit;
        assert_int_equal((uint64_t)stat(&l, "l1d.misses"), 32);
        assert_int_equal((uint64_t)stat(&l, "icnt.reply.packets"), 32 + 1);
        assert_int_equal((uint64_t)stat(&l, "icnt.reply.flits"), 32 * per_miss + (hdr + flit - 1) / flit);
        assert_int_equal((uint64_t)stat(&l, "icnt.req.flits"), 32 + (hdr + 128 + flit - 1) / flit);
        mw_stat_list_fini(&l);
    }
}

/* Barrier order, checked at every issue: a warp that has issued b barriers may issue again only after the b-th
 * barrier released its CTA, i.e. when every other live warp of its CTA (same SM and hardware slot, not exited)
 * has issued at least b barriers. Counts belong to a warp's launch (its age): a slot reused by a later CTA
 * starts from zero. The issue order is fingerprinted so that the schedulers can be told apart. */
struct bar_check {
    int nwarps;
    uint64_t *age;    /* per (SM, warp slot): the launch the count belongs to */
    uint32_t *passed; /* barriers issued by that launch */
    uint64_t checked, order;
    char violation[256];
};

static void bar_on_issue(struct sr_spy *spy, struct mw_policy_inst *pi, int sm, int sched, int w,
                         const struct mw_inst *in)
{
    (void)sched;
    struct bar_check *b = spy->ud;
    const struct mw_sim *s = pi->sim;
    size_t i = (size_t)sm * (size_t)b->nwarps + (size_t)w;
    b->order = (b->order ^ (uint64_t)(sm << 8 | w)) * 0x100000001b3ull;
    if (b->age[i] != mw_warp_age(s, sm, w)) b->age[i] = mw_warp_age(s, sm, w), b->passed[i] = 0;
    uint32_t mine = b->passed[i];
    if (mine > 0 && !b->violation[0]) {
        int cta = mw_warp_cta(s, sm, w);
        for (int x = 0; x < b->nwarps; x++) {
            if (x == w || !mw_warp_active(s, sm, x) || mw_warp_cta(s, sm, x) != cta) continue;
            size_t j = (size_t)sm * (size_t)b->nwarps + (size_t)x;
            uint32_t theirs = b->age[j] == mw_warp_age(s, sm, x) ? b->passed[j] : 0;
            if (theirs < mine)
                snprintf(b->violation, sizeof b->violation,
                         "cycle %llu: SM %d warp %d issued %s past barrier %u while warp %d of its CTA had issued %u",
                         (unsigned long long)mw_now(s), sm, w, mw_op_names[in->op], mine, x, theirs);
        }
        b->checked++;
    }
    if (in->op == MW_OP_BARRIER) b->passed[i]++;
}

/* Kernels with __syncthreads (SRAD v2, BACKPROP, HOTSPOT at small size: more warps per scheduler than the
 * two-level active set holds) complete under every built-in warp scheduler with the same instruction count:
 * a scheduler that kept barrier-waiting warps in its active set would lock out the warps the barrier waits for.
 * No warp runs past a barrier before its whole CTA reached it, warps did wait at barriers, and the three
 * schedulers issue in three different orders. */
static void test_schedulers_with_barriers(void **st)
{
    (void)st;
    const char *wls[] = {"rodinia.srad_v2", "rodinia.backprop", "rodinia.hotspot"};
    const char *scheds[] = {"gto", "lrr", "two_level"};
    for (int k = 0; k < 3; k++) {
        double insts = 0;
        uint64_t order[3];
        for (int j = 0; j < 3; j++) {
            struct mw_config c;
            sr_config(&c, NULL, 0);
            struct mw_err e;
            struct mw_workload w;
            assert_int_equal(mw_workload_open_builtin(&w, wls[k], "small", 1, &e), 0);
            struct mw_sim *s = sr_sim(&c, &w);
            struct sr_spy spy;
            sr_spy_install(&spy, s, scheds[j], NULL, NULL, 0, 0);
            struct bar_check b = {.nwarps = (int)c.sm.max_warps};
            size_t n = (size_t)(c.gpu.n_sms * c.sm.max_warps);
            b.age = malloc(n * sizeof *b.age);
            b.passed = calloc(n, sizeof *b.passed);
            assert_true(b.age && b.passed);
            memset(b.age, 0xff, n * sizeof *b.age);
            spy.ud = &b;
            spy.on_issue = bar_on_issue;
            char what[96];
            snprintf(what, sizeof what, "%s under %s", wls[k], scheds[j]);
            sr_run(s, 5000000, what);
            if (b.violation[0]) fail_msg("%s: %s", what, b.violation);
            struct mw_stat_list l;
            sr_stats(s, &l);
            mw_sim_destroy(s);
            if (j == 0) insts = stat(&l, "gpu.warp_insts");
            assert_true(insts > 0);
            assert_true(stat(&l, "gpu.warp_insts") == insts);
            assert_int_equal((uint64_t)spy.n, (uint64_t)insts);
            assert_true(b.checked > 0);
            assert_true(stat(&l, "sm.stall_barrier") > 0);
            order[j] = b.order;
            mw_stat_list_fini(&l);
            free(b.age);
            free(b.passed);
            sr_spy_fini(&spy);
        }
        assert_true(order[0] != order[1] && order[0] != order[2] && order[1] != order[2]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_miss_latency),
        cmocka_unit_test(test_row_hit_vs_conflict),
        cmocka_unit_test(test_mshr_merge),
        cmocka_unit_test(test_colstride_line_alloc),
        cmocka_unit_test(test_colstride_one_set),
        cmocka_unit_test(test_determinism_and_fast_forward),
        cmocka_unit_test(test_unit_skipping_exact),
        cmocka_unit_test(test_schedulers_with_barriers),
        cmocka_unit_test(test_sector_granularity_completes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
