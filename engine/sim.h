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
/* The instance in a point's slot (MW_PT_BUNDLE: the bundle's; a slot number MW_SLOT_*: that slot's); NULL for
 * anything else. */
struct mw_policy_inst *mw_sim_policy(struct mw_sim *s, enum mw_point pt);

/* Run until the workload completes or `cycles` more core cycles have passed (0 = no limit).
 * Returns 1 when the workload is complete, 0 when paused at the cycle limit or by an interrupt
 * (mw_sim_interrupt), <0 on error (e filled). */
int mw_sim_run(struct mw_sim *s, uint64_t cycles, struct mw_err *e);
bool mw_sim_done(const struct mw_sim *s);
/* Make mw_sim_run return (0) at the end of the core cycle in which kernel k was launched (k counts launches from 1;
 * the dispatcher ends kernel k-1 and launches k in one call, so this is also where k-1 ended); at once if k kernels
 * have been launched already; 0 turns it off. mw_sim_stopped_before_kernel says whether the last run stopped there.
 * Kernel k's own counters: those at the stop for k+1 (or at the end of the run) minus those at the stop for k. */
void mw_sim_stop_before_kernel(struct mw_sim *s, uint64_t k);
bool mw_sim_stopped_before_kernel(const struct mw_sim *s);
/* Whether sim.max_warp_insts (the warp instructions issued so far reached it) stopped the run. */
bool mw_sim_at_max_warp_insts(const struct mw_sim *s);

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
/* How many of the SM's active warps are older than warp w (0 = the oldest); kept as warps launch and exit. */
int mw_warp_age_rank(const struct mw_sim *s, int sm, int w);
bool mw_warp_at_barrier(const struct mw_sim *s, int sm, int w); /* waiting at __syncthreads */
int mw_warp_cta(const struct mw_sim *s, int sm, int w);      /* hardware CTA slot */
const struct mw_inst *mw_warp_next_inst(const struct mw_sim *s, int sm, int w); /* NULL if none decoded */
uint64_t mw_warp_insts(const struct mw_sim *s, int sm, int w);
/* Instruction PCs are code addresses: each kernel name has its own range (from 0xF0000000, 16 MB apart), a built-in
 * model's or Lua generator's PC (16 B per instruction) scaled to sm.inst_bytes, a trace's PC as it is. These map a
 * code address back to the front end's kernel-relative PC, and give the code address of a front-end PC in the
 * running kernel. */
uint64_t mw_code_offset(const struct mw_sim *s, uint64_t pc);
uint64_t mw_code_addr(const struct mw_sim *s, uint64_t fe_pc);
int mw_sm_resident_ctas(const struct mw_sim *s, int sm);
uint64_t mw_sm_warp_insts(const struct mw_sim *s, int sm);    /* warp instructions issued so far */
int mw_sim_l1d_sets(const struct mw_sim *s);
int mw_sim_l1d_assoc(const struct mw_sim *s);
int mw_l1d_mshr_free(const struct mw_sim *s, int sm);
int mw_l1d_set_of(const struct mw_sim *s, uint64_t addr);
/* Would a load of `sectors` of line `line` hit in SM sm's L1D now? No side effects. A line whose sectors are
 * still being filled is not a hit: mw_l1d_lookup tells the cases apart. */
bool mw_l1d_probe(const struct mw_sim *s, int sm, uint64_t line, uint8_t sectors);
enum mw_lookup { MW_LOOKUP_MISS = 0, MW_LOOKUP_HIT, MW_LOOKUP_PENDING /* tag there, sectors on their way */,
                 MW_LOOKUP_PARTIAL /* tag there, some sectors neither valid nor coming */ };
