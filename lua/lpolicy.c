/* The Lua policy adapter: puts a table of Lua hook functions behind a decision point's C ops table. Built on
 * the cost model of the architecture brief: hooks probed once and kept as luaL_refs, integers as arguments,
 * one reused argument table per hook, every call protected with a traceback and an instruction budget. This file
 * builds, installs and destroys adapters and runs the protected calls; lhooks.c has the per-point trampolines,
 * lctx.c the context `m`, lsandbox.c the hook states of scripts. */
#include "lpolicy_int.h"

#include <lualib.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct lhook_name mw_lhooks[H_N] = {
    {MW_PT_WARP_SCHED, "pick"},     {MW_PT_WARP_SCHED, "qualify"},  {MW_PT_WARP_SCHED, "issued"},
    {MW_PT_L1D_BYPASS, "decide"},   {MW_PT_GRANULARITY, "fetch"},   {MW_PT_DRAM_SCHED, "pick"},
    {MW_PT_CTA_THROTTLE, "limit"},  {MW_PT_LDST_SCHED, "slots"},    {MW_PT_LDST_SCHED, "pick"},
    {MW_PT_REPLACEMENT, "victim"},  {MW_PT_REPLACEMENT, "touch"},   {MW_PT_REPLACEMENT, "insert"},
    {-1, "on_event"},
};
const char *const mw_ldram_cols[DRAM_COLS] = {"arrival", "id", "row", "bank", "is_write", "row_hit", "merge", "age",
                                              "sm"};
const char *const mw_lway_cols[WAY_COLS] = {"line", "last_access", "fill_time", "hits", "valid", "pc", "warp",
                                            "evictable"};
static const char host_key = 'h';

const char *mw_lua_default_policy(enum mw_point pt) { return mw_policy_default_name(pt); }

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
    if (!h || !h->cur || ++h->ticks <= BUDGET_TICKS) return; /* (no hook call running: a coroutine outside) */
    lua_getinfo(L, "Sl", ar);
    luaL_error(L, "%s:%d: instruction budget of %I exceeded (an endless loop?)", ar->short_src, ar->currentline,
               h->cur->budget);
}

void mw_larm_budget(struct lpol *lp)
{
    lua_Integer n = (lp->budget + BUDGET_TICKS - 1) / BUDGET_TICKS;
    lua_sethook(lp->T, mw_lbudget_hook, LUA_MASKCOUNT, (int)(n > 0 ? n : 1));
}

/* The state's lhost, made on first use. */
static struct lhost *host_of(lua_State *L)
{
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &host_key) != LUA_TUSERDATA) {
        lua_pop(L, 1);
        memset(lua_newuserdatauv(L, sizeof(struct lhost), 0), 0, sizeof(struct lhost));
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &host_key);
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
    mw_err_set(&e, MW_EHOOK, NULL, 0, 0, "Lua policy %s.%s: %s", mw_point_names[lp->pt], mw_lhooks[h].name, msg);
    lp->failed = true;
    mw_sim_fail(lp->sim, &e);
}

/* ---- building and destroying --------------------------------------------------------------------------------- */
static void destroy(struct mw_policy_inst *pi)
{
    struct lpol *lp = LP(pi);
    if (!lp) return;
    if (lp->box) lp->box->sim = NULL;
    if (lp->own_state) mw_lhs_close(lp->owner);
    else {
        for (int h = 0; h < H_N; h++) luaL_unref(lp->owner, LUA_REGISTRYINDEX, lp->fn[h]);
        luaL_unref(lp->owner, LUA_REGISTRYINDEX, lp->table_ref);
        luaL_unref(lp->owner, LUA_REGISTRYINDEX, lp->ctx_ref);
        luaL_unref(lp->owner, LUA_REGISTRYINDEX, lp->thread_ref);
    }
    mw_policy_inst_fini(&lp->dflt);
    free(lp);
    pi->lua = NULL;
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
    default: return sizeof(struct mw_policy);
    }
}

/* Build from the table at idx of L (L is the owner state or a thread of it). On failure lp is freed. */
static int build_(lua_State *L, int idx, struct mw_sim *s, enum mw_point pt, const char *const *keys,
                  const char *const *values, int n, bool own_state, const char *label, bool *taken,
                  struct mw_err *e);
/* Build from the table at idx of L. An own state (a script's hook state) belongs to the policy from then on:
 * closed with it, or here if building fails. */
static int build(lua_State *L, int idx, struct mw_sim *s, enum mw_point pt, const char *const *keys,
                 const char *const *values, int n, bool own_state, const char *label, struct mw_err *e)
{
    bool taken = false;
    int rc = build_(L, idx, s, pt, keys, values, n, own_state, label, &taken, e);
    if (rc && own_state && !taken) mw_lhs_close(L);
    return rc;
}

