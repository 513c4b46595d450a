-- Victim storage in Lua: tests/lua/pol_victim.lua keeps evicted lines (evicted) and serves later misses from them
-- in 3 cycles (victim_probe). On polybench.atax (column-strided reads of a matrix) it turns L2 accesses into
-- l1d.victim_hits, each one counted by the policy's own counter.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"
local opts = { workload = "polybench.atax", size = "small", seed = 1 }
local lru = T.run(opts, "replacement", "lru")
local vc = T.run(opts, "replacement", { impl = "lua", script = T.dir .. "/pol_victim.lua", entries = 4 })
assert(lru["l1d.victim_hits"] == 0 and vc["l1d.victim_hits"] > 0, "victim hits: " .. vc["l1d.victim_hits"])
assert(vc["policy.replacement.served"] == vc["l1d.victim_hits"], "every victim hit served by victim_probe")
assert(vc["policy.replacement.kept"] > 0 and vc["policy.replacement.kept"] <= vc["l1d.evictions"], "kept")
assert(vc["l2.accesses"] < lru["l2.accesses"], string.format("L2 accesses %d vs %d", vc["l2.accesses"],
  lru["l2.accesses"]))
print(string.format("ok  victim cache: %d victim hits, L2 accesses %d -> %d, cycles %d -> %d", vc["l1d.victim_hits"],
  lru["l2.accesses"], vc["l2.accesses"], lru["gpu.cycles"], vc["gpu.cycles"]))
