/* Hook states of script policies: the sandboxed Lua states a policy script runs in (a capped allocator, a
 * require limited to the script's folder) and the read-only name tables (mw.ops, mw.events, ...) that both hook
 * states and the moonwarp module carry. */
#include "lpolicy_int.h"

#include <errno.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* enum mw_evict_cause (engine/policy.h has no name table for it) */
static const char *const evict_cause_names[] = {"replace", "store", "flush", "policy"};
_Static_assert(MW_EVICT_POLICY == 3, "evict_cause_names follows enum mw_evict_cause");

/* ---- name tables: mw.ops, mw.events, mw.points, mw.stalls, mw.evict_causes -----------------------------------
 * Each maps name -> number and number -> name, numbers as in the engine's enums (from 0), behind a read-only
 * proxy: assignment is an error, # is the count, pairs gives name, number in number order. */
static int ro_newindex(lua_State *L)
{
    return luaL_error(L, "%s is read-only", lua_tostring(L, lua_upvalueindex(1)));
}
static int names_len(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(1));
    return 1;
}
static int names_next(lua_State *L) /* upvalues: the two-way table, the count */
{
    lua_Integer i = 0;
    if (!lua_isnoneornil(L, 2)) {
        lua_pushvalue(L, 2);
        lua_rawget(L, lua_upvalueindex(1));
        i = lua_tointeger(L, -1) + 1;
    }
    if (i >= lua_tointeger(L, lua_upvalueindex(2))) return 0;
    lua_rawgeti(L, lua_upvalueindex(1), i);
    lua_pushinteger(L, i);
    return 2;
}
static int names_pairs(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushcclosure(L, names_next, 2);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}
static int ro_next(lua_State *L)
{
    lua_settop(L, 2);
    return lua_next(L, lua_upvalueindex(1)) ? 2 : 0;
}
static int ro_pairs(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushcclosure(L, ro_next, 1);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}
static int ro_len(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, lua_upvalueindex(1)));
    return 1;
}

/* Replace the table on top of L by a read-only proxy of it; `label` names it in the error of an assignment.
 * pairs and # go to the table itself unless names_n > 0: then it is a name table of that many entries. */
void mw_lhs_make_readonly(lua_State *L, const char *label, int names_n)
{
    int real = lua_gettop(L);
    lua_createtable(L, 0, 0); /* the proxy */
    lua_createtable(L, 0, 5);
    lua_pushvalue(L, real);
    lua_setfield(L, -2, "__index");
    lua_pushstring(L, label);
    lua_pushcclosure(L, ro_newindex, 1);
    lua_setfield(L, -2, "__newindex");
    lua_pushvalue(L, real);
    if (names_n > 0) {
        lua_pushinteger(L, names_n);
        lua_pushcclosure(L, names_pairs, 2);
        lua_setfield(L, -2, "__pairs");
        lua_pushinteger(L, names_n);
        lua_pushcclosure(L, names_len, 1);
    } else {
        lua_pushcclosure(L, ro_pairs, 1);
        lua_setfield(L, -2, "__pairs");
        lua_pushvalue(L, real);
        lua_pushcclosure(L, ro_len, 1);
    }
    lua_setfield(L, -2, "__len");
    lua_pushliteral(L, "read-only");
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
    lua_replace(L, real);
}

static void set_name_table(lua_State *L, int t, const char *prefix, const char *field, const char *const *names,
                           int n)
{
    lua_createtable(L, n, n);
    for (int i = 0; i < n; i++) {
        lua_pushstring(L, names[i]);
        lua_rawseti(L, -2, i);
        lua_pushinteger(L, i);
        lua_setfield(L, -2, names[i]);
    }
    char label[64];
    snprintf(label, sizeof label, "%s.%s", prefix, field);
    mw_lhs_make_readonly(L, label, n);
    lua_setfield(L, t, field);
}

