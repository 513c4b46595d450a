-- The name tables mw.ops, mw.events, mw.points, mw.stalls and mw.evict_causes: name -> number and number -> name
-- with the engine's numbers, read-only, in the module and in a script policy's hook state; the numbers hooks receive
-- name what the engine names.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"
local mw = require "moonwarp"

local expect = {
  ops = { "nop", "alu", "dp", "sfu", "tensor", "branch", "barrier", "membar", "exit", "ld_global", "st_global",
          "atomic", "ld_local", "st_local", "ld_shared", "st_shared", "ld_const" },
  events = { "kernel_start", "kernel_end", "cta_launch", "cta_done", "warp_exit", "l1d_hit", "l1d_miss", "l1d_fill",
             "l1d_evict", "load_done", "window", "l1d_store", "barrier", "inject_done" },
  points = { "warp_scheduler", "l1d_bypass", "granularity", "dram_scheduler", "cta_throttle", "ldst_scheduler",
             "replacement" },
  stalls = { "none", "line_alloc", "mshr", "miss_queue" },
  evict_causes = { "replace", "store", "flush", "policy" },
}
for field, names in pairs(expect) do
  local t = mw[field]
  assert(#t == #names, string.format("#mw.%s is %d, expected %d", field, #t, #names))
  local order = {}
  for name, n in pairs(t) do order[#order + 1] = name; assert(t[n] == name) end
  for i, name in ipairs(names) do
    assert(t[name] == i - 1 and t[i - 1] == name, string.format("mw.%s.%s", field, name))
    assert(order[i] == name, "pairs(mw." .. field .. ") in number order")
  end
  T.expect_error(function() t[names[1]] = 5 end, { "mw." .. field .. " is read-only" }, "assign " .. field)
  T.expect_error(function() t.new = 5 end, { "mw." .. field .. " is read-only" }, "add to " .. field)
  T.expect_error(function() setmetatable(t, nil) end, { "protected metatable" }, "metatable " .. field)
  assert(t[names[1]] == 0 and t.new == nil)
end
print("ok  mw.ops, mw.events, mw.points, mw.stalls, mw.evict_causes")

-- hook arguments named by the tables: ops against sim:warps (the engine's own names), events, stall causes
local opts = { workload = "micro.colstride", size = "tiny", seed = 1 }
local sim, kept = mw.sim { workload = "micro.colstride", size = "small", seed = 1 }, nil
sim:policy("warp_scheduler", { qualify = function(m) kept = m; return true end })
sim:step(1000) -- past the first code line's fetch
local checked = 0
for _, w in ipairs(sim:warps(0)) do
  if w.op then
    local pc, op = kept.warp_pc(0, w.id)
    assert(pc == w.pc and mw.ops[op] == w.op, string.format("warp %d: op %s is %s", w.id, op, w.op))
    -- a code address (micro.colstride's one kernel: the first range, 8 B instructions) and its model PC
    local off = kept.code_offset(pc)
    assert(pc >= 0xF0000000 and off == (pc - 0xF0000000) * 2 and off % 16 == 0,
      string.format("warp %d: pc 0x%x, model pc 0x%x", w.id, pc, off))
    checked = checked + 1
  end
end
assert(checked > 0, "some warp has a decoded instruction")
sim:close()
local causes, kinds = {}, {}
T.run(opts, "l1d_bypass", {
  retries = true, -- asked again after each failed reservation, with its cause
  events = { "kernel_start", "l1d_miss" },
  on_event = function(m, kind) kinds[mw.events[kind]] = true end,
  decide = function(m, sm, warp, pc, line, set, size, index, n, retry)
    if retry ~= mw.stalls.none then causes[mw.stalls[retry]] = true end
    return false
  end,
})
assert(kinds[mw.events.kernel_start] and kinds[mw.events.l1d_miss], "event names")
assert(causes.mshr or causes.miss_queue or causes.line_alloc, "a stall cause was named")
print("ok  hook arguments by name: " .. checked .. " warps' ops")

-- the same tables inside a script policy's hook state
T.same_stats(T.run(opts, "warp_scheduler", "gto"), T.run(opts, "warp_scheduler", T.dir .. "/pol_names.lua"),
             "pol_names.lua")
print("ok  names in a hook state")
