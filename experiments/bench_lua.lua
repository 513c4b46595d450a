-- Cost of Lua policies: each decision point's C built-in and its Lua twin (tests/lua/pol_*.lua) run the same
-- workload in one process, alternating, and the median wall time of several runs gives the ratio Lua / C.
-- Usage: moonwarp experiments/bench_lua.lua [workload] [size] [runs]    (default micro.colstride small 5)
local mw = require "moonwarp"

local workload, size, runs = arg[1] or "micro.colstride", arg[2] or "small", tonumber(arg[3] or "5")
local here = arg[0]:match("^(.*)/[^/]*$") or "."
local twins = here .. "/../tests/lua/"

local points = {
  { "warp_scheduler", "gto", "pol_gto.lua" },
  { "l1d_bypass", "all", "pol_bypass_all.lua" },
  { "granularity", "line", "pol_line.lua" },
  { "dram_scheduler", "frfcfs", "pol_frfcfs.lua" },
  { "replacement", "lru", "pol_lru.lua" },
}

local function now()
  -- wall time where the platform offers it cheaply; CPU time of this process otherwise
  return os.clock()
end

local function one(point, policy)
  local sim = mw.sim { workload = workload, size = size, seed = 1 }
  sim:policy(point, policy)
  local t0 = now()
  assert(sim:run())
  local t = now() - t0
  local cycles = sim:cycle()
  sim:close()
  return t, cycles
end

local function median(t)
  table.sort(t)
  local n = #t
  return n % 2 == 1 and t[(n + 1) / 2] or (t[n / 2] + t[n / 2 + 1]) / 2
end

print(string.format("workload %s (%s), median of %d runs each", workload, size, runs))
print(string.format("%-16s %-8s %10s %10s %8s %12s", "decision point", "policy", "C (s)", "Lua (s)", "Lua/C", "cycles"))
for _, p in ipairs(points) do
  local tc, tl, cycles = {}, {}, 0
  for _ = 1, runs do
    local a, c1 = one(p[1], p[2])
    local b, c2 = one(p[1], twins .. p[3])
    assert(c1 == c2, "the Lua twin simulated a different number of cycles")
    tc[#tc + 1], tl[#tl + 1], cycles = a, b, c1
  end
  local mc, ml = median(tc), median(tl)
  print(string.format("%-16s %-8s %10.3f %10.3f %7.2fx %12d", p[1], p[2], mc, ml, ml / mc, cycles))
end
