/* Decision points: one ops table per point, looked up by name in a registry (engine/registry.c), each with a
 * self-describing parameter table that drives YAML, --list-policies and Lua. A policy owns its state; the
 * engine owns the loops and calls a hook only when there is a decision to make. NULL hook = not needed.
 * A policy whose state spans several points is a bundle: one shared state, one member ops table per point.
 * Engine facts and actions a policy may use are in sim.h. docs/decision-points.md maps every policy of the five
 * papers onto these hooks, facts and actions. */
#ifndef MW_POLICY_H
#define MW_POLICY_H

#include "common.h"
#include "workload.h"

struct mw_sim;

enum mw_point {
    MW_PT_WARP_SCHED = 0,
    MW_PT_L1D_BYPASS,
    MW_PT_GRANULARITY,
    MW_PT_DRAM_SCHED,
    MW_PT_CTA_THROTTLE,
    MW_PT_LDST_SCHED,
    MW_PT_REPLACEMENT,
    MW_PT_COUNT,
    MW_PT_BUNDLE = 32 /* not a decision point: a bundle's own header (struct mw_bundle_ops) */
};
extern const char *const mw_point_names[MW_PT_COUNT]; /* "warp_scheduler", "l1d_bypass", ... */
int mw_point_from_name(const char *name);              /* -1 if unknown */

/* Policy slots of a simulation: one per decision point, plus a second replacement instance for the L2 slices
 * (policies.l2_replacement), so that the L1D and the L2 can use different replacement policies. */
/* MW_SLOT_BUNDLE2 (policies.bundle2): a second bundle, installed after the first; see "bundles" below. */
enum { MW_SLOT_L2_REPLACEMENT = MW_PT_COUNT, MW_SLOT_BUNDLE, MW_SLOT_BUNDLE2, MW_SLOT_COUNT };
extern const char *const mw_slot_names[MW_SLOT_COUNT]; /* the point names, "l2_replacement", "bundle", "bundle2" */
int mw_slot_from_name(const char *name);                /* -1 if unknown */
static inline enum mw_point mw_slot_point(int slot)
{
    if (slot == MW_SLOT_BUNDLE2) return MW_PT_BUNDLE;
    return slot == MW_SLOT_L2_REPLACEMENT ? MW_PT_REPLACEMENT : slot == MW_SLOT_BUNDLE ? MW_PT_BUNDLE : (enum mw_point)slot;
}
/* A point's name, "bundle" for MW_PT_BUNDLE. */
const char *mw_point_name(enum mw_point pt);

/* ---- parameters ---------------------------------------------------------------------------------------- */
enum mw_ptype { MW_PP_INT, MW_PP_DOUBLE, MW_PP_BOOL, MW_PP_ENUM };
struct mw_param_desc {
    const char *name;
    enum mw_ptype type; /* INT -> int64_t, DOUBLE -> double, BOOL -> bool, ENUM -> int (index into choices) */
    size_t offset;      /* into the policy's params struct */
    const char *def;    /* default, as text */
    double min, max;    /* range for INT/DOUBLE */
    const char *choices;/* ENUM: "a|b|c" */
    const char *help;
};

/* ---- events -------------------------------------------------------------------------------------------- */
/* Facts the engine reports as they happen. A policy lists the kinds it wants in base.events; the engine only
 * builds and dispatches events somebody subscribed to. Every event carries its core cycle; those of a memory
 * instruction carry its id (`inst`, unique in the run, the same id its scheduler's issued() saw in in->id). */
