-- Cost of Lua policies. Each case runs a C policy and a Lua policy that makes the same decisions (or, for the two
-- targets, the C baseline and the Lua policy to judge) on the same workload in one process, alternating, and
-- reports the median CPU and wall time of `runs` runs each, the ratio Lua / C, how many times the Lua hooks were
-- called (counted in one more, untimed run) and what a call costs: (Lua CPU - C CPU) / calls.
-- Usage: moonwarp experiments/bench_lua.lua [runs] [cases]
--   runs: default 3; cases: "points", "targets", "all" (default) or a comma-separated list of case names
--   (warp_scheduler, l1d_bypass, granularity, dram_scheduler, cta_throttle, ldst_scheduler, replacement,
--   on_event, target_a, target_b, target_b_free)
-- wall/CPU near 1.00 means the process had a core to itself; well above it the machine was busy and the wall
-- ratios are noisy (the CPU ratios much less so).
local mw = require "moonwarp"

local runs = tonumber(arg[1] or "3")
local want = arg[2] or "all"
local here = arg[0]:match("^(.*)/[^/]*$") or "."
local twins = here .. "/../tests/lua/"
local median = require("moonwarp.experiment").median

-- A policy spec: a script path (a twin, in its own hook state, as YAML would load it) or a function making a fresh
-- table of hooks (in this state). count(spec) gives a table form whose hooks count their calls.
local function load_twin(name) return assert(loadfile(twins .. name))() end
local function counted(make, calls)
  local t = make()
  for k, f in pairs(t) do
    if type(f) == "function" then
      t[k] = function(...)
        calls.n = calls.n + 1
        return f(...)
      end
    end
  end
  return t
end

-- The do-nothing decide of target (a), and target (b)'s scheduler: a warp whose head is a divergent global load
-- (more than 8 active lanes) waits while fewer than 8 MSHRs are free. Its verdict depends on the head instruction,
-- the free MSHRs and nothing else, so it declares qualify_deps and is asked again only when one of them changes
-- (the free MSHRs: "mshr"; an issue elsewhere changes neither).
local function nothing() return { name = "nothing", decide = function() return false end } end
local LD <const> = 9 -- mw.ops.ld_global, as a constant the compiler folds into the comparison
assert(mw.ops.ld_global == LD)
local function hold_divergent(budget)
  local mshr_free, popcount -- m's functions, looked up once
  return {
    name = "hold_divergent",
    budget = budget,
    qualify_deps = { "mshr" }, -- its verdict reads the head instruction and the free MSHRs, nothing else
    start = function(m) mshr_free, popcount = m.mshr_free, m.popcount end,
    qualify = function(m, sm, sched, w, pc, op, mask)
      return op ~= LD or mshr_free(sm) >= 8 or popcount(mask) <= 8
    end,
  }
end
-- twins without a file: CTA limit as cta_static's, LDST picks as the engine's default (the first waiting one)
local function cta_limit()
  return { name = "static", limit = function(m, sm, resident) return 2 end }
end
local function ldst_four(with_pick)
  return function()
    local t = { name = "four", slots = function() return 4 end }
    if with_pick then t.pick = function(m, sm, warps, n) return 1 end end
    return t
  end
end
-- on_event: an observer of every L1D event next to the C default scheduler (its decisions unchanged)
local function observer()
  local n = 0
  return { name = "observer", events = { "l1d_hit", "l1d_miss", "l1d_fill", "l1d_evict", "load_done" },
           on_event = function(m, kind) n = n + 1 end }
end

local cases = {
  -- decision points: each twin on a workload where its hook is called often
  { "warp_scheduler", "warp_scheduler", "gto", "pol_gto.lua", "rodinia.bfs", "small", twin = true },
  { "l1d_bypass", "l1d_bypass", "all", "pol_bypass_all.lua", "micro.colstride", "small", twin = true },
  { "granularity", "granularity", "line", "pol_line.lua", "micro.colstride", "small", twin = true },
  { "dram_scheduler", "dram_scheduler", "frfcfs", "pol_frfcfs.lua", "micro.stream", "default", twin = true },
  { "cta_throttle", "cta_throttle", { impl = "static", max_ctas = 2 }, cta_limit, "rodinia.bfs", "small", twin = true },
  { "ldst_scheduler", "ldst_scheduler", ldst_four(false), ldst_four(true), "micro.colstride", "small", twin = true },
  { "replacement", "replacement", "lru", "pol_lru.lua", "micro.colstride", "small", twin = true },
  { "on_event", "granularity", "line", observer, "micro.colstride", "small", twin = true },
  -- the targets: (a) at most 1.3x the C run, (b) at most 1.5x GTO
  { "target_a", "l1d_bypass", "none", nothing, "polybench.syrk", "default", twin = true, target = 1.3 },
  { "target_b", "warp_scheduler", "gto", hold_divergent, "rodinia.bfs", "default", target = 1.5 },
  -- (b) with no protection at all (budget = false): against the default watchdog, what protection costs
  { "target_b_free", "warp_scheduler", "gto", function() return hold_divergent(false) end, "rodinia.bfs", "default",
    target = 1.5 },
}

local function spec_of(s)
  if type(s) == "function" then return s() end
  if type(s) == "string" and s:match("%.lua$") then return twins .. s end
  return s
end

local function one(c, spec)
  local sim = mw.sim { workload = c[5], size = c[6], seed = 1 }
  if spec ~= nil then sim:policy(c[2], spec) end
  local c0, w0 = os.clock(), mw.clock()
  assert(sim:run())
  local cpu, wall = os.clock() - c0, mw.clock() - w0
  local cycles = sim:cycle()
  sim:close()
  return cpu, wall, cycles
end

local function selected(c)
  if want == "all" then return true end
  if want == "points" then return not c.target end
  if want == "targets" then return c.target ~= nil end
  return ("," .. want .. ","):find("," .. c[1] .. ",", 1, true) ~= nil
end

print(string.format("median of %d runs each, C and Lua alternating", runs))
print(string.format("%-15s %-22s %9s %9s %9s %7s %7s %11s %8s %s", "case", "workload", "calls", "C cpu(s)",
  "Lua cpu", "Lua/C", "wall", "ns/call", "wall/cpu", "target"))
for _, c in ipairs(cases) do
  if selected(c) then
    local cc, lc, cw, lw = {}, {}, {}, {}
    local wsum, csum = 0, 0
    for _ = 1, runs do
      local a, aw, c1 = one(c, spec_of(c[3]))
      local b, bw, c2 = one(c, spec_of(c[4]))
      if c.twin then assert(c1 == c2, c[1] .. ": the Lua policy simulated a different number of cycles") end
      cc[#cc + 1], lc[#lc + 1], cw[#cw + 1], lw[#lw + 1] = a, b, aw, bw
      wsum, csum = wsum + aw + bw, csum + a + b
    end
    local calls = { n = 0 }
    one(c, counted(type(c[4]) == "function" and c[4] or function() return load_twin(c[4]) end, calls))
    local mc, ml, mcw, mlw = median(cc), median(lc), median(cw), median(lw)
    local ns = calls.n > 0 and (ml - mc) / calls.n * 1e9 or 0
    local verdict = ""
    if c.target then verdict = string.format("<= %.1fx: %s", c.target, ml / mc <= c.target and "met" or "MISSED") end
    print(string.format("%-15s %-22s %9d %9.3f %9.3f %6.2fx %6.2fx %11.0f %8.2f %s", c[1], c[5] .. " " .. c[6],
      calls.n, mc, ml, ml / mc, mlw / mcw, ns, wsum / csum, verdict))
  end
end
