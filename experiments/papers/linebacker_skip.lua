-- Does the Load Monitor miss the row walks of GE, BI, AT and MV because it decides in a kernel's first two windows?
-- (docs/papers/linebacker.md, "Which loads the Load Monitor leaves out".) SVC with the LM's windows 1-2 moved later
-- by `monitor_skip` windows (a measurement knob; 0 is the paper's monitoring from the kernel's start), beside the
-- baseline, Victim Caching and SVC as designed, on the Linebacker machine; with an app list (any of linebacker.lua's
-- labels) also Throttling+SVC (LB) with and without the skip.
-- Usage: moonwarp experiments/papers/linebacker_skip.lua OUTDIR [quick|default] [S2,GE,...]
--   quick: size small with 5,000-cycle windows; default: size default with the paper's 50,000.
local X = require "moonwarp.experiment"

local out, mode = arg[1] or "out/linebacker-skip", arg[2] or "quick"
local sizes = { quick = "small", default = "default" }
assert(sizes[mode], "usage: linebacker_skip.lua OUTDIR [quick|default]")
local window = mode == "quick" and 5000 or 50000

local apps = {
  S2 = "polybench.syr2k", GE = "polybench.gesummv", BI = "polybench.bicg", KM = "rodinia.kmeans",
  AT = "polybench.atax", S1 = "polybench.syrk", MV = "polybench.mvt", CF = "rodinia.cfd",
  PF = "rodinia.particlefilter", LI = "libor.libor", SR2 = "rodinia.srad_v2", SP = "parboil.spmv",
  BR = "rodinia.bfs", FD = "polybench.fdtd2d", GA = "rodinia.gaussian", ["2D"] = "polybench.2dconv",
  SR1 = "rodinia.srad_v1", HS = "rodinia.hotspot",
}
local workloads = {}
for l in (arg[3] or "GE,BI,AT,MV"):gmatch("[^,]+") do
  assert(apps[l], "unknown app " .. l)
  workloads[#workloads + 1] = { name = apps[l], label = l }
end
local function lb(variant, skip)
  return { "policies.bundle=linebacker", "policies.bundle.variant=" .. variant, "policies.bundle.window=" .. window,
           "policies.bundle.monitor_skip=" .. (skip or 0) }
end
local policies = { { name = "Baseline" }, { name = "VC", set = lb("vc") }, { name = "SVC", set = lb("svc") } }
local skips = arg[3] and { 3 } or mode == "quick" and { 3, 12 } or { 3, 6 }
for _, k in ipairs(skips) do policies[#policies + 1] = { name = "SVC-skip" .. k, set = lb("svc", k) } end
if arg[3] then
  policies[#policies + 1] = { name = "LB", set = lb("lb") }
  policies[#policies + 1] = { name = "LB-skip3", set = lb("lb", 3) }
end

os.execute("mkdir -p '" .. out:gsub("'", "'\\''") .. "'")
local res = X.run {
  workloads = workloads, policies = policies, config = "experiments/configs/linebacker.yaml", size = sizes[mode],
  seed = 1, metric = "gpu.ipc", baseline = "Baseline", store = out .. "/results.db",
  jobs = tonumber(os.getenv("MW_JOBS") or "") or 1,
}
X.normalize(res, "Baseline")
print(X.table(res, { title = "IPC over the baseline; SVC-skipN: the Load Monitor's windows 1-2 are the kernel's " ..
                                 "N+1, N+2" }))
print()
print("app  policy        selected  disabled  reg hits/acc")
for _, w in ipairs(workloads) do
  for _, p in ipairs(policies) do
    for _, x in ipairs(res.rows) do
      if x.workload == w.label and x.policy == p.name then
        local st = x.stats or {}
        local acc = st["l1d.accesses"] or 0
        print(string.format("%-4s %-12s  %8d  %8d  %10.1f %%", w.label, p.name, st["policy.bundle.selected_loads"] or 0,
                            st["policy.bundle.disabled"] or 0, acc > 0 and 100 * st["l1d.victim_hits"] / acc or 0))
      end
    end
  end
end
print("csv:  " .. X.write_csv(res, out .. "/skip.csv", { "l1d.accesses", "l1d.victim_hits",
                                                        "policy.bundle.selected_loads", "policy.bundle.disabled" }))