enum mw_event_kind {
    MW_EV_KERNEL_START = 0, /* value = kernel id */
    MW_EV_KERNEL_END,
    MW_EV_CTA_LAUNCH,       /* sm, cta (hardware slot), value = linear CTA id, aux = its warps (mw_cta_warps lists them) */
    MW_EV_CTA_DONE,         /* sm, cta, value = linear CTA id */
    MW_EV_WARP_EXIT,        /* sm, warp, cta */
    MW_EV_L1D_HIT,          /* sm, warp, pc, inst, addr (line), set, way, size, sectors */
    MW_EV_L1D_MISS,         /* sm, warp, pc, inst, addr, set, way (reserved way, -1 if none yet), size, sectors;
                               value = 1 if merged into an MSHR, aux = 1 if it was a sector miss on a present line */
    MW_EV_L1D_FILL,         /* sm, addr, set, way, sectors (filled), pc / warp = the allocating load's */
    MW_EV_L1D_EVICT,        /* sm, addr (the line), set, way, cause (enum mw_evict_cause); value = hits since fill;
                               pc / warp = the last load that touched it, alloc_pc / alloc_warp = the one whose miss
                               allocated it */
    MW_EV_LOAD_DONE,        /* sm, warp, pc, inst: every access of a global load went through L1D;
                               value = accesses, aux = misses, set = distinct sets touched */
    MW_EV_WINDOW,           /* the subscriber's own window elapsed (mw_window_set; each policy has its own) */
    MW_EV_L1D_STORE,        /* sm, warp, pc, inst, addr (line), set, size, sectors; value = 1 if it invalidated an
                               L1D line (write-evict) */
    MW_EV_BARRIER,          /* sm, warp, cta; value = 1 the warp arrived at a barrier, 0 the barrier released it */
    MW_EV_INJECT_DONE,      /* sm, addr, value = the tag given to mw_inject: injected read data is back (aux = 0),
                               or the L2 acknowledged an injected write (aux = 1) */
    MW_EV_COUNT
};
#define MW_EVB(k) (1u << (k))
extern const char *const mw_event_names[MW_EV_COUNT]; /* "kernel_start", ..., "inject_done" */
enum mw_evict_cause {
    MW_EVICT_REPLACE = 0, /* chosen as a victim for a new line */
    MW_EVICT_STORE,       /* a store to the line (write-evict) */
    MW_EVICT_FLUSH,       /* mw_l1d_flush */
    MW_EVICT_POLICY,      /* mw_l1d_invalidate */
};
struct mw_event {
    int kind;
    int sm, warp, cta;
    uint64_t pc, addr;
    int set, way;
    uint32_t value, aux;
    uint64_t cycle;       /* core cycle */
    uint64_t inst;        /* id of the memory instruction (0 when the event has none) */
    uint64_t alloc_pc;    /* L1D_EVICT: the allocating PC */
    int alloc_warp;
    uint8_t size;         /* request bytes: 32, 64 or 128 */
    uint8_t sectors;      /* 32 B sectors of the line involved */
    uint8_t cause;        /* L1D_EVICT: enum mw_evict_cause */
};

/* ---- common header --------------------------------------------------------------------------------------- */
struct mw_policy_inst;
struct mw_policy {
    enum mw_point point;
    const char *name, *desc;
    const struct mw_param_desc *params;
    int nparams;
    size_t params_size;   /* bytes of the params struct (0 = none) */
    uint32_t events;      /* MW_EVB() mask */
    size_t line_meta_bytes; /* per-L1D-line bytes this policy keeps (any point; mw_l1d_meta finds them), zeroed
                             * when a line is filled and when it leaves */
    int (*create)(struct mw_policy_inst *pi, struct mw_err *e); /* allocate pi->state; NULL = stateless */
    void (*destroy)(struct mw_policy_inst *pi);
    void (*on_event)(struct mw_policy_inst *pi, const struct mw_event *ev);
    /* The machine is built (every fact works) and the first cycle is about to run / the workload completed. */
    void (*start)(struct mw_policy_inst *pi);
    void (*finish)(struct mw_policy_inst *pi);
};

/* Counters a policy publishes into the run's stats as policy.<slot>.<name> (mw_policy_counter). */
struct mw_policy_counters {
    int n, cap;
    struct mw_policy_counter_entry {
        char name[40];
        const char *desc;
        uint64_t value;
    } *v;
};

/* One policy bound to one simulation. */
struct mw_policy_inst {
    const struct mw_policy *pol; /* the ops table's header; cast to the point's ops type */
    struct mw_sim *sim;
    void *params;                /* filled params struct (pol->params_size bytes) */
    void *state;                 /* owned by the policy */
    void *lua;                   /* Lua adapter state when the policy is a Lua table, else NULL */
    struct mw_policy_inst *bundle; /* a bundle member: the bundle's instance (shared state and params), else NULL */
    int slot;                    /* where it is installed (a point, MW_SLOT_L2_REPLACEMENT, MW_SLOT_BUNDLE) */
    size_t meta_off;             /* offset of its line_meta_bytes in each L1D line's policy bytes */
    uint64_t window, next_window;/* its own MW_EV_WINDOW period (0 = none) and next due core cycle */
    struct mw_policy_counters counters;
};

