-- L1D load requests, misses (merged ones included, as DyCache's monitor counts them) and merges per kernel and
-- PC of one run, with the requests by size: where a model's miss rate comes from.
--
--   build/moonwarp experiments/l1d_by_pc.lua WORKLOAD [SIZE] [PERIOD] [CONFIG]
--
-- SIZE defaults to small, CONFIG to experiments/configs/gtx480.yaml (16 KB line-mode L1D, no granularity
-- policy: the 128 B baseline). The sampling sits at the granularity point and changes nothing. Event PCs are
-- kernel-relative, so different kernels share them: with PERIOD > 0 (a workload that launches a cycle of PERIOD
-- kernels, e.g. 4 for rodinia.particlefilter) a row is (launch id - 1) mod PERIOD and PC, else the PC alone.
local mw = require "moonwarp"
local wl, size, config = arg[1], arg[2] or "small", arg[4] or "experiments/configs/gtx480.yaml"
local period = tonumber(arg[3]) or 0
assert(wl, "usage: l1d_by_pc.lua WORKLOAD [SIZE] [PERIOD] [CONFIG]")
local cur = 1

local rows, order = {}, {}
local sim = mw.sim { config = config, workload = wl, size = size, seed = 1 }
sim:policy("granularity", {
  events = { "kernel_start", "l1d_hit", "l1d_miss" },
  on_event = function(m, kind, sm, warp, cta, pc, addr, set, way, value, aux, cycle, inst, size_)
    if kind == "kernel_start" then
      cur = value
      return
    end
    local k = period > 0 and (cur - 1) % period or 0
    local key = k * 2 ^ 32 + pc
    local r = rows[key]
    if not r then
      r = { n = 0, miss = 0, merged = 0, [32] = 0, [64] = 0, [128] = 0, label = string.format("%d %04x", k, pc) }
      rows[key] = r
      order[#order + 1] = key
    end
    r.n = r.n + 1
    local z = size_ <= 32 and 32 or size_ <= 64 and 64 or 128
    r[z] = r[z] + 1
    if kind == "l1d_miss" then
      r.miss = r.miss + 1
      if value == 1 then r.merged = r.merged + 1 end
    end
  end,
})
local ok = sim:run()
assert(ok, "the run did not complete")
local tot = { n = 0, miss = 0, merged = 0 }
print(string.format("%-14s %9s %7s %7s %7s  %s", "kernel pc", "requests", "share", "miss", "merged", "32/64/128 B"))
local all = 0
for _, k in ipairs(order) do all = all + rows[k].n end
table.sort(order)
for _, k in ipairs(order) do
  local r = rows[k]
  print(string.format("%-14s %9d %7.3f %7.3f %7.3f  %d/%d/%d", r.label, r.n, r.n / all, r.miss / r.n, r.merged / r.n,
    r[32], r[64], r[128]))
  tot.n, tot.miss, tot.merged = tot.n + r.n, tot.miss + r.miss, tot.merged + r.merged
end
local st = sim:stats { per_instance = false }
print(string.format("all: %d requests, miss rate %.3f (merged %.3f); l1d.accesses %d, l1d.misses %d", tot.n,
  tot.miss / tot.n, tot.merged / tot.n, st["l1d.accesses"], st["l1d.misses"]))
