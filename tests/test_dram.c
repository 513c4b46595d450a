/* Tests of the DRAM channel (engine/dram.c) and its FCFS / FR-FCFS schedulers under the DRAMSim3-oracle GTX480
 * partition config: the timing table against the oracle's derived.txt, idle latencies, row hit / miss /
 * conflict costs, scheduler order, the split-queue write drain, the row-hit cap and idle-cycle jumping.
 * Every expected cycle is computed by hand from the timing table in the comment next to it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "config.h"
#include "dram.h"
#include "dram_trace.h"
#include "policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ORACLE_YAML "experiments/configs/dram/gtx480_partition_dramsim3.yaml"
#define ORACLE_BG4_YAML "experiments/configs/dram/gtx480_partition_dramsim3_bg4.yaml"
#define DERIVED "../shared/dram-oracle/gtx480_gddr5.derived.txt"

/* The oracle's address layout: [5:0] byte, [11:6] column, [15:12] bank, [27:16] row. */
static uint64_t A(unsigned bank, unsigned row, unsigned col)
{
    return ((uint64_t)row << 16) | (bank << 12) | (col << 6);
}

/* ---- a small rig: one controller, a script of requests, a command log ------------------------------------ */

struct cmd_rec {
    uint64_t cycle;
    int cmd, bank;
    uint32_t row;
    uint64_t idx; /* script index of the request */
};

struct step {
    uint64_t cycle; /* offered no earlier than this, one per cycle, in order */
    uint64_t addr;
    int kind;
    uint32_t size;
};

#define MAXREQ 4096
struct rig {
    struct mw_config c;
    struct mw_policy_inst pi;
    struct mw_dram *d;
    struct mw_req_pool pool;
    struct cmd_rec log[4 * MAXREQ];
    int nlog;
    uint64_t done[MAXREQ];  /* completion cycle per script index */
    uint64_t enq[MAXREQ];
    uint64_t order[MAXREQ]; /* script indices in completion order */
    int ndone;
    uint64_t end;           /* the cycle the last request completed */
};

static void on_cmd(void *ctx, uint64_t cycle, int cmd, int bank, uint32_t row, uint32_t col, const struct mw_req *r)
{
    (void)col;
    struct rig *g = ctx;
    if (g->nlog < (int)(sizeof g->log / sizeof g->log[0]))
        g->log[g->nlog++] = (struct cmd_rec){cycle, cmd, bank, row, r->pc};
}

/* Build a rig from a YAML file, a policy name and --set assignments (NULL-terminated). */
static struct rig *rig_new(const char *yaml, const char *policy, const char *const *sets)
{
    struct rig *g = calloc(1, sizeof *g);
    assert_non_null(g);
    struct mw_err e;
    mw_err_clear(&e);
    mw_config_defaults(&g->c);
    assert_int_equal(mw_config_load_file(&g->c, yaml, &e), 0);
    for (; sets && *sets; sets++) {
        int rc = mw_config_set(&g->c, *sets, &e);
        if (rc) fprintf(stderr, "%s\n", e.msg);
        assert_int_equal(rc, 0);
    }
    int rc = mw_config_validate(&g->c, &e);
    if (rc) fprintf(stderr, "%s\n", e.msg);
    assert_int_equal(rc, 0);
    const struct mw_policy *p = mw_policy_find(MW_PT_DRAM_SCHED, policy);
    assert_non_null(p);
    assert_int_equal(mw_policy_inst_init(&g->pi, p, NULL, NULL, NULL, 0, &e), 0);
    g->d = mw_dram_create(&g->c, 0, &g->pi, &e);
    if (!g->d) fprintf(stderr, "%s\n", e.msg);
    assert_non_null(g->d);
    mw_dram_set_cmd_log(g->d, on_cmd, g);
    mw_req_pool_init(&g->pool);
    return g;
}

static void rig_free(struct rig *g)
{
    mw_dram_destroy(g->d);
    mw_policy_inst_fini(&g->pi);
    mw_req_pool_fini(&g->pool);
    free(g);
}

/* Run the script to completion with the oracle's front end. jump: advance with mw_dram_next_event instead of
 * ticking every cycle. push_first: offer before the cycle's mw_dram_cycle (the simulation's order) instead of
 * after it (the trace driver's order). */
