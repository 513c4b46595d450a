-- The warp each scheduler issued last (a module of pol_gto_mod.lua). Requires a sibling by its name from the
-- script's folder, and counts how often its chunk runs (once: require caches it).
local key = require "lib.key"
loads = (loads or 0) + 1
assert(loads == 1, "lib/greedy.lua ran " .. loads .. " times")
assert(select(1, ...) == "lib.greedy", "the chunk gets its module name")
local last = {}
return {
  get = function(sm, sched) return last[key(sm, sched)] end,
  set = function(sm, sched, w) last[key(sm, sched)] = w end,
}
