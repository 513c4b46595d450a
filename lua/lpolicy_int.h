/* Inside the Lua policy adapter: the adapter object behind one decision point (struct lpol), the fixed stack of
 * its hook thread, and the protected call every hook trampoline makes. Shared by lpolicy.c (building, installing),
 * lhooks.c (the per-point trampolines), lctx.c (the context `m`) and lsandbox.c (hook states). */
#ifndef MW_LPOLICY_INT_H
#define MW_LPOLICY_INT_H

#include "lpolicy.h"

#include <lauxlib.h>
#include <signal.h>
#include <stdbool.h>

/* Hook slots, each belonging to one point (H_EVENT and after: to every point and to bundles). */
enum {
    H_WS_PICK, H_WS_QUALIFY, H_WS_ISSUED, H_BY_DECIDE, H_GR_FETCH, H_DR_PICK, H_CT_LIMIT, H_LD_SLOTS, H_LD_PICK,
    H_RP_VICTIM, H_RP_TOUCH, H_RP_INSERT, H_RP_EVICTED, H_RP_VPROBE, H_EVENT, H_START, H_FINISH, H_EXPORT, H_N
};
struct lhook_name {
    int pt;
    const char *name;
};
extern const struct lhook_name mw_lhooks[H_N];

/* Fixed stack slots of the hook thread: the message handler, the context `m`, and the reused argument tables (a
 * list, and a column table whose columns are filled when read, see lhooks.c). */
enum { S_MSGH = 1, S_CTX, S_LIST, S_COLS };
#define DRAM_COLS 11
#define WAY_COLS 8
#define REQ_COLS 5
extern const char *const mw_ldram_cols[DRAM_COLS];
extern const char *const mw_lway_cols[WAY_COLS];
extern const char *const mw_lreq_cols[REQ_COLS];

/* Holds the simulation for the context's engine-fact functions; cleared when the policy goes away. */
struct mbox {
    struct mw_sim *sim;
    struct lpol *lp;
    uint64_t rng;
    int slot;          /* the policy slot its policy is installed in (its own window, counters) */
    int n_sms;
    bool started;      /* the machine was built (cleared with sim when the policy goes) */
};

/* What the adapters built from one table share: the Lua state holding their refs (a script's hook state is
 * closed when the last of them goes) and, for a bundle, its members. Each adapter holds one reference, and so
 * does the builder while it installs them. */
struct lgroup {
    lua_State *owner;
    bool own_state;              /* a hook state made for a script */
    bool installing;             /* the engine is installing them: it may still read an ops table it destroyed */
    int refs;
    struct lpol *members[MW_SLOT_COUNT]; /* a bundle's adapters by slot (the bundle's own at MW_SLOT_BUNDLE) */
};

/* One per Lua state that runs hooks (kept in its registry): which hook call is running and how many budget
 * ticks it has used. With an explicit `budget = N` the count hook is armed once per hook thread and fires every
 * `budget / BUDGET_TICKS` instructions; a call that sees more than BUDGET_TICKS firings has run more than its
 * budget (and at most (1 + 1/BUDGET_TICKS) x budget). Coroutines a hook creates inherit the hook and count toward
 * the same call. */
#define BUDGET_TICKS 8
struct lhost {
    struct lpol *cur; /* the policy whose hook is running; NULL between calls */
    int ticks;
};

/* The watchdog (the default, budget = MW_LUA_WATCHDOG), one per process: a CPU-time interval timer (SIGPROF)
 * runs while a watched policy exists. Every protected call sets these around itself; the outermost call of a
 * nest takes a new seq, nested calls keep it (a loop that keeps raising short nested calls is still one call).
 * When a tick finds the same seq busy as the tick before, the handler arms a count hook (count 1) on T, the
 * thread of the innermost watched call, and notes that seq in `armed`; the hook then raises the error, unless
 * the call it was armed for has ended. No Lua hook is installed while calls run normally. */
struct lwatch {
    lua_State *volatile T;           /* the running call's thread; NULL: the call is not watched */
    volatile sig_atomic_t busy, seq, armed;
    volatile sig_atomic_t pt, h;     /* the running call's point and hook (h = -1: a script's top-level chunk) */
};
extern struct lwatch mw_lwd;
extern char mw_lwd_where[160];
/* Ticks a call may run on after its count hook was armed before the process is stopped (MW_LUA_WATCH_MS each). */
#define MW_LUA_HARD_TICKS 20
int mw_lwatch_pcall(lua_State *L, int nargs, int nres, int msgh, int pt);