static void rig_run(struct rig *g, const struct step *s, int n, bool jump, bool push_first)
{
    int next = 0;
    uint64_t now = 0;
    for (int guard = 0; guard < 10000000; guard++) {
        bool blocked = false;
        for (int pass = 0; pass < 2; pass++) {
            if (pass == (push_first ? 0 : 1) && next < n && s[next].cycle <= now) {
                if (mw_dram_can_accept(g->d, s[next].kind)) {
                    struct mw_req *r = mw_req_alloc(&g->pool);
                    r->dram_addr = r->addr = s[next].addr;
                    r->kind = (uint8_t)s[next].kind;
                    r->size = s[next].size ? s[next].size : 64;
                    r->pc = (uint64_t)next;
                    mw_dram_push(g->d, r, now);
                    next++;
                } else {
                    blocked = true;
                }
            }
            if (pass == (push_first ? 1 : 0)) {
                mw_dram_cycle(g->d, now);
                struct mw_req *r;
                while ((r = mw_dram_pop_done(g->d))) {
                    g->done[r->pc] = r->t_ready;
                    g->enq[r->pc] = r->t_dram_enq;
                    g->order[g->ndone++] = r->pc;
                    if (r->t_ready > g->end) g->end = r->t_ready;
                    mw_req_free(&g->pool, r);
                }
            }
        }
        if (next == n && mw_dram_pending(g->d) == 0) return;
        uint64_t t = now + 1;
        if (jump) {
            /* the head can only be taken once the controller can accept it; that changes only in a cycle */
            t = mw_dram_next_event(g->d, now + 1);
            if (next < n && mw_dram_can_accept(g->d, s[next].kind))
                t = mw_min_u64(t, s[next].cycle > now + 1 ? s[next].cycle : now + 1);
            assert_true(t != MW_NEVER);
        }
        /* refused: this cycle's attempt, and every skipped cycle in which the head was due */
        if (blocked) mw_dram_note_refused(g->d, 1);
        if (next < n && !mw_dram_can_accept(g->d, s[next].kind) && s[next].cycle < t)
            mw_dram_note_refused(g->d, t - (s[next].cycle > now + 1 ? s[next].cycle : now + 1));
        now = t;
    }
    fail_msg("the DRAM model did not finish");
}

static uint64_t lat(const struct rig *g, int i) { return g->done[i] - g->enq[i]; }

/* The cycle of the k-th command of kind cmd (k from 0) for script request idx, or UINT64_MAX. */
static uint64_t cmd_at(const struct rig *g, int cmd, uint64_t idx, int k)
{
    for (int i = 0; i < g->nlog; i++)
        if (g->log[i].cmd == cmd && g->log[i].idx == idx && k-- == 0) return g->log[i].cycle;
    return UINT64_MAX;
}

/* ---- the timing table ----------------------------------------------------------------------------------- */

static int cmd_index(const char *s)
{
    for (int i = 0; i < MW_DCMD_COUNT; i++)
        if (strcmp(s, mw_dram_cmd_names[i]) == 0) return i;
    return -1;
}

/* Every ACT/PRE/RD/WR entry of the oracle's derived matrix, and nothing else: unlisted pairs are unconstrained. */
static void test_timing_table_equals_derived(void **state)
{
    (void)state;
    struct rig *g = rig_new(ORACLE_YAML, "frfcfs", NULL);
    FILE *f = fopen(DERIVED, "r");
    assert_non_null(f);
    int listed[MW_DCMD_COUNT][MW_DCMD_COUNT][MW_DSCOPE_COUNT];
    memset(listed, 0, sizeof listed);
    static const char *const scopes[MW_DSCOPE_COUNT] = {"same_bank", "other_banks_same_bankgroup",
                                                        "other_bankgroups_same_rank"};
    char line[256];
    int checked = 0;
    while (fgets(line, sizeof line, f)) {
        char scope[64], from[16], to[16];
        int v;
        if (sscanf(line, "timing,%63[^,],%15[^,],%15[^,],%d", scope, from, to, &v) != 4) continue;
        int sc = -1, a = cmd_index(from), b = cmd_index(to);
        for (int i = 0; i < MW_DSCOPE_COUNT; i++)
            if (strcmp(scope, scopes[i]) == 0) sc = i;
        if (sc < 0 || a < 0 || b < 0) continue; /* other ranks, refresh, auto-precharge: not modelled */
        if (mw_dram_timing(g->d, a, b, sc) != v)
            fail_msg("%s %s->%s: model %d, oracle %d", scope, from, to, mw_dram_timing(g->d, a, b, sc), v);
        listed[a][b][sc] = 1;
        checked++;
    }
    fclose(f);
    assert_int_equal(checked, 23); /* 11 same bank + 2 scopes x (4 column-to-column, ACT->ACT, PRE->PRE) */
    for (int a = 0; a < MW_DCMD_COUNT; a++)
        for (int b = 0; b < MW_DCMD_COUNT; b++)
            for (int sc = 0; sc < MW_DSCOPE_COUNT; sc++)
                if (!listed[a][b][sc]) assert_int_equal(mw_dram_timing(g->d, a, b, sc), 0);
    /* spot checks in the README's words: ACT->RD 12, ACT->WR 7, ACT->PRE 28, ACT->ACT 40 / 6, PRE->ACT 12,
     * RD->RD 2, RD->WR 12, RD->PRE 2, WR->RD 11, WR->WR 2, WR->PRE 18 */
    assert_int_equal(mw_dram_timing(g->d, MW_DCMD_ACT, MW_DCMD_RD, MW_DSCOPE_BANK), 12);
    assert_int_equal(mw_dram_timing(g->d, MW_DCMD_ACT, MW_DCMD_WR, MW_DSCOPE_BANK), 7);
    assert_int_equal(mw_dram_timing(g->d, MW_DCMD_ACT, MW_DCMD_PRE, MW_DSCOPE_BANK), 28);
    assert_int_equal(mw_dram_timing(g->d, MW_DCMD_ACT, MW_DCMD_ACT, MW_DSCOPE_BANK), 40);
    assert_int_equal(mw_dram_timing(g->d, MW_DCMD_ACT, MW_DCMD_ACT, MW_DSCOPE_GROUP), 6);
    assert_int_equal(mw_dram_timing(g->d, MW_DCMD_PRE, MW_DCMD_ACT, MW_DSCOPE_BANK), 12);
    assert_int_equal(mw_dram_timing(g->d, MW_DCMD_RD, MW_DCMD_RD, MW_DSCOPE_OTHER), 2);
    assert_int_equal(mw_dram_timing(g->d, MW_DCMD_RD, MW_DCMD_WR, MW_DSCOPE_OTHER), 12);
    assert_int_equal(mw_dram_timing(g->d, MW_DCMD_RD, MW_DCMD_PRE, MW_DSCOPE_BANK), 2);
    assert_int_equal(mw_dram_timing(g->d, MW_DCMD_WR, MW_DCMD_RD, MW_DSCOPE_GROUP), 11);
    assert_int_equal(mw_dram_timing(g->d, MW_DCMD_WR, MW_DCMD_WR, MW_DSCOPE_BANK), 2);
    assert_int_equal(mw_dram_timing(g->d, MW_DCMD_WR, MW_DCMD_PRE, MW_DSCOPE_BANK), 18);
    assert_int_equal(mw_dram_burst_cycles(g->d), 2);
    assert_int_equal(mw_dram_atom_bytes(g->d), 64);
    rig_free(g);
}

