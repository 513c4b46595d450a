-- Runs random_wide.lua as a script policy and prints what it saw.
local mw = require "moonwarp"
local dir = arg[0]:match("^(.*)/[^/]*$") or "."
local sim = mw.sim { workload = "micro.stream", size = "tiny", seed = 1 }
sim:policy("l1d_bypass", dir .. "/random_wide.lua")
assert(sim:run() == true)
local x = sim:policy("l1d_bypass")
print(string.format("random n=%d integer=%s near=%s", x.n, tostring(x.int), tostring(x.near)))
