-- L1D load requests, misses (merged ones included, as DyCache's monitor counts them) and merges per kernel and
-- PC of one run, with the requests by size: where a model's miss rate comes from.
--
--   build/moonwarp experiments/l1d_by_pc.lua WORKLOAD [SIZE] [CONFIG] [KEY=VALUE ...]
--
-- SIZE defaults to small, CONFIG to experiments/configs/gtx480.yaml (16 KB line-mode L1D, no granularity
-- policy: the 128 B baseline). The sampling sits at the granularity point and changes nothing. Event PCs are
-- code addresses, one 16 MB range per kernel name from 0xF0000000 in order of first launch (docs/fidelity.md):
-- a row is labelled with that kernel number and the model's own PC (m.code_offset), as in a trace. Config
-- assignments after CONFIG apply as --set does (l1d.size_bytes=192K).
local mw = require "moonwarp"
local wl, size, config = arg[1], arg[2] or "small", arg[3] or "experiments/configs/gtx480.yaml"
assert(wl, "usage: l1d_by_pc.lua WORKLOAD [SIZE] [CONFIG]")

local rows, order = {}, {}
local set = { table.unpack(arg, 4) }
local sim = mw.sim { config = config, workload = wl, size = size, seed = 1, set = #set > 0 and set or nil }
sim:policy("granularity", {
  events = { "l1d_hit", "l1d_miss" },
  on_event = function(m, kind, sm, warp, cta, pc, addr, set, way, value, aux, cycle, inst, size_)
    local r = rows[pc]
    if not r then
      r = { n = 0, miss = 0, merged = 0, [32] = 0, [64] = 0, [128] = 0,
            label = string.format("%d %04x", (pc - 0xF0000000) // 0x1000000, m.code_offset(pc)) }
      rows[pc] = r
      order[#order + 1] = pc
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
assert(sim:run(), "the run did not complete")
table.sort(order)
local all, miss, merged = 0, 0, 0
for _, pc in ipairs(order) do all = all + rows[pc].n end
print(string.format("%-10s %9s %7s %7s %7s  %s", "kernel pc", "requests", "share", "miss", "merged", "32/64/128 B"))
for _, pc in ipairs(order) do
  local r = rows[pc]
  print(string.format("%-10s %9d %7.3f %7.3f %7.3f  %d/%d/%d", r.label, r.n, r.n / all, r.miss / r.n,
    r.merged / r.n, r[32], r[64], r[128]))
  miss, merged = miss + r.miss, merged + r.merged
end
local st = sim:stats { per_instance = false }
print(string.format("all: %d requests, miss rate %.3f (merged %.3f); l1d.accesses %d, l1d.misses %d", all,
  miss / all, merged / all, st["l1d.accesses"], st["l1d.misses"]))
