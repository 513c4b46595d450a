/* The `moonwarp` Lua module: simulations as userdata (create, choose policies, run, step, reset, stats,
 * inspect). Linked into the moonwarp binary and built as moonwarp.so for a stock lua5.4. */
#ifndef MW_LMOONWARP_H
#define MW_LMOONWARP_H

#include <lua.h>

int luaopen_moonwarp(lua_State *L);
/* Ask the simulation currently inside sim:run() to pause at the next cycle boundary (signal-safe). Returns 1
 * if a simulation was running, 0 if not. */
int mw_lua_interrupt(void);
/* Did the last sim:run() / sim:step() return because of mw_lua_interrupt()? Clears the flag. */
int mw_lua_take_interrupted(void);

#endif
