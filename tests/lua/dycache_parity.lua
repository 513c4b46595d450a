-- The Lua DyCache selector (pol_dycache.lua) gives exactly the C policy's stats (every counter, the policy's own
-- included) on a gather that switches to 32 B, a streaming kernel that stays at 128 B and BFS (switches both
-- ways), with the chunked L1D and with the line organisation, at T = 50 and T = 25.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"
local total, switches = 0, 0
for _, org in ipairs { "chunked", "line" } do
  for _, wl in ipairs { "micro.colstride", "micro.stream", "rodinia.bfs" } do
    for _, th in ipairs { 50, 25 } do
      local opts = { workload = wl, size = ({ ["rodinia.bfs"] = "tiny", ["micro.stream"] = "default" })[wl] or "small", seed = 7,
                     config = { l1d = { organisation = org } } }
      local ref = T.run(opts, "granularity", { impl = "dycache", threshold = th })
      local lua = T.run(opts, "granularity", { impl = "lua", script = T.dir .. "/pol_dycache.lua", threshold = th })
      local n = T.same_stats(ref, lua, string.format("dycache %s %s T=%d", org, wl, th))
      total = total + n
      switches = switches + ref["l1d.gran_switches"]
      print(string.format("ok  %-8s %-16s T=%d switches %d flushes %d windows %d", org, wl, th,
                          ref["l1d.gran_switches"], ref["l1d.gran_flushes"], ref["policy.granularity.windows"]))
    end
  end
end
assert(switches > 0, "no run switched granularity")
print("dycache parity: " .. total .. " counters compared")
