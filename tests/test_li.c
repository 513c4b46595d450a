/* Tests of Li 2015 (spec/001_li.md §7): the MSHR-M / MSHR-S / MSHR-S+A schedulers on hand-built candidate lists
 * (the Fig 3.1 toy example, max vs sum row scores, Rule 1's row hit first, 15-bit age saturation), the DMIB
 * entry's ageing by its merge length in the controller (l2.merge_info = mib), the split queues' write drain with
 * Li's watermarks (96 / 80, and an empty read queue), perfect DRAM, and the §4.5 hardware-overhead arithmetic
 * from the structure sizes of li.yaml and the policies' parameters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "config.h"
#include "dram.h"
#include "policy.h"
#include "simrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LI_YAML "experiments/configs/li.yaml"

/* ---- policies on hand-built candidates ------------------------------------------------------------------- */

struct pol {
    struct mw_policy_inst pi;
    const struct mw_dram_sched_ops *ops;
};

static void pol_init(struct pol *p, const char *name, const char *const *params)
{
    const struct mw_policy *base = mw_policy_find(MW_PT_DRAM_SCHED, name);
    assert_non_null(base);
    struct mw_err e;
    int n = 0;
    const char *keys[4], *vals[4];
    for (; params && params[2 * n]; n++) keys[n] = params[2 * n], vals[n] = params[2 * n + 1];
    assert_int_equal(mw_policy_inst_init(&p->pi, base, NULL, keys, vals, n, &e), 0);
    p->ops = (const struct mw_dram_sched_ops *)base;
}

static int pol_pick(struct pol *p, const struct mw_dram_cand *c, int n)
{
    struct mw_dram_sched_ctx ctx = {.channel = 0, .bank = 0, .open_row = MW_ROW_NONE, .now = 1000};
    for (int i = 0; i < n; i++)
        if (c[i].row_hit) ctx.open_row = c[i].row;
    return p->ops->pick(&p->pi, &ctx, c, n);
}

/* A read candidate: arrival (= id) gives the age order, row, merge length, Age_MSHR. */
static struct mw_dram_cand cand(uint64_t arrival, uint32_t row, uint32_t merge, uint64_t age)
{
    return (struct mw_dram_cand){.arrival = arrival, .id = (uint32_t)arrival, .row = row, .merge = merge,
                                 .age = age, .sm = 0};
}

/* Fig 3.1: warps W0, W1 on core 0 and W2, W3 on core 1; W0 and W2 miss on the same line, which merges into one
 * L2 MSHR entry (R0, merge length 2); W1's R1 and W3's R3 are alone. The DRAM queue holds R1, R3, R0 in arrival
 * order, each to another row of one bank, and serves one request per cycle. A warp whose request is served in
 * cycle t executes one instruction in each of cycles t+1 .. 3, so 3 - t instructions in the 4 cycles.
 *   FR-FCFS serves R1, R3, R0: W1 3, W3 2, W0 1, W2 1 = 7 instructions / 4 cycles = 1.75 (Li eq. 3.1).
 *   MSHR-S serves R0 first (merge 2), then R1, R3 (oldest first on a tie): W0 3, W2 3, W1 2, W3 1 = 9 / 4 = 2.25
 *   (eq. 3.2). */
static double toy_delta_ipc(const char *policy)
{
    struct pol p;
    pol_init(&p, policy, NULL);
    struct mw_dram_cand q[3] = {cand(1, 10, 1, 0), cand(2, 30, 1, 0), cand(3, 0, 2, 0)}; /* R1, R3, R0 */
    int warps_of[3] = {1, 1, 2}; /* warps waiting on each request */
    int n = 3, insts = 0;
    for (int t = 0; t < 3; t++) {
        int k = n > 1 ? pol_pick(&p, q, n) : 0;
        assert_true(k >= 0 && k < n);
        insts += warps_of[k] * (3 - t);
        for (int j = k; j + 1 < n; j++) q[j] = q[j + 1], warps_of[j] = warps_of[j + 1];
        n--;
    }
    mw_policy_inst_fini(&p.pi);
    return insts / 4.0;
}

static void test_toy_example(void **state)
{
    (void)state;
    assert_true(toy_delta_ipc("frfcfs") == 1.75);
    assert_true(toy_delta_ipc("mshr_s") == 2.25);
    assert_true(toy_delta_ipc("mshr_m") == 2.25);
}

