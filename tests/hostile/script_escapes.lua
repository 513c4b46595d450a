-- A user's own program (full libraries) whose table policy tries to leave its hook's limits:
-- arg[1] = "sethook": debug.sethook() inside the hook, then a loop; "coroutine": a loop in a coroutine
-- created outside the hook and resumed from it; "gc": a finalizer that never returns.
local mw = require "moonwarp"
local mode = arg[1]
local co = coroutine.create(function() while true do end end)
local seen
local pol = { decide = function()
  if mode == "sethook" then debug.sethook() while true do end
  elseif mode == "coroutine" then
    if not seen then seen = { coroutine.resume(co) } end
  elseif mode == "wrap" then
    if not seen then seen = { pcall(coroutine.wrap(function() while true do end end)) } end
  elseif mode == "gc" then
    setmetatable({}, { __gc = function() while true do end end })
    collectgarbage()
  end
  return 0
end }
local sim = mw.sim { workload = "micro.stream", size = "tiny", seed = 1 }
sim:policy("l1d_bypass", pol)
local ok, err = pcall(sim.run, sim)
if not ok then print("run failed: " .. tostring(err)) os.exit(4) end
if seen then print("resumed: " .. tostring(seen[1]) .. " " .. tostring(seen[2])) end
print("run completed")
