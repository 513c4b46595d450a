-- A 6-run sweep (3 micro workloads x 2 schedulers at size small) for tests/test_store.c.
-- arg: store path, jobs, "bad" to add a third policy whose Lua hook raises an error (3 more runs, all failing).
-- Prints one ROW line per completed run (its key and the SHA-256 of its stats) and a summary line.
local X = require "moonwarp.experiment"
local S = require "moonwarp.store"
local store, jobs, bad = arg[1], tonumber(arg[2]), arg[3] == "bad"
local policies = { { name = "GTO", warp_scheduler = "gto" }, { name = "LRR", warp_scheduler = "lrr" } }
if bad then policies[#policies + 1] = { name = "bad", warp_scheduler = "tests/lua/bad_error.lua" } end
local r = X.run { workloads = { "micro.stream", "micro.compute", "micro.reuse" }, policies = policies,
                  size = "small", config = "experiments/configs/gtx480.yaml", store = store, jobs = jobs }
local ran, stored = 0, 0
for _, row in ipairs(r.rows) do
  if row.error then
    print("FAILED", row.workload, row.policy, (row.error:match("^[^\n]*")))
  else
    if row.cached then stored = stored + 1 else ran = ran + 1 end
    print("ROW", row.workload, row.policy, row.key, S.sha256(S.encode(row.stats)), row.value)
  end
end
print("ran", ran, "stored", stored, "failed", #r.failures)
