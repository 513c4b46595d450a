-- Lua workload generators: a Lua twin of a built-in model gives every stat identical to the C model; the
-- per-thread pattern form gives the hand-counted instruction and request numbers; a file workload runs.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"
local twin = require "wl_micro_twin"

-- (perfect instruction fetch: the twin's PCs are its script's lines, the model's its own code layout)
local perfect = { "l1i.enabled=false" }
for _, kind in ipairs { "stream", "colstride" } do
  for _, size in ipairs(kind == "stream" and { "tiny", "small" } or { "tiny" }) do
    local ref = T.run { workload = "micro." .. kind, size = size, seed = 3, set = perfect }
    local n = T.same_stats(ref, T.run { workload = twin(kind, size), seed = 3, set = perfect },
      "twin of micro." .. kind)
    print(string.format("ok  twin micro.%-9s %-5s %d counters, cycles %d", kind, size, n, ref["gpu.cycles"]))
  end
end

-- Thread form: 2 CTAs x 64 threads; thread i reads a[i], a[i + 64], ... (k entries, k = i % 4 + 1): per warp
-- 4 loads (lanes with a shorter list drop out), each followed by 2 ALUs, then EXIT.
local function pattern(alu)
  return {
    name = "lua.pattern",
    kernels = { {
      name = "pat", grid = 2, block = 64, alu = alu,
      thread = function(t)
        local list = {}
        for k = 0, t.gtid % 4 do list[#list + 1] = 0x2000000 + (t.gtid + 64 * k) * 4 end
        return list
      end,
    } },
  }
end
local st = T.run { workload = pattern(2), seed = 1 }
-- 4 warps x (4 loads + 8 ALUs + EXIT)
assert(st["gpu.warp_insts"] == 4 * (4 + 8 + 1), "pattern warp insts " .. st["gpu.warp_insts"])
-- thread loads: lanes with k entries: 8 lanes each of k = 1..4 per warp -> 80 per warp
assert(st["gpu.thread_insts"] == 4 * (80 + 2 * 4 * 32 + 32), "pattern thread insts " .. st["gpu.thread_insts"])
print("ok  thread form: warp insts " .. st["gpu.warp_insts"])

-- a workload file, given the seed as its argument, and a kernels function with a data-dependent launch count
local f = T.run { workload = T.dir .. "/../../experiments/lua/colstride_gen.lua", seed = 1 }
assert(f["gpu.warp_insts"] == 30 * 8 * (16 * 2 + 1 + 1), "file workload warp insts " .. f["gpu.warp_insts"])
local launches = 0
local fn = T.run { seed = 5, workload = { name = "lua.fn", kernels = function(i, seed)
  if i > seed then return nil end
  launches = launches + 1
  return { grid = 1, block = 32, warp = function(w) w:ld(1, 0x1000 * w.kernel) end }
end } }
assert(launches == 5 and fn["gpu.kernels"] == 5, "kernels function: " .. launches .. " launches")
print("ok  kernels function: " .. fn["gpu.kernels"] .. " launches")

-- Local memory: the same offset in every lane (as traces record LDL/STL) is spread over the threads' local
-- windows, consecutive lanes adjacent: an 8-byte local access of a full warp is 2 lines, a 4-byte one 1 line,
-- and two warps' windows are disjoint. Per warp: stl.64, ldl.64 (misses: the store does not allocate), ldl.32.
local loc = T.run { seed = 1, workload = { name = "lua.local", kernels = { {
  grid = 1, block = 64,
  warp = function(w)
    w:stl(1, 0xfffbd0, { width = 8, stride = 0 })
    w:ldl(2, 0xfffbd0, { width = 8, stride = 0 })
    w:ldl(3, 0x100, { stride = 0 })
  end,
} } } }
assert(loc["sm.coalesced_reqs"] == 2 * (2 + 2 + 1), "local coalesced requests " .. loc["sm.coalesced_reqs"])
assert(loc["l1d.misses"] == 2 * 3, "local L1D misses " .. loc["l1d.misses"])
print("ok  local memory: " .. loc["sm.coalesced_reqs"] .. " requests, " .. loc["l1d.misses"] .. " misses")

-- A warp whose last instruction is a 32-line store is done only when every write is acknowledged: all 32
-- writes reach L2, and the kernel ends after the last acknowledgement. The LDST sends one request per cycle
-- (32), then the last one crosses the request network (icnt.latency), the L2 pipe (l2.latency) and the reply
-- network (icnt.latency) before the warp is done.
local sim = require("moonwarp").sim { seed = 1, workload = { name = "lua.store_exit", kernels = { {
  grid = 1, block = 32,
  warp = function(w) w:st(1, 0x20000000, { stride = 4096 }) end,
} } } }
local c = sim:config()
assert(sim:run() == true, "store before exit: run did not complete")
local sx = sim:stats()
sim:close()
local floor = 32 + 2 * c.icnt.latency + c.l2.latency
assert(sx["l2.writes"] == 32, "store before exit: writes at L2 " .. sx["l2.writes"])
assert(sx["gpu.cycles"] >= floor, "store before exit: kernel ended at cycle " .. sx["gpu.cycles"] .. " < " .. floor)
print("ok  store before exit: 32 writes at L2, kernel ends at cycle " .. sx["gpu.cycles"] .. " >= " .. floor)
