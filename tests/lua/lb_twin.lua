-- The Lua twin of Linebacker's load selection: tests/lua/pol_lb_monitor.lua watches the same run as the C bundle
-- (policies/linebacker.c, installed with it in the l1d_bypass slot, where it decides nothing) and must select
-- the same loads on the same SMs after the same windows: equal selected_loads, selected_hpcs, monitor_windows and
-- disabled counters. The C policy throttles CTAs and serves victims meanwhile; the twin only watches, so both see
-- one event stream. kmeans (small, 5,000-cycle windows: many kernels, monitoring ends on most SMs) and atax
-- (small, the paper's 50,000-cycle windows: two SMs select, the others disable) on linebacker.yaml.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local mw = require "moonwarp"
local dir = arg[0]:match("^(.*)/[^/]*$") or "."

local function twin(workload, window)
  local sim = mw.sim { config = "experiments/configs/linebacker.yaml", workload = workload, size = "small", seed = 1,
                       set = { "policies.bundle=linebacker", "policies.bundle.window=" .. window } }
  sim:policy("l1d_bypass", { impl = "lua", script = dir .. "/pol_lb_monitor.lua", window = window })
  assert(sim:run() == true, "run did not complete")
  local st, ex = sim:stats(), sim:policy("l1d_bypass")
  sim:close()
  local n = 0
  for _, k in ipairs { "selected_loads", "monitor_windows", "disabled" } do
    local c, l = st["policy.bundle." .. k], st["policy.l1d_bypass." .. k]
    assert(c == l, string.format("%s %s: C %s, Lua %s", workload, k, tostring(c), tostring(l)))
    n = n + c
  end
  assert(st["policy.bundle.selected_hpcs"] == ex.hpcs,
    string.format("%s selected hashed PCs: C 0x%x, Lua 0x%x", workload, st["policy.bundle.selected_hpcs"], ex.hpcs))
  assert(st["policy.bundle.selected_loads"] > 0, workload .. ": nothing selected, nothing compared")
  local pcs = {}
  for _, d in ipairs(ex.done) do
    for _, pc in ipairs(d.pcs) do pcs[#pcs + 1] = string.format("sm%d:0x%x", d.sm, pc) end
  end
  print(string.format("ok  %s: %d loads selected (hashed PCs 0x%x) after %d windows, %d SM-kernels disabled, %d " ..
    "register hits; C and Lua agree; first selected: %s", workload, st["policy.bundle.selected_loads"], ex.hpcs,
    st["policy.bundle.monitor_windows"], st["policy.bundle.disabled"], st["policy.bundle.reg_hits"],
    table.concat(pcs, " ", 1, math.min(#pcs, 4))))
end

twin("rodinia.kmeans", 5000)
twin("polybench.atax", 50000)
