/* The policy context `m` every Lua hook gets first: the machine's geometry, the policy's parameters and state,
 * and the engine facts and actions of sim.h as functions. */
#include "lpolicy_int.h"

#include "inspect.h"

#include <string.h>

/* ---- the context `m`: engine facts for hooks ----------------------------------------------------------------- */
static struct mw_sim *ctx_sim(lua_State *L)
{
    struct mbox *b = lua_touserdata(L, lua_upvalueindex(1));
    if (!b->sim) luaL_error(L, "stale policy context: its simulation was reset or closed");
    if (!mw_inspect_started(b->sim)) luaL_error(L, "the simulation has not started: no machine to ask yet");
    return b->sim;
}
static int arg_sm(lua_State *L, struct mw_sim *s, int i)
{
    lua_Integer sm = luaL_checkinteger(L, i);
    luaL_argcheck(L, sm >= 0 && sm < mw_n_sms(s), i, "SM id out of range");
    return (int)sm;
}
static int arg_warp(lua_State *L, struct mw_sim *s, int i)
{
    lua_Integer w = luaL_checkinteger(L, i);
    luaL_argcheck(L, w >= 0 && w < mw_max_warps(s), i, "warp id out of range");
    return (int)w;
}
static int c_now(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)mw_now(ctx_sim(L)));
    return 1;
}
static int c_warp_age(lua_State *L)
{
    struct mw_sim *s = ctx_sim(L);
    int sm = arg_sm(L, s, 1), w = arg_warp(L, s, 2);
    lua_pushinteger(L, (lua_Integer)mw_warp_age(s, sm, w));
    return 1;
}
static int c_warp_active(lua_State *L)
{
    struct mw_sim *s = ctx_sim(L);
    int sm = arg_sm(L, s, 1), w = arg_warp(L, s, 2);
    lua_pushboolean(L, mw_warp_active(s, sm, w));
    return 1;
}
static int c_warp_at_barrier(lua_State *L)
{
    struct mw_sim *s = ctx_sim(L);
    int sm = arg_sm(L, s, 1), w = arg_warp(L, s, 2);
    lua_pushboolean(L, mw_warp_at_barrier(s, sm, w));
    return 1;
}
static int c_warp_cta(lua_State *L)
{
    struct mw_sim *s = ctx_sim(L);
    int sm = arg_sm(L, s, 1), w = arg_warp(L, s, 2);
    lua_pushinteger(L, mw_warp_cta(s, sm, w));
    return 1;
}
static int c_warp_insts(lua_State *L)
{
    struct mw_sim *s = ctx_sim(L);
    int sm = arg_sm(L, s, 1), w = arg_warp(L, s, 2);
    lua_pushinteger(L, (lua_Integer)mw_warp_insts(s, sm, w));
    return 1;
}
static int c_warp_pc(lua_State *L)
{
    struct mw_sim *s = ctx_sim(L);
    int sm = arg_sm(L, s, 1), w = arg_warp(L, s, 2);
    const struct mw_inst *in = mw_warp_next_inst(s, sm, w);
    if (in) lua_pushinteger(L, (lua_Integer)in->pc), lua_pushinteger(L, in->op);
    else lua_pushnil(L), lua_pushnil(L);
    return 2;
}
static int c_resident_ctas(lua_State *L)
{
    struct mw_sim *s = ctx_sim(L);
    lua_pushinteger(L, mw_sm_resident_ctas(s, arg_sm(L, s, 1)));
    return 1;
}
static int c_sm_warp_insts(lua_State *L)
{
    struct mw_sim *s = ctx_sim(L);
    lua_pushinteger(L, (lua_Integer)mw_sm_warp_insts(s, arg_sm(L, s, 1)));
    return 1;
}
static int c_mshr_free(lua_State *L)
{
    struct mw_sim *s = ctx_sim(L);
    lua_pushinteger(L, mw_l1d_mshr_free(s, arg_sm(L, s, 1)));
    return 1;
}
static int c_set_of(lua_State *L)
{
    struct mw_sim *s = ctx_sim(L);
    lua_pushinteger(L, mw_l1d_set_of(s, (uint64_t)luaL_checkinteger(L, 1)));
    return 1;
}
static int c_probe(lua_State *L)
{
    struct mw_sim *s = ctx_sim(L);
    int sm = arg_sm(L, s, 1);
    lua_Integer sec = luaL_optinteger(L, 3, 0xF);
    lua_pushboolean(L, mw_l1d_probe(s, sm, (uint64_t)luaL_checkinteger(L, 2), (uint8_t)sec));
    return 1;
}
static int c_flush(lua_State *L)
{
    struct mw_sim *s = ctx_sim(L);
    mw_l1d_flush(s, arg_sm(L, s, 1));
    return 0;
}
static int c_set_window(lua_State *L)
{
    struct mw_sim *s = ctx_sim(L);
    lua_Integer c = luaL_checkinteger(L, 1);
    luaL_argcheck(L, c >= 0, 1, "window must be >= 0 cycles");
    struct mbox *b = lua_touserdata(L, lua_upvalueindex(1));
    mw_window_set(mw_sim_policy(s, (enum mw_point)b->slot), (uint64_t)c);
    return 0;
}
/* Deterministic per-policy random numbers (xorshift64*, seeded from the run's seed): random() in [0,1),
 * random(n) in 1..n, random(a, b) in a..b, like math.random. */