/* Bank groups on (DRAMSim3 timing.cc with tCCD_L 3): same-group column-to-column max(burst 2, 3) = 3, other
 * groups max(2, tCCD_S 2) = 2; a bank's group is its low two bank bits. */
static void test_timing_table_bank_groups(void **state)
{
    (void)state;
    struct rig *g = rig_new(ORACLE_BG4_YAML, "frfcfs", NULL);
    assert_int_equal(mw_dram_timing(g->d, MW_DCMD_RD, MW_DCMD_RD, MW_DSCOPE_BANK), 3);
    assert_int_equal(mw_dram_timing(g->d, MW_DCMD_RD, MW_DCMD_RD, MW_DSCOPE_GROUP), 3);
    assert_int_equal(mw_dram_timing(g->d, MW_DCMD_RD, MW_DCMD_RD, MW_DSCOPE_OTHER), 2);
    assert_int_equal(mw_dram_timing(g->d, MW_DCMD_WR, MW_DCMD_WR, MW_DSCOPE_GROUP), 3);
    assert_int_equal(mw_dram_timing(g->d, MW_DCMD_WR, MW_DCMD_WR, MW_DSCOPE_OTHER), 2);
    assert_int_equal(mw_dram_timing(g->d, MW_DCMD_WR, MW_DCMD_RD, MW_DSCOPE_OTHER), 11);
    assert_int_equal(mw_dram_timing(g->d, MW_DCMD_ACT, MW_DCMD_ACT, MW_DSCOPE_OTHER), 6);
    assert_int_equal(mw_dram_bank_group(g->d, 0), 0);
    assert_int_equal(mw_dram_bank_group(g->d, 5), 1);
    assert_int_equal(mw_dram_bank_group(g->d, 4), 0);
    rig_free(g);
}

static void test_address_decode(void **state)
{
    (void)state;
    struct rig *g = rig_new(ORACLE_YAML, "frfcfs", NULL);
    uint32_t b, r, c;
    mw_dram_decode(g->d, 0x45653c0, &b, &r, &c); /* a c_pingpong address: bank 5, row 0x456, column 15 */
    assert_int_equal(b, 5);
    assert_int_equal(r, 0x456);
    assert_int_equal(c, 15);
    mw_dram_decode(g->d, A(15, 4095, 63) | 0x3f, &b, &r, &c);
    assert_int_equal(b, 15);
    assert_int_equal(r, 4095);
    assert_int_equal(c, 63);
    rig_free(g);
    /* GPGPU-Sim's GTX480 layout, a split bank field: bank = bits 15..13 (high) and bit 8 (low) */
    static const char *const sets[] = {"dram.address_map=RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS", NULL};
    g = rig_new(ORACLE_YAML, "frfcfs", sets);
    mw_dram_decode(g->d, (3u << 13) | (1u << 8) | (1u << 6), &b, &r, &c);
    assert_int_equal(b, 7);
    assert_int_equal(c, 1);
    rig_free(g);
}

