-- m.params is the same whichever way a policy is given: a script with keys from YAML or {impl = "lua", ...} over
-- the script's own `params`, or a table of hooks with a `params` field. Text values are converted as YAML's are:
-- true/false to booleans, numerals to numbers, the rest stays a string.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"
local mw = require "moonwarp"
local opts = { workload = "micro.stream", size = "tiny", seed = 1 }
local script = T.dir .. "/pol_params.lua"
local want = "params: greedy=true(boolean) label=base(string) mode=fast(string) ratio=0.5(float) window=5000(integer)"

local function echo(label, setup)
  local o = {}
  for k, v in pairs(opts) do o[k] = v end
  local sim = setup(o)
  local msg = T.expect_error(function() sim:run() end, { "Lua policy ldst_scheduler.slots: " }, label)
  local got = msg:match("(params: [^\n]*)")
  assert(got == want, string.format("%s: m.params\n  got  %s\n  want %s", label, got, want))
  sim:close()
  print("ok  " .. label)
end

-- a script: parameters as Lua values or as text, over the script's defaults (window = 100, label = "base")
echo("script, sim:policy{impl = \"lua\"}", function(o)
  return mw.sim(o):policy("ldst_scheduler", { impl = "lua", script = script, window = 5000, greedy = true,
                                              ratio = 0.5, mode = "fast" })
end)
echo("script, config table (as YAML)", function(o)
  o.config = { policies = { ldst_scheduler = { impl = "lua", script = script, window = "5000", greedy = "true",
                                               ratio = "0.5", mode = "fast" } } }
  return mw.sim(o)
end)
-- a table of hooks: its `params` field, values converted the same way
echo("table, params as Lua values", function(o)
  local t = dofile(script)
  t.params = { window = 5000, greedy = true, ratio = 0.5, mode = "fast", label = "base" }
  return mw.sim(o):policy("ldst_scheduler", t)
end)
echo("table, params as text", function(o)
  local t = dofile(script)
  t.params = { window = "5000", greedy = "true", ratio = "0.5", mode = "fast", label = "base" }
  return mw.sim(o):policy("ldst_scheduler", t)
end)

-- a table policy's parameter steers its hook: at most m.params.limit CTAs per SM
local seen
local st = T.run({ workload = "micro.stream", size = "small", seed = 1 }, "cta_throttle", {
  params = { limit = "1" },
  limit = function(m, sm, resident) seen = m.params.limit; return m.params.limit end,
})
assert(seen == 1 and math.type(seen) == "integer", "m.params.limit reached the hook: " .. tostring(seen))
local ref = T.run({ workload = "micro.stream", size = "small", seed = 1 }, "cta_throttle", "none")
assert(st["gpu.cycles"] > ref["gpu.cycles"], "one CTA per SM is slower")
print(string.format("ok  table params steer the hook: %d cycles with limit 1, %d without", st["gpu.cycles"],
                    ref["gpu.cycles"]))

-- bad params
local function limit1() return 1 end
T.expect_error(function() mw.sim(opts):policy("cta_throttle", { params = { x = {} }, limit = limit1 }) end,
  { "cta_throttle policy: params.x: expected a number, boolean or string, got table" }, "param type")
T.expect_error(function() mw.sim(opts):policy("cta_throttle", { params = 5, limit = limit1 }) end,
  { "cta_throttle policy: params must be a table {name = value}, not number" }, "params type")
print("ok  params errors")