/* Row A (row 1) holds one request of merge length 4; row B (row 2) three of merge length 2 (max 2, sum 6).
 * MSHR-M scores rows by max: A (4 > 2). MSHR-S by sum: B (6 > 4), and in B its largest score, the oldest on a tie
 * (arrival 2). */
static void test_max_vs_sum(void **state)
{
    (void)state;
    struct pol m, s;
    pol_init(&m, "mshr_m", NULL);
    pol_init(&s, "mshr_s", NULL);
    struct mw_dram_cand c[4] = {cand(1, 1, 4, 0), cand(2, 2, 2, 0), cand(3, 2, 2, 0), cand(4, 2, 2, 0)};
    assert_int_equal(pol_pick(&m, c, 4), 0);
    assert_int_equal(pol_pick(&s, c, 4), 1);
    /* all merge lengths 1: MSHR-S picks the row with most requests (Rixner's most pending): row B, oldest in it;
     * MSHR-M sees a tie (max 1 everywhere) and takes the row of the oldest request (A); FR-FCFS the oldest */
    for (int i = 0; i < 4; i++) c[i].merge = 1;
    assert_int_equal(pol_pick(&s, c, 4), 1);
    assert_int_equal(pol_pick(&m, c, 4), 0);
    /* MSHR-S, row B's requests with merges 1, 3, 1: the largest request score in the row wins (arrival 3) */
    c[2].merge = 3;
    assert_int_equal(pol_pick(&s, c, 4), 2);
    mw_policy_inst_fini(&m.pi);
    mw_policy_inst_fini(&s.pi);
}

/* Writes have no MSHR entry: a list of writes only is served FR-FCFS by every variant. Row 2 holds three writes,
 * row 1 the oldest one: MSHR-S on reads would take row 2 (3 requests), on writes the oldest (index 0); with the
 * open row 2, the oldest row hit (index 1). */
static void test_writes_frfcfs(void **state)
{
    (void)state;
    static const char *const names[] = {"mshr_m", "mshr_s", "mshr_sa"};
    for (int v = 0; v < 3; v++) {
        struct pol p;
        pol_init(&p, names[v], NULL);
        struct mw_dram_cand c[4] = {cand(1, 1, 1, 10), cand(2, 2, 1, 500), cand(3, 2, 1, 500), cand(4, 2, 1, 500)};
        for (int i = 0; i < 4; i++) c[i].is_write = 1;
        assert_int_equal(pol_pick(&p, c, 4), 0);
        c[1].row_hit = c[2].row_hit = c[3].row_hit = 1;
        assert_int_equal(pol_pick(&p, c, 4), 1);
        for (int i = 0; i < 4; i++) c[i].is_write = 0, c[i].row_hit = 0;
        if (v == 1) assert_int_equal(pol_pick(&p, c, 4), 1); /* reads: the row with most requests */
        mw_policy_inst_fini(&p.pi);
    }
}

/* Rule 1: a row hit of merge 1 beats a closed row of merge 10, for every variant; among hits the larger score. */
static void test_row_hit_first(void **state)
{
    (void)state;
    static const char *const names[] = {"mshr_m", "mshr_s", "mshr_sa"};
    for (int v = 0; v < 3; v++) {
        struct pol p;
        pol_init(&p, names[v], NULL);
        struct mw_dram_cand c[3] = {cand(1, 5, 10, 5000), cand(2, 7, 1, 10), cand(3, 7, 2, 20)};
        c[1].row_hit = c[2].row_hit = 1;
        assert_int_equal(pol_pick(&p, c, 3), 2); /* hits: merge 2 > 1, age 20 > 10 */
        mw_policy_inst_fini(&p.pi);
    }
}

/* MSHR-S+A scores by Age_MSHR saturated at 2^15 - 1 = 32767: ages 33000 (older, row 1) and 40000 (row 2) both
 * saturate, the tie goes to the oldest (index 0); unsaturated (age_bits = 16: 65535) 40000 wins. Below the cap
 * the larger age wins. Row scores add ages: rows {100, 100} (200) beat {150}. */
