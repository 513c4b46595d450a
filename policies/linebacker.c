/* Linebacker (Y. Oh, G. Koo, M. Annavaram, W. W. Ro, ISCA'19; spec/002_linebacker.md): per SM, a Load Monitor over
 * 5-bit hashed load PCs with a tag-only victim tag table (VTT) finds high-locality loads in 50,000-cycle windows;
 * then CTAs are throttled one at a time by the IPC variation between windows, their registers backed up to DRAM
 * through a 6-entry buffer, and the registers above the last one in use serve as a 4-way victim cache in 24 KB
 * partitions (VPs) for L1D victims whose last load was selected. A bundle of replacement (HPC per line, VTT fed by
 * evictions, victim_probe) and cta_throttle (limit on CTA launches while CTAs are throttled). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "rf_banks.h"
#include "sched_state.h"
#include "sim.h"

enum { LB_FULL = 0, LB_SVC, LB_VC };
enum { LB_VP_ALL = 0, LB_VP_DUR }; /* where VPs may live (param vp_space) */
#define LB_VARIANTS "lb|svc|vc"
#define LB_LM 32        /* Load Monitor entries: one per 5-bit hashed PC */
#define LB_MAXCTA 64    /* hardware CTA slots the policy tracks (sm.max_ctas is at most 64) */
#define LB_OPS 128      /* backup / restore operations waiting for the buffer */
#define LB_TAG 0x4C420000u /* mw_inject tag of this policy's traffic (| 1 for a restore) */

struct lb_params {
    int variant;          /* lb: throttling + selective victim caching; svc: selection, SUR only; vc: every victim */
    int64_t window;       /* core cycles of one monitoring / IPC window */
    double hit_threshold; /* a load is high-locality when (L1 + VTT hits) / accesses exceeds this */
    double ipc_upper, ipc_lower;
    int64_t vp_ways, vtt_ways, rn_offset, vp_latency, rf_latency, buffer_entries, min_active_ctas;
    int64_t backup_base;
    bool exact_match;     /* [A2] the selected set must equal the window's whole high-locality set */
    bool merged_as_hit;   /* an L1D miss merged into an MSHR counts as an LM hit */
    bool empty_window_disables; /* after window 2, a window without a high-locality load ends monitoring */
    bool cancel_backup;   /* re-activating a CTA whose backup has not completed reads nothing back */
    bool relocate;        /* a launched or restored CTA takes the lowest free register block (§4.1 "update FRN") */
    int64_t rf_banks;     /* register-file banks (0: no bank model) */
    bool rf_bank_warp_skew; /* operand bank = (register + warp) mod banks */
    int64_t monitor_skip; /* windows after a kernel's start before the LM's window 1 (a measurement; 0 = §3.2) */
    int vp_space;         /* LB_VP_ALL: any register above LRN; LB_VP_DUR: only registers CTAs hold (LB+CacheExt) */
    int64_t vp_sets;      /* sets of the VTT and of each VP (0: the L1D's); L1D set x uses set x mod vp_sets */
};
#define P(f, t, d, lo, hi, ch, h) MW_PARAM(struct lb_params, f, t, d, lo, hi, ch, h)
static const struct mw_param_desc lb_params_desc[] = {
    P(variant, MW_PP_ENUM, "lb", 0, 0, LB_VARIANTS,
      "lb: Throttling+SVC (the full design); svc: selective victim caching in SUR only; vc: every victim, SUR only"),
    P(window, MW_PP_INT, "50000", 100, 1e12, NULL, "core cycles of a monitoring and IPC window (Table 3)"),
    P(hit_threshold, MW_PP_DOUBLE, "0.2", 0, 1, NULL, "LM hit-ratio threshold of a high-locality load (Table 3)"),
    P(ipc_upper, MW_PP_DOUBLE, "0.1", -10, 10, NULL, "IPC_Var above this throttles one more CTA (Table 3)"),
    P(ipc_lower, MW_PP_DOUBLE, "-0.1", -10, 10, NULL, "[A3] IPC_Var below this re-activates a CTA (Table 3, §4.1)"),
    P(vp_ways, MW_PP_INT, "4", 1, 32, NULL, "ways of one VTT partition (VP); a VP holds L1D sets x ways lines"),
    P(vtt_ways, MW_PP_INT, "32", 1, 64, NULL, "ways of the whole VTT (8 VPs of 4 ways); all hold tags while monitoring"),
    P(rn_offset, MW_PP_INT, "512", 0, 1 << 20, NULL, "[A1] Offset of Eq. 2 in warp registers (the paper: 511 / RN 512)"),
    P(vp_latency, MW_PP_INT, "3", 0, 1000, NULL, "core cycles to probe one VP; VPs are probed one after another"),
    P(rf_latency, MW_PP_INT, "1", 0, 1000, NULL,
      "(inferred) core cycles to read a victim line from the RF beyond an L1D hit, before any bank wait"),
    P(buffer_entries, MW_PP_INT, "6", 1, 1024, NULL, "backup / restore buffer entries (one 128 B line each)"),
    P(min_active_ctas, MW_PP_INT, "1", 1, 64, NULL, "(inferred) throttling never leaves fewer active CTAs"),
    P(backup_base, MW_PP_INT, "3221225472", 0, 1e15, NULL,
      "(inferred) off-chip byte address of SM 0's backup area (0xC0000000); SM n's is one register file further"),
    P(exact_match, MW_PP_BOOL, "false", 0, 0, NULL,
      "[A2] §3.2: stop monitoring only when the selected set equals the window's high-locality set"),
    P(merged_as_hit, MW_PP_BOOL, "false", 0, 0, NULL, "(inferred) an L1D miss merged into an MSHR is an LM hit"),
    P(empty_window_disables, MW_PP_BOOL, "true", 0, 0, NULL,
      "(inferred) after window 2, a window with no high-locality load disables Linebacker for the kernel"),
    P(cancel_backup, MW_PP_BOOL, "true", 0, 0, NULL,
      "(inferred) re-activating a CTA before its backup completed (C = 0) stops the backup and reads nothing back: "
      "its registers were never victim space"),
    P(relocate, MW_PP_BOOL, "true", 0, 0, NULL,
      "(inferred, §4.1: a restore updates FRN) a launched or restored CTA takes the lowest free block of #reg "
      "registers, so the registers freed by throttling stay at the top; false: CTA slot c owns block c"),
    P(rf_banks, MW_PP_INT, "16", 0, RFB_MAX_BANKS, NULL,
      "register-file banks with arbitration (policies/rf_banks.h): victim reads and writes, backup reads and restore "
      "writes take the bank of their warp register and wait for operand reads (GPGPU-Sim 3.2.2's GTX480 "
      "-gpgpu_num_reg_banks 16); 0 = no bank model (victim accesses never wait)"),
    P(rf_bank_warp_skew, MW_PP_BOOL, "false", 0, 0, NULL,
      "operand reads of warp w use bank (register + w) mod banks (GPGPU-Sim -gpgpu_reg_bank_use_warp_id, off "
      "by default)"),
    P(monitor_skip, MW_PP_INT, "0", 0, 1000000, NULL,
      "(a measurement, not the paper's) windows after a kernel's start that the Load Monitor lets pass (the VTT fed, "
      "the counts dropped) before its window 1; 0 = monitoring from the kernel's start (§3.2)"),
    P(vp_space, MW_PP_ENUM, "all", 0, 0, "all|dur",
      "where VPs may live: all = any register above the last one in use (SUR + DUR, §4); dur = only registers the "
      "SM's CTAs hold that throttling freed (DUR), a VP enabled once its whole range lies above LRN and within the "
      "allocated registers: LB+CacheExt (§5.5), where the SUR is the enlarged L1D"),
    P(vp_sets, MW_PP_INT, "0", 0, 4096, NULL,
      "(inferred) sets of the VTT and of each VP: 0 = the L1D's (Eq. 2 as §4 gives it; 48 on the paper's machine, a "
      "24 KB VP); N = VPs of N sets x vp_ways lines whatever the L1D, L1D set x using VP set x mod N (LB+CacheExt: "
      "the paper's 24 KB VPs beside an L1D enlarged by the SUR)"),
};
#undef P

