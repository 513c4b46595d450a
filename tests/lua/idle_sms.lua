-- An SM whose CTAs have all finished sleeps until it gets another: 15 CTAs of one warp on 15 SMs, CTA 0 loading 64
-- lines one after another (each waited for: about 300 cycles of DRAM round trip each), the other 14 one ALU
-- instruction and a store, whose acknowledgement arrives after their warp has exited. After the first few cycles only SM 0 has work, and it waits on memory most of the time, so the
-- engine evaluates fewer SM cycles than the run has cycles; an idle SM visited every cycle would add 14 a cycle.
-- The same machine with fast_forward off (every SM every cycle) gives every other stat identically.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"

local wl = { name = "one_long_cta", kernels = { { grid = 15, block = 32, warp = function(w)
  if w.cta == 0 then
    for i = 0, 63 do
      w:ld(2, 0x10000000 + i * 4096)
      w:alu(3, 2)
    end
  else
    w:alu(3, 1)
    w:st(3, 0x20000000 + w.cta * 128) -- acknowledged after the warp exits, which wakes its scheduler
  end
end } } }
local a = T.run({ workload = wl, seed = 1 })
local b = T.run({ workload = wl, seed = 1, set = { "sim.fast_forward=false" } })
local cycles, visits = a["gpu.cycles"], a["sim.visits_sm"]
assert(cycles > 64 * 200, "64 dependent DRAM round trips: " .. cycles .. " cycles")
assert(visits < cycles, string.format("%d SM visits in %d cycles: idle SMs were visited", visits, cycles))
assert(b["sim.visits_sm"] >= 15 * cycles, "fast_forward off visits every SM every cycle")
T.same_stats(a, b, "fast_forward on vs off")
print(string.format("ok  idle SMs sleep: %d SM visits in %d cycles (fast_forward off: %d)", visits, cycles,
  b["sim.visits_sm"]))