static void test_sa_ages(void **state)
{
    (void)state;
    struct pol p, wide;
    pol_init(&p, "mshr_sa", NULL);
    static const char *const kv[] = {"age_bits", "16", NULL};
    pol_init(&wide, "mshr_sa", kv);
    struct mw_dram_cand c[3] = {cand(1, 1, 1, 33000), cand(2, 2, 1, 40000)};
    assert_int_equal(pol_pick(&p, c, 2), 0);
    assert_int_equal(pol_pick(&wide, c, 2), 1);
    c[0].age = 100, c[1].age = 200;
    assert_int_equal(pol_pick(&p, c, 2), 1);
    struct mw_dram_cand d[3] = {cand(1, 1, 1, 150), cand(2, 2, 1, 100), cand(3, 2, 1, 100)};
    assert_int_equal(pol_pick(&p, d, 3), 1);
    mw_policy_inst_fini(&p.pi);
    mw_policy_inst_fini(&wide.pi);
}

/* ---- the controller: DMIB ageing, watermarks --------------------------------------------------------------- */

/* li.yaml's partition-local layout: [5:0] byte, [11:6] column, [15:12] bank, [27:16] row. */
static uint64_t A(unsigned bank, unsigned row) { return ((uint64_t)row << 16) | (bank << 12); }

struct rec {
    uint64_t now[64];
    uint64_t age[64][4];
    uint32_t merge[64][4], row[64][4];
    int n, ncand[64];
};
static struct rec g_rec;
static int rec_pick(struct mw_policy_inst *pi, const struct mw_dram_sched_ctx *c, const struct mw_dram_cand *k, int n)
{
    (void)pi;
    if (g_rec.n < 64) {
        g_rec.now[g_rec.n] = c->now;
        g_rec.ncand[g_rec.n] = n;
        for (int i = 0; i < n && i < 4; i++)
            g_rec.age[g_rec.n][i] = k[i].age, g_rec.merge[g_rec.n][i] = k[i].merge, g_rec.row[g_rec.n][i] = k[i].row;
        g_rec.n++;
    }
    return 0;
}
static const struct mw_dram_sched_ops rec_ops = {
    .base = {.point = MW_PT_DRAM_SCHED, .name = "rec", .desc = "records its candidates, picks the oldest"},
    .pick = rec_pick,
};

struct dr {
    struct mw_config c;
    struct mw_policy_inst pi;
    struct mw_dram *d;
    struct mw_req_pool pool;
    int wr, rd, act0_after; /* command counts for the watermark tests */
    uint64_t cmds[4][8192];
    int ncmd[4];
    int cmd_bank[4][8192];
};

static void on_cmd(void *ctx, uint64_t cycle, int cmd, int bank, uint32_t row, uint32_t col, const struct mw_req *r)
{
    (void)row, (void)col, (void)r;
    struct dr *g = ctx;
    if (g->ncmd[cmd] < 8192) g->cmd_bank[cmd][g->ncmd[cmd]] = bank, g->cmds[cmd][g->ncmd[cmd]++] = cycle;
}

static struct dr *dr_new(const char *policy_or_null, const char *const *sets)
{
    struct dr *g = calloc(1, sizeof *g);
    assert_non_null(g);
    struct mw_err e;
    mw_config_defaults(&g->c);
    assert_int_equal(mw_config_load_file(&g->c, LI_YAML, &e), 0);
    for (; sets && *sets; sets++) assert_int_equal(mw_config_set(&g->c, *sets, &e), 0);
    assert_int_equal(mw_config_validate(&g->c, &e), 0);
    const struct mw_policy *p = policy_or_null ? mw_policy_find(MW_PT_DRAM_SCHED, policy_or_null) : &rec_ops.base;
    assert_non_null(p);
    assert_int_equal(mw_policy_inst_init(&g->pi, p, NULL, NULL, NULL, 0, &e), 0);
    g->d = mw_dram_create(&g->c, 0, &g->pi, &e);
    assert_non_null(g->d);
    mw_dram_set_cmd_log(g->d, on_cmd, g);
    mw_req_pool_init(&g->pool);
    return g;
}

static void dr_free(struct dr *g)
{
    struct mw_req *r;
    while ((r = mw_dram_pop_done(g->d))) mw_req_free(&g->pool, r);
    mw_dram_destroy(g->d);
    mw_policy_inst_fini(&g->pi);
    mw_req_pool_fini(&g->pool);
    free(g);
}

