-- The experiment library's options for paper experiments, against values worked out by hand: harmonic and
-- geometric means, means per class, measurement windows (warm-up + window, one kernel), the cycle cap and its
-- marks, per-workload policy parameters, CPU and wall time in rows and CSV.
local mw = require "moonwarp"
local X = require "moonwarp.experiment"
local out = arg[1] or "/tmp"

local function near(a, b) return math.abs(a - b) < 1e-12 * math.max(1, math.abs(b)) end

-- means: hmean {1, 2, 4} = 3 / (1 + 1/2 + 1/4) = 12/7; geomean = 2; non-positive values are left out
assert(near(X.hmean { 1, 2, 4 }, 12 / 7), X.hmean { 1, 2, 4 })
assert(near(X.geomean { 1, 2, 4 }, 2))
assert(near(X.mean({ 1, 2, 4, 0 }, "harmonic"), 12 / 7) and near(X.mean({ 1, 2, 4 }), 2))
assert(X.hmean {} == nil and not pcall(X.mean, { 1 }, "arithmetic"))
print("ok  means: hmean{1,2,4} = 12/7, geomean = 2")

-- class means on a hand-made result: a = 1, b = 4, c = 8 (one policy); c is capped
local res = { workloads = { "a", "b", "c" }, policies = { "P" }, configs = { "" }, metric = "gpu.ipc",
              baseline = "P", rows = {
                { workload = "a", policy = "P", config = "", norm = 1, value = 1 },
                { workload = "b", policy = "P", config = "", norm = 4, value = 4 },
                { workload = "c", policy = "P", config = "", norm = 8, value = 8, capped = true } } }
local classes = { div = { "a", "b" }, reg = { "c" } }
local m = X.matrix(res, "norm", { classes = classes })
assert(m[4][1] == "GMEAN" and near(m[4][2], 32 ^ (1 / 3)))          -- (1*4*8)^(1/3)
assert(m[5][1] == "GMEAN-div" and near(m[5][2], 2))                -- (1*4)^(1/2)
assert(m[6][1] == "GMEAN-reg" and near(m[6][2], 8))
m = X.matrix(res, "norm", { classes = classes, mean = "harmonic" })
assert(m[4][1] == "HMEAN" and near(m[4][2], 3 / (1 + 1 / 4 + 1 / 8)))  -- 24/11
assert(m[5][1] == "HMEAN-div" and near(m[5][2], 1.6))              -- 2 / (1 + 1/4)
local t = X.table(res, { classes = classes, mean = "harmonic" })
assert(t:find("\nc +8%.000%*\n"), t)                                -- the capped run
assert(t:find("\nHMEAN +2%.182%*\n"), t)                            -- averages a capped run
assert(t:find("\nHMEAN%-div +1%.600\n"), t)                         -- does not
assert(t:find("HMEAN%-reg +8%.000%*"), t)
assert(t:find("%* stopped at max_cycles"), t)
print("ok  class means: GMEAN 3.175, GMEAN-div 2, GMEAN-reg 8, HMEAN 24/11, HMEAN-div 1.6, capped marked *")

-- a warm-up of 2000 cycles then a window of 3000: the window's counters are the difference of two snapshots
local function snap(opts, steps)
  local sim, snaps = mw.sim(opts), {}
  for i, s in ipairs(steps) do
    sim:run(s)
    snaps[i] = sim:stats()
  end
  sim:close()
  return snaps
end
local opts = { workload = "micro.stream", size = "small", seed = 1 }
local s = snap(opts, { { cycles = 2000 }, { cycles = 3000 } })
local r = X.run { workloads = { "micro.stream" }, size = "small", seed = 1, warmup = 2000, window = 3000,
                  jobs = 0, quiet = true }
local w = r.rows[1].stats
assert(r.rows[1].status == "complete" and not r.rows[1].capped)
assert(w["gpu.cycles"] == 3000, w["gpu.cycles"])
for _, k in ipairs { "gpu.thread_insts", "gpu.warp_insts", "l1d.misses", "l1d.accesses", "dram.reads_done" } do
  assert(w[k] == s[2][k] - s[1][k], k)
