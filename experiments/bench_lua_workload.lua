-- Cost of Lua workload generators per warp instruction: the built-in micro.stream model against its Lua
-- twins, one process, alternating runs, median wall (CPU) time of each.
--   C       engine/workloads/wl_micro.c (kgen templates)
--   warp    warp = function(w) with number addresses (base + lane * stride)
--   lanefn  the same with a per-lane address function (32 Lua calls per memory instruction)
--   thread  thread = function(t) returning each thread's address list
-- Usage: moonwarp experiments/bench_lua_workload.lua [size] [runs]   (default: default 5)
local mw = require "moonwarp"
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../tests/lua/?.lua;" .. package.path
local twin = require "wl_micro_twin"

local size, runs = arg[1] or "default", tonumber(arg[2] or "5")
local A = 0x10000000

local function lanefn_twin()
  local d = twin("stream", size)
  local k = d.kernels[1]
  local threads, total = k.block, k.grid * k.block
  k.warp = function(w)
    local g0 = w.cta * threads + w.warp * 32
    w:alu(1, 0, 0)
    w:alu(4, 0, 0)
    for it = 0, 31 do
      w:ld(2, function(t) return A + (it * total + t.gtid) * 4 end, { src = 1 })
      w:alu(3, 3, 2)
      w:alu(1, 1, 4)
      w:branch()
    end
    w:st(3, 0x40000000 + g0 * 4, { src = 1 })
  end
  return d
end

local function thread_twin()
  local d = twin("stream", size)
  local k = d.kernels[1]
  local total = k.grid * k.block
  k.warp, k.alu = nil, 2
  k.thread = function(t)
    local l = {}
    for it = 0, 31 do l[it + 1] = A + (it * total + t.gtid) * 4 end
    return l
  end
  return d
end

local variants = {
  { "C", "micro.stream" },
  { "warp", twin("stream", size) },
  { "lanefn", lanefn_twin() },
  { "thread", thread_twin() },
}

local function one(wl)
  local sim = mw.sim { workload = wl, size = type(wl) == "string" and size or nil, seed = 1 }
  local t0 = os.clock()
  assert(sim:run())
  local t = os.clock() - t0
  local n = sim:stats()["gpu.warp_insts"]
  sim:close()
  return t, n
end

local median = require("moonwarp.experiment").median

local times, insts = {}, {}
for _, v in ipairs(variants) do times[v[1]] = {} end
for _ = 1, runs do
  for _, v in ipairs(variants) do
    local t, n = one(v[2])
    table.insert(times[v[1]], t)
    insts[v[1]] = n
  end
end
print(string.format("micro.stream (%s) and its Lua twins, median CPU time of %d runs", size, runs))
print(string.format("%-8s %12s %10s %8s %14s", "variant", "warp insts", "time s", "x C", "ns/warp inst +"))
local c = median(times.C)
for _, v in ipairs(variants) do
  local m = median(times[v[1]])
  print(string.format("%-8s %12d %10.3f %8.2f %14.0f", v[1], insts[v[1]], m, m / c, (m - c) / insts[v[1]] * 1e9))
end
