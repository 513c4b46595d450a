/* Lua workload generators: a workload described by a Lua table, its kernels' warps produced by Lua functions.
 *
 * Two ways to describe a kernel's threads:
 *  - `warp = function(w) ... end` runs as one coroutine per warp; every emitter call (w:ld, w:alu, ...)
 *    produces one warp instruction and yields it to the engine, so loops and branches of the generator are the
 *    warp's control flow. Returning ends the warp.
 *  - `thread = function(t) return {addr, addr, ...} end` gives each thread's whole address list at once; the
 *    warp issues one memory instruction per list position (lanes whose list is shorter are inactive), each
 *    followed by `alu` dependent ALU instructions.
 *
 * The generator runs in the Lua state that holds the description (the script's own state for mw.sim, a fresh
 * state for `moonwarp run --workload file.lua`). Each resume has an instruction budget; a Lua error stops the
 * run with the kernel, CTA, warp and a traceback. */
#include "lworkload.h"

#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LWL_BUDGET 10000000 /* Lua VM instructions per resume (between two warp instructions) */
#define LWL_MAX_PATTERN (1u << 24)
/* Thread mode's code: a loop of the memory instruction and its ALU instructions, then the EXIT. */
#define LWL_PAT_MEM_PC 0x10
#define LWL_PAT_ALU_PC 0x20
#define LWL_PAT_EXIT_PC 0x30

struct lwl_warp {
    lua_State *co;   /* warp mode: the generator coroutine (NULL before the first instruction) */
    int co_ref;
    bool done, exited;  /* generator finished / its EXIT issued */
    uint32_t valid;  /* lanes that are threads of the block */
    uint32_t mask;   /* current active mask (w:mask) */
    uint32_t warp;
    lua_Integer serial;  /* identifies the warp object (w[0]) */
    /* thread mode */
    uint64_t *pat[MW_WARP_SIZE];
    uint32_t len[MW_WARP_SIZE], maxlen, pos, alu_left;
    bool pat_loaded;
};

struct lwl_cta {
    uint32_t cta, nwarps;
    struct lwl_warp *w;
};

struct lwl {
    lua_State *L;
    bool own;            /* L is ours (closed with the workload) */
    int desc_ref;        /* the description table */
    int kernel_ref;      /* the current kernel's table */
    int methods_ref;     /* metatable of the warp objects */
    int tctx_ref;        /* reused thread-context table */
    int launches;        /* kernels launched so far */
    lua_Integer serial;  /* warp objects made so far */
    uint64_t seed;
    struct mw_kernel k;
    bool thread_mode;
    uint64_t exit_pc;    /* the current kernel's EXIT: after every PC its generator gives */
    int alu_per_mem;     /* thread mode */
    uint8_t pat_op, pat_width;
    /* the warp being resumed: emitters write here */
    struct lwl_warp *cur;
    struct lwl_cta *cur_cta;
    struct mw_inst *out;
    int emitted;
    char err[1024];
};

/* ---- helpers ------------------------------------------------------------------------------------------- */

static int msg_handler(lua_State *L)
{
    const char *m = lua_tostring(L, 1);
    luaL_traceback(L, L, m ? m : luaL_typename(L, 1), 1);
    return 1;
}

static struct lwl *upv(lua_State *L) { return lua_touserdata(L, lua_upvalueindex(1)); }

/* The emitter's lwl, checked to be called by the coroutine being resumed. */
static struct lwl *emitter(lua_State *L, const char *what)
{
    struct lwl *g = upv(L);
    if (!g->cur || g->cur->co != L || lua_type(L, 1) != LUA_TTABLE || lua_rawgeti(L, 1, 0) != LUA_TNUMBER ||
        lua_tointeger(L, -1) != g->cur->serial)
        luaL_error(L, "w:%s called outside its warp's generator (a warp object is only valid in its own warp)",
                   what);
    lua_pop(L, 1);
    if (g->emitted) luaL_error(L, "w:%s: one instruction per resume (internal)", what);
    return g;
}

static uint16_t reg_arg(lua_State *L, int idx, const char *what)
{
    lua_Integer r = luaL_checkinteger(L, idx);
    if (r < 0 || r > 254) luaL_error(L, "w:%s: register %I out of range [0, 254]", what, r);
    return (uint16_t)r;
}

static void begin(struct lwl *g, lua_State *L, uint8_t op)
{
    struct mw_inst *o = g->out;
    memset(o, 0, offsetof(struct mw_inst, addr));
    o->op = op;
    o->mask = g->cur->mask;
    lua_Debug ar;
    /* the PC is the generator's source line: stable across loop iterations, distinct across call sites */
    if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "l", &ar) && ar.currentline > 0)
        o->pc = (uint64_t)ar.currentline * MW_WL_INST_BYTES;
}

static int finish(struct lwl *g, lua_State *L)
{
    g->emitted = 1;
    return lua_yield(L, 0);
}