/* ---- latencies ------------------------------------------------------------------------------------------- */

/* Idle row miss: pushed at 0, in the queue at 1, decoded at 1, ACT at 2, RD at 2 + tRCD 12 = 14, data in
 * cycles 26-27 (CL 12, burst 2), done at 28: latency 28 - 1 = 27 = 1 + 12 + 12 + 2. Idle row hit (same row,
 * long after): RD one cycle after entry, done 1 + 12 + 2 = 15 after entry. */
static void test_idle_latencies(void **state)
{
    (void)state;
    struct rig *g = rig_new(ORACLE_YAML, "frfcfs", NULL);
    struct step s[] = {{0, A(3, 7, 0), MW_REQ_READ, 64}, {1000, A(3, 7, 1), MW_REQ_READ, 64}};
    rig_run(g, s, 2, false, false);
    assert_int_equal(lat(g, 0), 27);
    assert_int_equal(cmd_at(g, MW_DCMD_ACT, 0, 0), 2);
    assert_int_equal(cmd_at(g, MW_DCMD_RD, 0, 0), 14);
    assert_int_equal(g->done[0], 28);
    assert_int_equal(lat(g, 1), 15);
    const struct mw_dram_stats *st = mw_dram_get_stats(g->d);
    assert_int_equal(st->row_misses, 1);
    assert_int_equal(st->row_hits, 1);
    assert_int_equal(st->row_conflicts, 0);
    assert_int_equal(st->reads_done, 2);
    assert_int_equal(st->read_latency_sum, 42);
    assert_int_equal(st->read_latency_max, 27);
    rig_free(g);
}

/* Idle row conflict: another row is open and every constraint of its last use has expired; PRE one cycle after
 * entry, ACT tRP 12 later, RD tRCD 12 later, data CL 12 + burst 2: 1 + 12 + 12 + 12 + 2 = 39 = the miss (27)
 * + tRP, and the hit (15) + tRP + tRCD. */
static void test_conflict_costs_trp(void **state)
{
    (void)state;
    struct rig *g = rig_new(ORACLE_YAML, "frfcfs", NULL);
    int tRP = mw_dram_timing(g->d, MW_DCMD_PRE, MW_DCMD_ACT, MW_DSCOPE_BANK);
    int tRCD = mw_dram_timing(g->d, MW_DCMD_ACT, MW_DCMD_RD, MW_DSCOPE_BANK);
    struct step s[] = {{0, A(3, 7, 0), MW_REQ_READ, 64},    /* opens row 7: a miss */
                       {1000, A(3, 7, 1), MW_REQ_READ, 64}, /* a hit */
                       {2000, A(3, 9, 0), MW_REQ_READ, 64}}; /* a conflict */
    rig_run(g, s, 3, true, false);
    assert_int_equal(lat(g, 2), 39);
    assert_int_equal(lat(g, 2), lat(g, 0) + (uint64_t)tRP);
    assert_int_equal(lat(g, 2) - lat(g, 1), (uint64_t)(tRP + tRCD));
    assert_int_equal(cmd_at(g, MW_DCMD_PRE, 2, 0), 2002);
    const struct mw_dram_stats *st = mw_dram_get_stats(g->d);
    assert_int_equal(st->row_misses, 1);
    assert_int_equal(st->row_hits, 1);
    assert_int_equal(st->row_conflicts, 1);
    assert_int_equal(st->activates, 2);
    assert_int_equal(st->precharges, 1);
    rig_free(g);
}

/* Idle write: ACT at 2, WR at 2 + tRCDWR 7 = 9, data CWL 4 + burst 2: done at 15 (the oracle's first e_mix70_30
 * write: wr_cmd_cycle 9, done_cycle 15). */
static void test_idle_write(void **state)
{
    (void)state;
    struct rig *g = rig_new(ORACLE_YAML, "frfcfs", NULL);
    struct step s[] = {{0, 0x91db00, MW_REQ_WRITE, 64}};
    rig_run(g, s, 1, false, false);
    assert_int_equal(cmd_at(g, MW_DCMD_WR, 0, 0), 9);
    assert_int_equal(g->done[0], 15);
    assert_int_equal(mw_dram_get_stats(g->d)->reads_done, 0);
    rig_free(g);
}

/* A 128 B request is two 64 B atoms: two RDs tCCD 2 apart, done 2 cycles after a 64 B one; the second column
 * command counts as a row hit. */