/* ---- warp scheduling -------------------------------------------------------------------------------------
 * Each cycle each scheduler collects its ready warps (valid decoded instruction, scoreboard clear, unit free,
 * not at a barrier, CTA active), filters them through qualify(), and if two or more remain asks pick(). */
/* What a qualify() verdict depends on, besides the warp's head instruction (qualify_deps). With none declared
 * (0) the verdict is asked again every cycle and a veto keeps the SM awake. With deps declared the engine keeps
 * each warp's verdict until its head instruction changes or a declared dependency changes, and a held warp
 * lets the SM sleep; a policy whose verdict changes for another reason calls mw_sched_recheck (from qualify to
 * name a cycle, or from on_event). */
enum mw_qualify_dep {
    MW_QDEP_HEAD = 1u << 0,  /* only the head instruction (and mw_sched_recheck) */
    MW_QDEP_MSHR = 1u << 1,  /* the SM's free L1D MSHR count (mw_l1d_mshr_free) */
    MW_QDEP_ISSUE = 1u << 2, /* any instruction issued on the SM (in-flight counters kept in issued()) */
};
struct mw_warp_sched_ops {
    struct mw_policy base;
    /* Choose one of n >= 2 ready warps: ready[] holds SM-local warp ids in ascending order. Return the index
     * into ready[]; anything else is an error. */
    int (*pick)(struct mw_policy_inst *pi, int sm, int sched, const uint16_t *ready, int n);
    /* May warp w issue its next instruction `in` now (in->mask: its active lanes)? NULL = always (OAWS, SWL,
     * Two-Level, CCWS veto here). */
    bool (*qualify)(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in);
    uint32_t qualify_deps;   /* enum mw_qualify_dep bits; 0 = ask every cycle */
    /* Warp w issued `in` (greedy pointer, in-flight counters); in->id is the instruction's id, which its memory
     * events carry. Called for every issue, picked or sole. */
    void (*issued)(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in);
};

/* ---- L1D bypass -------------------------------------------------------------------------------------------
 * Called for each coalesced request of a global load before it probes L1D. A policy that declares `retries`
 * is asked again on each retry after a reservation failure of a request it chose to cache (retry = the failure
 * cause), so reactive schemes (MRPB) can change their mind; one that does not keeps its first verdict, and the
 * LDST unit parks a failed request exactly as without a bypass policy. A bypass verdict is final: the request
 * only waits for the miss queue. MW_BYPASS_PROBE bypasses a miss but serves a hit from L1D (LASC's probe). */
enum mw_stall { MW_STALL_NONE = 0, MW_STALL_LINE_ALLOC, MW_STALL_MSHR, MW_STALL_MISS_QUEUE, MW_STALL_COUNT };
extern const char *const mw_stall_names[MW_STALL_COUNT]; /* "none", "line_alloc", "mshr", "miss_queue" */
struct mw_coal_req {
    uint64_t line;   /* line address (byte address of the line) */
    uint8_t sectors; /* sectors touched */
    uint8_t size;    /* bytes requested: 32, 64 or 128 (line mode), 32 (sector mode) */
    uint16_t set;    /* L1D set index */
    uint32_t lanes;  /* lanes served by this request */
};
struct mw_bypass_ctx {
    int sm, warp;
    uint64_t pc;
    int index, n;                   /* this request's position in the instruction's list */
    const struct mw_coal_req *reqs; /* the whole list, in coalescer order */
    int retry;                      /* enum mw_stall of the previous failed attempt, or MW_STALL_NONE */
};
enum { MW_CACHE = 0, MW_BYPASS = 1, MW_BYPASS_PROBE = 2 };
struct mw_l1d_bypass_ops {
    struct mw_policy base;
    int (*decide)(struct mw_policy_inst *pi, const struct mw_bypass_ctx *c); /* MW_CACHE, MW_BYPASS, MW_BYPASS_PROBE */
    bool retries; /* ask again after each failed reservation of a cached request */
};

/* ---- cache granularity ------------------------------------------------------------------------------------
 * For a load that misses L1D (or hits a line without all its sectors): which sectors to fetch and allocate.
 * The result must cover c->need; 0xF (all four of a 128 B line) is a whole-line fill. */