static int c_random(lua_State *L)
{
    struct mbox *b = lua_touserdata(L, lua_upvalueindex(1));
    uint64_t x = b->rng;
    x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
    b->rng = x;
    uint64_t r = x * 0x2545F4914F6CDD1Dull;
    int n = lua_gettop(L);
    if (n == 0) {
        lua_pushnumber(L, (double)(r >> 11) * (1.0 / 9007199254740992.0));
        return 1;
    }
    lua_Integer lo = 1, hi = luaL_checkinteger(L, 1);
    if (n >= 2) lo = hi, hi = luaL_checkinteger(L, 2);
    luaL_argcheck(L, lo <= hi, n, "interval is empty");
    lua_pushinteger(L, lo + (lua_Integer)(r % ((uint64_t)(hi - lo) + 1)));
    return 1;
}

static const luaL_Reg ctx_funcs[] = {
    {"now", c_now},           {"warp_age", c_warp_age},     {"warp_active", c_warp_active},
    {"warp_cta", c_warp_cta}, {"warp_insts", c_warp_insts}, {"warp_pc", c_warp_pc},
    {"warp_at_barrier", c_warp_at_barrier},
    {"resident_ctas", c_resident_ctas}, {"sm_warp_insts", c_sm_warp_insts}, {"mshr_free", c_mshr_free},
    {"l1d_set_of", c_set_of}, {"l1d_probe", c_probe},       {"l1d_flush", c_flush},
    {"set_window", c_set_window}, {"random", c_random},     {NULL, NULL}};

/* A parameter given as text, the same from YAML, {impl = "lua", k = v} and a table's `params`: true/false as a
 * boolean, a numeral as a number, anything else as the string. */
static void push_param(lua_State *L, const char *v)
{
    if (!strcmp(v, "true") || !strcmp(v, "false")) lua_pushboolean(L, v[0] == 't');
    else if (!lua_stringtonumber(L, v)) lua_pushstring(L, v);
}

/* The hook table's `params` (at idx of L), if any, must map names to numbers, booleans or strings. */
int mw_lcheck_params(lua_State *L, int idx, enum mw_point pt, struct mw_err *e)
{
    int t = lua_getfield(L, idx, "params"), rc = 0;
    if (t == LUA_TTABLE) {
        lua_pushnil(L);
        while (!rc && lua_next(L, -2)) {
            int vt = lua_type(L, -1);
            if (lua_type(L, -2) != LUA_TSTRING)
                rc = mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s policy: params: keys must be names, not %s",
                                mw_point_names[pt], luaL_typename(L, -2));
            else if (vt != LUA_TNUMBER && vt != LUA_TBOOLEAN && vt != LUA_TSTRING)
                rc = mw_err_set(e, MW_EINVAL, NULL, 0, 0,
                                "%s policy: params.%s: expected a number, boolean or string, got %s",
                                mw_point_names[pt], lua_tostring(L, -2), luaL_typename(L, -1));
            lua_pop(L, rc ? 2 : 1);
        }
    } else if (t != LUA_TNIL) {
        rc = mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s policy: params must be a table {name = value}, not %s",
                        mw_point_names[pt], luaL_typename(L, -1));
    }
    lua_pop(L, 1);
    return rc;
}

/* Push the context table m for policy lp onto L. */
void mw_lpush_ctx(lua_State *L, struct lpol *lp, const char *const *keys, const char *const *values, int n)
{
    const struct mw_config *c = mw_sim_config(lp->sim);
    lua_createtable(L, 0, 24);
    lp->box = lua_newuserdatauv(L, sizeof *lp->box, 0);
    lp->box->sim = lp->sim;
    lp->box->slot = (int)lp->pt;
    lp->box->rng = ((uint64_t)c->sim.seed + 1) * 0x9E3779B97F4A7C15ull + (uint64_t)lp->pt;
    if (!lp->box->rng) lp->box->rng = 1;
    luaL_setfuncs(L, ctx_funcs, 1);
    lua_pushstring(L, mw_point_names[lp->pt]), lua_setfield(L, -2, "point");
    lua_pushinteger(L, c->sim.seed), lua_setfield(L, -2, "seed");
    lua_pushinteger(L, c->gpu.n_sms), lua_setfield(L, -2, "n_sms");
    lua_pushinteger(L, c->sm.n_schedulers), lua_setfield(L, -2, "n_schedulers");
    lua_pushinteger(L, c->sm.max_warps), lua_setfield(L, -2, "max_warps");
    lua_pushinteger(L, mw_l1d_sets(c)), lua_setfield(L, -2, "l1d_sets");
    lua_pushinteger(L, c->l1d.assoc), lua_setfield(L, -2, "l1d_assoc");
    lua_pushinteger(L, c->l1d.mshr_entries), lua_setfield(L, -2, "l1d_mshrs");
    lua_pushinteger(L, c->l2.n_partitions), lua_setfield(L, -2, "dram_channels");
    lua_pushinteger(L, c->dram.banks), lua_setfield(L, -2, "dram_banks");
    /* m.params: the table's own `params` (a script's defaults), then the given keys/values over them */
    lua_createtable(L, 0, n);
    int pt = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, lp->table_ref);
    if (lua_getfield(L, -1, "params") == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, -2)) { /* types checked by check_params */
            lua_pushvalue(L, -2);
            if (lua_type(L, -2) == LUA_TSTRING) push_param(L, lua_tostring(L, -2));
            else lua_pushvalue(L, -2);
            lua_rawset(L, pt);
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 2);
    for (int i = 0; i < n; i++) {
        push_param(L, values[i]);
        lua_setfield(L, -2, keys[i]);
    }
    lua_setfield(L, -2, "params");
    lua_createtable(L, 0, 0);
    lua_setfield(L, -2, "state"); /* scratch space for the policy's own state */
}
