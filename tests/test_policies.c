/* Contract tests over every registered policy of every decision point, with default parameters: each one
 * completes short runs, gives identical statistics on a repeated run and with clock fast-forward off, and never
 * returns an out-of-range answer from a hook (checked by a shim wrapped around its ops table). A policy added
 * to the registry is tested here without editing this file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "simrun.h"

/* The i-th registered policy of point pt, NULL past the last: the one place that knows how the registry lists
 * its policies. */
static const struct mw_policy *policy_at(enum mw_point pt, int i) { return mw_policies(pt)[i]; }

/* Short runs that complete under every policy: one column-strided load through a single L1D set (victims,
 * line-allocation stalls, DRAM row hits); BFS (many warps and CTAs, data-dependent gathers, stores); BACKPROP
 * (barriers, shared memory); CFD (gathers that hit lines with some sectors missing); connected components on an
 * R-MAT graph (irregular gathers, kernels repeated until no edge hooks). Each takes a few hundredths of a
 * second. */
static const struct {
    const char *name, *size;
} workloads[] = {{"micro.colstride", "tiny"}, {"rodinia.bfs", "tiny"}, {"rodinia.backprop", "tiny"},
                 {"rodinia.cfd", "tiny"}, {"graph.cc", "tiny"}};
#define NWL (int)(sizeof workloads / sizeof workloads[0])
#define CYCLE_CAP 2000000 /* a run still going after this many cycles has hung */

/* ---- the checking shim -------------------------------------------------------------------------------------
 * A copy of the policy's ops table whose hooks call the real hook and check its answer. The first violation is
 * kept and stops the run (mw_sim_fail), so the test reports it. A hook the real policy lacks stays NULL: the
 * engine gives NULL hooks their own meaning (qualify = always, fetch = whole line, slots = 1). */
enum hook { H_PICK, H_QUALIFY, H_ISSUED, H_DECIDE, H_FETCH, H_DRAM_PICK, H_LIMIT, H_SLOTS, H_LDST_PICK, H_VICTIM,
            H_TOUCH, H_INSERT, H_COUNT };
static const char *const hook_names[H_COUNT] = {"pick", "qualify", "issued", "decide", "fetch", "pick", "limit",
                                                "slots", "pick", "victim", "touch", "insert"};

struct shim {
    union {
        struct mw_policy base;
        struct mw_warp_sched_ops ws;
        struct mw_l1d_bypass_ops by;
        struct mw_granularity_ops gr;
        struct mw_dram_sched_ops dr;
        struct mw_cta_throttle_ops ct;
        struct mw_ldst_sched_ops ls;
        struct mw_replacement_ops rp;
    } ops; /* first member: the engine's pi->pol points here */
    union {
        const struct mw_policy *base;
        const struct mw_warp_sched_ops *ws;
        const struct mw_l1d_bypass_ops *by;
        const struct mw_granularity_ops *gr;
        const struct mw_dram_sched_ops *dr;
        const struct mw_cta_throttle_ops *ct;
        const struct mw_ldst_sched_ops *ls;
        const struct mw_replacement_ops *rp;
    } real;
    bool wrapped[H_COUNT]; /* the real policy has this hook */
    uint64_t calls[H_COUNT];
    char violation[512];   /* "" = none */
};

static struct shim *shim_of(struct mw_policy_inst *pi) { return (struct shim *)(uintptr_t)pi->pol; }

static void violated(struct mw_policy_inst *pi, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void violated(struct mw_policy_inst *pi, const char *fmt, ...)
{
    struct shim *sh = shim_of(pi);
    if (sh->violation[0]) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sh->violation, sizeof sh->violation, fmt, ap);
    va_end(ap);
    struct mw_err e;
    mw_err_set(&e, MW_EHOOK, NULL, 0, 0, "shim: %s", sh->violation);
    mw_sim_fail(pi->sim, &e);
}