static struct mw_req *dr_push(struct dr *g, uint64_t addr, int kind, uint64_t now)
{
    assert_true(mw_dram_can_accept(g->d, kind));
    struct mw_req *r = mw_req_alloc(&g->pool);
    r->dram_addr = r->addr = addr;
    r->kind = (uint8_t)kind;
    r->size = 64; /* one atom (8 B x BL 8): one column command per request */
    mw_dram_push(g->d, r, now);
    return r;
}

static void dr_run(struct dr *g, uint64_t from, uint64_t to)
{
    for (uint64_t t = from; t < to; t++) {
        mw_dram_cycle(g->d, t);
        struct mw_req *r;
        while ((r = mw_dram_pop_done(g->d))) mw_req_free(&g->pool, r);
    }
}

/* l2.merge_info = mib. Three reads to bank 0, rows 1, 2, 3, pushed at cycle 0 with no age of their own (age_sum
 * 0): each DMIB entry starts at merge 1, age 0 at its push (cycle 0). The first pick (cycle 2, when they join the
 * bank) takes row 1, which commits. At cycle 10 a dummy for the row-2 read brings merge length k = 3 and an age
 * of 50: its entry holds 1 x (10 - 0) + 50 = 60 and from then gains 3 per cycle. The row-3 read keeps merge 1 and
 * gains 1 per cycle. When the row-1 read is done the bank asks again at cycle t: row 2's age is 60 + 3 (t - 10),
 * row 3's is t. A second dummy (k = 5, age 7) at cycle t2 > t ... see test_dmib_ages_saturation for the cap. */
static void test_dmib_ageing(void **state)
{
    (void)state;
    static const char *const sets[] = {"l2.merge_info=mib", NULL};
    struct dr *g = dr_new(NULL, sets);
    memset(&g_rec, 0, sizeof g_rec);
    dr_push(g, A(0, 1), MW_REQ_READ, 0);
    struct mw_req *r2 = dr_push(g, A(0, 2), MW_REQ_READ, 0);
    dr_push(g, A(0, 3), MW_REQ_READ, 0);
    dr_run(g, 0, 10);
    mw_dram_mib_update(g->d, r2, 3, 50, 10);
    dr_run(g, 10, 400);
    /* picks: the first at cycle 2 over three; the dummy at 10 re-asks nothing (row 1 is committed); then the
     * pick over rows 2 and 3 */
    int k = -1;
    for (int i = 0; i < g_rec.n; i++)
        if (g_rec.ncand[i] == 2) k = i;
    assert_true(k > 0);
    uint64_t t = g_rec.now[k];
    assert_true(t > 10);
    assert_int_equal(g_rec.row[k][0], 2);
    assert_int_equal(g_rec.merge[k][0], 3);
    assert_int_equal(g_rec.age[k][0], 60 + 3 * (t - 10));
    assert_int_equal(g_rec.merge[k][1], 1);
    assert_int_equal(g_rec.age[k][1], t);
    dr_free(g);
}

/* An early dummy (before its read reaches the controller) fills the entry in: merge 4, age 30 at cycle 5; the
 * read arrives at cycle 20 with its own age 100 core cycles (x 924 / 700 = 132 DRAM cycles): the entry holds
 * 132 + 30 + (4 - 1) x (20 - 5) = 207 at 20 and gains 4 per cycle. A dummy after the read was served is dropped. */
static void test_dmib_early_and_dropped(void **state)
{
    (void)state;
    static const char *const sets[] = {"l2.merge_info=mib", NULL};
    struct dr *g = dr_new(NULL, sets);
    memset(&g_rec, 0, sizeof g_rec);
    struct mw_req *early = mw_req_alloc(&g->pool);
    early->dram_addr = early->addr = A(0, 2);
    early->kind = MW_REQ_READ;
    early->size = 128;
    early->age_sum = 100;
    mw_dram_mib_update(g->d, early, 4, 30, 5);
    dr_push(g, A(0, 1), MW_REQ_READ, 0);
    dr_run(g, 0, 20);
    mw_dram_push(g->d, early, 20);
    dr_push(g, A(0, 3), MW_REQ_READ, 20);
    dr_run(g, 20, 400);
    int k = -1;
    for (int i = 0; i < g_rec.n; i++)
        if (g_rec.ncand[i] == 2) k = i;
    assert_true(k >= 0);
    uint64_t t = g_rec.now[k];
    assert_int_equal(g_rec.row[k][0], 2);
    assert_int_equal(g_rec.merge[k][0], 4);
    assert_int_equal(g_rec.age[k][0], 207 + 4 * (t - 20));
    /* every read is done now: a dummy for one of them is dropped */
    struct mw_req late = {.kind = MW_REQ_READ, .mib_state = MW_MIB_DONE};
    mw_dram_mib_update(g->d, &late, 2, 9, 500);
    assert_int_equal(mw_dram_get_stats(g->d)->mib_dropped, 1);
    assert_int_equal(mw_dram_get_stats(g->d)->mib_dummies, 2);
    dr_free(g);
}

