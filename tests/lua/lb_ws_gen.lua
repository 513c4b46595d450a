-- A workload whose loads' streaming / reuse classification is known (tests/lua/lb_ws.lua): one warp, each load one
-- 128 B line (32 lanes x 4 B), regions 1 MB apart.
--   A: 40 lines once each                          40 accesses, 40 new lines: streaming
--   B: 10 lines, two passes                        20 accesses, 10 misses
--   C: 8 lines, three passes                       24 accesses, 8 misses
--   D: C's 8 lines, then 4 lines of its own        12 accesses: 4 misses (shared cache) or 12 (its own)
--   E: 2 lines, two passes                         4 accesses, 2 misses
--   F: 1 line, twice                               2 accesses, 1 miss
--   G: D's own 4 lines once                        4 accesses: 0 misses (shared) or 4 (its own)
local function line(region, i) return 0x10000000 + region * 0x100000 + i * 128 end
return {
  name = "lb_ws_gen",
  kernels = { {
    name = "ws", grid = 1, block = 32, regs = 16,
    warp = function(w)
      for i = 0, 39 do w:ld(1, line(1, i)) end
      for _ = 1, 2 do for i = 0, 9 do w:ld(2, line(2, i)) end end
      for _ = 1, 3 do for i = 0, 7 do w:ld(3, line(3, i)) end end
      for i = 0, 11 do w:ld(4, i < 8 and line(3, i) or line(4, i - 8)) end -- one call site: one PC
      for _ = 1, 2 do for i = 0, 1 do w:ld(5, line(5, i)) end end
      for _ = 1, 2 do w:ld(6, line(6, 0)) end
      for i = 0, 3 do w:ld(7, line(4, i)) end
    end,
  } },
}