void mw_lua_set_names(lua_State *L, int idx, const char *prefix)
{
    idx = lua_absindex(L, idx);
    set_name_table(L, idx, prefix, "ops", mw_op_names, MW_OP_COUNT);
    set_name_table(L, idx, prefix, "events", mw_event_names, MW_EV_COUNT);
    set_name_table(L, idx, prefix, "points", mw_point_names, MW_PT_COUNT);
    set_name_table(L, idx, prefix, "stalls", mw_stall_names, MW_STALL_COUNT);
    set_name_table(L, idx, prefix, "evict_causes", evict_cause_names, 4);
}


/* ---- hook states: a capped allocator ------------------------------------------------------------------------
 * A script's hook state allocates through capped_alloc, which refuses to grow past the limit: a runaway table
 * becomes a Lua memory error naming the hook, not the machine's memory running out. */
static void *capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    struct lmem *m = ud;
    if (!ptr) osize = 0; /* then osize is the kind of object being made */
    if (nsize == 0) {
        free(ptr);
        m->used -= osize;
        return NULL;
    }
    if (nsize > osize && (m->used > m->limit || nsize - osize > m->limit - m->used))
        return NULL; /* Lua collects garbage and tries once more before raising a memory error */
    void *p = realloc(ptr, nsize);
    if (p) m->used = m->used - osize + nsize;
    return p;
}

static int hook_state_panic(lua_State *L)
{
    fprintf(stderr, "moonwarp: unprotected error in a Lua hook state: %s\n",
            lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "?");
    return 0; /* abort() follows */
}

/* load() of a hook state: Lua text only (bytecode can break the VM's invariants), whatever mode is asked for.
 * Upvalue: the base library's load. */
static int hs_load(lua_State *L)
{
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    for (int i = 1; i <= 2; i++) {
        if (i <= n) lua_pushvalue(L, i);
        else lua_pushnil(L);
    }
    lua_pushliteral(L, "t");
    if (n >= 4) lua_pushvalue(L, 4); /* env only when given: load tells nil from none */
    lua_call(L, n >= 4 ? 4 : 3, LUA_MULTRET);
    return lua_gettop(L) - n;
}

/* setmetatable of a hook state: no finalizers. Lua runs __gc with its hooks off, so neither the instruction
 * budget nor the time limit could stop one that loops. Upvalue: the base library's setmetatable. */
static int hs_setmetatable(lua_State *L)
{
    if (lua_istable(L, 2)) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL)
            return luaL_error(L, "setmetatable: a policy may not set a __gc finalizer (Lua runs finalizers with "
                                 "hooks off, beyond the time limit)");
        lua_pop(L, 1);
    }
    lua_settop(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 2, 1);
    return 1;
}

/* string.find / match / gmatch / gsub of a hook state: C pattern matching runs where Lua's hooks do not count,
 * so the call's place is noted for the watchdog's message should a pathological pattern outlast the time
 * limit. Upvalue: the string library's function; its name is upvalue 2. */
static int hs_pattern(lua_State *L)
{
    lua_Debug ar;
    if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "Sl", &ar))
        snprintf(mw_lwd_where, sizeof mw_lwd_where, "%s:%d in string.%s", ar.short_src, ar.currentline,
                 lua_tostring(L, lua_upvalueindex(2)));
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    mw_lwd_where[0] = 0;
    return lua_gettop(L);
}