struct lpol {
    union {
        struct mw_policy base;
        struct mw_warp_sched_ops ws;
        struct mw_l1d_bypass_ops by;
        struct mw_granularity_ops gr;
        struct mw_dram_sched_ops dr;
        struct mw_cta_throttle_ops ct;
        struct mw_ldst_sched_ops ld;
        struct mw_replacement_ops rp;
        struct mw_bundle_ops bu;
    } ops;
    char name[96];
    enum mw_point pt;  /* a decision point, or MW_PT_BUNDLE */
    int slot;          /* where it is installed */
    struct mw_sim *sim;
    struct lgroup *group;
    lua_State *owner; /* the state holding the refs (group->owner) */
    bool live;        /* the engine holds an instance of it (a bundle member once the engine created it) */
    bool released;    /* the engine destroyed its instance while installing: freed when the installation returns */
    lua_State *T;     /* the thread hooks run on */
    int thread_ref, table_ref, ctx_ref, fn[H_N];
    int fslot[H_N];   /* the hook functions' fixed stack slots on T */
    struct lhost *host;
    int depth;        /* calls of this policy's hooks in progress (an event raised from inside its own hook) */
    int nested_msgh;  /* the message handler's slot of a nested call */
    uint32_t lua_events;
    uint32_t c_events; /* the kinds the C default's on_event still gets (see c_decides) */
    lua_Integer budget; /* instructions per call; 0: none (budget = false); MW_LUA_WATCHDOG: the watchdog */
    bool watched;       /* holds a reference on the watchdog's timer (released when freed) */
    struct mbox *box;
    struct mw_policy_inst dflt; /* the point's C default, serving the hooks the table leaves out */
    const struct mw_policy *dpol;
    int prev_n, top; /* top: the fixed stack height of T */
    int nargs[H_N];  /* arguments after m each hook function takes (INT_MAX: vararg): the rest is not pushed */
    bool failed;
    /* the column table at S_COLS (decide's reqs, dram pick's c, victim's w): column names, which are booleans, the
     * rows of the current data, the columns filled for it (bits) and each column table's filled length; the data
     * (readable only while the hook runs: cols_live) */
    const char *const *col_names;
    int ncols, cols_len, col_n[16];
    unsigned col_bool, cols_filled;
    bool cols_live;
    const struct mw_coal_req *reqs_of; /* the instruction whose requests `reqs` shows */
    const struct mw_bypass_ctx *by_ctx;
    const struct mw_dram_cand *cands;
    const struct mw_line_view *ways;
    const uint8_t *evictable;
    /* line_meta: the table's bytes of each L1D line, after the C default's meta_c */
    size_t meta_c, meta_n;
    /* descriptions of the counters made with m.counter: the engine keeps the pointers for the run */
    char **descs;
    int ndescs;
};

#define LP(pi) ((struct lpol *)(pi)->lua)
#define DFLT(lp, type) ((const type *)(lp)->dpol)

/* ---- hook states (lsandbox.c) ---- */
/* A hook state's memory account (its capped allocator's). */
struct lmem {
    size_t used, limit;
};
/* A fresh hook state: base (without dofile and loadfile, load of text only), table, string and math, math.random
 * seeded with `seed`, the name tables as a read-only global mw. */
lua_State *mw_lhs_new(lua_Integer seed, int64_t memory_mib);
/* The capped allocator's account of L, or NULL when L allocates some other way (a table policy in the caller's
 * state). */
struct lmem *mw_lhs_mem(lua_State *L);
void mw_lhs_close(lua_State *L);
/* Set the hook state's global require for a script at path `script`; the value on top of L (the state's mw) is
 * what require "moonwarp" returns, and is popped. */
void mw_lhs_open_require(lua_State *L, const char *script);
/* Replace the table on top of L by a read-only proxy of it (see lsandbox.c). */
void mw_lhs_make_readonly(lua_State *L, const char *label, int names_n);

