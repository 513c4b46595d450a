-- warp_scheduler.qualify with declared dependencies (qualify_deps): a verdict is asked again only when something
-- it depends on changed; qualify gets the head instruction's active mask and its position in the warp's stream,
-- issued() gets the mask and the instruction's id; m.recheck asks again at a chosen cycle.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"
local mw = require "moonwarp"
local opts = { workload = "rodinia.bfs", size = "small", seed = 1 }

-- always yes: the same run as GTO alone; without deps asked every cycle per ready warp, with {"head"} once per
-- head instruction (its (sm, warp, position) never comes twice)
local function yes(deps)
  local calls, asked, again, bad = 0, {}, 0, nil
  local masks, ids, last_id = {}, 0, 0
  local st = T.run(opts, "warp_scheduler", {
    qualify_deps = deps,
    qualify = function(m, sm, sched, w, pc, op, mask, seq)
      calls = calls + 1
      local key = string.format("%d.%d.%d", sm, m.warp_age(sm, w), seq)
      if asked[key] then again = again + 1 end
      asked[key] = true
      if mask ~= m.warp_mask(sm, w) or seq ~= m.warp_insts(sm, w) then bad = "mask or position differs from m's" end
      masks[key] = mask
      return true
    end,
    issued = function(m, sm, sched, w, pc, op, mask, id)
      ids = ids + 1
      if id <= last_id then bad = "ids do not increase" end
      last_id = id
      local key = string.format("%d.%d.%d", sm, m.warp_age(sm, w), m.warp_insts(sm, w))
      if masks[key] and masks[key] ~= mask then bad = "issued another mask than qualify saw" end
    end,
  })
  assert(not bad, bad)
  assert(ids == st["gpu.warp_insts"], "an id per issue")
  return st, calls, again
end
local gto = T.run(opts, "warp_scheduler", "gto")
local st0, every, again0 = yes(nil)
local st1, head, again1 = yes({ "head" })
T.same_stats(gto, st0, "qualify = true without deps")
T.same_stats(gto, st1, "qualify = true with deps {head}")
assert(again1 == 0, "with deps {head} a head instruction was asked " .. again1 .. " extra times")
assert(again0 > 0 and every > 2 * head, string.format("without deps %d calls, with {head} %d", every, head))
print(string.format("ok  qualify asked %d times with qualify_deps {head}, %d without (same stats as GTO)", head, every))

-- {"issue"}: a verdict that depends on the SM's issue count is asked again only after an issue on that SM (or at
-- the cycle a veto names with m.recheck). A head instruction is held back once at most, so that warps all held at
-- once cannot wait for ever.
local last, stale, calls = {}, 0, 0
local st = T.run(opts, "warp_scheduler", {
  -- no time limit (budget = false; an instruction budget keeps the CPU-time watchdog too): this hook's table `last`
  -- grows by an entry per head instruction, to 560,000, and single calls went past the watchdog's 50 ms on a loaded
  -- machine and in the ASan build (likely a garbage-collection step traversing it; not measured)
  budget = false,
  qualify_deps = { "issue" },
  qualify = function(m, sm, sched, w, pc, op, mask, seq)
    calls = calls + 1
    local n, now = m.sm_warp_insts(sm), m.now()
    local key = string.format("%d.%d.%d", sm, m.warp_age(sm, w), seq)
    local l = last[key]
    if l and l.n == n and now < l.hold then stale = stale + 1 end
    local ok, hold = l ~= nil or (n + w) % 3 ~= 0, math.maxinteger
    if not ok then
      hold = now + 50
      m.recheck(sm, hold)
    end
    last[key] = { n = n, hold = hold }
    return ok
  end,
})
assert(stale == 0, stale .. " verdicts asked again with nothing changed")
assert(st["sm.stall_policy"] > 0, "the verdict held warps back")
print(string.format("ok  qualify_deps {issue}: %d calls, none with nothing changed", calls))

-- m.recheck(sm, at): held with deps {head} until cycle 3000; without recheck nothing would ask again
local function held(recheck)
  local first = math.maxinteger
  local sim = mw.sim { workload = "micro.stream", size = "small", seed = 1 }
  sim:policy("warp_scheduler", {
    qualify_deps = { "head" },
    qualify = function(m, sm)
      if m.now() >= 3000 then return true end
      if recheck then m.recheck(sm, 3000) end
      return false
    end,
    issued = function(m) first = math.min(first, m.now()) end,
  })
  local ok, done = pcall(sim.run, sim)
  sim:close()
  return ok and done, first, done
end
local done, first = held(true)
assert(done == true and first == 3000, "with m.recheck: done " .. tostring(done) .. ", first issue at " .. first)
local why
done, first, why = held(false)
assert(not done and first == math.maxinteger and tostring(why):find("deadlock"),
  "without m.recheck the warps stay held")
print("ok  m.recheck: held warps asked again at cycle 3000")