end
assert(near(w["gpu.ipc"], (s[2]["gpu.thread_insts"] - s[1]["gpu.thread_insts"]) / 3000))
assert(near(w["l1d.miss_rate"], w["l1d.misses"] / w["l1d.accesses"]))
assert(r.rows[1].value == w["gpu.ipc"])
print(string.format("ok  warmup 2000 + window 3000: %d thread insts = %d - %d, ipc %.4f", w["gpu.thread_insts"],
                    s[2]["gpu.thread_insts"], s[1]["gpu.thread_insts"], w["gpu.ipc"]))

-- kernel = 2: the counters between the ends of the cycles that launched kernels 2 and 3
local k = snap({ workload = "rodinia.bfs", size = "small", seed = 1 }, { { until_kernel = 2 }, { until_kernel = 3 } })
assert(k[1]["gpu.kernels"] == 2 and k[2]["gpu.kernels"] == 3)
r = X.run { workloads = { "rodinia.bfs" }, size = "small", seed = 1, kernel = 2, jobs = 0, quiet = true }
w = r.rows[1].stats
assert(r.rows[1].complete and w["gpu.kernels"] == 1)
assert(w["gpu.cycles"] == k[2]["gpu.cycles"] - k[1]["gpu.cycles"] and w["gpu.cycles"] > 0)
assert(w["gpu.warp_insts"] == k[2]["gpu.warp_insts"] - k[1]["gpu.warp_insts"] and w["gpu.warp_insts"] > 0)
-- the kernels' windows tile the run: their instructions add up to the whole run's
local sim, sum, prev, n = mw.sim { workload = "rodinia.bfs", size = "small", seed = 1 }, 0, 0, 1
while true do
  local done = sim:run { until_kernel = n + 1 }
  local wi = sim:stats()["gpu.warp_insts"]
  sum, prev = sum + (wi - prev), wi
  if done then break end
  n = n + 1
end
local whole = sim:stats()
sim:close()
assert(sum == whole["gpu.warp_insts"] and n == whole["gpu.kernels"], sum)
local ok, err = pcall(X.run, { workloads = { "micro.stream" }, size = "tiny", kernel = 5, jobs = 0, quiet = true })
assert(not ok and err:find("kernel = 5: the workload launched 1 kernels"), err)
print(string.format("ok  kernel = 2 of rodinia.bfs: %d cycles, %d warp insts; %d kernel windows tile the run",
                    w["gpu.cycles"], w["gpu.warp_insts"], n))

-- the cycle cap: a run stopped by max_cycles is capped in the row, the table and the CSV; forked (jobs = 1) too
r = X.run { workloads = { "micro.stream", "micro.compute" }, size = "small", seed = 1, jobs = 1, quiet = true,
            policies = { { name = "GTO", warp_scheduler = "gto" } },
            max_cycles = 1000 }
assert(r.rows[1].capped and r.rows[1].status == "capped" and r.rows[1].cycles == 1000)
assert(r.rows[1].cpu_s > 0 and r.rows[1].wall_s > 0)
t = X.table(r, { field = "value" })
assert(t:find("micro.stream +[%d.]+%*"), t)
local csv = X.write_csv(r, out .. "/xlib.csv")
local f = assert(io.open(csv))
local head, l1 = f:read("l"), f:read("l")
f:close()
assert(head == "workload,config,policy,gpu.ipc,normalized,gpu.cycles,complete,capped,cpu_s,wall_s", head)
assert(l1:match("^micro%.stream,,GTO,[%d.]+,1%.0,1000,0,1,%d+%.%d%d%d,%d+%.%d%d%d$"), l1)
print("ok  max_cycles = 1000: capped in the row, the table (*) and the CSV; cpu_s and wall_s set")

