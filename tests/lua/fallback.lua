-- Hooks a table leaves out fall back to the point's C default, and the default's state stays current: an observer
-- hook (issued, touch, insert) the table defines while the C default still decides runs after the default's own,
-- so a table that only watches gives exactly the C policy's stats.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"
local opts = { workload = "rodinia.bfs", size = "tiny", seed = 1 }

-- only `issued`: C GTO still picks, and its greedy pointer still follows every issue
local issued = 0
local st = T.run(opts, "warp_scheduler", { issued = function(m, sm, sched, warp, pc, op) issued = issued + 1 end })
T.same_stats(T.run(opts, "warp_scheduler", "gto"), st, "issued-only table vs gto")
assert(issued == st["gpu.warp_insts"],
       string.format("issued %d times, %d warp instructions", issued, st["gpu.warp_insts"]))
print(string.format("ok  issued-only table is gto: %d cycles, %d issues", st["gpu.cycles"], issued))

-- only `qualify` (every warp may issue): GTO's pick and issued both from C
st = T.run(opts, "warp_scheduler", { qualify = function() return true end })
T.same_stats(T.run(opts, "warp_scheduler", "gto"), st, "qualify-only table vs gto")
print("ok  qualify-only table is gto")

-- only `touch` / only `insert` on replacement: C LRU still chooses the victims
local ref = T.run(opts, "replacement", "lru")
local touches, inserts = 0, 0
st = T.run(opts, "replacement", { touch = function() touches = touches + 1 end })
T.same_stats(ref, st, "touch-only table vs lru")
assert(touches == st["l1d.hits"], string.format("touch %d times, %d hits", touches, st["l1d.hits"]))
st = T.run(opts, "replacement", { insert = function() inserts = inserts + 1 end })
T.same_stats(ref, st, "insert-only table vs lru")
assert(inserts > 0, "insert was called")
print(string.format("ok  touch-only and insert-only tables are lru: %d touches, %d inserts", touches, inserts))
