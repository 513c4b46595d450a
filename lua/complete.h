/* TAB completion for the REPL (lua/complete.c): globals, fields, methods, stat, workload, preset, decision-point
 * and policy names, over the REPL's Lua state. */
#ifndef MW_COMPLETE_H
#define MW_COMPLETE_H

#include <lua.h>

/* Install the completion for readline over state L (which must outlive the REPL). */
void mw_complete_init(lua_State *L);

#endif
