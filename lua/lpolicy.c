/* The Lua policy adapter: puts a table of Lua hook functions behind a decision point's C ops table. Built on
 * the cost model of the architecture brief: hooks probed once and kept as luaL_refs, integers as arguments,
 * one reused argument table per hook, every call protected with a traceback and a CPU-time watchdog (or an
 * instruction budget). This file
 * builds, installs and destroys adapters and runs the protected calls; lhooks.c has the per-point trampolines,
 * lctx.c the context `m`, lsandbox.c the hook states of scripts. */
#include "lpolicy_int.h"

#include "simctx.h" /* mw_sim_install_bundle: a Lua bundle is installed as the engine installs its own */

#include <errno.h>
#include <limits.h>
#include <lualib.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/time.h>

const struct lhook_name mw_lhooks[H_N] = {
    {MW_PT_WARP_SCHED, "pick"},     {MW_PT_WARP_SCHED, "qualify"},  {MW_PT_WARP_SCHED, "issued"},
    {MW_PT_L1D_BYPASS, "decide"},   {MW_PT_GRANULARITY, "fetch"},   {MW_PT_DRAM_SCHED, "pick"},
    {MW_PT_CTA_THROTTLE, "limit"},  {MW_PT_LDST_SCHED, "slots"},    {MW_PT_LDST_SCHED, "pick"},
    {MW_PT_REPLACEMENT, "victim"},  {MW_PT_REPLACEMENT, "touch"},   {MW_PT_REPLACEMENT, "insert"},
    {MW_PT_REPLACEMENT, "evicted"}, {MW_PT_REPLACEMENT, "victim_probe"},
    {-1, "on_event"},               {-1, "start"},                  {-1, "finish"},
    {-1, "export"},
};
const char *const mw_ldram_cols[DRAM_COLS] = {"arrival", "id", "row", "bank", "is_write", "row_hit", "merge", "age",
                                              "sm", "created", "line"};
const char *const mw_lreq_cols[REQ_COLS] = {"line", "set", "size", "sectors", "lanes"};
const char *const mw_lway_cols[WAY_COLS] = {"line", "last_access", "fill_time", "hits", "valid", "pc", "warp",
                                            "evictable"};
static const char host_key = 'h';

/* ---- protected calls ----------------------------------------------------------------------------------- */

