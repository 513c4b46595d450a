/* The policy context `m` every Lua hook gets first: the machine's geometry, the policy's parameters and state,
 * and the engine facts and actions of sim.h as functions. */
#include "lpolicy_int.h"

#include "inspect.h"

#include <stdlib.h>
#include <string.h>

#define MAX_WARPS 256 /* the config's limit of sm.max_warps */

/* ---- the context `m`: engine facts for hooks ----------------------------------------------------------------- */
/* The context's box, once the machine is built (checked on the first call: it stays built until the box goes
 * stale, and then `started` goes with `sim`). */
static inline struct mbox *ctx_box(lua_State *L)
{
    struct mbox *b = lua_touserdata(L, lua_upvalueindex(1));
    if (__builtin_expect(!b->started, 0)) {
        if (!b->sim) luaL_error(L, "stale policy context: its simulation was reset or closed");
        if (!mw_inspect_started(b->sim)) luaL_error(L, "the simulation has not started: no machine to ask yet");
        b->started = true;
    }
    return b;
}
static struct mw_sim *ctx_sim(lua_State *L) { return ctx_box(L)->sim; }
static int arg_sm(lua_State *L, const struct mbox *b, int i)
{
    lua_Integer sm = luaL_checkinteger(L, i);
    luaL_argcheck(L, sm >= 0 && sm < b->n_sms, i, "SM id out of range");
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
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int sm = arg_sm(L, b, 1), w = arg_warp(L, s, 2);
    lua_pushinteger(L, (lua_Integer)mw_warp_age(s, sm, w));
    return 1;
}
static int c_warp_active(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int sm = arg_sm(L, b, 1), w = arg_warp(L, s, 2);
    lua_pushboolean(L, mw_warp_active(s, sm, w));
    return 1;
}
static int c_warp_at_barrier(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int sm = arg_sm(L, b, 1), w = arg_warp(L, s, 2);
    lua_pushboolean(L, mw_warp_at_barrier(s, sm, w));
    return 1;
}
static int c_warp_cta(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int sm = arg_sm(L, b, 1), w = arg_warp(L, s, 2);
    lua_pushinteger(L, mw_warp_cta(s, sm, w));
    return 1;
}
static int c_warp_insts(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int sm = arg_sm(L, b, 1), w = arg_warp(L, s, 2);
    lua_pushinteger(L, (lua_Integer)mw_warp_insts(s, sm, w));
    return 1;
}
static int c_warp_pc(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int sm = arg_sm(L, b, 1), w = arg_warp(L, s, 2);
    const struct mw_inst *in = mw_warp_next_inst(s, sm, w);
    if (in) lua_pushinteger(L, (lua_Integer)in->pc), lua_pushinteger(L, in->op);
    else lua_pushnil(L), lua_pushnil(L);
    return 2;
}
static int c_resident_ctas(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    lua_pushinteger(L, mw_sm_resident_ctas(s, arg_sm(L, b, 1)));
    return 1;
}
static int c_sm_warp_insts(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    lua_pushinteger(L, (lua_Integer)mw_sm_warp_insts(s, arg_sm(L, b, 1)));
    return 1;
}
static int c_mshr_free(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    lua_pushinteger(L, mw_l1d_mshr_free(s, arg_sm(L, b, 1)));
    return 1;
}
static int c_set_of(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    lua_pushinteger(L, mw_l1d_set_of(s, (uint64_t)luaL_checkinteger(L, 1)));
    return 1;
}
static int c_probe(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int sm = arg_sm(L, b, 1);
    lua_Integer sec = luaL_optinteger(L, 3, 0xF);
    lua_pushboolean(L, mw_l1d_probe(s, sm, (uint64_t)luaL_checkinteger(L, 2), (uint8_t)sec));
    return 1;
}
static int c_flush(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    mw_l1d_flush(s, arg_sm(L, b, 1));
    return 0;
}
static int c_set_window(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    lua_Integer c = luaL_checkinteger(L, 1);
    luaL_argcheck(L, c >= 0, 1, "window must be >= 0 cycles");
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
    /* in unsigned arithmetic: hi - lo overflows lua_Integer for wide intervals, and the whole range has no +1 */
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    uint64_t v = span == UINT64_MAX ? r : r % (span + 1);
    lua_pushinteger(L, (lua_Integer)((uint64_t)lo + v));
    return 1;
}

