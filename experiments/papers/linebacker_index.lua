-- The set-index question of the Linebacker reproduction (docs/papers/linebacker.md): does hashing the L1D set index
-- change the Load Monitor's selection and Selective Victim Caching against Victim Caching, on the apps where VC is far
-- above SVC (GE, BI, AT, MV)? moonwarp's fermi_hash (GPGPU-Sim's "H") and xor need 32 or 64 (a power of two) sets, and
-- linebacker.yaml's 48 KB 8-way L1D has 48, so the comparison is made at 64 KB (64 sets) and 32 KB (32 sets), each
-- with the linear, fermi_hash and xor index, under the baseline, Victim Caching and SVC.
-- Usage: moonwarp experiments/papers/linebacker_index.lua OUTDIR [quick|default]
--   quick: size small with 5,000-cycle windows; default: size default with the paper's 50,000.
local X = require "moonwarp.experiment"

local out, mode = arg[1] or "out/linebacker-index", arg[2] or "quick"
local sizes = { quick = "small", default = "default" }
assert(sizes[mode], "usage: linebacker_index.lua OUTDIR [quick|default]")
local window = mode == "quick" and 5000 or 50000

local workloads = { { name = "polybench.gesummv", label = "GE" }, { name = "polybench.bicg", label = "BI" },
                    { name = "polybench.atax", label = "AT" }, { name = "polybench.mvt", label = "MV" } }
local lb = function(variant)
  return { "policies.bundle=linebacker", "policies.bundle.variant=" .. variant, "policies.bundle.window=" .. window }
end
local policies = { { name = "Baseline" }, { name = "VC", set = lb("vc") }, { name = "SVC", set = lb("svc") } }
local configs = {}
for _, kb in ipairs { 64, 32 } do
  for _, idx in ipairs { "linear", "fermi_hash", "xor" } do
    configs[#configs + 1] = { name = kb .. "K-" .. idx, l1d = { size_bytes = kb * 1024, index = idx } }
  end
end

os.execute("mkdir -p '" .. out:gsub("'", "'\\''") .. "'")
local res = X.run {
  workloads = workloads, policies = policies, configs = configs, config = "experiments/configs/linebacker.yaml",
  size = sizes[mode], seed = 1, metric = "gpu.ipc", baseline = "Baseline", store = out .. "/results.db",
  jobs = tonumber(os.getenv("MW_JOBS") or "") or 1,
}
X.normalize(res, "Baseline")
print(X.table(res, { title = "IPC normalized to the baseline with the same L1D and index" }))
print()
print("app  config          baseline miss  SVC selected  SVC reg hits/acc  VC reg hits/acc")
for _, c in ipairs(configs) do
  for _, w in ipairs(workloads) do
    local function r(p)
      for _, x in ipairs(res.rows) do
        if x.workload == w.label and x.policy == p and x.config == c.name then return x.stats or {} end
      end
      return {}
    end
    local b, s, v = r("Baseline"), r("SVC"), r("VC")
    local function rh(st) return (st["l1d.accesses"] or 0) > 0 and st["l1d.victim_hits"] / st["l1d.accesses"] or 0 end
    print(string.format("%-4s %-14s  %12.1f %%  %12d  %15.1f %%  %14.1f %%", w.label, c.name,
                        100 * (b["l1d.miss_rate"] or 0), s["policy.bundle.selected_loads"] or 0, 100 * rh(s),
                        100 * rh(v)))
  end
end
print("csv:  " .. X.write_csv(res, out .. "/index.csv", { "l1d.miss_rate", "l1d.victim_hits", "l1d.accesses",
                                                          "policy.bundle.selected_loads", "policy.bundle.disabled" }))