int mw_lmsgh(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

void mw_lbudget_hook(lua_State *L, lua_Debug *ar)
{
    lua_rawgetp(L, LUA_REGISTRYINDEX, &host_key);
    struct lhost *h = lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (!h || !h->cur || h->cur->budget <= 0 || ++h->ticks <= BUDGET_TICKS) return; /* (no budgeted call running) */
    lua_getinfo(L, "Sl", ar);
    luaL_error(L, "%s:%d: instruction budget of %I exceeded (an endless loop?)", ar->short_src, ar->currentline,
               h->cur->budget);
}

void mw_larm_budget(struct lpol *lp)
{
    if (lp->budget <= 0) return; /* the watchdog or budget = false: no count hook, no per-instruction cost */
    lua_Integer n = (lp->budget + BUDGET_TICKS - 1) / BUDGET_TICKS;
    lua_sethook(lp->T, mw_lbudget_hook, LUA_MASKCOUNT, (int)(n > 0 ? n : 1));
}

/* ---- the watchdog: a CPU-time timer that arms a count hook only on a call that outlives a tick ---------------- */
struct lwatch mw_lwd;
static int wd_refs;                         /* watched policies alive */
static volatile sig_atomic_t wd_seen, wd_last; /* the previous tick found call wd_last running */
static struct sigaction wd_old_sa;
static struct itimerval wd_old_it;

static volatile sig_atomic_t wd_overdue; /* ticks the armed call has run on since its hook was armed */
char mw_lwd_where[160];                  /* "file:line in string.find" while a hook state runs a pattern */

static void put(char *buf, size_t *n, size_t cap, const char *t)
{
    while (t && *t && *n + 1 < cap) buf[(*n)++] = *t++;
}

/* A call that keeps running MW_LUA_HARD_TICKS ticks after its count hook was armed runs where Lua's hooks cannot
 * reach (a __gc finalizer: Lua turns hooks off while they run; or a C function such as a pathological
 * string.find): the state cannot be unwound safely, so the process stops with the hook named. write() and _exit()
 * are async-signal-safe. */
static void wd_hard_stop(void)
{
    char msg[512];
    size_t n = 0;
    put(msg, &n, sizeof msg, "moonwarp: Lua policy ");
    put(msg, &n, sizeof msg, mw_lwd.pt >= 0 && mw_lwd.pt < MW_PT_COUNT ? mw_point_names[mw_lwd.pt] : "?");
    put(msg, &n, sizeof msg, mw_lwd.h >= 0 ? "." : " script");
    put(msg, &n, sizeof msg, mw_lwd.h >= 0 ? mw_lhooks[mw_lwd.h].name : " (its top-level chunk)");
    put(msg, &n, sizeof msg, ": still running a second of CPU time after its time budget ran out, where Lua's hooks "
                             "cannot stop it (an endless loop in a __gc finalizer, or a C function such as "
                             "string.find on a pathological pattern");
    if (mw_lwd_where[0]) put(msg, &n, sizeof msg, ": last at "), put(msg, &n, sizeof msg, mw_lwd_where);
    put(msg, &n, sizeof msg, "); the run is stopped, no stats written\n");
    ssize_t w = write(2, msg, n);
    (void)w;
    _exit(3);
}

/* SIGPROF: only async-signal-safe work. lua_sethook may be called from a signal handler (lua.c does for SIGINT). */
static void wd_tick(int sig)
{
    (void)sig;
    int saved = errno;
    if (!mw_lwd.busy) wd_seen = 0, wd_overdue = 0;
    else {
        sig_atomic_t seq = mw_lwd.seq;
        lua_State *T = mw_lwd.T;
        if (wd_seen && wd_last == seq && T) {
            if (mw_lwd.armed == seq && ++wd_overdue >= MW_LUA_HARD_TICKS) wd_hard_stop();
            if (mw_lwd.armed != seq) wd_overdue = 0;
            mw_lwd.armed = seq;
            lua_sethook(T, mw_lwatch_hook, LUA_MASKCOUNT, 1);
        }
        wd_last = seq;
        wd_seen = 1;
    }
    errno = saved;
}

void mw_lwatch_hook(lua_State *L, lua_Debug *ar)
{
    lua_sethook(L, NULL, 0, 0);
    if (!mw_lwd.busy || mw_lwd.seq != mw_lwd.armed) return; /* armed for a call that has ended */
    lua_getinfo(L, "Sl", ar);
    luaL_error(L, "%s:%d: time budget exceeded: the call ran for over %d ms of CPU time (an endless loop?)",
               ar->short_src, ar->currentline, MW_LUA_WATCH_MS);
}

static void timer_start(void);
static void timer_stop(void);
void mw_lwatch_start(struct lpol *lp)
{
    lp->watched = true;
    timer_start();
}

/* lua_pcall of a script's top-level chunk under the watchdog (the chunk of a script policy, as its hooks). */
int mw_lwatch_pcall(lua_State *L, int nargs, int nres, int msgh, int pt)
{
    timer_start();
    lua_State *wprev = mw_lwd.T;
    sig_atomic_t wbusy = mw_lwd.busy, wpt = mw_lwd.pt, wh = mw_lwd.h;
    if (!wbusy) mw_lwd.seq = mw_lwd.seq + 1;
    mw_lwd.T = L, mw_lwd.pt = pt, mw_lwd.h = -1, mw_lwd.busy = 1;
    int rc = lua_pcall(L, nargs, nres, msgh);
    mw_lwd.busy = wbusy, mw_lwd.T = wprev, mw_lwd.pt = wpt, mw_lwd.h = wh;
    if (lua_gethook(L) == mw_lwatch_hook) lua_sethook(L, NULL, 0, 0);
    timer_stop();
    return rc;
}

static void timer_start(void)
{
    if (wd_refs++) return;
    wd_seen = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = wd_tick;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART; /* stdio, the trace reader and readline see no EINTR */
    sigaction(SIGPROF, &sa, &wd_old_sa);
    struct itimerval it = {{0, MW_LUA_WATCH_MS * 1000}, {0, MW_LUA_WATCH_MS * 1000}};
    setitimer(ITIMER_PROF, &it, &wd_old_it);
}

static void wd_stop(struct lpol *lp)
{
    if (!lp->watched) return;
    lp->watched = false;
    timer_stop();
}

static void timer_stop(void)
{
    if (--wd_refs) return;
    /* the timer first: a tick due now is delivered on return from setitimer, still to wd_tick */
    setitimer(ITIMER_PROF, &wd_old_it, NULL);
    sigaction(SIGPROF, &wd_old_sa, NULL);
}

/* The state's lhost, made on first use. */
/* ---- the limits in a state with the full libraries (a table policy in the user's own program) ----------------
 * Hooks are per thread: a coroutine resumed from inside a hook call runs under the time limit (and the
 * instruction budget) only if the resume passes them on; debug.sethook inside a hook call would take them away. */
static int guard_resume(lua_State *L)
{
    lua_State *co = lua_tothread(L, 1);
    int n = lua_gettop(L);
    lua_State *T = mw_lwd.T;
    if (co && mw_lwd.busy && T) {
        if (lua_gethook(L) == mw_lbudget_hook && lua_gethook(co) != mw_lbudget_hook)
            lua_sethook(co, mw_lbudget_hook, LUA_MASKCOUNT, lua_gethookcount(L));
        mw_lwd.T = co;
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    if (co && mw_lwd.busy && T) {
        mw_lwd.T = T;
        if (lua_gethook(co) == mw_lwatch_hook) lua_sethook(co, NULL, 0, 0);
    }
    return lua_gettop(L);
}
/* coroutine.wrap through guard_resume: errors propagate as the standard wrap's do (a string gets the position). */
static int guard_wrapped(lua_State *L)
{
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(2)); /* guard_resume */
    lua_pushvalue(L, lua_upvalueindex(1)); /* the coroutine */
    for (int i = 1; i <= n; i++) lua_pushvalue(L, i);
    lua_call(L, n + 1, LUA_MULTRET);
    if (!lua_toboolean(L, n + 1)) {
        if (lua_type(L, n + 2) == LUA_TSTRING) {
            luaL_where(L, 1);
            lua_insert(L, -2);
            lua_concat(L, 2);
        }
        return lua_error(L);
    }
    return lua_gettop(L) - n - 1;
}
static int guard_wrap(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *co = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushcclosure(L, guard_wrapped, 2);
    return 1;
}
static int guard_sethook(lua_State *L)
{
    if (mw_lwd.busy)
        return luaL_error(L, "debug.sethook: not available inside a policy hook (it would take the hook's time limit "
                             "and instruction budget away)");
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    return lua_gettop(L);
}
static void install_guards(lua_State *L)
{
    int top = lua_gettop(L);
    if (lua_getglobal(L, "coroutine") == LUA_TTABLE && lua_getfield(L, -1, "resume") == LUA_TFUNCTION) {
        lua_pushcclosure(L, guard_resume, 1);
        lua_pushvalue(L, -1);
        lua_setfield(L, -3, "resume");
        lua_pushcclosure(L, guard_wrap, 1);
        lua_setfield(L, -2, "wrap");
    }
    lua_settop(L, top);
    if (lua_getglobal(L, "debug") == LUA_TTABLE && lua_getfield(L, -1, "sethook") == LUA_TFUNCTION) {
        lua_pushcclosure(L, guard_sethook, 1);
        lua_setfield(L, -2, "sethook");
    }
    lua_settop(L, top);
}

static struct lhost *host_of(lua_State *L)
{
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &host_key) != LUA_TUSERDATA) {
        lua_pop(L, 1);
        memset(lua_newuserdatauv(L, sizeof(struct lhost), 0), 0, sizeof(struct lhost));
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &host_key);
        install_guards(L);
    }
    struct lhost *h = lua_touserdata(L, -1);
    lua_pop(L, 1);
    return h;
}

