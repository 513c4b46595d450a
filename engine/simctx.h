/* The simulation object as the engine's units see it: the configuration, the installed policies, the clocks,
 * the request pool and the event bus, plus the units themselves, each behind its own header (sm.h, ldst.h,
 * l1d.h, icnt.h, l2.h, partition.h, dram.h). A unit includes this and the headers of the units it calls
 * (downstream along the data path); it never reads another unit's fields. Policies use sim.h instead. */
#ifndef MW_SIMCTX_H
#define MW_SIMCTX_H

#include "config.h"
#include "mem_req.h"
#include "policy.h"
#include "sim.h"
#include "workload.h"

struct mw_sm;
struct mw_l1d;
struct mw_l1i;
struct mw_xbar;
struct mw_l2;
struct mw_partition;

struct mw_clock {
    uint64_t period_fs, next_fs, cycle;
};
enum { MW_CLK_CORE = 0, MW_CLK_ICNT, MW_CLK_L2, MW_CLK_DRAM, MW_CLK_N };

struct mw_gpu_stats {
    uint64_t kernels, ctas;
    /* maximum occupancy of each kernel from its launch facts and the SM's limits (dispatch.c, mw_occupancy):
     * over finished kernels, sums weighted by each kernel's core cycles, and the extremes */
    uint64_t occ_kernels, occ_kernel_start, occ_cycles, occ_reg_cycles, occ_cta_reg_cycles, occ_regs_min,
        occ_regs_max, occ_ctas_min, occ_warp_reg_cycles, occ_warps_min;
    uint32_t occ_ctas, occ_cta_regs, occ_cta_warps; /* the running kernel's */
};

struct mw_sim {
    struct mw_config cfg;
    struct mw_workload wl;
    bool have_wl, started, done, kernel_active, wl_done, failed;
    volatile int interrupt;
    uint64_t stop_launch; /* mw_sim_stop_before_kernel: 0 = off */
    bool stopped_launch;
    struct mw_err fail_err;
    /* kernels and CTAs (dispatch.c) */
    struct mw_kernel kern;
    uint32_t next_cta, kernel_ctas, ctas_done;
    uint64_t warp_seq;
    uint32_t cta_order_rr;
    /* no SM had room for a CTA of this kernel (gst.kernels) when cta_full_done CTAs had finished, and no throttle
     * policy was asked: nothing can be placed before a CTA finishes or a kernel starts (dispatch.c) */
    bool cta_full;
    uint32_t cta_full_done;
    uint64_t cta_full_kernel;
    /* policies and the event bus (events.c) */
    struct mw_policy_inst pol[MW_SLOT_COUNT];
    uint32_t ev_mask;
    uint64_t next_window;        /* earliest of the policies' own windows (MW_NEVER: none) */
    uint64_t inst_seq;           /* last instruction id given out (= warp instructions issued so far) */
    /* code layout (dispatch.c): each distinct kernel name gets its own code address range */
    char (*code_names)[128];
    int ncode, capcode;
    bool pcs_scaled;             /* the front end's PCs are 16 B per instruction (built-in models, Lua), not real */
    size_t l1_meta_bytes;        /* policy bytes per L1D line, all policies together (pi->meta_off splits them) */
    /* clocks */
    struct mw_clock clk[MW_CLK_N];
    uint64_t now_fs;
    struct mw_req_pool pool;
    /* the units */
    struct mw_sm *sms;
    int nsms;
    struct mw_l1d *l1d;          /* one per SM */
    struct mw_l1i *l1i;          /* one per SM (used when l1i.enabled) */
    struct mw_xbar *req_net, *reply_net;
    struct mw_l2 *l2;            /* slices, partition-major */
    int nslices;
    struct mw_partition *parts;  /* L2 slices + DRAM channel + the pipes between them */
    int nparts;
    struct mw_gpu_stats gst;
    /* unit visits (sim.visits_*): an SM's cycle or a reply delivered to it, a slice's L2 cycle, a channel's DRAM
     * cycle, a crossbar cycle with packets to move; what an activity-driven engine spends its time on */
    uint64_t visits_sm, visits_l2, visits_dram, visits_icnt;
    int jump_skip, jump_backoff; /* quiet core cycles before the next clock-jump attempt (engine/sim.c) */
    int sm_turn;                 /* in a core cycle, the SMs at places below this (mw_sm_place) have had their turn */
    uint64_t *sm_asleep;         /* bit per SM: asleep until its sleep_until (engine/sm.c), not visited before */
    uint64_t *slice_wake;        /* per slice (fs), partition-major: the partitions' slice_wake arrays (partition.h) */
    uint64_t reply_due;          /* fs: no reply reaches an SM before (a lower bound, kept by core_tick and the reply network) */
    uint64_t l2_due, dram_due;   /* fs: no L2 slice / DRAM channel needs a visit before (lower bounds, partition.h) */
    uint64_t sm_wake_min;        /* no asleep SM is due before this core cycle (a lower bound) */
    /* the progress watchdog (sim.watchdog_cycles): the signature of progress (warp instructions, packets, CTAs)
     * last seen changing at core cycle wd_since; checked at wd_check. refused_*: the last policy answer that held (refused_pt = point + 1; 0: none)
     * work back (a CTA limit below the resident count + 1, no victim), named when the watchdog stops a run. */
    uint64_t wd_sig, wd_since, wd_check;
    int refused_pt, refused_sm;
    uint64_t refused_at;
    mw_progress_fn progress;
    void *progress_ud;
    int progress_ms;
};