/* ---- pure parts: what the tests check on hand-built cases ---------------------------------------------------- */

/* The 5-bit hashed PC: the 32 low PC bits XOR-folded 5 at a time. */
static inline unsigned lb_hpc(uint64_t pc)
{
    uint32_t x = (uint32_t)pc;
    unsigned h = 0;
    for (int i = 0; i < 32; i += 5) h ^= (x >> i) & 31u;
    return h;
}

/* Eq. 2: the warp register holding way y of set x of VP n. */
static inline int lb_rn(int offset, int vp, int sets, int ways, int x, int y)
{
    return offset + vp * sets * ways + x * ways + y;
}

struct lb_lm {
    uint64_t pc;
    uint32_t hit, miss;
    uint8_t valid; /* bit 0: this window's verdict, bit 1: the previous window's */
    bool used;
};

/* A window the Load Monitor lets pass (`monitor_skip`): counts restart, nothing else changes. */
static void lb_lm_drop(struct lb_lm *lm)
{
    for (int i = 0; i < LB_LM; i++) lm[i].hit = lm[i].miss = 0;
}

/* End of a window for the Load Monitor: each entry's verdict (hit ratio above thr) enters bit 0 of its valid field
 * after bit 0 moved to bit 1; counts restart, PC and valid stay. Returns the mask of this window's verdicts. */
static uint32_t lb_lm_window(struct lb_lm *lm, double thr)
{
    uint32_t b = 0;
    for (int i = 0; i < LB_LM; i++) {
        uint32_t n = lm[i].hit + lm[i].miss;
        unsigned v = n && (double)lm[i].hit > thr * (double)n;
        lm[i].valid = (uint8_t)(((lm[i].valid & 1u) << 1) | v);
        lm[i].hit = lm[i].miss = 0;
        b |= (uint32_t)v << i;
    }
    return b;
}
static uint32_t lb_lm_selected(const struct lb_lm *lm)
{
    uint32_t s = 0;
    for (int i = 0; i < LB_LM; i++) s |= (uint32_t)(lm[i].valid == 3) << i;
    return s;
}

enum { LB_MON_CONTINUE = 0, LB_MON_DONE, LB_MON_DISABLE };
/* One window of monitoring: the LM update, then go on, stop with a selection, or disable Linebacker (no load was
 * high-locality in windows 1 and 2). `win` counts windows from the kernel's start (1 = the first). */
static int lb_monitor_step(struct lb_lm *lm, int win, bool *seen, uint32_t *sel, const struct lb_params *p)
{
    uint32_t b = lb_lm_window(lm, p->hit_threshold), prev = 0;
    for (int i = 0; i < LB_LM; i++) prev |= (uint32_t)(lm[i].valid >> 1 & 1u) << i;
    if (win <= 2 && b) *seen = true;
    if (win >= 2 && !*seen) return LB_MON_DISABLE;
    uint32_t s = lb_lm_selected(lm);
    if (s && (!p->exact_match || prev == b)) { /* exact: this window's set is the previous window's */
        *sel = s;
        return LB_MON_DONE;
    }
    if (win > 2 && !b && p->empty_window_disables) return LB_MON_DISABLE;
    return LB_MON_CONTINUE;
}

/* Eq. 1 against the dead band: -1 throttle one more CTA, +1 re-activate one, 0 keep. */
static int lb_ipc_decide(double prev, double cur, double upper, double lower)
{
    if (!(prev > 0)) return 0;
    double v = (cur - prev) / prev;
    return v > upper ? -1 : v < lower ? 1 : 0;
}

/* The victim tag table of one SM: sets x ways entries; way w belongs to VP w / vp_ways. */
struct lb_vent {
    uint64_t line, lru;
    uint8_t valid;
};
struct lb_vtt {
    int sets, ways, vp_ways;
    uint64_t clock;
    struct lb_vent *e;
};
static inline struct lb_vent *vtt_at(struct lb_vtt *v, int set, int way) { return &v->e[set * v->ways + way]; }
/* The VTT set of L1D set x (the identity when the VTT has the L1D's sets). */
static inline int vtt_set(const struct lb_vtt *v, int x) { return x < v->sets ? x : x % v->sets; }
static void vtt_clear(struct lb_vtt *v) { memset(v->e, 0, (size_t)v->sets * (size_t)v->ways * sizeof *v->e); }
static void vtt_clear_vp(struct lb_vtt *v, int vp)
{
    for (int s = 0; s < v->sets; s++)
        for (int w = vp * v->vp_ways; w < (vp + 1) * v->vp_ways && w < v->ways; w++) vtt_at(v, s, w)->valid = 0;
}
/* Ways usable now: all (tag mode, vps = NULL) or those of the VPs in mask *vps. */
static inline bool vtt_way_on(const struct lb_vtt *v, const uint32_t *vps, int w)
{
    return !vps || (*vps >> (w / v->vp_ways) & 1u);
}
/* Look line up, VP by VP in order. Returns the way (or -1) and in *probes the VPs searched (tag mode: 1). */
static int vtt_find(struct lb_vtt *v, const uint32_t *vps, int set, uint64_t line, int *probes)
{
    int n = 0;
    for (int vp = 0; vp * v->vp_ways < v->ways; vp++) {
        if (vps && !(*vps >> vp & 1u)) continue;
        n++;
        for (int w = vp * v->vp_ways; w < (vp + 1) * v->vp_ways && w < v->ways; w++) {
            struct lb_vent *e = vtt_at(v, set, w);
            if (e->valid && e->line == line) {
                if (probes) *probes = vps ? n : 1;
                return w;
            }
        }
    }
    if (probes) *probes = vps ? n : 1;
    return -1;
}
/* Insert line into set: refresh it if present, else an invalid usable way, else the least recently used one.
 * Returns the way, -1 if no way is usable. */
