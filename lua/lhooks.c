/* The Lua policy adapter's trampolines: one C hook per point and hook that pushes the engine's arguments as
 * integers (reused list and column tables where a hook takes a list), calls the table's Lua function through
 * lcall() and range-checks what it returns; the *_c variants serve the hooks a table leaves out from the point's
 * C default. */
#include "lpolicy_int.h"

#include <stdio.h>
#include <string.h>

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
    mw_lfail(lp, h, "%s:%d: %s.%s returned %s, expected %s", ar.short_src, ar.linedefined, mw_point_name(lp->pt),
         mw_lhooks[h].name, got, expected);
}

/* The call's integer result in [lo, hi], or `dflt` after failing the simulation; `expected` (a format with the
 * integers a and b) is only formatted for the message of a bad result. */
static lua_Integer int_result(struct lpol *lp, int h, lua_Integer lo, lua_Integer hi, lua_Integer dflt,
                              const char *expected, int a, int b) __attribute__((format(printf, 6, 0)));
static lua_Integer int_result(struct lpol *lp, int h, lua_Integer lo, lua_Integer hi, lua_Integer dflt,
                              const char *expected, int a, int b)
{
    lua_State *T = lp->T;
    int isnum = 0;
    lua_Integer v = lua_type(T, -1) == LUA_TNUMBER ? lua_tointegerx(T, -1, &isnum) : 0;
    if (__builtin_expect(!isnum || v < lo || v > hi, 0)) {
        char exp[128];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
        snprintf(exp, sizeof exp, expected, a, b);
#pragma GCC diagnostic pop
        bad_result(lp, h, exp);
        v = dflt;
    }
    lreset_stack(lp);
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


/* ---- warp scheduling ------------------------------------------------------------------------------------- */
static int ws_pick(struct mw_policy_inst *pi, int sm, int sched, const uint16_t *ready, int n)
{
    struct lpol *lp = LP(pi);
    if (lp->failed) return 0;
    lua_State *T = lbegin(lp, H_WS_PICK);
    lua_pushinteger(T, sm);
    lua_pushinteger(T, sched);
    fill_list(lp, ready, n);
    lua_pushvalue(T, S_LIST);
    lua_pushinteger(T, n);
    if (!lcall(lp, H_WS_PICK, 4, 1)) return 0;
    return (int)int_result(lp, H_WS_PICK, 1, n, 1, "an index 1..%d into the ready warps", n, 0) - 1;
}
static bool ws_qualify(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    struct lpol *lp = LP(pi);
    if (lp->failed) return true;
    lua_State *T = lbegin(lp, H_WS_QUALIFY);
    lua_pushinteger(T, sm);
    lua_pushinteger(T, sched);
    lua_pushinteger(T, w);
    lua_pushinteger(T, (lua_Integer)in->pc);
    lua_pushinteger(T, in->op);
    int n = 5;
    if (lp->nargs[H_WS_QUALIFY] > 5) lua_pushinteger(T, in->mask), n++;
    if (lp->nargs[H_WS_QUALIFY] > 6) /* ids come at issue: the head's position in the warp's stream */
        lua_pushinteger(T, (lua_Integer)mw_warp_insts(lp->sim, sm, w)), n++;
    if (!lcall(lp, H_WS_QUALIFY, n, 1)) return true;
    bool ok = true;
    if (lua_type(T, -1) != LUA_TBOOLEAN) bad_result(lp, H_WS_QUALIFY, "true or false");
    else ok = lua_toboolean(T, -1);
    lreset_stack(lp);
    return ok;
}
static void ws_issued(struct mw_policy_inst *pi, int sm, int sched, int w, const struct mw_inst *in)
{
    struct lpol *lp = LP(pi);
    if (lp->failed) return;
    lua_State *T = lbegin(lp, H_WS_ISSUED);
    lua_pushinteger(T, sm);
    lua_pushinteger(T, sched);
    lua_pushinteger(T, w);
    lua_pushinteger(T, (lua_Integer)in->pc);
    lua_pushinteger(T, in->op);
    lua_pushinteger(T, in->mask);
    lua_pushinteger(T, (lua_Integer)in->id);
    lcall(lp, H_WS_ISSUED, 7, 0); /* no results: the stack is back at its fixed height */
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

/* ---- column tables: the request list of decide, the candidates of dram pick, the ways of victim ----------------
 * One reused table per hook (at S_COLS) whose columns (c.arrival, w.last_access, reqs.set, ...) are filled only
 * when the hook first reads them for its current data (the table's __index), and dropped when the data changes:
 * a hook that reads two columns of eight pays for two. Upvalues of __index: the context's box, the column
 * tables. */
static lua_Integer col_value(const struct lpol *lp, int k, int i)
{
    switch (lp->pt) {
    case MW_PT_L1D_BYPASS: {
        const struct mw_coal_req *q = &lp->by_ctx->reqs[i];
        return k == 0 ? (lua_Integer)q->line : k == 1 ? q->set : k == 2 ? q->size : k == 3 ? q->sectors : q->lanes;
    }
    case MW_PT_DRAM_SCHED: {
        const struct mw_dram_cand *x = &lp->cands[i];
        switch (k) {
        case 0: return (lua_Integer)x->arrival;
        case 1: return x->id;
        case 2: return x->row;
        case 3: return x->bank;
        case 4: return x->is_write;
        case 5: return x->row_hit;
        case 6: return x->merge;
        case 7: return (lua_Integer)x->age;
        case 8: return x->sm;
        case 9: return (lua_Integer)x->created;
        default: return (lua_Integer)x->line;
        }
    }
    default: {
        const struct mw_line_view *v = &lp->ways[i];
        switch (k) {
        case 0: return (lua_Integer)v->line;
        case 1: return (lua_Integer)v->last_access;
        case 2: return (lua_Integer)v->fill_time;
        case 3: return v->hits;
        case 4: return v->valid;
        case 5: return (lua_Integer)v->pc;
        case 6: return v->warp;
        default: return lp->evictable[i];
        }
    }
    }
}

static int cols_index(lua_State *L)
{
    struct mbox *b = lua_touserdata(L, lua_upvalueindex(1));
    struct lpol *lp = b->lp;
    const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    if (!lp || !key) return 0;
    int k = 0;
    while (k < lp->ncols && strcmp(key, lp->col_names[k])) k++;
    if (k == lp->ncols) return 0;
    if (!lp->cols_live) return luaL_error(L, "%s: a hook's column table can only be read inside the hook", key);
    lua_pushvalue(L, lua_upvalueindex(2 + k));
    bool boolean = lp->col_bool >> k & 1u;
    for (int i = 0; i < lp->cols_len; i++) {
        lua_Integer v = col_value(lp, k, i);
        if (boolean) lua_pushboolean(L, (int)v);
        else lua_pushinteger(L, v);
        lua_rawseti(L, -2, i + 1);
    }
    for (int i = lp->cols_len; i < lp->col_n[k]; i++) {
        lua_pushnil(L);
        lua_rawseti(L, -2, i + 1);
    }
    lp->col_n[k] = lp->cols_len;
    lp->cols_filled |= 1u << k;
    lua_pushvalue(L, 2);
    lua_pushvalue(L, -2);
    lua_rawset(L, 1); /* read directly until the data changes */
    return 1;
}

void mw_lnew_cols(lua_State *T, struct lpol *lp, const char *const *names, int n, unsigned booleans)
{
    lp->col_names = names;
    lp->ncols = n;
    lp->col_bool = booleans;
    lua_createtable(T, 0, n); /* S_COLS */
    lua_createtable(T, 0, 1);
    lua_getfield(T, S_CTX, "now"); /* every function of m has the context's box as its upvalue */
    lua_getupvalue(T, -1, 1);
    lua_remove(T, -2);
    for (int k = 0; k < n; k++) lua_createtable(T, 64, 0);
    lua_pushcclosure(T, cols_index, 1 + n);
    lua_setfield(T, -2, "__index");
    lua_setmetatable(T, -2);
}

/* New data for the column table: the columns filled for the old data go. */
static void cols_reset(struct lpol *lp, int len)
{
    for (int k = 0; lp->cols_filled; k++)
        if (lp->cols_filled >> k & 1u) {
            lua_pushstring(lp->T, lp->col_names[k]);
            lua_pushnil(lp->T);
            lua_rawset(lp->T, S_COLS);
            lp->cols_filled &= ~(1u << k);
        }
    lp->cols_len = len;
}

/* ---- L1D bypass -------------------------------------------------------------------------------------------- */
/* `reqs` changes with the instruction: its first request, or another LDST slot's list. */
static int by_decide(struct mw_policy_inst *pi, const struct mw_bypass_ctx *c)
{
    struct lpol *lp = LP(pi);
    if (lp->failed) return MW_CACHE;
    const struct mw_coal_req *q = &c->reqs[c->index];
    if (c->index == 0 || c->reqs != lp->reqs_of || c->n != lp->cols_len) { /* another instruction */
        lp->reqs_of = c->reqs;
        cols_reset(lp, c->n);
    }
    lua_State *T = lbegin(lp, H_BY_DECIDE);
    lua_pushinteger(T, c->sm);
    lua_pushinteger(T, c->warp);
    lua_pushinteger(T, (lua_Integer)c->pc);
    lua_pushinteger(T, (lua_Integer)q->line);
    lua_pushinteger(T, q->set);
    lua_pushinteger(T, q->size);
    lua_pushinteger(T, c->index + 1);
    lua_pushinteger(T, c->n);
    lua_pushinteger(T, c->retry);
    lua_pushvalue(T, S_COLS);
    lp->by_ctx = c;
    lp->cols_live = true;
    bool ok = lcall(lp, H_BY_DECIDE, 10, 1);
    lp->cols_live = false;
    if (!ok) return MW_CACHE;
    int v = MW_CACHE;
    if (lua_type(T, -1) == LUA_TBOOLEAN) v = lua_toboolean(T, -1) ? MW_BYPASS : MW_CACHE;
    else if (lua_type(T, -1) == LUA_TNUMBER && lua_isinteger(T, -1) && lua_tointeger(T, -1) >= MW_CACHE &&
             lua_tointeger(T, -1) <= MW_BYPASS_PROBE)
        v = (int)lua_tointeger(T, -1);
    else bad_result(lp, H_BY_DECIDE, "true/1 (bypass), false/0 (cache) or 2 (bypass, but serve a hit from L1D)");
    lreset_stack(lp);
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
    lua_State *T = lbegin(lp, H_GR_FETCH);
    lua_pushinteger(T, c->sm);
    lua_pushinteger(T, c->warp);
    lua_pushinteger(T, (lua_Integer)c->pc);
    lua_pushinteger(T, (lua_Integer)c->line);
    lua_pushinteger(T, c->set);
    lua_pushinteger(T, c->need);
    lua_pushinteger(T, c->have);
    lua_pushinteger(T, c->size);
    lua_pushinteger(T, full);
    if (!lcall(lp, H_GR_FETCH, 9, 1)) return full;
    int isnum = 0;
    lua_Integer v = lua_type(T, -1) == LUA_TNUMBER ? lua_tointegerx(T, -1, &isnum) : 0;
    if (!isnum || v < 1 || v > full || (v & c->need) != c->need) {
        char exp[96];
        snprintf(exp, sizeof exp, "a sector mask within 0x%x covering the needed sectors 0x%x", full, c->need);
        bad_result(lp, H_GR_FETCH, exp);
        v = full;
    }
    lreset_stack(lp);
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
    cols_reset(lp, n);
    lp->cands = cands;
    lbegin(lp, H_DR_PICK);
    lua_pushinteger(T, c->channel);
    lua_pushinteger(T, c->bank);
    lua_pushinteger(T, c->open_row == MW_ROW_NONE ? -1 : (lua_Integer)c->open_row);
    lua_pushinteger(T, c->hits_in_row);
    lua_pushinteger(T, (lua_Integer)c->now);
    lua_pushvalue(T, S_COLS);
    lua_pushinteger(T, n);
    lp->cols_live = true;
    bool ok = lcall(lp, H_DR_PICK, 7, 1);
    lp->cols_live = false;
    if (!ok) return 0;
    return (int)int_result(lp, H_DR_PICK, 1, n, 1, "an index 1..%d into the candidates", n, 0) - 1;
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
    lua_State *T = lbegin(lp, H_CT_LIMIT);
    lua_pushinteger(T, sm);
    lua_pushinteger(T, resident);
    if (!lcall(lp, H_CT_LIMIT, 2, 1)) return 1 << 20;
    return (int)int_result(lp, H_CT_LIMIT, 0, 1 << 20, 1 << 20, "a CTA count >= 0", 0, 0);
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
    lbegin(lp, H_LD_SLOTS);
    if (!lcall(lp, H_LD_SLOTS, 0, 1)) return 1;
    return (int)int_result(lp, H_LD_SLOTS, 1, 256, 1, "a slot count 1..256", 0, 0);
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
    lua_State *T = lbegin(lp, H_LD_PICK);
    lua_pushinteger(T, sm);
    fill_list(lp, warps, n);
    lua_pushvalue(T, S_LIST);
    lua_pushinteger(T, n);
    if (!lcall(lp, H_LD_PICK, 3, 1)) return 0;
    return (int)int_result(lp, H_LD_PICK, 1, n, 1, "an index 1..%d into the waiting instructions", n, 0) - 1;
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
    cols_reset(lp, assoc);
    lp->ways = ways;
    lp->evictable = evictable;
    lbegin(lp, H_RP_VICTIM);
    lua_pushinteger(T, sm);
    lua_pushinteger(T, set);
    lua_pushvalue(T, S_COLS);
    lua_pushinteger(T, assoc);
    lp->cols_live = true;
    bool ok = lcall(lp, H_RP_VICTIM, 4, 1);
    lp->cols_live = false;
    if (!ok) return -1;
    if (lua_type(T, -1) == LUA_TBOOLEAN && !lua_toboolean(T, -1)) {
        lreset_stack(lp);
        return -1;
    }
    int w = (int)int_result(lp, H_RP_VICTIM, 1, assoc, 0, "an evictable way 1..%d, or false for none", assoc, 0) - 1;
    if (w >= 0 && !evictable[w]) {
        lua_pushinteger(T, w + 1);
        bad_result(lp, H_RP_VICTIM, "a way that is not waiting for a fill (evictable)");
        lreset_stack(lp);
        return -1;
    }
    return w;
}
static void rp_note(struct mw_policy_inst *pi, int h, int sm, int set, int way, const struct mw_line_view *line)
{
    struct lpol *lp = LP(pi);
    if (lp->failed) return;
    lua_State *T = lbegin(lp, h);
    lua_pushinteger(T, sm);
    lua_pushinteger(T, set);
    lua_pushinteger(T, way + 1);
    lua_pushinteger(T, (lua_Integer)line->line);
    lua_pushinteger(T, line->hits);
    lcall(lp, h, 5, 0);
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

/* evicted(m, sm, set, way, line, hits, sectors, pc, warp, alloc_pc, alloc_warp, cause) */
static void rp_evicted(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *v, int cause)
{
    struct lpol *lp = LP(pi);
    if (lp->failed) return;
    lua_State *T = lbegin(lp, H_RP_EVICTED);
    lua_pushinteger(T, sm);
    lua_pushinteger(T, set);
    lua_pushinteger(T, way + 1);
    lua_pushinteger(T, (lua_Integer)v->line);
    lua_pushinteger(T, v->hits);
    lua_pushinteger(T, v->sectors);
    lua_pushinteger(T, (lua_Integer)v->pc);
    lua_pushinteger(T, v->warp);
    lua_pushinteger(T, (lua_Integer)v->alloc_pc);
    lua_pushinteger(T, v->alloc_warp);
    lua_pushinteger(T, cause);
    lcall(lp, H_RP_EVICTED, 11, 0);
}
static void rp_evicted_c(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *v, int cause)
{
    struct lpol *lp = LP(pi);
    DFLT(lp, struct mw_replacement_ops)->evicted(&lp->dflt, sm, set, way, v, cause);
}
static void rp_evicted_chain(struct mw_policy_inst *pi, int sm, int set, int way, const struct mw_line_view *v,
                             int cause)
{
    rp_evicted_c(pi, sm, set, way, v, cause);
    rp_evicted(pi, sm, set, way, v, cause);
}
#define VPROBE_MAX 1000000
/* victim_probe(m, sm, set, line, sectors, warp, pc) -> core cycles until the data is at the SM, 0 (or false) for
 * a miss */
static uint32_t rp_vprobe(struct mw_policy_inst *pi, int sm, int set, uint64_t line, uint8_t sectors, int warp,
                          uint64_t pc)
{
    struct lpol *lp = LP(pi);
    if (lp->failed) return 0;
    lua_State *T = lbegin(lp, H_RP_VPROBE);
    lua_pushinteger(T, sm);
    lua_pushinteger(T, set);
    lua_pushinteger(T, (lua_Integer)line);
    lua_pushinteger(T, sectors);
    lua_pushinteger(T, warp);
    lua_pushinteger(T, (lua_Integer)pc);
    if (!lcall(lp, H_RP_VPROBE, 6, 1)) return 0;
    if (lua_isnil(T, -1) || (lua_type(T, -1) == LUA_TBOOLEAN && !lua_toboolean(T, -1))) {
        lreset_stack(lp);
        return 0;
    }
    return (uint32_t)int_result(lp, H_RP_VPROBE, 0, VPROBE_MAX, 0,
                                "a latency in core cycles 1..1000000, or 0 for a miss", 0, 0);
}
static uint32_t rp_vprobe_c(struct mw_policy_inst *pi, int sm, int set, uint64_t line, uint8_t sectors, int warp,
                            uint64_t pc)
{
    struct lpol *lp = LP(pi);
    return DFLT(lp, struct mw_replacement_ops)->victim_probe(&lp->dflt, sm, set, line, sectors, warp, pc);
}

/* ---- events, start and finish ------------------------------------------------------------------------------ */
/* on_event(m, kind, sm, warp, cta, pc, addr, set, way, value, aux, cycle, inst, size, sectors, alloc_pc, alloc_warp,
 * cause) */
static void on_event(struct mw_policy_inst *pi, const struct mw_event *ev)
{
    struct lpol *lp = LP(pi);
    if (lp->c_events >> ev->kind & 1u) lp->dpol->on_event(&lp->dflt, ev);
    if (lp->failed || !(lp->lua_events >> ev->kind & 1u)) return;
    lua_State *T = lbegin(lp, H_EVENT);
    lua_pushstring(T, mw_event_names[ev->kind]);
    const lua_Integer v[] = {ev->sm, ev->warp, ev->cta, (lua_Integer)ev->pc, (lua_Integer)ev->addr, ev->set, ev->way,
                             ev->value, ev->aux, (lua_Integer)ev->cycle, (lua_Integer)ev->inst, ev->size, ev->sectors,
                             (lua_Integer)ev->alloc_pc, ev->alloc_warp, ev->cause};
    int n = (int)(sizeof v / sizeof *v);
    if (lp->nargs[H_EVENT] - 1 < n) n = lp->nargs[H_EVENT] < 1 ? 0 : lp->nargs[H_EVENT] - 1; /* what it takes */
    for (int i = 0; i < n; i++) lua_pushinteger(T, v[i]);
    lcall(lp, H_EVENT, n + 1, 0);
}

/* The machine is built: the C default learns where it is installed (its per-line bytes come first in the
 * adapter's), starts, and then the table's start(m). */
static void l_start(struct mw_policy_inst *pi)
{
    struct lpol *lp = LP(pi);
    lp->dflt.slot = pi->slot;
    lp->dflt.meta_off = pi->meta_off;
    lp->dflt.bundle = pi->bundle;
    if (lp->dpol->start) lp->dpol->start(&lp->dflt);
    if (lp->failed || lp->fn[H_START] == LUA_NOREF) return;
    lbegin(lp, H_START);
    lcall(lp, H_START, 0, 0);
}
static void l_finish(struct mw_policy_inst *pi)
{
    struct lpol *lp = LP(pi);
    if (lp->dpol->finish) lp->dpol->finish(&lp->dflt);
    if (lp->failed || lp->fn[H_FINISH] == LUA_NOREF) return;
    lbegin(lp, H_FINISH);
    lcall(lp, H_FINISH, 0, 0);
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

void mw_lset_slots(struct lpol *lp)
{
    const struct mw_policy *d = lp->dpol;
    bool has[H_N];
    for (int h = 0; h < H_N; h++) has[h] = lp->fn[h] != LUA_NOREF;
    bool chain = c_decides(lp, has);
    lp->c_events = d->on_event && (chain || !has[H_EVENT]) ? d->events : 0;
    lp->ops.base.events = lp->lua_events | lp->c_events;
    lp->ops.base.on_event = lp->ops.base.events ? on_event : NULL;
    lp->ops.base.start = l_start;
    lp->ops.base.finish = d->finish || has[H_FINISH] ? l_finish : NULL;
    lp->meta_c = d->line_meta_bytes;
    lp->ops.base.line_meta_bytes = lp->meta_c + lp->meta_n;
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
        if (has[H_RP_VICTIM]) { /* a Lua victim is asked, every time (never taken for side-effect free) */
            lp->ops.rp.victim_order = MW_VICTIM_HOOK;
            lp->ops.rp.victim_pure = 0;
        }
        lp->ops.rp.touch = has[H_RP_TOUCH] ? (chain && o->touch ? rp_touch_chain : rp_touch)
                                           : o->touch ? rp_touch_c : NULL;
        lp->ops.rp.insert = has[H_RP_INSERT] ? (chain && o->insert ? rp_insert_chain : rp_insert)
                                             : o->insert ? rp_insert_c : NULL;
        lp->ops.rp.evicted = has[H_RP_EVICTED] ? (chain && o->evicted ? rp_evicted_chain : rp_evicted)
                                               : o->evicted ? rp_evicted_c : NULL;
        lp->ops.rp.victim_probe = has[H_RP_VPROBE] ? rp_vprobe : o->victim_probe ? rp_vprobe_c : NULL;
        break;
    }
    default: break;
    }
}