struct mw_gran_ctx {
    int sm, warp;
    uint64_t pc, line;
    int set;
    uint8_t need;   /* sectors the request needs */
    uint8_t have;   /* sectors already valid in L1D (tag hit, sector miss) */
    uint8_t size;
};
struct mw_granularity_ops {
    struct mw_policy base;
    uint8_t (*fetch)(struct mw_policy_inst *pi, const struct mw_gran_ctx *c);
};

/* ---- DRAM request / row scoring ---------------------------------------------------------------------------
 * When a bank is free to start a new request and two or more requests to it are schedulable, the controller
 * asks pick() to choose (with one candidate there is nothing to ask). The choice is tentative until the bank
 * issues its first command for it: a new arrival to that bank asks again, and so does the end of a row-hit cap
 * (dram.max_row_hits) waiting for its precharge. A merge into an L2 MSHR whose read is already queued raises
 * that candidate's merge and age but asks nothing by itself, so a choice can go stale until the next arrival.
 * Clocks: now, arrival and age are in DRAM cycles; created is in core cycles (mw_now's clock). */
#define MW_ROW_NONE UINT32_MAX
struct mw_dram_cand {
    uint64_t arrival;  /* DRAM cycle it entered the controller queue (smaller = older) */
    uint32_t id;       /* increasing with arrival, unique within the channel (not across channels): the tie-break */
    uint32_t row;
    uint16_t bank;
    uint8_t is_write;
    uint8_t row_hit;   /* targets the bank's open row */
    uint32_t merge;    /* L2 MSHR merge length (1 = none), kept current while the read waits */
    uint64_t age;      /* Li's Age_MSHR in DRAM cycles: the merged requests' ages when they merged (core cycles
                        * converted at dram_mhz / core_mhz) plus merge x (now - arrival); not saturated (the
                        * thesis keeps 15 bits: a policy that wants that caps it) */
    int sm;            /* issuing SM of the first request, -1 for writebacks */
    uint64_t created;  /* core cycle the first request was created at its SM (the L2's writebacks: at the L2) */
    uint64_t line;     /* global address of the line (the block address Li's DMIB is keyed by) */
};
struct mw_dram_sched_ctx {
    int channel, bank;
    uint32_t open_row;     /* MW_ROW_NONE when the bank is precharged */
    uint32_t hits_in_row;  /* column commands served since the row opened */
    uint64_t now;          /* DRAM cycle */
};
struct mw_dram_sched_ops {
    struct mw_policy base;
    /* Return the index of the request the bank serves next (n >= 1). */
    int (*pick)(struct mw_policy_inst *pi, const struct mw_dram_sched_ctx *c, const struct mw_dram_cand *cands,
                int n);
};

/* ---- CTA throttling ----------------------------------------------------------------------------------------
 * Two levers: limit() caps the CTAs a dispatcher may place on an SM; mw_cta_deactivate / mw_cta_reactivate
 * (sim.h) stop and restart the warps of a resident CTA (Linebacker), its registers staying allocated, and
 * mw_inject makes the register backup/restore traffic. */
struct mw_cta_throttle_ops {
    struct mw_policy base;
    /* Most CTAs SM `sm` may hold now (the hardware limit still applies). Polled when the dispatcher has a CTA
     * to place. */
    int (*limit)(struct mw_policy_inst *pi, int sm, int resident);
};

/* ---- LDST request scheduling ------------------------------------------------------------------------------
 * The LDST unit holds up to `slots` warp instructions with requests waiting for L1D. Each cycle, if more
 * than one has a request ready, pick() chooses whose head request goes to L1D. The baseline has one slot:
 * the head request retries until it gets its resources, blocking every other warp (the stall the papers
 * study). */
struct mw_ldst_sched_ops {
    struct mw_policy base;
    int (*slots)(struct mw_policy_inst *pi);  /* instructions the LDST unit may hold (NULL = 1) */
    int (*pick)(struct mw_policy_inst *pi, int sm, const uint16_t *warps, int n); /* index into warps[] */
    /* Entries of a per-access re-execution queue (MASCAR; NULL or 0 = none): an access that fails for want of a
     * line, an MSHR or a miss-queue slot moves into it, so the unit serves the next access (hits under the
     * stall); the queue replays its head, in order, when what it waited for may have changed, before the
     * unit's own next access (*replay_first, preset true) or only when the unit has none (false). A full queue,
     * or one holding another instruction of the same warp, stalls the unit as without it. A parked access counts
     * as a miss of its load, whose LOAD_DONE comes once every access was served or parked. */
    int (*rexq)(struct mw_policy_inst *pi, bool *replay_first);
};