static int vtt_insert(struct lb_vtt *v, const uint32_t *vps, int set, uint64_t line)
{
    int w = vtt_find(v, vps, set, line, NULL), inv = -1, lru = -1;
    if (w < 0) {
        for (int k = 0; k < v->ways; k++) {
            if (!vtt_way_on(v, vps, k)) continue;
            struct lb_vent *e = vtt_at(v, set, k);
            if (!e->valid) {
                if (inv < 0) inv = k;
            } else if (lru < 0 || e->lru < vtt_at(v, set, lru)->lru) {
                lru = k;
            }
        }
        w = inv >= 0 ? inv : lru;
        if (w < 0) return -1;
    }
    struct lb_vent *e = vtt_at(v, set, w);
    e->line = line;
    e->valid = 1;
    e->lru = ++v->clock;
    return w;
}
/* A store: drop the line's entry (victim lines are never dirty). Returns whether there was one. */
static bool vtt_invalidate(struct lb_vtt *v, int set, uint64_t line)
{
    int w = vtt_find(v, NULL, set, line, NULL);
    if (w < 0) return false;
    vtt_at(v, set, w)->valid = 0;
    return true;
}

/* The VPs whose whole register range (Eq. 2) lies above lrn and at or below top (the last warp register they may
 * use). */
static uint32_t lb_vps_between(int lrn, int top, int offset, int sets, int vp_ways, int nvp)
{
    uint32_t m = 0;
    int per = sets * vp_ways;
    for (int n = 0; n < nvp; n++) {
        int first = lb_rn(offset, n, sets, vp_ways, 0, 0), last = first + per - 1;
        if (first > lrn && last <= top) m |= 1u << n;
    }
    return m;
}

/* The VPs above lrn and inside the register file (wregs warp registers). */
static uint32_t lb_vps_above(int lrn, int offset, int sets, int vp_ways, int nvp, int wregs)
{
    return lb_vps_between(lrn, wregs - 1, offset, sets, vp_ways, nvp);
}

/* The VPs enabled with LRN lrn: vp_space all, those above lrn inside the register file (wregs warp registers);
 * dur, those above lrn and inside the alloc warp registers the SM's CTAs hold (throttled ones included): only
 * registers throttling freed, never the SUR above them. */
static uint32_t lb_vp_mask(int vp_space, int lrn, int alloc, int wregs, int offset, int sets, int vp_ways, int nvp)
{
    if (vp_space == LB_VP_DUR) return lb_vps_between(lrn, alloc - 1, offset, sets, vp_ways, nvp);
    return lb_vps_above(lrn, offset, sets, vp_ways, nvp, wregs);
}

/* Register blocks of #reg warp registers: blk[c] is the block CTA slot c holds, -1 if none. The lowest block no slot
 * holds (n if all are held), and LRN: the last warp register of the highest block held, -1 if none. */
static int lb_lowest_free_block(const int *blk, int n)
{
    for (int b = 0; b < n; b++) {
        bool held = false;
        for (int c = 0; c < n && !held; c++) held = blk[c] == b;
        if (!held) return b;
    }
    return n;
}
static int lb_lrn_blocks(const int *blk, int n, int cta_wregs)
{
    int top = -1;
    for (int c = 0; c < n; c++)
        if (blk[c] > top) top = blk[c];
    return top < 0 ? -1 : (top + 1) * cta_wregs - 1;
}

/* CacheExt (§2.4, the paper's ideal baseline): the L1D enlarged by the statically unused registers (SUR: the
 * register file minus the most registers the app ever holds on one SM), in whole sets of assoc lines so that the
 * associativity and line size stay. Bytes throughout. */
static int64_t lb_cacheext_l1d_bytes(int64_t l1d, int64_t rf, int64_t peak, int64_t assoc, int64_t line)
{
    int64_t sur = rf > peak ? rf - peak : 0, set = assoc * line;
    return l1d + sur / set * set;
}

/* ---- per-SM state ----------------------------------------------------------------------------------------------- */
enum { LB_MODE_MON = 0, LB_MODE_ON, LB_MODE_OFF };
struct lb_cta {
    bool throttled;  /* ACT = 0: deactivated by the policy */
    bool backed;     /* C: the backup completed, its registers are victim space */
    bool restoring;
    uint64_t ba;     /* backup address */
};
struct lb_op {
    int cta;
    bool restore, cancelled;
    uint64_t addr;
    int lines, issued, done;
    int rn0;      /* first warp register of the CTA's block (-1: unknown), for the bank model */
};
struct lb_sm {
    int mode, win;
    bool seen;
    uint32_t sel;
    struct lb_lm lm[LB_LM];
    struct lb_vtt vtt;
    uint32_t vps;            /* enabled VPs (mode ON) */
    uint64_t insts_at;       /* warp instructions at the window's start */
    double prev_ipc, cur_ipc;
    int target;              /* CTAs allowed to be active or restoring */
    int stack[LB_MAXCTA], nstack; /* throttled CTAs, the last throttled on top (LIFO, as BP) */
    uint64_t bp, bp0;
    int cta_wregs;           /* warp registers of one CTA of the running kernel (#reg) */
    struct lb_cta cta[LB_MAXCTA];
    int blk[LB_MAXCTA];      /* register block held by each CTA slot (resident and not backed up), -1: none */
    struct lb_op ops[LB_OPS];
    int op_head, op_n, inflight;
};
struct lb_state {
    int nsms, nvp, wregs, max_ctas, hit_latency;
    struct lb_sm *sm;
    int c_reg_hits, c_inserts, c_store_inv, c_throttles, c_reacts, c_backup, c_restore, c_sel, c_hpcs, c_monwin,
        c_disabled, c_vp_windows, c_windows, c_drops, c_cancels, c_peak, c_cacheext;
    int64_t peak_regs;
    struct rfb_sm *rfb;      /* per SM, NULL without a bank model */
    struct rfb_count rfc;
    int c_rf_reads, c_rf_conf, c_rf_acc, c_rf_aconf, c_rf_wait;
    struct lb_space *space;  /* victim-space accounting (F9, F10), the block "victim space over time" below */
};
static int lb_space_create(struct mw_policy_inst *pi);
static void lb_space_destroy(struct lb_state *st);

