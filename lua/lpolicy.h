/* The Lua policy adapter: a Lua table of hook functions behind one decision point's C ops table (hooks the
 * table does not define fall back to that point's C default), and the installer for `impl: lua` policies
 * chosen in a YAML config. */
#ifndef MW_LPOLICY_H
#define MW_LPOLICY_H

#include "config.h"
#include "policy.h"
#include "sim.h"

#include <lua.h>

/* A hook call's protection by default: the CPU-time watchdog (no Lua hook installed while calls run normally; a
 * call still running after MW_LUA_WATCH_MS to 2 x MW_LUA_WATCH_MS of CPU time fails). A table may set `budget = N`
 * for an exact instruction budget (a count hook, paid on every instruction) or `budget = false` for none. */
#define MW_LUA_WATCHDOG (-1)
#define MW_LUA_WATCH_MS 50
/* Default memory limit of a script's hook state, in MiB; the table may set `memory = N` (MiB). */
#define MW_LUA_MEMORY_MIB 64

/* Build a policy for point pt from the hook table at index idx of L and install it in s. The hooks run on a
 * thread of L (the caller's own state and libraries). m.params is the table's `params` field with keys/values
 * (may be NULL) over it, every value converted as YAML text is (true/false, numerals, else strings).
 * pt may be MW_PT_BUNDLE: the table is then a bundle ({point = {hooks}, ...}), installed in the bundle slot with a
 * member at each point it names; configured[slot] (may be NULL) marks the slots chosen explicitly, where a member
 * is an error. */
int mw_lua_policy_table(lua_State *L, int idx, struct mw_sim *s, enum mw_point pt, const char *const *keys,
                        const char *const *values, int n, const bool *configured, struct mw_err *e);
/* Load `script` (it returns the hook table) into a fresh hook state with base/table/string/math only (no dofile,
 * no loadfile, load of text only), the name tables as a read-only global `mw`, a `require` of Lua text modules
 * from the script's folder, math.random seeded from the run's seed and a capped allocator (MW_LUA_MEMORY_MIB or
 * the table's `memory`), and install it in s (pt and configured as for mw_lua_policy_table). */
int mw_lua_policy_script(struct mw_sim *s, enum mw_point pt, const char *script, const char *const *keys,
                         const char *const *values, int n, const bool *configured, struct mw_err *e);
/* Push onto L what a Lua policy installed in `slot` of s exports: its table's export(m) result, else its m.state;
 * copied into L when the policy runs in a hook state of its own (nil, booleans, numbers, strings and tables of
 * them). nil for a C policy. Raises a Lua error in L when export fails or returns something that cannot be
 * copied. */
void mw_lua_policy_value(lua_State *L, struct mw_sim *s, int slot);
/* Install the built-in bundle p (keys/values: its parameters), configured as for mw_lua_policy_table. */
int mw_lua_builtin_bundle(struct mw_sim *s, const struct mw_policy *p, const char *const *keys,
                          const char *const *values, int n, const bool *configured, struct mw_err *e);
/* Install every `impl: lua` policy of config c in s (mw_sim_create installed the C default there). */
int mw_lua_install_config_policies(struct mw_sim *s, const struct mw_config *c, struct mw_err *e);
/* Set the name tables ops, events, points, stalls and evict_causes as fields of the table at idx: each read-only,
 * mapping name -> number and number -> name with the engine's enum numbers (from 0); prefix names them in errors
 * ("mw" -> "mw.ops is read-only"). */
void mw_lua_set_names(lua_State *L, int idx, const char *prefix);

#endif