void mw_lfail(struct lpol *lp, int h, const char *fmt, ...)
{
    char msg[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    struct mw_err e;
    mw_err_clear(&e);
    mw_err_set(&e, MW_EHOOK, NULL, 0, 0, "Lua policy %s.%s: %s", mw_point_name(lp->pt), mw_lhooks[h].name, msg);
    lp->failed = true;
    mw_sim_fail(lp->sim, &e);
}

/* ---- building and destroying --------------------------------------------------------------------------------- */
static struct lgroup *group_new(lua_State *L, bool own_state)
{
    struct lgroup *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->owner = L;
    g->own_state = own_state;
    g->refs = 1; /* the builder's */
    return g;
}

static void group_unref(struct lgroup *g)
{
    if (--g->refs) return;
    if (g->own_state) mw_lhs_close(g->owner);
    free(g);
}

/* Release one adapter: its refs in the owner state, its C default, then its reference on the group. */
static void lpol_free(struct lpol *lp)
{
    struct lgroup *g = lp->group;
    wd_stop(lp);
    if (lp->box) lp->box->sim = NULL, lp->box->lp = NULL, lp->box->started = false; /* a kept m goes stale */
    for (int h = 0; h < H_N; h++) luaL_unref(lp->owner, LUA_REGISTRYINDEX, lp->fn[h]);
    luaL_unref(lp->owner, LUA_REGISTRYINDEX, lp->table_ref);
    luaL_unref(lp->owner, LUA_REGISTRYINDEX, lp->ctx_ref);
    luaL_unref(lp->owner, LUA_REGISTRYINDEX, lp->thread_ref);
    if (g->members[lp->slot] == lp) g->members[lp->slot] = NULL;
    if (lp->dflt.pol) mw_policy_inst_fini(&lp->dflt);
    for (int i = 0; i < lp->ndescs; i++) free(lp->descs[i]);
    free(lp->descs);
    free(lp);
    group_unref(g);
}

static void destroy(struct mw_policy_inst *pi)
{
    struct lpol *lp = LP(pi);
    if (!lp) return;
    pi->lua = NULL;
    /* an installation that fails destroys the instance and then names the policy in its error message (the
     * engine's own ops tables are static): keep the ops table until the installation returns */
    if (lp->group->installing) lp->released = true;
    else lpol_free(lp);
}

/* A bundle member's instance, made by the engine when it installs the bundle: the adapter is the ops table's
 * container. */
static int member_create(struct mw_policy_inst *pi, struct mw_err *e)
{
    (void)e;
    struct lpol *lp = (struct lpol *)(void *)((char *)pi->pol - offsetof(struct lpol, ops));
    pi->lua = lp;
    lp->live = true;
    return 0;
}

static size_t ops_size(enum mw_point pt)
{
    switch (pt) {
    case MW_PT_WARP_SCHED: return sizeof(struct mw_warp_sched_ops);
    case MW_PT_L1D_BYPASS: return sizeof(struct mw_l1d_bypass_ops);
    case MW_PT_GRANULARITY: return sizeof(struct mw_granularity_ops);
    case MW_PT_DRAM_SCHED: return sizeof(struct mw_dram_sched_ops);
    case MW_PT_CTA_THROTTLE: return sizeof(struct mw_cta_throttle_ops);
    case MW_PT_LDST_SCHED: return sizeof(struct mw_ldst_sched_ops);
    case MW_PT_REPLACEMENT: return sizeof(struct mw_replacement_ops);
    case MW_PT_BUNDLE: return sizeof(struct mw_bundle_ops);
    default: return sizeof(struct mw_policy);
    }
}

static bool hook_of(int h, enum mw_point pt) { return mw_lhooks[h].pt == (int)pt || mw_lhooks[h].pt < 0; }

/* The table at idx must hold only hooks the point knows (anything else that is a function is probably a typo)
 * and, in a bundle, tables at point names. */
static int check_hooks(lua_State *L, int idx, enum mw_point pt, struct mw_err *e)
{
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        int rc = 0;
        if (k && lua_type(L, -1) == LUA_TFUNCTION) {
            bool known = false;
            for (int h = 0; h < H_N; h++)
                if (hook_of(h, pt) && !strcmp(mw_lhooks[h].name, k)) known = true;
            if (!known) {
                char list[300] = "";
                for (int h = 0; h < H_N; h++)
                    if (hook_of(h, pt))
                        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", list[0] ? ", " : "",
                                 mw_lhooks[h].name);
                rc = mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s policy: unknown hook '%s' (hooks: %s)", mw_point_name(pt),
                                k, list);
            }
        } else if (k && pt == MW_PT_BUNDLE && lua_type(L, -1) == LUA_TTABLE && strcmp(k, "params") &&
                   strcmp(k, "events")) {
            int slot = mw_slot_from_name(k);
            if (slot < 0 || slot == MW_SLOT_BUNDLE)
                rc = mw_err_set(e, MW_EINVAL, NULL, 0, 0, "bundle: '%s' is not a decision point", k);
            else if (slot == MW_SLOT_L2_REPLACEMENT)
                rc = mw_err_set(e, MW_EINVAL, NULL, 0, 0, "bundle: l2_replacement cannot be a Lua policy");
        }
        if (rc) {
            lua_pop(L, 2);
            return rc;
        }
        lua_pop(L, 1);
    }
    return 0;
}

