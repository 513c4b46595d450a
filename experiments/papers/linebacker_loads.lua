-- Which loads Linebacker's Load Monitor leaves unselected, and what Victim Caching gains on them
-- (docs/papers/linebacker.md, "The set index and SVC against VC"). On the apps where VC is far above SVC (GE, BI, AT,
-- MV), runs SVC and VC with experiments/papers/linebacker_loads_monitor.lua watching beside the C bundle, and prints
-- per load (kernel, kernel-relative PC): its LM hit ratio in monitoring windows 1 and 2 summed over the SM-kernels
-- (L1D hits, VTT hits, misses merged into an MSHR, other misses), on how many SM-kernels it alone was above the
-- threshold, on how many its hashed LM entry ended selected, and its register hits under SVC and under VC.
-- Usage: moonwarp experiments/papers/linebacker_loads.lua OUTDIR [quick|default] [APP,APP,...] [index]
--   quick: size small with 5,000-cycle windows; default: size default with the paper's 50,000.
--   index: the L1D set index (linear, the preset's, by default; mask for GPGPU-Sim's).
local mw = require "moonwarp"

local out, mode = arg[1] or "out/linebacker-loads", arg[2] or "quick"
local sizes = { quick = "small", default = "default" }
assert(sizes[mode], "usage: linebacker_loads.lua OUTDIR [quick|default] [APP,APP,...] [index]")
local window = mode == "quick" and 5000 or 50000
local index = arg[4]
local dir = arg[0]:match("^(.*)/[^/]*$") or "."
local apps = { GE = "polybench.gesummv", BI = "polybench.bicg", AT = "polybench.atax", MV = "polybench.mvt" }
local order = {}
for a in (arg[3] or "GE,BI,AT,MV"):gmatch("[^,]+") do
  assert(apps[a], "unknown app " .. a .. " (GE, BI, AT, MV)")
  order[#order + 1] = a
end

local function run(app, variant)
  local set = { "policies.bundle=linebacker", "policies.bundle.variant=" .. variant,
                "policies.bundle.window=" .. window }
  if index then set[#set + 1] = "l1d.index=" .. index end
  local sim = mw.sim { config = "experiments/configs/linebacker.yaml", workload = apps[app], size = sizes[mode],
                       seed = 1, set = set }
  sim:policy("l1d_bypass", { impl = "lua", script = dir .. "/linebacker_loads_monitor.lua", window = window })
  assert(sim:run() == true, app .. " " .. variant .. ": run did not complete")
  local st, ex = sim:stats(), sim:policy("l1d_bypass")
  sim:close()
  local n = 0
  for _, c in pairs(ex.slots) do n = n + c end
  assert(variant ~= "svc" or n == st["policy.bundle.selected_loads"],
    string.format("%s %s: the monitor selected %d loads, the bundle %d",
    app, variant, n, st["policy.bundle.selected_loads"]))
  return st, ex
end

local function pct(a, b) return b > 0 and 100 * a / b or 0 end

os.execute("mkdir -p '" .. out:gsub("'", "'\\''") .. "'")
local csv = assert(io.open(out .. "/loads.csv", "w"))
csv:write("app,kernel,pc,slot,slot_pcs,w1_accesses,w1_l1d_hits,w1_vtt_hits,w1_merged,w1_ratio,w2_accesses,w2_ratio," ..
          "hl_w1,hl_w2,seen_w1,seen_w2,selected,accesses,svc_reg_hits,vc_w1_accesses,vc_w1_reg_hits,vc_w2_accesses," ..
          "vc_w2_reg_hits,vc_reg_hits\n")
local series = assert(io.open(out .. "/series.csv", "w"))
series:write("app,kernel,pc,window,svc_accesses,svc_lm_hits,vc_accesses,vc_lm_hits,vc_reg_hits\n")
for _, app in ipairs(order) do
  local sst, sx = run(app, "svc")
  local vst, vx = run(app, "vc")
  local vc = {}
  for _, r in ipairs(vx.pcs) do vc[r.kernel .. ":" .. r.off] = r end
  local per_slot = {}
  for _, r in ipairs(sx.pcs) do per_slot[r.kernel .. ":" .. r.slot] = (per_slot[r.kernel .. ":" .. r.slot] or 0) + 1 end
  print(string.format("%s (%s, %s, index %s): SVC %d loads selected, %d SM-kernels disabled, IPC %.2f; VC IPC %.2f",
    app, apps[app], sizes[mode], index or "linear", sst["policy.bundle.selected_loads"], sst["policy.bundle.disabled"],
    sst["gpu.ipc"], vst["gpu.ipc"]))
  print("  k  pc      slot(n)  SVC w1: acc   L1D%  VTT%  mrg%  ratio  w2: acc  ratio  >20% w1/w2 of SMs  sel  " ..
        " accesses  SVC reg%   VC reg% w1 / w2 / run")
  for _, r in ipairs(sx.pcs) do
    local v = vc[r.kernel .. ":" .. r.off] or { vhit = 0, acc = 0, w = { { vhit = 0 }, { vhit = 0 } } }
    local w1, w2 = r.w[1], r.w[2]
    local function n(w) return w.hit + w.vhit + w.vtt + w.merged + w.miss end
    local n1, n2, v1, v2 = n(w1), n(w2), n(v.w[1]), n(v.w[2])
    local ns = per_slot[r.kernel .. ":" .. r.slot]
    local sel = sx.slots[r.kernel .. ":" .. r.slot] or 0
    print(string.format("  %d  0x%04x  %2d(%d)  %13d  %5.1f %5.1f %5.1f  %5.1f  %8d  %5.1f  %3d/%-3d of " ..
      "%3d/%-3d  %3d" ..
      "  %9d  %7.1f  %7.1f %5.1f %5.1f", r.kernel, r.off, r.slot, ns, n1, pct(w1.hit, n1), pct(w1.vtt, n1),
      pct(w1.merged, n1), pct(w1.hit + w1.vtt, n1), n2, pct(w2.hit + w2.vtt, n2), r.hl[1], r.hl[2], r.seen[1],
      r.seen[2], sel, r.acc, pct(r.vhit, r.acc), pct(v.w[1].vhit, v1), pct(v.w[2].vhit, v2), pct(v.vhit, v.acc)))
    csv:write(string.format("%s,%d,%d,%d,%d,%d,%d,%d,%d,%.4f,%d,%.4f,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d\n", app,
      r.kernel, r.off, r.slot, ns, n1, w1.hit, w1.vtt, w1.merged, n1 > 0 and (w1.hit + w1.vtt) / n1 or 0, n2,
      n2 > 0 and (w2.hit + w2.vtt) / n2 or 0, r.hl[1], r.hl[2], r.seen[1], r.seen[2], sel, r.acc, r.vhit, v1,
      v.w[1].vhit, v2, v.w[2].vhit, v.vhit))
  end
  csv:flush()
  -- the loads that make up a tenth of the accesses or more: the LM's ratio had it monitored in window k (the shadow
  -- LM of the SVC run: L1D + VTT hits / accesses) and VC's register hits in window k
  local total = 0
  for _, r in ipairs(sx.pcs) do total = total + r.acc end
  for _, r in ipairs(sx.pcs) do
    local v = vc[r.kernel .. ":" .. r.off]
    if v and r.acc * 10 >= total then
      local first, line = nil, {}
      local nw = math.max(#r.series, #v.series)
      for k = 1, nw do
        local a, b = r.series[k] or { 0, 0, 0 }, v.series[k] or { 0, 0, 0 }
        series:write(string.format("%s,%d,%d,%d,%d,%d,%d,%d,%d\n", app, r.kernel, r.off, k, a[1], a[2], b[1], b[2],
                                   b[3]))
        if not first and a[1] > 0 and a[2] > 0.2 * a[1] then first = k end
      end
      for _, k in ipairs { 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128 } do
        if k <= nw then
          local a, b = r.series[k], v.series[k]
          line[#line + 1] = string.format("%d:%s/%s", k, a and string.format("%.0f", pct(a[2], a[1])) or "-",
                                          b and string.format("%.0f", pct(b[3], b[1])) or "-")
        end
      end
      print(string.format("  k%d 0x%04x over %d windows, SVC's LM ratio had it monitored / VC's register hits (%%) " ..
        "by window: %s; first window above 20 %%: %s", r.kernel, r.off, nw, table.concat(line, " "),
        first and tostring(first) or "none"))
      local sp = {}
      for _, k in ipairs { 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128 } do
        local a = sx.spread[r.kernel .. ":" .. k]
        if a and a[2] > 0 then sp[#sp + 1] = string.format("%d:%.0f", k, a[1] / a[2]) end
      end
      print("    SVC's warp spread (instructions, mean over SMs) at the end of window: " .. table.concat(sp, " "))
    end
  end
  series:flush()
end
csv:close()
series:close()
print("csv:  " .. out .. "/loads.csv, " .. out .. "/series.csv")
