-- MRPB's choices, measured (docs/papers/choo.md, "MRPB"): the full set of experiments/papers/choo.lua under the
-- MRPB bundle as published (fixed-priority drain over warp-ID queues, bypass on an associativity stall), as this
-- file first read it (drain=warp: keep draining the warp served last; bypass_on=alloc: a full MSHR table bypasses
-- too), each of the two changes alone, and each drain without bypassing; IPC normalized to the baseline,
-- geometric means over the 16 and over the six IW kernels. Copy a full run's OUTDIR/results.db into OUTDIR first
-- to reuse its Baseline runs (every MRPB variant names its parameters, so no stored run of another reading is
-- taken for it: the store key sees the parameters set, not the defaults).
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
    P("MRPB", "policies.bundle=mrpb", "policies.bundle.drain=fixed", "policies.bundle.bypass_on=line"),
    P("MRPB-earlier", "policies.bundle=mrpb", "policies.bundle.drain=warp", "policies.bundle.bypass_on=alloc"),
    P("MRPB-fixed-alloc", "policies.bundle=mrpb", "policies.bundle.drain=fixed", "policies.bundle.bypass_on=alloc"),
    P("MRPB-warp-line", "policies.bundle=mrpb", "policies.bundle.drain=warp", "policies.bundle.bypass_on=line"),
    P("MRPB-fixed-none", "policies.bundle=mrpb", "policies.bundle.drain=fixed", "policies.bundle.bypass_on=none"),
    P("MRPB-warp-none", "policies.bundle=mrpb", "policies.bundle.drain=warp", "policies.bundle.bypass_on=none"),
  },
}
print(X.table(res, { field = "norm", title = "MRPB's choices: IPC normalized to the baseline", format = "%.2f" }))
print("csv:  " .. X.write_csv(res, out .. "/mrpb.csv", { "l1d.miss_rate", "l1d.accesses", "l1d.bypasses",
  "sm.ldst_stall_line_alloc", "sm.ldst_stall_mshr", "sm.ldst_stall_miss_queue", "sm.active_cycles",
  "policy.l1d_bypass.stall_bypass" }))