/* ---- emitters ------------------------------------------------------------------------------------------ */

/* w:alu(dst, src1, src2) / w:dp(...) / w:sfu(dst, src) / w:tensor(dst, src1, src2): sources may be nil. */
static int emit_alu_op(lua_State *L, uint8_t op, const char *what)
{
    struct lwl *g = emitter(L, what);
    begin(g, L, op);
    struct mw_inst *o = g->out;
    int top = lua_gettop(L);
    if (top >= 2 && !lua_isnil(L, 2)) o->dst[o->ndst++] = reg_arg(L, 2, what);
    for (int i = 3; i <= top && i < 3 + MW_INST_MAX_SRC; i++)
        if (!lua_isnil(L, i)) o->src[o->nsrc++] = reg_arg(L, i, what);
    return finish(g, L);
}
static int l_alu(lua_State *L) { return emit_alu_op(L, MW_OP_ALU, "alu"); }
static int l_dp(lua_State *L) { return emit_alu_op(L, MW_OP_DP, "dp"); }
static int l_sfu(lua_State *L) { return emit_alu_op(L, MW_OP_SFU, "sfu"); }
static int l_tensor(lua_State *L) { return emit_alu_op(L, MW_OP_TENSOR, "tensor"); }

static int emit_plain(lua_State *L, uint8_t op, const char *what)
{
    struct lwl *g = emitter(L, what);
    begin(g, L, op);
    return finish(g, L);
}
static int l_bar(lua_State *L) { return emit_plain(L, MW_OP_BARRIER, "bar"); }
static int l_branch(lua_State *L) { return emit_plain(L, MW_OP_BRANCH, "branch"); }
static int l_membar(lua_State *L) { return emit_plain(L, MW_OP_MEMBAR, "membar"); }

/* Per-lane thread context for address functions: t.lane, t.x, t.y, t.z (threadIdx), t.gx, t.gy (global
 * indices), t.gtid (= gx). */
static void set_tctx(lua_State *L, int t, const struct mw_kernel *k, uint32_t cta, uint32_t warp, uint32_t lane)
{
    uint32_t tid = warp * MW_WARP_SIZE + lane;
    uint32_t x = tid % k->block[0], y = tid / k->block[0] % k->block[1], z = tid / (k->block[0] * k->block[1]);
    uint32_t cx = cta % k->grid[0], cy = cta / k->grid[0] % k->grid[1];
    lua_pushinteger(L, lane);
    lua_setfield(L, t, "lane");
    lua_pushinteger(L, x);
    lua_setfield(L, t, "x");
    lua_pushinteger(L, y);
    lua_setfield(L, t, "y");
    lua_pushinteger(L, z);
    lua_setfield(L, t, "z");
    lua_pushinteger(L, (lua_Integer)cx * k->block[0] + x);
    lua_pushvalue(L, -1);
    lua_setfield(L, t, "gx");
    lua_setfield(L, t, "gtid");
    lua_pushinteger(L, (lua_Integer)cy * k->block[1] + y);
    lua_setfield(L, t, "gy");
}

static uint64_t addr_value(lua_State *L, int idx, const char *what)
{
    int isnum;
    lua_Integer a = lua_tointegerx(L, idx, &isnum);
    if (!isnum || a < 0) luaL_error(L, "w:%s: an address must be a non-negative integer, got %s", what,
                                     isnum ? "a negative number" : luaL_typename(L, idx));
    return (uint64_t)a;
}

/* w:ld(dst, addr [, opts]) and friends. addr: a number (lane l accesses addr + l * stride, stride defaults to
 * the width), a table of per-lane addresses (index lane + 1; nil or false = lane inactive) or a function(t)
 * returning the lane's address or nil. opts: a number (the width in bytes) or a table {width =, stride =,
 * src = reg or {regs}, bypass = true}. */