/* ---- lookups, queues, registers, CTAs, schedulers; the actions ------------------------------------------------ */
static int arg_range(lua_State *L, int i, lua_Integer lo, lua_Integer hi, const char *what)
{
    lua_Integer v = luaL_checkinteger(L, i);
    if (v < lo || v > hi) luaL_error(L, "bad argument #%d: %s %I out of range %I..%I", i, what, v, lo, hi);
    return (int)v;
}
static int arg_set(lua_State *L, struct mw_sim *s, int i) { return arg_range(L, i, 0, mw_sim_l1d_sets(s) - 1, "set"); }
static int arg_way(lua_State *L, struct mw_sim *s, int i) /* 1-based, as the replacement hooks number ways */
{
    return arg_range(L, i, 1, mw_sim_l1d_assoc(s), "way") - 1;
}
static int arg_cta(lua_State *L, struct mw_sim *s, int i) { return arg_range(L, i, 0, mw_max_ctas(s) - 1, "CTA slot"); }
static uint8_t arg_sectors(lua_State *L, int i)
{
    return (uint8_t)arg_range(L, i, 0, 0xFF, "sector mask");
}
static int c_l1d_lookup(lua_State *L)
{
    static const char *const names[] = {"miss", "hit", "pending", "partial"};
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int sm = arg_sm(L, b, 1);
    uint64_t line = (uint64_t)luaL_checkinteger(L, 2);
    uint8_t sec = lua_isnoneornil(L, 3) ? 0xF : arg_sectors(L, 3);
    int r = mw_l1d_lookup(s, sm, line, sec);
    lua_pushstring(L, r >= 0 && r < 4 ? names[r] : "miss");
    return 1;
}
static int c_l1d_find(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int sm = arg_sm(L, b, 1);
    int w = mw_l1d_find(s, sm, (uint64_t)luaL_checkinteger(L, 2));
    if (w < 0) lua_pushnil(L);
    else lua_pushinteger(L, w + 1);
    return 1;
}
static int c_l1d_can_allocate(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int sm = arg_sm(L, b, 1);
    lua_pushboolean(L, mw_l1d_can_allocate(s, sm, arg_set(L, s, 2)));
    return 1;
}
static int c_missq_used(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    lua_pushinteger(L, mw_l1d_missq_used(s, arg_sm(L, b, 1)));
    return 1;
}
/* m.l1d_line(sm, set, way) -> a table of the line's state (a new table: for occasional use) */
static int c_l1d_line(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int sm = arg_sm(L, b, 1), set = arg_set(L, s, 2), way = arg_way(L, s, 3);
    struct mw_line_view v;
    mw_l1d_line(s, sm, set, way, &v);
    lua_createtable(L, 0, 11);
    lua_pushinteger(L, (lua_Integer)v.line), lua_setfield(L, -2, "line");
    lua_pushinteger(L, (lua_Integer)v.last_access), lua_setfield(L, -2, "last_access");
    lua_pushinteger(L, (lua_Integer)v.fill_time), lua_setfield(L, -2, "fill_time");
    lua_pushinteger(L, v.hits), lua_setfield(L, -2, "hits");
    lua_pushinteger(L, v.valid), lua_setfield(L, -2, "valid");
    lua_pushboolean(L, v.reserved), lua_setfield(L, -2, "reserved");
    lua_pushinteger(L, v.sectors), lua_setfield(L, -2, "sectors");
    lua_pushinteger(L, (lua_Integer)v.pc), lua_setfield(L, -2, "pc");
    lua_pushinteger(L, v.warp), lua_setfield(L, -2, "warp");
    lua_pushinteger(L, (lua_Integer)v.alloc_pc), lua_setfield(L, -2, "alloc_pc");
    lua_pushinteger(L, v.alloc_warp), lua_setfield(L, -2, "alloc_warp");
    return 1;
}
static int c_l2_queue_len(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    lua_pushinteger(L, mw_l2_queue_len(s, arg_range(L, 1, 0, mw_sim_n_slices(s) - 1, "L2 slice")));
    return 1;
}
static int c_dram_queue_len(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int nch = (int)mw_sim_config(s)->l2.n_partitions;
    lua_pushinteger(L, mw_dram_queue_len_of(s, arg_range(L, 1, 0, nch - 1, "channel")));
    return 1;
}
static int c_free_regs(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    lua_pushinteger(L, (lua_Integer)mw_sm_free_regs(s, arg_sm(L, b, 1)));
    return 1;
}
static int c_cta_resident(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int sm = arg_sm(L, b, 1);
    lua_pushboolean(L, mw_cta_resident(s, sm, arg_cta(L, s, 2)));
    return 1;
}
static int c_cta_regs(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int sm = arg_sm(L, b, 1);
    lua_pushinteger(L, mw_cta_regs_of(s, sm, arg_cta(L, s, 2)));
    return 1;
}
static int c_cta_active(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int sm = arg_sm(L, b, 1);
    lua_pushboolean(L, mw_cta_active(s, sm, arg_cta(L, s, 2)));
    return 1;
}
static void push_warps(lua_State *L, const uint16_t *w, int n)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushinteger(L, w[i]);
        lua_rawseti(L, -2, i + 1);
    }
}
/* m.cta_warps(sm, cta) -> list of the CTA's warp ids (empty when it is not resident) */
static int c_cta_warps(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int sm = arg_sm(L, b, 1), cta = arg_cta(L, s, 2);
    uint16_t w[MAX_WARPS];
    int n = mw_cta_warps(s, sm, cta, w, MAX_WARPS);
    push_warps(L, w, n < MAX_WARPS ? n : MAX_WARPS);
    return 1;
}
static int c_warp_scheduler(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int sm = arg_sm(L, b, 1), w = arg_warp(L, s, 2);
    lua_pushinteger(L, mw_warp_scheduler(s, sm, w));
    return 1;
}
/* m.sched_warps(sm, sched) -> list of the scheduler's live warps */
static int c_sched_warps(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int sm = arg_sm(L, b, 1), k = arg_range(L, 2, 0, mw_n_schedulers(s) - 1, "scheduler");
    uint16_t w[MAX_WARPS];
    int n = mw_sched_warps(s, sm, k, w, MAX_WARPS);
    push_warps(L, w, n < MAX_WARPS ? n : MAX_WARPS);
    return 1;
}
static int c_warp_mask(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int sm = arg_sm(L, b, 1), w = arg_warp(L, s, 2);
    lua_pushinteger(L, mw_warp_mask(s, sm, w));
    return 1;
}
static int c_code_offset(lua_State *L)
{
    lua_Integer pc = luaL_checkinteger(L, 1);
    lua_pushinteger(L, (lua_Integer)mw_code_offset(ctx_sim(L), (uint64_t)pc));
    return 1;
}
static int c_popcount(lua_State *L)
{
    uint64_t x = (uint64_t)luaL_checkinteger(L, 1); /* SWAR: no popcnt instruction is assumed */
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    lua_pushinteger(L, (lua_Integer)((x * 0x0101010101010101ull) >> 56));
    return 1;
}
static int c_cta_deactivate(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int sm = arg_sm(L, b, 1);
    lua_pushboolean(L, mw_cta_deactivate(s, sm, arg_cta(L, s, 2)) == 0);
    return 1;
}
static int c_cta_reactivate(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int sm = arg_sm(L, b, 1);
    lua_pushboolean(L, mw_cta_reactivate(s, sm, arg_cta(L, s, 2)) == 0);
    return 1;
}
/* m.inject(sm, addr, bytes [, write = false [, tag = 0]]) -> requests made (whole lines) */
static int c_inject(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int sm = arg_sm(L, b, 1);
    uint64_t addr = (uint64_t)luaL_checkinteger(L, 2);
    int bytes = arg_range(L, 3, 1, 1 << 20, "bytes");
    bool write = lua_toboolean(L, 4);
    lua_Integer tag = luaL_optinteger(L, 5, 0);
    luaL_argcheck(L, tag >= 0 && tag <= UINT32_MAX, 5, "tag must be in 0..2^32-1");
    lua_pushinteger(L, mw_inject(s, sm, addr, (uint32_t)bytes, write, (uint32_t)tag));
    return 1;
}
static int c_l1d_invalidate(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int sm = arg_sm(L, b, 1), set = arg_set(L, s, 2), way = arg_way(L, s, 3);
    lua_pushboolean(L, mw_l1d_invalidate(s, sm, set, way));
    return 1;
}
/* m.l1d_granularity(sm) and m.l1d_set_granularity(sm, g): the SM's L1D management granularity (32/64/128 B);
 * a larger one flushes that L1D */