static int lb_create(struct mw_policy_inst *pi, struct mw_err *e)
{
    (void)e;
    struct lb_state *st = calloc(1, sizeof *st);
    if (!st) return -1;
    pi->state = st;
    st->c_reg_hits = mw_policy_counter(pi, "reg_hits", "L1D misses served from the register-file victim cache");
    st->c_inserts = mw_policy_counter(pi, "vc_inserts", "L1D victims written into the register file");
    st->c_drops = mw_policy_counter(pi, "vc_dropped", "L1D victims of selected loads with no VP enabled");
    st->c_store_inv = mw_policy_counter(pi, "vc_store_invalidates", "victim lines invalidated by a store");
    st->c_throttles = mw_policy_counter(pi, "throttles", "CTAs deactivated (registers backed up)");
    st->c_reacts = mw_policy_counter(pi, "reactivations", "throttled CTAs restored and re-activated");
    st->c_backup = mw_policy_counter(pi, "backup_bytes", "register bytes written off-chip");
    st->c_restore = mw_policy_counter(pi, "restore_bytes", "register bytes read back");
    st->c_sel = mw_policy_counter(pi, "selected_loads", "LM entries selected, summed over SMs and kernels");
    st->c_hpcs = mw_policy_counter(pi, "selected_hpcs", "bit h set: some SM selected hashed PC h");
    st->c_monwin = mw_policy_counter(pi, "monitor_windows", "windows until monitoring ended, summed over SMs");
    st->c_disabled = mw_policy_counter(pi, "disabled", "SM-kernels where no load was high-locality in windows 1-2");
    st->c_vp_windows = mw_policy_counter(pi, "vp_windows", "enabled VPs summed over window ends and SMs");
    st->c_windows = mw_policy_counter(pi, "windows", "window ends summed over SMs");
    st->c_cancels = mw_policy_counter(pi, "backups_cancelled", "CTAs re-activated before their backup completed");
    st->c_peak = mw_policy_counter(pi, "peak_reg_bytes", "most register bytes allocated on one SM at once");
    st->c_cacheext = mw_policy_counter(pi, "cacheext_l1d_bytes",
                                       "CacheExt's L1D: this L1D + the SUR (RF - peak_reg_bytes) in whole sets");
    st->c_rf_reads = mw_policy_counter(pi, "rf_operand_reads", "source-register reads of issued instructions (bank model)");
    st->c_rf_conf = mw_policy_counter(pi, "rf_bank_conflicts",
                                      "register-file accesses that found their bank taken: operand reads + the rest");
    st->c_rf_acc = mw_policy_counter(pi, "rf_cache_accesses",
                                     "register-file accesses that are not operand reads: victim line reads and writes, "
                                     "backup reads, restore writes");
    st->c_rf_aconf = mw_policy_counter(pi, "rf_cache_conflicts", "rf_cache_accesses that waited for their bank");
    st->c_rf_wait = mw_policy_counter(pi, "rf_cache_wait", "core cycles rf_cache_accesses waited for their banks");
    if (lb_space_create(pi)) return -1;
    return 0;
}
static void lb_destroy(struct mw_policy_inst *pi)
{
    struct lb_state *st = pi->state;
    if (!st) return;
    if (st->sm)
        for (int i = 0; i < st->nsms; i++) free(st->sm[i].vtt.e);
    free(st->sm);
    free(st->rfb);
    lb_space_destroy(st);
    free(st);
    pi->state = NULL;
}

static void sm_kernel_reset(struct lb_state *st, const struct lb_params *p, struct lb_sm *m)
{
    m->mode = p->variant == LB_VC ? LB_MODE_ON : LB_MODE_MON;
    m->win = 0;
    m->seen = false;
    m->sel = 0;
    memset(m->lm, 0, sizeof m->lm);
    vtt_clear(&m->vtt);
    m->vps = 0;
    m->prev_ipc = m->cur_ipc = 0;
    m->target = st->max_ctas;
}

static void lb_start(struct mw_policy_inst *pi)
{
    struct lb_state *st = pi->state;
    const struct lb_params *p = pi->params;
    struct mw_sim *s = pi->sim;
    st->nsms = mw_n_sms(s);
    st->wregs = mw_sm_registers(s) / 32;
    st->max_ctas = mw_max_ctas(s) < LB_MAXCTA ? mw_max_ctas(s) : LB_MAXCTA;
    st->hit_latency = (int)mw_sim_config(s)->l1d.hit_latency;
    int sets = p->vp_sets ? (int)p->vp_sets : mw_sim_l1d_sets(s), vw = (int)p->vp_ways, ways = (int)p->vtt_ways / vw * vw;
    if (ways < vw) ways = vw;
    int room = st->wregs - (int)p->rn_offset;
    st->nvp = ways / vw;
    if (room / (sets * vw) < st->nvp) st->nvp = room > 0 ? room / (sets * vw) : 0;
    st->sm = calloc((size_t)st->nsms, sizeof *st->sm);
    if (!st->sm) abort(); /* a few KB per SM */
    for (int i = 0; i < st->nsms; i++) {
        struct lb_sm *m = &st->sm[i];
        m->vtt = (struct lb_vtt){.sets = sets, .ways = ways, .vp_ways = vw};
        m->vtt.e = calloc((size_t)sets * (size_t)ways, sizeof *m->vtt.e);
        if (!m->vtt.e) abort();
        m->bp = m->bp0 = (uint64_t)p->backup_base + (uint64_t)i * (uint64_t)mw_sm_registers(s) * 4u;
        for (int c = 0; c < LB_MAXCTA; c++) m->blk[c] = -1;
        sm_kernel_reset(st, p, m);
    }
    if (p->rf_banks > 0) {
        st->rfb = calloc((size_t)st->nsms, sizeof *st->rfb);
        if (!st->rfb) abort();
    }
    mw_window_set(pi, (uint64_t)p->window);
}

/* ---- register-file banks ---- */
static void rf_sync(struct mw_policy_inst *bi)
{
    struct lb_state *st = bi->state;
    bi->counters.v[st->c_rf_reads].value = st->rfc.operand_reads;
    bi->counters.v[st->c_rf_conf].value = st->rfc.operand_conflicts + st->rfc.victim_conflicts;
    bi->counters.v[st->c_rf_acc].value = st->rfc.victim_accesses;
    bi->counters.v[st->c_rf_aconf].value = st->rfc.victim_conflicts;
    bi->counters.v[st->c_rf_wait].value = st->rfc.victim_wait;
}
/* A line read or written in warp register rn of SM sm now: the cycles it waits for its bank (0 without banks). */
static int rf_access(struct mw_policy_inst *bi, int sm, int rn)
{
    struct lb_state *st = bi->state;
    const struct lb_params *p = bi->params;
    if (!st->rfb || rn < 0) return 0;
    int d = rfb_victim(&st->rfb[sm], &st->rfc, rn, mw_now(bi->sim), (int)p->rf_banks);
    rf_sync(bi);
    return d;
}
/* The warp register of VTT way w of set x (Eq. 2). */
static int vtt_rn(const struct lb_params *p, const struct lb_vtt *v, int x, int w)
{
    return lb_rn((int)p->rn_offset, w / v->vp_ways, v->sets, v->vp_ways, x, w % v->vp_ways);
}

/* LRN: the last warp register of a block held by a CTA slot (resident and not backed up), -1 if none. Without
 * `relocate`, CTA slot c owns warp registers [c #reg, (c+1) #reg) (slots are filled lowest first). */
