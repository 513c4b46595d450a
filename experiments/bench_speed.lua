-- Simulation speed (a benchmark, not a test): runs the benchmark table's workloads (every built-in model but the
-- micro-kernels) and the shared Accel-Sim traces through the moonwarp binary, each in its own process, and prints
-- per run the simulated cycles, warp instructions, events (warp instructions + L1D accesses, stores included +
-- L2 accesses + DRAM reads and writes), the process's CPU time (start-up included), ns per event, simulated cycles
-- and warp instructions per CPU second. With --baseline BIN it runs that binary too, alternating with this one in
-- one batch, and prints the ratio of the medians (baseline CPU / this CPU: above 1 = this one is faster) and
-- whether the two agree on every counter they share.
-- Usage: moonwarp experiments/bench_speed.lua [--bin BIN] [--baseline BIN] [--runs N] [--size S]
--                                             [--only a,b,...] [--traces DIR] [--csv FILE]
--   --bin: the binary to measure (default build/moonwarp); --runs: runs per binary (default 3, medians);
--   --size: the models' size (default "default", the benchmark table's; "small" runs the whole set in a minute);
--   --only: workload names (or trace folder names) to run; --traces: the Accel-Sim traces (default ../shared/traces).
local X = require "moonwarp.experiment"

local opt = { bin = "build/moonwarp", runs = 3, size = "default", traces = "../shared/traces", config =
  "experiments/configs/gtx480.yaml" }
local i = 1
while i <= #arg do
  local k, v = arg[i]:match("^%-%-([%w_]+)$"), arg[i + 1]
  if not k or not v then error("bench_speed: bad argument '" .. tostring(arg[i]) .. "' (see the usage at the top)", 0) end
  opt[k] = v
  i = i + 2
end
opt.runs = math.tointeger(tonumber(opt.runs)) or error("bench_speed: --runs must be an integer", 0)