static int ws_pick(struct mw_policy_inst *pi, int sm, int sched, const uint16_t *ready, int n)
{
    struct shim *sh = shim_of(pi);
    sh->calls[H_PICK]++;
    int r = sh->real.ws->pick(pi, sm, sched, ready, n);
    if (r < 0 || r >= n) violated(pi, "pick returned %d of %d ready warps", r, n);
    return r;
}
static bool ws_qualify(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    struct shim *sh = shim_of(pi);
    sh->calls[H_QUALIFY]++;
    return sh->real.ws->qualify(pi, sm, sched, w, in); /* any bool is a valid answer */
}
static void ws_issued(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    struct shim *sh = shim_of(pi);
    sh->calls[H_ISSUED]++;
    sh->real.ws->issued(pi, sm, sched, w, in);
}
static int by_decide(struct mw_policy_inst *pi, const struct mw_bypass_ctx *c)
{
    struct shim *sh = shim_of(pi);
    sh->calls[H_DECIDE]++;
    int r = sh->real.by->decide(pi, c);
    if (r != MW_CACHE && r != MW_BYPASS && r != MW_BYPASS_PROBE)
        violated(pi, "decide returned %d, not MW_CACHE, MW_BYPASS or MW_BYPASS_PROBE", r);
    return r;
}
static uint8_t gr_fetch(struct mw_policy_inst *pi, const struct mw_gran_ctx *c)
{
    struct shim *sh = shim_of(pi);
    sh->calls[H_FETCH]++;
    uint8_t f = sh->real.gr->fetch(pi, c);
    const struct mw_config *cfg = mw_sim_config(pi->sim);
    unsigned full = (1u << (cfg->l1d.line_bytes / cfg->l1d.sector_bytes)) - 1;
    if ((f & c->need) != c->need || (f & ~full))
        violated(pi, "fetch returned sectors 0x%x for need 0x%x (line 0x%x)", f, c->need, full);
    return f;
}
static int dr_pick(struct mw_policy_inst *pi, const struct mw_dram_sched_ctx *c, const struct mw_dram_cand *cands,
                   int n)
{
    struct shim *sh = shim_of(pi);
    sh->calls[H_DRAM_PICK]++;
    int r = sh->real.dr->pick(pi, c, cands, n);
    if (r < 0 || r >= n) violated(pi, "dram pick returned %d of %d candidates", r, n);
    return r;
}
static int ct_limit(struct mw_policy_inst *pi, int sm, int resident)
{
    struct shim *sh = shim_of(pi);
    sh->calls[H_LIMIT]++;
    int r = sh->real.ct->limit(pi, sm, resident);
    if (r < 0) violated(pi, "limit returned %d", r);
    return r;
}
static int ls_slots(struct mw_policy_inst *pi)
{
    struct shim *sh = shim_of(pi);
    sh->calls[H_SLOTS]++;
    int r = sh->real.ls->slots(pi);
    if (r < 1) violated(pi, "slots returned %d", r);
    return r;
}
static int ls_pick(struct mw_policy_inst *pi, int sm, const uint16_t *warps, int n)
{
    struct shim *sh = shim_of(pi);
    sh->calls[H_LDST_PICK]++;
    int r = sh->real.ls->pick(pi, sm, warps, n);
    if (r < 0 || r >= n) violated(pi, "ldst pick returned %d of %d", r, n);
    return r;
}
static int rp_victim(struct mw_policy_inst *pi, int sm, int set, const struct mw_line_view *ways,
                     const uint8_t *evictable, int assoc)
{
    struct shim *sh = shim_of(pi);
    sh->calls[H_VICTIM]++;
    int r = sh->real.rp->victim(pi, sm, set, ways, evictable, assoc);
    if (r < -1 || r >= assoc || (r >= 0 && !evictable[r]))
        violated(pi, "victim returned %d (assoc %d, evictable %s)", r, assoc,
                 r >= 0 && r < assoc ? "no" : "out of range");
    return r;
}
static void rp_touch(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *line)
{
    struct shim *sh = shim_of(pi);
    sh->calls[H_TOUCH]++;
    sh->real.rp->touch(pi, sm, set, way, line);
}
static void rp_insert(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *line)
{
    struct shim *sh = shim_of(pi);
    sh->calls[H_INSERT]++;
    sh->real.rp->insert(pi, sm, set, way, line);
}

