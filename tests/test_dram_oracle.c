/* Differential test of the DRAM channel against DRAMSim3 (commit 29817593) on the oracle's six request traces
 * (../shared/dram-oracle): both GTX480-partition configs against reference.csv / reference_bg4.csv, and the
 * main config request by request against results/<trace>/per_request.csv.xz. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "config.h"
#include "dram_trace.h"
#include "xzfile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ORACLE "../shared/dram-oracle"
#define MAIN_YAML "experiments/configs/dram/gtx480_partition_dramsim3.yaml"
#define BG4_YAML "experiments/configs/dram/gtx480_partition_dramsim3_bg4.yaml"

static const char *const traces[] = {"a_stream", "b_random", "c_pingpong", "d_stride_row", "e_mix70_30", "f_bursty"};
#define NTRACES 6

struct ref_row {
    char trace[64];
    unsigned long long requests, reads, writes, cycles;
    double lat, bw, hit;
};

static void load_ref(const char *csv, struct ref_row *rows)
{
    FILE *f = fopen(csv, "r");
    assert_non_null(f);
    char line[512];
    assert_non_null(fgets(line, sizeof line, f));
    assert_int_equal(strncmp(line, MW_DRAM_TRACE_CSV_HEADER, strlen(MW_DRAM_TRACE_CSV_HEADER)), 0);
    int n = 0;
    while (n < NTRACES && fgets(line, sizeof line, f)) {
        struct ref_row *r = &rows[n];
        assert_int_equal(sscanf(line, "%63[^,],%llu,%llu,%llu,%llu,%lf,%lf,%lf", r->trace, &r->requests, &r->reads,
                                &r->writes, &r->cycles, &r->lat, &r->bw, &r->hit),
                         8);
        assert_string_equal(r->trace, traces[n]);
        n++;
    }
    fclose(f);
    assert_int_equal(n, NTRACES);
}

static void load_config(struct mw_config *c, const char *yaml)
{
    struct mw_err e;
    mw_err_clear(&e);
    mw_config_defaults(c);
    assert_int_equal(mw_config_load_file(c, yaml, &e), 0);
    assert_int_equal(mw_config_validate(c, &e), 0);
}

/* The oracle README's bar: cycles and average read latency within 10 %, row-hit rate within 0.05, for every
 * trace. None of the six needs a wider tolerance: the model reproduces DRAMSim3's cycles and average read
 * latency exactly (printed below). The differences the README lists do not show on these traces:
 *  - the 4-hit cap: modelled (dram.max_row_hits 4, the PRE of an older request to another row may close the
 *    row once 4 column commands were served and its PRE is allowed; c_pingpong's 8 reads per ACT follow);
 *  - the unified queue: modelled as DRAMSim3 has it, a 16-entry transaction queue (dram.input_queue) in front
 *    of the 16-entry per-rank command queue the scheduler sees (dram.queue_size);
 *  - writes acknowledged when queued: only write latency would differ, and no metric here uses it;
 *  - reads to the same address merged: f_bursty has one such pair; DRAMSim3 serves it with one RD and counts
 *    19,999 column commands (9 hits), the model issues two RDs (10 hits of 20,000). Row-hit rate 0.00050 vs
 *    0.00045, the average read latency moves by 1e-4 cycles;
 *  - one command per cycle: modelled.
 * Bandwidth differs in the 4th decimal: tCK = 1 / 924 MHz = 1.08225 ns here, 1.0823 ns in the ini. */
static void check_config(const char *yaml, const char *refcsv, const char *label)
{
    static struct mw_config c;
    load_config(&c, yaml);
    struct ref_row ref[NTRACES];
    load_ref(refcsv, ref);
    printf("  %-4s %-13s %8s %8s  %9s %9s  %7s %7s  %8s %8s\n", label, "trace", "cycles", "oracle", "avg_lat",
           "oracle", "GB/s", "oracle", "row_hit", "oracle");
    for (int i = 0; i < NTRACES; i++) {
        char path[256];
        snprintf(path, sizeof path, ORACLE "/traces/%s.trace.xz", traces[i]);
        struct mw_dram_trace_result r;
        struct mw_err e;
        mw_err_clear(&e);
        int rc = mw_dram_trace_run(&c, NULL, path, NULL, &r, &e);
        if (rc) fail_msg("%s: %s", path, e.msg);
        printf("  %-4s %-13s %8llu %8llu  %9.4f %9.4f  %7.4f %7.4f  %8.5f %8.5f\n", label, r.name,
               (unsigned long long)r.cycles, ref[i].cycles, r.avg_read_latency, ref[i].lat, r.bandwidth_gbps,
               ref[i].bw, r.row_hit_rate, ref[i].hit);
        assert_string_equal(r.name, traces[i]);
        assert_int_equal(r.requests, ref[i].requests);
        assert_int_equal(r.reads, ref[i].reads);
        assert_int_equal(r.writes, ref[i].writes);
        double dc = fabs((double)r.cycles - (double)ref[i].cycles) / (double)ref[i].cycles;
        double dl = fabs(r.avg_read_latency - ref[i].lat) / ref[i].lat;
        double dh = fabs(r.row_hit_rate - ref[i].hit);
        double db = fabs(r.bandwidth_gbps - ref[i].bw) / ref[i].bw;
        if (dc > 0.10)
            fail_msg("%s %s: cycles %llu vs oracle %llu", label, r.name, (unsigned long long)r.cycles, ref[i].cycles);
        if (dl > 0.10)
            fail_msg("%s %s: avg read latency %.4f vs oracle %.4f", label, r.name, r.avg_read_latency, ref[i].lat);
        if (dh > 0.05) fail_msg("%s %s: row-hit rate %.5f vs oracle %.5f", label, r.name, r.row_hit_rate, ref[i].hit);
        if (db > 0.10) fail_msg("%s %s: bandwidth %.4f vs oracle %.4f", label, r.name, r.bandwidth_gbps, ref[i].bw);
    }
}

