-- dram_scheduler.pick candidates carry `created`, the core cycle their first request was made at its SM (the L2's
-- writebacks: at the L2): never later than the core cycle of the pick, never changing while the request waits, and
-- ids are unique within a channel.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"
local seen, picks, bad = {}, 0, nil
local ref = T.run({ workload = "micro.colstride", size = "small", seed = 1 }, "dram_scheduler", "fcfs")
local st = T.run({ workload = "micro.colstride", size = "small", seed = 1 }, "dram_scheduler", {
  pick = function(m, channel, bank, open_row, hits, now, c, n)
    picks = picks + 1
    local core, best = m.now(), 1
    for i = 1, n do
      local key = channel * 2 ^ 32 + c.id[i]
      local cr = c.created[i]
      if cr < 0 or cr > core then bad = string.format("created %d after the core cycle %d", cr, core) end
      if seen[key] and (seen[key][1] ~= cr or seen[key][2] ~= c.arrival[i]) then bad = "an id with two requests" end
      seen[key] = { cr, c.arrival[i] }
      if c.arrival[i] < c.arrival[best] then best = i end
    end
    return best -- the oldest: FCFS
  end,
})
assert(not bad, bad)
assert(picks > 0, "pick was asked")
T.same_stats(ref, st, "oldest-first in Lua is fcfs")
print(string.format("ok  DRAM candidates' created: %d picks", picks))