/* Install an initialised policy instance in a slot (a decision point or MW_SLOT_L2_REPLACEMENT). */
int mw_sim_install_slot(struct mw_sim *s, int slot, struct mw_policy_inst *pi, struct mw_err *e);
/* Install a bundle's instance and an instance of each member in its slot; configured[k]: slot k was chosen
 * explicitly by the user (a conflict with a member is an error). */
int mw_sim_install_bundle(struct mw_sim *s, struct mw_policy_inst *bi, const bool *configured, struct mw_err *e);
/* The same into bundle slot `slot` (MW_SLOT_BUNDLE or MW_SLOT_BUNDLE2). In MW_SLOT_BUNDLE2, a member whose slot the
 * first bundle fills is composed with that member (engine/compose.c) where mw_compose_rule allows it. */
int mw_sim_install_bundle_at(struct mw_sim *s, int slot, struct mw_policy_inst *bi, const bool *configured,
                             struct mw_err *e);
/* engine/compose.c: one instance in slot k holding a (already in the slot) and b, deciding by the point's rule;
 * takes both instances (released on failure). 0 or an error. */
int mw_compose_install(struct mw_sim *s, int k, struct mw_policy_inst *b, struct mw_err *e);
/* Policies' start hooks (the machine is built) and finish hooks (the workload completed). */
void mw_policies_start(struct mw_sim *s);
void mw_policies_finish(struct mw_sim *s);
/* Deliver MW_EV_WINDOW to each policy whose window elapsed by the end of core cycle `now`. */
void mw_windows_due(struct mw_sim *s, uint64_t now);

static inline uint64_t mw_core_now(const struct mw_sim *s) { return s->clk[MW_CLK_CORE].cycle; }
/* The core cycle the current instant falls in, the same in every unit (mw_core_now is one more in a unit that
 * ticks after the core in an instant): the latency breakdown's stamps (mem_req.h t_seg). */
static inline uint64_t mw_core_stamp(const struct mw_sim *s) { return s->now_fs / s->clk[MW_CLK_CORE].period_fs; }

/* The code address of a front end's PC in the running kernel (sim.h's mw_code_addr): traces give real code
 * offsets, built-in models and Lua generators one instruction per 16 B, scaled to sm.inst_bytes. */
static inline uint64_t mw_code_addr_of(const struct mw_sim *s, uint64_t pc)
{
    if (s->pcs_scaled) pc = pc / 16 * (uint64_t)s->cfg.sm.inst_bytes;
    return s->kern.code_base + pc;
}

/* The crossbar port of an SM: the SMs of one cluster (icnt.sms_per_cluster consecutive ids) share it. */
static inline int mw_icnt_port(const struct mw_sim *s, int sm) { return sm / (int)s->cfg.icnt.sms_per_cluster; }
/* The SMs of a cluster that id sm shares with: the first id and how many (the last cluster may be short). */
static inline int mw_cluster_of(const struct mw_sim *s, int sm, int *first)
{
    int k = (int)s->cfg.icnt.sms_per_cluster, c = sm / k * k;
    *first = c;
    return s->nsms - c < k ? s->nsms - c : k;
}
/* An SM's place in core cycle `now`'s order of turns: its id, or with icnt.cluster_rotate the cluster's SMs
 * taking turns to go first (GPGPU-Sim 3.x's -gpgpu_simt_core_sim_order 1 moves the first core of a cluster to
 * the back after every cycle): in cycle now the cluster's (now mod m)-th SM goes first. */
static inline int mw_sm_place(const struct mw_sim *s, int sm, uint64_t now)
{
    if (!s->cfg.icnt.cluster_rotate || s->cfg.icnt.sms_per_cluster == 1) return sm;
    int c, m = mw_cluster_of(s, sm, &c);
    return c + (int)(((uint64_t)(sm - c) + (uint64_t)m - now % (uint64_t)m) % (uint64_t)m);
}
/* The SM at place p of core cycle now's order (the inverse of mw_sm_place). */
static inline int mw_sm_at_place(const struct mw_sim *s, int p, uint64_t now)
{
    if (!s->cfg.icnt.cluster_rotate || s->cfg.icnt.sms_per_cluster == 1) return p;
    int c, m = mw_cluster_of(s, p, &c);
    return c + (int)(((uint64_t)(p - c) + now % (uint64_t)m) % (uint64_t)m);
}
static inline int mw_icnt_ports(const struct mw_sim *s)
{
    return (s->nsms + (int)s->cfg.icnt.sms_per_cluster - 1) / (int)s->cfg.icnt.sms_per_cluster;
}

/* ---- the event bus (events.c) ---- */
void mw_emit(struct mw_sim *s, const struct mw_event *ev);
static inline bool mw_wants(const struct mw_sim *s, int kind) { return (s->ev_mask >> kind) & 1u; }
/* A hook returned something out of range: fail the run with "<point> '<policy>': <message>". */
void mw_hook_fail(struct mw_sim *s, const struct mw_policy_inst *pi, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
