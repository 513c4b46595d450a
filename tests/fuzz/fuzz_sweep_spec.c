/* The sweep spec of `moonwarp sweep` (YAML: workloads x policies x configs, the store, jobs, the Slurm backend),
 * parsed and checked as the command does before it runs anything. Every input must end in a spec or an error. */
#include "fuzz_common.h"

#include "cmd_sweep.h"

#include <lauxlib.h>
#include <lualib.h>

#include "repl.h"

/* The command's runner half (never reached from the spec check) needs the REPL's state makers; the fuzzer has
 * no REPL (repl.c defines the process's main for the binary). */
lua_State *mw_lua_new_state(void) { abort(); }
int mw_lua_docall(lua_State *L, int narg, int nres) { (void)L, (void)narg, (void)nres; abort(); }

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    const char *path = fz_write(0, "spec.yaml", d, n);
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    mw_sweep_load_spec(L, path);
    lua_close(L);
    return 0;
}