static int sm_lrn(const struct lb_sm *m, int max_ctas) { return lb_lrn_blocks(m->blk, max_ctas, m->cta_wregs); }
static void sm_take_block(const struct lb_params *p, struct lb_sm *m, int max_ctas, int c)
{
    m->blk[c] = -1;
    m->blk[c] = p->relocate ? lb_lowest_free_block(m->blk, max_ctas) : c;
}
static void sm_update_vps(struct lb_state *st, const struct lb_params *p, struct mw_sim *s, int sm)
{
    struct lb_sm *m = &st->sm[sm];
    if (m->mode != LB_MODE_ON) return;
    int alloc = p->vp_space == LB_VP_DUR ? (int)((mw_sm_registers(s) - mw_sm_free_regs(s, sm)) / 32) : st->wregs;
    uint32_t now = lb_vp_mask(p->vp_space, sm_lrn(m, st->max_ctas), alloc, st->wregs, (int)p->rn_offset,
                              m->vtt.sets, m->vtt.vp_ways, st->nvp);
    uint32_t off = m->vps & ~now;
    for (int vp = 0; vp < st->nvp; vp++)
        if (off >> vp & 1u) vtt_clear_vp(&m->vtt, vp); /* registers taken back: their lines are overwritten */
    m->vps = now;
}

/* ---- backup / restore through the buffer ---- */
static void ops_pump(struct mw_policy_inst *pi, int sm);
static void ops_push(struct mw_policy_inst *pi, int sm, int cta, bool restore, uint64_t addr)
{
    struct lb_state *st = pi->state;
    struct lb_sm *m = &st->sm[sm];
    if (m->op_n == LB_OPS) return; /* cannot happen: at most one backup and one restore per CTA slot */
    struct lb_op *o = &m->ops[(m->op_head + m->op_n++) % LB_OPS];
    *o = (struct lb_op){.cta = cta, .restore = restore, .addr = addr, .lines = m->cta_wregs,
                        .rn0 = m->blk[cta] >= 0 ? m->blk[cta] * m->cta_wregs : -1};
    ops_pump(pi, sm);
}
static void op_complete(struct mw_policy_inst *pi, int sm, const struct lb_op *o)
{
    struct lb_state *st = pi->state;
    const struct lb_params *p = pi->params;
    struct lb_sm *m = &st->sm[sm];
    if (o->restore) {
        m->cta[o->cta].restoring = false;
        m->cta[o->cta].throttled = false;
        mw_cta_reactivate(pi->sim, sm, o->cta);
        mw_policy_count(pi, st->c_reacts, 1);
    } else if (!o->cancelled && m->cta[o->cta].throttled && !m->cta[o->cta].restoring) {
        /* (a backup that ends while its CTA is being restored, cancel_backup off, leaves the restore's block held) */
        m->cta[o->cta].backed = true; /* C = 1: the VPs in its registers may be enabled */
        m->blk[o->cta] = -1;
        sm_update_vps(st, p, pi->sim, sm);
    }
}
static void ops_pump(struct mw_policy_inst *pi, int sm)
{
    struct lb_state *st = pi->state;
    const struct lb_params *p = pi->params;
    struct lb_sm *m = &st->sm[sm];
    while (m->op_n) {
        struct lb_op *o = &m->ops[m->op_head];
        if (o->done == o->lines) {
            struct lb_op done = *o;
            m->op_head = (m->op_head + 1) % LB_OPS;
            m->op_n--;
            op_complete(pi, sm, &done);
            continue;
        }
        while (o->issued < o->lines && m->inflight < p->buffer_entries) {
            mw_inject(pi->sim, sm, o->addr + (uint64_t)o->issued * 128u, 128, !o->restore, LB_TAG | o->restore);
            if (!o->restore && o->rn0 >= 0) rf_access(pi, sm, o->rn0 + o->issued); /* the backup reads the register */
            mw_policy_count(pi, o->restore ? st->c_restore : st->c_backup, 128);
            o->issued++;
            m->inflight++;
        }
        return;
    }
}

/* ---- throttling ---- */
static int sm_active_ctas(struct mw_sim *s, int sm, const struct lb_sm *m, int max_ctas)
{
    int n = 0;
    for (int c = 0; c < max_ctas; c++) n += mw_cta_resident(s, sm, c) && !m->cta[c].throttled;
    return n;
}
static bool cta_has_live_warp(struct mw_sim *s, int sm, int c)
{
    uint16_t w[256];
    int n = mw_cta_warps(s, sm, c, w, 256);
    for (int i = 0; i < n && i < 256; i++)
        if (mw_warp_active(s, sm, w[i])) return true;
    return false;
}
/* Deactivate the active CTA with the largest hardware id and back up its registers. */
static void sm_throttle(struct mw_policy_inst *pi, int sm)
{
    struct lb_state *st = pi->state;
    const struct lb_params *p = pi->params;
    struct lb_sm *m = &st->sm[sm];
    struct mw_sim *s = pi->sim;
    if (sm_active_ctas(s, sm, m, st->max_ctas) <= p->min_active_ctas) return;
    /* the CTAs by block, highest first (without `relocate` block c is slot c: the largest hardware id first) */
    int order[LB_MAXCTA], n = 0;
    for (int c = 0; c < st->max_ctas; c++)
        if (m->blk[c] >= 0) order[n++] = c;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && m->blk[order[j]] > m->blk[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1], order[j - 1] = t;
        }
    for (int i = 0; i < n; i++) {
        int c = order[i];
        if (!mw_cta_resident(s, sm, c) || m->cta[c].throttled || !mw_cta_active(s, sm, c)) continue;
        if (!cta_has_live_warp(s, sm, c)) continue;
        if (mw_cta_deactivate(s, sm, c)) return;
        m->cta[c] = (struct lb_cta){.throttled = true, .ba = m->bp};
        m->stack[m->nstack++] = c;
        uint64_t addr = m->bp;
        m->bp += (uint64_t)m->cta_wregs * 128u;
        m->target = sm_active_ctas(s, sm, m, st->max_ctas);
        mw_policy_count(pi, st->c_throttles, 1);
        ops_push(pi, sm, c, false, addr);
        return;
    }
}
/* Restore the CTA on top of the stack (the last throttled, at BP - #reg x 128). Returns whether there was one. */
static bool sm_restore_top(struct mw_policy_inst *pi, int sm)
{
    struct lb_state *st = pi->state;
    const struct lb_params *p = pi->params;
    struct lb_sm *m = &st->sm[sm];
    if (!m->nstack) return false;
    int c = m->stack[--m->nstack];
    m->bp -= (uint64_t)m->cta_wregs * 128u;
    if (!m->cta[c].backed && p->cancel_backup) {
        /* C = 0: the registers still hold the CTA's values and no victim line was written there. Lines already in
         * flight drain; the rest of the backup is dropped and the CTA runs again at once. */
        for (int i = 0; i < m->op_n; i++) {
            struct lb_op *o = &m->ops[(m->op_head + i) % LB_OPS];
            if (o->cta == c && !o->restore && !o->cancelled) o->lines = o->issued, o->cancelled = true;
        }
        m->cta[c].throttled = false;
        mw_cta_reactivate(pi->sim, sm, c);
        mw_policy_count(pi, st->c_reacts, 1);
        mw_policy_count(pi, st->c_cancels, 1);
        ops_pump(pi, sm);
        return true;
    }
    m->cta[c].backed = false;
    m->cta[c].restoring = true;
    sm_take_block(p, m, st->max_ctas, c);
    sm_update_vps(st, p, pi->sim, sm); /* its registers stop being victim space before the data comes back */
    ops_push(pi, sm, c, true, m->cta[c].ba);
    return true;
}