int mw_l1d_lookup(const struct mw_sim *s, int sm, uint64_t line, uint8_t sectors);
int mw_l1d_find(const struct mw_sim *s, int sm, uint64_t line);           /* way holding the line, or -1 */
/* A way of `set` could take a new line now (a free way, or one not waiting for a fill). */
bool mw_l1d_can_allocate(const struct mw_sim *s, int sm, int set);
int mw_l1d_missq_used(const struct mw_sim *s, int sm);                    /* requests waiting to leave the SM */
int mw_l1d_missq_size(const struct mw_sim *s);
/* A line's state as replacement policies see it (meta = the replacement policy's bytes). */
void mw_l1d_line(const struct mw_sim *s, int sm, int set, int way, struct mw_line_view *out);
/* Policy pi's own line_meta_bytes of a line (any point; NULL if it asked for none or the run is not built). */
uint8_t *mw_l1d_meta(const struct mw_sim *s, const struct mw_policy_inst *pi, int sm, int set, int way);
/* Invalidate all of SM sm's L1D lines that are not waiting for a fill (granularity switches). */
void mw_l1d_flush(struct mw_sim *s, int sm);
/* Evict one line (cause MW_EVICT_POLICY) unless it waits for a fill; returns whether it did. */
bool mw_l1d_invalidate(struct mw_sim *s, int sm, int set, int way);
/* SM sm's L1D management granularity (32, 64 or 128 B; the line size until a policy sets it). Setting a larger
 * one flushes that L1D first (DyCache's small-to-big switch); -1 for a granularity that is not 32, 64 or 128
 * (or above the line size). The chunked organisation (l1d.organisation: chunked) hits, fetches and allocates by
 * it; the line organisation only flushes (its fetch is the granularity policy's fetch()). */
int mw_l1d_granularity(const struct mw_sim *s, int sm);
int mw_l1d_set_granularity(struct mw_sim *s, int sm, int g);

/* ---- L2, DRAM, registers, CTAs, schedulers ---- */
int mw_sim_n_slices(const struct mw_sim *s);
int mw_l2_queue_len(const struct mw_sim *s, int slice);       /* requests in its lookup pipe and miss queue */
int mw_dram_queue_len_of(const struct mw_sim *s, int channel);/* requests in the channel's controller queue */
int64_t mw_sm_free_regs(const struct mw_sim *s, int sm);      /* registers not allocated to a resident CTA */
int mw_sm_registers(const struct mw_sim *s);                  /* the register file, 32-bit registers */
int mw_max_ctas(const struct mw_sim *s);
bool mw_cta_resident(const struct mw_sim *s, int sm, int cta);
int mw_cta_regs_of(const struct mw_sim *s, int sm, int cta);  /* registers the resident CTA holds */
int mw_cta_warps(const struct mw_sim *s, int sm, int cta, uint16_t *out, int max); /* its warps; returns count */
bool mw_cta_active(const struct mw_sim *s, int sm, int cta);
int mw_warp_scheduler(const struct mw_sim *s, int sm, int w); /* the scheduler that owns warp slot w */
int mw_sched_warps(const struct mw_sim *s, int sm, int sched, uint16_t *out, int max); /* its live warps */
uint32_t mw_warp_mask(const struct mw_sim *s, int sm, int w);   /* active mask of its head instruction (0: none) */
/* The LDST unit's instructions with a request waiting, in slot order (the list an ldst_scheduler's pick() gets
 * as warps[]): each one's warp, op, instruction id and the request that goes to L1D next (its line, sectors,
 * set). Fills up to max entries and returns how many there are. */
struct mw_ldst_head {
    int warp, op;
    uint64_t inst;
    int index, n;                 /* the head request's position in the instruction's list */
    struct mw_coal_req req;
};
int mw_ldst_heads(const struct mw_sim *s, int sm, struct mw_ldst_head *out, int max);

/* ---- actions ---- */
/* Ask for MW_EV_WINDOW events every `cycles` core cycles, delivered to this policy only (0 = off). */
void mw_window_set(struct mw_policy_inst *pi, uint64_t cycles);
/* Stop scheduling the warps of a resident CTA, or let them run again; 0, or -1 if not resident / no change. */
int mw_cta_deactivate(struct mw_sim *s, int sm, int cta);
int mw_cta_reactivate(struct mw_sim *s, int sm, int cta);
/* Memory traffic that competes like the SM's own requests (leaves through its miss queue port after demand
 * requests, crosses the network, L2 and DRAM): `bytes` from `addr` in whole lines, reads or writes. Read data
 * coming back raises MW_EV_INJECT_DONE (value = tag) once per line, and so does each write's acknowledgement
 * (aux = 1). Returns the number of requests made. */
int mw_inject(struct mw_sim *s, int sm, uint64_t addr, uint32_t bytes, bool write, uint32_t tag);
/* Ask qualify() again for SM sm's warps at core cycle `at` (mw_now: at once). */
void mw_sched_recheck(struct mw_sim *s, int sm, uint64_t at);
/* A counter published in the run's stats as policy.<slot>.<name>; returns its index for mw_policy_count. */
int mw_policy_counter(struct mw_policy_inst *pi, const char *name, const char *desc);
static inline void mw_policy_count(struct mw_policy_inst *pi, int idx, uint64_t delta)
{
    pi->counters.v[idx].value += delta;
}

#endif
