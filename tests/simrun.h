/* Helpers for the policy tests: the GTX480 config with overrides, a run to completion with its statistics,
 * exact comparison of two stat lists, a workload whose warps each run their own short instruction list, and a
 * spy that wraps a warp scheduler and logs every issue. Public engine API only (sim.h, policy.h, kgen.h).
 * Include after <cmocka.h>. */
#ifndef MW_TEST_SIMRUN_H
#define MW_TEST_SIMRUN_H

#include "config.h"
#include "kgen.h"
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SR_GTX480 "experiments/configs/gtx480.yaml"

/* The front end's PC (16 B per instruction, kernel-relative) of a code address the engine reports, for configs
 * with sm.inst_bytes = 8 (gtx480.yaml and the defaults): the inverse of the layout mw_code_offset documents. */
static inline uint64_t sr_fe_pc(uint64_t pc)
{
    return pc < 0xF0000000ull ? pc : (pc - 0xF0000000ull) % 0x1000000ull / 8 * 16;
}

/* The GTX480 config, then each "section.key=value" of sets. */
static inline void sr_config(struct mw_config *c, const char *const *sets, int nsets)
{
    struct mw_err e;
    mw_config_defaults(c);
    if (mw_config_load_file(c, SR_GTX480, &e)) fail_msg("config: %s", e.msg);
    for (int i = 0; i < nsets; i++)
        if (mw_config_set(c, sets[i], &e)) fail_msg("--set %s: %s", sets[i], e.msg);
}

/* A simulation of c running w (which it takes over). */
static inline struct mw_sim *sr_sim(const struct mw_config *c, struct mw_workload *w)
{
    struct mw_err e;
    struct mw_sim *s = mw_sim_create(c, &e);
    if (!s) fail_msg("create: %s", e.msg);
    if (mw_sim_set_workload(s, w, &e)) fail_msg("workload: %s", e.msg);
    return s;
}

/* Run s to completion within `cap` core cycles (0 = no cap); fails otherwise. `what` names the run. */
static inline void sr_run(struct mw_sim *s, uint64_t cap, const char *what)
{
    struct mw_err e;
    int rc = mw_sim_run(s, cap, &e);
    if (rc < 0) fail_msg("%s: run failed: %s", what, e.msg);
    if (rc != 1) fail_msg("%s: not complete after %llu cycles", what, (unsigned long long)cap);
}

/* Every statistic of s, per instance too. */
static inline void sr_stats(struct mw_sim *s, struct mw_stat_list *l)
{
    mw_stat_list_init(l);
    assert_int_equal(mw_sim_stats(s, l, true), 0);
}

static inline double sr_stat(const struct mw_stat_list *l, const char *name)
{
    const struct mw_stat_entry *st = mw_stat_list_get(l, name);
    if (!st) fail_msg("no stat '%s'", name);
    return st->value;
}

/* sim.* counts the engine's own work (unit visits), not the simulated machine: it may differ between runs that
 * simulate the same thing (fast-forward on and off, a policy asked every cycle or only when needed). */
static inline bool sr_effort_stat(const char *name) { return strncmp(name, "sim.", 4) == 0; }

/* Same names in the same order and bit-identical values (the engine's effort aside). */
static inline void sr_same_stats(const struct mw_stat_list *a, const struct mw_stat_list *b, const char *what)
{
    if (a->n != b->n) fail_msg("%s: %d stats vs %d", what, a->n, b->n);
    for (int i = 0; i < a->n; i++) {
        if (strcmp(a->v[i].name, b->v[i].name) != 0)
            fail_msg("%s: stat %d is %s vs %s", what, i, a->v[i].name, b->v[i].name);
        if (sr_effort_stat(a->v[i].name)) continue;
        if (memcmp(&a->v[i].value, &b->v[i].value, sizeof(double)) != 0)
            fail_msg("%s: %s differs: %.17g vs %.17g", what, a->v[i].name, a->v[i].value, b->v[i].value);
    }
}