static int int_field(lua_State *L, int idx, const char *k, lua_Integer lo, lua_Integer hi, lua_Integer *out,
                     const char *what, enum mw_point pt, struct mw_err *e)
{
    int rc = 0;
    if (lua_getfield(L, idx, k) != LUA_TNIL) {
        int isnum;
        lua_Integer v = lua_tointegerx(L, -1, &isnum);
        if (!isnum || v < lo || v > hi)
            rc = mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s policy: %s", mw_point_name(pt), what);
        else *out = v;
    }
    lua_pop(L, 1);
    return rc;
}

/* What the table declares besides its hooks: bypass retries, qualify's dependencies, budget, memory, events,
 * name, per-line bytes. */
static int read_fields(lua_State *L, int idx, struct lpol *lp, const char *label, struct mw_err *e)
{
    enum mw_point pt = lp->pt;
    if (pt == MW_PT_L1D_BYPASS) {
        lua_getfield(L, idx, "retries");
        lp->ops.by.retries = lua_toboolean(L, -1);
        lua_pop(L, 1);
    }
    if (pt == MW_PT_WARP_SCHED) {
        static const char *const dep_names[] = {"head", "mshr", "issue"};
        int top = lua_gettop(L);
        bool ok = true;
        if (lua_getfield(L, idx, "qualify_deps") != LUA_TNIL) {
            uint32_t deps = 0;
            ok = lua_istable(L, -1);
            for (lua_Integer i = 1; ok; i++) {
                if (lua_rawgeti(L, -1, i) == LUA_TNIL) break;
                const char *d = lua_tostring(L, -1);
                int k = 0;
                while (k < 3 && !(d && strcmp(d, dep_names[k]) == 0)) k++;
                ok = k < 3;
                deps |= 1u << k;
                lua_pop(L, 1);
            }
            lp->ops.ws.qualify_deps = deps;
        }
        lua_settop(L, top);
        if (!ok)
            return mw_err_set(e, MW_EINVAL, NULL, 0, 0,
                              "warp_scheduler policy: qualify_deps must list \"head\", \"mshr\" and/or \"issue\"");
    }
    int rc = 0;
    if (lua_getfield(L, idx, "budget") == LUA_TBOOLEAN && !lua_toboolean(L, -1)) lp->budget = 0;
    else rc = int_field(L, idx, "budget", 100, 1000000000, &lp->budget,
                        "budget must be an integer in [100, 1e9], or false for none", pt, e);
    lua_pop(L, 1);
    lua_Integer mib = 0, meta = 0;
    if (!rc) rc = int_field(L, idx, "memory", 1, 65536, &mib, "memory must be a number of MiB in [1, 65536]", pt, e);
    if (!rc) rc = int_field(L, idx, "line_meta", 0, 8, &meta, "line_meta must be a number of bytes in [0, 8]", pt, e);
    if (rc) return rc;
    struct lmem *m = mw_lhs_mem(L);
    int64_t ceiling = mw_sim_config(lp->sim)->sim.lua_memory_mib;
    if (m && mib > ceiling) /* a script may lower its cap, never raise it past the config's */
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0,
                          "%s policy: memory = %lld MiB is above the ceiling of %lld MiB set by sim.lua_memory_mib",
                          mw_point_name(pt), (long long)mib, (long long)ceiling);
    if (m && mib) m->limit = (size_t)mib << 20; /* a table policy lives in the caller's state, with its allocator */
    lp->meta_n = (size_t)meta;
    if (lua_getfield(L, idx, "events") == LUA_TTABLE) {
        for (lua_Integer i = 1; lua_rawgeti(L, -1, i) != LUA_TNIL; i++) {
            const char *ev = lua_tostring(L, -1);
            int k = 0;
            while (k < MW_EV_COUNT && !(ev && !strcmp(ev, mw_event_names[k]))) k++;
            if (k == MW_EV_COUNT) {
                rc = mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s policy: unknown event '%s' in events", mw_point_name(pt),
                                ev ? ev : "?");
                lua_pop(L, 2);
                break;
            }
            lp->lua_events |= MW_EVB(k);
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    if (rc) return rc;
    const char *nm = NULL;
    if (lua_getfield(L, idx, "name") == LUA_TSTRING) nm = lua_tostring(L, -1);
    snprintf(lp->name, sizeof lp->name, "lua:%s", nm ? nm : label);
    lua_pop(L, 1);
    return 0;
}