static int build_(lua_State *L, int idx, struct mw_sim *s, enum mw_point pt, const char *const *keys,
                  const char *const *values, int n, bool own_state, const char *label, bool *taken,
                  struct mw_err *e)
{
    idx = lua_absindex(L, idx);
    if (!lua_istable(L, idx))
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s policy: expected a table of hook functions, got %s",
                          mw_point_names[pt], luaL_typename(L, idx));
    /* the hooks this point knows; anything else that is a function is probably a typo */
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (lua_type(L, -2) == LUA_TSTRING && lua_type(L, -1) == LUA_TFUNCTION) {
            const char *k = lua_tostring(L, -2);
            bool known = false;
            for (int h = 0; h < H_N; h++)
                if ((mw_lhooks[h].pt == (int)pt || mw_lhooks[h].pt < 0) && !strcmp(mw_lhooks[h].name, k)) known = true;
            if (!known) {
                char list[200] = "";
                for (int h = 0; h < H_N; h++)
                    if (mw_lhooks[h].pt == (int)pt || mw_lhooks[h].pt < 0)
                        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", list[0] ? ", " : "",
                                 mw_lhooks[h].name);
                int rc = mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s policy: unknown hook '%s' (hooks: %s)",
                                    mw_point_names[pt], k, list);
                lua_pop(L, 2);
                return rc;
            }
        }
        lua_pop(L, 1);
    }
    int prc = mw_lcheck_params(L, idx, pt, e);
    if (prc) return prc;
    struct lpol *lp = calloc(1, sizeof *lp);
    if (!lp) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    lp->pt = pt;
    lp->sim = s;
    lp->owner = L;
    lp->own_state = own_state;
    lp->budget = MW_LUA_BUDGET;
    lp->dpol = mw_policy_find(pt, mw_policy_default_name(pt));
    lp->thread_ref = lp->table_ref = lp->ctx_ref = LUA_NOREF;
    for (int h = 0; h < H_N; h++) lp->fn[h] = LUA_NOREF;
    int rc = lp->dpol ? mw_policy_inst_init(&lp->dflt, lp->dpol, s, NULL, NULL, 0, e)
                      : mw_err_set(e, MW_EINVAL, NULL, 0, 0, "no C default for %s", mw_point_names[pt]);
    if (rc) {
        free(lp);
        return rc;
    }
    memcpy(&lp->ops, lp->dpol, ops_size(pt));
    *taken = true; /* from here on destroy() releases everything, the own state included */
    struct mw_policy_inst pi = {.pol = &lp->ops.base, .sim = s, .lua = lp};

    /* what the table declares about its hooks: bypass retries, what qualify's verdict depends on */
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
        if (!ok) {
            destroy(&pi);
            return mw_err_set(e, MW_EINVAL, NULL, 0, 0,
                              "warp_scheduler policy: qualify_deps must list \"head\", \"mshr\" and/or \"issue\"");
        }
    }
    if (lua_getfield(L, idx, "budget") != LUA_TNIL) {
        int isnum;
        lua_Integer b = lua_tointegerx(L, -1, &isnum);
        if (!isnum || b < 100 || b > 1000000000) {
            lua_pop(L, 1);
            destroy(&pi);
            return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s policy: budget must be an integer in [100, 1e9]",
                              mw_point_names[pt]);
        }
        lp->budget = b;
    }
    lua_pop(L, 1);
    if (lua_getfield(L, idx, "memory") != LUA_TNIL) {
        int isnum;
        lua_Integer mib = lua_tointegerx(L, -1, &isnum);
        if (!isnum || mib < 1 || mib > 65536) {
            lua_pop(L, 1);
            destroy(&pi);
            return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s policy: memory must be a number of MiB in [1, 65536]",
                              mw_point_names[pt]);
        }
        struct lmem *m = mw_lhs_mem(L);
        if (m) m->limit = (size_t)mib << 20; /* a table policy lives in the caller's state, with its allocator */
    }
    lua_pop(L, 1);
    if (lua_getfield(L, idx, "events") == LUA_TTABLE) {
        for (lua_Integer i = 1; lua_rawgeti(L, -1, i) != LUA_TNIL; i++) {
            const char *ev = lua_tostring(L, -1);
            int k = 0;
            while (k < MW_EV_COUNT && !(ev && !strcmp(ev, mw_event_names[k]))) k++;
            if (k == MW_EV_COUNT) {
                lua_pop(L, 2);
                destroy(&pi);
                return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s policy: unknown event '%s' in events",
                                  mw_point_names[pt], ev ? ev : "?");
            }
            lp->lua_events |= MW_EVB(k);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    const char *nm = NULL;
    if (lua_getfield(L, idx, "name") == LUA_TSTRING) nm = lua_tostring(L, -1);
    snprintf(lp->name, sizeof lp->name, "lua:%s", nm ? nm : label);
    lua_pop(L, 1);

    for (int h = 0; h < H_N; h++) {
        if (mw_lhooks[h].pt != (int)pt && mw_lhooks[h].pt >= 0) continue;
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
    mw_lpush_ctx(T, lp, keys, values, n);
    lua_pushvalue(T, S_CTX);
    lp->ctx_ref = luaL_ref(T, LUA_REGISTRYINDEX);
    lua_createtable(T, 64, 0); /* S_LIST */
    if (pt == MW_PT_DRAM_SCHED) mw_lnew_cols(T, mw_ldram_cols, DRAM_COLS);
    else if (pt == MW_PT_REPLACEMENT) mw_lnew_cols(T, mw_lway_cols, WAY_COLS);
    for (int h = 0; h < H_N; h++) { /* the hook functions on fixed slots: lua_pushvalue beats a registry lookup */
        if (lp->fn[h] == LUA_NOREF) continue;
        lua_rawgeti(T, LUA_REGISTRYINDEX, lp->fn[h]);
        lp->slot[h] = lua_gettop(T);
    }
    lp->top = lua_gettop(T);
    mw_larm_budget(lp);

    lp->ops.base.name = lp->name;
    lp->ops.base.desc = "a Lua policy";
    lp->ops.base.params = NULL;
    lp->ops.base.nparams = 0;
    lp->ops.base.params_size = 0;
    lp->ops.base.create = NULL;
    lp->ops.base.destroy = destroy;
    mw_lset_slots(lp);
    return mw_sim_install_policy(s, pt, &pi, e);
}

int mw_lua_policy_table(lua_State *L, int idx, struct mw_sim *s, enum mw_point pt, const char *const *keys,
                        const char *const *values, int n, struct mw_err *e)
{
    /* the owner must be the main thread: L may be a coroutine that ends before the simulation */
    idx = lua_absindex(L, idx);
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
    lua_State *M = lua_tothread(L, -1);
    lua_pop(L, 1);
    if (M != L) {
        lua_pushvalue(L, idx);
        lua_xmove(L, M, 1);
        int rc = build(M, -1, s, pt, keys, values, n, false, "table", e);
        lua_pop(M, 1);
        return rc;
    }
    return build(L, idx, s, pt, keys, values, n, false, "table", e);
}

int mw_lua_policy_script(struct mw_sim *s, enum mw_point pt, const char *script, const char *const *keys,
                         const char *const *values, int n, struct mw_err *e)
{
    lua_State *L = mw_lhs_new();
    if (!L) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "out of memory");
    luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
    luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
    luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
    lua_settop(L, 0);
    /* math.random from the run's seed, so that a Lua policy is as deterministic as a C one */
    lua_getglobal(L, "math");
    lua_getfield(L, -1, "randomseed");
    lua_pushinteger(L, mw_sim_config(s)->sim.seed);
    lua_call(L, 1, 0);
    lua_settop(L, 0);
    /* mw: the name tables (the rest of the module needs the caller's state) */
    lua_createtable(L, 0, 4);
    mw_lua_set_names(L, -1, "mw");
    mw_lhs_make_readonly(L, "mw", 0);
    lua_pushvalue(L, -1);
    lua_setglobal(L, "mw");
    mw_lhs_open_require(L, script);
    lua_pushcfunction(L, mw_lmsgh);
    if (luaL_loadfile(L, script) != LUA_OK || lua_pcall(L, 0, 1, 1) != LUA_OK) {
        int rc = mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s policy script: %s", mw_point_names[pt], lua_tostring(L, -1));
        mw_lhs_close(L);
        return rc;
    }
    if (!lua_istable(L, -1)) {
        int rc = mw_err_set(e, MW_EINVAL, script, 0, 0, "a %s policy script must return a table of hooks, not %s",
                            mw_point_names[pt], luaL_typename(L, -1));
        mw_lhs_close(L);
        return rc;
    }
    const char *base = strrchr(script, '/');
    return build(L, -1, s, pt, keys, values, n, true, base ? base + 1 : script, e);
}