static void test_two_atom_request(void **state)
{
    (void)state;
    struct rig *g = rig_new(ORACLE_YAML, "frfcfs", NULL);
    struct step s[] = {{0, A(1, 1, 0), MW_REQ_READ, 128}};
    rig_run(g, s, 1, false, false);
    assert_int_equal(cmd_at(g, MW_DCMD_RD, 0, 0), 14);
    assert_int_equal(cmd_at(g, MW_DCMD_RD, 0, 1), 16);
    assert_int_equal(lat(g, 0), 29);
    assert_int_equal(mw_dram_get_stats(g->d)->row_misses, 1);
    assert_int_equal(mw_dram_get_stats(g->d)->row_hits, 1);
    assert_int_equal(mw_dram_get_stats(g->d)->data_bus_busy, 4);
    rig_free(g);
}

/* ---- scheduling order ------------------------------------------------------------------------------------ */

/* Bank 0: X0 opens row A (ACT 2, RD 14). X1 (row B, older) and X2 (row A, younger) wait behind it.
 * FR-FCFS at 15 picks the hit X2: RD 16, done 30; X1 then PREs at ACT + tRAS = 30, ACT 42, RD 54, done 68.
 * FCFS picks X1: PRE 30, ACT 42, RD 54, done 68; X2 must reopen row A: PRE at max(ACT 42 + tRAS 28,
 * RD 54 + RD->PRE 2) = 70, ACT 82, RD 94, done 108. */
static void test_frfcfs_vs_fcfs(void **state)
{
    (void)state;
    struct step s[] = {{0, A(0, 0xA, 0), MW_REQ_READ, 64}, {1, A(0, 0xB, 0), MW_REQ_READ, 64},
                       {2, A(0, 0xA, 1), MW_REQ_READ, 64}};
    struct rig *g = rig_new(ORACLE_YAML, "frfcfs", NULL);
    rig_run(g, s, 3, false, false);
    assert_int_equal(g->order[1], 2); /* the younger hit before the older miss */
    assert_int_equal(cmd_at(g, MW_DCMD_RD, 2, 0), 16);
    assert_int_equal(g->done[2], 30);
    assert_int_equal(cmd_at(g, MW_DCMD_PRE, 1, 0), 30);
    assert_int_equal(g->done[1], 68);
    rig_free(g);

    g = rig_new(ORACLE_YAML, "fcfs", NULL);
    rig_run(g, s, 3, false, false);
    assert_int_equal(g->order[1], 1); /* strictly in order */
    assert_int_equal(g->done[1], 68);
    assert_int_equal(cmd_at(g, MW_DCMD_PRE, 2, 0), 70);
    assert_int_equal(cmd_at(g, MW_DCMD_ACT, 2, 0), 82);
    assert_int_equal(g->done[2], 108);
    rig_free(g);
}

/* The policies alone: FR-FCFS takes the oldest hit, else the oldest; FCFS the oldest; ties by id. */
static void test_policy_pick(void **state)
{
    (void)state;
    struct mw_dram_cand c[4] = {
        {.arrival = 10, .id = 3, .row = 1, .row_hit = 0},
        {.arrival = 12, .id = 5, .row = 2, .row_hit = 1},
        {.arrival = 11, .id = 4, .row = 2, .row_hit = 1},
        {.arrival = 10, .id = 2, .row = 3, .row_hit = 0},
    };
    const struct mw_policy *pfr = mw_policy_find(MW_PT_DRAM_SCHED, "frfcfs");
    const struct mw_policy *pfc = mw_policy_find(MW_PT_DRAM_SCHED, "fcfs");
    assert_non_null(pfr);
    assert_non_null(pfc);
    assert_string_equal(pfr->name, "frfcfs");
    assert_string_equal(pfc->name, "fcfs");
    assert_int_equal(pfr->point, MW_PT_DRAM_SCHED);
    assert_int_equal(pfc->point, MW_PT_DRAM_SCHED);
    const struct mw_dram_sched_ops *frfcfs = (const struct mw_dram_sched_ops *)pfr;
    const struct mw_dram_sched_ops *fcfs = (const struct mw_dram_sched_ops *)pfc;
    struct mw_dram_sched_ctx ctx = {.open_row = 2};
    assert_int_equal(frfcfs->pick(NULL, &ctx, c, 4), 2);
    assert_int_equal(fcfs->pick(NULL, &ctx, c, 4), 3);
    c[1].row_hit = c[2].row_hit = 0;
    assert_int_equal(frfcfs->pick(NULL, &ctx, c, 4), 3);
    assert_int_equal(frfcfs->pick(NULL, &ctx, c, 1), 0);
}