/* Build one adapter for point pt (MW_PT_BUNDLE: a bundle's own) from the table at idx of g->owner, to be installed
 * in `slot`; `bundle`, for a member, is its bundle's adapter (whose m.params and m.state the member shares). On
 * failure nothing is left behind but the error. */
static int build_one(struct lgroup *g, int idx, struct mw_sim *s, enum mw_point pt, int slot, struct lpol *bundle,
                     const char *const *keys, const char *const *values, int n, const char *label, struct lpol **out,
                     struct mw_err *e)
{
    lua_State *L = g->owner;
    idx = lua_absindex(L, idx);
    if (!lua_istable(L, idx))
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s policy: expected a table of hook functions, got %s",
                          mw_point_name(pt), luaL_typename(L, idx));
    int rc = check_hooks(L, idx, pt, e);
    if (!rc && !bundle) rc = mw_lcheck_params(L, idx, pt, e);
    if (rc) return rc;
    struct lpol *lp = calloc(1, sizeof *lp);
    if (!lp) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    lp->pt = pt;
    lp->slot = slot;
    lp->sim = s;
    lp->group = g;
    lp->owner = L;
    g->refs++;
    lp->budget = bundle ? bundle->budget : MW_LUA_WATCHDOG;
    lp->dpol = mw_policy_default(pt);
    lp->thread_ref = lp->table_ref = lp->ctx_ref = LUA_NOREF;
    for (int h = 0; h < H_N; h++) lp->fn[h] = LUA_NOREF;
    rc = lp->dpol ? mw_policy_inst_init(&lp->dflt, lp->dpol, s, NULL, NULL, 0, e)
                  : mw_err_set(e, MW_EINVAL, NULL, 0, 0, "no C default for %s", mw_point_name(pt));
    if (!rc) {
        memcpy(&lp->ops, lp->dpol, ops_size(pt));
        rc = read_fields(L, idx, lp, label, e);
    }
    if (rc) {
        lpol_free(lp);
        return rc;
    }
    if (bundle) snprintf(lp->name, sizeof lp->name, "%s", bundle->name);

    for (int h = 0; h < H_N; h++) {
        if (!hook_of(h, pt)) continue;
        if (lua_getfield(L, idx, mw_lhooks[h].name) == LUA_TFUNCTION) lp->fn[h] = luaL_ref(L, LUA_REGISTRYINDEX);
        else lua_pop(L, 1);
    }
    if (lp->fn[H_EVENT] == LUA_NOREF) lp->lua_events = 0;
    lua_pushvalue(L, idx);
    lp->table_ref = luaL_ref(L, LUA_REGISTRYINDEX);

    /* the hook thread and its fixed stack: message handler, context, reused argument tables */
    lp->T = lua_newthread(L);
    lp->thread_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lp->host = host_of(L);
    lua_State *T = lp->T;
    lua_pushcfunction(T, mw_lmsgh);
    mw_lpush_ctx(T, lp, bundle, keys, values, n);
    lua_pushvalue(T, S_CTX);
    lp->ctx_ref = luaL_ref(T, LUA_REGISTRYINDEX);
    lua_createtable(T, 64, 0); /* S_LIST */
    if (pt == MW_PT_DRAM_SCHED) mw_lnew_cols(T, lp, mw_ldram_cols, DRAM_COLS, 1u << 4 | 1u << 5);
    else if (pt == MW_PT_REPLACEMENT) mw_lnew_cols(T, lp, mw_lway_cols, WAY_COLS, 1u << 7);
    else if (pt == MW_PT_L1D_BYPASS) mw_lnew_cols(T, lp, mw_lreq_cols, REQ_COLS, 0);
    for (int h = 0; h < H_N; h++) { /* the hook functions on fixed slots: lua_pushvalue beats a registry lookup */
        if (lp->fn[h] == LUA_NOREF) continue;
        lua_rawgeti(T, LUA_REGISTRYINDEX, lp->fn[h]);
        lp->fslot[h] = lua_gettop(T);
        lua_Debug ar;
        lua_pushvalue(T, -1);
        lua_getinfo(T, ">u", &ar);
        lp->nargs[h] = ar.isvararg ? INT_MAX : ar.nparams > 0 ? ar.nparams - 1 : 0;
    }
    lp->top = lua_gettop(T);
    mw_larm_budget(lp);

    lp->ops.base.name = lp->name;
    lp->ops.base.desc = pt == MW_PT_BUNDLE ? "a Lua bundle" : "a Lua policy";
    lp->ops.base.params = NULL;
    lp->ops.base.nparams = 0;
    lp->ops.base.params_size = 0;
    lp->ops.base.create = bundle ? member_create : NULL;
    lp->ops.base.destroy = destroy;
    mw_lset_slots(lp);
    *out = lp;
    return 0;
}