/* ---- window end ---- */
static void sm_window(struct mw_policy_inst *pi, int sm)
{
    struct lb_state *st = pi->state;
    const struct lb_params *p = pi->params;
    struct lb_sm *m = &st->sm[sm];
    struct mw_sim *s = pi->sim;
    uint64_t insts = mw_sm_warp_insts(s, sm);
    m->prev_ipc = m->cur_ipc;
    m->cur_ipc = (double)(insts - m->insts_at) / (double)p->window;
    m->insts_at = insts;
    m->win++;
    mw_policy_count(pi, st->c_windows, 1);
    if (m->mode == LB_MODE_MON && m->win <= p->monitor_skip) {
        lb_lm_drop(m->lm);
    } else if (m->mode == LB_MODE_MON) {
        int r = lb_monitor_step(m->lm, m->win - (int)p->monitor_skip, &m->seen, &m->sel, p);
        if (r == LB_MON_DISABLE) {
            m->mode = LB_MODE_OFF;
            vtt_clear(&m->vtt);
            mw_policy_count(pi, st->c_disabled, 1);
        } else if (r == LB_MON_DONE) {
            m->mode = LB_MODE_ON;
            vtt_clear(&m->vtt); /* the tags of the monitoring period have no data */
            mw_policy_count(pi, st->c_sel, (uint64_t)__builtin_popcount(m->sel));
            pi->counters.v[st->c_hpcs].value |= m->sel;
            mw_policy_count(pi, st->c_monwin, (uint64_t)m->win);
            sm_update_vps(st, p, s, sm);
            if (p->variant == LB_FULL) sm_throttle(pi, sm); /* assume throttling helps */
        }
    } else if (m->mode == LB_MODE_ON && p->variant == LB_FULL) {
        int d = lb_ipc_decide(m->prev_ipc, m->cur_ipc, p->ipc_upper, p->ipc_lower);
        if (d < 0) {
            sm_throttle(pi, sm);
        } else if (d > 0 && !sm_restore_top(pi, sm)) {
            if (m->target < st->max_ctas) m->target++;
        }
    }
    if (m->mode == LB_MODE_ON) mw_policy_count(pi, st->c_vp_windows, (uint64_t)__builtin_popcount(m->vps));
}

static void lm_count(struct lb_sm *m, uint64_t pc, bool hit)
{
    struct lb_lm *e = &m->lm[lb_hpc(pc)];
    if (!e->used) e->used = true, e->pc = pc;
    if (hit) e->hit++;
    else e->miss++;
}

/* The SUR measure: registers allocated on an SM after a CTA launch, the most so far, and CacheExt's L1D from it. */
static void note_peak(struct mw_policy_inst *pi, int sm)
{
    struct lb_state *st = pi->state;
    const struct mw_config *c = mw_sim_config(pi->sim);
    int64_t used = (int64_t)mw_sm_registers(pi->sim) - mw_sm_free_regs(pi->sim, sm);
    if (used <= st->peak_regs) return;
    st->peak_regs = used;
    pi->counters.v[st->c_peak].value = (uint64_t)used * 4u;
    pi->counters.v[st->c_cacheext].value = (uint64_t)lb_cacheext_l1d_bytes(
        c->l1d.size_bytes, (int64_t)mw_sm_registers(pi->sim) * 4, used * 4, c->l1d.assoc, c->l1d.line_bytes);
}

static void lb_event_core(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    struct lb_state *st = pi->state;
    const struct lb_params *p = pi->params;
    struct mw_sim *s = pi->sim;
    if (!st->sm) return;
    if (ev->kind == MW_EV_WINDOW) {
        for (int i = 0; i < st->nsms; i++) sm_window(pi, i);
        return;
    }
    if (ev->kind == MW_EV_KERNEL_START) {
        for (int i = 0; i < st->nsms; i++) {
            sm_kernel_reset(st, p, &st->sm[i]);
            st->sm[i].insts_at = mw_sm_warp_insts(s, i);
        }
        mw_window_set(pi, (uint64_t)p->window); /* windows count from the kernel's start */
        return;
    }
    if (ev->sm < 0 || ev->sm >= st->nsms) return;
    struct lb_sm *m = &st->sm[ev->sm];
    switch (ev->kind) {
    case MW_EV_L1D_HIT:
        if (m->mode == LB_MODE_MON) lm_count(m, ev->pc, true);
        break;
    case MW_EV_L1D_MISS:
        if (m->mode != LB_MODE_MON) break;
        if (ev->value) lm_count(m, ev->pc, p->merged_as_hit);
        else lm_count(m, ev->pc, vtt_find(&m->vtt, NULL, vtt_set(&m->vtt, ev->set), ev->addr, NULL) >= 0);
        break;
    case MW_EV_L1D_STORE:
        if (vtt_invalidate(&m->vtt, vtt_set(&m->vtt, ev->set), ev->addr) && m->mode == LB_MODE_ON)
            mw_policy_count(pi, st->c_store_inv, 1);
        break;
    case MW_EV_CTA_LAUNCH:
        if (ev->cta >= 0 && ev->cta < LB_MAXCTA) {
            m->cta[ev->cta] = (struct lb_cta){0};
            m->cta_wregs = (mw_cta_regs_of(s, ev->sm, ev->cta) + 31) / 32;
            sm_take_block(p, m, st->max_ctas, ev->cta);
        }
        note_peak(pi, ev->sm);
        sm_update_vps(st, p, s, ev->sm);
        break;
    case MW_EV_CTA_DONE:
        if (ev->cta >= 0 && ev->cta < LB_MAXCTA) m->cta[ev->cta] = (struct lb_cta){0}, m->blk[ev->cta] = -1;
        if (p->variant == LB_FULL) sm_restore_top(pi, ev->sm); /* a throttled CTA goes before a new one */
        sm_update_vps(st, p, s, ev->sm);
        break;
    case MW_EV_INJECT_DONE:
        if ((ev->value & ~1u) != LB_TAG) break;
        if (m->inflight) m->inflight--;
        if (m->op_n) {
            struct lb_op *o = &m->ops[m->op_head];
            if (o->restore && o->rn0 >= 0) rf_access(pi, ev->sm, o->rn0 + o->done); /* restored into the RF */
            o->done++;
        }
        ops_pump(pi, ev->sm);
        break;
    default: break;
    }
}

/* ---- victim space over time (§5 Fig. 9, §5.1 Fig. 10) ------------------------------------------------------------
 * Time-weighted sums, per SM, of the register space Linebacker could use as victim storage, accounted when it changes
 * (a CTA launched or done, a backup or restore line, a window end, a kernel start) and at the run's end; summed over
 * the SM-cycles in which the SM holds a CTA (resident, throttled or not). In bytes:
 *   held   = the register blocks of CTAs not backed up (resident and running, throttled with the backup under way, or
 *            being restored);
 *   DUR    = the blocks of throttled CTAs whose backup completed (C = 1): the dynamically unused registers;
 *   static = the RF - held - DUR: registers no CTA holds (statically unused, empty CTA slots included);
 *   VP     = the VPs enabled (victim storage in use: 0 while monitoring or disabled);
 *   fit    = the VPs whose Eq. 2 range lies above LRN and inside the RF whatever the mode: the victim-usable bytes at
 *            the VP granularity (sets x vp_ways x 128 B), F10's numerator; F10 = fit / (static + DUR).
 * The averages are sum / space_sm_cycles (the paper: "the sum of dynamic unused space in each cycle by total execution
 * cycles"). The SM-kernels whose monitoring ended with a selection, and those that ended by window 2 (Fig. 9's
 * "within two periods"), are counted at the window end that selects. */