static int c_l1d_granularity(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    lua_pushinteger(L, mw_l1d_granularity(b->sim, arg_sm(L, b, 1)));
    return 1;
}
static int c_l1d_set_granularity(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    int sm = arg_sm(L, b, 1);
    lua_Integer g = luaL_checkinteger(L, 2);
    luaL_argcheck(L, g == 32 || g == 64 || g == 128, 2, "a granularity is 32, 64 or 128");
    luaL_argcheck(L, mw_l1d_set_granularity(b->sim, sm, (int)g) == 0, 2, "larger than the L1D line");
    return 0;
}
/* m.recheck(sm [, at = now]): ask qualify again for the SM's warps at core cycle `at` */
static int c_recheck(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    int sm = arg_sm(L, b, 1);
    lua_Integer at = luaL_optinteger(L, 2, (lua_Integer)mw_now(s));
    luaL_argcheck(L, at >= 0, 2, "cycle must be >= 0");
    mw_sched_recheck(s, sm, (uint64_t)at);
    return 0;
}

/* ---- counters: published as policy.<slot>.<name> in the run's stats ---- */
static struct lpol *ctx_lp(lua_State *L)
{
    struct mbox *b = lua_touserdata(L, lua_upvalueindex(1));
    if (!b->sim || !b->lp) luaL_error(L, "stale policy context: its simulation was reset or closed");
    return b->lp;
}
/* A counter's handle names the slot of the adapter that made it, so that a bundle's members can count on the
 * bundle's counters (and the other way round). */
