-- LASC's final 1-bit design (Choo 2016, §5.3.2) in Lua: the twin of policies/lasc.c with its defaults (bits = 1,
-- serve_hit_on_bypass = true, no reset). One 64-entry Reuse Frequency Table for every SM, indexed by the load PC
-- folded to 6 bits; an L1D line that leaves ORs "had a hit" into its allocating PC's entry (sticky); a PC whose
-- entry is valid with no reuse bypasses L1D on a miss and is served from L1D on a hit (verdict 2).
local valid, reuse = {}, {}

local function h6(pc) -- choo_hash_pc(pc, 6): pc >> 3 folded 6 bits at a time with XOR
  local x, h = pc >> 3, 0
  while x ~= 0 do
    h = h ~ (x & 63)
    x = x >> 6
  end
  return h
end

return {
  name = "lasc1",
  events = { "l1d_evict" },
  decide = function(m, sm, warp, pc, line, set, size, index, n)
    local e = h6(pc)
    if valid[e] and not reuse[e] then return 2 end
    return 0
  end,
  on_event = function(m, kind, sm, warp, cta, pc, addr, set, way, value, aux, cycle, inst, size, sectors, alloc_pc)
    local e = h6(alloc_pc)
    valid[e] = true
    reuse[e] = reuse[e] or value > 0
  end,
}
