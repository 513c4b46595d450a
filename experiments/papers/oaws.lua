-- OAWS (B. Wang, Y. Zhu, W. Yu, "OAWS: Memory Occlusion Aware Warp Scheduling", PACT'16) reproduced on the OAWS
-- machine (experiments/configs/oaws.yaml, Table 1) with Table 2's 20 benchmarks mapped to the built-in models:
--   Fig 8   IPC of GTO, SWL-Best, CCWS, MASCAR, OAWS-Static, OAWS-Dyn normalized to GTO (GMEAN-divergent/-coherent)
--   Fig 10  fully cached divergent loads (no L1D miss; sm.ld_div_fully_cached / sm.ld_div)
--   Fig 12  static OAWS's SMR sweep, Fig 13 MSHRs 32/48/64/96, Fig 14 allocate-on-fill vs on-miss
--   motivation: LD/ST MSHR-stall share of cycles, scheduler slots stalled on LD/ST, fully cached loads (GTO)
-- Usage: moonwarp experiments/papers/oaws.lua OUTDIR [quick|default|full|swl-sweep] [LABEL,LABEL,...]
--   quick: small inputs (tiny for the four slowest models), SMR in 25 % steps; default: the default-size inputs, Fig 8,
--   Fig 10 and the motivation only (OAWS_FIGS=1: Fig 12-14 too, SMR in 25 % steps); full: the inputs in the
--   paper's 70 M - 1.5 G instruction range (FULL_PAPER below), every figure, SMR in 5 % steps; LABELs (ATAX,BICG,...) restrict the benchmarks; swl-sweep: the SWL limit sweep that finds each
--   benchmark's best limit (prints a table to paste into SWL_BEST). Runs are kept in OUTDIR/results.db: a rerun continues where it stopped.
--   OAWS_MASCAR_REXQ=instructions|accesses (default accesses) picks MASCAR's re-execution (policies/mascar.c rexq_mode).
local X = require "moonwarp.experiment"

local out, mode, only = arg[1] or "out/oaws", arg[2] or "quick", arg[3]
assert(mode == "quick" or mode == "default" or mode == "full" or mode == "swl-sweep",
       "mode: quick | default | full | swl-sweep")
os.execute("mkdir -p '" .. out:gsub("'", "'\\''") .. "'")
-- The preset names every field, the warp and LD/ST schedulers too (gto, inorder); a bundle that provides those
-- points (MASCAR) must not meet them configured, so the runs use a copy without those two lines (same machine).
local CONFIG = out .. "/oaws_machine.yaml"
do
  local src = assert(io.open("experiments/configs/oaws.yaml")):read("a")
  src = src:gsub("\n  warp_scheduler:[^\n]*", ""):gsub("\n  ldst_scheduler:[^\n]*", "")
  local f = assert(io.open(CONFIG, "w"))
  f:write(src)
  f:close()
end
local JOBS = tonumber(os.getenv("OAWS_JOBS") or "") or 2 -- OAWS_JOBS=1: one simulation at a time

-- Table 2: label, built-in model. SPMV is SHOC's CSR SpMV (shoc.spmv: the scalar then the vector kernel, as SHOC
-- runs them); Parboil's JDS model (parboil.spmv) stood in before it was built. PF is taken as Rodinia's
-- particlefilter (the paper does not expand it).
local DIVERGENT = {
  { "ATAX", "polybench.atax" }, { "BICG", "polybench.bicg" }, { "MVT", "polybench.mvt" },
  { "GES", "polybench.gesummv" }, { "SYRK", "polybench.syrk" }, { "SYR2K", "polybench.syr2k" },
  { "PF", "rodinia.particlefilter" }, { "BFS", "rodinia.bfs" }, { "SC", "rodinia.streamcluster" },
  { "KMN", "rodinia.kmeans" }, { "SPMV", "shoc.spmv" }, { "IIX", "mars.iix" },
}
local COHERENT = {
  { "3DC", "polybench.3dconv" }, { "2MM", "polybench.2mm" }, { "SRAD1", "rodinia.srad_v1" },
  { "SRAD2", "rodinia.srad_v2" }, { "BP", "rodinia.backprop" }, { "FD", "polybench.fdtd2d" },
  { "3MM", "polybench.3mm" }, { "LBM", "parboil.lbm" },
}
-- quick: the models that take 5-10 s at small size run at tiny
local QUICK_TINY = { PF = true, ["2MM"] = true, ["3MM"] = true, SRAD2 = true }
-- full: the paper's regime. Its benchmarks "execute between 70 million and 1.5 billion instructions" (Sec. 5;
-- GPGPU-Sim's count: thread instructions, moonwarp's gpu.thread_insts). Per benchmark the `paper` size (the
-- benchmark's own input) where its run lies in that range, else `default` (measured under GTO on this machine,
-- docs/papers/oaws.md "The full run's inputs"): paper ATAX/BICG/MVT 302 M, GES 268 M, BFS 153 M, SPMV 210 M,
-- IIX 322 M, 3DC 592 M (8 x default's 74 M), SRAD2 1.16 G, BP 113 M (= default); past 1.5 G at paper size: SYRK,
-- SYR2K, 2MM, 3MM, FD (PolyBench's N = 1024 / 2048 / 2048 / 512 / 2048), SRAD1, SC, LBM, KMN; PF's paper input is
-- 54 M. At default: SYRK 21 M, SYR2K 14 M and FD 42 M lie below the range, the others in it; those three take
-- the size `mid` (the smallest power-of-two N above default whose run lies in the range: 256, 256, 1024).
local FULL_PAPER = { ATAX = "paper", BICG = "paper", MVT = "paper", GES = "paper", BFS = "paper", SPMV = "paper",
                     IIX = "paper", ["3DC"] = "paper", SRAD2 = "paper", BP = "paper",
                     SYRK = "mid", SYR2K = "mid", FD = "mid" }

local ONLY
if only then
  ONLY = {}
  for l in only:gmatch("[^,]+") do ONLY[l] = true end
end
local function workloads(list)
  local ws = {}
  for _, b in ipairs(list) do
    local size = mode == "full" and (FULL_PAPER[b[1]] or "default") or mode == "default" and "default"
                 or (QUICK_TINY[b[1]] and "tiny" or "small")
    if not ONLY or ONLY[b[1]] then ws[#ws + 1] = { name = b[2], label = b[1], size = size } end
  end
  return ws
end
local ALL = workloads(DIVERGENT)
for _, w in ipairs(workloads(COHERENT)) do ALL[#ALL + 1] = w end
local CLASSES = { { name = "divergent" }, { name = "coherent" } }
local DIVSET = {}
for _, b in ipairs(DIVERGENT) do DIVSET[b[1]] = true end
for _, b in ipairs(DIVERGENT) do table.insert(CLASSES[1], b[1]) end
for _, b in ipairs(COHERENT) do table.insert(CLASSES[2], b[1]) end

-- SWL-Best: the paper's best limit per benchmark (Sec. 5, Table 3: per benchmark, not per kernel). PF, SC and the
-- coherent benchmarks are not listed: they run without a limit (48 = every warp of a scheduler).
local SWL_BEST = { ATAX = 2, BICG = 2, MVT = 2, GES = 1, SYRK = 2, SYR2K = 2, KMN = 4, BFS = 3, SPMV = 2, IIX = 4 }
local swl_params = {}
for label, n in pairs(SWL_BEST) do swl_params[label] = { warp_scheduler = { limit = n } } end

-- Load classes come from the engine's stats (sm.ld_div / sm.ld_coh: more than 2 / 1-2 coalesced requests, their
-- fully cached counts, the cycles their requests waited for an MSHR and their issue-to-data latency).
local function P(name, spec)
  spec.name = name
  return spec
end
local SCHEMES = {
  P("GTO", { warp_scheduler = "gto" }),
  P("SWL-Best", { warp_scheduler = "swl", params = swl_params }),
  P("CCWS", { warp_scheduler = { impl = "ccws", k_throttle = 8, base_score = 100 } }),
  -- OAWS_MASCAR_REXQ=instructions: MASCAR's re-execution as whole instructions taking turns (the earlier
  -- approximation) instead of its published per-access queue
  P("MASCAR", { bundle = { impl = "mascar", rexq_mode = os.getenv("OAWS_MASCAR_REXQ") or "accesses" } }),
  P("OAWS-Static", { warp_scheduler = "oaws" }),
  P("OAWS-Dyn", { warp_scheduler = "oaws_dyn" }),
}

local function run(spec)
  spec.config, spec.seed, spec.jobs, spec.store = CONFIG, 1, JOBS, out .. "/results.db"
  spec.baseline = spec.baseline or "GTO"
  return X.run(spec)
end

-- CSV in the demo's columns plus the class mean rows (workload GMEAN-divergent / GMEAN-coherent: the geometric
-- mean of the metric and of the normalized value over the class).
local function csv(res, path, extra)
  X.write_csv(res, path, extra)
  local f = assert(io.open(path, "a"))
  for _, cl in ipairs(res.classes or {}) do
    local members = {}
    for _, w in ipairs(cl) do members[w] = true end
    for _, cname in ipairs(res.configs) do
      for _, p in ipairs(res.policies) do
        local v, n = {}, {}
        for _, r in ipairs(res.rows) do
          if members[r.workload] and r.policy == p and r.config == cname then
            v[#v + 1], n[#n + 1] = r.value, r.norm
          end
        end
        local gv, gn = X.geomean(v), X.geomean(n)
        f:write(string.format("GMEAN-%s,%s,%s,%s,%s,,,,,\n", cl.name, cname, p, gv and string.format("%.6g", gv) or "",
                              gn and string.format("%.6g", gn) or ""))
      end
    end
  end
  f:close()
  print("csv:  " .. path)
end

local function plot(res, name, title, opts)
  for _, ext in ipairs { "svg", "png" } do
    local o = { title = title }
    for k, v in pairs(opts or {}) do o[k] = v end
    local path, err = X.plot(res, out .. "/" .. name .. "." .. ext, o)
    print(path and ("plot: " .. path) or ("plot: " .. err))
  end
end

local function renorm(res, base_policy, base_config)
  local base = {}
  for _, r in ipairs(res.rows) do
    if r.policy == base_policy and r.config == base_config then base[r.workload] = r.value end
  end
  for _, r in ipairs(res.rows) do
    local b = base[r.workload]
    r.norm = (b and b ~= 0 and r.value) and r.value / b or nil
  end
end

local t0 = os.time()

if mode == "swl-sweep" then
  -- Each divergent benchmark under SWL with limits 1..24 (per scheduler); the best IPC gives its SWL-Best limit.
  local limits = { 1, 2, 3, 4, 6, 8, 12, 16, 24 }
  local pols = {}
  for _, n in ipairs(limits) do pols[#pols + 1] = P("SWL-" .. n, { warp_scheduler = { impl = "swl", limit = n } }) end
  local res = run { workloads = workloads(DIVERGENT), policies = pols, baseline = "SWL-24" }
  X.print(res)
  csv(res, out .. "/swl_sweep.csv")
  print("\nbest SWL limit per benchmark (paste into SWL_BEST):")
  for _, w in ipairs(res.workloads) do
    local best, bv = nil, -1
    for _, r in ipairs(res.rows) do
      if r.workload == w and (r.value or -1) > bv then best, bv = r.policy:match("%d+"), r.value end
    end
    print(string.format("  %s = %s,", w, best))
  end
  return
end

-- ---- Fig 8 (and Fig 10 and the motivation numbers from the same runs) ----
local fig8 = run { workloads = ALL, policies = SCHEMES, classes = CLASSES }
print(X.table(fig8, { title = "Fig 8: IPC normalized to GTO (OAWS machine)", format = "%.3f" }))
csv(fig8, out .. "/fig8.csv", { "sm.ldst_stall_mshr", "sm.stall_ldst", "sm.active_cycles", "l1d.miss_rate",
                                "sm.ld_div", "sm.ld_div_fully_cached", "sm.ld_coh", "sm.ld_coh_fully_cached",
                                "sm.ld_div_mshr_wait", "sm.ld_div_latency", "sm.ld_coh_mshr_wait", "sm.ld_coh_latency",
                                "policy.warp_scheduler.held" })
plot(fig8, "fig8", "OAWS Fig 8: IPC normalized to GTO", { classes = CLASSES })

-- Fig 10: fully cached divergent loads (% of divergent loads) per scheme
local function frac(st, a, b)
  local d = st[b]
  return d and d > 0 and 100 * (st[a] or 0) / d or nil
end
local fig10 = { rows = {}, workloads = {}, policies = fig8.policies, configs = fig8.configs, metric = "fully_cached_div_pct",
                baseline = "GTO", mean = "geometric" }
for _, b in ipairs(DIVERGENT) do fig10.workloads[#fig10.workloads + 1] = b[1] end
for _, r in ipairs(fig8.rows) do
  if r.stats then
    local v = frac(r.stats, "sm.ld_div_fully_cached", "sm.ld_div")
    if v and DIVSET[r.workload] then
      fig10.rows[#fig10.rows + 1] = { workload = r.workload, policy = r.policy, config = r.config, value = v, norm = v,
                                      stats = {}, cycles = r.cycles, complete = r.complete }
    end
  end
end
print(X.table(fig10, { field = "value", title = "Fig 10: fully cached divergent loads (% of divergent loads)",
                       format = "%.1f" }))
X.write_csv(fig10, out .. "/fig10.csv")
plot(fig10, "fig10", "OAWS Fig 10: fully cached divergent loads (%)", { field = "value", ylabel = "% of divergent loads" })

-- Motivation (GTO): per benchmark and per class
local mot = assert(io.open(out .. "/motivation.csv", "w"))
mot:write("benchmark,class,ldst_mshr_pct,sched_stall_ldst_pct,div_fully_cached_pct,coh_fully_cached_pct," ..
          "div_occlusion_pct,coh_occlusion_pct,div_loads,coh_loads\n")
print("\nMotivation under GTO: LD/ST MSHR stall % of SM cycles, scheduler slots stalled on LD/ST %, fully cached " ..
      "loads %, occlusion % of load latency (cycles requests waited for an MSHR / issue-to-data cycles)")
print(string.format("%-7s %-9s %8s %8s %8s %8s %8s %8s", "bench", "class", "mshr%", "sched%", "divFC%", "cohFC%",
                    "divOcc%", "cohOcc%"))
local NV = 6
local acc = { divergent = {}, coherent = {} }
for i = 1, NV do acc.divergent[i], acc.coherent[i] = {}, {} end
for _, r in ipairs(fig8.rows) do
  if r.policy == "GTO" and r.stats and r.cycles then
    local st = r.stats
    local cl = DIVSET[r.workload] and "divergent" or "coherent"
    -- per SM cycle with work resident (small inputs leave most of the 30 SMs idle): the LD/ST unit's MSHR stalls,
    -- and scheduler slots (2 per SM cycle) whose ready warps waited for the LD/ST unit
    local act = st["sm.active_cycles"]
    local v = { 100 * st["sm.ldst_stall_mshr"] / act, 100 * st["sm.stall_ldst"] / (2 * act),
                frac(st, "sm.ld_div_fully_cached", "sm.ld_div"), frac(st, "sm.ld_coh_fully_cached", "sm.ld_coh"),
                frac(st, "sm.ld_div_mshr_wait", "sm.ld_div_latency"), frac(st, "sm.ld_coh_mshr_wait", "sm.ld_coh_latency") }
    for i = 1, NV do if v[i] then table.insert(acc[cl][i], v[i]) end end
    local function f(x) return x and string.format("%.1f", x) or "" end
    print(string.format("%-7s %-9s %8s %8s %8s %8s %8s %8s", r.workload, cl, f(v[1]), f(v[2]), f(v[3]), f(v[4]),
                        f(v[5]), f(v[6])))
    mot:write(string.format("%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", r.workload, cl, f(v[1]), f(v[2]), f(v[3]), f(v[4]),
                            f(v[5]), f(v[6]), st["sm.ld_div"] or 0, st["sm.ld_coh"] or 0))
  end
end
for _, cl in ipairs { "divergent", "coherent" } do
  local m = {}
  for i = 1, NV do
    local s, n = 0, 0
    for _, x in ipairs(acc[cl][i]) do s, n = s + x, n + 1 end
    m[i] = n > 0 and string.format("%.1f", s / n) or ""
  end
  print(string.format("%-7s %-9s %8s %8s %8s %8s %8s %8s", "MEAN", cl, m[1], m[2], m[3], m[4], m[5], m[6]))
  mot:write(string.format("MEAN-%s,%s,%s,%s,%s,%s,%s,%s,,\n", cl, cl, m[1], m[2], m[3], m[4], m[5], m[6]))
end
mot:close()
print("csv:  " .. out .. "/motivation.csv")

-- default stops here unless OAWS_FIGS=1 (Fig 12 on the chosen ones of its five, Fig 13 and 14 on the chosen labels)
if mode == "default" and os.getenv("OAWS_FIGS") ~= "1" then
  print(string.format("\noaws.lua %s: %d s wall", mode, os.time() - t0))
  return
end

-- ---- Fig 12: static OAWS's SMR sweep on five divergent benchmarks ----
local FIVE = {}
for _, w in ipairs(ALL) do
  if w.label == "ATAX" or w.label == "BICG" or w.label == "MVT" or w.label == "BFS" or w.label == "KMN" then
    FIVE[#FIVE + 1] = w
  end
end
local step = mode == "full" and 5 or 25
local smr_pols = { P("GTO", { warp_scheduler = "gto" }) }
for pct = 0, 100, step do
  smr_pols[#smr_pols + 1] = P(string.format("SMR-%d", pct), { warp_scheduler = { impl = "oaws", smr = pct / 100 } })
end
local fig12 = run { workloads = FIVE, policies = smr_pols }
print(X.table(fig12, { title = "Fig 12: static OAWS, SMR sweep (IPC normalized to GTO)", format = "%.3f" }))
csv(fig12, out .. "/fig12.csv")
plot(fig12, "fig12", "OAWS Fig 12: SMR sweep, IPC normalized to GTO")

-- ---- Fig 13: MSHRs 32 / 48 / 64 / 96, normalized to GTO at 32 ----
-- quick: the five benchmarks of Fig 12 (the divergent set takes the 5-minute budget twice over); full: all twelve
local DIVW = mode == "quick" and FIVE or workloads(DIVERGENT)
local mshr_cfgs = {}
for _, n in ipairs { 32, 48, 64, 96 } do mshr_cfgs[#mshr_cfgs + 1] = { name = tostring(n), l1d = { mshr_entries = n } } end
local fig13 = run { workloads = DIVW, configs = mshr_cfgs, classes = { CLASSES[1] },
                    policies = { SCHEMES[1], SCHEMES[5], SCHEMES[6] } }
renorm(fig13, "GTO", "32")
print(X.table(fig13, { title = "Fig 13: MSHR entries (IPC normalized to GTO at 32)", format = "%.3f" }))
csv(fig13, out .. "/fig13.csv")
plot(fig13, "fig13", "OAWS Fig 13: MSHRs, IPC normalized to GTO at 32 MSHRs")

-- ---- Fig 14: allocate-on-fill vs allocate-on-miss, normalized to GTO on-fill ----
local alloc_cfgs = { { name = "on_fill", l1d = { alloc = "on_fill" } }, { name = "on_miss", l1d = { alloc = "on_miss" } } }
local fig14 = run { workloads = DIVW, configs = alloc_cfgs, classes = { CLASSES[1] },
                    policies = { SCHEMES[1], SCHEMES[3], SCHEMES[5], SCHEMES[6] } }
renorm(fig14, "GTO", "on_fill")
print(X.table(fig14, { title = "Fig 14: allocate-on-fill vs on-miss (IPC normalized to GTO on-fill)", format = "%.3f" }))
csv(fig14, out .. "/fig14.csv")
plot(fig14, "fig14", "OAWS Fig 14: L1D allocation, IPC normalized to GTO on-fill")

print(string.format("\noaws.lua %s: %d s wall", mode, os.time() - t0))
