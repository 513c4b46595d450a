/* The simulation object and the engine facts that policies may read. One struct mw_sim owns the whole
 * simulated machine (no global mutable state), so several simulations can live side by side. */
#ifndef MW_SIM_H
#define MW_SIM_H

#include "config.h"
#include "policy.h"
#include "stats.h"
#include "workload.h"

struct mw_sim;

struct mw_sim *mw_sim_create(const struct mw_config *c, struct mw_err *e);
void mw_sim_destroy(struct mw_sim *s);
/* Give the simulation its workload (it takes ownership; closed with the sim). Must precede the first run. */
int mw_sim_set_workload(struct mw_sim *s, struct mw_workload *w, struct mw_err *e);
/* Replace the policy at a decision point (before the run starts). keys/values may be NULL. */
int mw_sim_set_policy(struct mw_sim *s, enum mw_point pt, const struct mw_policy *p, const char *const *keys,
                      const char *const *values, int n, struct mw_err *e);
/* Install an already-initialised instance (the Lua adapter builds its own); the sim takes ownership. */
int mw_sim_install_policy(struct mw_sim *s, enum mw_point pt, struct mw_policy_inst *pi, struct mw_err *e);
struct mw_policy_inst *mw_sim_policy(struct mw_sim *s, enum mw_point pt);

/* Run until the workload completes or `cycles` more core cycles have passed (0 = no limit).
 * Returns 1 when the workload is complete, 0 when paused at the cycle limit or by an interrupt
 * (mw_sim_interrupt), <0 on error (e filled). */
int mw_sim_run(struct mw_sim *s, uint64_t cycles, struct mw_err *e);
bool mw_sim_done(const struct mw_sim *s);
/* Ask a running mw_sim_run to return at the next cycle boundary (safe from a signal handler). */
void mw_sim_interrupt(struct mw_sim *s);
/* Stop with an error at the next cycle boundary (a policy hook failed); the message is kept. */
void mw_sim_fail(struct mw_sim *s, const struct mw_err *e);

/* Every counter as unit.instance.counter plus totals and derived values (gpu.ipc, l1d.miss_rate, ...). */
int mw_sim_stats(struct mw_sim *s, struct mw_stat_list *out, bool per_instance);
const struct mw_config *mw_sim_config(const struct mw_sim *s);

/* Progress callback: called about every `period_ms` of wall time during a run. */
typedef void (*mw_progress_fn)(void *ud, const struct mw_sim *s);
void mw_sim_set_progress(struct mw_sim *s, mw_progress_fn fn, void *ud, int period_ms);

/* ---- engine facts for policies ------------------------------------------------------------------------- */
uint64_t mw_now(const struct mw_sim *s);                     /* core cycle */
int mw_n_sms(const struct mw_sim *s);
int mw_max_warps(const struct mw_sim *s);                    /* warp slots per SM */
int mw_n_schedulers(const struct mw_sim *s);
uint64_t mw_warp_age(const struct mw_sim *s, int sm, int w); /* launch order: smaller = older */
bool mw_warp_active(const struct mw_sim *s, int sm, int w);
bool mw_warp_at_barrier(const struct mw_sim *s, int sm, int w); /* waiting at __syncthreads */
int mw_warp_cta(const struct mw_sim *s, int sm, int w);      /* hardware CTA slot */
const struct mw_inst *mw_warp_next_inst(const struct mw_sim *s, int sm, int w); /* NULL if none decoded */
uint64_t mw_warp_insts(const struct mw_sim *s, int sm, int w);
int mw_sm_resident_ctas(const struct mw_sim *s, int sm);
uint64_t mw_sm_warp_insts(const struct mw_sim *s, int sm);    /* warp instructions issued so far */
int mw_sim_l1d_sets(const struct mw_sim *s);
int mw_sim_l1d_assoc(const struct mw_sim *s);
int mw_l1d_mshr_free(const struct mw_sim *s, int sm);
int mw_l1d_set_of(const struct mw_sim *s, uint64_t addr);
/* Would a load of `sectors` of line `line` hit in SM sm's L1D now? No side effects. */
bool mw_l1d_probe(const struct mw_sim *s, int sm, uint64_t line, uint8_t sectors);
/* Invalidate all of SM sm's L1D lines that are not waiting for a fill (granularity switches). */
void mw_l1d_flush(struct mw_sim *s, int sm);
/* Ask for MW_EV_WINDOW events every `cycles` core cycles (0 = off). */
void mw_sim_set_window(struct mw_sim *s, uint64_t cycles);

#endif
