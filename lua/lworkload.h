/* Workloads written in Lua: a description table whose kernels produce warp instructions from Lua functions
 * (see lworkload.c and docs/lua.md). */
#ifndef MW_LWORKLOAD_H
#define MW_LWORKLOAD_H

#include "workload.h"

#include <lua.h>

/* Open the description table at idx of L as a workload; L must outlive the workload. */
int mw_lua_workload_open(struct mw_workload *w, lua_State *L, int idx, uint64_t seed, struct mw_err *e);
/* Run a Lua workload file (called with the seed as its argument) and push the table it returns. */
int mw_lua_workload_load(lua_State *L, const char *path, uint64_t seed, struct mw_err *e);
/* Load a Lua workload file into a state of its own (closed with the workload). */
int mw_lua_workload_open_file(struct mw_workload *w, const char *path, uint64_t seed, struct mw_err *e);
/* Does a workload name name a Lua file (ends in .lua)? */
bool mw_lua_workload_path(const char *name);

#endif