/* A DMIB entry of merge length 16 reaches the 15-bit cap (32767) after 2048 cycles (Li §4.5: 2^15 / 16): the
 * controller's age is exact (32768 at 2048 cycles), MSHR-S+A's score saturates it, so a request with age 32767
 * and an older one beyond the cap tie and the oldest wins. The age counter of the controller is checked above;
 * here the arithmetic of the cap: 16 x 2047 = 32752 < 32767 <= 16 x 2048. */
static void test_dmib_ages_saturation(void **state)
{
    (void)state;
    struct pol p;
    pol_init(&p, "mshr_sa", NULL);
    struct mw_dram_cand c[2] = {cand(1, 1, 16, 16ull * 2048), cand(2, 2, 16, 16ull * 2047)};
    /* older at 32768 -> 32767, younger at 32752: the older wins on score */
    assert_int_equal(pol_pick(&p, c, 2), 0);
    c[1].age = 16ull * 4096; /* far past the cap: both 32767, a tie, the oldest */
    assert_int_equal(pol_pick(&p, c, 2), 0);
    c[0].age = 16ull * 2047; /* the older one below the cap now loses */
    assert_int_equal(pol_pick(&p, c, 2), 1);
    mw_policy_inst_fini(&p.pi);
}

/* Count the commands of kind cmd issued to bank b before cycle t. */
static int count_before(const struct dr *g, int cmd, int bank, uint64_t t)
{
    int n = 0;
    for (int i = 0; i < g->ncmd[cmd]; i++)
        if (g->cmd_bank[cmd][i] == bank && g->cmds[cmd][i] < t) n++;
    return n;
}

/* Watermark 96: 20 reads to bank 0 (rows 0..19: a row conflict each, about tRC = 40 cycles apiece) keep the read
 * queue busy; 95 writes to bank 1 wait (no WR by cycle 300). The 96th write starts a drain; bank 0 may finish the
 * read it had started but chooses no new one, and bank 1 writes until the write queue is down to 80, i.e. 16
 * writes; the next ACT on bank 0 (a new read) comes after exactly 16 WRs. */
static void test_watermark_high(void **state)
{
    (void)state;
    struct dr *g = dr_new("frfcfs", NULL);
    for (unsigned i = 0; i < 20; i++) dr_push(g, A(0, i), MW_REQ_READ, 0);
    for (unsigned i = 0; i < 95; i++) dr_push(g, A(1, i), MW_REQ_WRITE, 0);
    dr_run(g, 0, 300);
    assert_int_equal(g->ncmd[MW_DCMD_WR], 0);
    dr_push(g, A(1, 95), MW_REQ_WRITE, 300);
    dr_run(g, 300, 2000);
    assert_true(g->ncmd[MW_DCMD_WR] >= 16);
    uint64_t first_wr = g->cmds[MW_DCMD_WR][0], act = 0;
    for (int i = 0; i < g->ncmd[MW_DCMD_ACT]; i++)
        if (g->cmd_bank[MW_DCMD_ACT][i] == 0 && g->cmds[MW_DCMD_ACT][i] > first_wr) {
            act = g->cmds[MW_DCMD_ACT][i];
            break;
        }
    assert_true(act > 0);
    assert_int_equal(count_before(g, MW_DCMD_WR, 1, act), 16);
    dr_free(g);
}

/* Empty read queue: 90 writes to bank 1 and no read. With drain_on_empty (li.yaml) the empty read queue starts a
 * drain (90 > 80) that runs to 80 even after a read arrives (pushed at the first WR): 10 WRs come before the
 * read's ACT on bank 0. Without it, writes are served only while no read waits: the read's ACT comes after at
 * most the write in service (1 WR; 2 if its column command issues first). */