/* Build the shim around p: the same header (name, params, create, events), checked hooks. */
static void shim_init(struct shim *sh, const struct mw_policy *p)
{
    memset(sh, 0, sizeof *sh);
    sh->real.base = p;
    switch (p->point) {
#define WRAP(f, field, h) sh->ops.f.field = (sh->wrapped[H_##h] = sh->real.f->field) ? f##_##field : NULL
    case MW_PT_WARP_SCHED:
        sh->ops.ws = *sh->real.ws;
        WRAP(ws, pick, PICK);
        WRAP(ws, qualify, QUALIFY);
        WRAP(ws, issued, ISSUED);
        break;
    case MW_PT_L1D_BYPASS:
        sh->ops.by = *sh->real.by;
        WRAP(by, decide, DECIDE);
        break;
    case MW_PT_GRANULARITY:
        sh->ops.gr = *sh->real.gr;
        WRAP(gr, fetch, FETCH);
        break;
    case MW_PT_DRAM_SCHED:
        sh->ops.dr = *sh->real.dr;
        WRAP(dr, pick, DRAM_PICK);
        break;
    case MW_PT_CTA_THROTTLE:
        sh->ops.ct = *sh->real.ct;
        WRAP(ct, limit, LIMIT);
        break;
    case MW_PT_LDST_SCHED:
        sh->ops.ls = *sh->real.ls;
        WRAP(ls, slots, SLOTS);
        WRAP(ls, pick, LDST_PICK);
        break;
    case MW_PT_REPLACEMENT:
        sh->ops.rp = *sh->real.rp;
        sh->ops.rp.victim_order = MW_VICTIM_HOOK; /* the shim run asks victim(); the plain run may use the declared
                                                   * order, so "repeated" also checks that they agree */
        WRAP(rp, victim, VICTIM);
        WRAP(rp, touch, TOUCH);
        WRAP(rp, insert, INSERT);
        break;
#undef WRAP
    default:
        fail_msg("policy '%s' has unknown point %d", p->name, p->point);
    }
}

/* ---- runs ---------------------------------------------------------------------------------------------------- */
struct pcase {
    enum mw_point pt;
    const struct mw_policy *pol;
    char name[96]; /* "point/policy", the test's name */
};

/* Run workload k with policy c->pol at its point (through the shim when sh is given), fast-forward on or off. */
static void run_one(const struct pcase *c, int k, struct shim *sh, bool fast_forward, struct mw_stat_list *l)
{
    const char *sets[] = {fast_forward ? "sim.fast_forward=true" : "sim.fast_forward=false"};
    struct mw_config cfg;
    sr_config(&cfg, sets, 1);
    struct mw_err e;
    struct mw_workload w;
    if (mw_workload_open_builtin(&w, workloads[k].name, workloads[k].size, 1, &e))
        fail_msg("%s: %s", workloads[k].name, e.msg);
    struct mw_sim *s = sr_sim(&cfg, &w);
    if (sh) {
        shim_init(sh, c->pol);
        struct mw_policy_inst pi;
        if (mw_policy_inst_init(&pi, &sh->ops.base, s, NULL, NULL, 0, &e)) fail_msg("%s: %s", c->name, e.msg);
        if (mw_sim_install_policy(s, c->pt, &pi, &e)) fail_msg("%s: install: %s", c->name, e.msg);
    } else if (mw_sim_set_policy(s, c->pt, c->pol, NULL, NULL, 0, &e)) {
        fail_msg("%s: %s", c->name, e.msg);
    }
    char what[160];
    snprintf(what, sizeof what, "%s on %s (fast_forward %s%s)", c->name, workloads[k].name,
             fast_forward ? "on" : "off", sh ? ", shim" : "");
    struct mw_err re;
    int rc = mw_sim_run(s, CYCLE_CAP, &re);
    if (sh && sh->violation[0]) fail_msg("%s: %s", what, sh->violation);
    if (rc < 0) fail_msg("%s: run failed: %s", what, re.msg);
    if (rc != 1) fail_msg("%s: not complete after %d cycles", what, CYCLE_CAP);
    sr_stats(s, l);
    mw_sim_destroy(s);
    assert_true(sr_stat(l, "gpu.warp_insts") > 0);
}

