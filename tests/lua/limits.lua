-- Limits of a script's hook state: a table growing without end hits the state's memory limit (8 MiB set by the
-- script, 64 MiB by default), which stops the run with the hook and its line named; the next run works.
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
f:write("local t = {}\nreturn { budget = 1000000000, decide = function()\n",
  "  while true do t[#t + 1] = string.rep('y', 4000) .. #t end end }\n")
f:close()
local o = { workload = "micro.stream", size = "small", seed = 1,
  config = { policies = { l1d_bypass = { impl = "lua", script = script } } } }
msg = T.expect_error(function() T.run(o) end, { "Lua policy l1d_bypass.decide", ":2:", "memory limit of 64 MiB exceeded" }, "default")
os.remove(script)
print("ok  " .. msg:match("^[^\n]*"))

T.expect_error(function() mw.sim(opts):policy("l1d_bypass", { memory = 0, decide = function() end }) end,
  { "memory must be a number of MiB in [1, 65536]" }, "memory range")
assert(T.run(opts, "warp_scheduler", D .. "/pol_gto.lua")["gpu.cycles"] > 0)
print("ok  limits")
