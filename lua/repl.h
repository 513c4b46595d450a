/* Entry points of the moonwarp binary's Lua side: the interactive REPL (no arguments) and `moonwarp
 * script.lua [args]`, which runs a script with the full standard library and `arg` set. */
#ifndef MW_REPL_H
#define MW_REPL_H

int mw_repl_main(void);
/* argv[0] is the script; argv[1..argc-1] its arguments. Returns the process exit status. */
int mw_script_main(int argc, char **argv);

#endif
