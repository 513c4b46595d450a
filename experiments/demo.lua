-- The demo experiment: warp schedulers (GTO, LRR, Two-Level), L1D bypass-all and a Lua-defined policy on
-- benchmark models from the papers' suites (PolyBench/GPU, Rodinia, Parboil, GraphBig, Mars) on the GTX480
-- baseline, IPC normalized to GTO with geometric means, printed as a table, written as CSV and drawn as a bar
-- chart (SVG/PNG through gnuplot). Runs are kept in OUTDIR/results.db: rerunning after an interruption continues.
-- Usage: moonwarp experiments/demo.lua [outdir] [size] [micro]   (default out/demo small; "micro" = micro-kernels)
local X = require "moonwarp.experiment"

local out, size = arg[1] or "out/demo", arg[2] or "small"
local workloads = arg[3] == "micro" and { "micro.stream", "micro.colstride", "micro.reuse", "micro.compute" } or {
  "polybench.bicg", "polybench.syrk", "polybench.2dconv", "polybench.gemm", "rodinia.bfs", "rodinia.kmeans",
  "rodinia.srad_v2", "rodinia.backprop", "parboil.spmv", "graph.sssp", "mars.iix",
}

-- A policy prototyped in Lua: youngest ready warp first (the opposite of GTO's oldest).
local youngest = {
  name = "youngest",
  pick = function(m, sm, sched, ready, n)
    local best, best_age = 1, -1
    for i = 1, n do
      local a = m.warp_age(sm, ready[i])
      if a > best_age then best, best_age = i, a end
    end
    return best
  end,
}

os.execute("mkdir -p '" .. out:gsub("'", "'\\''") .. "'") -- the store's folder
local res = X.run {
  workloads = workloads,
  policies = {
    { name = "GTO", warp_scheduler = "gto" },
    { name = "LRR", warp_scheduler = "lrr" },
    { name = "Two-Level", warp_scheduler = "two_level" },
    { name = "bypass-all", l1d_bypass = "all" },
    { name = "youngest(Lua)", warp_scheduler = youngest },
  },
  size = size,
  seed = 1,
  metric = "gpu.ipc",
  baseline = "GTO",
  store = out .. "/results.db", -- a rerun after an interruption continues: stored runs are read back
}

X.print(res)
print()
print(X.table(res, { field = "value", title = "gpu.ipc (thread instructions per cycle)", format = "%.2f" }))
print()
print("csv:  " .. X.write_csv(res, out .. "/demo.csv", { "l1d.miss_rate", "dram.row_hit_rate" }))
for _, ext in ipairs { "svg", "png" } do
  local path, err = X.plot(res, out .. "/demo." .. ext, { title = "moonwarp demo: IPC normalized to GTO" })
  print(path and ("plot: " .. path) or ("plot: " .. err))
end