static int emit_mem(lua_State *L, uint8_t op, bool has_dst, const char *what)
{
    struct lwl *g = emitter(L, what);
    begin(g, L, op);
    struct mw_inst *o = g->out;
    lua_Integer width = 4, stride = -1;
    if (lua_type(L, 4) == LUA_TNUMBER) {
        width = luaL_checkinteger(L, 4);
    } else if (lua_type(L, 4) == LUA_TTABLE) {
        if (lua_getfield(L, 4, "width") != LUA_TNIL) width = luaL_checkinteger(L, -1);
        if (lua_getfield(L, 4, "stride") != LUA_TNIL) stride = luaL_checkinteger(L, -1);
        int t = lua_getfield(L, 4, "src");
        if (t == LUA_TNUMBER) {
            o->src[o->nsrc++] = reg_arg(L, lua_gettop(L), what);
        } else if (t == LUA_TTABLE) {
            for (int i = 1; lua_rawgeti(L, -1, i) != LUA_TNIL; i++) {
                if (o->nsrc >= MW_INST_MAX_SRC - 1) luaL_error(L, "w:%s: too many source registers", what);
                o->src[o->nsrc++] = reg_arg(L, lua_gettop(L), what);
                lua_pop(L, 1);
            }
            lua_pop(L, 1);
        } else if (t != LUA_TNIL) {
            luaL_error(L, "w:%s: opts.src must be a register or a list of registers", what);
        }
        if (lua_getfield(L, 4, "bypass") != LUA_TNIL && lua_toboolean(L, -1)) o->flags |= MW_IF_BYPASS_L1;
        lua_settop(L, 4);
    } else if (!lua_isnoneornil(L, 4)) {
        luaL_error(L, "w:%s: opts must be a width or a table, got %s", what, luaL_typename(L, 4));
    }
    if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16)
        luaL_error(L, "w:%s: width %I is not 1, 2, 4, 8 or 16 bytes", what, width);
    if (stride < 0) stride = width;
    o->width = (uint8_t)width;
    if (!lua_isnil(L, 2)) {
        uint16_t r = reg_arg(L, 2, what);
        if (has_dst) o->dst[o->ndst++] = r;
        else o->src[o->nsrc++] = r; /* the stored value */
    }
    uint32_t mask = g->cur->mask, act = 0;
    switch (lua_type(L, 3)) {
    case LUA_TNUMBER: {
        uint64_t base = addr_value(L, 3, what);
        for (int l = 0; l < MW_WARP_SIZE; l++) o->addr[l] = base + (uint64_t)(l * stride);
        act = mask;
        break;
    }
    case LUA_TTABLE:
        for (int l = 0; l < MW_WARP_SIZE; l++) {
            if (!(mask >> l & 1u)) continue;
            int t = lua_rawgeti(L, 3, l + 1);
            if (t != LUA_TNIL && !(t == LUA_TBOOLEAN && !lua_toboolean(L, -1))) {
                o->addr[l] = addr_value(L, -1, what);
                act |= 1u << l;
            }
            lua_pop(L, 1);
        }
        break;
    case LUA_TFUNCTION: {
        lua_rawgeti(L, LUA_REGISTRYINDEX, g->tctx_ref);
        int t = lua_gettop(L);
        for (int l = 0; l < MW_WARP_SIZE; l++) {
            if (!(mask >> l & 1u)) continue;
            set_tctx(L, t, &g->k, g->cur_cta->cta, g->cur->warp, (uint32_t)l);
            lua_pushvalue(L, 3);
            lua_pushvalue(L, t);
            lua_call(L, 1, 1);
            if (!lua_isnil(L, -1) && !(lua_isboolean(L, -1) && !lua_toboolean(L, -1))) {
                o->addr[l] = addr_value(L, -1, what);
                act |= 1u << l;
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        break;
    }
    default:
        luaL_error(L, "w:%s: addr must be a number, a table of lane addresses or a function, got %s", what,
                   luaL_typename(L, 3));
    }
    if (!act) { /* no lane accesses memory: nothing to issue, the generator just goes on */
        g->emitted = 0;
        return 0;
    }
    o->mask = act;
    for (int l = 0; l < MW_WARP_SIZE; l++)
        if (!(act >> l & 1u)) o->addr[l] = 0;
    return finish(g, L);
}
static int l_ld(lua_State *L) { return emit_mem(L, MW_OP_LD_GLOBAL, true, "ld"); }
static int l_st(lua_State *L) { return emit_mem(L, MW_OP_ST_GLOBAL, false, "st"); }
static int l_atom(lua_State *L) { return emit_mem(L, MW_OP_ATOMIC, true, "atom"); }
static int l_lds(lua_State *L) { return emit_mem(L, MW_OP_LD_SHARED, true, "lds"); }
static int l_sts(lua_State *L) { return emit_mem(L, MW_OP_ST_SHARED, false, "sts"); }
static int l_ldl(lua_State *L) { return emit_mem(L, MW_OP_LD_LOCAL, true, "ldl"); }
static int l_stl(lua_State *L) { return emit_mem(L, MW_OP_ST_LOCAL, false, "stl"); }
static int l_ldc(lua_State *L) { return emit_mem(L, MW_OP_LD_CONST, true, "ldc"); }

/* w:mask([m]): the active mask of the following instructions (restricted to the block's threads); returns the
 * previous one. Memory instructions further drop lanes whose address is nil. */
static int l_mask(lua_State *L)
{
    struct lwl *g = upv(L);
    if (!g->cur || g->cur->co != L || lua_type(L, 1) != LUA_TTABLE || lua_rawgeti(L, 1, 0) != LUA_TNUMBER ||
        lua_tointeger(L, -1) != g->cur->serial)
        return luaL_error(L, "w:mask called outside its warp's generator");
    lua_pop(L, 1);
    lua_Integer prev = g->cur->mask;
    if (!lua_isnoneornil(L, 2)) {
        lua_Integer m = luaL_checkinteger(L, 2);
        if (m < 0 || m > 0xffffffffLL) return luaL_error(L, "w:mask: %I is not a 32-bit lane mask", m);
        g->cur->mask = (uint32_t)m & g->cur->valid;
    }
    lua_pushinteger(L, prev);
    return 1;
}

static const luaL_Reg emitters[] = {
    {"alu", l_alu}, {"dp", l_dp},   {"sfu", l_sfu}, {"tensor", l_tensor}, {"bar", l_bar},   {"branch", l_branch},
    {"membar", l_membar}, {"ld", l_ld}, {"st", l_st}, {"atom", l_atom}, {"lds", l_lds}, {"sts", l_sts},
    {"ldl", l_ldl}, {"stl", l_stl}, {"ldc", l_ldc}, {"mask", l_mask}, {NULL, NULL}};

/* ---- the description ----------------------------------------------------------------------------------- */

/* A dimension: a positive integer or {x, y, z}. */
static int dim3(lua_State *L, int idx, const char *field, uint32_t out[3], char *why, size_t n)
{
    out[0] = out[1] = out[2] = 1;
    int t = lua_getfield(L, idx, field);
    if (t == LUA_TNUMBER && lua_isinteger(L, -1) && lua_tointeger(L, -1) > 0 && lua_tointeger(L, -1) <= 0x7fffffff) {
        out[0] = (uint32_t)lua_tointeger(L, -1);
    } else if (t == LUA_TTABLE) {
        for (int i = 0; i < 3; i++) {
            int ti = lua_rawgeti(L, -1, i + 1);
            if (ti == LUA_TNIL && i > 0) {
                lua_pop(L, 1);
                continue;
            }
            if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) <= 0 || lua_tointeger(L, -1) > 0xffff * 32768LL) {
                lua_pop(L, 2);
                snprintf(why, n, "%s[%d] must be a positive integer", field, i + 1);
                return -1;
            }
            out[i] = (uint32_t)lua_tointeger(L, -1);
            lua_pop(L, 1);
        }
    } else {
        lua_pop(L, 1);
        snprintf(why, n, "%s must be a positive integer or {x, y, z}", field);
        return -1;
    }
    lua_pop(L, 1);
    return 0;
}

