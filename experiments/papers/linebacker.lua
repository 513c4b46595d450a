-- Linebacker (Oh et al., ISCA'19; spec/002_linebacker.md): Fig. 11 (Victim Caching, Selective Victim Caching,
-- Throttling+SVC) and Fig. 12 (Linebacker, PCAL and CERF) normalized to Best-SWL, and the motivation's Best-SWL and
-- CacheExt normalized to the baseline (§2.4), with geometric means, on the paper's machine
-- (experiments/configs/linebacker.yaml). CacheExt is the baseline with L1D enlarged by the app's statically unused
-- registers (SUR), the size the Linebacker bundle measures in the app's SVC run (policy.bundle.cacheext_l1d_bytes). Best-SWL is an oracle over static CTA limits: for each app the
-- fastest of 1, 2, 4, 8 resident CTAs per SM and no limit (the baseline). Table 2's apps as built-in models; the two
-- BFS versions the models do not have (CUDA SDK, GPGPU-Sim) are left out. Runs are kept in OUTDIR/results.db.
-- Usage: moonwarp experiments/papers/linebacker.lua OUTDIR [quick|default|full] [S2,GE,...]   (the last: only these)
--   quick: size small, 5,000-cycle windows for the monitoring / IPC windows of Linebacker and PCAL (most small runs
--          last 20,000-1,500,000 cycles, fewer than two of the paper's windows); default: size default, the
--          paper's 50,000-cycle windows; full: size paper, 50,000-cycle windows.
local X = require "moonwarp.experiment"

local out, mode = arg[1] or "out/linebacker", arg[2] or "quick"
local sizes = { quick = "small", default = "default", full = "paper" }
assert(sizes[mode], "usage: linebacker.lua OUTDIR [quick|default|full] [apps]")
local size, window = sizes[mode], mode == "quick" and 5000 or 50000

-- Table 2, cache-sensitive then cache-insensitive (the paper's abbreviations as labels)
local apps = {
  { "S2", "polybench.syr2k" }, { "GE", "polybench.gesummv" }, { "BI", "polybench.bicg" }, { "KM", "rodinia.kmeans" },
  { "AT", "polybench.atax" }, { "S1", "polybench.syrk" }, { "MV", "polybench.mvt" }, { "CF", "rodinia.cfd" },
  { "PF", "rodinia.particlefilter" },
  { "LI", "libor.libor" }, { "SR2", "rodinia.srad_v2" }, { "SP", "parboil.spmv" }, { "BR", "rodinia.bfs" },
  { "FD", "polybench.fdtd2d" }, { "GA", "rodinia.gaussian" }, { "2D", "polybench.2dconv" },
  { "SR1", "rodinia.srad_v1" }, { "HS", "rodinia.hotspot" },
}
local only = nil
if arg[3] then
  only = {}
  for l in arg[3]:gmatch("[^,]+") do only[l] = true end
end
local workloads = {}
for _, a in ipairs(apps) do
  if not only or only[a[1]] then workloads[#workloads + 1] = { name = a[2], label = a[1] } end
end
assert(#workloads > 0, "no app selected: labels are " .. "S2 GE BI KM AT S1 MV CF PF LI SR2 SP BR FD GA 2D SR1 HS")

local swl = { 1, 2, 4, 8 }
-- the bundles as --set assignments: the preset names cta_throttle, l1d_bypass and replacement, which sim:policy
-- would count as chosen explicitly
local lb = function(variant)
  return { "policies.bundle=linebacker", "policies.bundle.variant=" .. variant, "policies.bundle.window=" .. window }
end
local policies = { { name = "Baseline" } }
for _, k in ipairs(swl) do
  policies[#policies + 1] = { name = "SWL" .. k, cta_throttle = { impl = "static", max_ctas = k } }
end
for _, p in ipairs {
  { name = "Victim Caching", set = lb("vc") },
  { name = "SVC", set = lb("svc") },
  { name = "Throttling+SVC", set = lb("lb") },
  { name = "PCAL", set = { "policies.bundle=pcal", "policies.bundle.window=" .. window } },
  { name = "CERF", replacement = { impl = "cerf" } },
} do policies[#policies + 1] = p end

os.execute("mkdir -p '" .. out:gsub("'", "'\\''") .. "'")
local jobs = tonumber(os.getenv("MW_JOBS") or "") or 1
local res = X.run {
  workloads = workloads, policies = policies, config = "experiments/configs/linebacker.yaml",
  size = size, seed = 1, metric = "gpu.ipc", baseline = "Baseline", store = out .. "/results.db", jobs = jobs,
}

-- CacheExt: one run per app with the L1D its SVC run measured (L1D + SUR in whole 8-way sets)
local function find(w, p)
  for _, r in ipairs(res.rows) do if r.workload == w and r.policy == p then return r end end
end
local l1d_of = {}
for _, w in ipairs(workloads) do
  local svc = find(w.label, "SVC")
  local n = svc and svc.stats and svc.stats["policy.bundle.cacheext_l1d_bytes"]
  if n and n > 0 then
    l1d_of[w.label] = n
    local r = X.run {
      workloads = { w }, policies = { { name = "CacheExt", set = { "l1d.size_bytes=" .. n } } },
      config = "experiments/configs/linebacker.yaml", size = size, seed = 1, metric = "gpu.ipc",
      store = out .. "/results.db", jobs = 1,
    }
    for _, row in ipairs(r.rows) do res.rows[#res.rows + 1] = row end
  end
end
res.policies[#res.policies + 1] = "CacheExt"

-- Best-SWL: per app, the row of the fastest static limit (the baseline included)
local function row(w, p)
  for _, r in ipairs(res.rows) do if r.workload == w and r.policy == p then return r end end
end
local best_limit = {}
local function derived(names, with_best)
  local d = { workloads = res.workloads, configs = res.configs, metric = res.metric, mean = res.mean, rows = {},
              policies = {} }
  if with_best then d.policies[1] = "Best-SWL" end
  for _, n in ipairs(names) do d.policies[#d.policies + 1] = n end
  for _, w in ipairs(res.workloads) do
    if with_best then
      local best, bestp = row(w, "Baseline"), "none"
      for _, k in ipairs(swl) do
        local r = row(w, "SWL" .. k)
        if r and r.value and (not best.value or r.value > best.value) then best, bestp = r, tostring(k) end
      end
      best_limit[w] = bestp
      local b = {}
      for k, v in pairs(best) do b[k] = v end
      b.policy = "Best-SWL"
      d.rows[#d.rows + 1] = b
    end
    for _, n in ipairs(names) do
      local r, c = row(w, n), {}
      for k, v in pairs(r or {}) do c[k] = v end -- a copy: normalizing it leaves res (runs.csv) as it is
      if r then d.rows[#d.rows + 1] = c end
    end
  end
  return d
end

local fig11 = X.normalize(derived({ "Victim Caching", "SVC", "Throttling+SVC" }, true), "Best-SWL")
local fig12 = X.normalize(derived({ "Baseline", "PCAL", "CERF", "Throttling+SVC", "CacheExt" }, true), "Best-SWL")
local motiv = X.normalize(derived({ "Baseline", "CacheExt" }, true), "Baseline")
local extra = { "l1d.miss_rate", "l1d.victim_hits", "l1d.accesses", "l1d.bypasses", "policy.bundle.reg_hits",
                "policy.bundle.throttles", "policy.bundle.backup_bytes", "policy.bundle.restore_bytes",
                "policy.bundle.selected_loads", "policy.bundle.disabled", "policy.bundle.vp_windows",
                "policy.bundle.windows", "policy.bundle.backups_cancelled", "policy.bundle.peak_reg_bytes",
                "policy.bundle.cacheext_l1d_bytes", "policy.replacement.reg_hits", "dram.reads", "dram.writes" }

print(string.format("Linebacker reproduction, %s (size %s, %d-cycle windows), experiments/configs/linebacker.yaml",
                    mode, size, window))
print()
print(X.table(fig11, { title = "Fig. 11: IPC normalized to Best-SWL" }))
print()
print(X.table(fig12, { title = "Fig. 12: IPC normalized to Best-SWL" }))
print()
print(X.table(motiv, { title = "Motivation (§2.4): IPC normalized to the baseline" }))
print()
local lines = { "Best-SWL's CTA limit per app (none = the baseline was fastest); register hits / L1D accesses under LB:" }
for _, w in ipairs(res.workloads) do
  local r = row(w, "Throttling+SVC")
  local acc = r and r.stats and r.stats["l1d.accesses"] or 0
  local rh = r and r.stats and r.stats["l1d.victim_hits"] or 0
  local svc = row(w, "SVC")
  local peak = svc and svc.stats and svc.stats["policy.bundle.peak_reg_bytes"] or 0
  lines[#lines + 1] = string.format("  %-4s limit %-4s reg hits %6.1f %%  throttles %d  backup %d B  selected %d  "
    .. "SUR %d KB  CacheExt L1D %d KB",
    w, best_limit[w], acc > 0 and 100 * rh / acc or 0, r and r.stats and r.stats["policy.bundle.throttles"] or 0,
    r and r.stats and r.stats["policy.bundle.backup_bytes"] or 0,
    r and r.stats and r.stats["policy.bundle.selected_loads"] or 0, (256 * 1024 - peak) // 1024,
    (l1d_of[w] or 0) // 1024)
end
print(table.concat(lines, "\n"))
print()
print("csv:  " .. X.write_csv(res, out .. "/runs.csv", extra)) -- every run, normalized to the baseline
print("csv:  " .. X.write_csv(fig11, out .. "/fig11.csv", extra))
print("csv:  " .. X.write_csv(fig12, out .. "/fig12.csv", extra))
print("csv:  " .. X.write_csv(motiv, out .. "/motivation.csv", extra))
for _, f in ipairs { { fig11, "fig11", "Fig. 11: victim caching variants, IPC normalized to Best-SWL" },
                     { fig12, "fig12", "Fig. 12: Linebacker, PCAL, CERF and CacheExt, IPC normalized to Best-SWL" },
                     { motiv, "motivation", "Best-SWL and CacheExt, IPC normalized to the baseline" } } do
  for _, ext in ipairs { "svg", "png" } do
    local path, err = X.plot(f[1], out .. "/" .. f[2] .. "." .. ext, { title = f[3] })
    print(path and ("plot: " .. path) or ("plot: " .. err))
  end
end
