/* The Lua policy adapter: puts a table of Lua hook functions behind a decision point's C ops table. Built on
 * the cost model of the architecture brief: hooks probed once and kept as luaL_refs, integers as arguments,
 * one reused argument table per hook, every call protected with a traceback and an instruction budget. */
#include "lpolicy.h"

#include "inspect.h"

#include <errno.h>
#include <lauxlib.h>
#include <lualib.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Hook slots, each belonging to one point (H_EVENT to all). */
enum {
    H_WS_PICK, H_WS_QUALIFY, H_WS_ISSUED, H_BY_DECIDE, H_GR_FETCH, H_DR_PICK, H_CT_LIMIT, H_LD_SLOTS, H_LD_PICK,
    H_RP_VICTIM, H_RP_TOUCH, H_RP_INSERT, H_EVENT, H_N
};
static const struct {
    int pt;
    const char *name;
} hooks[H_N] = {
    {MW_PT_WARP_SCHED, "pick"},     {MW_PT_WARP_SCHED, "qualify"},  {MW_PT_WARP_SCHED, "issued"},
    {MW_PT_L1D_BYPASS, "decide"},   {MW_PT_GRANULARITY, "fetch"},   {MW_PT_DRAM_SCHED, "pick"},
    {MW_PT_CTA_THROTTLE, "limit"},  {MW_PT_LDST_SCHED, "slots"},    {MW_PT_LDST_SCHED, "pick"},
    {MW_PT_REPLACEMENT, "victim"},  {MW_PT_REPLACEMENT, "touch"},   {MW_PT_REPLACEMENT, "insert"},
    {-1, "on_event"},
};

const char *mw_lua_default_policy(enum mw_point pt) { return mw_policy_default_name(pt); }

#define event_names mw_event_names
#define stall_names mw_stall_names

/* ---- name tables: mw.ops, mw.events, mw.points, mw.stalls --------------------------------------------------
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
static void make_readonly(lua_State *L, const char *label, int names_n)
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
    make_readonly(L, label, n);
    lua_setfield(L, t, field);
}

void mw_lua_set_names(lua_State *L, int idx, const char *prefix)
{
    idx = lua_absindex(L, idx);
    set_name_table(L, idx, prefix, "ops", mw_op_names, MW_OP_COUNT);
    set_name_table(L, idx, prefix, "events", event_names, MW_EV_COUNT);
    set_name_table(L, idx, prefix, "points", mw_point_names, MW_PT_COUNT);
    set_name_table(L, idx, prefix, "stalls", stall_names, MW_STALL_COUNT);
}

/* Fixed stack slots of the hook thread: the message handler, the context `m`, and the reused argument tables. */
enum { S_MSGH = 1, S_CTX, S_LIST, S_COLS, S_COL0 };
#define DRAM_COLS 9
#define WAY_COLS 8
static const char *const dram_cols[DRAM_COLS] = {"arrival", "id", "row", "bank", "is_write", "row_hit",
                                                 "merge", "age", "sm"};
static const char *const way_cols[WAY_COLS] = {"line", "last_access", "fill_time", "hits", "valid", "pc", "warp",
                                               "evictable"};

/* Holds the simulation for the context's engine-fact functions; cleared when the policy goes away. */
struct mbox {
    struct mw_sim *sim;
    uint64_t rng;
    int slot;          /* the policy slot its policy is installed in (its own window) */
};

/* One per Lua state that runs hooks (kept in its registry): which hook call is running and how many budget
 * ticks it has used. The count hook is armed once per hook thread and fires every `budget / BUDGET_TICKS`
 * instructions; a call that sees more than BUDGET_TICKS firings has run more than its budget (and at most
 * (1 + 1/BUDGET_TICKS) x budget). Coroutines a hook creates inherit the hook and count toward the same call. */
#define BUDGET_TICKS 8
struct lhost {
    struct lpol *cur; /* the policy whose hook is running; NULL between calls */
    int ticks;
};
static const char host_key = 'h';

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
    } ops;
    char name[96];
    enum mw_point pt;
    struct mw_sim *sim;
    lua_State *owner; /* the state holding the refs */
    bool own_state;   /* a hook state made for a script: closed with the policy */
    lua_State *T;     /* the thread hooks run on */
    int thread_ref, table_ref, ctx_ref, fn[H_N];
    int slot[H_N];    /* the hook functions' fixed stack slots on T */
    struct lhost *host;
    int depth;        /* calls of this policy's hooks in progress (an event raised from inside its own hook) */
    int nested_msgh;  /* the message handler's slot of a nested call */
    uint32_t lua_events;
    uint32_t c_events; /* the kinds the C default's on_event still gets (see c_decides) */
    lua_Integer budget;
    struct mbox *box;
    struct mw_policy_inst dflt; /* the point's C default, serving the hooks the table leaves out */
    const struct mw_policy *dpol;
    int prev_n, top; /* top: the fixed stack height of T */
    bool failed;
};

