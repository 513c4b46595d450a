-- Events carry what the engine knows: instruction ids (a load_done matches the issue with the same id on the same
-- warp), the allocating PC of an evicted line, the way a miss reserved, the loading PC of a fill, request size and
-- sectors, eviction causes by mw.evict_causes; l1d_store and barrier events; cta_launch with m.cta_warps.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"
local mw = require "moonwarp"

-- every load_done (and every L1D access) belongs to an instruction issued earlier by the same warp
local issued, done, accesses, bad = {}, 0, 0, nil
local st = T.run({ workload = "rodinia.bfs", size = "small", seed = 1 }, "warp_scheduler", {
  events = { "load_done", "l1d_hit", "l1d_miss" },
  issued = function(m, sm, sched, w, pc, op, mask, id)
    if issued[id] then bad = "id " .. id .. " issued twice" end
    issued[id] = { sm = sm, warp = w, pc = pc }
  end,
  on_event = function(m, kind, sm, warp, cta, pc, addr, set, way, value, aux, cycle, inst)
    local i = issued[inst]
    if not i or i.sm ~= sm or i.warp ~= warp or i.pc ~= pc then
      bad = string.format("%s of inst %d (sm %d warp %d pc 0x%x) matches no issue", kind, inst, sm, warp, pc)
    end
    if kind == "load_done" then done = done + 1 else accesses = accesses + 1 end
  end,
})
assert(not bad, bad)
assert(done > 0 and done == st["sm.global_loads"], string.format("%d load_done, %d global loads", done,
  st["sm.global_loads"]))
print(string.format("ok  %d load_done and %d L1D accesses matched to their issue by id", done, accesses))

-- two warps; each loads 256 lines twice from two PCs (the first load's miss allocates the line, the second, after
-- the data is back, hits it), waits at a barrier, then stores to its last line (write-evict). 512 lines do not fit
-- in the 128 lines of the L1D, so lines leave, allocated by the first PC and last touched by the second.
local wl = { name = "twopc", kernels = { { grid = 1, block = 64, warp = function(w)
  local base = 0x10000000 + w.warp * 0x100000
  for i = 0, 255 do
    w:ld(2, base + i * 128)
    w:alu(3, 2)
    w:ld(4, base + i * 128)
    w:alu(5, 4)
  end
  w:bar()
  w:st(3, base + 255 * 128)
end } } }
local ev = {}
local kinds = { "cta_launch", "l1d_hit", "l1d_miss", "l1d_fill", "l1d_evict", "l1d_store", "barrier" }
for _, k in ipairs(kinds) do ev[k] = {} end
local launch_warps
st = T.run({ workload = wl, seed = 1 }, "replacement", {
  events = kinds,
  on_event = function(m, kind, sm, warp, cta, pc, addr, set, way, value, aux, cycle, inst, size, sectors, alloc_pc,
                      alloc_warp, cause)
    local e = { sm = sm, warp = warp, cta = cta, pc = pc, addr = addr, set = set, way = way, value = value, aux = aux,
                inst = inst, size = size, sectors = sectors, alloc_pc = alloc_pc, alloc_warp = alloc_warp,
                cause = cause }
    table.insert(ev[kind], e)
    if kind == "cta_launch" then launch_warps = m.cta_warps(sm, cta) end
  end,
})
local pc_a, pc_b = ev.l1d_miss[1].pc, ev.l1d_hit[1].pc
assert(pc_a ~= pc_b, "two load PCs")
assert(#ev.cta_launch == 1 and ev.cta_launch[1].aux == 2 and #launch_warps == 2, "cta_launch: 2 warps")
assert(#ev.l1d_miss == 512 and #ev.l1d_hit == 512, #ev.l1d_miss .. " misses, " .. #ev.l1d_hit .. " hits")
local miss_way = {}
for _, e in ipairs(ev.l1d_miss) do
  assert(e.pc == pc_a and e.size == 128 and e.sectors == 0xF and e.way >= 0 and e.inst > 0, "miss fields")
  miss_way[e.addr] = e.way
end
for _, e in ipairs(ev.l1d_hit) do assert(e.pc == pc_b and e.size == 128 and e.sectors == 0xF, "hit fields") end
for _, e in ipairs(ev.l1d_fill) do
  assert(e.pc == pc_a and e.way == miss_way[e.addr] and e.warp == (e.addr >> 20) & 1, "fill: the allocating load")
end
local replaced, stored = 0, 0
for _, e in ipairs(ev.l1d_evict) do
  assert(e.alloc_pc == pc_a and e.pc == pc_b and e.alloc_warp == e.warp, string.format(
    "evict of 0x%x: allocated by 0x%x, last touched by 0x%x", e.addr, e.alloc_pc, e.pc))
  if e.cause == mw.evict_causes.replace then replaced = replaced + 1 end
  if e.cause == mw.evict_causes.store then stored = stored + 1 end
end
-- line i of either warp is in set i mod 32 (0x10000000 / 128 and 0x100000 / 128 are multiples of 32): each of the
-- 32 sets takes 8 lines of each warp, 16 lines in 4 ways, so 12 replacements a set, 384 in all
assert(replaced == 384, replaced .. " replacements, by hand 384")
assert(stored == 2 and replaced + stored == #ev.l1d_evict, replaced .. " replaced, " .. stored .. " stored")
assert(#ev.l1d_store == 2 and ev.l1d_store[1].value == 1 and ev.l1d_store[1].size == 128, "l1d_store")
local arrive, release = 0, 0
for _, e in ipairs(ev.barrier) do
  if e.value == 1 then arrive = arrive + 1 else release = release + 1 end
end
assert(arrive == 2 and release == 2, arrive .. " arrivals, " .. release .. " releases")
print(string.format("ok  %d evictions name allocating PC 0x%x and last PC 0x%x (%d replaced, %d by stores)",
  #ev.l1d_evict, pc_a, pc_b, replaced, stored))
