-- The per-load view of the Load Monitor (experiments/papers/linebacker_loads_monitor.lua) against the run it watched:
-- its per-PC counts must add up to the L1D's own counters, its per-window series to its per-PC totals, and what it
-- selects to what the C bundle selects. atax, size small, 5,000-cycle windows, under SVC and Victim Caching.
local mw = require "moonwarp"
local script = "experiments/papers/linebacker_loads_monitor.lua"

local function run(variant)
  local sim = mw.sim { config = "experiments/configs/linebacker.yaml", workload = "polybench.atax", size = "small",
                       seed = 1, set = { "policies.bundle=linebacker", "policies.bundle.variant=" .. variant,
                                         "policies.bundle.window=5000" } }
  sim:policy("l1d_bypass", { impl = "lua", script = script, window = 5000 })
  assert(sim:run() == true, "run did not complete")
  local st, ex = sim:stats(), sim:policy("l1d_bypass")
  sim:close()
  local acc, hit, vhit, sel = 0, 0, 0, 0
  for _, r in ipairs(ex.pcs) do
    acc, hit, vhit = acc + r.acc, hit + r.hit, vhit + r.vhit
    local sa, sv = 0, 0
    for _, w in pairs(r.series) do sa, sv = sa + w[1], sv + w[3] end
    assert(sa == r.acc and sv == r.vhit, string.format("%s pc 0x%x: series %d accesses %d victim hits, totals %d %d",
      variant, r.off, sa, sv, r.acc, r.vhit))
    for i = 1, 2 do
      local w = r.w[i]
      assert(r.hl[i] <= r.seen[i], "more high-locality SM-kernels than SM-kernels")
      assert(w.hit + w.vhit + w.vtt + w.merged + w.miss <= r.acc, "window counts above the run's")
    end
  end
  for _, n in pairs(ex.slots) do sel = sel + n end
  local l1d = st["l1d.hits"] + st["l1d.misses"] + st["l1d.victim_hits"]
  assert(acc == st["l1d.accesses"] and acc == l1d, string.format("%s: the monitor saw %d loads at L1D, the L1D %d",
                                                                 variant, acc, st["l1d.accesses"]))
  assert(vhit == st["l1d.victim_hits"], string.format("%s: %d victim hits seen, %d counted", variant, vhit,
                                                      st["l1d.victim_hits"]))
  assert(hit == st["l1d.hits"], string.format("%s: %d L1D hits seen, %d counted", variant, hit, st["l1d.hits"]))
  if variant == "svc" then
    assert(sel == st["policy.bundle.selected_loads"], string.format("selected %d, the bundle %d", sel,
                                                                    st["policy.bundle.selected_loads"]))
  end
  print(string.format("ok  atax %s: %d loads at L1D over %d PCs, %d hits of which %d victim hits, %d selected by it",
                      variant, acc, #ex.pcs, hit + vhit, vhit, sel))
  return vhit
end

assert(run("svc") > 0 and run("vc") > 0, "no victim hit: nothing compared")