static int opt_int(lua_State *L, int idx, const char *field, lua_Integer def, lua_Integer lo, lua_Integer hi,
                   lua_Integer *out, char *why, size_t n)
{
    int t = lua_getfield(L, idx, field);
    *out = def;
    if (t != LUA_TNIL) {
        if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < lo || lua_tointeger(L, -1) > hi) {
            snprintf(why, n, "%s must be an integer in [%lld, %lld]", field, (long long)lo, (long long)hi);
            lua_pop(L, 1);
            return -1;
        }
        *out = lua_tointeger(L, -1);
    }
    lua_pop(L, 1);
    return 0;
}

/* Lines of a chunk's text: a line's number is at most this. */
static lua_Integer text_lines(const char *p, size_t n)
{
    lua_Integer lines = n > 0 && p[n - 1] != '\n';
    for (size_t i = 0; i < n; i++) lines += p[i] == '\n';
    return lines;
}

static lua_Integer file_lines(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    lua_Integer newlines = 0;
    char buf[4096];
    size_t n;
    char last = '\n';
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        for (size_t i = 0; i < n; i++) newlines += buf[i] == '\n';
        last = buf[n - 1];
    }
    fclose(f);
    return newlines + (last != '\n');
}

/* A warp-mode kernel's EXIT PC: after its chunk's last line, so after the PC of every emitter call in the chunk
 * (the PC is the call's line * 16). The chunk is the warp function's: its file, or its text for a chunk loaded
 * from a string, and at least up to the function's last line. */
static uint64_t warp_exit_pc(lua_State *L, int idx)
{
    lua_Debug ar;
    lua_getfield(L, idx, "warp"); /* a Lua function: read_kernel checked it */
    lua_getinfo(L, ">S", &ar);
    lua_Integer lines = ar.lastlinedefined > 0 ? ar.lastlinedefined : 0, n = 0;
    if (ar.source[0] == '@') n = file_lines(ar.source + 1);
    else if (ar.source[0] != '=') n = text_lines(ar.source, ar.srclen);
    if (n > lines) lines = n;
    return (uint64_t)(lines + 1) * MW_WL_INST_BYTES;
}

