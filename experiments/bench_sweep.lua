-- The local pool's speed-up (docs/sweeps.md): one 12-run sweep (4 micro workloads x 3 warp schedulers, no
-- store, so every run runs) timed at jobs = 1 and at jobs = N, alternating, `reps` times each.
--   build/moonwarp experiments/bench_sweep.lua [N=2] [reps=3] [size=default]
local X = require "moonwarp.experiment"
local mw = require "moonwarp"
local n, reps, size = tonumber(arg[1]) or 2, tonumber(arg[2]) or 3, arg[3] or "default"
local function sweep(jobs)
  local t0 = mw.clock()
  local r = X.run { workloads = { "micro.stream", "micro.colstride", "micro.reuse", "micro.compute" },
                    policies = { { name = "GTO", warp_scheduler = "gto" }, { name = "LRR", warp_scheduler = "lrr" },
                                 { name = "TL", warp_scheduler = "two_level" } },
                    config = "experiments/configs/gtx480.yaml", size = size, jobs = jobs, quiet = true }
  assert(#r.rows == 12 and #r.failures == 0)
  return mw.clock() - t0
end
local t1, tn = {}, {}
for i = 1, reps do
  t1[i] = sweep(1)
  tn[i] = sweep(n)
  print(string.format("rep %d: jobs=1 %.2f s, jobs=%d %.2f s, speed-up %.2fx", i, t1[i], n, tn[i], t1[i] / tn[i]))
end
local m1, mn = X.median(t1), X.median(tn)
print(string.format("median: jobs=1 %.2f s, jobs=%d %.2f s, speed-up %.2fx", m1, n, mn, m1 / mn))
