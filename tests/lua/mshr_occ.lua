-- l1d.mshr_occupancy (MSHR entries in use, summed over core cycles) equals what the events say: each miss that
-- allocates an entry holds it from its l1d_miss cycle to its l1d_fill cycle, so the counter is the sum of those
-- intervals, overlapping entries counted once each. Two warps of one CTA each load 16 distinct lines, each load
-- waited for (the ALU reads its register) before the next: 32 misses, 32 entries, no merges, never more than two
-- entries at once.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"

local wl = { name = "occ", kernels = { { grid = 1, block = 64, warp = function(w)
  local base = 0x10000000 + w.warp * 0x100000
  for i = 0, 15 do
    w:ld(2, base + i * 128)
    w:alu(3, 2)
  end
end } } }
local miss_at, held, misses, fills, peak, open = {}, 0, 0, 0, 0, 0
local st = T.run({ workload = wl, seed = 1 }, "replacement", {
  events = { "l1d_miss", "l1d_fill" },
  on_event = function(m, kind, sm, warp, cta, pc, addr, set, way, value, aux, cycle)
    if kind == "l1d_miss" then
      assert(not miss_at[addr], "one miss per line")
      miss_at[addr], misses, open = cycle, misses + 1, open + 1
      peak = math.max(peak, open)
    else
      held, fills, open = held + (cycle - miss_at[addr]), fills + 1, open - 1
    end
  end,
})
assert(misses == 32 and fills == 32, misses .. " misses, " .. fills .. " fills")
assert(st["l1d.mshr_merges"] == 0 and peak == 2, "no merges, at most two entries at once")
assert(held > 32 * 100, "each entry is held for an L2/DRAM round trip")
assert(st["l1d.mshr_occupancy"] == held, string.format("l1d.mshr_occupancy %d, events say %d",
  st["l1d.mshr_occupancy"], held))
local mean = held / (st["gpu.cycles"] * 15 * 32) -- 15 SMs of 32 entries (gtx480 defaults)
assert(math.abs(st["l1d.mshr_mean_occupancy"] - mean) < 1e-12, "mean occupancy")
print(string.format("ok  l1d.mshr_occupancy %d entry-cycles = the 32 misses' miss-to-fill intervals", held))
