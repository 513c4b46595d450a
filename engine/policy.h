/* Decision points: one ops table per point, looked up by name in a registry (engine/registry.c), each with a
 * self-describing parameter table that drives YAML, --list-policies and Lua. A policy owns its state; the
 * engine owns the loops and calls a hook only when there is a decision to make. NULL hook = not needed.
 * docs/decision-points.md maps every policy of the five papers onto these hooks and engine facts. */
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
    MW_PT_COUNT
};
extern const char *const mw_point_names[MW_PT_COUNT]; /* "warp_scheduler", "l1d_bypass", ... */
int mw_point_from_name(const char *name);              /* -1 if unknown */

/* Policy slots of a simulation: one per decision point, plus a second replacement instance for the L2 slices
 * (policies.l2_replacement), so that the L1D and the L2 can use different replacement policies. */
enum { MW_SLOT_L2_REPLACEMENT = MW_PT_COUNT, MW_SLOT_COUNT };
extern const char *const mw_slot_names[MW_SLOT_COUNT]; /* the point names, then "l2_replacement" */
int mw_slot_from_name(const char *name);                /* -1 if unknown */
static inline enum mw_point mw_slot_point(int slot)
{
    return slot == MW_SLOT_L2_REPLACEMENT ? MW_PT_REPLACEMENT : (enum mw_point)slot;
}

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
 * builds and dispatches events somebody subscribed to. */
enum mw_event_kind {
    MW_EV_KERNEL_START = 0, /* value = kernel id */
    MW_EV_KERNEL_END,
    MW_EV_CTA_LAUNCH,       /* sm, cta (hardware slot), value = linear CTA id */
    MW_EV_CTA_DONE,
    MW_EV_WARP_EXIT,        /* sm, warp */
    MW_EV_L1D_HIT,          /* sm, warp, pc, addr (line), set, way */
    MW_EV_L1D_MISS,         /* sm, warp, pc, addr, set; value = 1 if merged into an MSHR */
    MW_EV_L1D_FILL,         /* sm, addr, set, way */
    MW_EV_L1D_EVICT,        /* sm, addr (victim line), set, way; value = hits the line had */
    MW_EV_LOAD_DONE,        /* sm, warp, pc: every access of a global load went through L1D;
                               value = accesses, aux = misses, set = distinct sets touched */
    MW_EV_WINDOW,           /* every sim window (policy-defined period via mw_sim_set_window) */
    MW_EV_COUNT
};
#define MW_EVB(k) (1u << (k))
struct mw_event {
    int kind;
    int sm, warp, cta;
    uint64_t pc, addr;
    int set, way;
    uint32_t value, aux;
    uint64_t cycle; /* core cycle */
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
    int (*create)(struct mw_policy_inst *pi, struct mw_err *e); /* allocate pi->state; NULL = stateless */
    void (*destroy)(struct mw_policy_inst *pi);
    void (*on_event)(struct mw_policy_inst *pi, const struct mw_event *ev);
};

/* One policy bound to one simulation. */
struct mw_policy_inst {
    const struct mw_policy *pol; /* the ops table's header; cast to the point's ops type */
    struct mw_sim *sim;
    void *params;                /* filled params struct (pol->params_size bytes) */
    void *state;                 /* owned by the policy */
    void *lua;                   /* Lua adapter state when the policy is a Lua table, else NULL */
};

/* ---- warp scheduling -------------------------------------------------------------------------------------
 * Each cycle each scheduler collects its ready warps (valid decoded instruction, scoreboard clear, unit free,
 * not at a barrier), filters them through qualify(), and if two or more remain asks pick(). */
struct mw_warp_sched_ops {
    struct mw_policy base;
    /* Choose one of n >= 2 ready warps: ready[] holds SM-local warp ids in ascending order. Return the index
     * into ready[]; anything else is an error. */
    int (*pick)(struct mw_policy_inst *pi, int sm, int sched, const uint16_t *ready, int n);
    /* May warp w issue its next instruction `in` now? NULL = always (OAWS, SWL, Two-Level, CCWS veto here). */
    bool (*qualify)(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in);
    /* Warp w issued `in` (greedy pointer, in-flight counters). Called for every issue, picked or sole. */
    void (*issued)(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in);
};

/* ---- L1D bypass -------------------------------------------------------------------------------------------
 * Called for each coalesced request of a global load before it probes L1D, and again on each retry after a
 * reservation failure of a cached request (retry = the failure cause), so reactive schemes (MRPB) can change
 * their mind. A bypass verdict is final: the request only waits for the miss queue, and is not asked again. */
enum mw_stall { MW_STALL_NONE = 0, MW_STALL_LINE_ALLOC, MW_STALL_MSHR, MW_STALL_MISS_QUEUE, MW_STALL_COUNT };
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
enum { MW_CACHE = 0, MW_BYPASS = 1 };
struct mw_l1d_bypass_ops {
    struct mw_policy base;
    int (*decide)(struct mw_policy_inst *pi, const struct mw_bypass_ctx *c); /* MW_CACHE or MW_BYPASS */
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
 * When a bank is free to start a new request, the controller asks pick() to choose among the queued requests
 * to that bank. Candidates carry what FR-FCFS and Li's MSHR-M/S/S+A need. */
#define MW_ROW_NONE UINT32_MAX
struct mw_dram_cand {
    uint64_t arrival;  /* DRAM cycle it entered the queue (smaller = older) */
    uint32_t id;       /* unique, increasing with arrival: the deterministic tie-break */
    uint32_t row;
    uint16_t bank;
    uint8_t is_write;
    uint8_t row_hit;   /* targets the bank's open row */
    uint32_t merge;    /* L2 MSHR merge length (1 = none) */
    uint64_t age;      /* summed age of merged requests (Li's Age_MSHR), DRAM cycles */
    int sm;            /* issuing SM of the first request, -1 for writebacks */
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

/* ---- CTA throttling ---------------------------------------------------------------------------------------- */
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
};

/* ---- replacement and victim storage ---------------------------------------------------------------------- */
struct mw_line_view {
    uint64_t line;        /* line address */
    uint64_t last_access; /* core cycle */
    uint64_t fill_time;
    uint32_t hits;        /* since fill */
    uint8_t valid, reserved, sectors;
    uint64_t pc;          /* last load PC that touched it */
    int warp;             /* last warp */
    void *meta;           /* policy-owned bytes (line_meta_bytes) */
};
struct mw_replacement_ops {
    struct mw_policy base;
    size_t line_meta_bytes; /* per-line state the policy wants in L1D */
    /* Choose a victim among the set's ways; evictable[w] is 0 for reserved (pending-fill) ways. Return the
     * way, or -1 if none may be evicted (the request then fails with a line-allocation stall). */
    int (*victim)(struct mw_policy_inst *pi, int sm, int set, const struct mw_line_view *ways,
                  const uint8_t *evictable, int assoc);
    void (*touch)(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *line);
    void (*insert)(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *line);
};

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
