-- Choo 2016 ("Reducing Cache Contention on GPUs"): Fig 4.x (contention-aware selective caching), Fig 5.x (LASC),
-- Fig 6.x (memory request scheduling), the L1D associativity sweep (2/4/8-way) and the warp-scheduler sweep
-- (GTO/LRR/Two-Level) on the GTX480 preset: IPC normalized to the baseline (GTO, 16 KB 4-way LRU, allocate-on-miss)
-- per benchmark with geometric means (CSV mean row GMEAN), printed tables, CSVs, SVG/PNG bar charts, plus the
-- baseline characterization (docs/papers/choo.md). Runs are kept in OUTDIR/results.db (a rerun continues).
-- Usage: moonwarp experiments/papers/choo.lua OUTDIR [quick|full] [JOBS]   (JOBS: parallel runs, default 2)
--   full:  the thesis's 16 benchmarks: the six IW-contended PolyBench kernels (atax bicg gesummv mvt syr2k syrk)
--          at size `choo` (the thesis's geometry, N = 4096 / 1024 / 2048 pitches, loops and grid shortened: see
--          engine/workloads/wl_polybench.c), the others at `default`, to completion.
--   quick: atax, bicg, gesummv, syrk at `choo` over a fixed number of warp instructions (the baseline's first
--          1,000,000 core cycles of work), and backprop, bfs, hotspot
--          at `small` to completion: each headline's direction in a few minutes with 2 jobs.
local X = require "moonwarp.experiment"

local out, mode, jobs = arg[1] or "out/choo", arg[2] or "quick", math.tointeger(tonumber(arg[3] or "2"))
assert(mode == "quick" or mode == "full", "mode must be quick or full")
assert(jobs and jobs >= 1, "JOBS must be a whole number >= 1")
os.execute("mkdir -p '" .. out:gsub("'", "'\\''") .. "'")

local IW = { "polybench.atax", "polybench.bicg", "polybench.gesummv", "polybench.mvt", "polybench.syr2k",
  "polybench.syrk" }