/* Build and install what the table at idx of g->owner describes: a policy for point pt, or with pt ==
 * MW_PT_BUNDLE a bundle and its members. Drops the builder's reference on g. */
static int build(struct lgroup *g, int idx, struct mw_sim *s, enum mw_point pt, const char *const *keys,
                 const char *const *values, int n, const bool *configured, const char *label, struct mw_err *e)
{
    lua_State *L = g->owner;
    idx = lua_absindex(L, idx);
    struct lpol *lp = NULL;
    int rc;
    bool is_bundle = lua_istable(L, idx) && lua_getfield(L, idx, "bundle") != LUA_TNIL && lua_toboolean(L, -1);
    if (lua_istable(L, idx)) lua_pop(L, 1);
    if (is_bundle && pt != MW_PT_BUNDLE)
        rc = mw_err_set(e, MW_EINVAL, NULL, 0, 0,
                        "%s policy: this table is a bundle (bundle = true): install it as policies.bundle",
                        mw_point_name(pt));
    else
        rc = build_one(g, idx, s, pt, pt == MW_PT_BUNDLE ? MW_SLOT_BUNDLE : (int)pt, NULL, keys, values, n, label, &lp,
                       e);
    if (rc) {
        group_unref(g);
        return rc;
    }
    struct mw_policy_inst pi = {.pol = &lp->ops.base, .sim = s, .lua = lp};
    lp->live = true;
    if (pt != MW_PT_BUNDLE) {
        g->members[lp->slot] = lp;
        g->installing = true;
        rc = mw_sim_install_policy(s, pt, &pi, e); /* on failure the engine destroys it */
        g->installing = false;
        if (lp->released) lpol_free(lp);
        group_unref(g);
        return rc;
    }
    g->members[MW_SLOT_BUNDLE] = lp;
    for (int k = 0; k < MW_PT_COUNT && !rc; k++) {
        if (lua_getfield(L, idx, mw_point_names[k]) == LUA_TTABLE) {
            struct lpol *m = NULL;
            rc = build_one(g, -1, s, (enum mw_point)k, k, lp, NULL, NULL, 0, label, &m, e);
            if (!rc) {
                g->members[k] = m;
                lp->ops.bu.members[k] = &m->ops.base;
            }
        }
        lua_pop(L, 1);
    }
    g->installing = true;
    if (rc) mw_policy_inst_fini(&pi);
    else rc = mw_sim_install_bundle(s, &pi, configured, e); /* on failure the engine destroys the bundle's own */
    g->installing = false;
    for (int k = 0; k < MW_SLOT_COUNT; k++) /* what the engine destroyed or never took */
        if (g->members[k] && (g->members[k]->released || !g->members[k]->live)) lpol_free(g->members[k]);
    group_unref(g);
    return rc;
}