/* Read kernel table at idx into g->k and the mode fields. */
static int read_kernel(struct lwl *g, int idx, struct mw_err *e)
{
    lua_State *L = g->L;
    char why[256];
    struct mw_kernel *k = &g->k;
    memset(k, 0, sizeof *k);
    k->id = (uint32_t)g->launches;
    if (lua_getfield(L, idx, "name") == LUA_TSTRING) snprintf(k->name, sizeof k->name, "%s", lua_tostring(L, -1));
    else snprintf(k->name, sizeof k->name, "lua_kernel_%d", g->launches);
    lua_pop(L, 1);
    lua_Integer regs, shmem, alu, width;
    if (dim3(L, idx, "grid", k->grid, why, sizeof why) || dim3(L, idx, "block", k->block, why, sizeof why) ||
        opt_int(L, idx, "regs", 32, 1, 255, &regs, why, sizeof why) ||
        opt_int(L, idx, "shmem", 0, 0, 1 << 20, &shmem, why, sizeof why) ||
        opt_int(L, idx, "alu", 1, 0, 64, &alu, why, sizeof why) ||
        opt_int(L, idx, "width", 4, 1, 16, &width, why, sizeof why))
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "Lua workload: kernel %d (%s): %s", g->launches,
                          k->name, why);
    if (mw_kernel_cta_threads(k) > 1024)
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "Lua workload: kernel %d (%s): %u threads per block (max 1024)",
                          g->launches, k->name, mw_kernel_cta_threads(k));
    k->nregs = (uint32_t)regs;
    k->shmem = (uint32_t)shmem;
    g->alu_per_mem = (int)alu;
    g->pat_width = (uint8_t)width;
    g->pat_op = MW_OP_LD_GLOBAL;
    if (lua_getfield(L, idx, "op") != LUA_TNIL) {
        const char *op = lua_tostring(L, -1);
        if (op && !strcmp(op, "st")) g->pat_op = MW_OP_ST_GLOBAL;
        else if (!op || strcmp(op, "ld")) {
            lua_pop(L, 1);
            return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "Lua workload: kernel %d (%s): op must be \"ld\" or \"st\"",
                              g->launches, k->name);
        }
    }
    lua_pop(L, 1);
    int tw = lua_getfield(L, idx, "warp"), tt = lua_getfield(L, idx, "thread");
    lua_pop(L, 2);
    if ((tw == LUA_TFUNCTION) == (tt == LUA_TFUNCTION))
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0,
                          "Lua workload: kernel %d (%s): give exactly one of warp = function(w) and thread = "
                          "function(t)",
                          g->launches, k->name);
    g->thread_mode = tt == LUA_TFUNCTION;
    g->exit_pc = g->thread_mode ? LWL_PAT_EXIT_PC : warp_exit_pc(L, idx);
    return 0;
}

static int next_kernel(struct mw_workload *w, struct mw_kernel *k, struct mw_err *e)
{
    struct lwl *g = w->self;
    lua_State *L = g->L;
    int top = lua_gettop(L);
    luaL_unref(L, LUA_REGISTRYINDEX, g->kernel_ref);
    g->kernel_ref = LUA_NOREF;
    lua_rawgeti(L, LUA_REGISTRYINDEX, g->desc_ref);
    int t = lua_getfield(L, -1, "kernels");
    int n = g->launches + 1;
    if (t == LUA_TTABLE) {
        lua_rawgeti(L, -1, n);
    } else { /* function(i, seed) -> kernel table or nil */
        lua_pushcfunction(L, msg_handler);
        lua_insert(L, -2);
        lua_pushinteger(L, n);
        lua_pushinteger(L, (lua_Integer)g->seed);
        if (lua_pcall(L, 2, 1, -4) != LUA_OK) {
            int rc = mw_err_set(e, MW_EHOOK, NULL, 0, 0, "Lua workload: kernels(%d): %s", n,
                                lua_tostring(L, -1) ? lua_tostring(L, -1) : "error");
            lua_settop(L, top);
            return rc;
        }
    }
    if (lua_isnil(L, -1)) {
        lua_settop(L, top);
        return 0;
    }
    if (!lua_istable(L, -1)) {
        int rc = mw_err_set(e, MW_EINVAL, NULL, 0, 0, "Lua workload: kernel %d must be a table, got %s", n,
                            luaL_typename(L, -1));
        lua_settop(L, top);
        return rc;
    }
    g->launches = n;
    int rc = read_kernel(g, lua_gettop(L), e);
    if (rc) {
        lua_settop(L, top);
        return rc;
    }
    g->kernel_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_settop(L, top);
    *k = g->k;
    return 1;
}

static int cta_open(struct mw_workload *w, uint32_t cta, void **state, struct mw_err *e)
{
    struct lwl *g = w->self;
    uint32_t nw = mw_kernel_cta_warps(&g->k), nthr = mw_kernel_cta_threads(&g->k);
    struct lwl_cta *c = calloc(1, sizeof *c);
    if (c) c->w = calloc(nw, sizeof *c->w);
    if (!c || !c->w) {
        free(c);
        return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "Lua workload: out of memory");
    }
    c->cta = cta;
    c->nwarps = nw;
    for (uint32_t i = 0; i < nw; i++) {
        uint32_t left = nthr - i * MW_WARP_SIZE;
        c->w[i].valid = left >= MW_WARP_SIZE ? 0xffffffffu : (1u << left) - 1u;
        c->w[i].mask = c->w[i].valid;
        c->w[i].warp = i;
        c->w[i].co_ref = LUA_NOREF;
    }
    *state = c;
    return 0;
}

