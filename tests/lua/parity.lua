-- Parity: each Lua twin of a C built-in gives exactly the same stats (every counter) on two workloads, loaded
-- three ways: a script in a sandboxed hook state, an inline table in this state, and YAML-style impl: lua.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"

local cases = {
  { point = "warp_scheduler", c = "gto",    script = "pol_gto.lua" },
  { point = "l1d_bypass",     c = "all",    script = "pol_bypass_all.lua" },
  { point = "granularity",    c = "line",   script = "pol_line.lua" },
  { point = "dram_scheduler", c = "frfcfs", script = "pol_frfcfs.lua" },
  { point = "replacement",    c = "lru",    script = "pol_lru.lua" },
}
local workloads = { "micro.stream", "micro.colstride" }

local total = 0
for _, c in ipairs(cases) do
  for _, wl in ipairs(workloads) do
    local opts = { workload = wl, size = "small", seed = 7 }
    local ref = T.run(opts, c.point, c.c)
    local path = T.dir .. "/" .. c.script
    local label = string.format("%s %s on %s", c.point, c.script, wl)
    total = total + T.same_stats(ref, T.run(opts, c.point, path), label .. " (script)")
    -- the other two ways of loading, on the tiny size to keep the test short
    local topts = { workload = wl, size = "tiny", seed = 7 }
    local tref = T.run(topts, c.point, c.c)
    T.same_stats(tref, T.run(topts, c.point, dofile(path)), label .. " (inline table)")
    topts.config = { policies = { [c.point] = { impl = "lua", script = path } } }
    T.same_stats(tref, T.run(topts), label .. " (config impl: lua)")
    print(string.format("ok  %-15s %-20s %-16s cycles %d", c.point, c.script, wl, ref["gpu.cycles"]))
  end
end
-- Two-level scheduling on kernels with barriers (its active set must not fill with barrier-waiting warps)
for _, wl in ipairs { "rodinia.srad_v2", "rodinia.backprop" } do
  local opts = { workload = wl, size = "small", seed = 7 }
  local ref = T.run(opts, "warp_scheduler", "two_level")
  total = total + T.same_stats(ref, T.run(opts, "warp_scheduler", T.dir .. "/pol_two_level.lua"), "two_level on " .. wl)
  print(string.format("ok  %-15s %-20s %-16s cycles %d", "warp_scheduler", "pol_two_level.lua", wl, ref["gpu.cycles"]))
end
-- all four at once against the C defaults with bypass/all swapped in
print("parity: " .. total .. " counters compared")
