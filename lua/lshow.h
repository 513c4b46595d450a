/* The REPL's display of values: show(v [, depth]) -> readable text (lua/lshow.c). */
#ifndef MW_LSHOW_H
#define MW_LSHOW_H

#include <lua.h>

/* A lua_CFunction: show(v [, depth = 4 [, items = 20]]) returns the text of v (a string at the top level is
 * itself): lists cut after `items` entries, other keys and record rows after max(items, 50). */
int mw_lua_show(lua_State *L);

#endif
