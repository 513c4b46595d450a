/* Helpers for the tests of the policy interface (test_policy_iface.c, test_policy_actions.c): hand-written
 * programs on one SM, built-in workloads, test policies installed in any slot with a test-owned state, an event
 * list, and two stateless rules (oldest-ready pick, LRU victim) that test policies build on. Include after
 * <cmocka.h>. */
#ifndef MW_TEST_POLICY_IFACE_H
#define MW_TEST_POLICY_IFACE_H

#include "simctx.h"
#include "simrun.h"

#define PI_ONE_SM "gpu.n_sms=1"

/* Program shorthands (struct sr_inst): a global load, a store, an ALU op, a barrier; LW = a load and the ALU
 * that waits for it. */
#define LDG(d, s, a) {MW_OP_LD_GLOBAL, d, s, 0, a}
#define STG(a) {MW_OP_ST_GLOBAL, 0, 0, 0, a}
#define ALU(d, s) {MW_OP_ALU, d, s, 0, 0}
#define BAR {MW_OP_BARRIER, 0, 0, 0, 0}
#define LW(d, a) LDG(d, 0, a), ALU(d + 1, d)
#define NINST(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Addresses: the L1D has 32 sets of 128 B lines, 4 ways; a line's set is (addr / 128) % 32, so lines 4 KB apart
 * share a set. BASE is in set 0. */
#define BASE 0x10000000ull
#define SAME_SET(k) (BASE + 4096ull * (k)) /* the k-th line of set 0 */
#define LINE(set, k) (BASE + 128ull * (set) + 4096ull * (k))

static inline struct mw_sim *prog_sim(const struct sr_prog *p, const char *const *sets, int nsets)
{
    struct mw_config c;
    sr_config(&c, sets, nsets);
    c.l1i.enabled = false; /* hand-counted cache outcomes and issue cycles: no code traffic */
    struct mw_workload w;
    sr_prog_workload(&w, p);
    return sr_sim(&c, &w);
}

static inline struct mw_sim *builtin_sim(const char *name, const char *size, const char *const *sets, int nsets)
{
    struct mw_config c;
    sr_config(&c, sets, nsets);
    struct mw_err e;
    struct mw_workload w;
    if (mw_workload_open_builtin(&w, name, size, 1, &e)) fail_msg("%s: %s", name, e.msg);
    return sr_sim(&c, &w);
}

/* Install a test policy in a slot; its state is `ctx` (owned by the test) unless its create() made one. */
static inline struct mw_policy_inst *install(struct mw_sim *s, int slot, const struct mw_policy *p, void *ctx)
{
    struct mw_policy_inst pi;
    struct mw_err e;
    if (mw_policy_inst_init(&pi, p, s, NULL, NULL, 0, &e)) fail_msg("%s: %s", p->name, e.msg);
    if (ctx && !pi.state) pi.state = ctx;
    if (mw_sim_install_slot(s, slot, &pi, &e)) fail_msg("install %s: %s", p->name, e.msg);
    return &s->pol[slot];
}

/* A growing list of events. */
struct evlog {
    struct mw_event *v;
    int n, cap;
};
static inline void evlog_push(struct evlog *l, const struct mw_event *ev)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->v = realloc(l->v, (size_t)l->cap * sizeof *l->v);
        assert_non_null(l->v);
    }
    l->v[l->n++] = *ev;
}
static inline void evlog_fini(struct evlog *l) { free(l->v), memset(l, 0, sizeof *l); }

/* Oldest ready warp (launch order): a scheduler without state, so that test schedulers can keep theirs. */
static inline int pick_oldest(struct mw_policy_inst *pi, int sm, int sched, const uint16_t *ready, int n)
{
    (void)sched;
    int best = 0;
    for (int i = 1; i < n; i++)
        if (mw_warp_age(pi->sim, sm, ready[i]) < mw_warp_age(pi->sim, sm, ready[best])) best = i;
    return best;
}

/* LRU's victim rule (policies/repl_lru.c), for replacement policies that add something to it. */
static inline int victim_lru(struct mw_policy_inst *pi, int sm, int set, const struct mw_line_view *ways,
                             const uint8_t *evictable, int assoc)
{
    (void)pi, (void)sm, (void)set;
    int best = -1;
    for (int w = 0; w < assoc; w++)
        if (evictable[w] && (best < 0 || ways[w].last_access < ways[best].last_access)) best = w;
    return best;
}

/* Run s to completion (a hand-built case takes thousands of cycles; five million means a hang) and take its
 * statistics. */
static inline void run_stats(struct mw_sim *s, const char *what, struct mw_stat_list *l)
{
    sr_run(s, 5000000, what);
    sr_stats(s, l);
}

#endif
