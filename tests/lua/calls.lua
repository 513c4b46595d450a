-- When the engine calls Lua hooks: a bypass decision once per request (a bypass is final, so waiting for a full
-- miss queue asks nothing), a cached request again after each failed reservation with its cause (MRPB);
-- events raised from inside the policy's own hook (m.l1d_flush evicts lines) reach its on_event; coroutines a
-- hook creates count toward the hook's instruction budget.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"
local mw = require "moonwarp"
local opts = { workload = "micro.colstride", size = "small", seed = 1 }

-- bypass-all: one call per request, although the requests wait many cycles for the miss queue
local calls = 0
local st = T.run(opts, "l1d_bypass", { decide = function() calls = calls + 1; return true end })
assert(st["l1d.miss_queue_fail"] > 0, "the workload should stall on the miss queue")
assert(calls == st["l1d.bypasses"], string.format("decide calls %d, bypasses %d", calls, st["l1d.bypasses"]))
T.same_stats(T.run(opts, "l1d_bypass", "all"), st, "bypass-all twin")
print("ok  bypass decided once per request: " .. calls .. " calls")

-- bypass on stall (MRPB): cache first, bypass when asked again after a failed reservation
local causes, first = {}, 0
st = T.run(opts, "l1d_bypass", { retries = true, decide = function(m, sm, warp, pc, line, set, size, index, n, retry)
  if retry == 0 then first = first + 1 else causes[retry] = (causes[retry] or 0) + 1 end
  return retry ~= 0
end })
local retried = 0
for _, k in pairs(causes) do retried = retried + k end
assert(retried > 0 and st["l1d.bypasses"] == retried, "every retry bypassed: " .. retried .. " vs " .. st["l1d.bypasses"])
assert(first == st["l1d.bypasses"] + st["l1d.accesses"], "one first call per request")
print(string.format("ok  bypass on stall: %d requests, %d retried", first, retried))

-- an event raised inside the policy's own hook (micro.stream keeps filled lines valid, for the flush to evict)
local evicts, nested = 0, 0
local inside = false
st = T.run({ workload = "micro.stream", size = "small", seed = 1 }, "granularity", {
  events = { "l1d_evict" },
  fetch = function(m, sm, warp, pc, line, set, need, have, size, full)
    inside = true
    if line % 1024 == 0 then m.l1d_flush(sm) end
    inside = false
    return full
  end,
  on_event = function(m, kind, sm) evicts = evicts + 1; if inside then nested = nested + 1 end end,
})
assert(nested > 0 and evicts == st["l1d.evictions"], string.format("%d/%d evictions seen", evicts, st["l1d.evictions"]))
print(string.format("ok  events from inside a hook: %d of %d", nested, evicts))

-- a runaway coroutine inside a hook
local sim = mw.sim(opts)
sim:policy("l1d_bypass", { budget = 1000, decide = function()
  local co = coroutine.wrap(function() while true do end end)
  co()
  return false
end })
T.expect_error(function() sim:run() end, { "Lua policy l1d_bypass.decide", "calls.lua:", "instruction budget of 1000 exceeded" }, "coroutine")
sim:close()
print("ok  coroutine budget")
