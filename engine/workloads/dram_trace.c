/* DRAM-only trace driver: DRAMSim3's TraceBasedCPU front end (one request offered per cycle, in file order,
 * no earlier than its cycle, head held while the controller is full) over one moonwarp DRAM channel, with
 * the summary and per-request rows of the DRAMSim3 oracle. The trace is streamed; memory stays bounded. */
#include "dram_trace.h"
#include "xzfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct trace_rec {
    uint64_t addr, cycle, idx;
    int kind;
};

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t') p++;
    return p;
}

/* Parse one line; returns 1 with *out filled, 0 for a blank or '#' comment line, or an error. */
static int parse_line(struct mw_xzfile *f, const char *line, struct trace_rec *out, struct mw_err *e)
{
    const char *file = mw_xz_path(f);
    int ln = (int)mw_xz_lineno(f);
    const char *p = skip_ws(line);
    if (!*p || *p == '#') return 0;
    /* address: hexadecimal, 0x optional */
    const char *tok = p;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) p += 2;
    if (!isxdigit((unsigned char)*p))
        return mw_err_set(e, MW_EINVAL, file, ln, (int)(tok - line) + 1,
                          "expected a hexadecimal address (0x...), got '%.*s'", (int)strcspn(tok, " \t"), tok);
    errno = 0;
    char *end;
    unsigned long long a = strtoull(p, &end, 16);
    if (errno || (*end && *end != ' ' && *end != '\t'))
        return mw_err_set(e, MW_EINVAL, file, ln, (int)(tok - line) + 1,
                          "expected a hexadecimal address (0x...), got '%.*s'", (int)strcspn(tok, " \t"), tok);
    p = skip_ws(end);
    /* READ | WRITE */
    tok = p;
    size_t n = strcspn(p, " \t");
    int kind;
    if (n == 4 && strncmp(p, "READ", 4) == 0) kind = MW_REQ_READ;
    else if (n == 5 && strncmp(p, "WRITE", 5) == 0) kind = MW_REQ_WRITE;
    else
        return mw_err_set(e, MW_EINVAL, file, ln, (int)(tok - line) + 1, "expected READ or WRITE, got '%.*s'",
                          (int)n, tok);
    p = skip_ws(p + n);
    /* cycle: decimal */
    tok = p;
    if (!isdigit((unsigned char)*p))
        return mw_err_set(e, MW_EINVAL, file, ln, (int)(tok - line) + 1, "expected a decimal cycle, got '%.*s'",
                          (int)strcspn(tok, " \t"), tok);
    errno = 0;
    unsigned long long cyc = strtoull(p, &end, 10);
    if (errno || (*end && *end != ' ' && *end != '\t'))
        return mw_err_set(e, MW_EINVAL, file, ln, (int)(tok - line) + 1, "expected a decimal cycle, got '%.*s'",
                          (int)strcspn(tok, " \t"), tok);
    p = skip_ws(end);
    if (*p && *p != '#')
        return mw_err_set(e, MW_EINVAL, file, ln, (int)(p - line) + 1, "expected the end of the line, got '%s'", p);
    out->addr = a;
    out->kind = kind;
    out->cycle = cyc;
    return 1;
}

/* Next request of the trace: 1, 0 at the end, or an error. */
static int next_rec(struct mw_xzfile *f, struct trace_rec *out, uint64_t idx, struct mw_err *e)
{
    for (;;) {
        char *line;
        size_t len;
        int rc = mw_xz_getline(f, &line, &len, e);
        if (rc <= 0) return rc;
        rc = parse_line(f, line, out, e);
        if (rc) {
            out->idx = idx;
            return rc;
        }
    }
}

static void base_name(const char *path, char *out, size_t n)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t len = strcspn(b, ".");
    if (len == 0) len = strlen(b); /* ".hidden": keep it whole */
    if (len >= n) len = n - 1;
    memcpy(out, b, len);
    out[len] = 0;
}

