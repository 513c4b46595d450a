-- Greedy-then-oldest split into modules of this folder: the greedy pointer in lib/greedy.lua, the oldest ready
-- warp in oldest.lua (tests/lua/require.lua runs it against the C GTO).
local greedy = require "lib.greedy"
local oldest = require "oldest"
assert(require "lib.greedy" == greedy, "a second require returns the cached module")
assert(require "moonwarp" == mw and mw.ops.ld_global == 9, "require \"moonwarp\" is the name tables")

return {
  name = "gto_mod",
  pick = function(m, sm, sched, ready, n)
    local g = greedy.get(sm, sched)
    for i = 1, n do
      if ready[i] == g then return i end
    end
    return oldest(m, sm, ready, n)
  end,
  issued = function(m, sm, sched, w) greedy.set(sm, sched, w) end,
}
