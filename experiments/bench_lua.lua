-- Cost of Lua policies: each decision point's C built-in and its Lua twin (tests/lua/pol_*.lua) run the same
-- workload in one process, alternating, and the median time of several runs gives the ratio Lua / C.
-- Usage: moonwarp experiments/bench_lua.lua [workload] [size] [runs] [points]
--   (default micro.colstride small 5, every point; points: a comma-separated list such as l1d_bypass,granularity)
-- Ratios are of CPU time (os.clock) and of wall time (mw.clock); wall/CPU near 1.00 means the process had a core
-- to itself, well above it that the machine was busy and the wall ratios are noisy.
local mw = require "moonwarp"

local workload, size, runs = arg[1] or "micro.colstride", arg[2] or "small", tonumber(arg[3] or "5")
local only = arg[4] and ("," .. arg[4] .. ",")
local here = arg[0]:match("^(.*)/[^/]*$") or "."
local twins = here .. "/../tests/lua/"

local points = {
  { "warp_scheduler", "gto", "pol_gto.lua" },
  { "l1d_bypass", "all", "pol_bypass_all.lua" },
  { "granularity", "line", "pol_line.lua" },
  { "dram_scheduler", "frfcfs", "pol_frfcfs.lua" },
  { "replacement", "lru", "pol_lru.lua" },
}

local function one(point, policy)
  local sim = mw.sim { workload = workload, size = size, seed = 1 }
  sim:policy(point, policy)
  local c0, w0 = os.clock(), mw.clock()
  assert(sim:run())
  local cpu, wall = os.clock() - c0, mw.clock() - w0
  local cycles = sim:cycle()
  sim:close()
  return cpu, wall, cycles
end

local median = require("moonwarp.experiment").median

print(string.format("workload %s (%s), median of %d runs each", workload, size, runs))
print(string.format("%-16s %-8s %9s %9s %9s %9s %10s %9s %10s", "decision point", "policy", "C cpu(s)",
  "Lua cpu", "Lua/C", "C wall", "Lua wall", "Lua/C", "wall/cpu"))
for _, p in ipairs(points) do
  if not only or only:find("," .. p[1] .. ",", 1, true) then
    local cc, lc, cw, lw, cycles = {}, {}, {}, {}, 0
    local wsum, csum = 0, 0
    for _ = 1, runs do
      local a, aw, c1 = one(p[1], p[2])
      local b, bw, c2 = one(p[1], twins .. p[3])
      assert(c1 == c2, "the Lua twin simulated a different number of cycles")
      cc[#cc + 1], lc[#lc + 1], cw[#cw + 1], lw[#lw + 1], cycles = a, b, aw, bw, c1
      wsum, csum = wsum + aw + bw, csum + a + b
    end
    local mc, ml, mcw, mlw = median(cc), median(lc), median(cw), median(lw)
    print(string.format("%-16s %-8s %9.3f %9.3f %8.2fx %9.3f %10.3f %8.2fx %10.2f", p[1], p[2], mc, ml, ml / mc,
      mcw, mlw, mlw / mcw, wsum / csum))
  end
end