int mw_dram_trace_policy(const struct mw_config *c, struct mw_policy_inst *pi, struct mw_err *e)
{
    const struct mw_policy_choice *ch = &c->policy[MW_PT_DRAM_SCHED];
    const char *impl = ch->impl[0] ? ch->impl : mw_policy_default_name(MW_PT_DRAM_SCHED);
    const char *file = ch->file[0] ? ch->file : NULL;
    if (strcmp(impl, "lua") == 0)
        return mw_err_set(e, MW_EINVAL, file, ch->line, ch->col,
                          "policies.dram_scheduler: a Lua policy needs the Lua front end (moonwarp run / Lua API)");
    const struct mw_policy *p = mw_policy_find(MW_PT_DRAM_SCHED, impl);
    if (!p) return mw_err_set(e, MW_EINVAL, file, ch->line, ch->col, "unknown dram_scheduler policy '%s'", impl);
    const char *keys[MW_POLICY_MAX_PARAMS], *vals[MW_POLICY_MAX_PARAMS];
    int n = 0;
    for (int i = 0; i < ch->nparams && n < MW_POLICY_MAX_PARAMS; i++)
        keys[n] = ch->params[i].key, vals[n++] = ch->params[i].value;
    return mw_policy_inst_init(pi, p, NULL, keys, vals, n, e);
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void write_req_row(FILE *f, const struct mw_dram *d, const struct mw_req *r)
{
    uint32_t bank, row, col;
    mw_dram_decode(d, r->dram_addr, &bank, &row, &col);
    fprintf(f, "%llu,0x%llx,%c,%u,%u,%u,%llu,%llu,%llu,%llu,%llu\n", (unsigned long long)r->pc,
            (unsigned long long)r->dram_addr, r->kind == MW_REQ_WRITE ? 'W' : 'R', bank, row, col,
            (unsigned long long)r->t_create, (unsigned long long)(r->t_dram_enq - 1),
            (unsigned long long)r->t_dram_enq, (unsigned long long)r->t_ready,
            (unsigned long long)(r->t_ready - r->t_dram_enq));
}

int mw_dram_trace_run(const struct mw_config *c, struct mw_policy_inst *sched, const char *path,
                      const struct mw_dram_trace_opts *opts, struct mw_dram_trace_result *res, struct mw_err *e)
{
    static const struct mw_dram_trace_opts no_opts;
    if (!opts) opts = &no_opts;
    memset(res, 0, sizeof *res);
    base_name(path, res->name, sizeof res->name);
    struct mw_policy_inst own;
    bool own_pol = false;
    if (!sched) {
        int rc = mw_dram_trace_policy(c, &own, e);
        if (rc) return rc;
        sched = &own;
        own_pol = true;
    }
    struct mw_xzfile *f = mw_xz_open(path, e);
    struct mw_dram *d = f ? mw_dram_create(c, 0, sched, e) : NULL;
    struct mw_req_pool pool;
    mw_req_pool_init(&pool);
    int rc = 0;
    if (!d) {
        rc = e->code ? e->code : MW_EINVAL;
        goto out;
    }
    if (opts->per_request) fprintf(opts->per_request, "%s\n", MW_DRAM_TRACE_REQ_HEADER);

    double t0 = wall_now();
    const uint32_t atom = (uint32_t)mw_dram_atom_bytes(d);
    struct trace_rec head;
    uint64_t nrec = 0, now = 0, last_done = 0;
    int have = next_rec(f, &head, nrec, e);
    if (have < 0) {
        rc = e->code;
        goto out;
    }
    for (;;) {
        mw_dram_cycle(d, now);
        struct mw_req *r;
        while ((r = mw_dram_pop_done(d))) {
            if (r->t_ready > last_done) last_done = r->t_ready;
            if (opts->per_request) write_req_row(opts->per_request, d, r);
            mw_req_free(&pool, r);
        }
        bool blocked = false;
        if (have > 0 && head.cycle <= now) {
            if (mw_dram_can_accept(d, head.kind)) {
                r = mw_req_alloc(&pool);
                if (!r) {
                    rc = mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
                    goto out;
                }
                r->addr = r->dram_addr = head.addr;
                r->size = atom;
                r->kind = (uint8_t)head.kind;
                r->pc = head.idx;          /* the trace line's request index, for the per-request rows */
                r->t_create = head.cycle;  /* its cycle in the trace */
                r->sm = 0;
                mw_dram_push(d, r, now);
                res->requests++;
                res->bytes += atom;
                if (head.kind == MW_REQ_WRITE) res->writes++;
                else res->reads++;
                have = next_rec(f, &head, ++nrec, e);
                if (have < 0) {
                    rc = e->code;
                    goto out;
                }
            } else {
                blocked = true;
            }
        }
        if (have == 0 && mw_dram_pending(d) == 0) break;
        bool can = have > 0 && mw_dram_can_accept(d, head.kind);
        uint64_t next = now + 1;
        if (!opts->tick_all) {
            /* the controller only changes inside mw_dram_cycle: a refused head waits for its next event */
            next = mw_dram_next_event(d, now + 1);
            if (can) next = mw_min_u64(next, mw_max_u64(head.cycle, now + 1));
            if (next == MW_NEVER) {
                rc = mw_err_set(e, MW_EINVAL, path, 0, 0, "DRAM model stalled at cycle %llu with %d requests pending",
                                (unsigned long long)now, mw_dram_pending(d));
                goto out;
            }
        }
        /* refused: this cycle's offer, and every skipped cycle in which the head was due */
        if (blocked) mw_dram_note_refused(d, 1);
        if (have > 0 && !can && head.cycle < next) mw_dram_note_refused(d, next - mw_max_u64(head.cycle, now + 1));
        now = next;
        if (opts->max_cycles && now >= opts->max_cycles) {
            rc = mw_err_set(e, MW_EINVAL, path, 0, 0, "stopped at cycle %llu (max_cycles)", (unsigned long long)now);
            goto out;
        }
    }
    res->wall_s = wall_now() - t0;
    if (mw_dram_error(d)) {
        rc = mw_err_set(e, MW_EHOOK, NULL, 0, 0, "%s", mw_dram_error(d));
        goto out;
    }
    res->st = *mw_dram_get_stats(d);
    res->cycles = res->requests ? last_done + 1 : 0; /* cycles 0 .. the last completion, as DRAMSim3 counts */
    res->avg_read_latency = res->st.reads_done ? (double)res->st.read_latency_sum / (double)res->st.reads_done : 0;
    double tck_ns = 1000.0 / c->clock.dram_mhz;
    res->bandwidth_gbps = res->cycles ? (double)res->bytes / ((double)res->cycles * tck_ns) : 0;
    uint64_t cols = res->st.row_hits + res->st.row_misses + res->st.row_conflicts;
    res->row_hit_rate = cols ? (double)res->st.row_hits / (double)cols : 0;
out:
    mw_dram_destroy(d);
    if (f) mw_xz_close(f);
    mw_req_pool_fini(&pool);
    if (own_pol) mw_policy_inst_fini(&own);
    return rc;
}

void mw_dram_trace_csv_row(FILE *f, const struct mw_dram_trace_result *r)
{
    fprintf(f, "%s,%llu,%llu,%llu,%llu,%.4f,%.4f,%.5f\n", r->name, (unsigned long long)r->requests,
            (unsigned long long)r->reads, (unsigned long long)r->writes, (unsigned long long)r->cycles,
            r->avg_read_latency, r->bandwidth_gbps, r->row_hit_rate);
}
