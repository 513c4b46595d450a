/* The `moonwarp` Lua module (liolib.c's shape: a userdata class whose metatable's __index is its method
 * table). mw.sim{...} builds a simulation from a YAML file or a Lua table through the config loader's own
 * validation; methods choose policies (built-in by name, or Lua tables via lpolicy.c), run, step, reset,
 * read stats and look inside the machine (engine/inspect.h). */
#include "lmoonwarp.h"
#include "paths.h"

#include "config.h"
#include "inspect.h"
#include "lpolicy.h"
#include "policy.h"
#include "sim.h"
#include "workload.h"
#include "lworkload.h"

#include <lauxlib.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SIM_MT "moonwarp.sim"

struct lsim {
    struct mw_sim *s;    /* NULL once closed */
    struct mw_config *cfg;
    char workload[128], size[32], trace[1024];
    bool lua_wl;         /* the workload is a Lua description (kept in the uservalue table as "workload") */
    int running;
    unsigned gen;        /* bumped by reset */
};

/* The simulation inside sim:run(), for Ctrl-C. Only a signal handler reads it besides run itself. */
static struct mw_sim *volatile running_sim;
static volatile sig_atomic_t interrupted;

int mw_lua_interrupt(void)
{
    struct mw_sim *s = running_sim;
    if (!s) return 0;
    interrupted = 1;
    mw_sim_interrupt(s);
    return 1;
}
int mw_lua_take_interrupted(void)
{
    int x = interrupted;
    interrupted = 0;
    return x;
}

static int raise_err(lua_State *L, const char *what, const struct mw_err *e)
{
    char buf[1600];
    return luaL_error(L, "%s: %s", what, mw_err_str(e, buf, sizeof buf));
}

static struct lsim *check_open(lua_State *L, int i)
{
    struct lsim *ls = luaL_checkudata(L, i, SIM_MT);
    if (!ls->s) luaL_error(L, "this simulation was closed; create a new one with mw.sim{...}");
    return ls;
}
static struct lsim *check_idle(lua_State *L, int i)
{
    struct lsim *ls = check_open(L, i);
    if (ls->running) luaL_error(L, "this simulation is running (called from one of its own policy hooks?)");
    return ls;
}

/* ---- config from a Lua table ---------------------------------------------------------------------------- */
static const char *value_text(lua_State *L, int idx, char *buf, size_t n)
{
    switch (lua_type(L, idx)) {
    case LUA_TBOOLEAN: return lua_toboolean(L, idx) ? "true" : "false";
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx)) snprintf(buf, n, "%lld", (long long)lua_tointeger(L, idx));
        else snprintf(buf, n, "%.17g", lua_tonumber(L, idx));
        return buf;
    case LUA_TSTRING: return lua_tostring(L, idx);
    default: return NULL;
    }
}

static void table_set(lua_State *L, struct mw_config *c, const char *path, const char *val)
{
    char a[1400];
    snprintf(a, sizeof a, "%s=%s", path, val ? val : ""); /* (never NULL: every caller has raised its error) */
    struct mw_err e;
    mw_err_clear(&e);
    if (mw_config_set(c, a, &e)) {
        if (!strncmp(e.msg, path, strlen(path))) luaL_error(L, "mw.sim: config table: %s", e.msg);
        luaL_error(L, "mw.sim: config table: %s: %s", path, e.msg);
    }
}

static void policy_from_table(lua_State *L, struct mw_config *c, const char *point, int t)
{
    char path[300], vb[64];
    const char *v;
    if (lua_type(L, t) != LUA_TTABLE) {
        if (!(v = value_text(L, t, vb, sizeof vb))) luaL_error(L, "mw.sim: config.policies.%s: expected a name or a table", point);
        snprintf(path, sizeof path, "policies.%s", point);
        table_set(L, c, path, v);
        return;
    }
    /* impl first (it resets the parameters), then script, then the parameters */
    if (lua_getfield(L, t, "impl") != LUA_TNIL) {
        if (!(v = value_text(L, -1, vb, sizeof vb))) luaL_error(L, "mw.sim: config.policies.%s.impl: expected a name", point);
        snprintf(path, sizeof path, "policies.%s", point);
        table_set(L, c, path, v);
    }
    lua_pop(L, 1);
    if (lua_getfield(L, t, "script") != LUA_TNIL) {
        snprintf(path, sizeof path, "policies.%s.script", point);
        table_set(L, c, path, luaL_tolstring(L, -1, NULL));
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        if (lua_type(L, -2) != LUA_TSTRING) luaL_error(L, "mw.sim: config.policies.%s: keys must be names", point);
        const char *k = lua_tostring(L, -2);
        if (strcmp(k, "impl") && strcmp(k, "script")) {
            if (!(v = value_text(L, -1, vb, sizeof vb)))
                luaL_error(L, "mw.sim: config.policies.%s.%s: expected a number, boolean or string", point, k);
            snprintf(path, sizeof path, "policies.%s.%s", point, k);
            table_set(L, c, path, v);
        }
        lua_pop(L, 1);
    }
}