/* For each workload: a run through the shim, the same run again without it, and a third through the shim with
 * fast-forward off. All three must agree on every statistic (the shim only observes). Across the workloads
 * each hook that the engine calls whatever the policy answers must have been checked at least once. */
static void test_policy_contract(void **st)
{
    const struct pcase *c = *st;
    uint64_t calls[H_COUNT] = {0};
    for (int k = 0; k < NWL; k++) {
        struct mw_stat_list a, b, f;
        struct shim sh;
        run_one(c, k, &sh, true, &a);
        for (int h = 0; h < H_COUNT; h++) calls[h] += sh.calls[h];
        run_one(c, k, NULL, true, &b);
        char what[160];
        snprintf(what, sizeof what, "%s on %s, repeated", c->name, workloads[k].name);
        sr_same_stats(&a, &b, what);
        run_one(c, k, &sh, false, &f);
        snprintf(what, sizeof what, "%s on %s, fast_forward off", c->name, workloads[k].name);
        sr_same_stats(&a, &f, what);
        mw_stat_list_fini(&a);
        mw_stat_list_fini(&b);
        mw_stat_list_fini(&f);
    }
    /* the hook the engine asks whatever the policy answered before, given these workloads (a CTA to place, a
     * load request, a miss, a bank with two queued requests, a full set); none for LDST scheduling, whose pick
     * needs several slots */
    static const enum hook asked[MW_PT_COUNT] = {
        [MW_PT_WARP_SCHED] = H_ISSUED,     [MW_PT_L1D_BYPASS] = H_DECIDE,   [MW_PT_GRANULARITY] = H_FETCH,
        [MW_PT_DRAM_SCHED] = H_DRAM_PICK,  [MW_PT_CTA_THROTTLE] = H_LIMIT, [MW_PT_LDST_SCHED] = H_COUNT,
        [MW_PT_REPLACEMENT] = H_VICTIM,
    };
    struct shim probe;
    shim_init(&probe, c->pol);
    enum hook h = asked[c->pt];
    if (h != H_COUNT && probe.wrapped[h] && calls[h] == 0)
        fail_msg("%s: hook %s was never called", c->name, hook_names[h]);
}

int main(void)
{
    int n = 0;
    for (int pt = 0; pt < MW_PT_COUNT; pt++)
        for (int i = 0; policy_at((enum mw_point)pt, i); i++) n++;
    struct pcase *cases = calloc((size_t)n, sizeof *cases);
    struct CMUnitTest *tests = calloc((size_t)n, sizeof *tests);
    if (!cases || !tests) return 1;
    int j = 0;
    for (int pt = 0; pt < MW_PT_COUNT; pt++)
        for (int i = 0; policy_at((enum mw_point)pt, i); i++, j++) {
            cases[j].pt = (enum mw_point)pt;
            cases[j].pol = policy_at((enum mw_point)pt, i);
            snprintf(cases[j].name, sizeof cases[j].name, "%s/%s", mw_point_names[pt], cases[j].pol->name);
            tests[j] = (struct CMUnitTest){.name = cases[j].name, .test_func = test_policy_contract,
                                           .initial_state = &cases[j]};
        }
    int rc = _cmocka_run_group_tests("policies", tests, (size_t)n, NULL, NULL);
    free(tests);
    free(cases);
    return rc;
}