static void test_watermark_empty_reads(void **state)
{
    (void)state;
    for (int on = 0; on < 2; on++) {
        static const char *const off_sets[] = {"dram.drain_on_empty=false", NULL};
        struct dr *g = dr_new("frfcfs", on ? NULL : off_sets);
        for (unsigned i = 0; i < 90; i++) dr_push(g, A(1, i), MW_REQ_WRITE, 0);
        uint64_t t = 0;
        while (g->ncmd[MW_DCMD_WR] == 0) dr_run(g, t, t + 1), t++;
        dr_push(g, A(0, 0), MW_REQ_READ, t);
        dr_run(g, t, t + 2000);
        uint64_t act = 0;
        for (int i = 0; i < g->ncmd[MW_DCMD_ACT] && !act; i++)
            if (g->cmd_bank[MW_DCMD_ACT][i] == 0) act = g->cmds[MW_DCMD_ACT][i];
        assert_true(act > 0);
        int wr = count_before(g, MW_DCMD_WR, 1, act);
        if (on) assert_int_equal(wr, 10);
        else assert_true(wr <= 2);
        dr_free(g);
    }
}

/* ---- perfect DRAM on a run ------------------------------------------------------------------------------- */

static void run_stats_wl(const char *wl, const char *const *sets, int nsets, struct mw_stat_list *l)
{
    struct mw_config c;
    struct mw_err e;
    mw_config_defaults(&c);
    if (mw_config_load_file(&c, LI_YAML, &e)) fail_msg("%s", e.msg);
    for (int i = 0; i < nsets; i++)
        if (mw_config_set(&c, sets[i], &e)) fail_msg("%s", e.msg);
    struct mw_workload w;
    if (mw_workload_open_builtin(&w, wl, "small", 1, &e)) fail_msg("%s", e.msg);
    struct mw_sim *s = sr_sim(&c, &w);
    sr_run(s, 0, "run");
    sr_stats(s, l);
    mw_sim_destroy(s);
}

static void run_stats(const char *const *sets, int nsets, struct mw_stat_list *l)
{
    run_stats_wl("polybench.atax", sets, nsets, l);
}

/* The merge information buffers and perfect DRAM keep the engine's contract: the same stats with the clock jumps
 * (sim.fast_forward) on and off; and the dummies flow (sent = received, some arrive after their read). */
static void test_mib_fast_forward(void **state)
{
    (void)state;
    static const char *const on[] = {"l2.merge_info=mib", "policies.dram_scheduler=mshr_sa"};
    static const char *const off[] = {"l2.merge_info=mib", "policies.dram_scheduler=mshr_sa", "sim.fast_forward=false"};
    struct mw_stat_list a, b;
    run_stats_wl("rodinia.cfd", on, 2, &a);
    run_stats_wl("rodinia.cfd", off, 3, &b);
    sr_same_stats(&a, &b, "mib fast_forward");
    assert_true(sr_stat(&a, "dram.mib_dummies") > 0);
    assert_true(sr_stat(&a, "dram.mib_dummies") == sr_stat(&a, "l2.mib_dummies"));
    mw_stat_list_fini(&a);
    mw_stat_list_fini(&b);
    static const char *const pon[] = {"dram.perfect=true"};
    static const char *const poff[] = {"dram.perfect=true", "sim.fast_forward=false"};
    run_stats_wl("rodinia.cfd", pon, 1, &a);
    run_stats_wl("rodinia.cfd", poff, 2, &b);
    sr_same_stats(&a, &b, "perfect fast_forward");
    mw_stat_list_fini(&a);
    mw_stat_list_fini(&b);
}

/* Perfect DRAM (Li §5.2): every read is done the cycle it reaches the controller: no ACT, no latency, every read
 * done; the run is faster than with the GDDR5 timing. The ICL cycle classes cover every L2 cycle of every slice. */
