-- Parity of static OAWS in Lua (pol_oaws.lua) with the C policy `oaws`: every counter equal, the policy's own
-- `held` included, on the OAWS machine (30 SMs, 32 KB 8-way L1D, 32 MSHRs) with a divergent model (ATAX: 32-line
-- column walks, the classifier and Eq. 1 at work), BFS (data-dependent gathers) and an SMR of 25 %.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"
local cfg = "experiments/configs/oaws.yaml"
local cases = {
  { "polybench.atax", "small", nil }, { "rodinia.bfs", "tiny", nil }, { "polybench.mvt", "small", 0.25 },
}
local total = 0
for _, c in ipairs(cases) do
  local opts = { config = cfg, workload = c[1], size = c[2], seed = 1 }
  local cpol, lpol = "oaws", T.dir .. "/pol_oaws.lua"
  if c[3] then
    cpol = { impl = "oaws", smr = c[3] }
    lpol = { impl = "lua", script = T.dir .. "/pol_oaws.lua", smr = c[3] }
  end
  local ref = T.run(opts, "warp_scheduler", cpol)
  assert(ref["policy.warp_scheduler.held"] > 0, c[1] .. ": the C policy held nothing back")
  total = total + T.same_stats(ref, T.run(opts, "warp_scheduler", lpol), "oaws twin on " .. c[1])
  print(string.format("ok  oaws twin %-16s smr %.2f cycles %d held %d", c[1], c[3] or 0.5, ref["gpu.cycles"],
                      ref["policy.warp_scheduler.held"]))
end
print("oaws twin: " .. total .. " counters compared")
