-- Li 2015 (Y. Li, "Inter-core Locality Aware Memory Access Scheduling", MSc thesis, UBC; spec/001_li.md): the
-- benchmark classification (Fig 5.1 perfect-DRAM speed-up, Fig 5.2 L2 MSHR cycles with inter-core locality), the
-- MSHR-M / MSHR-S / MSHR-S+A DRAM schedulers against FR-FCFS (Figs 6.1-6.3 IPC per class with harmonic means,
-- 6.4-6.9 reservation fails, maximum and average latency, scoreboard stalls, row locality, bandwidth) and the
-- L2-to-DRAM latency (Fig 6.10) and read-queue (Fig 6.11) sweeps of MSHR-S+A, on experiments/configs/li.yaml.
-- The MSHR-* runs set l2.merge_info = mib: merge lengths and ages reach the controller as dummy requests through
-- the L2-to-DRAM pipe. Benchmarks are the 24 of Table 5.2 under moonwarp's names; a name this build does not know
-- is skipped with a note. Runs are kept in OUTDIR/results.db (a rerun continues), at most two at a time.
-- Usage: moonwarp experiments/papers/li.lua OUTDIR [quick|full] [SIZE]
--   quick: size small (lonestar.sp tiny); the sweeps at their end points (0 and 100 cycles; 16 and 128
--          entries) on the memory-sensitive classes.  full: size default; every sweep point (0-100 by 20; 16, 32, 64, 128).
local X = require "moonwarp.experiment"
local mw = require "moonwarp"

local out, mode = arg[1] or "out/li", arg[2] or "quick"
assert(mode == "quick" or mode == "full", "usage: li.lua OUTDIR [quick|full] [SIZE]")
local size = arg[3] or (mode == "quick" and "small" or "default") -- SIZE: another benchmark size for either mode
local CONFIG = "experiments/configs/li.yaml"

-- Table 5.2: abbreviation, the thesis's class (MI memory insensitive, LIL / HIL memory sensitive with low / high
-- inter-core locality), moonwarp's workload (nil: not modelled)
local TABLE = {
  { "BACKP", "MI", "rodinia.backprop" }, { "HOTSP", "MI", "rodinia.hotspot" }, { "HRTWL", "MI", "rodinia.heartwall" },
  { "KMN", "MI", "rodinia.kmeans" }, { "LKYT", "MI", "rodinia.leukocyte" }, { "LUD", "MI", "rodinia.lud" },
  { "NNC", "MI", "rodinia.nn" }, { "SRAD", "MI", "rodinia.srad_v2" }, { "SS", "MI", "mars.ss" },
  { "CONV", "MI", "sdk.convsep" }, { "HIS", "MI", "sdk.histogram" }, { "REDU", "MI", "sdk.reduction" },
  { "SCP", "MI", "sdk.scalarprod" },
  { "BS", "LIL", "sdk.blackscholes" }, { "CFD", "LIL", "rodinia.cfd" }, { "NDL", "LIL", "rodinia.nw" },
  { "STMCL", "LIL", "rodinia.streamcluster" }, { "PTA", "LIL", "lonestar.pta" }, { "VADD", "LIL", "sdk.vectoradd" },
  { "BFS", "HIL", "rodinia.bfs" }, { "SSSP", "HIL", "gpgpusim.sssp" }, { "TRANS", "HIL", "sdk.transpose" },
  { "MGST", "HIL", "rodinia.mergesort" }, { "SP", "HIL", "lonestar.sp" },
}

-- quick: lonestar.sp at size tiny (at small one run takes 25-30 s, every other benchmark 1-3 s)
local QUICK_SIZE = { ["lonestar.sp"] = "tiny" }
local function entry(name)
  local sz = mode == "quick" and not arg[3] and QUICK_SIZE[name]
  return sz and { name = name, size = sz } or name
end