static void test_perfect_dram(void **state)
{
    (void)state;
    struct mw_stat_list base, perf;
    static const char *const p[] = {"dram.perfect=true"};
    run_stats(NULL, 0, &base);
    run_stats(p, 1, &perf);
    assert_true(sr_stat(&perf, "dram.reads") > 0);
    assert_true(sr_stat(&perf, "dram.reads_done") == sr_stat(&perf, "dram.reads"));
    assert_true(sr_stat(&perf, "dram.activates") == 0);
    assert_true(sr_stat(&perf, "dram.read_latency_sum") == 0);
    assert_true(sr_stat(&base, "dram.read_latency_sum") > 0);
    assert_true(sr_stat(&perf, "gpu.cycles") < sr_stat(&base, "gpu.cycles"));
    assert_true(sr_stat(&perf, "gpu.warp_insts") == sr_stat(&base, "gpu.warp_insts"));
    double slices = 12, l2c = sr_stat(&base, "clock.l2_cycles");
    double cls = sr_stat(&base, "l2.mshr_idle_cycles") + sr_stat(&base, "l2.mshr_noicl_cycles") +
                 sr_stat(&base, "l2.mshr_icl_cycles");
    assert_true(cls == slices * l2c);
    assert_true(sr_stat(&base, "l2.reservation_fail") ==
                sr_stat(&base, "l2.resfail_line_reserved") + sr_stat(&base, "l2.resfail_miss_queue") +
                    sr_stat(&base, "l2.resfail_mshr_full"));
    mw_stat_list_fini(&base);
    mw_stat_list_fini(&perf);
}

/* ---- §4.5 hardware overhead from the structure sizes ---------------------------------------------------------- */

static int log2i(int64_t v)
{
    int b = 0;
    while ((1ll << b) < v) b++;
    return b;
}

static int64_t param_default(const char *policy, const char *name)
{
    const struct mw_policy *p = mw_policy_find(MW_PT_DRAM_SCHED, policy);
    for (int i = 0; i < p->nparams; i++)
        if (strcmp(p->params[i].name, name) == 0) return atoll(p->params[i].def);
    fail_msg("no parameter %s", name);
    return 0;
}

/* L2 MIB: one entry per L2 MSHR entry (64) of valid 1 + merge log2(16) = 4 + age 15 bits = 20 bits: 160 B.
 * DRAM MIB: one per read-queue slot (64) of block address 24 (Li's figure; the text's 32-bit address and 128 B
 * line) + merge 4 + age 15 = 43 bits: 344 B. Row-score table: 64 entries of bank log2(16) = 4 + row 12 (the
 * address map's R bits) + score 19 = 35 bits: 280 B. Adders: 128 (64 MIB + 64 row score) of 15 bits at 34
 * transistors per full-adder bit, as 6-transistor SRAM bits: 128 x 15 x 34 / 6 / 8 = 1360 B. DRAM total 1984 B. */
static void test_hw_overhead(void **state)
{
    (void)state;
    struct mw_config c;
    struct mw_err e;
    mw_config_defaults(&c);
    assert_int_equal(mw_config_load_file(&c, LI_YAML, &e), 0);
    int age = (int)param_default("mshr_sa", "age_bits"), row_score = (int)param_default("mshr_sa", "row_bits");
    int merge = log2i(c.l2.mshr_max_merge), rows = 0;
    for (const char *q = c.dram.address_map; *q; q++) rows += *q == 'R';
    int addr = 24;
    int64_t l2_mib = c.l2.mshr_entries * (1 + merge + age) / 8;
    int64_t dmib = c.dram.read_queue * (addr + merge + age) / 8;
    int64_t rs = c.dram.read_queue * (log2i(c.dram.banks) + rows + row_score) / 8;
    int64_t adders = 2 * c.dram.read_queue * age * 34 / 6 / 8;
    assert_int_equal(l2_mib, 160);
    assert_int_equal(dmib, 344);
    assert_int_equal(rs, 280);
    assert_int_equal(adders, 1360);
    assert_int_equal(dmib + rs + adders, 1984);
    /* 160 B of a 64 KB slice: 0.24 %, the thesis's "0.2 %" */
    assert_true((double)l2_mib / (double)c.l2.slice_bytes < 0.0025);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_toy_example),
        cmocka_unit_test(test_max_vs_sum),
        cmocka_unit_test(test_row_hit_first),
        cmocka_unit_test(test_writes_frfcfs),
        cmocka_unit_test(test_sa_ages),
        cmocka_unit_test(test_dmib_ageing),
        cmocka_unit_test(test_dmib_early_and_dropped),
        cmocka_unit_test(test_dmib_ages_saturation),
        cmocka_unit_test(test_watermark_high),
        cmocka_unit_test(test_watermark_empty_reads),
        cmocka_unit_test(test_perfect_dram),
        cmocka_unit_test(test_mib_fast_forward),
        cmocka_unit_test(test_hw_overhead),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