local function sh_quote(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

-- Run one binary on one workload; returns its stats table and the CPU seconds of the process (user + system,
-- start-up included): the run's own "cpu_s" when the binary reports it, else the shell's `times` (10 ms ticks).
local tmp = os.tmpname()
os.remove(tmp)
assert(os.execute("mkdir -p " .. sh_quote(tmp)))
local function run(bin, wl)
  local out = tmp .. "/r"
  local args = { sh_quote(bin), "run", "--config", sh_quote(opt.config), "--quiet", "--out", sh_quote(out) }
  if wl.trace then
    args[#args + 1] = "--trace " .. sh_quote(wl.trace)
  else
    args[#args + 1] = "--workload " .. sh_quote(wl.name) .. " --size " .. sh_quote(opt.size)
  end
  local cmd = table.concat(args, " ")
  -- `times` prints the shell's and then its children's user and system times: the second line is the run's
  local p = assert(io.popen("sh -c " .. sh_quote(cmd .. " >/dev/null 2>" .. tmp .. "/err || echo FAILED; times")))
  local text = p:read("a")
  p:close()
  if text:find("FAILED") then
    local f = io.open(tmp .. "/err")
    error("bench_speed: " .. wl.label .. " failed: " .. (f and f:read("a") or "?"), 0)
  end
  local lines = {}
  for l in text:gmatch("[^\n]+") do lines[#lines + 1] = l end
  local function secs(m, s) return tonumber(m) * 60 + tonumber(s) end
  local um, us, sm, ss = lines[#lines]:match("(%d+)m([%d.]+)s%s+(%d+)m([%d.]+)s")
  local cpu = secs(um, us) + secs(sm, ss)
  local f = assert(io.open(out .. "/stats.json"))
  local json = f:read("a")
  f:close()
  local st = {}
  for k, v in json:gmatch('"([%w_.]+)":%s*([-%d.eE+]+)') do st[k] = tonumber(v) end
  return st, st.cpu_s or cpu, st.cpu_s ~= nil
end

local function events(st)
  return (st["gpu.warp_insts"] or 0) + (st["l1d.gpgpusim_accesses"] or st["l1d.accesses"] or 0) +
      (st["l2.accesses"] or 0) + (st["dram.reads"] or 0) + (st["dram.writes"] or 0)
end

-- the workloads: the table's models, then the traces
local only
if opt.only then
  only = {}
  for n in opt.only:gmatch("[^,]+") do only[n] = true end
end
local wls = {}
local p = assert(io.popen(sh_quote(opt.bin) .. " list-workloads"))
for l in p:lines() do
  local n = l:match("^(%S+)%s")
  if n and n:find("%.") and not n:find("^micro%.") and n ~= "kernels:" and (not only or only[n]) then
    wls[#wls + 1] = { name = n, label = n }
  end
end
p:close()
p = io.popen("ls " .. sh_quote(opt.traces) .. " 2>/dev/null")
for d in p:lines() do
  if not only or only[d] then
    local t = opt.traces .. "/" .. d .. "/kernelslist.g"
    local f = io.open(t)
    if f then
      f:close()
      wls[#wls + 1] = { trace = t, label = "trace." .. d }
    end
  end
end
p:close()
if #wls == 0 then error("bench_speed: no workload selected", 0) end

local bins = { { name = "this", path = opt.bin } }
if opt.baseline then bins[2] = { name = "baseline", path = opt.baseline } end
io.stderr:write(string.format("bench_speed: %d workloads x %d binaries x %d runs, size %s\n", #wls, #bins, opt.runs,
  opt.size))

local rows, csv = {}, { "workload,binary,run,cycles,warp_insts,events,cpu_s,ns_per_event,cycles_per_s,warp_insts_per_s" }
print(string.format("%-28s %-8s %3s %12s %11s %11s %8s %8s %12s %12s", "workload", "binary", "run", "cycles",
  "warp insts", "events", "CPU s", "ns/event", "cycles/s", "winsts/s"))
for _, wl in ipairs(wls) do
  local cpus, stats = {}, {}
  for r = 1, opt.runs do
    for _, b in ipairs(bins) do -- alternating, so that load changes hit both alike
      local st, cpu, own = run(b.path, wl)
      if not own then b.ticks = true end
      local ev = events(st)
      cpus[b.name] = cpus[b.name] or {}
      table.insert(cpus[b.name], cpu)
      stats[b.name] = st
      local ns = ev > 0 and cpu * 1e9 / ev or 0
      print(string.format("%-28s %-8s %3d %12d %11d %11d %8.3f %8.0f %12.0f %12.0f", wl.label, b.name, r,
        st["gpu.cycles"], st["gpu.warp_insts"], ev, cpu, ns, st["gpu.cycles"] / math.max(cpu, 1e-9),
        st["gpu.warp_insts"] / math.max(cpu, 1e-9)))
      csv[#csv + 1] = string.format("%s,%s,%d,%d,%d,%d,%.4f,%.1f,%.0f,%.0f", wl.label, b.name, r, st["gpu.cycles"],
        st["gpu.warp_insts"], ev, cpu, ns, st["gpu.cycles"] / math.max(cpu, 1e-9), st["gpu.warp_insts"] /
        math.max(cpu, 1e-9))
    end
  end
  local row = { label = wl.label, events = events(stats.this), cpu = X.median(cpus.this) }
  row.ns = row.events > 0 and row.cpu * 1e9 / row.events or 0
  if opt.baseline then
    row.base_cpu = X.median(cpus.baseline)
    row.ratio = row.base_cpu / row.cpu
    local same, n = true, 0
    for k, v in pairs(stats.baseline) do
      -- (sim.*: the engine's own effort, unit visits, which a speed change is meant to change)
      if stats.this[k] ~= nil and not k:find("_s$") and not k:find("_per_s$") and not k:find("^sim%.") then
        n = n + 1
        if stats.this[k] ~= v then same = false end
      end
    end
    row.same = same and n > 0
  end
  rows[#rows + 1] = row
end

print()
print(string.format("medians of %d runs (CPU time, start-up included)", opt.runs))
for _, b in ipairs(bins) do
  if b.ticks then print(string.format("note: %s reports no cpu_s: its CPU time is the shell's (10 ms ticks)", b.path)) end
end
if opt.baseline then
  print(string.format("%-28s %12s %8s %8s %10s %8s %s", "workload", "events", "CPU s", "ns/event", "base CPU s",
    "speed-up", "same stats"))
else
  print(string.format("%-28s %12s %8s %8s", "workload", "events", "CPU s", "ns/event"))
end
local nss, ratios = {}, {}
for _, r in ipairs(rows) do
  nss[#nss + 1] = r.ns
  if opt.baseline then
    ratios[#ratios + 1] = r.ratio
    print(string.format("%-28s %12d %8.3f %8.0f %10.3f %7.2fx %s", r.label, r.events, r.cpu, r.ns, r.base_cpu,
      r.ratio, r.same and "yes" or "NO"))
  else
    print(string.format("%-28s %12d %8.3f %8.0f", r.label, r.events, r.cpu, r.ns))
  end
end
print(string.format("median ns/event %.0f, max %.0f", X.median(nss), math.max(table.unpack(nss))))
if opt.baseline then print(string.format("geometric mean speed-up %.2fx", X.geomean(ratios))) end
if opt.csv then
  local f = assert(io.open(opt.csv .. ".tmp", "w"))
  f:write(table.concat(csv, "\n"), "\n")
  f:close()
  assert(os.rename(opt.csv .. ".tmp", opt.csv))
end
os.execute("rm -rf " .. sh_quote(tmp))