static void test_main_config(void **state)
{
    (void)state;
    check_config(MAIN_YAML, ORACLE "/reference.csv", "main");
}

static void test_bg4_config(void **state)
{
    (void)state;
    check_config(BG4_YAML, ORACLE "/reference_bg4.csv", "bg4");
}

/* ---- request by request ---------------------------------------------------------------------------------- */

struct req_times {
    uint64_t addr, enq, done;
};

/* Request by request (main config): every request's queue-entry and completion cycles equal DRAMSim3's, except
 * reads DRAMSim3 merged into an earlier pending read to the same address (it completes them together; the model
 * issues a second RD). This pins the scheduling rules (oldest ready command first, the 4-hit cap, one command
 * per cycle, the transaction -> command queue step) far tighter than the averages. */
static void test_per_request_main(void **state)
{
    (void)state;
    static struct mw_config c;
    load_config(&c, MAIN_YAML);
    enum { N = 20000 };
    struct req_times *mine = calloc(N, sizeof *mine), *ref = calloc(N, sizeof *ref);
    assert_non_null(mine);
    assert_non_null(ref);
    for (int t = 0; t < NTRACES; t++) {
        char path[256];
        snprintf(path, sizeof path, ORACLE "/traces/%s.trace.xz", traces[t]);
        FILE *tmp = tmpfile();
        assert_non_null(tmp);
        struct mw_dram_trace_opts o = {.per_request = tmp};
        struct mw_dram_trace_result r;
        struct mw_err e;
        mw_err_clear(&e);
        assert_int_equal(mw_dram_trace_run(&c, NULL, path, &o, &r, &e), 0);
        rewind(tmp);
        char line[512];
        assert_non_null(fgets(line, sizeof line, tmp)); /* header */
        int n = 0;
        while (fgets(line, sizeof line, tmp)) {
            unsigned long long idx, addr, bank, row, col, tc, off, enq, done, lat;
            char type;
            assert_int_equal(sscanf(line, "%llu,0x%llx,%c,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu", &idx, &addr, &type,
                                    &bank, &row, &col, &tc, &off, &enq, &done, &lat),
                             11);
            assert_true(idx < N);
            mine[idx] = (struct req_times){addr, enq, done};
            n++;
        }
        fclose(tmp);
        assert_int_equal(n, N);

        snprintf(path, sizeof path, ORACLE "/results/%s/per_request.csv.xz", traces[t]);
        struct mw_xzfile *f = mw_xz_open(path, &e);
        assert_non_null(f);
        char *ln;
        size_t len;
        assert_int_equal(mw_xz_getline(f, &ln, &len, &e), 1); /* header */
        int m = 0;
        while (mw_xz_getline(f, &ln, &len, &e) == 1) {
            unsigned long long idx, addr, ch, bank, row, col, tc, enq, cb, done, lat;
            long long wr;
            char type;
            assert_int_equal(sscanf(ln, "%llu,%llx,%c,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%lld,%llu,%llu", &idx, &addr,
                                    &type, &ch, &bank, &row, &col, &tc, &enq, &cb, &wr, &done, &lat),
                             13);
            assert_true(idx < N);
            ref[idx] = (struct req_times){addr, enq, done};
            m++;
        }
        mw_xz_close(f);
        assert_int_equal(m, N);

        int same = 0, merged = 0;
        for (int i = 0; i < N; i++) {
            assert_int_equal(mine[i].addr, ref[i].addr);
            assert_int_equal(mine[i].enq, ref[i].enq);
            if (mine[i].done == ref[i].done) {
                same++;
                continue;
            }
            /* explained only by a same-address read DRAMSim3 completed at the same cycle */
            bool explained = false;
            for (int j = i - 1; j >= 0 && j >= i - 64 && !explained; j--)
                explained = ref[j].addr == ref[i].addr && ref[j].done == ref[i].done;
            if (!explained)
                fail_msg("%s request %d: done %llu, DRAMSim3 %llu", traces[t], i, (unsigned long long)mine[i].done,
                         (unsigned long long)ref[i].done);
            merged++;
        }
        printf("  %-13s %5d of %d requests complete in the same cycle as in DRAMSim3, %d merged reads\n", traces[t],
               same, N, merged);
    }
    free(mine);
    free(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_main_config),
        cmocka_unit_test(test_bg4_config),
        cmocka_unit_test(test_per_request_main),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