lua_State *mw_lhs_new(lua_Integer seed, int64_t memory_mib)
{
    struct lmem *m = malloc(sizeof *m);
    if (!m) return NULL;
    m->used = 0;
    m->limit = (size_t)memory_mib << 20;
    lua_State *L = lua_newstate(capped_alloc, m);
    if (!L) {
        free(m);
        return NULL;
    }
    lua_atpanic(L, hook_state_panic);
    luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
    luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
    luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
    lua_settop(L, 0);
    /* nothing reads files but require (of the script's folder, text only) */
    lua_pushnil(L);
    lua_setglobal(L, "dofile");
    lua_pushnil(L);
    lua_setglobal(L, "loadfile");
    lua_getglobal(L, "load");
    lua_pushcclosure(L, hs_load, 1);
    lua_setglobal(L, "load");
    lua_getglobal(L, "setmetatable");
    lua_pushcclosure(L, hs_setmetatable, 1);
    lua_setglobal(L, "setmetatable");
    lua_getglobal(L, "string");
    static const char *const pat_fns[] = {"find", "match", "gmatch", "gsub"};
    for (int i = 0; i < 4; i++) {
        lua_getfield(L, -1, pat_fns[i]);
        lua_pushstring(L, pat_fns[i]);
        lua_pushcclosure(L, hs_pattern, 2);
        lua_setfield(L, -2, pat_fns[i]);
    }
    lua_pop(L, 1);
    /* math.random from the run's seed, so that a Lua policy is as deterministic as a C one */
    lua_getglobal(L, "math");
    lua_getfield(L, -1, "randomseed");
    lua_pushinteger(L, seed);
    lua_call(L, 1, 0);
    lua_settop(L, 0);
    /* mw: the name tables (the rest of the module needs the caller's state) */
    lua_createtable(L, 0, 5);
    mw_lua_set_names(L, -1, "mw");
    mw_lhs_make_readonly(L, "mw", 0);
    lua_setglobal(L, "mw");
    return L;
}

/* The capped allocator's account of L, or NULL when L allocates some other way (a table policy in the
 * caller's state). */
struct lmem *mw_lhs_mem(lua_State *L)
{
    void *ud;
    return lua_getallocf(L, &ud) == capped_alloc ? ud : NULL;
}

void mw_lhs_close(lua_State *L)
{
    struct lmem *m = mw_lhs_mem(L);
    lua_close(L);
    free(m);
}

/* ---- require in hook states --------------------------------------------------------------------------------
 * A script policy may be split into Lua text modules in its own folder: require "a.b" loads <folder>/a/b.lua
 * once per hook state (names are relative to the script's folder, also from a module in a subfolder). Nothing
 * else can be loaded: no bytecode (mode "t"), no C modules, no names with "..", no absolute paths, and no file
 * that resolves outside the folder (checked on the real path, so a symbolic link out of it is refused too). */
enum { REQ_DIR = 1, REQ_SHOWN, REQ_LOADED }; /* upvalues: real folder, folder as given ("" or "dir/"), loaded */
static const char req_loading = 'r';        /* loaded[name] while the module's chunk runs */
#define REQ_ONLY "a policy script may require only Lua files from its own folder and its subfolders"

struct req_reader {
    FILE *f;
    char buf[4096];
};
static const char *req_read(lua_State *L, void *ud, size_t *n)
{
    (void)L;
    struct req_reader *r = ud;
    *n = fread(r->buf, 1, sizeof r->buf, r->f);
    return *n ? r->buf : NULL;
}

