-- The default protection of a hook call, the CPU-time watchdog: a runaway loop in a table policy and in a script
-- policy stops with the hook's name and the script line within a few seconds, also a loop around an action that
-- raises events (m.l1d_flush), and the next run in the same Lua state works. A long but finite
-- call, a run after many short calls and a run with budget = false are not disturbed.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"
local mw = require "moonwarp"
local D = T.dir
local opts = { workload = "micro.stream", size = "small", seed = 1 }

local function good_run()
  assert(T.run(opts, "warp_scheduler", D .. "/pol_gto.lua")["gpu.cycles"] > 0, "a run after the error works")
end

local function runaway(label, point, policy, where)
  local sim = mw.sim(opts)
  sim:policy(point, policy)
  local t0 = os.clock()
  T.expect_error(function() sim:run() end, { "Lua policy " .. where[1], where[2], "time budget exceeded" }, label)
  local dt = os.clock() - t0
  assert(dt < 3, label .. string.format(": stopped after %.2f s of CPU time", dt))
  sim:close()
  good_run()
  print(string.format("ok  watchdog %s", label))
end

local loop = dofile(D .. "/bad_loop_watch.lua")
runaway("table", "warp_scheduler", loop, { "warp_scheduler.pick", "bad_loop_watch.lua:3:" })
runaway("script", "warp_scheduler", D .. "/bad_loop_watch.lua", { "warp_scheduler.pick", "bad_loop_watch.lua:3:" })
runaway("inline", "l1d_bypass", { decide = function()
  while true do end
end }, { "l1d_bypass.decide", "watchdog.lua:31:" })
runaway("nested", "granularity", { events = { "l1d_evict" }, on_event = function() end,
  fetch = function(m, sm, warp, pc, line, set, need, have, size, full)
    while true do m.l1d_flush(sm) end
  end }, { "granularity.fetch", "watchdog.lua:35:" })

-- the same call again after a failure: the hook is disarmed, so the next calls (and runs) are not stopped
local sim = mw.sim(opts)
local n, stop = 0, true
sim:policy("l1d_bypass", { decide = function()
  n = n + 1
  if stop then while true do end end
  return false
end })
T.expect_error(function() sim:run() end, { "time budget exceeded" }, "again")
sim:reset()
stop = false
sim:policy("l1d_bypass", { decide = function() n = n + 1; return false end })
assert(sim:run() == true, "a reset simulation with a Lua policy runs")
sim:close()

-- a call of about 3 M instructions (well under 50 ms) runs with the default protection
local calls = 0
local st = T.run(opts, "l1d_bypass", { decide = function()
  calls = calls + 1
  if calls == 1 then for i = 1, 1000000 do calls = calls + 0 end end
  return false
end })
assert(st["gpu.cycles"] > 0 and calls > 1000)
print("ok  watchdog leaves finite calls alone")