#define COUNTER_SLOT_SHIFT 16
/* m.counter(name [, desc]) -> a handle for m.count (the same for the same name) */
static int c_counter(lua_State *L)
{
    struct lpol *lp = ctx_lp(L);
    size_t len;
    const char *name = luaL_checklstring(L, 1, &len);
    const char *desc = luaL_optstring(L, 2, "");
    bool ok = len > 0 && len < sizeof(((struct mw_policy_counter_entry *)0)->name);
    for (size_t i = 0; ok && i < len; i++)
        ok = (name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9') || name[i] == '_';
    if (!ok) luaL_error(L, "m.counter: a counter name is 1 to 39 of a-z, 0-9 and _, not \"%s\"", name);
    struct mw_policy_inst *pi = mw_sim_policy(lp->sim, (enum mw_point)lp->slot);
    lua_Integer base = (lua_Integer)lp->slot << COUNTER_SLOT_SHIFT;
    for (int i = 0; i < pi->counters.n; i++)
        if (!strcmp(pi->counters.v[i].name, name)) {
            lua_pushinteger(L, base + i);
            return 1;
        }
    /* the engine keeps the description's pointer for the run: the adapter owns the copy */
    char **d = realloc(lp->descs, (size_t)(lp->ndescs + 1) * sizeof *d);
    if (!d) luaL_error(L, "out of memory");
    lp->descs = d;
    if (!(d[lp->ndescs] = strdup(desc))) luaL_error(L, "out of memory");
    lua_pushinteger(L, base + mw_policy_counter(pi, name, d[lp->ndescs++]));
    return 1;
}
/* m.count(k [, n = 1]) */
static int c_count(lua_State *L)
{
    struct lpol *lp = ctx_lp(L);
    lua_Integer k = luaL_checkinteger(L, 1), n = luaL_optinteger(L, 2, 1);
    lua_Integer slot = k >> COUNTER_SLOT_SHIFT, idx = k & ((1 << COUNTER_SLOT_SHIFT) - 1);
    struct mw_policy_inst *pi = slot >= 0 && slot < MW_SLOT_COUNT && lp->group->members[slot]
                                    ? mw_sim_policy(lp->sim, (enum mw_point)slot)
                                    : NULL;
    if (!pi || idx >= pi->counters.n)
        luaL_error(L, "m.count: %I is not a counter of this policy (m.counter makes one)", k);
    luaL_argcheck(L, n >= 0, 2, "a counter only grows");
    mw_policy_count(pi, (int)idx, (uint64_t)n);
    return 0;
}

/* ---- per-line policy bytes: `line_meta = N` in the table, one unsigned N-byte integer per L1D line ---- */
/* m.l1d_meta(sm, set, way [, value]) -> the line's value (before setting it) */
static int c_l1d_meta(lua_State *L)
{
    struct mbox *b = ctx_box(L);
    struct mw_sim *s = b->sim;
    struct lpol *lp = ctx_lp(L);
    int sm = arg_sm(L, b, 1), set = arg_set(L, s, 2), way = arg_way(L, s, 3);
    if (!lp->meta_n) luaL_error(L, "m.l1d_meta: the policy keeps no per-line bytes (set line_meta = N in its table)");
    uint8_t *p = mw_l1d_meta(s, mw_sim_policy(s, (enum mw_point)lp->slot), sm, set, way);
    if (!p) luaL_error(L, "m.l1d_meta: no per-line bytes here");
    p += lp->meta_c;
    uint64_t v = 0;
    for (size_t i = 0; i < lp->meta_n; i++) v |= (uint64_t)p[i] << (8 * i);
    lua_pushinteger(L, (lua_Integer)v);
    if (!lua_isnoneornil(L, 4)) {
        uint64_t nv = (uint64_t)luaL_checkinteger(L, 4);
        if (lp->meta_n < 8 && nv >> (8 * lp->meta_n))
            luaL_error(L, "m.l1d_meta: %I does not fit in %d bytes", (lua_Integer)nv, (int)lp->meta_n);
        for (size_t i = 0; i < lp->meta_n; i++) p[i] = (uint8_t)(nv >> (8 * i));
    }
    return 1;
}

static const luaL_Reg ctx_funcs[] = {
    {"now", c_now},           {"warp_age", c_warp_age},     {"warp_active", c_warp_active},
    {"warp_cta", c_warp_cta}, {"warp_insts", c_warp_insts}, {"warp_pc", c_warp_pc},
    {"warp_at_barrier", c_warp_at_barrier},
    {"resident_ctas", c_resident_ctas}, {"sm_warp_insts", c_sm_warp_insts}, {"mshr_free", c_mshr_free},
    {"l1d_set_of", c_set_of}, {"l1d_probe", c_probe},       {"l1d_flush", c_flush},
    {"set_window", c_set_window}, {"random", c_random},
    {"l1d_lookup", c_l1d_lookup}, {"l1d_find", c_l1d_find}, {"l1d_can_allocate", c_l1d_can_allocate},
    {"missq_used", c_missq_used}, {"l1d_line", c_l1d_line}, {"l2_queue_len", c_l2_queue_len},
    {"dram_queue_len", c_dram_queue_len}, {"free_regs", c_free_regs}, {"cta_resident", c_cta_resident},
    {"cta_regs", c_cta_regs}, {"cta_active", c_cta_active}, {"cta_warps", c_cta_warps},
    {"warp_scheduler", c_warp_scheduler}, {"sched_warps", c_sched_warps}, {"warp_mask", c_warp_mask},
    {"popcount", c_popcount}, {"code_offset", c_code_offset}, {"cta_deactivate", c_cta_deactivate}, {"cta_reactivate", c_cta_reactivate},
    {"inject", c_inject}, {"l1d_invalidate", c_l1d_invalidate}, {"recheck", c_recheck},
    {"counter", c_counter}, {"count", c_count}, {"l1d_meta", c_l1d_meta},
    {"l1d_granularity", c_l1d_granularity}, {"l1d_set_granularity", c_l1d_set_granularity},
    {NULL, NULL}};

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
                                mw_point_name(pt), luaL_typename(L, -2));
            else if (vt != LUA_TNUMBER && vt != LUA_TBOOLEAN && vt != LUA_TSTRING)
                rc = mw_err_set(e, MW_EINVAL, NULL, 0, 0,
                                "%s policy: params.%s: expected a number, boolean or string, got %s",
                                mw_point_name(pt), lua_tostring(L, -2), luaL_typename(L, -1));
            lua_pop(L, rc ? 2 : 1);
        }
    } else if (t != LUA_TNIL) {
        rc = mw_err_set(e, MW_EINVAL, NULL, 0, 0, "%s policy: params must be a table {name = value}, not %s",
                        mw_point_name(pt), luaL_typename(L, -1));
    }
    lua_pop(L, 1);
    return rc;
}

