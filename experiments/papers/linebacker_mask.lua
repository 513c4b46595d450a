-- Linebacker under GPGPU-Sim 3.2.x's set index (docs/papers/linebacker.md, "The set index and SVC against VC"):
-- GPGPU-Sim's linear set function is a mask, (line) & (sets - 1), which on the paper's 48-set L1D (48 KB, 8-way,
-- 128 B lines) reaches sets 0-15 and 32-47 only (l1d.index=mask); moonwarp's default is the modulo (all 48 sets).
-- On the four apps where VC is far above SVC with the modulo index (GE, BI, AT, MV), with both indexes: the
-- baseline, Best-SWL, Victim Caching, SVC and Throttling+SVC (LB), normalized to Best-SWL and to the baseline.
-- Best-SWL is the fastest of the baseline and static limits of 1 and 2 CTAs per SM: these apps launch 15 or 30
-- CTAs on 16 SMs at the `default` size (one or two resident per SM), so limits of 4 and 8 are the baseline.
-- Usage: moonwarp experiments/papers/linebacker_mask.lua OUTDIR [quick|default] [mask|modulo|mask,modulo]
--   quick: size small with 5,000-cycle windows; default: size default with the paper's 50,000.
local X = require "moonwarp.experiment"

local out, mode = arg[1] or "out/linebacker-mask", arg[2] or "default"
local sizes = { quick = "small", default = "default" }
assert(sizes[mode], "usage: linebacker_mask.lua OUTDIR [quick|default]")
local window = mode == "quick" and 5000 or 50000

local workloads = { { name = "polybench.gesummv", label = "GE" }, { name = "polybench.bicg", label = "BI" },
                    { name = "polybench.atax", label = "AT" }, { name = "polybench.mvt", label = "MV" } }
local lb = function(variant)
  return { "policies.bundle=linebacker", "policies.bundle.variant=" .. variant, "policies.bundle.window=" .. window }
end
local swl = { 1, 2 }
-- the baseline as linebacker.lua's: bundle rfbanks (GTO's decisions, with RF bank conflicts counted)
local policies = { { name = "Baseline", set = { "policies.bundle=rfbanks" } } }
for _, k in ipairs(swl) do
  policies[#policies + 1] = { name = "SWL" .. k, cta_throttle = { impl = "static", max_ctas = k } }
end
for _, p in ipairs { { name = "VC", set = lb("vc") }, { name = "SVC", set = lb("svc") }, { name = "LB", set = lb("lb") } } do
  policies[#policies + 1] = p
end
local configs = {}
for _, c in ipairs { { name = "mask", l1d = { index = "mask" } }, { name = "modulo", l1d = { index = "linear" } } } do
  if not arg[3] or arg[3]:find(c.name, 1, true) then configs[#configs + 1] = c end
end
assert(#configs > 0, "the third argument names the indexes to run: mask, modulo or mask,modulo (default both)")

os.execute("mkdir -p '" .. out:gsub("'", "'\\''") .. "'")
local res = X.run {
  workloads = workloads, policies = policies, configs = configs, config = "experiments/configs/linebacker.yaml",
  size = sizes[mode], seed = 1, metric = "gpu.ipc", baseline = "Baseline", store = out .. "/results.db",
  jobs = tonumber(os.getenv("MW_JOBS") or "") or 1,
}

local function row(w, p, c)
  for _, x in ipairs(res.rows) do
    if x.workload == w and x.policy == p and x.config == c then return x end
  end
end
local function st(r, k) return r and r.stats and r.stats[k] or 0 end
local function geo(t)
  local s, n = 0, 0
  for _, v in ipairs(t) do if v > 0 then s, n = s + math.log(v), n + 1 end end
  return n > 0 and math.exp(s / n) or 0
end

local csv = { "config,workload,best_swl_limit,baseline_ipc,best_swl_ipc,vc_norm,svc_norm,lb_norm,vc_over_base," ..
              "svc_over_base,lb_over_base,baseline_miss_rate,svc_selected_loads,vc_reghit_frac,svc_reghit_frac," ..
              "lb_reghit_frac,lb_throttles" }
print("IPC normalized to Best-SWL (x over the baseline in parentheses); GMEAN over the four apps")
print(string.format("%-7s %-5s %5s  %-15s %-15s %-15s %6s %4s %6s %6s %6s %6s", "index", "app", "limit", "VC", "SVC",
                    "LB", "miss", "sel", "VC rh", "SVC rh", "LB rh", "thr"))
for _, c in ipairs(configs) do
  local g = { vc = {}, svc = {}, lb = {}, vcb = {}, svcb = {}, lbb = {} }
  for _, w in ipairs(workloads) do
    local base = row(w.label, "Baseline", c.name)
    local best, limit = base, "none"
    for _, k in ipairs(swl) do
      local r = row(w.label, "SWL" .. k, c.name)
      if r and r.value and best and best.value and r.value > best.value then best, limit = r, tostring(k) end
    end
    local vc, svc, l = row(w.label, "VC", c.name), row(w.label, "SVC", c.name), row(w.label, "LB", c.name)
    local function n(r, d) return (r and r.value and d and d.value and d.value > 0) and r.value / d.value or 0 end
    local function rh(r) return st(r, "l1d.accesses") > 0 and st(r, "l1d.victim_hits") / st(r, "l1d.accesses") or 0 end
    local v = { n(vc, best), n(svc, best), n(l, best), n(vc, base), n(svc, base), n(l, base) }
    local keys = { "vc", "svc", "lb", "vcb", "svcb", "lbb" }
    for i, k in ipairs(keys) do g[k][#g[k] + 1] = v[i] end
    print(string.format("%-7s %-5s %5s  %5.3f (%5.2fx) %5.3f (%5.2fx) %5.3f (%5.2fx) %5.1f%% %4d %5.1f%% %5.1f%% %5.1f%% %6d",
                        c.name, w.label, limit, v[1], v[4], v[2], v[5], v[3], v[6], 100 * st(base, "l1d.miss_rate"),
                        st(svc, "policy.bundle.selected_loads"), 100 * rh(vc), 100 * rh(svc), 100 * rh(l),
                        st(l, "policy.bundle.throttles")))
    csv[#csv + 1] = string.format("%s,%s,%s,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%d,%.6f,%.6f,%.6f,%d",
                                  c.name, w.label, limit, base and base.value or 0, best and best.value or 0, v[1], v[2],
                                  v[3], v[4], v[5], v[6], st(base, "l1d.miss_rate"),
                                  st(svc, "policy.bundle.selected_loads"), rh(vc), rh(svc), rh(l),
                                  st(l, "policy.bundle.throttles"))
  end
  print(string.format("%-7s %-5s %5s  %5.3f (%5.2fx) %5.3f (%5.2fx) %5.3f (%5.2fx)", c.name, "GMEAN", "", geo(g.vc),
                      geo(g.vcb), geo(g.svc), geo(g.svcb), geo(g.lb), geo(g.lbb)))
  csv[#csv + 1] = string.format("%s,GMEAN,,,,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,,,,,,", c.name, geo(g.vc), geo(g.svc),
                                geo(g.lb), geo(g.vcb), geo(g.svcb), geo(g.lbb))
end
local f = assert(io.open(out .. "/mask.csv", "w"))
f:write(table.concat(csv, "\n"), "\n")
f:close()
print("csv:  " .. out .. "/mask.csv")
