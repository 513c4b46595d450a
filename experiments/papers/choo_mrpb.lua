-- MRPB's undocumented choices, measured (docs/papers/choo.md, "MRPB"): the full set of experiments/papers/choo.lua
-- under the MRPB bundle with each choice changed (reordering only, no per-warp draining, a full miss queue
-- bypassing too, a queue per warp slot), IPC normalized to the baseline, geometric means over the 16 and over the
-- six IW kernels. Copy a full run's OUTDIR/results.db into OUTDIR first to reuse its Baseline and MRPB runs.
-- Usage: moonwarp experiments/papers/choo_mrpb.lua OUTDIR
local X = require "moonwarp.experiment"

local out = arg[1] or "out/choo_mrpb"
os.execute("mkdir -p '" .. out:gsub("'", "'\\''") .. "'")
local IW = { "polybench.atax", "polybench.bicg", "polybench.gesummv", "polybench.mvt", "polybench.syr2k",
  "polybench.syrk" }
local workloads = {}
for _, n in ipairs { "polybench.2dconv", "polybench.2mm", "polybench.atax", "polybench.bicg", "polybench.gesummv",
  "polybench.mvt", "polybench.syr2k", "polybench.syrk", "rodinia.backprop", "rodinia.bfs", "rodinia.hotspot",
  "rodinia.lud", "rodinia.nw", "rodinia.srad_v1", "rodinia.srad_v2", "rodinia.btree" } do
  local iw = false
  for _, m in ipairs(IW) do iw = iw or m == n end
  workloads[#workloads + 1] = { name = n, size = iw and "choo" or "default" }
end
local function P(name, ...) return { name = name, set = { ... } } end
local res = X.run {
  workloads = workloads, config = "experiments/configs/gtx480.yaml", seed = 1, metric = "gpu.ipc",
  baseline = "Baseline", store = out .. "/results.db", jobs = 1, classes = { IW = IW },
  policies = {
    P("Baseline", "policies.warp_scheduler=gto"),
    P("MRPB", "policies.bundle=mrpb"),
    P("MRPB-reorder-only", "policies.bundle=mrpb", "policies.bundle.bypass_on=none"),
    P("MRPB-oldest", "policies.bundle=mrpb", "policies.bundle.drain=oldest"),
    P("MRPB-any", "policies.bundle=mrpb", "policies.bundle.bypass_on=any"),
    P("MRPB-48", "policies.bundle=mrpb", "policies.bundle.slots=48"),
  },
}
print(X.table(res, { field = "norm", title = "MRPB's choices: IPC normalized to the baseline", format = "%.2f" }))
print("csv:  " .. X.write_csv(res, out .. "/mrpb.csv", { "l1d.miss_rate", "l1d.accesses", "l1d.bypasses",
  "sm.ldst_stall_line_alloc", "sm.ldst_stall_mshr", "sm.ldst_stall_miss_queue", "sm.active_cycles" }))