static int hs_require(lua_State *L)
{
    size_t len;
    const char *name = luaL_checklstring(L, 1, &len);
    lua_settop(L, 1);
    lua_pushvalue(L, 1);
    if (lua_rawget(L, lua_upvalueindex(REQ_LOADED)) != LUA_TNIL) {
        if (lua_touserdata(L, -1) == &req_loading)
            return luaL_error(L, "require \"%s\": circular: the module is still loading", name);
        return 1;
    }
    lua_pop(L, 1);
    const char *dir = lua_tostring(L, lua_upvalueindex(REQ_DIR)), *why = NULL;
    if (!len || strlen(name) != len) why = "not a module name";
    else if (strstr(name, "..")) why = "a module name may not contain \"..\"";
    else if (name[0] == '/') why = "a module name may not be an absolute path";
    else if (!dir[0]) why = "the script's folder could not be resolved";
    if (why) return luaL_error(L, "require \"%s\": %s (" REQ_ONLY ")", name, why);
    const char *rel = luaL_gsub(L, name, ".", "/");
    const char *path = lua_pushfstring(L, "%s/%s.lua", dir, rel);
    const char *shown = lua_pushfstring(L, "%s%s.lua", lua_tostring(L, lua_upvalueindex(REQ_SHOWN)), rel);
    const char *chunkname = lua_pushfstring(L, "@%s", shown);
    char *real = realpath(path, NULL);
    if (!real)
        return luaL_error(L, "require \"%s\": no file %s (" REQ_ONLY "; C modules cannot be loaded)", name, shown);
    size_t dl = strlen(dir);
    bool inside = dl == 1 || (!strncmp(real, dir, dl) && real[dl] == '/'); /* dl == 1: the folder is "/" */
    struct stat st;
    bool regular = !stat(real, &st) && S_ISREG(st.st_mode);
    struct req_reader r = {.f = inside && regular ? fopen(real, "r") : NULL};
    int err = errno;
    free(real);
    if (!inside)
        return luaL_error(L, "require \"%s\": %s resolves outside the script's folder (" REQ_ONLY ")", name, shown);
    if (!regular) return luaL_error(L, "require \"%s\": %s is not a file", name, shown);
    if (!r.f) return luaL_error(L, "require \"%s\": cannot open %s: %s", name, shown, strerror(err));
    int rc = lua_load(L, req_read, &r, chunkname, "t"); /* protected: nothing raises while the file is open */
    fclose(r.f);
    if (rc != LUA_OK) {
        const char *msg = lua_tostring(L, -1);
        if (msg && !strncmp(msg, shown, strlen(shown))) return luaL_error(L, "require \"%s\": %s", name, msg);
        return luaL_error(L, "require \"%s\": %s: %s", name, shown, msg ? msg : "cannot load");
    }
    lua_pushvalue(L, 1);
    lua_pushlightuserdata(L, (void *)&req_loading);
    lua_rawset(L, lua_upvalueindex(REQ_LOADED));
    lua_pushvalue(L, 1);
    lua_pushstring(L, shown);
    rc = lua_pcall(L, 2, 1, 0); /* the chunk gets (name, file) as `...`, as with Lua's own require */
    if (rc != LUA_OK) {
        lua_pushvalue(L, 1);
        lua_pushnil(L);
        lua_rawset(L, lua_upvalueindex(REQ_LOADED));
        if (rc == LUA_ERRMEM || lua_type(L, -1) != LUA_TSTRING) return lua_error(L);
        return luaL_error(L, "require \"%s\": %s", name, lua_tostring(L, -1));
    }
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_pushboolean(L, 1);
    }
    lua_pushvalue(L, 1);
    lua_pushvalue(L, -2);
    lua_rawset(L, lua_upvalueindex(REQ_LOADED));
    return 1;
}

/* Set the hook state's global require for a script at path `script`; the value on top of L (the state's mw) is
 * what require "moonwarp" returns, and is popped. */
void mw_lhs_open_require(lua_State *L, const char *script)
{
    const char *slash = strrchr(script, '/');
    int dl = slash ? (int)(slash - script) : 0;
    char *real = NULL;
    if (!slash) real = realpath(".", NULL);
    else if (dl == 0) real = realpath("/", NULL);
    else {
        lua_pushlstring(L, script, (size_t)dl);
        real = realpath(lua_tostring(L, -1), NULL);
        lua_pop(L, 1);
    }
    lua_pushstring(L, real ? real : "");
    free(real);
    lua_pushlstring(L, script, slash ? (size_t)dl + 1 : 0);
    lua_createtable(L, 0, 4);
    lua_pushvalue(L, -4);
    lua_setfield(L, -2, "moonwarp");
    lua_pushcclosure(L, hs_require, 3);
    lua_setglobal(L, "require");
    lua_pop(L, 1);
}
