-- Lua bundles: a table of point tables sharing one state, installed in the bundle slot with a member at each point,
-- from Lua (a table or a script, sim:policy("bundle", ...)), from a config table and from YAML
-- (policies.bundle: {impl: lua, script: ...}). Its scheduler reads the count its bypass hook writes.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"
local mw = require "moonwarp"
local script = T.dir .. "/pol_bundle.lua"
local opts = { workload = "micro.colstride", size = "small", seed = 1 }

local function check(sim, every, label)
  local cfg = sim:config().policies
  assert(cfg.bundle == "lua:pair" and cfg.warp_scheduler == "lua:pair" and cfg.l1d_bypass == "lua:pair", label)
  assert(sim:run() == true, label)
  local st = sim:stats()
  local v = sim:policy("bundle")
  assert(v.point == "bundle" and v.every == every, label .. ": the bundle's m")
  assert(v.total == st["l1d.bypasses"] and st["policy.bundle.bypassed"] == v.total and v.total > 0,
    string.format("%s: %d bypassed, l1d.bypasses %d", label, v.total, st["l1d.bypasses"]))
  assert(v.seen > 0 and v.backwards == 0, label .. ": the scheduler read the bypass hook's count")
  local gto = T.run(opts, every == 1 and "l1d_bypass" or nil, "all")
  assert(st["gpu.warp_insts"] == gto["gpu.warp_insts"], label)
  if every == 1 then -- bypass-all with GTO, plus the bundle's counter
    st["policy.bundle.bypassed"] = nil
    T.same_stats(gto, st, label .. " (bypass-all with GTO)")
  end
  sim:close()
  return v
end

local sim = mw.sim(opts)
sim:policy("bundle", dofile(script))
local v = check(sim, 1, "table")
sim = mw.sim(opts)
sim:policy("bundle", script)
check(sim, 1, "script")
sim = mw.sim(opts)
sim:policy("bundle", { impl = "lua", script = script, every = 3 })
check(sim, 3, "script with params")
check(mw.sim { workload = opts.workload, size = opts.size, seed = 1,
               config = { policies = { bundle = { impl = "lua", script = script, every = 2 } } } }, 2, "config table")
local yaml = os.tmpname()
local f = assert(io.open(yaml, "w"))
f:write("policies:\n  bundle:\n    impl: lua\n    script: " .. script .. "\n    every: 4\n")
f:close()
check(mw.sim { workload = opts.workload, size = opts.size, seed = 1, config = yaml }, 4, "YAML")
print(string.format("ok  a two-point Lua bundle: the scheduler read %d bypasses its bypass hook counted", v.total))

-- a slot chosen explicitly is not the bundle's, a bundle is not a point's policy, a member is the bundle's
T.expect_error(function() mw.sim(opts):policy("l1d_bypass", "all"):policy("bundle", script) end,
  { "policies.l1d_bypass is set to a policy other than its default, but bundle 'lua:pair' provides that" }, "conflict")
f = assert(io.open(yaml, "w"))
f:write("policies:\n  l1d_bypass: all\n  bundle:\n    impl: lua\n    script: " .. script .. "\n")
f:close()
T.expect_error(function() mw.sim { workload = opts.workload, config = yaml } end,
  { "policies.l1d_bypass is set to a policy other than its default, but bundle 'lua:pair' provides that" },
  "conflict in YAML")
os.remove(yaml)
T.expect_error(function() mw.sim(opts):policy("l1d_bypass", script) end,
  { "this table is a bundle (bundle = true): install it as policies.bundle" }, "bundle at a point")
T.expect_error(function() mw.sim(opts):policy("bundle", script):policy("warp_scheduler", "lrr") end,
  { "sim:policy: warp_scheduler is a member of bundle 'lua:pair'" }, "member")
T.expect_error(function() mw.sim(opts):policy("bundle", { l2_replacement = {} }) end,
  { "bundle: l2_replacement cannot be a Lua policy" }, "l2")
-- reset rebuilds the bundle
sim = mw.sim(opts)
sim:policy("bundle", script)
sim:run { cycles = 1000 }
sim:reset()
check(sim, 1, "after reset")
print("ok  bundle errors and reset")

-- a preset names every slot with its default: a bundle may still fill those slots, not one the user changed
do
  local o = { config = "experiments/configs/gtx480.yaml", workload = "micro.stream", size = "tiny", seed = 1 }
  local s1 = mw.sim(o)
  s1:policy("bundle", "locsel")
  assert(s1:run() == true, "a bundle on a preset runs")
  s1:close()
  o.set = { "policies.l1d_bypass=all" }
  local ok, err = pcall(function() mw.sim(o):policy("bundle", "locsel") end)
  assert(not ok and tostring(err):find("policies.l1d_bypass is set to a policy other than its default", 1, true), err)
  print("ok  bundle on a preset; refused over a changed slot")
end