/* ---- replacement and victim storage ----------------------------------------------------------------------
 * gem5's verbs: insert (a line was allocated), touch (hit), victim (choose one), evicted (a line left, any
 * cause: the reset/invalidate verb). An instance serves the L1Ds (`sm` = the SM) or, in the l2_replacement
 * slot, the L2 slices (`sm` = the slice; no way is ever reserved there). Victim storage (Linebacker's
 * register-file victim cache): evicted() keeps what it wants, victim_probe() serves a later L1D miss from it. */
struct mw_line_view {
    uint64_t line;        /* line address */
    uint64_t last_access; /* core cycle */
    uint64_t fill_time;
    uint32_t hits;        /* since fill */
    uint8_t valid, reserved, sectors;
    uint64_t pc;          /* last load PC that touched it */
    int warp;             /* last warp */
    uint64_t alloc_pc;    /* the load whose miss allocated it */
    int alloc_warp;
    void *meta;           /* this policy's bytes of the line (base.line_meta_bytes) */
};
enum mw_victim_order {
    MW_VICTIM_HOOK = 0, /* ask victim() */
    MW_VICTIM_LRU,      /* the evictable way with the oldest last_access (the lowest such way on a tie) */
    MW_VICTIM_FIFO,     /* the evictable way with the oldest fill_time (the lowest such way on a tie) */
};
/* MW_VICTIM_LRU over line views: what a victim() declaring that order returns (policies reuse it). */
static inline int mw_victim_lru(const struct mw_line_view *ways, const uint8_t *evictable, int assoc)
{
    int best = -1;
    for (int w = 0; w < assoc; w++)
        if (evictable[w] && (best < 0 || ways[w].last_access < ways[best].last_access)) best = w;
    return best;
}
struct mw_replacement_ops {
    struct mw_policy base;
    /* A policy whose victim() is one of the engine's orders may declare it: the engine then picks the same way
     * without building line views (victim() is still what Lua twins and contract tests call). */
    uint8_t victim_order;
    /* The policy declares that victim() has no side effects and that its answer depends only on its arguments:
     * the set's line views (per-line bytes included, which only this policy's insert / touch / evicted hooks of
     * that set may change) and the evictable mask; not on time, other sets, per-SM state or chance. A request
     * that failed to reserve a line or an MSHR then waits (the LDST unit parks it) until a fill, invalidation or
     * flush of its set or a freed MSHR could change the answer, instead of asking again every cycle; the stats
     * are the same, retries included. A declared victim_order implies it. Whoever replaces victim() must clear
     * it unless the new hook qualifies too. */
    uint8_t victim_pure;
    /* Choose a victim among the set's ways; evictable[w] is 0 for reserved (pending-fill) ways. Return the
     * way, or -1 if none may be evicted (the request then fails with a line-allocation stall). */
    int (*victim)(struct mw_policy_inst *pi, int sm, int set, const struct mw_line_view *ways,
                  const uint8_t *evictable, int assoc);
    void (*touch)(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *line);
    void (*insert)(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *line);
    /* The line leaves (cause: enum mw_evict_cause); `line` is its last state, before it is cleared. */
    void (*evicted)(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *line, int cause);
    /* An L1D load request missed (no MSHR taken yet): may the policy's own storage serve it? Return the core
     * cycles until its data is at the SM (>= 1) for a victim hit, 0 for a miss. Asked once per request. A victim
     * hit counts as an L1D access and a victim hit (l1d.victim_hits), sends nothing to L2 and allocates nothing. */
    uint32_t (*victim_probe)(struct mw_policy_inst *pi, int sm, int set, uint64_t line, uint8_t sectors, int warp,
                             uint64_t pc);
};

