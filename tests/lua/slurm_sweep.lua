-- The 6-run sweep of tests/lua/sweep.lua (3 micro workloads x 2 schedulers at size small) through a backend, for
-- tests/test_slurm.c (fake sbatch) and tests/slurm/run_slurm_test.sh (a real cluster).
-- arg: store, backend ("local" or "slurm"), shared folder, then words: "wait" (wait for the tasks), "nosubmit"
-- (collect only), "bad" (a third policy whose Lua hook raises an error: 3 more runs, all failing), "max2" (jobs = 2).
-- Prints one ROW line per completed run (its key and the SHA-256 of its stats), a PENDING line per run still on
-- the cluster, a FAILED line per failed run and a summary line.
local X = require "moonwarp.experiment"
local S = require "moonwarp.store"
local store, backend, shared = arg[1], arg[2], arg[3]
local words = {}
for i = 4, #arg do words[arg[i]] = true end
local policies = { { name = "GTO", warp_scheduler = "gto" }, { name = "LRR", warp_scheduler = "lrr" } }
if words.bad then policies[#policies + 1] = { name = "bad", warp_scheduler = "tests/lua/bad_error.lua" } end
local r = X.run { workloads = { "micro.stream", "micro.compute", "micro.reuse" }, policies = policies,
                  size = "small", config = "experiments/configs/gtx480.yaml", store = store,
                  jobs = backend == "local" and 2 or (words.max2 and 2 or nil), backend = backend, shared = shared,
                  partition = os.getenv("MW_PARTITION"), time = "00:05:00", wait = words.wait or nil, poll = 0.5,
                  submit = not words.nosubmit }
local ran, stored, pending = 0, 0, 0
for _, row in ipairs(r.rows) do
  if row.error then
    print("FAILED", row.workload, row.policy, (row.error:match("^[^\n]*")))
  elseif row.status == "pending" then
    pending = pending + 1
    print("PENDING", row.workload, row.policy, row.key)
  else
    if row.cached then stored = stored + 1 else ran = ran + 1 end
    print("ROW", row.workload, row.policy, row.key, S.sha256(S.encode(row.stats)), row.value)
  end
end
print("ran", ran, "stored", stored, "failed", #r.failures, "pending", pending)