/* Row-hit cap. Bank 0: A0 (row A) at 0, B0 (row B) at 1, A1..A11 (row A) at 2..12, no input FIFO.
 * ACT(A) 2, RDs every tCCD 2 from 14. With max_row_hits 4 the cap is reached after A3 (RD 20), but B0's PRE is
 * not allowed before ACT + tRAS = 30, so hits go on: A4..A7 at 22..28; at 30 the PRE (B0) wins: ACT 42, RD 54,
 * done 68; then A8 reopens row A: PRE at ACT(B) 42 + tRAS = 70, ACT 82, RD 94, done 108.
 * With no cap every hit goes first: A0..A11 at 14..36, B0 PRE 38, ACT 50, RD 62, done 76. */
static void test_row_hit_cap(void **state)
{
    (void)state;
    struct step s[13];
    s[0] = (struct step){0, A(0, 0xA, 0), MW_REQ_READ, 64};
    s[1] = (struct step){1, A(0, 0xB, 0), MW_REQ_READ, 64};
    for (int i = 1; i <= 11; i++) s[i + 1] = (struct step){(uint64_t)i + 1, A(0, 0xA, (unsigned)i), MW_REQ_READ, 64};
    static const char *const cap4[] = {"dram.input_queue=0", "dram.max_row_hits=4", NULL};
    struct rig *g = rig_new(ORACLE_YAML, "frfcfs", cap4);
    rig_run(g, s, 13, false, false);
    for (int i = 0; i <= 7; i++) assert_int_equal(cmd_at(g, MW_DCMD_RD, i == 0 ? 0 : (uint64_t)i + 1, 0), 14 + 2 * i);
    assert_int_equal(cmd_at(g, MW_DCMD_PRE, 1, 0), 30);
    assert_int_equal(g->done[1], 68);
    assert_int_equal(cmd_at(g, MW_DCMD_PRE, 9, 0), 70); /* A8 */
    assert_int_equal(g->done[9], 108);
    assert_int_equal(mw_dram_get_stats(g->d)->row_hits, 7 + 3);
    rig_free(g);

    static const char *const nocap[] = {"dram.input_queue=0", "dram.max_row_hits=0", NULL};
    g = rig_new(ORACLE_YAML, "frfcfs", nocap);
    rig_run(g, s, 13, false, false);
    assert_int_equal(cmd_at(g, MW_DCMD_RD, 12, 0), 36); /* A11 */
    assert_int_equal(cmd_at(g, MW_DCMD_PRE, 1, 0), 38);
    assert_int_equal(g->done[1], 76);
    assert_int_equal(mw_dram_get_stats(g->d)->row_hits, 11);
    rig_free(g);
}

/* Split queues, write_high 4, write_low 2. Reads R0..R7 to bank 0 row A at 0..7, writes W0..W3 to bank 1 at
 * 8..11. The 4th write (queued from 12) starts a drain: R0 (its ACT already issued) completes, then W0 and W1
 * are written, which brings the write queue down to 2 and ends the drain; R1..R7 follow, and W2, W3 go last,
 * when no read is queued. */
static void test_split_write_drain(void **state)
{
    (void)state;
    static const char *const split[] = {"dram.queue_mode=split", "dram.input_queue=0", "dram.read_queue=8",
                                        "dram.write_queue=8",    "dram.write_high=4",  "dram.write_low=2",
                                        NULL};
    struct step s[12];
    for (int i = 0; i < 8; i++) s[i] = (struct step){(uint64_t)i, A(0, 0xA, (unsigned)i), MW_REQ_READ, 64};
    for (int i = 0; i < 4; i++) s[8 + i] = (struct step){8 + (uint64_t)i, A(1, 0xC, (unsigned)i), MW_REQ_WRITE, 64};
    struct rig *g = rig_new(ORACLE_YAML, "frfcfs", split);
    rig_run(g, s, 12, false, false);
    int col_order[12], n = 0;
    for (int i = 0; i < g->nlog; i++)
        if (g->log[i].cmd == MW_DCMD_RD || g->log[i].cmd == MW_DCMD_WR) col_order[n++] = (int)g->log[i].idx;
    assert_int_equal(n, 12);
    static const int expect[12] = {0, 8, 9, 1, 2, 3, 4, 5, 6, 7, 10, 11};
    for (int i = 0; i < 12; i++) assert_int_equal(col_order[i], expect[i]);
    /* R0 RD at 14; W0 WR at RD + RD->WR 12 = 26, W1 28; R1 at W1 + WR->RD 11 = 39 */
    assert_int_equal(cmd_at(g, MW_DCMD_RD, 0, 0), 14);
    assert_int_equal(cmd_at(g, MW_DCMD_WR, 8, 0), 26);
    assert_int_equal(cmd_at(g, MW_DCMD_WR, 9, 0), 28);
    assert_int_equal(cmd_at(g, MW_DCMD_RD, 1, 0), 39);
    rig_free(g);

    /* with fewer writes than write_high and reads queued, the writes wait for the reads */
    g = rig_new(ORACLE_YAML, "frfcfs", split);
    rig_run(g, s, 11, false, false);
    n = 0;
    for (int i = 0; i < g->nlog; i++)
        if (g->log[i].cmd == MW_DCMD_RD || g->log[i].cmd == MW_DCMD_WR) col_order[n++] = (int)g->log[i].idx;
    for (int i = 0; i < 8; i++) assert_int_equal(col_order[i], i);
    rig_free(g);
}

