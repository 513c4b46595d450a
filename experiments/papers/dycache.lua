-- DyCache (Guo et al., IEEE Access 2018) reproduced: Elastic-Cache-32/64 and DyCache-25/50/75 on the 19 Rodinia and
-- GraphBig models of Table 1, IPC normalized to the 128 B baseline (Fig. 8) with geometric means over all, the
-- regular and the irregular apps; L1D miss rates (Fig. 9); the same on a 48 KB L1D (Figs. 10-11); 5K and 10K
-- sampling windows against 1K (Fig. 12); and the access-pattern monitor's class of each app (Table 1 / Sec. V-A).
-- Every policy runs on the chunked L1D (l1d.organisation: chunked); the baseline there is the dycache monitor with
-- adapt = 0, which never leaves G = 128 (the line organisation's stats, tests/test_dycache.c) and reports the
-- fine-grain ratio and miss rate of every 1,000-request window of each SM.
-- Usage: moonwarp experiments/papers/dycache.lua OUTDIR [quick|full|ldbc] [JOBS]
--   quick: the models' small inputs, DyCache-75 left out of the 48 KB runs (about 5 minutes on two cores);
--   full:  the models' default inputs, every configuration;
--   ldbc:  the six GraphBig apps alone on the `ldbc` size (GraphBig's LDBC social graph, 1 M vertices), each run
--          stopped after LDBC_INSTS warp instructions (the same work for every configuration), CC measured over
--          its first hooking kernel (LDBC_KERNEL): Figs. 8-9 and the class table. All run the paper's geometry
--          (GTX480, 15 SMs, 16 KB 4-way and 48 KB 6-way L1D, GTO).
--   JOBS: simulations at once (default 2). A fourth argument `10-12` runs only Figs. 10-12 (no Figs. 8-9, no
--   class table).
-- Runs are kept in OUTDIR/results.db: a rerun continues where it stopped.
local X = require "moonwarp.experiment"

local out, mode = arg[1] or "out/dycache", arg[2] or "quick"
assert(mode == "quick" or mode == "full" or mode == "ldbc", "usage: dycache.lua OUTDIR [quick|full|ldbc] [JOBS]")
local size = mode == "quick" and "small" or mode == "ldbc" and "ldbc" or "default"
local jobs = tonumber(arg[3]) or 2
local only1012 = arg[4] == "10-12"
local LDBC_INSTS = 5000000 -- warp instructions per ldbc run (a whole TC or GC run at 1 M vertices takes hours)
-- CC's first 5 M are its initialize kernel (26.95 M warp instructions on ldbc): CC is measured over its second
-- kernel instead, the first hooking pass (18.3 M warp instructions, 36.8 M cycles at the baseline), whole.
local LDBC_KERNEL = { ["graph.cc"] = 2 }

-- Table 1: abbreviation, model, the paper's class (Sec. V-A)
local APPS = {
  { "BP", "rodinia.backprop", "regular" },        { "BT", "rodinia.btree", "regular" },
  { "BFS", "rodinia.bfs", "irregular" },          { "CFD", "rodinia.cfd", "irregular" },
  { "GE", "rodinia.gaussian", "regular" },        { "HW", "rodinia.heartwall", "regular" },
  { "HP", "rodinia.hotspot", "regular" },         { "KC", "rodinia.kmeans", "irregular" },
  { "LUD", "rodinia.lud", "regular" },            { "NW", "rodinia.nw", "regular" },
  { "PF", "rodinia.particlefilter", "irregular" },{ "SRAD", "rodinia.srad_v1", "regular" },
  { "SC", "rodinia.streamcluster", "irregular" }, { "BC", "graph.bc", "regular" },
  { "CC", "graph.cc", "irregular" },              { "DC", "graph.dc", "irregular" },
  { "GC", "graph.gc", "regular" },                { "SSSP", "graph.sssp", "irregular" },
  { "TC", "graph.tc", "irregular" },
}
local workloads, classes = {}, { regular = {}, irregular = {} }
for _, a in ipairs(APPS) do
  if mode ~= "ldbc" or a[2]:match("^graph%.") then
    local k = mode == "ldbc" and LDBC_KERNEL[a[2]] or nil
    workloads[#workloads + 1] = { name = a[2], label = a[1], size = size, kernel = k,
                                  max_warp_insts = mode == "ldbc" and not k and LDBC_INSTS or nil }
    table.insert(classes[a[3]], a[1])
  end
end

local function dycache(t, window) return { impl = "dycache", threshold = t, window = window or 1000 } end
local P = {
  base = { name = "Baseline", granularity = { impl = "dycache", adapt = 0 } },
  ec32 = { name = "Elastic-32", granularity = { impl = "elastic", granule = 32 } },
  ec64 = { name = "Elastic-64", granularity = { impl = "elastic", granule = 64 } },
  d25 = { name = "DyCache-25", granularity = dycache(25) },
  d50 = { name = "DyCache-50", granularity = dycache(50) },
  d75 = { name = "DyCache-75", granularity = dycache(75) },
  d50w5 = { name = "DyCache-50-5K", granularity = dycache(50, 5000) },
  d50w10 = { name = "DyCache-50-10K", granularity = dycache(50, 10000) },
}
local L16 = { name = "16KB", l1d = { organisation = "chunked" } }
local L48 = { name = "48KB", l1d = { organisation = "chunked", size_bytes = 49152, assoc = 6 } } -- 64 sets x 6 ways [I]
local EXTRA = { "l1d.miss_rate", "l1d.accesses", "l1d.misses", "l1d.chunk_partial_hits", "l1d.gran_switches",
                "l1d.gran_flushes", "l2.accesses", "policy.granularity.windows",
                "policy.granularity.fine_ratio_permille_sum", "policy.granularity.miss_rate_permille_sum",
                "policy.granularity.windows_at_32", "policy.granularity.windows_at_64" }

os.execute("mkdir -p '" .. out:gsub("'", "'\\''") .. "'")
local function run(policies, configs, baseline)
  return X.run { workloads = workloads, policies = policies, configs = configs, size = size, seed = 1,
                 config = "experiments/configs/gtx480.yaml", metric = "gpu.ipc", baseline = baseline,
                 classes = classes, store = out .. "/results.db", jobs = jobs, quiet = true }
end

-- The CSV of a figure: X.write_csv's columns (one line per run), then the mean rows (GMEAN, GMEAN-regular,
-- GMEAN-irregular) of `field` per policy and config, with that value in the `normalized` column (field "norm")
-- or the metric's column (field "value").
local function write_csv(res, path, field, extra)
  X.write_csv(res, path, extra)
  local m, cols, _, nbench = X.matrix(res, field)
  local f = assert(io.open(path, "a"))
  for r = nbench + 1, #m do
    for i, c in ipairs(cols) do
      local v = m[r][i + 1]
      local metric, norm = "", ""
      if v then
        if field == "norm" then norm = string.format("%.6g", v) else metric = string.format("%.6g", v) end
      end
      f:write(table.concat({ m[r][1], c.config, c.policy, metric, norm, "", "", "", "", "" }, ","),
              string.rep(",", #(extra or {})), "\n")
    end
  end
  f:close()
  return path
end
local function figure(res, stem, title, field, ylabel)
  print(X.table(res, { field = field, title = title, format = "%.3f" }))
  print("csv:  " .. write_csv(res, out .. "/" .. stem .. ".csv", field, EXTRA))
  for _, ext in ipairs { "svg", "png" } do
    local path, err = X.plot(res, out .. "/" .. stem .. "." .. ext, { title = title, field = field, ylabel = ylabel })
    print(path and ("plot: " .. path) or ("plot: " .. err))
  end
  print()
end
-- the same result with the metric replaced by another stat (miss rates)
local function with_metric(res, stat)
  local r = { rows = {}, workloads = res.workloads, policies = res.policies, configs = res.configs, metric = stat,
              baseline = res.baseline, mean = "geometric", classes = res.classes, failures = res.failures }
  for i, row in ipairs(res.rows) do
    local c = {}
    for k, v in pairs(row) do c[k] = v end
    c.value = row.stats[stat]
    r.rows[i] = c
  end
  return X.normalize(r, res.baseline)
end

local t0 = os.time()
-- Figs. 8 and 9: 16 KB
local r16
if not only1012 then
  r16 = run({ P.base, P.ec32, P.ec64, P.d25, P.d50, P.d75 }, { L16 }, "Baseline")
  figure(r16, "fig8_ipc", "DyCache Fig. 8: IPC normalized to the 128 B baseline (16 KB L1D)", "norm")
  figure(with_metric(r16, "l1d.miss_rate"), "fig9_missrate", "DyCache Fig. 9: L1D miss rate (16 KB)", "value",
         "L1D miss rate")
end

if mode ~= "ldbc" then
-- Figs. 10 and 11: 48 KB (baseline, DyCache-50, and in full DyCache-75), normalized to each size's own baseline; and the
-- 48 KB baseline against the 16 KB one
local r48 = run(mode == "quick" and { P.base, P.d50 } or { P.base, P.d50, P.d75 }, { L16, L48 }, "Baseline")
figure(r48, "fig10_ipc48", "DyCache Figs. 10-11: IPC normalized to the baseline of the same L1D size", "norm")
figure(with_metric(r48, "l1d.miss_rate"), "fig11_missrate48", "DyCache Fig. 11: L1D miss rate, 16 KB and 48 KB",
       "value", "L1D miss rate")
do
  local base16, base48, gain = {}, {}, {}
  for _, row in ipairs(r48.rows) do
    if row.policy == "Baseline" then
      if row.config == "16KB" then base16[row.workload] = row.value else base48[row.workload] = row.value end
    end
  end
  for _, w in ipairs(r48.workloads) do
    if base16[w] and base48[w] then gain[#gain + 1] = base48[w] / base16[w] end
  end
  print(string.format("48 KB baseline IPC / 16 KB baseline IPC, geometric mean over %d apps: %.3f", #gain,
                      X.geomean(gain)))
  print()
end

-- Fig. 12: 5K and 10K windows against 1K (T = 50)
local r12 = run({ P.d50, P.d50w5, P.d50w10 }, { L16 }, "DyCache-50")
figure(r12, "fig12_window", "DyCache Fig. 12: IPC with 5K / 10K windows normalized to the 1K window (T = 50)",
       "norm", "IPC / IPC(1K window)")
end

-- The access-pattern monitor's class of each app (Table 1): its two signals averaged over the baseline's windows,
-- irregular when both are at or past 50 % (DyCache's own rule at T = 50)
if r16 then
  local f = assert(io.open(out .. "/classes.csv", "w"))
  f:write("app,model,paper_class,windows,fine_ratio,window_miss_rate,l1d_miss_rate,our_class,agrees\n")
  print("The access-pattern monitor on the 128 B baseline (16 KB): mean of the per-window signals")
  print(string.format("%-5s %-24s %-9s %7s %6s %6s %6s %-9s", "app", "model", "paper", "windows", "fine", "miss",
                      "l1d", "ours"))
  local agree = 0
  for _, a in ipairs(APPS) do
    for _, row in ipairs(r16.rows) do
      if row.policy == "Baseline" and row.workload == a[1] then
        local st = row.stats
        local w = st["policy.granularity.windows"] or 0
        local fine = w > 0 and st["policy.granularity.fine_ratio_permille_sum"] / w / 1000 or 0
        local miss = w > 0 and st["policy.granularity.miss_rate_permille_sum"] / w / 1000 or 0
        local ours = (fine >= 0.5 and miss >= 0.5) and "irregular" or "regular"
        if ours == a[3] then agree = agree + 1 end
        print(string.format("%-5s %-24s %-9s %7d %6.2f %6.2f %6.2f %-9s%s", a[1], a[2], a[3], w, fine, miss,
                            st["l1d.miss_rate"] or 0, ours, ours == a[3] and "" or "  *"))
        f:write(string.format("%s,%s,%s,%d,%.4f,%.4f,%.4f,%s,%d\n", a[1], a[2], a[3], w, fine, miss,
                              st["l1d.miss_rate"] or 0, ours, ours == a[3] and 1 or 0))
      end
    end
  end
  f:close()
  print(string.format("%d of %d apps in the paper's class (* = not); csv: %s", agree, #workloads,
                      out .. "/classes.csv"))
end
print(string.format("dycache.lua %s: %d s", mode, os.time() - t0))