/* ---- a hand-written program per warp ---------------------------------------------------------------------
 * One CTA of `nwarps` full warps; warp i runs warp[i] (len[i] instructions), then EXIT. Registers: r0 is never
 * written, so `src0 = 0` is always ready. A memory instruction's lane l accesses addr + 4 l (one 128 B line). */
#define SR_MAXW 8
struct sr_inst {
    uint8_t op;
    uint8_t dst, src0, src1; /* 0 = none for dst */
    uint64_t addr;
};
struct sr_prog {
    int nwarps;
    const struct sr_inst *warp[SR_MAXW];
    int len[SR_MAXW];
};

/* The fields every hand-written instruction sets: PC 16 pos, the lanes, the op, dst (0 = none) and src0. */
static inline void sr_inst_head(struct mw_inst *out, int pos, uint32_t mask, uint8_t op, uint8_t dst, uint8_t src0)
{
    memset(out, 0, sizeof *out);
    out->pc = (uint64_t)pos * 16;
    out->mask = mask;
    out->op = op;
    if (dst) out->dst[out->ndst++] = dst;
    out->src[out->nsrc++] = src0;
}

static inline int sr_prog_next(const struct mw_kgen_kernel *k, const struct mw_tctx *lane0, uint32_t mask,
                               void *scratch, struct mw_inst *out, struct mw_err *e)
{
    (void)e;
    const struct sr_prog *p = k->data;
    int *pos = scratch;
    uint32_t w = lane0->warp;
    if (*pos >= p->len[w]) return 0;
    const struct sr_inst *si = &p->warp[w][*pos];
    sr_inst_head(out, *pos, mask, si->op, si->dst, si->src0);
    if (si->src1) out->src[out->nsrc++] = si->src1;
    if (mw_op_is_mem(si->op)) {
        out->width = 4;
        for (int l = 0; l < MW_WARP_SIZE; l++)
            if (mask >> l & 1u) out->addr[l] = si->addr + 4u * (uint64_t)l;
    }
    ++*pos;
    return 1;
}

static inline void sr_no_free(void *p) { (void)p; }

/* One CTA of `nwarps` full warps whose instructions come from `next` (data = the program); `ninsts` = the
 * longest warp's length (the EXIT follows). The program must outlive the simulation. */
static inline void sr_custom_workload(struct mw_workload *w, const char *name, int nwarps, uint32_t ninsts,
                                      int (*next)(const struct mw_kgen_kernel *, const struct mw_tctx *, uint32_t,
                                                  void *, struct mw_inst *, struct mw_err *),
                                      const void *data)
{
    struct mw_kgen_kernel *k = calloc(1, sizeof *k);
    assert_non_null(k);
    snprintf(k->k.name, sizeof k->k.name, "%s", name);
    k->k.grid[0] = k->k.grid[1] = k->k.grid[2] = 1;
    k->k.block[0] = (uint32_t)(nwarps * MW_WARP_SIZE), k->k.block[1] = k->k.block[2] = 1;
    k->k.nregs = 16;
    k->custom = next;
    k->ninsts = ninsts;
    k->scratch_bytes = sizeof(int);
    k->data = data;
    struct mw_kgen_program prog = {.kernels = k, .nkernels = 1, .owned = NULL, .free_owned = sr_no_free};
    struct mw_err e;
    if (mw_kgen_workload(w, name, &prog, &e)) fail_msg("workload: %s", e.msg);
}

static inline uint32_t sr_longest(const int *len, int nwarps)
{
    uint32_t n = 0;
    for (int i = 0; i < nwarps; i++) /* warp i's instruction j at PC 16 j, the EXIT after the longest */
        if ((uint32_t)len[i] > n) n = (uint32_t)len[i];
    return n;
}

/* Open p as a workload; p must outlive the simulation. */
static inline void sr_prog_workload(struct mw_workload *w, const struct sr_prog *p)
{
    sr_custom_workload(w, "sr_prog", p->nwarps, sr_longest(p->len, p->nwarps), sr_prog_next, p);
}

/* ---- a strided program per warp ---------------------------------------------------------------------------
 * As sr_prog, but lane l of a memory instruction accesses addr + stride * (l % lines) + 4 * (l / lines):
 * `lines` distinct 128 B lines when stride is 128 or more (stride 4, lines 32: one line). */
