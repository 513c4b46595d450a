-- Linebacker §2.3 (Figs. 2 and 3): per app, the per-SM reused working set of the top four non-streaming loads and the
-- part of it only one load uses (F2: above 48 KB in 13 of 20 apps, 85 % used by one load), and the per-SM streaming
-- data (F3: above 16 KB in 9 of 20 apps, above the 48 KB L1D in BI, LI, SR2, 2D and HS), measured on the baseline
-- run (bundle rfbanks: GTO, as in linebacker.lua) by experiments/papers/linebacker_ws_monitor.lua, which says what
-- each quantity is. Per app, the mean over its SM-windows (an SM's window in which it loaded something; a kernel's
-- last window is shorter) and the largest.
-- Usage: moonwarp experiments/papers/linebacker_ws.lua OUTDIR [quick|default] [S2,GE,...]
--   quick: size small; default: size default. The window is the paper's 50,000 cycles in both (the reuse window of
--   the definition, not a monitoring period); MW_WS_WINDOW, MW_WS_TOP, MW_WS_INF (shared|own), MW_WS_REUSE (any|top)
--   change the readings (linebacker_ws_monitor.lua's parameters).
-- Writes OUTDIR/ws.csv (per app) and OUTDIR/ws_loads.csv (per load PC).
local mw = require "moonwarp"

local out, mode = arg[1] or "out/linebacker-ws", arg[2] or "quick"
local sizes = { quick = "small", default = "default" }
assert(sizes[mode], "usage: linebacker_ws.lua OUTDIR [quick|default] [apps]")
local dir = arg[0]:match("^(.*)/[^/]*$") or "."
local params = { window = tonumber(os.getenv("MW_WS_WINDOW") or "") or 50000,
                 top = tonumber(os.getenv("MW_WS_TOP") or "") or 4,
                 inf_scope = os.getenv("MW_WS_INF") or "shared", reuse_by = os.getenv("MW_WS_REUSE") or "any" }

local apps = {
  { "S2", "polybench.syr2k" }, { "GE", "polybench.gesummv" }, { "BI", "polybench.bicg" }, { "KM", "rodinia.kmeans" },
  { "AT", "polybench.atax" }, { "S1", "polybench.syrk" }, { "MV", "polybench.mvt" }, { "CF", "rodinia.cfd" },
  { "PF", "rodinia.particlefilter" }, { "BG", "gpgpusim.bfs" },
  { "LI", "libor.libor" }, { "SR2", "rodinia.srad_v2" }, { "SP", "parboil.spmv" }, { "BR", "rodinia.bfs" },
  { "FD", "polybench.fdtd2d" }, { "GA", "rodinia.gaussian" }, { "2D", "polybench.2dconv" },
  { "SR1", "rodinia.srad_v1" }, { "HS", "rodinia.hotspot" },
}
local only
if arg[3] then
  only = {}
  local known = {}
  for _, a in ipairs(apps) do known[a[1]] = true end
  for l in arg[3]:gmatch("[^,]+") do
    assert(known[l], "unknown app " .. l .. " (S2 GE BI KM AT S1 MV CF PF BG LI SR2 SP BR FD GA 2D SR1 HS)")
    only[l] = true
  end
end
-- the paper's per-app facts: F3's apps whose streaming data exceeds the L1D
local paper_stream_over_l1 = { BI = true, LI = true, SR2 = true, ["2D"] = true, HS = true }

os.execute("mkdir -p '" .. out:gsub("'", "'\\''") .. "'")
local csv = assert(io.open(out .. "/ws.csv", "w"))
csv:write("workload,sm_windows,ws_kb_mean,ws_kb_max,ws_single_share,stream_kb_mean,stream_kb_max,lines_kb_mean," ..
          "loads,streaming_loads,paper_stream_over_l1,cycles,wall_s\n")
local lcsv = assert(io.open(out .. "/ws_loads.csv", "w"))
lcsv:write("workload,kernel,pc,accesses,inf_misses,sm_windows,streaming_windows,top_windows,ws_lines\n")

print(string.format("Linebacker §2.3 working sets, %s (size %s), %d-cycle windows, top %d, infinite cache %s, " ..
  "reuse by %s loads; experiments/configs/linebacker.yaml, baseline (GTO)", mode, sizes[mode], params.window,
  params.top, params.inf_scope, params.reuse_by))
print("  app   SM-win  reused WS of top loads (KB) mean / max  one-load share  streaming (KB) mean / max  " ..
      "loads (streaming)  paper: streaming > L1")
local res = {}
for _, a in ipairs(apps) do
  if not only or only[a[1]] then
    local t0 = os.time()
    local sim = mw.sim { config = "experiments/configs/linebacker.yaml", workload = a[2], size = sizes[mode],
                         seed = 1, set = { "policies.bundle=rfbanks" } }
    local p = { impl = "lua", script = dir .. "/linebacker_ws_monitor.lua" }
    for k, v in pairs(params) do p[k] = v end
    sim:policy("l1d_bypass", p)
    assert(sim:run() == true, a[1] .. ": run did not complete")
    local st, ex = sim:stats(), sim:policy("l1d_bypass")
    sim:close()
    local n, ws, wsmax, single, stream, smax, lines = 0, 0, 0, 0, 0, 0, 0
    for _, w in ipairs(ex.smwin) do
      n = n + 1
      ws, single, stream, lines = ws + w.ws_lines, single + w.ws_single, stream + w.stream_lines, lines + w.lines
      wsmax, smax = math.max(wsmax, w.ws_lines), math.max(smax, w.stream_lines)
    end
    local kb = function(l) return l * 128 / 1024 end
    local nl, ns = #ex.pcs, 0
    for _, r in ipairs(ex.pcs) do
      if r.stream_w * 2 > r.sw then ns = ns + 1 end
      lcsv:write(string.format("%s,%d,%d,%d,%d,%d,%d,%d,%d\n", a[1], r.kernel, r.off, r.acc, r.inf_miss, r.sw,
                               r.stream_w, r.top_w, r.ws_lines))
    end
    local r = { app = a[1], n = n, ws = n > 0 and kb(ws) / n or 0, wsmax = kb(wsmax),
                single = ws > 0 and single / ws or 0, stream = n > 0 and kb(stream) / n or 0, smax = kb(smax),
                lines = n > 0 and kb(lines) / n or 0, loads = nl, sloads = ns }
    res[#res + 1] = r
    local wall = os.time() - t0
    print(string.format("  %-4s %7d  %10.1f / %-8.1f  %12.1f %%  %10.1f / %-8.1f  %4d (%d)  %s", a[1], n, r.ws,
                        r.wsmax, 100 * r.single, r.stream, r.smax, nl, ns, paper_stream_over_l1[a[1]] and "yes" or ""))
    csv:write(string.format("%s,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%d,%d,%d,%d,%d\n", a[1], n, r.ws, r.wsmax, r.single,
                            r.stream, r.smax, r.lines, nl, ns, paper_stream_over_l1[a[1]] and 1 or 0,
                            st["gpu.cycles"], wall))
    csv:flush()
    lcsv:flush()
  end
end
csv:close()
lcsv:close()
-- F2 / F3 summaries
local n, ws48, share, nshare, s16, s48, list48 = #res, 0, 0, 0, 0, 0, {}
for _, r in ipairs(res) do
  if r.ws > 48 then ws48, share, nshare = ws48 + 1, share + r.single, nshare + 1 end
  if r.stream > 16 then s16 = s16 + 1 end
  if r.stream > 48 then s48 = s48 + 1; list48[#list48 + 1] = r.app end
end
local all_share, all_n = 0, 0
for _, r in ipairs(res) do if r.ws > 0 then all_share, all_n = all_share + r.single, all_n + 1 end end
print(string.format("F2: reused working set of the top %d loads above 48 KB in %d of %d apps (paper 13 of 20); used " ..
  "by one load %.1f %% (mean over those apps; over all apps %.1f %%) (paper 85 %%)", params.top, ws48, n,
  nshare > 0 and 100 * share / nshare or 0, all_n > 0 and 100 * all_share / all_n or 0))
print(string.format("F3: streaming data above 16 KB in %d of %d apps (paper 9 of 20); above 48 KB in %d: %s " ..
  "(paper BI, LI, SR2, 2D, HS)", s16, n, s48, #list48 > 0 and table.concat(list48, ", ") or "none"))
print("csv:  " .. out .. "/ws.csv, " .. out .. "/ws_loads.csv")
