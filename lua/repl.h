/* Entry points of the moonwarp binary's Lua side: the interactive REPL (no arguments) and `moonwarp
 * script.lua [args]`, which runs a script with the full standard library and `arg` set. */
#ifndef MW_REPL_H
#define MW_REPL_H

int mw_repl_main(void);
/* argv[0] is the script; argv[1..argc-1] its arguments. Returns the process exit status. */
int mw_script_main(int argc, char **argv);

/* For commands that call into the shipped Lua library (lua/cmd_sweep.c): a state as scripts get it, and a
 * protected call with a traceback that prints the error on stderr; returns the lua_pcall status. */
typedef struct lua_State lua_State;
lua_State *mw_lua_new_state(void);
int mw_lua_docall(lua_State *L, int narg, int nres);

#endif