struct lb_space_sm {
    uint64_t last;                                /* cycle the rates below hold from */
    uint64_t held, dur, stat, vp, fit;            /* bytes now */
    bool busy;                                    /* holds a CTA */
    int mode_before;                              /* the SM's mode before a window end */
};
struct lb_space_now {
    uint64_t held, dur, stat, vp, fit;
    bool busy;
};
struct lb_space {
    int c_cycles, c_dur, c_stat, c_vp, c_fit, c_held, c_selsk, c_sel2;
    int nsms;
    struct lb_space_sm *sm;
};

/* What one SM's state gives now (pure: tests call it on hand-built states). */
static struct lb_space_now lb_space_of(const struct lb_sm *m, int max_ctas, int wregs, int nvp, int rn_offset)
{
    struct lb_space_now r = {0};
    uint64_t blk = (uint64_t)m->cta_wregs * 128u;
    int nheld = 0, ndur = 0;
    for (int c = 0; c < max_ctas; c++) {
        nheld += m->blk[c] >= 0;
        ndur += m->cta[c].throttled && m->cta[c].backed && m->blk[c] < 0;
        r.busy |= m->blk[c] >= 0 || m->cta[c].throttled;
    }
    uint64_t rf = (uint64_t)wregs * 128u, vpb = (uint64_t)m->vtt.sets * (uint64_t)m->vtt.vp_ways * 128u;
    r.held = (uint64_t)nheld * blk;
    r.dur = (uint64_t)ndur * blk;
    r.stat = rf > r.held + r.dur ? rf - r.held - r.dur : 0;
    r.vp = m->mode == LB_MODE_ON ? (uint64_t)__builtin_popcount(m->vps) * vpb : 0;
    r.fit = (uint64_t)__builtin_popcount(lb_vps_above(sm_lrn(m, max_ctas), rn_offset, m->vtt.sets, m->vtt.vp_ways,
                                                      nvp, wregs)) * vpb;
    return r;
}
/* Accrue the SM's current rates from their start to `now`, then take new ones. */
static void lb_space_advance(struct lb_space_sm *a, uint64_t now, const struct lb_space_now *n, uint64_t *sums)
{
    if (a->busy && now > a->last) {
        uint64_t dt = now - a->last;
        sums[0] += dt, sums[1] += a->dur * dt, sums[2] += a->stat * dt, sums[3] += a->vp * dt, sums[4] += a->fit * dt;
        sums[5] += a->held * dt;
    }
    a->last = now;
    a->busy = n->busy;
    a->held = n->held, a->dur = n->dur, a->stat = n->stat, a->vp = n->vp, a->fit = n->fit;
}
static int lb_space_create(struct mw_policy_inst *pi)
{
    struct lb_state *st = pi->state;
    struct lb_space *sp = calloc(1, sizeof *sp);
    if (!sp) return -1;
    st->space = sp;
    sp->c_cycles = mw_policy_counter(pi, "space_sm_cycles", "SM-cycles in which the SM held a CTA (the averages' base)");
    sp->c_dur = mw_policy_counter(pi, "dur_byte_cycles",
                                  "register bytes of throttled CTAs whose backup completed (DUR) x cycles, summed over SMs");
    sp->c_stat = mw_policy_counter(pi, "sur_byte_cycles",
                                   "register bytes no CTA holds (statically unused) x cycles, summed over SMs");
    sp->c_vp = mw_policy_counter(pi, "vp_byte_cycles", "bytes of the enabled VPs x cycles, summed over SMs");
    sp->c_fit = mw_policy_counter(pi, "vp_fit_byte_cycles",
                                  "bytes of the VPs that fit above LRN (any mode) x cycles, summed over SMs");
    sp->c_held = mw_policy_counter(pi, "held_byte_cycles", "register bytes held by CTAs not backed up x cycles");
    sp->c_selsk = mw_policy_counter(pi, "selected_sm_kernels", "SM-kernels whose monitoring ended with a selection");
    sp->c_sel2 = mw_policy_counter(pi, "selected_by_window2", "of those, SM-kernels that selected by window 2");
    return 0;
}
static void lb_space_destroy(struct lb_state *st)
{
    if (!st->space) return;
    free(st->space->sm);
    free(st->space);
}
static int lb_space_alloc(struct lb_state *st)
{
    struct lb_space *sp = st->space;
    if (!sp->sm) {
        sp->sm = calloc((size_t)st->nsms, sizeof *sp->sm);
        if (!sp->sm) abort(); /* a few words per SM */
        sp->nsms = st->nsms;
    }
    return 0;
}
static void lb_space_note(struct mw_policy_inst *pi, int sm)
{
    struct lb_state *st = pi->state;
    const struct lb_params *p = pi->params;
    struct lb_space *sp = st->space;
    if (!sp || !st->sm || sm < 0 || sm >= st->nsms || lb_space_alloc(st)) return;
    struct lb_space_now n = lb_space_of(&st->sm[sm], st->max_ctas, st->wregs, st->nvp, (int)p->rn_offset);
    uint64_t sums[6] = {0};
    lb_space_advance(&sp->sm[sm], mw_now(pi->sim), &n, sums);
    mw_policy_count(pi, sp->c_cycles, sums[0]);
    mw_policy_count(pi, sp->c_dur, sums[1]);
    mw_policy_count(pi, sp->c_stat, sums[2]);
    mw_policy_count(pi, sp->c_vp, sums[3]);
    mw_policy_count(pi, sp->c_fit, sums[4]);
    mw_policy_count(pi, sp->c_held, sums[5]);
}
/* The events that change what lb_space_of sees; the others (L1D hits, misses, stores) only pass through. */
static void lb_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    struct lb_state *st = pi->state;
    bool on = st->sm && st->space && !lb_space_alloc(st);
    if (on && ev->kind == MW_EV_WINDOW)
        for (int i = 0; i < st->nsms; i++) st->space->sm[i].mode_before = st->sm[i].mode;
    lb_event_core(pi, ev);
    if (!on) return;
    switch (ev->kind) {
    case MW_EV_WINDOW:
        for (int i = 0; i < st->nsms; i++)
            if (st->space->sm[i].mode_before == LB_MODE_MON && st->sm[i].mode == LB_MODE_ON && st->sm[i].sel) {
                mw_policy_count(pi, st->space->c_selsk, 1);
                if (st->sm[i].win - (int)((const struct lb_params *)pi->params)->monitor_skip <= 2)
                    mw_policy_count(pi, st->space->c_sel2, 1);
            }
        /* fall through */
    case MW_EV_KERNEL_START:
        for (int i = 0; i < st->nsms; i++) lb_space_note(pi, i);
        break;
    case MW_EV_CTA_LAUNCH:
    case MW_EV_CTA_DONE:
    case MW_EV_INJECT_DONE: lb_space_note(pi, ev->sm); break;
    default: break;
    }
}
static void lb_finish(struct mw_policy_inst *pi)
{
    struct lb_state *st = pi->state;
    if (!st->sm) return;
    for (int i = 0; i < st->nsms; i++) lb_space_note(pi, i);
}