static void config_from_table(lua_State *L, struct mw_config *c, int t)
{
    t = lua_absindex(L, t);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        if (lua_type(L, -2) != LUA_TSTRING) luaL_error(L, "mw.sim: config: section names must be strings");
        const char *sec = lua_tostring(L, -2);
        if (lua_type(L, -1) != LUA_TTABLE) luaL_error(L, "mw.sim: config.%s: expected a table of keys", sec);
        int st = lua_gettop(L);
        lua_pushnil(L);
        while (lua_next(L, st)) {
            if (lua_type(L, -2) != LUA_TSTRING) luaL_error(L, "mw.sim: config.%s: keys must be names", sec);
            const char *key = lua_tostring(L, -2);
            if (!strcmp(sec, "policies")) {
                policy_from_table(L, c, key, lua_gettop(L));
            } else {
                char vb[64], path[300];
                const char *v = value_text(L, -1, vb, sizeof vb);
                if (!v) luaL_error(L, "mw.sim: config.%s.%s: expected a number, boolean or string", sec, key);
                snprintf(path, sizeof path, "%s.%s", sec, key);
                table_set(L, c, path, v);
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
}

/* ---- policies ------------------------------------------------------------------------------------------ */
/* Slots chosen explicitly, where a bundle may not put a member: those the config names, and those sim:policy set
 * (recorded in the uservalue table at ud, index slot + 1). */
static void configured_slots(lua_State *L, struct lsim *ls, int ud, bool *configured)
{
    for (int k = 0; k < MW_SLOT_COUNT; k++) {
        configured[k] = mw_config_slot_chosen(ls->cfg, k);
        if (k < MW_PT_COUNT) {
            configured[k] |= lua_rawgeti(L, ud, k + 1) != LUA_TNIL;
            lua_pop(L, 1);
        }
    }
}

/* Apply spec (at index sp) in slot (a decision point or MW_SLOT_BUNDLE): "name", "file.lua", {impl=..., params...},
 * or a table of hooks (a bundle: a table of such tables by point). The uservalue table is at ud. */
static void apply_policy(lua_State *L, struct lsim *ls, int slot, int sp, int ud)
{
    struct mw_err e;
    mw_err_clear(&e);
    sp = lua_absindex(L, sp);
    enum mw_point pt = mw_slot_point(slot);
    const char *pname = mw_slot_names[slot];
    bool configured[MW_SLOT_COUNT];
    const bool *cf = NULL;
    if (slot == MW_SLOT_BUNDLE) {
        configured_slots(L, ls, ud, configured);
        cf = configured;
    } else {
        const struct mw_policy_inst *cur = mw_sim_policy(ls->s, pt);
        if (cur->bundle)
            luaL_error(L, "sim:policy: %s is a member of bundle '%s' (policies.bundle): choose one of them", pname,
                       cur->bundle->pol ? cur->bundle->pol->name : "?");
    }
    int rc;
    if (lua_type(L, sp) == LUA_TSTRING) {
        const char *name = lua_tostring(L, sp);
        size_t len = strlen(name);
        if (len > 4 && !strcmp(name + len - 4, ".lua")) {
            rc = mw_lua_policy_script(ls->s, pt, name, NULL, NULL, 0, cf, &e);
        } else {
            const struct mw_policy *p = mw_policy_find(pt, name);
            if (!p) luaL_error(L, "sim:policy: unknown %s policy '%s' (see mw.policies())", pname, name);
            rc = slot == MW_SLOT_BUNDLE ? mw_lua_builtin_bundle(ls->s, p, NULL, NULL, 0, cf, &e)
                                        : mw_sim_set_policy(ls->s, pt, p, NULL, NULL, 0, &e);
        }
    } else if (lua_type(L, sp) == LUA_TTABLE) {
        if (lua_getfield(L, sp, "impl") == LUA_TNIL) {
            lua_pop(L, 1);
            rc = mw_lua_policy_table(L, sp, ls->s, pt, NULL, NULL, 0, cf, &e);
        } else {
            const char *impl = lua_tostring(L, -1);
            if (!impl) luaL_error(L, "sim:policy: %s: impl must be a name", pname);
            const char *keys[MW_POLICY_MAX_PARAMS], *vals[MW_POLICY_MAX_PARAMS];
            char kbuf[MW_POLICY_MAX_PARAMS][64], vbuf[MW_POLICY_MAX_PARAMS][128], tmp[64];
            int n = 0, top = lua_gettop(L);
            lua_pushnil(L);
            while (lua_next(L, sp)) {
                const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
                if (!k) luaL_error(L, "sim:policy: %s: parameter names must be strings", pname);
                if (strcmp(k, "impl") && strcmp(k, "script")) {
                    if (n == MW_POLICY_MAX_PARAMS) luaL_error(L, "sim:policy: %s: too many parameters", pname);
                    const char *v = value_text(L, -1, tmp, sizeof tmp);
                    if (!v) luaL_error(L, "sim:policy: %s.%s: expected a number, boolean or string", pname, k);
                    snprintf(kbuf[n], sizeof kbuf[n], "%s", k);
                    snprintf(vbuf[n], sizeof vbuf[n], "%s", v);
                    keys[n] = kbuf[n], vals[n] = vbuf[n];
                    n++;
                }
                lua_pop(L, 1);
            }
            if (!strcmp(impl, "lua")) {
                if (lua_getfield(L, sp, "script") != LUA_TSTRING)
                    luaL_error(L, "sim:policy: %s: impl = \"lua\" needs script = \"path.lua\"", pname);
                rc = mw_lua_policy_script(ls->s, pt, lua_tostring(L, -1), keys, vals, n, cf, &e);
            } else {
                const struct mw_policy *p = mw_policy_find(pt, impl);
                if (!p) luaL_error(L, "sim:policy: unknown %s policy '%s' (see mw.policies())", pname, impl);
                rc = slot == MW_SLOT_BUNDLE ? mw_lua_builtin_bundle(ls->s, p, keys, vals, n, cf, &e)
                                            : mw_sim_set_policy(ls->s, pt, p, keys, vals, n, &e);
            }
            lua_settop(L, top - 1);
        }
    } else {
        return (void)luaL_error(L, "sim:policy: %s: expected a policy name, a script path or a table, got %s", pname,
                                luaL_typename(L, sp));
    }
    if (rc) raise_err(L, "sim:policy", &e);
}

/* Build ls->s from ls->cfg, the workload and the recorded sim:policy() choices (uservalue table). */
static void make_sim(lua_State *L, struct lsim *ls)
{
    struct mw_err e;
    mw_err_clear(&e);
    struct mw_workload wl;
    int rc;
    if (ls->lua_wl) {
        lua_getiuservalue(L, 1, 1);
        lua_getfield(L, -1, "workload");
        rc = mw_lua_workload_open(&wl, L, -1, (uint64_t)ls->cfg->sim.seed, &e);
        lua_pop(L, 2);
    } else {
        rc = ls->trace[0] ? mw_workload_open_trace(&wl, ls->trace, &e)
                          : mw_workload_open_builtin(&wl, ls->workload, ls->size[0] ? ls->size : NULL,
                                                     (uint64_t)ls->cfg->sim.seed, &e);
    }
    if (rc) raise_err(L, "mw.sim: workload", &e);
    ls->s = mw_sim_create(ls->cfg, &e);
    if (!ls->s) {
        mw_workload_close(&wl);
        raise_err(L, "mw.sim", &e);
    }
    if (mw_sim_set_workload(ls->s, &wl, &e) || mw_lua_install_config_policies(ls->s, ls->cfg, &e)) {
        mw_sim_destroy(ls->s);
        ls->s = NULL;
        raise_err(L, "mw.sim", &e);
    }
    lua_getiuservalue(L, 1, 1);
    int ud = lua_gettop(L);
    static const int order[] = {MW_SLOT_BUNDLE, 0, 1, 2, 3, 4, 5, 6}; /* the bundle first, as the engine does */
    for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
        if (lua_rawgeti(L, ud, order[i] + 1) != LUA_TNIL) apply_policy(L, ls, order[i], -1, ud);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* The fully resolved config of mw.sim-style options at index opts (config file or table, set, seed, max_cycles)
 * into cfg, validated; raises a Lua error prefixed with `what`. Shared by mw.sim and the store's run key. */
int mw_lua_opts_config(lua_State *L, int opts, struct mw_config *cfg, const char *what)
{
    struct mw_err e;
    mw_err_clear(&e);
    mw_config_defaults(cfg);
    int t = lua_getfield(L, opts, "config");
    if (t == LUA_TSTRING) {
        char path[4096]; /* a preset name (config = "gtx480") or a file */
        if (mw_resolve_config(lua_tostring(L, -1), path, sizeof path)) return luaL_error(L, "%s: %s", what, path);
        if (mw_config_load_file(cfg, path, &e)) return raise_err(L, what, &e);
    } else if (t == LUA_TTABLE) {
        config_from_table(L, cfg, -1);
    } else if (t != LUA_TNIL) {
        return luaL_error(L, "%s: config must be a YAML file name or a table", what);
    }
    lua_pop(L, 1);
    if (lua_getfield(L, opts, "set") == LUA_TTABLE) {
        for (lua_Integer i = 1; lua_rawgeti(L, -1, i) != LUA_TNIL; i++) {
            const char *a = lua_tostring(L, -1);
            if (!a) return luaL_error(L, "%s: set[%d] must be a \"section.key=value\" string", what, (int)i);
            if (mw_config_set(cfg, a, &e)) return raise_err(L, what, &e);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    } else if (!lua_isnil(L, -1)) return luaL_error(L, "%s: set must be a list of \"section.key=value\" strings", what);
    lua_pop(L, 1);
    if (lua_getfield(L, opts, "seed") != LUA_TNIL) {
        int ok;
        lua_Integer sd = lua_tointegerx(L, -1, &ok);
        if (!ok || sd < 0 || sd > 4294967295LL) return luaL_error(L, "%s: seed must be an integer in [0, 2^32)", what);
        cfg->sim.seed = sd;
    }
    lua_pop(L, 1);
    if (lua_getfield(L, opts, "max_cycles") != LUA_TNIL) {
        int ok;
        lua_Integer mc = lua_tointegerx(L, -1, &ok);
        if (!ok || mc < 0) return luaL_error(L, "%s: max_cycles must be an integer >= 0", what);
        cfg->sim.max_cycles = mc;
    }
    lua_pop(L, 1);
    if (lua_getfield(L, opts, "max_warp_insts") != LUA_TNIL) {
        int ok;
        lua_Integer mi = lua_tointegerx(L, -1, &ok);
        if (!ok || mi < 0) return luaL_error(L, "%s: max_warp_insts must be an integer >= 0", what);
        cfg->sim.max_warp_insts = mi;
    }
    lua_pop(L, 1);
    if (mw_config_validate(cfg, &e)) return raise_err(L, what, &e);
    return 0;
}

/* mw.sim{ config = "file.yaml" | {section = {key = value}}, set = {"l1d.assoc=8"}, workload = "micro.stream",
 *         size = "small", trace = "dir", seed = 1, max_cycles = N } */
static int l_sim(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    struct lsim *ls = lua_newuserdatauv(L, sizeof *ls, 1); /* 2 */
    memset(ls, 0, sizeof *ls);
    luaL_setmetatable(L, SIM_MT);
    lua_newtable(L);
    lua_setiuservalue(L, 2, 1);
    ls->cfg = malloc(sizeof *ls->cfg);
    if (!ls->cfg) return luaL_error(L, "mw.sim: out of memory");
    mw_config_defaults(ls->cfg);
    struct mw_err e;
    mw_err_clear(&e);
    static const char *const known[] = {"config", "set", "workload", "size", "trace", "seed", "max_cycles",
                                        "max_warp_insts", NULL};
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
        int i = 0;
        while (known[i] && strcmp(known[i], k)) i++;
        if (!known[i])
            return luaL_error(L, "mw.sim: unknown option '%s' (config, set, workload, size, trace, seed, max_cycles, max_warp_insts)", k);
        lua_pop(L, 1);
    }
    mw_lua_opts_config(L, 1, ls->cfg, "mw.sim");
    const char *wl = NULL, *tr = NULL, *sz = NULL;
    int twl = lua_getfield(L, 1, "workload");
    if (twl == LUA_TSTRING) wl = lua_tostring(L, -1);
    if (twl == LUA_TTABLE || (wl && mw_lua_workload_path(wl))) { /* a Lua workload: the table, or a file's */
        if (wl && mw_lua_workload_load(L, wl, (uint64_t)ls->cfg->sim.seed, &e)) return raise_err(L, "mw.sim", &e);
        lua_getiuservalue(L, 2, 1);
        lua_pushvalue(L, -2);
        lua_setfield(L, -2, "workload");
        lua_pop(L, wl ? 2 : 1);
        ls->lua_wl = true;
        if (!wl) {
            lua_getfield(L, -1, "name");
            wl = lua_isstring(L, -1) ? lua_tostring(L, -1) : "lua";
        }
    } else if (twl != LUA_TNIL && twl != LUA_TSTRING) {
        return luaL_error(L, "mw.sim: workload must be a name, a .lua file or a workload table, got %s",
                          lua_typename(L, twl));
    }
    if (lua_getfield(L, 1, "trace") == LUA_TSTRING) tr = lua_tostring(L, -1);
    if (lua_getfield(L, 1, "size") == LUA_TSTRING) sz = lua_tostring(L, -1);
    if (!wl == !tr) return luaL_error(L, "mw.sim: give exactly one of workload = \"name\" and trace = \"dir\"");
    snprintf(ls->workload, sizeof ls->workload, "%s", wl ? wl : "");
    snprintf(ls->trace, sizeof ls->trace, "%s", tr ? tr : "");
    snprintf(ls->size, sizeof ls->size, "%s", sz ? sz : "");
    lua_settop(L, 2);
    lua_replace(L, 1); /* the userdata at 1, as make_sim expects */
    make_sim(L, ls);
    return 1;
}

/* sim:policy(point, spec) chooses a policy (chainable); sim:policy(point) returns what the installed Lua policy
 * exports (its export(m), else its m.state; nil for a C policy) and the policy's name. */
static int m_policy(lua_State *L)
{
    struct lsim *ls = check_idle(L, 1);
    const char *pname = luaL_checkstring(L, 2);
    int slot = mw_slot_from_name(pname);
    if (slot == MW_SLOT_BUNDLE2 && !lua_isnone(L, 3))
        return luaL_error(L, "sim:policy: a second bundle is chosen in the config (policies.bundle2), not here");
    if (slot < 0 || (slot == MW_SLOT_L2_REPLACEMENT && !lua_isnone(L, 3))) {
        char list[256] = "";
        for (int i = 0; i < MW_SLOT_COUNT; i++)
            if (i != MW_SLOT_L2_REPLACEMENT && i != MW_SLOT_BUNDLE2)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", mw_slot_names[i]);
        return luaL_error(L, "sim:policy: unknown decision point '%s' (%s)", pname, list);
    }
    if (lua_isnone(L, 3)) {
        mw_lua_policy_value(L, ls->s, slot);
        const struct mw_policy_inst *pi = mw_sim_policy(ls->s, (enum mw_point)slot);
        lua_pushstring(L, pi->pol ? pi->pol->name : "?");
        return 2;
    }
    lua_settop(L, 3);
    if (mw_inspect_started(ls->s)) return luaL_error(L, "sim:policy: policies can only change before the run starts");
    lua_getiuservalue(L, 1, 1);
    apply_policy(L, ls, slot, 3, 4);
    lua_pushvalue(L, 3);
    lua_rawseti(L, 4, slot + 1);
    lua_settop(L, 1);
    return 1; /* chainable */
}

static int do_run(lua_State *L, struct lsim *ls, uint64_t cycles, const char *what)
{
    struct mw_err e;
    mw_err_clear(&e);
    struct mw_sim *prev = running_sim;
    ls->running = 1;
    running_sim = ls->s;
    int rc = mw_sim_run(ls->s, cycles, &e);
    running_sim = prev;
    ls->running = 0;
    if (rc < 0) {
        char buf[1600];
        return luaL_error(L, "%s: stopped at cycle %I: %s", what, (lua_Integer)mw_now(ls->s),
                          mw_err_str(&e, buf, sizeof buf));
    }
    return rc;
}

/* sim:run() / sim:run{cycles = N, until_kernel = K}: true when the workload completed; false, why ("cycles",
 * "interrupted", "max_cycles", "max_warp_insts", "kernel": at the end of the cycle that launched kernel K) when it
 * paused. */
static int m_run(lua_State *L)
{
    struct lsim *ls = check_idle(L, 1);
    uint64_t cycles = 0, until_kernel = 0;
    if (lua_istable(L, 2)) {
        if (lua_getfield(L, 2, "cycles") != LUA_TNIL) {
            int ok;
            lua_Integer c = lua_tointegerx(L, -1, &ok);
            if (!ok || c < 0) return luaL_error(L, "sim:run: cycles must be an integer >= 0");
            cycles = (uint64_t)c;
        }
        lua_pop(L, 1);
        if (lua_getfield(L, 2, "until_kernel") != LUA_TNIL) {
            int ok;
            lua_Integer k = lua_tointegerx(L, -1, &ok);
            if (!ok || k < 1) return luaL_error(L, "sim:run: until_kernel must be an integer >= 1");
            until_kernel = (uint64_t)k;
        }
        lua_pop(L, 1);
    } else if (!lua_isnoneornil(L, 2))
        return luaL_error(L, "sim:run: expected nothing or {cycles = N, until_kernel = K}");
    uint64_t start = mw_inspect_started(ls->s) ? mw_now(ls->s) : 0;
    interrupted = 0;
    mw_sim_stop_before_kernel(ls->s, until_kernel);
    int rc = do_run(L, ls, cycles, "sim:run");
    mw_sim_stop_before_kernel(ls->s, 0);
    lua_pushboolean(L, rc == 1);
    if (rc == 1) return 1;
    if (mw_lua_take_interrupted()) lua_pushliteral(L, "interrupted");
    else if (mw_sim_stopped_before_kernel(ls->s)) lua_pushliteral(L, "kernel");
    else if (cycles && mw_now(ls->s) - start >= cycles) lua_pushliteral(L, "cycles");
    else if (mw_sim_at_max_warp_insts(ls->s)) lua_pushliteral(L, "max_warp_insts");
    else lua_pushliteral(L, "max_cycles");
    return 2;
}

/* sim:step(n): n core cycles (default 1); returns the cycle reached and whether the workload is done. */
static int m_step(lua_State *L)
{
    struct lsim *ls = check_idle(L, 1);
    lua_Integer n = luaL_optinteger(L, 2, 1);
    luaL_argcheck(L, n >= 1, 2, "step at least one cycle");
    interrupted = 0;
    mw_sim_stop_before_kernel(ls->s, 0);
    int rc = do_run(L, ls, (uint64_t)n, "sim:step");
    lua_pushinteger(L, (lua_Integer)mw_now(ls->s));
    lua_pushboolean(L, rc == 1);
    return 2;
}

static void free_sim(struct lsim *ls)
{
    if (ls->s) mw_sim_destroy(ls->s);
    ls->s = NULL;
}

static int m_reset(lua_State *L)
{
    struct lsim *ls = check_idle(L, 1);
    lua_settop(L, 1);
    free_sim(ls);
    ls->gen++;
    make_sim(L, ls);
    return 1;
}

static int m_close(lua_State *L)
{
    struct lsim *ls = luaL_checkudata(L, 1, SIM_MT);
    if (ls->running) return luaL_error(L, "sim:close: the simulation is running");
    free_sim(ls);
    free(ls->cfg);
    ls->cfg = NULL;
    return 0;
}

static int m_gc(lua_State *L)
{
    struct lsim *ls = luaL_checkudata(L, 1, SIM_MT);
    if (!ls->running) {
        free_sim(ls);
        free(ls->cfg);
        ls->cfg = NULL;
    }
    return 0;
}

static int m_tostring(lua_State *L)
{
    struct lsim *ls = luaL_checkudata(L, 1, SIM_MT);
    if (!ls->s) lua_pushliteral(L, "moonwarp.sim (closed)");
    else
        lua_pushfstring(L, "moonwarp.sim (%s, cycle %I%s)", ls->trace[0] ? ls->trace : ls->workload,
                        (lua_Integer)mw_now(ls->s), mw_sim_done(ls->s) ? ", done" : "");
    return 1;
}

/* sim:stats() -> {name = value}; sim:stats{per_instance = false} leaves out unit.i.counter rows. */
static int m_stats(lua_State *L)
{
    struct lsim *ls = check_idle(L, 1);
    bool per = true, descs = false;
    if (lua_istable(L, 2)) {
        lua_getfield(L, 2, "per_instance");
        if (!lua_isnil(L, -1)) per = lua_toboolean(L, -1);
        lua_getfield(L, 2, "descriptions");
        descs = lua_toboolean(L, -1);
        lua_pop(L, 2);
    }
    struct mw_stat_list l;
    mw_stat_list_init(&l);
    if (mw_sim_stats(ls->s, &l, per)) {
        mw_stat_list_fini(&l);
        return luaL_error(L, "sim:stats: out of memory");
    }
    lua_createtable(L, 0, l.n);
    for (int i = 0; i < l.n; i++) {
        double v = l.v[i].value;
        if (v == (double)(lua_Integer)v && v >= -9e15 && v <= 9e15) lua_pushinteger(L, (lua_Integer)v);
        else lua_pushnumber(L, v);
        lua_setfield(L, -2, l.v[i].name);
    }
    if (descs) { /* a second table: name -> "description [unit]" */
        lua_createtable(L, 0, l.n);
        for (int i = 0; i < l.n; i++) {
            const char *d = l.v[i].desc ? l.v[i].desc : "", *u = l.v[i].unit ? l.v[i].unit : "";
            if (*u) lua_pushfstring(L, "%s [%s]", d, u);
            else lua_pushstring(L, d);
            lua_setfield(L, -2, l.v[i].name);
        }
    }
    mw_stat_list_fini(&l);
    return descs ? 2 : 1;
}

static int m_cycle(lua_State *L)
{
    struct lsim *ls = check_open(L, 1);
    lua_pushinteger(L, (lua_Integer)mw_now(ls->s));
    return 1;
}
static int m_done(lua_State *L)
{
    struct lsim *ls = check_open(L, 1);
    lua_pushboolean(L, mw_sim_done(ls->s));
    return 1;
}

/* sim:config() -> {section = {key = value}, policies = {point = name}} */
static int m_config(lua_State *L)
{
    struct lsim *ls = check_open(L, 1);
    const struct mw_config *c = mw_sim_config(ls->s);
    lua_newtable(L);
    for (int i = 0; i < mw_cfg_nfields; i++) {
        const struct mw_cfg_field *f = &mw_cfg_fields[i];
        if (lua_getfield(L, -1, f->section) != LUA_TTABLE) {
            lua_pop(L, 1);
            lua_newtable(L);
            lua_pushvalue(L, -1);
            lua_setfield(L, -3, f->section);
        }
        const char *p = (const char *)c + f->offset;
        switch (f->type) {
        case MW_CT_INT: lua_pushinteger(L, *(const int64_t *)(const void *)p); break;
        case MW_CT_DOUBLE: lua_pushnumber(L, *(const double *)(const void *)p); break;
        case MW_CT_BOOL: lua_pushboolean(L, *(const bool *)(const void *)p); break;
        case MW_CT_ENUM: {
            int v = *(const int *)(const void *)p;
            const char *ch = f->unit;
            for (int k = 0; k < v && ch; k++) ch = strchr(ch, '|') ? strchr(ch, '|') + 1 : NULL;
            if (ch) lua_pushlstring(L, ch, strchr(ch, '|') ? (size_t)(strchr(ch, '|') - ch) : strlen(ch));
            else lua_pushinteger(L, v);
            break;
        }
        case MW_CT_STR: lua_pushstring(L, p); break;
        }
        lua_setfield(L, -2, f->key);
        lua_pop(L, 1);
    }
    lua_newtable(L);
    for (int k = 0; k < MW_SLOT_COUNT; k++) {
        struct mw_policy_inst *pi = mw_sim_policy(ls->s, (enum mw_point)k);
        lua_pushstring(L, pi->pol ? pi->pol->name : "?");
        lua_setfield(L, -2, mw_slot_names[k]);
    }
    lua_setfield(L, -2, "policies");
    return 1;
}

/* ---- inspection -------------------------------------------------------------------------------------------- */
static struct mw_sim *check_started(lua_State *L, struct lsim *ls)
{
    if (!mw_inspect_started(ls->s)) luaL_error(L, "the simulation has not started yet: sim:step() first");
    return ls->s;
}
static int check_sm(lua_State *L, struct mw_sim *s, int i)
{
    lua_Integer sm = luaL_checkinteger(L, i);
    if (sm < 0 || sm >= mw_n_sms(s)) luaL_error(L, "SM %I out of range: 0..%d", sm, mw_n_sms(s) - 1);
    return (int)sm;
}
#define SETI(k, v) (lua_pushinteger(L, (lua_Integer)(v)), lua_setfield(L, -2, k))
#define SETB(k, v) (lua_pushboolean(L, (v)), lua_setfield(L, -2, k))
#define SETS(k, v) (lua_pushstring(L, (v)), lua_setfield(L, -2, k))

/* sim:warps(sm [, all]) -> list of warps (resident ones unless all) with their state and next instruction */
static int m_warps(lua_State *L)
{
    struct lsim *ls = check_idle(L, 1);
    struct mw_sim *s = check_started(L, ls);
    int sm = check_sm(L, s, 2);
    bool all = lua_toboolean(L, 3);
    static const char *const st[] = {"free", "active", "barrier", "exited"};
    lua_newtable(L);
    int n = 0;
    for (int w = 0; w < mw_max_warps(s); w++) {
        struct mw_warp_info wi;
        if (mw_inspect_warp(s, sm, w, &wi)) break;
        if (!all && (wi.state == 0 || wi.state == 3)) continue;
        lua_createtable(L, 0, 14);
        SETI("id", w);
        SETS("state", wi.state >= 0 && wi.state < 4 ? st[wi.state] : "?");
        SETI("cta", wi.cta_slot);
        SETI("warp_in_cta", wi.warp_in_cta);
        SETI("age", wi.age);
        SETI("insts", wi.insts);
        SETI("wake", wi.wake);
        SETI("pending_loads", wi.pending_loads);
        SETI("pending_stores", wi.pending_stores);
        SETI("ibuffer", wi.ibuffer);
        SETB("stream_done", wi.stream_done);
        if (wi.has_inst) {
            SETI("pc", wi.pc);
            SETS("op", wi.op < MW_OP_COUNT ? mw_op_names[wi.op] : "?");
            SETI("mask", wi.mask);
        }
        lua_rawseti(L, -2, ++n);
    }
    return 1;
}

/* One L1D way as a table: the line's tag and sector masks, its fill state, when and by whom it was last touched,
 * its LRU rank in the set and the replacement policy's own per-line bytes. */
static void push_way(lua_State *L, struct mw_sim *s, int sm, int set, int w, const struct mw_line_info *li, int rank)
{
    lua_createtable(L, 0, 18);
    SETI("way", w + 1);
    SETI("set", set);
    SETB("used", li->used);
    if (!li->used) {
        SETS("state", "invalid");
        return;
    }
    SETS("state", !li->pending ? "valid" : li->valid ? "filling" : "reserved");
    SETI("line", li->line);
    SETI("valid", li->valid);
    SETI("pending", li->pending);
    SETI("dirty", li->dirty);
    SETB("evictable", !li->pending);
    SETI("last_access", li->last_access);
    SETI("fill_time", li->fill_time);
    SETI("lru", rank);
    SETI("hits", li->hits);
    SETI("pc", li->pc);
    SETI("warp", li->warp);
    for (int i = 0; li->pending && i < mw_inspect_mshr_entries(s); i++) { /* the MSHR entry filling it */
        struct mw_mshr_info mi;
        if (!mw_inspect_mshr(s, sm, i, &mi) && mi.valid && mi.line == li->line) {
            SETI("mshr", i);
            break;
        }
    }
    if (li->meta && li->meta_bytes) {
        luaL_Buffer b;
        luaL_buffinit(L, &b);
        for (size_t i = 0; i < li->meta_bytes; i++) {
            char hx[3];
            snprintf(hx, sizeof hx, "%02x", li->meta[i]);
            luaL_addlstring(&b, hx, 2);
        }
        luaL_pushresult(&b);
        lua_setfield(L, -2, "meta");
    }
}

/* Push the ways of one set, index = way + 1. LRU rank: 1 = most recently used among the used ways, ties (same
 * cycle) to the lower way, as repl_lru.c breaks them. */
static void push_set(lua_State *L, struct mw_sim *s, int sm, int set)
{
    struct mw_line_info li[64];
    int assoc = mw_sim_l1d_assoc(s);
    if (assoc > 64) assoc = 64;
    for (int w = 0; w < assoc; w++)
        if (mw_inspect_l1d_line(s, sm, set, w, &li[w])) li[w].used = false;
    lua_createtable(L, assoc, 3);
    for (int w = 0; w < assoc; w++) {
        int rank = 1;
        for (int v = 0; v < assoc; v++)
            if (v != w && li[v].used &&
                (li[v].last_access > li[w].last_access || (li[v].last_access == li[w].last_access && v > w)))
                rank++;
        push_way(L, s, sm, set, w, &li[w], rank);
        lua_rawseti(L, -2, w + 1);
    }
    SETI("set", set);
    SETI("sm", sm);
    struct mw_policy_inst *pi = mw_sim_policy(s, MW_PT_REPLACEMENT);
    SETS("policy", pi->pol ? pi->pol->name : "?");
}

/* sim:l1d(sm, set) -> the set's ways (index = way + 1) with per-line metadata; sim:l1d(sm) -> every set
 * (index = set + 1) */
static int m_l1d(lua_State *L)
{
    struct lsim *ls = check_idle(L, 1);
    struct mw_sim *s = check_started(L, ls);
    int sm = check_sm(L, s, 2);
    int nsets = mw_sim_l1d_sets(s);
    if (lua_isnoneornil(L, 3)) {
        lua_createtable(L, nsets, 0);
        for (int set = 0; set < nsets; set++) {
            push_set(L, s, sm, set);
            lua_rawseti(L, -2, set + 1);
        }
        return 1;
    }
    lua_Integer set = luaL_checkinteger(L, 3);
    if (set < 0 || set >= nsets) return luaL_error(L, "L1D set %I out of range: 0..%d", set, nsets - 1);
    push_set(L, s, sm, (int)set);
    return 1;
}

/* sim:l1d_line(sm, addr) -> the way holding the line of byte address addr (as in sim:l1d), or nil */
static int m_l1d_line(lua_State *L)
{
    struct lsim *ls = check_idle(L, 1);
    struct mw_sim *s = check_started(L, ls);
    int sm = check_sm(L, s, 2);
    uint64_t addr = (uint64_t)luaL_checkinteger(L, 3);
    uint64_t line = addr - addr % (uint64_t)mw_sim_config(s)->l1d.line_bytes;
    int set = mw_l1d_set_of(s, line);
    push_set(L, s, sm, set);
    for (int w = 1; w <= mw_sim_l1d_assoc(s); w++) {
        lua_rawgeti(L, -1, w);
        if (lua_getfield(L, -1, "line") == LUA_TNUMBER && (uint64_t)lua_tointeger(L, -1) == line) {
            lua_pop(L, 1);
            return 1;
        }
        lua_pop(L, 2);
    }
    lua_pushnil(L);
    return 1;
}

/* sim:mshrs(sm) -> the valid MSHR entries, plus the miss queue and LDST occupancy as fields */
static int m_mshrs(lua_State *L)
{
    struct lsim *ls = check_idle(L, 1);
    struct mw_sim *s = check_started(L, ls);
    int sm = check_sm(L, s, 2);
    lua_newtable(L);
    int n = 0;
    for (int i = 0; i < mw_inspect_mshr_entries(s); i++) {
        struct mw_mshr_info mi;
        if (mw_inspect_mshr(s, sm, i, &mi)) break;
        if (!mi.valid) continue;
        lua_createtable(L, 0, 8);
        SETI("entry", i);
        SETI("line", mi.line);
        SETI("sectors", mi.sectors);
        SETI("waiters", mi.waiters);
        SETI("inflight", mi.inflight);
        SETI("way", mi.way >= 0 ? mi.way + 1 : 0);
        SETI("pc", mi.pc);
        SETI("warp", mi.warp);
        lua_rawseti(L, -2, ++n);
    }
    SETI("free", mw_l1d_mshr_free(s, sm));
    SETI("miss_queue", mw_inspect_miss_queue(s, sm));
    SETI("ldst_used", mw_inspect_ldst_used(s, sm));
    return 1;
}

/* sim:dram(channel) -> {queue = n, pending = n, banks = {{bank = b, open_row = r | nil}, ...}} */
static int m_dram(lua_State *L)
{
    struct lsim *ls = check_idle(L, 1);
    struct mw_sim *s = check_started(L, ls);
    lua_Integer ch = luaL_checkinteger(L, 2);
    if (ch < 0 || ch >= mw_inspect_n_partitions(s))
        return luaL_error(L, "DRAM channel %I out of range: 0..%d", ch, mw_inspect_n_partitions(s) - 1);
    lua_createtable(L, 0, 3);
    SETI("queue", mw_inspect_dram_queue(s, (int)ch));
    SETI("pending", mw_inspect_dram_pending(s, (int)ch));
    lua_newtable(L);
    for (int b = 0; b < mw_inspect_dram_banks(s); b++) {
        struct mw_bank_info bi;
        if (mw_inspect_dram_bank(s, (int)ch, b, &bi)) break;
        lua_createtable(L, 0, 2);
        SETI("bank", b);
        if (bi.open_row != MW_ROW_NONE) SETI("open_row", bi.open_row);
        lua_rawseti(L, -2, b + 1);
    }
    lua_setfield(L, -2, "banks");
    return 1;
}

static const luaL_Reg sim_methods[] = {
    {"policy", m_policy}, {"run", m_run},       {"step", m_step},     {"reset", m_reset},
    {"stats", m_stats},   {"cycle", m_cycle},   {"done", m_done},     {"close", m_close},
    {"config", m_config}, {"warps", m_warps},   {"l1d", m_l1d},       {"l1d_line", m_l1d_line},
    {"mshrs", m_mshrs},   {"dram", m_dram},     {NULL, NULL}};
static const luaL_Reg sim_meta[] = {
    {"__gc", m_gc}, {"__close", m_gc}, {"__tostring", m_tostring}, {"__index", NULL}, {NULL, NULL}};

/* ---- module functions -------------------------------------------------------------------------------------- */
/* mw.policies() -> {point = {name = description}} */
static int l_policies(lua_State *L)
{
    lua_newtable(L);
    for (int pt = 0; pt < MW_PT_COUNT; pt++) {
        lua_newtable(L);
        for (const struct mw_policy *const *p = mw_policies((enum mw_point)pt); *p; p++) {
            lua_pushstring(L, (*p)->desc);
            lua_setfield(L, -2, (*p)->name);
        }
        lua_setfield(L, -2, mw_point_names[pt]);
    }
    return 1;
}
/* mw.workloads() -> list of {name, suite, sizes, desc} */
static int l_workloads(lua_State *L)
{
    lua_createtable(L, mw_builtin_nworkloads, 0);
    for (int i = 0; i < mw_builtin_nworkloads; i++) {
        const struct mw_builtin_desc *d = &mw_builtin_workloads[i];
        lua_createtable(L, 0, 4);
        SETS("name", d->name);
        SETS("suite", d->suite);
        SETS("sizes", d->sizes);
        SETS("desc", d->desc);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* mw.clock() -> seconds of a monotonic wall clock (os.clock is CPU time): for timing experiments */
static int l_clock(lua_State *L)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    lua_pushnumber(L, (lua_Number)ts.tv_sec + (lua_Number)ts.tv_nsec * 1e-9);
    return 1;
}

static const luaL_Reg mw_funcs[] = {
    {"sim", l_sim}, {"policies", l_policies}, {"workloads", l_workloads}, {"clock", l_clock}, {NULL, NULL}};

int luaopen_moonwarp(lua_State *L)
{
    if (luaL_newmetatable(L, SIM_MT)) {
        luaL_setfuncs(L, sim_meta, 0);
        luaL_newlib(L, sim_methods);
        lua_setfield(L, -2, "__index");
    }
    lua_pop(L, 1);
    luaL_newlib(L, mw_funcs);
    mw_lua_set_names(L, -1, "mw"); /* mw.ops, mw.events, mw.points, mw.stalls */
    lua_pushliteral(L, MW_VERSION);
    lua_setfield(L, -2, "version");
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE); /* require "moonwarp.store" */
    lua_pushcfunction(L, luaopen_moonwarp_store);
    lua_setfield(L, -2, "moonwarp.store");
    lua_pop(L, 1);
    /* the shipped Lua library (moonwarp.experiment, ...): installed next to this binary or module, else the
     * source tree's (lua/paths.c) */
    const char *lib = mw_dir(MW_DIR_LUALIB);
    lua_pushstring(L, lib);
    lua_setfield(L, -2, "libdir");
    if (lib[0]) {
        if (lua_getglobal(L, "package") == LUA_TTABLE) {
            lua_getfield(L, -1, "path");
            const char *p = lua_tostring(L, -1);
            const char *entry = lua_pushfstring(L, "%s/?.lua", lib);
            if (p && !strstr(p, entry)) {
                lua_pushfstring(L, "%s;%s/?.lua;%s/?/init.lua", p, lib, lib);
                lua_setfield(L, -4, "path");
            }
            lua_pop(L, 2);
        }
        lua_pop(L, 1);
    }
    return 1;
}