static void warp_release(struct lwl *g, struct lwl_warp *wp)
{
    if (wp->co_ref != LUA_NOREF) luaL_unref(g->L, LUA_REGISTRYINDEX, wp->co_ref);
    wp->co_ref = LUA_NOREF;
    wp->co = NULL;
    for (int l = 0; l < MW_WARP_SIZE; l++) {
        free(wp->pat[l]);
        wp->pat[l] = NULL;
    }
}

static void cta_close(struct mw_workload *w, void *state)
{
    struct lwl *g = w->self;
    struct lwl_cta *c = state;
    if (!c) return;
    for (uint32_t i = 0; i < c->nwarps; i++) warp_release(g, &c->w[i]);
    free(c->w);
    free(c);
}

static void budget_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    luaL_error(L, "instruction budget of %d exceeded between two warp instructions (an endless loop?)", LWL_BUDGET);
}

/* The warp object handed to warp(w): fields cta, warp, ctax/ctay/ctaz, ntidx/ntidy/ntidz, nctax/nctay/nctaz,
 * kernel (launch number), seed, lanes; emitter methods through the metatable. */
static void push_warp_object(struct lwl *g, lua_State *L, const struct lwl_cta *c, const struct lwl_warp *wp)
{
    const struct mw_kernel *k = &g->k;
    lua_createtable(L, 0, 16);
    uint32_t cx = c->cta % k->grid[0], cy = c->cta / k->grid[0] % k->grid[1], cz = c->cta / (k->grid[0] * k->grid[1]);
    const struct {
        const char *n;
        lua_Integer v;
    } f[] = {{"cta", c->cta},         {"warp", wp->warp},       {"ctax", cx},           {"ctay", cy},
             {"ctaz", cz},            {"ntidx", k->block[0]},   {"ntidy", k->block[1]}, {"ntidz", k->block[2]},
             {"nctax", k->grid[0]},   {"nctay", k->grid[1]},    {"nctaz", k->grid[2]},  {"kernel", g->launches},
             {"seed", (lua_Integer)g->seed}, {"lanes", __builtin_popcount(wp->valid)}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        lua_pushinteger(L, f[i].v);
        lua_setfield(L, -2, f[i].n);
    }
    lua_pushinteger(L, wp->serial);
    lua_rawseti(L, -2, 0);
    lua_rawgeti(L, LUA_REGISTRYINDEX, g->methods_ref);
    lua_setmetatable(L, -2);
}

static int where(struct lwl *g, const struct lwl_cta *c, const struct lwl_warp *wp, struct mw_err *e, int code,
                 const char *msg)
{
    return mw_err_set(e, code, NULL, 0, 0, "Lua workload: kernel %d (%s), CTA %u, warp %u: %s", g->launches,
                      g->k.name, c->cta, wp->warp, msg);
}

/* Thread mode: call thread(t) for every lane once, keep the address lists. */
static int load_pattern(struct lwl *g, struct lwl_cta *c, struct lwl_warp *wp, struct mw_err *e)
{
    lua_State *L = g->L;
    int top = lua_gettop(L);
    wp->pat_loaded = true;
    lua_pushcfunction(L, msg_handler);
    int msgh = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, g->kernel_ref);
    lua_getfield(L, -1, "thread");
    int fn = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, g->tctx_ref);
    int t = lua_gettop(L);
    for (int l = 0; l < MW_WARP_SIZE; l++) {
        if (!(wp->valid >> l & 1u)) continue;
        set_tctx(L, t, &g->k, c->cta, wp->warp, (uint32_t)l);
        lua_pushvalue(L, fn);
        lua_pushvalue(L, t);
        if (lua_pcall(L, 1, 1, msgh) != LUA_OK) {
            char m[900];
            snprintf(m, sizeof m, "thread(t) of lane %d: %s", l, lua_tostring(L, -1) ? lua_tostring(L, -1) : "error");
            lua_settop(L, top);
            return where(g, c, wp, e, MW_EHOOK, m);
        }
        if (!lua_istable(L, -1)) {
            char m[200];
            snprintf(m, sizeof m, "thread(t) of lane %d must return a list of addresses, got %s", l,
                     luaL_typename(L, -1));
            lua_settop(L, top);
            return where(g, c, wp, e, MW_EINVAL, m);
        }
        lua_Unsigned n = lua_rawlen(L, -1);
        if (n > LWL_MAX_PATTERN) {
            lua_settop(L, top);
            return where(g, c, wp, e, MW_EINVAL, "a thread's address list is longer than 16M entries");
        }
        if (n) {
            wp->pat[l] = malloc(n * sizeof(uint64_t));
            if (!wp->pat[l]) {
                lua_settop(L, top);
                return where(g, c, wp, e, MW_ENOMEM, "out of memory");
            }
        }
        for (lua_Unsigned i = 0; i < n; i++) {
            lua_rawgeti(L, -1, (lua_Integer)i + 1);
            int isnum;
            lua_Integer a = lua_tointegerx(L, -1, &isnum);
            if (!isnum || a < 0) {
                char m[200];
                snprintf(m, sizeof m, "thread(t) of lane %d: entry %llu is not a non-negative integer address", l,
                         (unsigned long long)i + 1);
                lua_settop(L, top);
                return where(g, c, wp, e, MW_EINVAL, m);
            }
            wp->pat[l][i] = (uint64_t)a;
            lua_pop(L, 1);
        }
        wp->len[l] = (uint32_t)n;
        if (n > wp->maxlen) wp->maxlen = (uint32_t)n;
        lua_pop(L, 1);
    }
    lua_settop(L, top);
    return 0;
}