/* A Lua state's main thread: the owner of a table policy (L may be a coroutine that ends before the run). */
static lua_State *main_thread(lua_State *L)
{
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
    lua_State *M = lua_tothread(L, -1);
    lua_pop(L, 1);
    return M;
}

int mw_lua_policy_table(lua_State *L, int idx, struct mw_sim *s, enum mw_point pt, const char *const *keys,
                        const char *const *values, int n, const bool *configured, struct mw_err *e)
{
    idx = lua_absindex(L, idx);
    lua_State *M = main_thread(L);
    struct lgroup *g = group_new(M, false);
    if (!g) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    lua_pushvalue(L, idx);
    if (M != L) lua_xmove(L, M, 1);
    int rc = build(g, -1, s, pt, keys, values, n, configured, "table", e);
    lua_pop(M, 1);
    return rc;
}

int mw_lua_policy_script(struct mw_sim *s, enum mw_point pt, const char *script, const char *const *keys,
                         const char *const *values, int n, const bool *configured, struct mw_err *e)
{
    lua_State *L = mw_lhs_new(mw_sim_config(s)->sim.seed, mw_sim_config(s)->sim.lua_memory_mib);
    if (!L) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    lua_getglobal(L, "mw");
    mw_lhs_open_require(L, script);
    lua_pushcfunction(L, mw_lmsgh);
    if (luaL_loadfilex(L, script, "t") != LUA_OK || mw_lwatch_pcall(L, 0, 1, 1, pt) != LUA_OK) {
        int rc = mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s policy script: %s", mw_point_name(pt), lua_tostring(L, -1));
        mw_lhs_close(L);
        return rc;
    }
    if (!lua_istable(L, -1)) {
        int rc = mw_err_set(e, MW_EINVAL, script, 0, 0, "a %s policy script must return a table of hooks, not %s",
                            mw_point_name(pt), luaL_typename(L, -1));
        mw_lhs_close(L);
        return rc;
    }
    struct lgroup *g = group_new(L, true);
    if (!g) {
        mw_lhs_close(L);
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    }
    const char *base = strrchr(script, '/');
    return build(g, -1, s, pt, keys, values, n, configured, base ? base + 1 : script, e);
}

int mw_lua_install_config_policies(struct mw_sim *s, const struct mw_config *c, struct mw_err *e)
{
    bool configured[MW_SLOT_COUNT]; /* as the engine decides it for built-in bundles */
    for (int k = 0; k < MW_SLOT_COUNT; k++) configured[k] = mw_config_slot_chosen(c, k);
    static const int order[] = {MW_SLOT_BUNDLE, 0, 1, 2, 3, 4, 5, 6}; /* the bundle first: it checks the others */
    for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
        int k = order[i];
        const struct mw_policy_choice *ch = &c->policy[k];
        if (strcmp(ch->impl, "lua") != 0) continue;
        if (!ch->script[0])
            return mw_err_set(e, MW_EINVAL, ch->file[0] ? ch->file : NULL, ch->line, ch->col,
                              "policies.%s: impl: lua needs a script: path.lua", mw_slot_names[k]);
        const char *keys[MW_POLICY_MAX_PARAMS], *vals[MW_POLICY_MAX_PARAMS];
        for (int j = 0; j < ch->nparams; j++) keys[j] = ch->params[j].key, vals[j] = ch->params[j].value;
        /* a relative script path is relative to the config file's folder when it is not found as given */
        char path[1024];
        snprintf(path, sizeof path, "%s", ch->script);
        FILE *f = fopen(path, "r");
        if (!f && ch->script[0] != '/' && c->source[0] && strrchr(c->source, '/')) {
            int dl = (int)(strrchr(c->source, '/') - c->source);
            snprintf(path, sizeof path, "%.*s/%s", dl, c->source, ch->script);
        }
        if (f) fclose(f);
        int rc = mw_lua_policy_script(s, mw_slot_point(k), path, keys, vals, ch->nparams, configured, e);
        if (rc) return rc;
    }
    return 0;
}