int mw_lua_install_config_policies(struct mw_sim *s, const struct mw_config *c, struct mw_err *e)
{
    for (int pt = 0; pt < MW_PT_COUNT; pt++) {
        const struct mw_policy_choice *ch = &c->policy[pt];
        if (strcmp(ch->impl, "lua") != 0) continue;
        if (!ch->script[0])
            return mw_err_set(e, MW_EINVAL, ch->file[0] ? ch->file : NULL, ch->line, ch->col,
                              "policies.%s: impl: lua needs a script: path.lua", mw_point_names[pt]);
        const char *keys[MW_POLICY_MAX_PARAMS], *vals[MW_POLICY_MAX_PARAMS];
        for (int i = 0; i < ch->nparams; i++) keys[i] = ch->params[i].key, vals[i] = ch->params[i].value;
        /* a relative script path is relative to the config file's folder when it is not found as given */
        char path[1024];
        snprintf(path, sizeof path, "%s", ch->script);
        FILE *f = fopen(path, "r");
        if (!f && ch->script[0] != '/' && c->source[0] && strrchr(c->source, '/')) {
            int dl = (int)(strrchr(c->source, '/') - c->source);
            snprintf(path, sizeof path, "%.*s/%s", dl, c->source, ch->script);
        }
        if (f) fclose(f);
        int rc = mw_lua_policy_script(s, (enum mw_point)pt, path, keys, vals, ch->nparams, e);
        if (rc) return rc;
    }
    return 0;
}