/* Thread mode: memory instruction at list position pos (register 2 loaded, address in register 1), then the
 * ALU instructions that consume it (PCs LWL_PAT_*). */
static int pattern_next(struct lwl *g, struct lwl_cta *c, struct lwl_warp *wp, struct mw_inst *out,
                        struct mw_err *e)
{
    if (!wp->pat_loaded) {
        int rc = load_pattern(g, c, wp, e);
        if (rc) return rc;
    }
    memset(out, 0, offsetof(struct mw_inst, addr));
    if (wp->alu_left) {
        wp->alu_left--;
        out->op = MW_OP_ALU;
        out->mask = wp->valid;
        out->pc = LWL_PAT_ALU_PC;
        out->ndst = 1, out->dst[0] = 3;
        out->nsrc = 2, out->src[0] = 2, out->src[1] = 3;
        return 1;
    }
    while (wp->pos < wp->maxlen) {
        uint32_t i = wp->pos++, mask = 0;
        for (int l = 0; l < MW_WARP_SIZE; l++) {
            if (wp->len[l] > i) {
                mask |= 1u << l;
                out->addr[l] = wp->pat[l][i];
            } else {
                out->addr[l] = 0;
            }
        }
        if (!mask) continue;
        out->op = g->pat_op;
        out->width = g->pat_width;
        out->mask = mask;
        out->pc = LWL_PAT_MEM_PC;
        out->src[0] = 1; /* the address */
        if (g->pat_op == MW_OP_LD_GLOBAL) out->nsrc = 1, out->ndst = 1, out->dst[0] = 2;
        else out->nsrc = 2, out->src[1] = 3; /* the stored value */
        wp->alu_left = g->pat_op == MW_OP_LD_GLOBAL ? (uint32_t)g->alu_per_mem : 0;
        return 1;
    }
    return 0;
}

/* A finished warp issues one EXIT (as a compiled kernel and the built-in models do), then reports its end. */
static int emit_exit(const struct lwl *g, struct lwl_warp *wp, struct mw_inst *out)
{
    if (wp->exited) return 0;
    wp->exited = true;
    mw_inst_exit(out, wp->valid, g->exit_pc);
    return 1;
}

static int warp_next(struct mw_workload *w, void *state, uint32_t warp, struct mw_inst *out, struct mw_err *e)
{
    struct lwl *g = w->self;
    struct lwl_cta *c = state;
    if (warp >= c->nwarps) return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "Lua workload: no warp %u", warp);
    struct lwl_warp *wp = &c->w[warp];
    if (wp->done) return emit_exit(g, wp, out);
    if (g->thread_mode) {
        int rc = pattern_next(g, c, wp, out, e);
        if (rc == 0) {
            wp->done = true;
            warp_release(g, wp);
            return emit_exit(g, wp, out);
        }
        return rc;
    }
    lua_State *L = g->L;
    int nargs = 0;
    if (!wp->co) {
        wp->co = lua_newthread(L);
        wp->co_ref = luaL_ref(L, LUA_REGISTRYINDEX);
        lua_rawgeti(L, LUA_REGISTRYINDEX, g->kernel_ref);
        lua_getfield(L, -1, "warp");
        lua_xmove(L, wp->co, 1);
        lua_pop(L, 1);
        wp->serial = ++g->serial;
        push_warp_object(g, wp->co, c, wp);
        nargs = 1;
    }
    lua_sethook(wp->co, budget_hook, LUA_MASKCOUNT, LWL_BUDGET);
    g->cur = wp, g->cur_cta = c, g->out = out, g->emitted = 0;
    int nres = 0;
    int st = lua_resume(wp->co, NULL, nargs, &nres);
    g->cur = NULL, g->cur_cta = NULL, g->out = NULL;
    if (st == LUA_YIELD && g->emitted) {
        lua_pop(wp->co, nres);
        return 1;
    }
    if (st == LUA_OK) {
        wp->done = true;
        warp_release(g, wp);
        return emit_exit(g, wp, out);
    }
    if (st == LUA_YIELD) { /* coroutine.yield() called by the generator itself */
        warp_release(g, wp);
        wp->done = true;
        return where(g, c, wp, e, MW_EINVAL, "warp(w) yielded without an instruction (use the w:... emitters)");
    }
    /* error: message and the coroutine's traceback */
    luaL_traceback(L, wp->co, lua_tostring(wp->co, -1) ? lua_tostring(wp->co, -1) : "error", 0);
    char m[900];
    snprintf(m, sizeof m, "%s", lua_tostring(L, -1));
    lua_pop(L, 1);
    wp->done = true;
    warp_release(g, wp);
    return where(g, c, wp, e, MW_EHOOK, m);
}