/* ---- protected calls (lpolicy.c) ---- */
int mw_lmsgh(lua_State *L);
void mw_lbudget_hook(lua_State *L, lua_Debug *ar);
void mw_larm_budget(struct lpol *lp);
void mw_lwatch_hook(lua_State *L, lua_Debug *ar);
/* Start the watchdog's timer for lp (the first watched policy starts it; freeing the last stops it). */
void mw_lwatch_start(struct lpol *lp);
void mw_lfail(struct lpol *lp, int h, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Push hook h and the context; the caller pushes its arguments and calls lcall(). Nested inside one of the
 * policy's own hooks (only an event can be: m.l1d_flush evicts lines), T's stack belongs to that hook's frame,
 * so the function and context come from their refs. */
static inline lua_State *lbegin(struct lpol *lp, int h)
{
    lua_State *T = lp->T;
    if (__builtin_expect(!lp->depth, 1)) {
        lua_pushvalue(T, lp->fslot[h]);
        lua_pushvalue(T, S_CTX);
    } else {
        if (h == H_EVENT) {
            lp->nested_msgh = lua_gettop(T) + 1;
            lua_pushcfunction(T, mw_lmsgh);
        }
        lua_rawgeti(T, LUA_REGISTRYINDEX, lp->fn[h]);
        lua_rawgeti(T, LUA_REGISTRYINDEX, lp->ctx_ref);
    }
    return T;
}

static inline bool lcall(struct lpol *lp, int h, int nargs, int nres)
{
    lua_State *T = lp->T;
    struct lhost *ho = lp->host;
    struct lpol *prev = ho->cur;
    int prev_ticks = ho->ticks;
    if (__builtin_expect(lp->depth && h != H_EVENT, 0)) {
        lua_pop(T, nargs + 2);
        mw_lfail(lp, h, "called again from inside one of the policy's own hooks");
        return false;
    }
    lua_State *wprev = mw_lwd.T;
    sig_atomic_t wbusy = mw_lwd.busy, wpt = mw_lwd.pt, wh = mw_lwd.h;
    if (__builtin_expect(lp->budget != 0, 1)) { /* the time limit, and an instruction budget if one is set */
        if (__builtin_expect(!lp->watched, 0)) mw_lwatch_start(lp);
        if (__builtin_expect(lua_gethook(T) == mw_lwatch_hook, 0)) lua_sethook(T, NULL, 0, 0); /* a late tick */
        if (lp->budget > 0 && __builtin_expect(lua_gethook(T) != mw_lbudget_hook, 0)) /* debug.sethook took it */
            mw_larm_budget(lp);
        mw_lwd.T = T;
    } else mw_lwd.T = NULL;
    if (!wbusy) mw_lwd.seq = mw_lwd.seq + 1;
    mw_lwd.pt = lp->pt, mw_lwd.h = h;
    mw_lwd_where[0] = 0;
    mw_lwd.busy = 1;
    int nested = lp->depth, mh = nested ? lp->nested_msgh : S_MSGH;
    ho->cur = lp, ho->ticks = 0;
    lp->depth++;
    int rc = lua_pcall(T, nargs + 1, nres, mh);
    lp->depth--;
    ho->cur = prev, ho->ticks = prev_ticks;
    mw_lwd.busy = wbusy;
    mw_lwd.T = wprev;
    mw_lwd.pt = wpt, mw_lwd.h = wh;
    if (__builtin_expect(rc != LUA_OK, 0)) {
        if (lua_gethook(T) == mw_lwatch_hook) lua_sethook(T, NULL, 0, 0);
        struct lmem *m = rc == LUA_ERRMEM ? mw_lhs_mem(T) : NULL;
        if (m) { /* no message handler runs for a memory error: name where the hook is defined */
            lua_Debug ar;
            lua_rawgeti(T, LUA_REGISTRYINDEX, lp->fn[h]);
            lua_getinfo(T, ">S", &ar);
            mw_lfail(lp, h, "%s:%d: memory limit of %zu MiB exceeded (a table growing without end?)", ar.short_src,
                     ar.linedefined, m->limit >> 20);
        } else mw_lfail(lp, h, "%s", lua_tostring(T, -1));
        if (nested) lua_settop(T, mh - 1);
        else lua_settop(T, lp->top);
        return false;
    }
    if (__builtin_expect(nested, 0)) lua_remove(T, mh);
    return true;
}

static inline void lreset_stack(struct lpol *lp) { lua_settop(lp->T, lp->top); }

/* ---- the per-point trampolines (lhooks.c) ---- */
/* Point the ops table's hooks at the trampolines for the hooks the table defines, at the C default for the rest
 * (observers chained while the default still decides). */
void mw_lset_slots(struct lpol *lp);
/* The column table at S_COLS (after the context at S_CTX): n columns by name, `booleans` the bits of those that hold
 * booleans. */
void mw_lnew_cols(lua_State *T, struct lpol *lp, const char *const *names, int n, unsigned booleans);

/* ---- the context `m` (lctx.c) ---- */
/* The hook table's `params` (at idx of L), if any, must map names to numbers, booleans or strings. */
int mw_lcheck_params(lua_State *L, int idx, enum mw_point pt, struct mw_err *e);
/* Push the context table m for policy lp onto L; a bundle member (bundle != NULL) shares its bundle's m.params
 * and m.state. */
void mw_lpush_ctx(lua_State *L, struct lpol *lp, struct lpol *bundle, const char *const *keys,
                  const char *const *values, int n);

#endif