#define SR_SMAXW 16
struct sr_sinst {
    uint8_t op, dst, src0;
    uint64_t addr, stride;
    int lines;
};
struct sr_sprog {
    int nwarps;
    const struct sr_sinst *warp[SR_SMAXW];
    int len[SR_SMAXW];
};

static inline int sr_sprog_next(const struct mw_kgen_kernel *k, const struct mw_tctx *lane0, uint32_t mask,
                                void *scratch, struct mw_inst *out, struct mw_err *e)
{
    (void)e;
    const struct sr_sprog *p = k->data;
    int *pos = scratch;
    uint32_t w = lane0->warp;
    if (*pos >= p->len[w]) return 0;
    const struct sr_sinst *a = &p->warp[w][*pos];
    sr_inst_head(out, *pos, mask, a->op, a->dst, a->src0);
    if (mw_op_is_mem(a->op)) {
        out->width = 4;
        for (int l = 0; l < MW_WARP_SIZE; l++)
            if (mask >> l & 1u)
                out->addr[l] = a->addr + a->stride * (uint64_t)(l % a->lines) + 4u * (uint64_t)(l / a->lines);
    }
    ++*pos;
    return 1;
}

/* Open p as a workload named `name`; p must outlive the simulation. */
static inline void sr_sprog_workload(struct mw_workload *w, const struct sr_sprog *p, const char *name)
{
    sr_custom_workload(w, name, p->nwarps, sr_longest(p->len, p->nwarps), sr_sprog_next, p);
}

/* ---- a spy on a warp scheduler ----------------------------------------------------------------------------
 * A copy of the real policy's ops whose `issued` logs the issue (and calls the real one); pick and qualify are
 * the real policy's. Install with sr_spy_install; the spy must outlive the simulation. */
struct sr_issue {
    uint64_t cycle;
    int sm, sched, warp;
    uint8_t op;
};
struct sr_spy {
    struct mw_warp_sched_ops ops; /* first member: the engine's pi->pol points here */
    const struct mw_warp_sched_ops *real;
    struct sr_issue *log;
    int n, cap;       /* entries logged; cap = most kept (later issues are counted in n only) */
    /* called for every issue before the real hook, e.g. to check an invariant (NULL = none) */
    void (*on_issue)(struct sr_spy *spy, struct mw_policy_inst *pi, int sm, int sched, int w,
                     const struct mw_inst *in);
    void *ud;
};

static inline void sr_spy_issued(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    struct sr_spy *spy = (struct sr_spy *)(uintptr_t)pi->pol;
    if (spy->on_issue) spy->on_issue(spy, pi, sm, sched, w, in);
    if (spy->n < spy->cap)
        spy->log[spy->n] = (struct sr_issue){.cycle = mw_now(pi->sim), .sm = sm, .sched = sched, .warp = w,
                                             .op = in->op};
    spy->n++;
    if (spy->real->issued) spy->real->issued(pi, sm, sched, w, in);
}

/* Wrap the registered warp scheduler `name` (with params keys=values) and install the spy in s. */
static inline void sr_spy_install(struct sr_spy *spy, struct mw_sim *s, const char *name, const char *const *keys,
                                  const char *const *values, int nparams, int cap)
{
    const struct mw_policy *p = mw_policy_find(MW_PT_WARP_SCHED, name);
    if (!p) fail_msg("no warp scheduler '%s'", name);
    memset(spy, 0, sizeof *spy);
    spy->real = (const struct mw_warp_sched_ops *)p;
    spy->ops = *spy->real;
    spy->ops.issued = sr_spy_issued;
    spy->cap = cap;
    spy->log = cap ? calloc((size_t)cap, sizeof *spy->log) : NULL;
    if (cap) assert_non_null(spy->log);
    struct mw_err e;
    if (mw_sim_set_policy(s, MW_PT_WARP_SCHED, &spy->ops.base, keys, values, nparams, &e))
        fail_msg("install spy on %s: %s", name, e.msg);
}

static inline void sr_spy_fini(struct sr_spy *spy) { free(spy->log); }

#endif
