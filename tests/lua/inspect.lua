-- Inspection of L1D lines, checked against accesses worked out by hand on the micro-kernels at tiny size (one
-- CTA of one warp on SM 0; 128 B lines, 32 sets, so a line's set is (addr >> 7) % 32).
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"
local mw = require "moonwarp"

local function check(t, want, label)
  for k, v in pairs(want) do
    if t[k] ~= v then error(string.format("%s: %s = %s, expected %s", label, k, tostring(t[k]), tostring(v)), 2) end
  end
end

-- micro.stream tiny: the warp's one load (model pc 0x20, code address 0xF0000010 with 8 B instructions, after
-- two prologue ALU instructions) reads the 32 words at
-- 0x10000000: one 128 B line, set 0, all four sectors. It misses, reserves way 1 of set 0 and an MSHR entry,
-- and becomes valid when the fill returns; the store to 0x40000000 (also set 0) does not allocate.
local sim = mw.sim { workload = "micro.stream", size = "tiny", seed = 1 }
T.expect_error(function() sim:l1d(0, 0) end, { "has not started yet" }, "before the run")
local reserved_at
repeat
  local cycle = sim:step()
  local w = sim:l1d(0, 0)[1]
  if w.used then reserved_at = cycle - 1 end -- the access happened in the cycle just simulated
  assert(cycle < 1000, "the load never reached L1D")
until reserved_at
local set0 = sim:l1d(0, 0)
check(set0, { set = 0, sm = 0, policy = "lru" }, "set 0")
check(set0[1], { way = 1, set = 0, used = true, state = "reserved", line = 0x10000000, valid = 0, pending = 0xF,
  dirty = 0, evictable = false, last_access = reserved_at, fill_time = reserved_at, lru = 1, hits = 0, pc = 0xF0000010,
  warp = 0 }, "reserved line")
for w = 2, #set0 do check(set0[w], { used = false, state = "invalid" }, "way " .. w) end
local m = sim:mshrs(0)
check(m[1], { entry = set0[1].mshr, line = 0x10000000, sectors = 0xF, way = 1, pc = 0xF0000010, warp = 0 }, "MSHR")
assert(sim:l1d_line(0, 0x1000007c).way == 1 and sim:l1d_line(0, 0x10000080) == nil, "l1d_line")
repeat assert(not select(2, sim:step())) until sim:l1d(0, 0)[1].state == "valid"
check(sim:l1d(0, 0)[1], { state = "valid", line = 0x10000000, valid = 0xF, pending = 0, evictable = true,
  last_access = reserved_at, fill_time = reserved_at, hits = 0, mshr = nil }, "filled line")
assert(#sim:mshrs(0) == 0, "the MSHR entry is released by the fill")
assert(sim:run() == true)
check(sim:l1d(0, 0)[1], { state = "valid", line = 0x10000000 }, "after the store")
assert(#sim:l1d(0) == 32 and sim:l1d(0)[1][1].line == 0x10000000, "every set")
print("ok  a load's line: reserved at cycle " .. reserved_at .. ", then valid")

-- micro.reuse tiny in a one-set, four-way L1D: four loads one after the other (each waits for the previous
-- value) of lines 0x10000000, +0x80, +0x100, +0x180 fill ways 1..4 in order, so the LRU ranks are 4, 3, 2, 1;
-- with two ways the last two lines evict the first two, least recently used first.
for _, c in ipairs { { assoc = 4, ways = { 0x10000000, 0x10000080, 0x10000100, 0x10000180 }, evictions = 0 },
                     { assoc = 2, ways = { 0x10000100, 0x10000180 }, evictions = 2 } } do
  sim = mw.sim { workload = "micro.reuse", size = "tiny", seed = 1,
    set = { "l1d.size_bytes=" .. 128 * c.assoc, "l1d.assoc=" .. c.assoc } }
  assert(sim:run() == true)
  assert(sim:stats()["l1d.evictions"] == c.evictions)
  local ways, last = sim:l1d(0, 0), -1
  assert(#ways == c.assoc)
  for w, line in ipairs(c.ways) do
    check(ways[w], { state = "valid", line = line, lru = #c.ways - w + 1, hits = 0, pc = 0xF0000010 }, "way " .. w)
    assert(ways[w].last_access > last, "accessed in order")
    last = ways[w].last_access
  end
  sim:close()
end
print("ok  LRU ranks and evictions in a one-set L1D")
