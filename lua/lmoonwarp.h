/* The `moonwarp` Lua module: simulations as userdata (create, choose policies, run, step, reset, stats,
 * inspect). Linked into the moonwarp binary and built as moonwarp.so for a stock lua5.4. */
#ifndef MW_LMOONWARP_H
#define MW_LMOONWARP_H

#include <lua.h>

#define MW_VERSION "0.1" /* part of every run key (lua/lstore.c): a new version never reuses stored results */

int luaopen_moonwarp(lua_State *L);
/* `moonwarp.store` (lua/lstore.c): the SQLite results store, run keys and the process pool of sweeps. */
int luaopen_moonwarp_store(lua_State *L);
struct mw_config;
/* The resolved, validated config of the mw.sim-style options table at index opts; raises "<what>: ..." errors. */
int mw_lua_opts_config(lua_State *L, int opts, struct mw_config *cfg, const char *what);
/* Ask the simulation currently inside sim:run() to pause at the next cycle boundary (signal-safe). Returns 1
 * if a simulation was running, 0 if not. */
int mw_lua_interrupt(void);
/* Did the last sim:run() / sim:step() return because of mw_lua_interrupt()? Clears the flag. */
int mw_lua_take_interrupted(void);

#endif
