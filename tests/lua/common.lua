-- Helpers for the Lua-level tests: run a simulation, compare two stats tables counter by counter.
local mw = require "moonwarp"
local T = {}

function T.run(opts, point, policy)
  local sim = mw.sim(opts)
  if point then sim:policy(point, policy) end
  assert(sim:run() == true, "run did not complete")
  local st = sim:stats()
  sim:close()
  return st
end

-- Every counter of a must equal the same counter of b, and both must have the same names (sim.* counts the
-- engine's own work, which may differ between runs that simulate the same thing).
function T.same_stats(a, b, label)
  local bad, n = {}, 0
  for k, v in pairs(a) do
    n = n + 1
    if b[k] ~= v and not k:find("^sim%.") then bad[#bad + 1] = string.format("%s: %s vs %s", k, tostring(v), tostring(b[k])) end
  end
  for k in pairs(b) do
    if a[k] == nil then bad[#bad + 1] = k .. ": missing on the C side" end
  end
  if #bad > 0 then
    table.sort(bad)
    error(label .. ": " .. #bad .. " counters differ:\n  " .. table.concat(bad, "\n  ", 1, math.min(#bad, 20)), 2)
  end
  return n
end

function T.expect_error(fn, patterns, label)
  local ok, msg = pcall(fn)
  assert(not ok, label .. ": expected an error")
  for _, p in ipairs(patterns) do
    if not string.find(msg, p, 1, true) then
      error(string.format("%s: error message lacks %q:\n%s", label, p, msg), 2)
    end
  end
  return msg
end

T.dir = (arg and arg[0] and arg[0]:match("^(.*)/[^/]*$")) or "tests/lua"
return T
