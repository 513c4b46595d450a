-- Error paths of Lua policies: each failure stops the run with the hook's name and the script line, and the
-- next run in the same Lua state works.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"
local mw = require "moonwarp"
local D = T.dir
local opts = { workload = "micro.stream", size = "small", seed = 1 }

local function good_run()
  local st = T.run(opts, "warp_scheduler", D .. "/pol_gto.lua")
  assert(st["gpu.cycles"] > 0)
end

local cases = {
  { "bad_error.lua", { "Lua policy warp_scheduler.pick", "bad_error.lua:3:", "boom from pick", "stack traceback" } },
  { "bad_range.lua", { "Lua policy warp_scheduler.pick", "bad_range.lua:3:", "returned", "expected an index 1.." } },
  { "bad_type.lua",  { "Lua policy warp_scheduler.pick", "bad_type.lua:3:", "returned a string (\"first\")" } },
  { "bad_loop.lua",  { "Lua policy warp_scheduler.pick", "bad_loop.lua:3:", "instruction budget of 100000 exceeded" } },
}
for _, c in ipairs(cases) do
  for _, form in ipairs { "script", "inline" } do
    local sim = mw.sim(opts)
    sim:policy("warp_scheduler", form == "script" and (D .. "/" .. c[1]) or dofile(D .. "/" .. c[1]))
    local msg = T.expect_error(function() sim:run() end, c[2], c[1] .. " " .. form)
    assert(msg:find("stopped at cycle %d+"), "the message names the cycle")
    -- the failed simulation keeps failing with the same message until it is reset
    T.expect_error(function() sim:run() end, { c[2][1] }, c[1] .. " rerun")
    sim:reset()
    sim:policy("warp_scheduler", "gto")
    assert(sim:run() == true, "a reset simulation with a C policy runs")
    sim:close()
    good_run() -- and a fresh one with a Lua policy
    print("ok  " .. c[1] .. " (" .. form .. "): " .. msg:match("^[^\n]*"))
  end
end

-- other points: a bypass decision of the wrong type, a DRAM pick out of range, a victim that is not evictable
T.expect_error(function()
  T.run(opts, "l1d_bypass", { decide = function() return 3 end })
end, { "Lua policy l1d_bypass.decide", "errors.lua:", "returned 3", "true/1 (bypass), false/0 (cache) or 2" }, "decide")
T.expect_error(function()
  T.run({ workload = "micro.colstride", size = "small" }, "dram_scheduler", { pick = function(m, ch, b, r, h, now, c, n) return 0 end })
end, { "Lua policy dram_scheduler.pick", "returned 0", "1.." }, "dram pick")
T.expect_error(function()
  T.run(opts, "granularity", { fetch = function() return 0 end })
end, { "Lua policy granularity.fetch", "returned 0", "covering" }, "fetch")
good_run()
print("ok  other points")

-- unknown hook names, closed handles, stale policy contexts, config table errors
T.expect_error(function() mw.sim(opts):policy("warp_scheduler", { pik = function() end }) end,
  { "unknown hook 'pik'", "pick, qualify, issued" }, "typo")
T.expect_error(function() mw.sim(opts):policy("warp_sched", "gto") end, { "unknown decision point 'warp_sched'" }, "point")
local kept
local sim = mw.sim(opts)
sim:policy("warp_scheduler", { pick = function(m) kept = m; return 1 end })
assert(sim:run() == true)
assert(kept.now() > 0)
sim:close()
T.expect_error(function() sim:stats() end, { "this simulation was closed" }, "closed")
T.expect_error(function() kept.now() end, { "stale policy context" }, "stale")
local s2 = mw.sim(opts)
s2:policy("warp_scheduler", { pick = function(m) kept = m; return 1 end })
s2:run { cycles = 50 }
local old = kept
s2:reset()
T.expect_error(function() old.now() end, { "stale policy context" }, "stale after reset")
T.expect_error(function() s2:policy("warp_scheduler", "gto"); s2:step(); s2:policy("warp_scheduler", "lrr") end,
  { "policies can only change before the run starts" }, "late policy")
T.expect_error(function() mw.sim { workload = "micro.stream", config = { l1d = { assoc = 100 } } } end,
  { "l1d.assoc: 100 is out of range [1, 64]" }, "config range")
T.expect_error(function() mw.sim { workload = "micro.stream", config = { l1d = { asoc = 4 } } } end,
  { "unknown key 'asoc' in section 'l1d'" }, "config key")
print("ok  handles and config errors")