/* Queue capacity and back-pressure: 16 in the FIFO + 16 in the scheduler queue (the oracle config). */
static void test_queue_capacity(void **state)
{
    (void)state;
    struct rig *g = rig_new(ORACLE_YAML, "frfcfs", NULL);
    struct mw_req *r[40];
    int pushed = 0;
    for (uint64_t now = 0; now < 40; now++) {
        if (mw_dram_can_accept(g->d, MW_REQ_READ)) {
            r[pushed] = mw_req_alloc(&g->pool);
            r[pushed]->dram_addr = A(0, (unsigned)pushed, 0); /* all conflicts in one bank: slow */
            r[pushed]->size = 64;
            r[pushed]->pc = (uint64_t)pushed;
            mw_dram_push(g->d, r[pushed], now);
            pushed++;
        }
        mw_dram_cycle(g->d, now);
    }
    /* 16 in the FIFO + 16 in the scheduler queue, plus the slot freed by the first RD (14); the second request
     * cannot issue its column command before 54 (PRE at ACT + tRAS = 30, ACT 42, RD 54) */
    assert_int_equal(mw_dram_pending(g->d), pushed);
    assert_int_equal(pushed, 33);
    assert_int_equal(mw_dram_queue_len(g->d), 32);
    assert_false(mw_dram_can_accept(g->d, MW_REQ_READ));
    rig_free(g);
}

/* A policy returning a bad index is reported and the oldest candidate is served instead. */
static int bad_pick(struct mw_policy_inst *pi, const struct mw_dram_sched_ctx *c, const struct mw_dram_cand *cands,
                    int n)
{
    (void)pi, (void)c, (void)cands;
    return n + 3;
}
static const struct mw_dram_sched_ops bad_ops = {.base = {.point = MW_PT_DRAM_SCHED, .name = "bad"},
                                                 .pick = bad_pick};
static void test_bad_pick_reported(void **state)
{
    (void)state;
    struct rig *g = rig_new(ORACLE_YAML, "frfcfs", NULL);
    g->pi.pol = &bad_ops.base;
    struct step s[] = {{0, A(0, 1, 0), MW_REQ_READ, 64}, {1, A(0, 2, 0), MW_REQ_READ, 64},
                       {2, A(0, 3, 0), MW_REQ_READ, 64}};
    rig_run(g, s, 3, false, false);
    assert_non_null(mw_dram_error(g->d));
    assert_non_null(strstr(mw_dram_error(g->d), "dram scheduler 'bad' returned candidate"));
    assert_int_equal(g->order[0], 0);
    g->pi.pol = mw_policy_find(MW_PT_DRAM_SCHED, "frfcfs");
    rig_free(g);
}

/* ---- jumping over idle cycles ----------------------------------------------------------------------------- */

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

/* A random mix (bursts and gaps, reads and writes, 64 and 128 B, few rows so hits and conflicts both occur):
 * ticking every cycle and jumping with next_event give the same stats and the same completion cycles, in both
 * offer orders and in unified and split mode. */
static void check_jump_equivalence(const char *const *sets, const char *policy)
{
    enum { N = 3000 };
    static struct step s[N];
    uint64_t seed = 12345, t = 0;
    for (int i = 0; i < N; i++) {
        uint64_t x = lcg(&seed);
        if (x % 7 == 0) t += 50 + x % 300; /* a gap */
        else if (x % 3 == 0) t += 1;
        s[i].cycle = t;
        s[i].addr = A((unsigned)(lcg(&seed) % 16), (unsigned)(lcg(&seed) % 4), (unsigned)(lcg(&seed) % 64));
        s[i].kind = lcg(&seed) % 10 < 3 ? MW_REQ_WRITE : MW_REQ_READ;
        s[i].size = lcg(&seed) % 4 == 0 ? 128 : 64;
    }
    for (int push_first = 0; push_first < 2; push_first++) {
        struct rig *a = rig_new(ORACLE_YAML, policy, sets), *b = rig_new(ORACLE_YAML, policy, sets);
        rig_run(a, s, N, false, push_first);
        rig_run(b, s, N, true, push_first);
        if (memcmp(mw_dram_get_stats(a->d), mw_dram_get_stats(b->d), sizeof(struct mw_dram_stats)))
            for (int k = 0; k < mw_dram_stat_count; k++)
                fprintf(stderr, "%s push_first=%d %s: tick %llu jump %llu\n", policy, push_first,
                        mw_dram_stat_descs[k].name, (unsigned long long)((const uint64_t *)mw_dram_get_stats(a->d))[k],
                        (unsigned long long)((const uint64_t *)mw_dram_get_stats(b->d))[k]);
        assert_memory_equal(mw_dram_get_stats(a->d), mw_dram_get_stats(b->d), sizeof(struct mw_dram_stats));
        assert_memory_equal(a->done, b->done, sizeof a->done);
        assert_int_equal(a->nlog, b->nlog);
        assert_memory_equal(a->log, b->log, sizeof a->log[0] * (size_t)a->nlog);
        assert_true(mw_dram_get_stats(a->d)->row_hits > 0);
        assert_true(mw_dram_get_stats(a->d)->row_conflicts > 0);
        rig_free(a);
        rig_free(b);
    }
}

