/* The Lua config-table path (mw.sim{config = {...}, set = {...}, seed = ..., max_cycles = ...}): the input is
 * decoded into such an options table (section and key names from the config's own fields and the policy slots,
 * or raw bytes; values numbers, integers, booleans, strings or nested tables), then resolved as mw.sim resolves
 * it, in a protected call. Every input must end in a config or a Lua error. */
#include "fuzz_common.h"

#include "config.h"
#include "lmoonwarp.h"
#include "policy.h"

#include <lauxlib.h>
#include <lualib.h>

struct rd {
    const uint8_t *d;
    size_t n, i;
};
static unsigned byte(struct rd *r) { return r->i < r->n ? r->d[r->i++] : 0; }
static void push_name(lua_State *L, struct rd *r, bool section)
{
    unsigned b = byte(r);
    if (b < 200) {
        const struct mw_cfg_field *f = &mw_cfg_fields[b % (unsigned)mw_cfg_nfields];
        lua_pushstring(L, section ? f->section : f->key);
    } else if (b < 230) {
        lua_pushstring(L, section ? "policies" : mw_slot_names[b % MW_SLOT_COUNT]);
    } else {
        size_t k = byte(r) % 12;
        char s[16];
        for (size_t j = 0; j < k; j++) s[j] = (char)byte(r);
        lua_pushlstring(L, s, k);
    }
}
static void push_value(lua_State *L, struct rd *r, int depth)
{
    unsigned b = byte(r);
    switch (b % 7) {
    case 0: {
        uint64_t hi = byte(r), mid = byte(r), lo = byte(r);
        lua_pushinteger(L, (lua_Integer)((hi << 56 | mid << 8 | lo) - 128u));
        break;
    }
    case 1: {
        int num = (int8_t)byte(r);
        lua_pushnumber(L, (double)num / (double)(1 + byte(r)));
        break;
    }
    case 2: lua_pushboolean(L, byte(r) & 1); break;
    case 3: push_name(L, r, false); break;
    case 4: lua_pushinteger(L, byte(r)); break;
    default:
        if (depth > 3) lua_pushinteger(L, 1);
        else {
            lua_newtable(L);
            for (unsigned k = byte(r) % 6; k > 0; k--) {
                push_name(L, r, false);
                push_value(L, r, depth + 1);
                lua_settable(L, -3);
            }
        }
    }
}

static int resolve(lua_State *L)
{
    struct rd *r = lua_touserdata(L, 1);
    struct mw_config *c = lua_touserdata(L, 2);
    lua_newtable(L); /* opts: 3 */
    unsigned what = byte(r);
    if (what & 1) {
        lua_newtable(L);
        for (unsigned s = byte(r) % 5; s > 0; s--) {
            push_name(L, r, true);
            lua_newtable(L);
            for (unsigned k = byte(r) % 8; k > 0; k--) {
                push_name(L, r, false);
                push_value(L, r, 1);
                lua_settable(L, -3);
            }
            lua_settable(L, -3);
        }
        lua_setfield(L, 3, "config");
    } else if (what & 2) {
        push_value(L, r, 0);
        lua_setfield(L, 3, "config");
    }
    if (what & 4) {
        lua_newtable(L);
        for (unsigned k = byte(r) % 4; k > 0; k--) {
            char a[96];
            size_t m = byte(r) % 40;
            for (size_t j = 0; j < m; j++) a[j] = (char)byte(r);
            a[m] = 0;
            lua_pushstring(L, a);
            lua_rawseti(L, -2, (lua_Integer)k);
        }
        lua_setfield(L, 3, "set");
    }
    if (what & 8) push_value(L, r, 3), lua_setfield(L, 3, "seed");
    if (what & 16) push_value(L, r, 3), lua_setfield(L, 3, "max_cycles");
    mw_lua_opts_config(L, 3, c, "mw.sim");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    lua_State *L = luaL_newstate();
    struct rd r = {d, n, 0};
    struct mw_config *c = malloc(sizeof *c);
    lua_pushcfunction(L, resolve);
    lua_pushlightuserdata(L, &r);
    lua_pushlightuserdata(L, c);
    if (lua_pcall(L, 2, 0, 0) != LUA_OK && lua_type(L, -1) != LUA_TSTRING) abort();
    lua_close(L);
    free(c);
    return 0;
}