/* ---- replacement member: HPC per line, VTT fed by L1D victims, victim_probe ---- */
static void r_insert(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *l)
{
    (void)pi, (void)sm, (void)set, (void)way;
    if (l->meta) *(uint8_t *)l->meta = (uint8_t)lb_hpc(l->pc);
}
static void r_touch(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *l)
{
    r_insert(pi, sm, set, way, l);
}
static void r_evicted(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *l, int cause)
{
    (void)way;
    struct lb_state *st = pi->bundle->state;
    const struct lb_params *p = pi->bundle->params;
    if (cause != MW_EVICT_REPLACE || !st->sm || sm >= st->nsms) return;
    struct lb_sm *m = &st->sm[sm];
    unsigned h = l->meta ? *(const uint8_t *)l->meta : lb_hpc(l->pc);
    set = vtt_set(&m->vtt, set);
    if (m->mode == LB_MODE_MON) {
        vtt_insert(&m->vtt, NULL, set, l->line); /* tag only */
    } else if (m->mode == LB_MODE_ON && (p->variant == LB_VC || (m->sel >> h & 1u))) {
        int w = vtt_insert(&m->vtt, &m->vps, set, l->line);
        if (w >= 0) {
            mw_policy_count(pi->bundle, st->c_inserts, 1);
            rf_access(pi->bundle, sm, vtt_rn(p, &m->vtt, set, w)); /* the line written into its register */
        } else {
            mw_policy_count(pi->bundle, st->c_drops, 1);
        }
    }
}
static uint32_t r_probe(struct mw_policy_inst *pi, int sm, int set, uint64_t line, uint8_t sectors, int warp,
                        uint64_t pc)
{
    (void)sectors, (void)warp, (void)pc;
    struct lb_state *st = pi->bundle->state;
    const struct lb_params *p = pi->bundle->params;
    if (!st->sm || sm >= st->nsms) return 0;
    struct lb_sm *m = &st->sm[sm];
    if (m->mode != LB_MODE_ON || !m->vps) return 0;
    set = vtt_set(&m->vtt, set);
    int probes = 0, w = vtt_find(&m->vtt, &m->vps, set, line, &probes);
    if (w < 0) return 0;
    vtt_at(&m->vtt, set, w)->lru = ++m->vtt.clock;
    mw_policy_count(pi->bundle, st->c_reg_hits, 1);
    int wait = rf_access(pi->bundle, sm, vtt_rn(p, &m->vtt, set, w)); /* the line read out of its register */
    return (uint32_t)(st->hit_latency + probes * (int)p->vp_latency + (int)p->rf_latency + wait);
}
static int r_victim(struct mw_policy_inst *pi, int sm, int set, const struct mw_line_view *ways,
                    const uint8_t *evictable, int assoc)
{
    (void)pi, (void)sm, (void)set;
    return mw_victim_lru(ways, evictable, assoc);
}
static const struct mw_replacement_ops lb_repl = {
    .base = {.point = MW_PT_REPLACEMENT, .name = "linebacker_repl", .desc = "LRU; HPC per line; victims to the VTT",
             .line_meta_bytes = 1},
    .victim_order = MW_VICTIM_LRU,
    .victim_pure = 1,
    .victim = r_victim,
    .touch = r_touch,
    .insert = r_insert,
    .evicted = r_evicted,
    .victim_probe = r_probe,
};

/* ---- cta_throttle member: no new CTA while a throttled one waits; at most `target` active ---- */
static int t_limit(struct mw_policy_inst *pi, int sm, int resident)
{
    struct lb_state *st = pi->bundle->state;
    if (!st->sm || sm >= st->nsms) return 1 << 30; /* not started: no cap */
    const struct lb_sm *m = &st->sm[sm];
    return m->nstack ? resident : m->target;
}
static const struct mw_cta_throttle_ops lb_cta = {
    .base = {.point = MW_PT_CTA_THROTTLE, .name = "linebacker_cta", .desc = "IPC-variation CTA throttling"},
    .limit = t_limit,
};

/* ---- warp_scheduler member: GTO, whose issued instructions' operand reads take their RF banks ---- */
static int s_pick(struct mw_policy_inst *pi, int sm, int sched, const uint16_t *ready, int n)
{
    return mw_sched_gto_pick(pi, sm, ((int *)pi->state)[mw_sched_index(pi, sm, sched)], ready, n);
}
static void s_issued(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    mw_sched_last_issued(pi, sm, sched, w, in);
    struct lb_state *st = pi->bundle->state;
    const struct lb_params *p = pi->bundle->params;
    if (!st->rfb || sm >= st->nsms) return;
    rfb_operands(&st->rfb[sm], &st->rfc, in, w, mw_now(pi->sim), (int)p->rf_banks, p->rf_bank_warp_skew);
    rf_sync(pi->bundle);
}
static const struct mw_warp_sched_ops lb_sched = {
    .base = {.point = MW_PT_WARP_SCHED, .name = "linebacker_gto",
             .desc = "GTO (the paper's scheduler); operand reads take register-file banks",
             .create = mw_sched_last_create, .destroy = mw_sched_last_destroy},
    .pick = s_pick,
    .issued = s_issued,
};

static const struct mw_bundle_ops linebacker = {
    .base = {.point = MW_PT_BUNDLE, .name = "linebacker",
             .desc = "Linebacker (ISCA'19): LM-selected L1D victims in idle registers, IPC-driven CTA throttling",
             .params = lb_params_desc, .nparams = (int)(sizeof lb_params_desc / sizeof lb_params_desc[0]),
             .params_size = sizeof(struct lb_params),
             .events = MW_EVB(MW_EV_KERNEL_START) | MW_EVB(MW_EV_WINDOW) | MW_EVB(MW_EV_L1D_HIT) |
                       MW_EVB(MW_EV_L1D_MISS) | MW_EVB(MW_EV_L1D_STORE) | MW_EVB(MW_EV_CTA_LAUNCH) |
                       MW_EVB(MW_EV_CTA_DONE) | MW_EVB(MW_EV_INJECT_DONE),
             .create = lb_create, .destroy = lb_destroy, .on_event = lb_event, .start = lb_start,
             .finish = lb_finish},
    .members = {[MW_PT_WARP_SCHED] = &lb_sched.base, [MW_PT_REPLACEMENT] = &lb_repl.base,
                [MW_PT_CTA_THROTTLE] = &lb_cta.base},
};

MW_REGISTER_POLICIES(&linebacker.base);