/* ---- hook states: a capped allocator ------------------------------------------------------------------------
 * A script's hook state allocates through capped_alloc, which refuses to grow past the limit: a runaway table
 * becomes a Lua memory error naming the hook, not the machine's memory running out. */
struct lmem {
    size_t used, limit;
};

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

static lua_State *new_hook_state(void)
{
    struct lmem *m = malloc(sizeof *m);
    if (!m) return NULL;
    m->used = 0;
    m->limit = (size_t)MW_LUA_MEMORY_MIB << 20;
    lua_State *L = lua_newstate(capped_alloc, m);
    if (!L) {
        free(m);
        return NULL;
    }
    lua_atpanic(L, hook_state_panic);
    return L;
}

/* The capped allocator's account of L, or NULL when L allocates some other way (a table policy in the
 * caller's state). */
static struct lmem *hook_state_mem(lua_State *L)
{
    void *ud;
    return lua_getallocf(L, &ud) == capped_alloc ? ud : NULL;
}

static void close_hook_state(lua_State *L)
{
    struct lmem *m = hook_state_mem(L);
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
static void open_require(lua_State *L, const char *script)
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

/* ---- protected calls ----------------------------------------------------------------------------------- */

static int msgh(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

static void budget_hook(lua_State *L, lua_Debug *ar)
{
    lua_rawgetp(L, LUA_REGISTRYINDEX, &host_key);
    struct lhost *h = lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (!h || !h->cur || ++h->ticks <= BUDGET_TICKS) return; /* (no hook call running: a coroutine outside) */
    lua_getinfo(L, "Sl", ar);
    luaL_error(L, "%s:%d: instruction budget of %I exceeded (an endless loop?)", ar->short_src, ar->currentline,
               h->cur->budget);
}

static void arm_budget(struct lpol *lp)
{
    lua_Integer n = (lp->budget + BUDGET_TICKS - 1) / BUDGET_TICKS;
    lua_sethook(lp->T, budget_hook, LUA_MASKCOUNT, (int)(n > 0 ? n : 1));
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

static void fail(struct lpol *lp, int h, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(struct lpol *lp, int h, const char *fmt, ...)
{
    char msg[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    struct mw_err e;
    mw_err_clear(&e);
    mw_err_set(&e, MW_EHOOK, NULL, 0, 0, "Lua policy %s.%s: %s", mw_point_names[lp->pt], hooks[h].name, msg);
    lp->failed = true;
    mw_sim_fail(lp->sim, &e);
}

/* Push hook h and the context; the caller pushes its arguments and calls call(). Nested inside one of the
 * policy's own hooks (only an event can be: m.l1d_flush evicts lines), T's stack belongs to that hook's frame,
 * so the function and context come from their refs. */
static inline lua_State *begin(struct lpol *lp, int h)
{
    lua_State *T = lp->T;
    if (__builtin_expect(!lp->depth, 1)) {
        lua_pushvalue(T, lp->slot[h]);
        lua_pushvalue(T, S_CTX);
    } else {
        if (h == H_EVENT) {
            lp->nested_msgh = lua_gettop(T) + 1;
            lua_pushcfunction(T, msgh);
        }
        lua_rawgeti(T, LUA_REGISTRYINDEX, lp->fn[h]);
        lua_rawgeti(T, LUA_REGISTRYINDEX, lp->ctx_ref);
    }
    return T;
}

static inline bool call(struct lpol *lp, int h, int nargs, int nres)
{
    lua_State *T = lp->T;
    struct lhost *ho = lp->host;
    struct lpol *prev = ho->cur;
    int prev_ticks = ho->ticks;
    if (__builtin_expect(lp->depth && h != H_EVENT, 0)) {
        lua_pop(T, nargs + 2);
        fail(lp, h, "called again from inside one of the policy's own hooks");
        return false;
    }
    if (__builtin_expect(lua_gethook(T) != budget_hook, 0)) arm_budget(lp); /* debug.sethook took it away */
    int nested = lp->depth, mh = nested ? lp->nested_msgh : S_MSGH;
    ho->cur = lp, ho->ticks = 0;
    lp->depth++;
    int rc = lua_pcall(T, nargs + 1, nres, mh);
    lp->depth--;
    ho->cur = prev, ho->ticks = prev_ticks;
    if (__builtin_expect(rc != LUA_OK, 0)) {
        struct lmem *m = rc == LUA_ERRMEM ? hook_state_mem(T) : NULL;
        if (m) { /* no message handler runs for a memory error: name where the hook is defined */
            lua_Debug ar;
            lua_rawgeti(T, LUA_REGISTRYINDEX, lp->fn[h]);
            lua_getinfo(T, ">S", &ar);
            fail(lp, h, "%s:%d: memory limit of %zu MiB exceeded (a table growing without end?)", ar.short_src,
                 ar.linedefined, m->limit >> 20);
        } else fail(lp, h, "%s", lua_tostring(T, -1));
        if (nested) lua_settop(T, mh - 1);
        else lua_settop(T, lp->top);
        return false;
    }
    if (__builtin_expect(nested, 0)) lua_remove(T, mh);
    return true;
}

static const char *describe(lua_State *T, int idx, char *buf, size_t n)
{
    if (lua_type(T, idx) == LUA_TNUMBER) snprintf(buf, n, "%s", lua_tostring(T, idx));
    else if (lua_type(T, idx) == LUA_TSTRING) snprintf(buf, n, "a string (\"%.40s\")", lua_tostring(T, idx));
    else snprintf(buf, n, "%s", luaL_typename(T, idx));
    return buf;
}

/* A bad return value: name the hook and where its function is defined. */
static void bad_result(struct lpol *lp, int h, const char *expected)
{
    lua_State *T = lp->T;
    char got[80];
    describe(T, -1, got, sizeof got);
    lua_Debug ar;
    lua_rawgeti(T, LUA_REGISTRYINDEX, lp->fn[h]);
    lua_getinfo(T, ">S", &ar);
    fail(lp, h, "%s:%d: %s.%s returned %s, expected %s", ar.short_src, ar.linedefined, mw_point_names[lp->pt],
         hooks[h].name, got, expected);
}

static inline void reset_stack(struct lpol *lp) { lua_settop(lp->T, lp->top); }

/* The call's integer result in [lo, hi], or `dflt` after failing the simulation. */
static lua_Integer int_result(struct lpol *lp, int h, lua_Integer lo, lua_Integer hi, lua_Integer dflt,
                              const char *expected)
{
    lua_State *T = lp->T;
    int isnum = 0;
    lua_Integer v = lua_type(T, -1) == LUA_TNUMBER ? lua_tointegerx(T, -1, &isnum) : 0;
    if (!isnum || v < lo || v > hi) {
        bad_result(lp, h, expected);
        v = dflt;
    }
    reset_stack(lp);
    return v;
}

static void fill_list(struct lpol *lp, const uint16_t *v, int n)
{
    lua_State *T = lp->T;
    for (int i = 0; i < n; i++) {
        lua_pushinteger(T, v[i]);
        lua_rawseti(T, S_LIST, i + 1);
    }
    for (int i = n; i < lp->prev_n; i++) {
        lua_pushnil(T);
        lua_rawseti(T, S_LIST, i + 1);
    }
    lp->prev_n = n;
}

#define LP(pi) ((struct lpol *)(pi)->lua)
#define DFLT(lp, type) ((const type *)(lp)->dpol)

/* ---- warp scheduling ------------------------------------------------------------------------------------- */
static int ws_pick(struct mw_policy_inst *pi, int sm, int sched, const uint16_t *ready, int n)
{
    struct lpol *lp = LP(pi);
    if (lp->failed) return 0;
    lua_State *T = begin(lp, H_WS_PICK);
    lua_pushinteger(T, sm);
    lua_pushinteger(T, sched);
    fill_list(lp, ready, n);
    lua_pushvalue(T, S_LIST);
    lua_pushinteger(T, n);
    if (!call(lp, H_WS_PICK, 4, 1)) return 0;
    char exp[64];
    snprintf(exp, sizeof exp, "an index 1..%d into the ready warps", n);
    return (int)int_result(lp, H_WS_PICK, 1, n, 1, exp) - 1;
}
static bool ws_qualify(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    struct lpol *lp = LP(pi);
    if (lp->failed) return true;
    lua_State *T = begin(lp, H_WS_QUALIFY);
    lua_pushinteger(T, sm);
    lua_pushinteger(T, sched);
    lua_pushinteger(T, w);
    lua_pushinteger(T, (lua_Integer)in->pc);
    lua_pushinteger(T, in->op);
    if (!call(lp, H_WS_QUALIFY, 5, 1)) return true;
    bool ok = true;
    if (lua_type(T, -1) != LUA_TBOOLEAN) bad_result(lp, H_WS_QUALIFY, "true or false");
    else ok = lua_toboolean(T, -1);
    reset_stack(lp);
    return ok;
}
static void ws_issued(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    struct lpol *lp = LP(pi);
    if (lp->failed) return;
    lua_State *T = begin(lp, H_WS_ISSUED);
    lua_pushinteger(T, sm);
    lua_pushinteger(T, sched);
    lua_pushinteger(T, w);
    lua_pushinteger(T, (lua_Integer)in->pc);
    lua_pushinteger(T, in->op);
    call(lp, H_WS_ISSUED, 5, 0); /* no results: the stack is back at its fixed height */
}
static int ws_pick_c(struct mw_policy_inst *pi, int sm, int sched, const uint16_t *ready, int n)
{
    struct lpol *lp = LP(pi);
    return DFLT(lp, struct mw_warp_sched_ops)->pick(&lp->dflt, sm, sched, ready, n);
}
static bool ws_qualify_c(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    struct lpol *lp = LP(pi);
    return DFLT(lp, struct mw_warp_sched_ops)->qualify(&lp->dflt, sm, sched, w, in);
}
static void ws_issued_c(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    struct lpol *lp = LP(pi);
    DFLT(lp, struct mw_warp_sched_ops)->issued(&lp->dflt, sm, sched, w, in);
}
/* The table observes issues while the C default still picks: the default's own state first (GTO's greedy
 * pointer), then the table's hook. */
static void ws_issued_chain(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    ws_issued_c(pi, sm, sched, w, in);
    ws_issued(pi, sm, sched, w, in);
}

/* ---- L1D bypass -------------------------------------------------------------------------------------------- */
static int by_decide(struct mw_policy_inst *pi, const struct mw_bypass_ctx *c)
{
    struct lpol *lp = LP(pi);
    if (lp->failed) return MW_CACHE;
    const struct mw_coal_req *q = &c->reqs[c->index];
    lua_State *T = begin(lp, H_BY_DECIDE);
    lua_pushinteger(T, c->sm);
    lua_pushinteger(T, c->warp);
    lua_pushinteger(T, (lua_Integer)c->pc);
    lua_pushinteger(T, (lua_Integer)q->line);
    lua_pushinteger(T, q->set);
    lua_pushinteger(T, q->size);
    lua_pushinteger(T, c->index + 1);
    lua_pushinteger(T, c->n);
    lua_pushinteger(T, c->retry);
    if (!call(lp, H_BY_DECIDE, 9, 1)) return MW_CACHE;
    int v = MW_CACHE;
    if (lua_type(T, -1) == LUA_TBOOLEAN) v = lua_toboolean(T, -1) ? MW_BYPASS : MW_CACHE;
    else if (lua_type(T, -1) == LUA_TNUMBER && lua_isinteger(T, -1) &&
             (lua_tointeger(T, -1) == 0 || lua_tointeger(T, -1) == 1))
        v = (int)lua_tointeger(T, -1);
    else bad_result(lp, H_BY_DECIDE, "true/1 (bypass) or false/0 (cache)");
    reset_stack(lp);
    return v;
}
static int by_decide_c(struct mw_policy_inst *pi, const struct mw_bypass_ctx *c)
{
    struct lpol *lp = LP(pi);
    return DFLT(lp, struct mw_l1d_bypass_ops)->decide(&lp->dflt, c);
}

/* ---- granularity --------------------------------------------------------------------------------------------- */
static uint8_t gr_fetch(struct mw_policy_inst *pi, const struct mw_gran_ctx *c)
{
    struct lpol *lp = LP(pi);
    const struct mw_config *cfg = mw_sim_config(lp->sim);
    uint8_t full = (uint8_t)((1u << (cfg->l1d.line_bytes / 32)) - 1);
    if (lp->failed) return full;
    lua_State *T = begin(lp, H_GR_FETCH);
    lua_pushinteger(T, c->sm);
    lua_pushinteger(T, c->warp);
    lua_pushinteger(T, (lua_Integer)c->pc);
    lua_pushinteger(T, (lua_Integer)c->line);
    lua_pushinteger(T, c->set);
    lua_pushinteger(T, c->need);
    lua_pushinteger(T, c->have);
    lua_pushinteger(T, c->size);
    lua_pushinteger(T, full);
    if (!call(lp, H_GR_FETCH, 9, 1)) return full;
    char exp[96];
    snprintf(exp, sizeof exp, "a sector mask within 0x%x covering the needed sectors 0x%x", full, c->need);
    int isnum = 0;
    lua_Integer v = lua_type(T, -1) == LUA_TNUMBER ? lua_tointegerx(T, -1, &isnum) : 0;
    if (!isnum || v < 1 || v > full || (v & c->need) != c->need) {
        bad_result(lp, H_GR_FETCH, exp);
        v = full;
    }
    reset_stack(lp);
    return (uint8_t)v;
}
static uint8_t gr_fetch_c(struct mw_policy_inst *pi, const struct mw_gran_ctx *c)
{
    struct lpol *lp = LP(pi);
    return DFLT(lp, struct mw_granularity_ops)->fetch(&lp->dflt, c);
}

/* ---- DRAM scheduling --------------------------------------------------------------------------------------- */
static int dr_pick(struct mw_policy_inst *pi, const struct mw_dram_sched_ctx *c, const struct mw_dram_cand *cands,
                   int n)
{
    struct lpol *lp = LP(pi);
    if (lp->failed) return 0;
    lua_State *T = lp->T;
    for (int i = 0; i < n; i++) {
        const struct mw_dram_cand *x = &cands[i];
        lua_pushinteger(T, (lua_Integer)x->arrival), lua_rawseti(T, S_COL0 + 0, i + 1);
        lua_pushinteger(T, x->id), lua_rawseti(T, S_COL0 + 1, i + 1);
        lua_pushinteger(T, x->row), lua_rawseti(T, S_COL0 + 2, i + 1);
        lua_pushinteger(T, x->bank), lua_rawseti(T, S_COL0 + 3, i + 1);
        lua_pushboolean(T, x->is_write), lua_rawseti(T, S_COL0 + 4, i + 1);
        lua_pushboolean(T, x->row_hit), lua_rawseti(T, S_COL0 + 5, i + 1);
        lua_pushinteger(T, x->merge), lua_rawseti(T, S_COL0 + 6, i + 1);
        lua_pushinteger(T, (lua_Integer)x->age), lua_rawseti(T, S_COL0 + 7, i + 1);
        lua_pushinteger(T, x->sm), lua_rawseti(T, S_COL0 + 8, i + 1);
    }
    for (int i = n; i < lp->prev_n; i++)
        for (int k = 0; k < DRAM_COLS; k++) lua_pushnil(T), lua_rawseti(T, S_COL0 + k, i + 1);
    lp->prev_n = n;
    begin(lp, H_DR_PICK);
    lua_pushinteger(T, c->channel);
    lua_pushinteger(T, c->bank);
    lua_pushinteger(T, c->open_row == MW_ROW_NONE ? -1 : (lua_Integer)c->open_row);
    lua_pushinteger(T, c->hits_in_row);
    lua_pushinteger(T, (lua_Integer)c->now);
    lua_pushvalue(T, S_COLS);
    lua_pushinteger(T, n);
    if (!call(lp, H_DR_PICK, 7, 1)) return 0;
    char exp[64];
    snprintf(exp, sizeof exp, "an index 1..%d into the candidates", n);
    return (int)int_result(lp, H_DR_PICK, 1, n, 1, exp) - 1;
}
static int dr_pick_c(struct mw_policy_inst *pi, const struct mw_dram_sched_ctx *c, const struct mw_dram_cand *cands,
                     int n)
{
    struct lpol *lp = LP(pi);
    return DFLT(lp, struct mw_dram_sched_ops)->pick(&lp->dflt, c, cands, n);
}

/* ---- CTA throttling, LDST scheduling ----------------------------------------------------------------------- */
static int ct_limit(struct mw_policy_inst *pi, int sm, int resident)
{
    struct lpol *lp = LP(pi);
    if (lp->failed) return 1 << 20;
    lua_State *T = begin(lp, H_CT_LIMIT);
    lua_pushinteger(T, sm);
    lua_pushinteger(T, resident);
    if (!call(lp, H_CT_LIMIT, 2, 1)) return 1 << 20;
    return (int)int_result(lp, H_CT_LIMIT, 0, 1 << 20, 1 << 20, "a CTA count >= 0");
}
static int ct_limit_c(struct mw_policy_inst *pi, int sm, int resident)
{
    struct lpol *lp = LP(pi);
    return DFLT(lp, struct mw_cta_throttle_ops)->limit(&lp->dflt, sm, resident);
}
static int ld_slots(struct mw_policy_inst *pi)
{
    struct lpol *lp = LP(pi);
    if (lp->failed) return 1;
    begin(lp, H_LD_SLOTS);
    if (!call(lp, H_LD_SLOTS, 0, 1)) return 1;
    return (int)int_result(lp, H_LD_SLOTS, 1, 256, 1, "a slot count 1..256");
}
static int ld_slots_c(struct mw_policy_inst *pi)
{
    struct lpol *lp = LP(pi);
    return DFLT(lp, struct mw_ldst_sched_ops)->slots(&lp->dflt);
}
static int ld_pick(struct mw_policy_inst *pi, int sm, const uint16_t *warps, int n)
{
    struct lpol *lp = LP(pi);
    if (lp->failed) return 0;
    lua_State *T = begin(lp, H_LD_PICK);
    lua_pushinteger(T, sm);
    fill_list(lp, warps, n);
    lua_pushvalue(T, S_LIST);
    lua_pushinteger(T, n);
    if (!call(lp, H_LD_PICK, 3, 1)) return 0;
    char exp[64];
    snprintf(exp, sizeof exp, "an index 1..%d into the waiting instructions", n);
    return (int)int_result(lp, H_LD_PICK, 1, n, 1, exp) - 1;
}
static int ld_pick_c(struct mw_policy_inst *pi, int sm, const uint16_t *warps, int n)
{
    struct lpol *lp = LP(pi);
    return DFLT(lp, struct mw_ldst_sched_ops)->pick(&lp->dflt, sm, warps, n);
}

/* ---- replacement -------------------------------------------------------------------------------------------- */
static int rp_victim(struct mw_policy_inst *pi, int sm, int set, const struct mw_line_view *ways,
                     const uint8_t *evictable, int assoc)
{
    struct lpol *lp = LP(pi);
    if (lp->failed) return -1;
    lua_State *T = lp->T;
    for (int i = 0; i < assoc; i++) {
        const struct mw_line_view *v = &ways[i];
        lua_pushinteger(T, (lua_Integer)v->line), lua_rawseti(T, S_COL0 + 0, i + 1);
        lua_pushinteger(T, (lua_Integer)v->last_access), lua_rawseti(T, S_COL0 + 1, i + 1);
        lua_pushinteger(T, (lua_Integer)v->fill_time), lua_rawseti(T, S_COL0 + 2, i + 1);
        lua_pushinteger(T, v->hits), lua_rawseti(T, S_COL0 + 3, i + 1);
        lua_pushinteger(T, v->valid), lua_rawseti(T, S_COL0 + 4, i + 1);
        lua_pushinteger(T, (lua_Integer)v->pc), lua_rawseti(T, S_COL0 + 5, i + 1);
        lua_pushinteger(T, v->warp), lua_rawseti(T, S_COL0 + 6, i + 1);
        lua_pushboolean(T, evictable[i]), lua_rawseti(T, S_COL0 + 7, i + 1);
    }
    for (int i = assoc; i < lp->prev_n; i++)
        for (int k = 0; k < WAY_COLS; k++) lua_pushnil(T), lua_rawseti(T, S_COL0 + k, i + 1);
    lp->prev_n = assoc;
    begin(lp, H_RP_VICTIM);
    lua_pushinteger(T, sm);
    lua_pushinteger(T, set);
    lua_pushvalue(T, S_COLS);
    lua_pushinteger(T, assoc);
    if (!call(lp, H_RP_VICTIM, 4, 1)) return -1;
    if (lua_type(T, -1) == LUA_TBOOLEAN && !lua_toboolean(T, -1)) {
        reset_stack(lp);
        return -1;
    }
    char exp[80];
    snprintf(exp, sizeof exp, "an evictable way 1..%d, or false for none", assoc);
    int w = (int)int_result(lp, H_RP_VICTIM, 1, assoc, 0, exp) - 1;
    if (w >= 0 && !evictable[w]) {
        lua_pushinteger(T, w + 1);
        bad_result(lp, H_RP_VICTIM, "a way that is not waiting for a fill (evictable)");
        reset_stack(lp);
        return -1;
    }
    return w;
}
static void rp_note(struct mw_policy_inst *pi, int h, int sm, int set, int way, const struct mw_line_view *line)
{
    struct lpol *lp = LP(pi);
    if (lp->failed) return;
    lua_State *T = begin(lp, h);
    lua_pushinteger(T, sm);
    lua_pushinteger(T, set);
    lua_pushinteger(T, way + 1);
    lua_pushinteger(T, (lua_Integer)line->line);
    lua_pushinteger(T, line->hits);
    call(lp, h, 5, 0);
}
static void rp_touch(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *line)
{
    rp_note(pi, H_RP_TOUCH, sm, set, way, line);
}
static void rp_insert(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *line)
{
    rp_note(pi, H_RP_INSERT, sm, set, way, line);
}
static int rp_victim_c(struct mw_policy_inst *pi, int sm, int set, const struct mw_line_view *ways,
                       const uint8_t *evictable, int assoc)
{
    struct lpol *lp = LP(pi);
    return DFLT(lp, struct mw_replacement_ops)->victim(&lp->dflt, sm, set, ways, evictable, assoc);
}
static void rp_touch_c(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *line)
{
    struct lpol *lp = LP(pi);
    DFLT(lp, struct mw_replacement_ops)->touch(&lp->dflt, sm, set, way, line);
}
static void rp_insert_c(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *line)
{
    struct lpol *lp = LP(pi);
    DFLT(lp, struct mw_replacement_ops)->insert(&lp->dflt, sm, set, way, line);
}
static void rp_touch_chain(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *line)
{
    rp_touch_c(pi, sm, set, way, line);
    rp_touch(pi, sm, set, way, line);
}
static void rp_insert_chain(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *line)
{
    rp_insert_c(pi, sm, set, way, line);
    rp_insert(pi, sm, set, way, line);
}

/* ---- events ------------------------------------------------------------------------------------------------ */
static void on_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    struct lpol *lp = LP(pi);
    if (lp->c_events >> ev->kind & 1u) lp->dpol->on_event(&lp->dflt, ev);
    if (lp->failed || !(lp->lua_events >> ev->kind & 1u)) return;
    lua_State *T = begin(lp, H_EVENT);
    lua_pushstring(T, event_names[ev->kind]);
    lua_pushinteger(T, ev->sm);
    lua_pushinteger(T, ev->warp);
    lua_pushinteger(T, ev->cta);
    lua_pushinteger(T, (lua_Integer)ev->pc);
    lua_pushinteger(T, (lua_Integer)ev->addr);
    lua_pushinteger(T, ev->set);
    lua_pushinteger(T, ev->way);
    lua_pushinteger(T, ev->value);
    lua_pushinteger(T, ev->aux);
    lua_pushinteger(T, (lua_Integer)ev->cycle);
    call(lp, H_EVENT, 11, 0);
}

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
static int check_params(lua_State *L, int idx, enum mw_point pt, struct mw_err *e)
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
static void push_ctx(lua_State *L, struct lpol *lp, const char *const *keys, const char *const *values, int n)
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

/* ---- building and destroying --------------------------------------------------------------------------------- */
static void destroy(struct mw_policy_inst *pi)
{
    struct lpol *lp = LP(pi);
    if (!lp) return;
    if (lp->box) lp->box->sim = NULL;
    if (lp->own_state) close_hook_state(lp->owner);
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

static void new_cols(lua_State *T, const char *const *names, int n)
{
    lua_createtable(T, 0, n); /* S_COLS */
    for (int k = 0; k < n; k++) {
        lua_createtable(T, 64, 0);
        lua_pushvalue(T, -1);
        lua_setfield(T, S_COLS, names[k]);
    }
}

/* Does the C default still make one of the point's decisions (a decision hook the table leaves out)? Then its
 * state must stay current: the observer hooks (issued, touch, insert, on_event) chain, the default's first and
 * the table's after. When the table makes every decision, its observers replace the default's. */
static bool c_decides(const struct lpol *lp, const bool *has)
{
    const struct mw_policy *d = lp->dpol;
    switch (lp->pt) {
    case MW_PT_WARP_SCHED: {
        const struct mw_warp_sched_ops *o = (const void *)d;
        return (!has[H_WS_PICK] && o->pick) || (!has[H_WS_QUALIFY] && o->qualify);
    }
    case MW_PT_L1D_BYPASS: return !has[H_BY_DECIDE] && ((const struct mw_l1d_bypass_ops *)(const void *)d)->decide;
    case MW_PT_GRANULARITY: return !has[H_GR_FETCH] && ((const struct mw_granularity_ops *)(const void *)d)->fetch;
    case MW_PT_DRAM_SCHED: return !has[H_DR_PICK] && ((const struct mw_dram_sched_ops *)(const void *)d)->pick;
    case MW_PT_CTA_THROTTLE: return !has[H_CT_LIMIT] && ((const struct mw_cta_throttle_ops *)(const void *)d)->limit;
    case MW_PT_LDST_SCHED: {
        const struct mw_ldst_sched_ops *o = (const void *)d;
        return (!has[H_LD_SLOTS] && o->slots) || (!has[H_LD_PICK] && o->pick);
    }
    case MW_PT_REPLACEMENT: return !has[H_RP_VICTIM]; /* the engine always asks for a victim */
    default: return false;
    }
}

static void set_slots(struct lpol *lp)
{
    const struct mw_policy *d = lp->dpol;
    bool has[H_N];
    for (int h = 0; h < H_N; h++) has[h] = lp->fn[h] != LUA_NOREF;
    bool chain = c_decides(lp, has);
    lp->c_events = d->on_event && (chain || !has[H_EVENT]) ? d->events : 0;
    lp->ops.base.events = lp->lua_events | lp->c_events;
    lp->ops.base.on_event = lp->ops.base.events ? on_event : NULL;
    switch (lp->pt) {
    case MW_PT_WARP_SCHED: {
        const struct mw_warp_sched_ops *o = (const void *)d;
        lp->ops.ws.pick = has[H_WS_PICK] ? ws_pick : o->pick ? ws_pick_c : NULL;
        lp->ops.ws.qualify = has[H_WS_QUALIFY] ? ws_qualify : o->qualify ? ws_qualify_c : NULL;
        lp->ops.ws.issued = has[H_WS_ISSUED] ? (chain && o->issued ? ws_issued_chain : ws_issued)
                                             : o->issued ? ws_issued_c : NULL;
        break;
    }
    case MW_PT_L1D_BYPASS: {
        const struct mw_l1d_bypass_ops *o = (const void *)d;
        lp->ops.by.decide = has[H_BY_DECIDE] ? by_decide : o->decide ? by_decide_c : NULL;
        break;
    }
    case MW_PT_GRANULARITY: {
        const struct mw_granularity_ops *o = (const void *)d;
        lp->ops.gr.fetch = has[H_GR_FETCH] ? gr_fetch : o->fetch ? gr_fetch_c : NULL;
        break;
    }
    case MW_PT_DRAM_SCHED: {
        const struct mw_dram_sched_ops *o = (const void *)d;
        lp->ops.dr.pick = has[H_DR_PICK] ? dr_pick : o->pick ? dr_pick_c : NULL;
        break;
    }
    case MW_PT_CTA_THROTTLE: {
        const struct mw_cta_throttle_ops *o = (const void *)d;
        lp->ops.ct.limit = has[H_CT_LIMIT] ? ct_limit : o->limit ? ct_limit_c : NULL;
        break;
    }
    case MW_PT_LDST_SCHED: {
        const struct mw_ldst_sched_ops *o = (const void *)d;
        lp->ops.ld.slots = has[H_LD_SLOTS] ? ld_slots : o->slots ? ld_slots_c : NULL;
        lp->ops.ld.pick = has[H_LD_PICK] ? ld_pick : o->pick ? ld_pick_c : NULL;
        break;
    }
    case MW_PT_REPLACEMENT: {
        const struct mw_replacement_ops *o = (const void *)d;
        lp->ops.rp.victim = has[H_RP_VICTIM] ? rp_victim : rp_victim_c; /* the engine always needs a victim */
        if (has[H_RP_VICTIM]) lp->ops.rp.victim_order = MW_VICTIM_HOOK; /* a Lua victim is asked */
        lp->ops.rp.touch = has[H_RP_TOUCH] ? (chain && o->touch ? rp_touch_chain : rp_touch)
                                           : o->touch ? rp_touch_c : NULL;
        lp->ops.rp.insert = has[H_RP_INSERT] ? (chain && o->insert ? rp_insert_chain : rp_insert)
                                             : o->insert ? rp_insert_c : NULL;
        lp->ops.rp.base.line_meta_bytes = o->base.line_meta_bytes;
        break;
    }
    default: break;
    }
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
    if (rc && own_state && !taken) close_hook_state(L);
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
                if ((hooks[h].pt == (int)pt || hooks[h].pt < 0) && !strcmp(hooks[h].name, k)) known = true;
            if (!known) {
                char list[200] = "";
                for (int h = 0; h < H_N; h++)
                    if (hooks[h].pt == (int)pt || hooks[h].pt < 0)
                        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", list[0] ? ", " : "",
                                 hooks[h].name);
                int rc = mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s policy: unknown hook '%s' (hooks: %s)",
                                    mw_point_names[pt], k, list);
                lua_pop(L, 2);
                return rc;
            }
        }
        lua_pop(L, 1);
    }
    int prc = check_params(L, idx, pt, e);
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
        struct lmem *m = hook_state_mem(L);
        if (m) m->limit = (size_t)mib << 20; /* a table policy lives in the caller's state, with its allocator */
    }
    lua_pop(L, 1);
    if (lua_getfield(L, idx, "events") == LUA_TTABLE) {
        for (lua_Integer i = 1; lua_rawgeti(L, -1, i) != LUA_TNIL; i++) {
            const char *ev = lua_tostring(L, -1);
            int k = 0;
            while (k < MW_EV_COUNT && !(ev && !strcmp(ev, event_names[k]))) k++;
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
        if (hooks[h].pt != (int)pt && hooks[h].pt >= 0) continue;
        if (lua_getfield(L, idx, hooks[h].name) == LUA_TFUNCTION) lp->fn[h] = luaL_ref(L, LUA_REGISTRYINDEX);
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
    lua_pushcfunction(T, msgh);
    push_ctx(T, lp, keys, values, n);
    lua_pushvalue(T, S_CTX);
    lp->ctx_ref = luaL_ref(T, LUA_REGISTRYINDEX);
    lua_createtable(T, 64, 0); /* S_LIST */
    if (pt == MW_PT_DRAM_SCHED) new_cols(T, dram_cols, DRAM_COLS);
    else if (pt == MW_PT_REPLACEMENT) new_cols(T, way_cols, WAY_COLS);
    for (int h = 0; h < H_N; h++) { /* the hook functions on fixed slots: lua_pushvalue beats a registry lookup */
        if (lp->fn[h] == LUA_NOREF) continue;
        lua_rawgeti(T, LUA_REGISTRYINDEX, lp->fn[h]);
        lp->slot[h] = lua_gettop(T);
    }
    lp->top = lua_gettop(T);
    arm_budget(lp);

    lp->ops.base.name = lp->name;
    lp->ops.base.desc = "a Lua policy";
    lp->ops.base.params = NULL;
    lp->ops.base.nparams = 0;
    lp->ops.base.params_size = 0;
    lp->ops.base.create = NULL;
    lp->ops.base.destroy = destroy;
    set_slots(lp);
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
    lua_State *L = new_hook_state();
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
    make_readonly(L, "mw", 0);
    lua_pushvalue(L, -1);
    lua_setglobal(L, "mw");
    open_require(L, script);
    lua_pushcfunction(L, msgh);
    if (luaL_loadfile(L, script) != LUA_OK || lua_pcall(L, 0, 1, 1) != LUA_OK) {
        int rc = mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s policy script: %s", mw_point_names[pt], lua_tostring(L, -1));
        close_hook_state(L);
        return rc;
    }
    if (!lua_istable(L, -1)) {
        int rc = mw_err_set(e, MW_EINVAL, script, 0, 0, "a %s policy script must return a table of hooks, not %s",
                            mw_point_names[pt], luaL_typename(L, -1));
        close_hook_state(L);
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