-- the instruction cap: a run stops at the end of the core cycle in which its max_warp_insts-th warp instruction
-- issued (GTX480: 15 SMs x 2 schedulers issue at most 30 in a cycle), so one cycle fewer has fewer than that many;
-- in a sweep such a run is complete (the same work for every policy), not capped
local cap = 5000
local s = mw.sim { workload = "micro.compute", size = "small", seed = 1, max_warp_insts = cap }
local done, why = s:run()
assert(not done and why == "max_warp_insts", tostring(why))
local st = s:stats()
s:close()
local cyc, wi = st["gpu.cycles"], st["gpu.warp_insts"]
assert(wi >= cap and wi < cap + 30, wi)
s = mw.sim { workload = "micro.compute", size = "small", seed = 1, max_cycles = cyc - 1 }
s:run()
assert(s:stats()["gpu.warp_insts"] < cap)
s:close()
r = X.run { workloads = { { name = "micro.compute", max_warp_insts = cap } }, size = "small", seed = 1, jobs = 1,
            quiet = true, policies = { { name = "GTO", warp_scheduler = "gto" }, { name = "LRR", warp_scheduler = "lrr" } } }
for _, row in ipairs(r.rows) do
  assert(row.complete and not row.capped and row.status == "complete", row.policy)
  assert(row.stats["gpu.warp_insts"] >= cap and row.stats["gpu.warp_insts"] < cap + 30, row.policy)
end
assert(r.rows[1].cycles == cyc)
print(string.format("ok  max_warp_insts = %d: stops after cycle %d with %d issued; complete in a sweep", cap, cyc, wi))
-- an extra stat a row lacks leaves its own column empty; the next one stays in place
r.rows[1].stats["gpu.cycles"] = 1000
csv = X.write_csv(r, out .. "/xlib.csv", { "no.such_stat", "gpu.cycles" })
f = assert(io.open(csv))
head, l1 = f:read("l"), f:read("l")
f:close()
assert(head:match(",no%.such_stat,gpu%.cycles$") and l1:match(",,1000$"), l1)

-- per-workload parameters: they reach m.params, for a table of hooks and for a C policy given by name
local counted = {
  params = { limit = 8 },
  start = function(m) m.count(m.counter("limit"), m.params.limit) end,
  limit = function(m, sm, resident) return m.params.limit end,
}
r = X.run { workloads = { "micro.stream", "micro.compute", "micro.reuse" }, size = "small", seed = 1, jobs = 0,
            quiet = true, policies = {
              { name = "L", cta_throttle = counted, params = { ["micro.stream"] = { limit = 1 }, default = { limit = 3 } } },
              { name = "S", cta_throttle = "static",
                params = { ["micro.compute"] = { cta_throttle = { max_ctas = 1 } } } } } }
local got = {}
for _, row in ipairs(r.rows) do got[row.workload .. "/" .. row.policy] = row.stats end
assert(got["micro.stream/L"]["policy.cta_throttle.limit"] == 1)
assert(got["micro.compute/L"]["policy.cta_throttle.limit"] == 3)
assert(got["micro.reuse/L"]["policy.cta_throttle.limit"] == 3)
assert(counted.params.limit == 8, "the entry's own table is not changed")
-- static with max_ctas = 1 on micro.compute runs what L runs with limit 1 there... compare with a direct run
local direct = mw.sim { workload = "micro.compute", size = "small", seed = 1 }
direct:policy("cta_throttle", { impl = "static", max_ctas = 1 })
direct:run()
assert(got["micro.compute/S"]["gpu.cycles"] == direct:stats()["gpu.cycles"])
direct:close()
direct = mw.sim { workload = "micro.compute", size = "small", seed = 1 }
direct:policy("cta_throttle", "static")
direct:run()
assert(got["micro.compute/S"]["gpu.cycles"] ~= direct:stats()["gpu.cycles"], "max_ctas = 1 changes the run")
direct:close()
print("ok  per-workload params: limit 1 on micro.stream, 3 by default; static max_ctas = 1 on micro.compute")

-- the run key counts the measurement and the resolved parameters
local p = { name = "L", cta_throttle = "static" }
local k0 = X.run_key(opts, p)
assert(X.run_key(opts, p, {}) == k0)
assert(X.run_key(opts, p, { warmup = 10, window = 20 }) ~= k0)
assert(X.run_key(opts, X.policy_for({ name = "L", cta_throttle = "static", params = { default = { max_ctas = 2 } } },
                                    { name = "micro.stream", label = "micro.stream" })) ~= k0)
print("ok  run keys: measurement and per-workload params change the key")
