-- Limits of a script's hook state: a table growing without end hits the state's memory limit (8 MiB set by the
-- script, 64 MiB by default), which stops the run with the hook and its line named; the next run works. The
-- instruction budget, the default watchdog, and budget = false.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"
local mw = require "moonwarp"
local D = T.dir
local opts = { workload = "micro.stream", size = "small", seed = 1 }

local sim = mw.sim(opts)
sim:policy("l1d_bypass", D .. "/bad_memory.lua")
local msg = T.expect_error(function() sim:run() end,
  { "Lua policy l1d_bypass.decide", "bad_memory.lua:4:", "memory limit of 8 MiB exceeded" }, "memory")
print("ok  " .. msg:match("^[^\n]*"))
sim:reset()
sim:policy("l1d_bypass", D .. "/pol_bypass_all.lua")
assert(sim:run() == true, "the reset simulation runs")
sim:close()

-- the default limit, through YAML-style impl: lua
local script = os.tmpname()
local f = assert(io.open(script, "w"))
f:write("local t = {}\nreturn { budget = false, decide = function()\n",
  "  while true do t[#t + 1] = string.rep('y', 4000) .. #t end end }\n")
f:close()
local o = { workload = "micro.stream", size = "small", seed = 1,
  config = { policies = { l1d_bypass = { impl = "lua", script = script } } } }
msg = T.expect_error(function() T.run(o) end, { "Lua policy l1d_bypass.decide", ":2:", "memory limit of 64 MiB exceeded" }, "default")
os.remove(script)
print("ok  " .. msg:match("^[^\n]*"))

T.expect_error(function() mw.sim(opts):policy("l1d_bypass", { memory = 0, decide = function() end }) end,
  { "memory must be a number of MiB in [1, 65536]" }, "memory range")

-- the instruction budget: a call of about 3 M instructions fails with budget = 1000000 and runs with the default
-- protection (the CPU-time watchdog: it takes well under 50 ms) and with budget = false (no protection)
local function long(budget)
  local n = 0
  return T.run({ workload = "micro.stream", size = "tiny", seed = 1 }, "l1d_bypass", { budget = budget,
    decide = function()
      for i = 1, 1000000 do n = n + 1 end
      return false
    end })
end
T.expect_error(function() long(1000000) end, { "instruction budget of 1000000 exceeded" }, "explicit budget")
assert(long(nil)["gpu.cycles"] > 0, "the default: the watchdog")
assert(long(false)["gpu.cycles"] > 0, "budget = false: no budget")
T.expect_error(function() long(true) end, { "budget must be an integer in [100, 1e9], or false for none" }, "budget")
assert(T.run(opts, "warp_scheduler", D .. "/pol_gto.lua")["gpu.cycles"] > 0)
print("ok  limits")