local known = {}
for _, w in ipairs(mw.workloads()) do known[w.name] = true end
local all, sensitive, abbr, entries = {}, {}, {}, { MI = {}, LIL = {}, HIL = {} }
local classes = { { name = "MI" }, { name = "LIL" }, { name = "HIL" } }
local cls_of = { MI = classes[1], LIL = classes[2], HIL = classes[3] }
for _, b in ipairs(TABLE) do
  local a, c, name = b[1], b[2], b[3]
  if not name then
    print(string.format("note: %s (%s) is not modelled in moonwarp: skipped", a, c))
  elseif not known[name] then
    print(string.format("note: %s (%s) = %s is not in this build (list-workloads): skipped", a, c, name))
  else
    all[#all + 1] = entry(name)
    abbr[name] = a
    local cl = cls_of[c]
    cl[#cl + 1] = name
    table.insert(entries[c], entry(name))
    if c ~= "MI" then sensitive[#sensitive + 1] = entry(name) end
  end
end
local sens_classes = { classes[2], classes[3] }

local FR = { name = "FR-FCFS", dram_scheduler = "frfcfs" }
local PERFECT = { name = "Perfect", dram_scheduler = "frfcfs", set = { "dram.perfect=true" } }
local MIB = { "l2.merge_info=mib" }
local M = { name = "MSHR-M", dram_scheduler = "mshr_m", set = MIB }
local S = { name = "MSHR-S", dram_scheduler = "mshr_s", set = MIB }
local SA = { name = "MSHR-S+A", dram_scheduler = "mshr_sa", set = MIB }

os.execute("mkdir -p '" .. out:gsub("'", "'\\''") .. "'")
local base = { config = CONFIG, size = size, seed = 1, store = out .. "/results.db", jobs = 2, mean = "harmonic" }
local function run(spec)
  for k, v in pairs(base) do if spec[k] == nil then spec[k] = v end end
  return X.run(spec)
end

-- CSV in the demo's columns, then one row per mean (HMEAN, HMEAN-MI, HMEAN-LIL, HMEAN-HIL) and column:
-- workload = the mean's name, the metric column empty, normalized = the mean of the normalized values
-- (field "value": the mean of the values in the metric column).
local function csv(res, name, extra, field)
  local path = X.write_csv(res, out .. "/" .. name .. ".csv", extra)
  local m, cols, _, nb = X.matrix(res, field or "norm")
  local f = assert(io.open(path, "a"))
  for i = nb + 1, #m do
    for j, col in ipairs(cols) do
      local v = m[i][j + 1]
      local val, norm = "", ""
      if v then
        if (field or "norm") == "norm" then norm = string.format("%.6g", v) else val = string.format("%.6g", v) end
      end
      f:write(table.concat({ m[i][1], col.config, col.policy, val, norm, "", "", "", "", "" }, ","),
              string.rep(",", #(extra or {})), "\n")
    end
  end
  f:close()
  print("csv:  " .. path)
end
local function plot(res, name, opts)
  local m, _, _, nb = X.matrix(res, (opts or {}).field or "norm")
  local any = false
  for i = 1, nb do for j = 2, #m[i] do any = any or (m[i][j] and true) end end
  if not any then print("plot: " .. name .. ": no value to draw") return end
  for _, ext in ipairs { "svg", "png" } do
    local path, err = X.plot(res, out .. "/" .. name .. "." .. ext, opts)
    print(path and ("plot: " .. path) or ("plot: " .. err))
  end
end
local function show(res, title, field, fmt)
  print()
  print(X.table(res, { field = field or "norm", title = title, format = fmt or "%.3f" }))
end

if #all == 0 then
  print("no benchmark of Table 5.2 is available")
  return
end

-- ---- Fig 5.1 / 5.2: classification ----------------------------------------------------------------------------
local r51 = run { workloads = all, policies = { FR, PERFECT }, baseline = "FR-FCFS", classes = classes }
show(r51, "Fig 5.1: IPC with perfect DRAM / FR-FCFS (speed-up + 1)")
csv(r51, "fig5_1", { "dram.bw_util", "l2.icl_fraction" })
plot(r51, "fig5_1", { title = "Li Fig 5.1: IPC with perfect DRAM, normalized to FR-FCFS" })

local r52 = run { workloads = all, policies = { FR }, baseline = "FR-FCFS", metric = "l2.icl_fraction",
                  classes = classes }
show(r52, "Fig 5.2: fraction of L2 MSHR cycles with inter-core locality (Has ICL), FR-FCFS", "value", "%.4f")
csv(r52, "fig5_2", { "l2.mshr_idle_cycles", "l2.mshr_noicl_cycles", "l2.mshr_icl_cycles", "l2.mshr_merges",
                     "l2.merges_cross_sm" }, "value")
plot(r52, "fig5_2", { field = "value", title = "Li Fig 5.2: Has-ICL fraction of L2 MSHR cycles",
                      ylabel = "fraction of cycles" })

-- the classes as measured: memory sensitive when perfect DRAM speeds up by 20 % or more, HIL when more than 10 %
-- of the MSHR cycles have an entry with a merge length above 1
print()
print(string.format("%-6s %-22s %-6s %10s %10s %-6s", "abbr", "workload", "paper", "perfect", "Has-ICL", "ours"))
local function val(res, w, p)
  for _, r in ipairs(res.rows) do if r.workload == w and r.policy == p then return r end end
end
for _, b in ipairs(TABLE) do
  local name = b[3]
  if name and abbr[name] then
    local p, f = val(r51, name, "Perfect"), val(r51, name, "FR-FCFS")
    local sp = p and p.norm and (p.norm - 1) or nil
    local icl = f and f.stats["l2.icl_fraction"] or nil
    local ours = sp and icl and (sp < 0.20 and "MI" or (icl > 0.10 and "HIL" or "LIL")) or "?"
    print(string.format("%-6s %-22s %-6s %9.1f%% %9.2f%% %-6s", b[1], name, b[2], sp and sp * 100 or 0 / 0,
                        icl and icl * 100 or 0 / 0, ours))
  end
end

-- ---- Figs 6.1-6.9: the schedulers ------------------------------------------------------------------------------
local POL = { FR, M, S, SA }
local r6 = run { workloads = all, policies = POL, baseline = "FR-FCFS", classes = classes }
show(r6, "Figs 6.1-6.3: IPC normalized to FR-FCFS (harmonic means per class)")
csv(r6, "fig6_1_3", { "l2.icl_fraction", "dram.mib_dummies", "dram.mib_dropped" })
for i, c in ipairs { { "fig6_1", classes[3] }, { "fig6_2", classes[2] }, { "fig6_3", classes[1] } } do
  if #c[2] > 0 then
    local rc = run { workloads = entries[c[2].name], policies = POL, baseline = "FR-FCFS", classes = { c[2] }, quiet = true }
    plot(rc, c[1], { title = string.format("Li Fig 6.%d: IPC normalized to FR-FCFS, %s", i, c[2].name) })
  end
end

local FIGS = {
  { "fig6_4", "l2.reservation_fail", "Fig 6.4: L2 reservation fails, normalized to FR-FCFS",
    { "l2.resfail_line_reserved", "l2.resfail_miss_queue", "l2.resfail_mshr_full" } },
  { "fig6_5", "mem.max_load_latency", "Fig 6.5: maximum memory request latency, normalized to FR-FCFS" },
  { "fig6_6", "mem.avg_load_latency", "Fig 6.6: average memory request latency, normalized to FR-FCFS" },
  { "fig6_7", "sm.stall_scoreboard", "Fig 6.7: data-dependency (scoreboard) stalls, normalized to FR-FCFS" },
  { "fig6_8", "dram.row_locality", "Fig 6.8: row locality (requests per row opened)", nil, "value" },
  { "fig6_9", "dram.bw_util", "Fig 6.9: DRAM data-bus utilisation", nil, "value" },
}
for _, f in ipairs(FIGS) do
  local r = run { workloads = all, policies = POL, baseline = "FR-FCFS", metric = f[2], classes = classes,
                  quiet = true }
  show(r, f[3], f[5], f[5] and "%.3f" or nil)
  if f[4] then show(r, f[3] .. " (counts)", "value", "%.0f") end
  csv(r, f[1], f[4], f[5])
  plot(r, f[1], { field = f[5], title = "Li " .. f[3], ylabel = f[5] and f[2] or nil })
end

-- ---- Figs 6.10 / 6.11: the sweeps of MSHR-S+A on the memory-sensitive classes ------------------------------------
if #sensitive > 0 then
  local lats = mode == "quick" and { 0, 100 } or { 0, 20, 40, 60, 80, 100 }
  local cfg = {}
  for _, l in ipairs(lats) do cfg[#cfg + 1] = { name = "lat" .. l, dram = { latency = l } } end
  local r10 = run { workloads = sensitive, policies = { FR, SA }, configs = cfg, baseline = "FR-FCFS",
                    classes = sens_classes }
  show(r10, "Fig 6.10: MSHR-S+A IPC normalized to FR-FCFS at each L2-to-DRAM latency")
  csv(r10, "fig6_10", { "dram.mib_dummies", "dram.mib_dropped" })
  plot(r10, "fig6_10", { title = "Li Fig 6.10: MSHR-S+A / FR-FCFS by L2-to-DRAM latency" })

  local qs = mode == "quick" and { 16, 128 } or { 16, 32, 64, 128 }
  cfg = {}
  for _, q in ipairs(qs) do cfg[#cfg + 1] = { name = "rq" .. q, dram = { read_queue = q } } end
  local r11 = run { workloads = sensitive, policies = { FR, SA }, configs = cfg, baseline = "FR-FCFS",
                    classes = sens_classes }
  show(r11, "Fig 6.11: MSHR-S+A IPC normalized to FR-FCFS at each read-queue size")
  csv(r11, "fig6_11", { "dram.queue_full" })
  plot(r11, "fig6_11", { title = "Li Fig 6.11: MSHR-S+A / FR-FCFS by DRAM read-queue size" })
end
