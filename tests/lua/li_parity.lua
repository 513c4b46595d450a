-- Li 2015: the Lua MSHR-S (pol_mshr_s.lua) gives exactly the C mshr_s's stats on the li.yaml machine with the
-- merge information buffers on, on workloads with DRAM traffic and L2 merges.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"

local total, differs = 0, 0
for _, wl in ipairs { "rodinia.bfs", "rodinia.cfd", "parboil.spmv" } do
  local opts = { workload = wl, size = "small", seed = 7, config = "experiments/configs/li.yaml",
                 set = { "l2.merge_info=mib" } }
  local ref = T.run(opts, "dram_scheduler", "mshr_s")
  assert(ref["dram.reads"] > 0, wl .. ": no DRAM reads")
  total = total + T.same_stats(ref, T.run(opts, "dram_scheduler", T.dir .. "/pol_mshr_s.lua"), "mshr_s on " .. wl)
  local fr = T.run(opts, "dram_scheduler", "frfcfs")
  if fr["dram.read_latency_sum"] ~= ref["dram.read_latency_sum"] then differs = differs + 1 end
  print(string.format("ok  mshr_s  %-16s cycles %d  dummies %d", wl, ref["gpu.cycles"], ref["dram.mib_dummies"]))
end
-- the twin is only tested where mshr_s decides differently from FR-FCFS somewhere
assert(differs > 0, "mshr_s and frfcfs gave the same DRAM latencies everywhere")
print("li parity: " .. total .. " counters compared")