local workloads = {}
if mode == "quick" then
  -- the same work for every scheme: the warp instructions the baseline issues in its first 1,000,000 core cycles
  -- (rounded down to 10,000; `moonwarp run --size choo --set sim.max_cycles=1000000`), not a cycle cap, under
  -- which a faster scheme's window would hold more of the kernel than the baseline's
  for n, insts in pairs { ["polybench.atax"] = 60000, ["polybench.bicg"] = 200000, ["polybench.gesummv"] = 50000,
                          ["polybench.syrk"] = 70000 } do
    workloads[#workloads + 1] = { name = n, size = "choo", max_warp_insts = insts }
  end
  table.sort(workloads, function(a, b) return a.name < b.name end)
  for _, n in ipairs { "rodinia.backprop", "rodinia.bfs", "rodinia.hotspot" } do
    workloads[#workloads + 1] = { name = n, size = "small" }
  end
else
  for _, n in ipairs { "polybench.2dconv", "polybench.2mm", "polybench.atax", "polybench.bicg", "polybench.gesummv",
    "polybench.mvt", "polybench.syr2k", "polybench.syrk", "rodinia.backprop", "rodinia.bfs", "rodinia.hotspot",
    "rodinia.lud", "rodinia.nw", "rodinia.srad_v1", "rodinia.srad_v2", "rodinia.btree" } do
    local iw = false
    for _, m in ipairs(IW) do iw = iw or m == n end
    workloads[#workloads + 1] = { name = n, size = iw and "choo" or "default" }
  end
end

local function P(name, ...) return { name = name, set = { ... } } end
local base = P("Baseline", "policies.warp_scheduler=gto")
local pol = {
  Baseline = base,
  ["Assoc-32"] = P("Assoc-32", "l1d.assoc=32"),
  BypassAll = P("BypassAll", "policies.l1d_bypass=all"),
  IndSelCaching = P("IndSelCaching", "policies.l1d_bypass=indsel"),
  LocSelCaching = P("LocSelCaching", "policies.bundle=locsel"),
  IndXor = P("IndXor", "l1d.index=xor"),
  -- MRPB's published drain and bypass trigger spelled out: a run's store key sees the parameters set, not the
  -- defaults, so a store made before the defaults changed would otherwise hand back the earlier reading's runs
  MRPB = P("MRPB", "policies.bundle=mrpb", "policies.bundle.drain=fixed", "policies.bundle.bypass_on=line"),
  ["LASC1.0"] = P("LASC1.0", "policies.l1d_bypass=lasc", "policies.l1d_bypass.bits=multi", "policies.l1d_bypass.th=1.0"),
  ["LASC1.5"] = P("LASC1.5", "policies.l1d_bypass=lasc", "policies.l1d_bypass.bits=multi", "policies.l1d_bypass.th=1.5"),
  ["LASC1.0+SelCaching"] = P("LASC1.0+SelCaching", "policies.l1d_bypass=lasc", "policies.l1d_bypass.sel=true"),
  ["MemSched-FIXED"] = P("MemSched-FIXED", "policies.ldst_scheduler=memsched", "policies.ldst_scheduler.order=fixed"),
  ["MemSched-RR"] = P("MemSched-RR", "policies.ldst_scheduler=memsched", "policies.ldst_scheduler.order=rr"),
  ["MemSched-GRR"] = P("MemSched-GRR", "policies.ldst_scheduler=memsched"),
  ["MemSched+SelCaching"] = P("MemSched+SelCaching", "policies.ldst_scheduler=memsched", "policies.bundle=locsel"),
}
local function list(names)
  local l = {}
  for _, n in ipairs(names) do l[#l + 1] = pol[n] end
  return l
end

local extra = { "l1d.miss_rate", "l1d.accesses", "l1d.gpgpusim_accesses", "l1d.bypasses", "l1d.evictions",
  "l1d.evict_reuse0", "l1d.victim_iw", "l1d.victim_iw_coincident", "l1d.victim_xw", "l1d.victim_xb",
  "l1d.line_alloc_fail", "l1d.mshr_fail", "l1d.miss_queue_fail", "l1d.gpgpusim_misses", "l1d.gpgpusim_pending_hits",
  "sm.ldst_stall_line_alloc", "sm.ldst_stall_mshr", "sm.ldst_stall_miss_queue", "sm.mem_lanes", "sm.coalesced_reqs",
  "sm.active_cycles", "sm.ldst_busy", "sm.ldst_wait_warps" }

local function figure(tag, title, names, configs, baseline)
  local res = X.run {
    workloads = workloads, policies = list(names), configs = configs,
    config = "experiments/configs/gtx480.yaml", seed = 1, metric = "gpu.ipc", baseline = baseline or "Baseline",
    store = out .. "/results.db", jobs = jobs, classes = { IW = IW },
  }
  print(X.table(res, { field = "norm", title = title, format = "%.2f" }))
  print("csv:  " .. X.write_csv(res, out .. "/" .. tag .. ".csv", extra))
  for _, ext in ipairs { "svg", "png" } do
    local path, err = X.plot(res, out .. "/" .. tag .. "." .. ext, { title = title })
    print(path and ("plot: " .. path) or ("plot: " .. err))
  end
  print()
  return res
end

local fig4 = figure("fig4", "Fig 4.x: IPC normalized to the baseline (GTO, 16 KB 4-way)",
  { "Baseline", "Assoc-32", "BypassAll", "IndSelCaching", "LocSelCaching", "IndXor", "MRPB" })

-- The baseline characterization (thesis §2.5.3, §3.2, §3.3) from the same runs' counters, per benchmark and as
-- the mean over the benchmarks: L1D hit rate (loads; and with GPGPU-Sim's accounting, gsim-hit%: pending hits
-- count as hits, stores included), the share of replacing misses whose victim the same warp allocated
-- (IW) and the part of those whose victim the same dynamic load allocated (IWcoin: coincident), evicted lines
-- never hit (Reuse0), LDST resource-stall cycles per thousand SM-active cycles and the share of them for want of
-- a line (LineAllocFail), the coalescing degree (active lanes per L1D request), the warps ready but for the
-- LDST unit per cycle it is busy (ldst-wait: both schedulers' counts added) and LocSelCaching's and BypassAll's
-- cut in L1D accesses (stores included, GPGPU-Sim's count).
local function characterization(res)
  local by = {}
  for _, r in ipairs(res.rows) do
    by[r.workload] = by[r.workload] or {}
    by[r.workload][r.policy] = r.stats
  end
  local cols = { "hit%", "gsim-hit%", "IW%", "IWcoin%", "XW%", "XB%", "Reuse0%", "stall/kc", "LAF%", "coal",
    "ldst-wait", "LocSel-acc%", "BypAll-acc%" }
  local lines, sum, cnt, n = {}, {}, {}, 0
  local function pct(a, b) return (b and b > 0) and 100 * a / b or 0 / 0 end
  for _, w in ipairs(workloads) do
    local b, l, a = by[w.name] and by[w.name].Baseline, by[w.name] and by[w.name].LocSelCaching,
      by[w.name] and by[w.name].BypassAll
    if b then
      local acc = b["l1d.accesses"]
      local vic = b["l1d.victim_iw"] + b["l1d.victim_xw"] + b["l1d.victim_xb"]
      local stall = b["sm.ldst_stall_line_alloc"] + b["sm.ldst_stall_mshr"] + b["sm.ldst_stall_miss_queue"]
      local gacc = b["l1d.gpgpusim_accesses"]
      local v = { pct(acc - b["l1d.misses"], acc), pct(gacc - b["l1d.gpgpusim_misses"], gacc),
        pct(b["l1d.victim_iw"], vic),
        b["l1d.victim_iw_coincident"] and pct(b["l1d.victim_iw_coincident"], b["l1d.victim_iw"]) or 0 / 0,
        pct(b["l1d.victim_xw"], vic),
        pct(b["l1d.victim_xb"], vic), pct(b["l1d.evict_reuse0"], b["l1d.evictions"]),
        1000 * stall / b["sm.active_cycles"], pct(b["sm.ldst_stall_line_alloc"], stall),
        b["sm.mem_lanes"] / b["sm.coalesced_reqs"],
        b["sm.ldst_wait_warps"] and b["sm.ldst_wait_warps"] / b["sm.ldst_busy"] or 0 / 0,
        l and 100 - pct(l["l1d.gpgpusim_accesses"], b["l1d.gpgpusim_accesses"]) or 0 / 0,
        a and 100 - pct(a["l1d.gpgpusim_accesses"], b["l1d.gpgpusim_accesses"]) or 0 / 0 }
      n = n + 1
      local t = { ("%-20s"):format(w.name) }
      for i, x in ipairs(v) do
        t[#t + 1] = ("%9.1f"):format(x)
        if x == x then sum[i], cnt[i] = (sum[i] or 0) + x, (cnt[i] or 0) + 1 end
      end
      lines[#lines + 1] = table.concat(t, " ")
    end
  end
  local head = { ("%-20s"):format("benchmark") }
  for _, c in ipairs(cols) do head[#head + 1] = ("%9s"):format(c) end
  local mean = { ("%-20s"):format("MEAN") }
  -- over the benchmarks where the value is defined (a stat missing from stored runs: nan)
  for i = 1, #cols do mean[#mean + 1] = ("%9.1f"):format(cnt[i] and sum[i] / cnt[i] or 0 / 0) end
  return "Baseline characterization (GTO, 16 KB 4-way; stall/kc = LDST stall cycles per 1000 SM cycles)\n" ..
    table.concat(head, " ") .. "\n" .. table.concat(lines, "\n") .. "\n" .. table.concat(mean, " ")
end
local ctext = characterization(fig4)
print(ctext)
local fh = assert(io.open(out .. "/characterization.txt", "w"))
fh:write(ctext, "\n")
fh:close()
print()
figure("fig5", "Fig 5.x: LASC, IPC normalized to the baseline",
  { "Baseline", "LASC1.0", "LASC1.5", "LASC1.0+SelCaching", "MRPB" })
figure("fig6", "Fig 6.x: memory request scheduling, IPC normalized to the baseline",
  { "Baseline", "MemSched-FIXED", "MemSched-RR", "MemSched-GRR", "MemSched+SelCaching", "MRPB" })
-- the associativity sweep: each proposal normalized to the baseline of the same associativity
for _, a in ipairs { 2, 4, 8 } do
  figure("assoc" .. a, ("L1D %d-way (16 KB): IPC normalized to the %d-way baseline"):format(a, a),
    { "Baseline", "LocSelCaching", "LASC1.0+SelCaching", "MemSched+SelCaching" },
    { { name = a .. "-way", l1d = { assoc = a } } })
end
-- the scheduler sweep: each proposal under LRR and Two-Level, normalized to that scheduler's baseline
for _, w in ipairs { "gto", "lrr", "two_level" } do
  local names = { "Baseline", "LocSelCaching", "LASC1.0+SelCaching", "MemSched+SelCaching" }
  local l = {}
  for _, n in ipairs(names) do
    local p = { name = n, set = { "policies.warp_scheduler=" .. w } }
    for _, s in ipairs(pol[n].set) do if not s:match("^policies.warp_scheduler") then p.set[#p.set + 1] = s end end
    l[#l + 1] = p
  end
  for _, p in ipairs(l) do pol["sched-" .. w .. "-" .. p.name] = p end
  local res = X.run {
    workloads = workloads, policies = l, config = "experiments/configs/gtx480.yaml", seed = 1, metric = "gpu.ipc",
    baseline = "Baseline", store = out .. "/results.db", jobs = jobs, classes = { IW = IW },
  }
  local title = ("scheduler %s: IPC normalized to the %s baseline"):format(w, w)
  print(X.table(res, { field = "norm", title = title, format = "%.2f" }))
  print("csv:  " .. X.write_csv(res, out .. "/sched_" .. w .. ".csv", extra))
  for _, ext in ipairs { "svg", "png" } do
    local path, err = X.plot(res, out .. "/sched_" .. w .. "." .. ext, { title = title })
    print(path and ("plot: " .. path) or ("plot: " .. err))
  end
  print()
end