/* Push the context table m for policy lp onto L; a bundle member shares its bundle's m.params and m.state. */
void mw_lpush_ctx(lua_State *L, struct lpol *lp, struct lpol *bundle, const char *const *keys,
                  const char *const *values, int n)
{
    const struct mw_config *c = mw_sim_config(lp->sim);
    lua_createtable(L, 0, 64);
    lp->box = lua_newuserdatauv(L, sizeof *lp->box, 0);
    lp->box->sim = lp->sim;
    lp->box->lp = lp;
    lp->box->started = false;
    lp->box->n_sms = (int)c->gpu.n_sms;
    lp->box->slot = lp->slot;
    lp->box->rng = ((uint64_t)c->sim.seed + 1) * 0x9E3779B97F4A7C15ull + (uint64_t)lp->pt;
    if (!lp->box->rng) lp->box->rng = 1;
    luaL_setfuncs(L, ctx_funcs, 1);
    lua_pushstring(L, mw_point_name(lp->pt)), lua_setfield(L, -2, "point");
    lua_pushinteger(L, c->sim.seed), lua_setfield(L, -2, "seed");
    lua_pushinteger(L, c->gpu.n_sms), lua_setfield(L, -2, "n_sms");
    lua_pushinteger(L, c->sm.n_schedulers), lua_setfield(L, -2, "n_schedulers");
    lua_pushinteger(L, c->sm.max_warps), lua_setfield(L, -2, "max_warps");
    lua_pushinteger(L, c->sm.max_ctas), lua_setfield(L, -2, "max_ctas");
    lua_pushinteger(L, c->sm.registers), lua_setfield(L, -2, "registers");
    lua_pushinteger(L, mw_l1d_sets(c)), lua_setfield(L, -2, "l1d_sets");
    lua_pushinteger(L, c->l1d.assoc), lua_setfield(L, -2, "l1d_assoc");
    lua_pushinteger(L, c->l1d.mshr_entries), lua_setfield(L, -2, "l1d_mshrs");
    lua_pushinteger(L, c->l1d.miss_queue), lua_setfield(L, -2, "missq_size");
    lua_pushinteger(L, mw_n_slices(c)), lua_setfield(L, -2, "l2_slices");
    lua_pushinteger(L, c->l2.n_partitions), lua_setfield(L, -2, "dram_channels");
    lua_pushinteger(L, c->dram.banks), lua_setfield(L, -2, "dram_banks");
    if (bundle) { /* the bundle's own parameters and state */
        lua_rawgeti(L, LUA_REGISTRYINDEX, bundle->ctx_ref);
        lua_getfield(L, -1, "params");
        lua_setfield(L, -3, "params");
        lua_getfield(L, -1, "state");
        lua_setfield(L, -3, "state");
        lua_pop(L, 1);
        return;
    }
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