/* ---- bundles ------------------------------------------------------------------------------------------------
 * A policy spanning several points (LocSelCaching, Linebacker, MASCAR, PCAL, CCWS): one file, one name
 * (`policies: {bundle: name}`), one shared state. base.point is MW_PT_BUNDLE; base.create / destroy / params /
 * events / on_event / start / finish belong to the shared instance. Each member is an ordinary ops table of its
 * point, installed in that slot, whose instance reaches the shared one as pi->bundle (state, params). A slot
 * the bundle leaves NULL keeps the configured policy; configuring a slot the bundle fills is an error.
 * Two bundles (policies.bundle and policies.bundle2) each keep their own shared instance, params, events, windows
 * and counters (policy.bundle2.<name>). A slot both fill is composed where composition is defined (mw_compose_rule,
 * engine/compose.c: cta_throttle, the smaller of the two limits); any other shared slot is an error. */
struct mw_bundle_ops {
    struct mw_policy base;
    const struct mw_policy *members[MW_PT_COUNT + 1]; /* by slot: the seven points and l2_replacement */
};
/* Whether two members of one point may share a slot, and how (NULL: not defined): the description the errors and
 * docs give. */
const char *mw_compose_rule(enum mw_point pt);

/* ---- registry --------------------------------------------------------------------------------------------
 * A built-in policy is one file policies/<stem>.c (stem: a-z, 0-9, _), and adding one edits nothing else.
 * The file keeps its ops tables static and ends with one line naming them, in the order they should be listed:
 *     MW_REGISTER_POLICIES(&mw_pol_gto.base);
 * The macro defines the NULL-terminated array mw_pf_<stem>; CMake passes the stem as MW_POLICY_FILE_ID and
 * generates policy_files.c in the build folder, which lists every mw_pf_<stem> in sorted file order as
 * mw_policy_files. That reference is also what pulls the policy's object out of the static library, so no
 * constructor is needed. A file in policies/ without the macro fails to link: "undefined reference to
 * `mw_pf_<stem>'" names it. */
#define MW_PF_SYM_(id) mw_pf_##id
#define MW_PF_SYM(id) MW_PF_SYM_(id)
#define MW_REGISTER_POLICIES(...)                                                                                 \
    extern const struct mw_policy *const MW_PF_SYM(MW_POLICY_FILE_ID)[];                                          \
    const struct mw_policy *const MW_PF_SYM(MW_POLICY_FILE_ID)[] = {__VA_ARGS__, NULL}

/* Generated (see above): each policy file's list, files in sorted order, NULL-terminated; mw_policy_file_names[i]
 * is the stem of mw_policy_files[i]. Only the registry and its test read these. */
extern const struct mw_policy *const *const mw_policy_files[];
extern const char *const mw_policy_file_names[];

/* All built-in policies of a point, NULL-terminated (NULL for an unknown point): files in sorted order, then
 * each file's MW_REGISTER_POLICIES order. The order is for listing only; it never picks a default. */
const struct mw_policy *const *mw_policies(enum mw_point pt);
const struct mw_policy *mw_policy_find(enum mw_point pt, const char *name);
/* The point's default policy when the config names none: its name, and its ops table (NULL only if that
 * policy's file is missing). The one place defaults are decided: whatever needs a point's default asks here. */
const char *mw_policy_default_name(enum mw_point pt);
const struct mw_policy *mw_policy_default(enum mw_point pt);
/* Fill a params struct with the defaults, then apply key=value pairs. */
int mw_policy_params_default(const struct mw_policy *p, void *params, struct mw_err *e);
int mw_policy_param_set(const struct mw_policy *p, void *params, const char *key, const char *value,
                        struct mw_err *e);
const struct mw_param_desc *mw_policy_param_find(const struct mw_policy *p, const char *key);

/* Bind policy p to a simulation (sim may be NULL in unit tests): allocate params with defaults, apply the
 * given key/value pairs (may be NULL/0), call create(). mw_policy_inst_fini undoes it. */
int mw_policy_inst_init(struct mw_policy_inst *pi, const struct mw_policy *p, struct mw_sim *sim,
                        const char *const *keys, const char *const *values, int n, struct mw_err *e);
void mw_policy_inst_fini(struct mw_policy_inst *pi);

/* Helper for policy files: declare a param of struct T. */
#define MW_PARAM(T, field, type, def, min, max, choices, help) \
    {#field, type, offsetof(T, field), def, min, max, choices, help}

#endif