static void test_jump_equals_tick(void **state)
{
    (void)state;
    check_jump_equivalence(NULL, "frfcfs");
    check_jump_equivalence(NULL, "fcfs");
    static const char *const direct[] = {"dram.input_queue=0", "dram.max_row_hits=0", NULL};
    check_jump_equivalence(direct, "frfcfs");
    static const char *const split[] = {"dram.queue_mode=split", "dram.read_queue=12", "dram.write_queue=10",
                                        "dram.write_high=8",     "dram.write_low=3",   "dram.input_queue=4",
                                        NULL};
    check_jump_equivalence(split, "frfcfs");
    static const char *const bg[] = {"dram.bank_groups=4", "dram.tCCDL=3", NULL};
    check_jump_equivalence(bg, "frfcfs");
}

/* ---- the trace driver ------------------------------------------------------------------------------------- */

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_trace_errors(void **state)
{
    (void)state;
    char dir[64], path[128];
    snprintf(dir, sizeof dir, "/tmp/mw_test_dram.XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/t.trace", dir);
    struct mw_config c;
    struct mw_err e;
    mw_err_clear(&e);
    mw_config_defaults(&c);
    assert_int_equal(mw_config_load_file(&c, ORACLE_YAML, &e), 0);
    struct mw_dram_trace_result res;
    char buf[1600], want[300];
    static const struct {
        const char *text, *msg;
        int line, col;
    } bad[] = {
        {"0x00000040 READ 0\n0x80 READ\n", "expected a decimal cycle, got ''", 2, 10},
        {"0x40 READ 0\nzz READ 1\n", "expected a hexadecimal address (0x...), got 'zz'", 2, 1},
        {"# comment\n\n0x40 LOAD 3\n", "expected READ or WRITE, got 'LOAD'", 3, 6},
        {"0x40 WRITE 3 extra\n", "expected the end of the line, got 'extra'", 1, 14},
        {"0x40 WRITE -3\n", "expected a decimal cycle, got '-3'", 1, 12},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_text(path, bad[i].text);
        assert_int_equal(mw_dram_trace_run(&c, NULL, path, NULL, &res, &e), MW_EINVAL);
        snprintf(want, sizeof want, "%s:%d:%d: %s", path, bad[i].line, bad[i].col, bad[i].msg);
        assert_string_equal(mw_err_str(&e, buf, sizeof buf), want);
    }
    /* a good trace: two idle reads (27 and 15) and a write; cycles = last completion + 1 */
    write_text(path, "0x00010000 READ 0\n0x00010040 READ 100\n  0x00021000   WRITE 200  # a comment\n");
    assert_int_equal(mw_dram_trace_run(&c, NULL, path, NULL, &res, &e), 0);
    assert_string_equal(res.name, "t");
    assert_int_equal(res.requests, 3);
    assert_int_equal(res.reads, 2);
    assert_int_equal(res.writes, 1);
    assert_true(res.avg_read_latency == 21.0);
    /* the write goes to bank 1: ACT 202, WR 202 + tRCDWR 7 = 209, done 209 + CWL 4 + burst 2 = 215 */
    assert_int_equal(res.cycles, 216);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timing_table_equals_derived),
        cmocka_unit_test(test_timing_table_bank_groups),
        cmocka_unit_test(test_address_decode),
        cmocka_unit_test(test_idle_latencies),
        cmocka_unit_test(test_conflict_costs_trp),
        cmocka_unit_test(test_idle_write),
        cmocka_unit_test(test_two_atom_request),
        cmocka_unit_test(test_frfcfs_vs_fcfs),
        cmocka_unit_test(test_policy_pick),
        cmocka_unit_test(test_row_hit_cap),
        cmocka_unit_test(test_split_write_drain),
        cmocka_unit_test(test_queue_capacity),
        cmocka_unit_test(test_bad_pick_reported),
        cmocka_unit_test(test_jump_equals_tick),
        cmocka_unit_test(test_trace_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