static void destroy(struct mw_workload *w)
{
    struct lwl *g = w->self;
    if (!g) return;
    if (g->own) {
        lua_close(g->L);
    } else {
        luaL_unref(g->L, LUA_REGISTRYINDEX, g->desc_ref);
        luaL_unref(g->L, LUA_REGISTRYINDEX, g->kernel_ref);
        luaL_unref(g->L, LUA_REGISTRYINDEX, g->methods_ref);
        luaL_unref(g->L, LUA_REGISTRYINDEX, g->tctx_ref);
    }
    free(g);
    w->self = NULL;
}

static const struct mw_workload_ops lwl_ops = {"lua", next_kernel, cta_open, warp_next, cta_close, destroy};

/* ---- opening ------------------------------------------------------------------------------------------- */

int mw_lua_workload_open(struct mw_workload *w, lua_State *L, int idx, uint64_t seed, struct mw_err *e)
{
    idx = lua_absindex(L, idx);
    if (!lua_istable(L, idx))
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0, "Lua workload: expected a table, got %s", luaL_typename(L, idx));
    int tk = lua_getfield(L, idx, "kernels");
    lua_pop(L, 1);
    if (tk != LUA_TTABLE && tk != LUA_TFUNCTION)
        return mw_err_set(e, MW_EINVAL, NULL, 0, 0,
                          "Lua workload: kernels must be a list of kernel tables or a function(i, seed)");
    struct lwl *g = calloc(1, sizeof *g);
    if (!g) return mw_err_set(e, MW_ENOMEM, NULL, 0, 0, "Lua workload: out of memory");
    g->L = L;
    g->seed = seed;
    g->kernel_ref = LUA_NOREF;
    lua_pushvalue(L, idx);
    g->desc_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    /* metatable of warp objects: __index = emitters, each with g as upvalue */
    lua_createtable(L, 0, 1);
    lua_createtable(L, 0, (int)(sizeof emitters / sizeof emitters[0]));
    lua_pushlightuserdata(L, g);
    luaL_setfuncs(L, emitters, 1);
    lua_setfield(L, -2, "__index");
    g->methods_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_createtable(L, 0, 8);
    g->tctx_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    memset(w, 0, sizeof *w);
    w->ops = &lwl_ops;
    w->self = g;
    const char *name = NULL;
    if (lua_getfield(L, idx, "name") == LUA_TSTRING) name = lua_tostring(L, -1);
    snprintf(w->name, sizeof w->name, "%s", name ? name : "lua");
    lua_pop(L, 1);
    return 0;
}

int mw_lua_workload_open_file(struct mw_workload *w, const char *path, uint64_t seed, struct mw_err *e)
{
    lua_State *L = luaL_newstate();
    if (!L) return mw_err_set(e, MW_ENOMEM, path, 0, 0, "cannot create a Lua state");
    luaL_openlibs(L);
    int rc = mw_lua_workload_load(L, path, seed, e);
    if (rc) {
        lua_close(L);
        return rc;
    }
    rc = mw_lua_workload_open(w, L, -1, seed, e);
    lua_pop(L, 1);
    if (rc) {
        lua_close(L);
        return rc;
    }
    ((struct lwl *)w->self)->own = true;
    return 0;
}

int mw_lua_workload_load(lua_State *L, const char *path, uint64_t seed, struct mw_err *e)
{
    int top = lua_gettop(L);
    if (luaL_loadfile(L, path) != LUA_OK) {
        int rc = mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s", lua_tostring(L, -1));
        lua_settop(L, top);
        return rc;
    }
    lua_pushcfunction(L, msg_handler);
    lua_insert(L, -2);
    lua_pushinteger(L, (lua_Integer)seed);
    if (lua_pcall(L, 1, 1, top + 1) != LUA_OK) {
        int rc = mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s", lua_tostring(L, -1));
        lua_settop(L, top);
        return rc;
    }
    lua_remove(L, top + 1);
    if (!lua_istable(L, -1)) {
        int rc = mw_err_set(e, MW_EINVAL, path, 0, 0, "a Lua workload file must return the workload table, got %s",
                            luaL_typename(L, -1));
        lua_settop(L, top);
        return rc;
    }
    return 0;
}

bool mw_lua_workload_path(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    return n > 4 && !strcmp(name + n - 4, ".lua");
}