/* ---- what a policy exports to the script that runs the simulation ------------------------------------------ */
struct copy_job {
    lua_State *from;
    int idx;
};

/* Copy the value at idx of F onto L; `seen` (an index of L) maps tables already copied, so shared and cyclic
 * tables copy as such. */
static void copy_value(lua_State *F, int idx, lua_State *L, int seen, int depth)
{
    idx = lua_absindex(F, idx);
    switch (lua_type(F, idx)) {
    case LUA_TNIL: lua_pushnil(L); return;
    case LUA_TBOOLEAN: lua_pushboolean(L, lua_toboolean(F, idx)); return;
    case LUA_TNUMBER:
        if (lua_isinteger(F, idx)) lua_pushinteger(L, lua_tointeger(F, idx));
        else lua_pushnumber(L, lua_tonumber(F, idx));
        return;
    case LUA_TSTRING: {
        size_t len;
        const char *str = lua_tolstring(F, idx, &len);
        lua_pushlstring(L, str, len);
        return;
    }
    case LUA_TTABLE: break;
    default: luaL_error(L, "a %s cannot leave the policy's hook state", luaL_typename(F, idx));
    }
    if (lua_rawgetp(L, seen, lua_topointer(F, idx)) == LUA_TTABLE) return;
    lua_pop(L, 1);
    if (depth > 64) luaL_error(L, "tables nested more than 64 deep");
    luaL_checkstack(L, 4, NULL);
    if (!lua_checkstack(F, 3)) luaL_error(L, "stack overflow");
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, seen, lua_topointer(F, idx));
    lua_pushnil(F);
    while (lua_next(F, idx)) {
        copy_value(F, -2, L, seen, depth + 1);
        copy_value(F, -1, L, seen, depth + 1);
        lua_rawset(L, -3);
        lua_pop(F, 1);
    }
}

static int copy_protected(lua_State *L)
{
    struct copy_job *j = lua_touserdata(L, 1);
    lua_newtable(L);
    copy_value(j->from, j->idx, L, lua_gettop(L), 0);
    return 1;
}

void mw_lua_policy_value(lua_State *L, struct mw_sim *s, int slot)
{
    struct mw_policy_inst *pi = mw_sim_policy(s, (enum mw_point)slot);
    struct lpol *lp = pi->pol ? LP(pi) : NULL;
    if (!lp) {
        lua_pushnil(L);
        return;
    }
    lua_State *T = lp->T;
    char err[1024] = "";
    if (lp->fn[H_EXPORT] != LUA_NOREF) {
        struct lhost *ho = lp->host;
        struct lpol *prev = ho->cur;
        int prev_ticks = ho->ticks;
        lua_rawgeti(T, LUA_REGISTRYINDEX, lp->fn[H_EXPORT]);
        lua_rawgeti(T, LUA_REGISTRYINDEX, lp->ctx_ref);
        ho->cur = lp, ho->ticks = 0;
        int rc = lua_pcall(T, 1, 1, S_MSGH);
        ho->cur = prev, ho->ticks = prev_ticks;
        if (rc != LUA_OK) {
            snprintf(err, sizeof err, "%s", lua_type(T, -1) == LUA_TSTRING ? lua_tostring(T, -1) : "out of memory");
            lua_settop(T, lp->top);
            luaL_error(L, "sim:policy: %s.export: %s", mw_slot_names[slot], err);
        }
    } else {
        lua_rawgeti(T, LUA_REGISTRYINDEX, lp->ctx_ref);
        lua_getfield(T, -1, "state");
        lua_remove(T, -2);
    }
    if (!lp->group->own_state) { /* the same Lua state: the value itself */
        lua_xmove(T, L, 1);
        return;
    }
    struct copy_job j = {T, lua_gettop(T)};
    lua_pushcfunction(L, copy_protected);
    lua_pushlightuserdata(L, &j);
    int rc = lua_pcall(L, 1, 1, 0);
    lua_settop(T, lp->top);
    if (rc != LUA_OK) {
        snprintf(err, sizeof err, "%s", lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "out of memory");
        luaL_error(L, "sim:policy: the value of %s (%s): %s", lp->name, mw_slot_names[slot], err);
    }
}

int mw_lua_builtin_bundle(struct mw_sim *s, const struct mw_policy *p, const char *const *keys,
                          const char *const *values, int n, const bool *configured, struct mw_err *e)
{
    struct mw_policy_inst bi;
    int rc = mw_policy_inst_init(&bi, p, s, keys, values, n, e);
    return rc ? rc : mw_sim_install_bundle(s, &bi, configured, e);
}
