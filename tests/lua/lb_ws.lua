-- Linebacker §2.3's streaming / reuse classification (experiments/papers/linebacker_ws_monitor.lua) on a workload
-- whose per-load numbers are known (tests/lua/lb_ws_gen.lua: loads A-F, one warp, one SM, one window).
-- Shared infinite cache (the default): A misses 40 / 40 > 95 %: streaming, 40 lines. B 10 / 20, C 8 / 24, D 4 / 12
-- (C's lines are in the cache), E 2 / 4, F 1 / 2, G 0 / 4: not streaming. The top 4 by accesses: C 24, B 20, D 12,
-- E 4 (E and G tie at 4: the lower PC, E's, goes first; F and G out). Their lines accessed twice or more: B's 10,
-- C's 8 (also read by D), E's 2, and D's own 4 (read again by G) = 24 lines; used by one load: B's and E's, 12.
-- Reused working set 24 x 128 B = 3,072 B.
-- reuse_by = "top": the top loads' own accesses must make two: D's own lines (D once, G is not in the top) drop out,
-- 20 lines, 12 single.
-- inf_scope = "own": D misses 12 / 12 (it never read C's lines itself) and G 4 / 4: streaming too, 40 + 12 = 52
-- streaming lines (G's are D's). The top 4 are then C, B, E, F: B's 10 + C's 8 + E's 2 + F's 1 = 21 lines, 13 of
-- them used by one load (C's are D's too).
-- top = 6 (shared): G and F join: 24 + F's 1 = 25 lines, 13 single.
local mw = require "moonwarp"

local function run(params)
  local sim = mw.sim { config = "experiments/configs/linebacker.yaml", workload = "tests/lua/lb_ws_gen.lua", seed = 1,
                       set = { "gpu.n_sms=1" } }
  params.impl, params.script = "lua", "experiments/papers/linebacker_ws_monitor.lua"
  params.window = params.window or 1000000
  sim:policy("l1d_bypass", params)
  assert(sim:run() == true, "run did not complete")
  local st, ex = sim:stats(), sim:policy("l1d_bypass")
  sim:close()
  local acc = 0
  for _, r in ipairs(ex.pcs) do acc = acc + r.acc end
  assert(acc == st["l1d.accesses"], string.format("the monitor saw %d accesses, the L1D %d", acc, st["l1d.accesses"]))
  assert(acc == 40 + 20 + 24 + 12 + 4 + 2 + 4, "accesses " .. acc)
  assert(#ex.smwin == 1, "SM-windows: " .. #ex.smwin)
  return ex.smwin[1], ex
end

local function check(name, params, lines, stream, ws, single, nstream)
  local w, ex = run(params)
  assert(w.lines == lines and w.stream_lines == stream and w.ws_lines == ws and w.ws_single == single,
    string.format("%s: lines %d streaming %d reused %d single %d; expected %d %d %d %d", name, w.lines,
                  w.stream_lines, w.ws_lines, w.ws_single, lines, stream, ws, single))
  local ns = 0
  for _, r in ipairs(ex.pcs) do ns = ns + r.stream_w end
  assert(ns == nstream, string.format("%s: %d streaming loads, expected %d", name, ns, nstream))
  print(string.format("ok  %s: %d lines, %d streaming, reused working set %d lines (%d by one load)", name, w.lines,
                      w.stream_lines, w.ws_lines, w.ws_single))
end

-- 40 + 10 + 8 + 4 + 2 + 1 = 65 distinct lines in every case
check("shared", {}, 65, 40, 24, 12, 1)
check("reuse_by top", { reuse_by = "top" }, 65, 40, 20, 12, 1)
check("own", { inf_scope = "own" }, 65, 52, 21, 13, 3)
check("top 6", { top = 6 }, 65, 40, 25, 13, 1)

-- Windows: the infinite cache is emptied at each window's start, and a kernel's start begins a window. Kernel 1 reads
-- 10 lines twice (20 accesses, 10 misses: not streaming, 10 reused lines); kernel 2 reads the same 10 lines once:
-- in its own window all 10 miss, so its load is streaming (10 lines) and it has no reused working set. Were the cache
-- kept across the kernels, kernel 2's load would hit 10 of 10.
do
  local function line(i) return 0x10000000 + i * 128 end
  local wl = { name = "lb_ws_windows", kernels = {
    { name = "k1", grid = 1, block = 32, regs = 16,
      warp = function(w) for _ = 1, 2 do for i = 0, 9 do w:ld(1, line(i)) end end end },
    { name = "k2", grid = 1, block = 32, regs = 16,
      warp = function(w) for i = 0, 9 do w:ld(2, line(i)) end end },
  } }
  local sim = mw.sim { config = "experiments/configs/linebacker.yaml", workload = wl, seed = 1, set = { "gpu.n_sms=1" } }
  sim:policy("l1d_bypass", { impl = "lua", script = "experiments/papers/linebacker_ws_monitor.lua", window = 1000000 })
  assert(sim:run() == true, "run did not complete")
  local ex = sim:policy("l1d_bypass")
  sim:close()
  assert(#ex.smwin == 2, "SM-windows: " .. #ex.smwin)
  local a, b = ex.smwin[1], ex.smwin[2]
  assert(a.kernel == 1 and a.stream_lines == 0 and a.ws_lines == 10 and a.ws_single == 10,
    string.format("kernel 1: streaming %d, reused %d (%d single)", a.stream_lines, a.ws_lines, a.ws_single))
  assert(b.kernel == 2 and b.stream_lines == 10 and b.ws_lines == 0,
    string.format("kernel 2: streaming %d, reused %d", b.stream_lines, b.ws_lines))
  print("ok  windows: kernel 1 reused 10 lines, kernel 2 streams the same 10 lines in its own window")
end
