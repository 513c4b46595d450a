-- start(m) runs once when the machine is built, before any other hook, and finish(m) once when the workload
-- completed, after them all; sim:policy(point) gives back what a Lua policy exports (its export(m), else its
-- m.state; copied out of a script's hook state); counters made with m.counter are stats policy.<point>.<name>.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"
local mw = require "moonwarp"
local opts = { workload = "rodinia.bfs", size = "small", seed = 1 }

-- a table policy: GTO's picks counted in a counter whose description was built at run time and then collected
local order, mshrs = {}, nil
local sim = mw.sim(opts)
sim:policy("warp_scheduler", {
  start = function(m)
    order[#order + 1] = "start@" .. m.now()
    mshrs = m.mshr_free(0)
    -- a long string (over 40 characters) is its own object: this one is garbage once m.counter returns
    m.state.picks = m.counter("picks", string.format("picks made by the %s table, one m.count each", "Lua"))
    m.state.made = 0
  end,
  pick = function(m, sm, sched, ready, n)
    if order[#order] ~= "pick" then order[#order + 1] = "pick" end
    m.count(m.state.picks)
    m.state.made = m.state.made + 1
    return 1
  end,
  finish = function(m)
    order[#order + 1] = "finish@" .. m.now()
    m.state.finished = m.now()
  end,
})
assert(sim:run() == true)
-- the description's Lua string is garbage now: collect it and reuse its memory for strings of the same length
collectgarbage("collect")
local junk = {}
for i = 0, 17575 do
  junk[#junk + 1] = string.format("picks made by the %s table, one m.count each",
    string.char(65 + i % 26, 65 + i // 26 % 26, 65 + i // 676 % 26))
end
local st, desc = sim:stats { descriptions = true }
local state, name = sim:policy("warp_scheduler")
assert(name == "lua:table" and type(state) == "table", "sim:policy(point): the table's m.state")
assert(table.concat(order, " ") == "start@0 pick finish@" .. sim:cycle(), table.concat(order, " "))
assert(mshrs == sim:config().l1d.mshr_entries, "start: the machine is built")
assert(state.finished == sim:cycle() and state.made > 0, "m.state as finish left it")
assert(st["policy.warp_scheduler.picks"] == state.made, "counter " .. tostring(st["policy.warp_scheduler.picks"]))
assert(desc["policy.warp_scheduler.picks"] == "picks made by the Lua table, one m.count each", "description: " ..
  tostring(desc["policy.warp_scheduler.picks"]))
local again = sim:policy("warp_scheduler")
assert(rawequal(again, state), "a table policy's m.state itself")
sim:close()
print(string.format("ok  start, %d picks, finish at cycle %d; counter policy.warp_scheduler.picks", state.made,
  state.finished))

-- a script policy: its export(m) copied out of its hook state
sim = mw.sim(opts)
sim:policy("warp_scheduler", T.dir .. "/pol_export.lua")
assert(sim:run() == true)
st = sim:stats()
local v = sim:policy("warp_scheduler")
assert(v.issued == st["gpu.warp_insts"] and v.ok == true and v.name == "export" and v.half == v.issued / 2, "copied")
assert(v.started == 0 and v.finished == sim:cycle(), "start and finish")
assert(rawequal(v.self, v) and rawequal(v.again, v.ops) and v.ops.ld_global == st["sm.global_loads"], "shared tables")
sim:close()
T.expect_error(function()
  local s = mw.sim(opts)
  s:policy("warp_scheduler", { impl = "lua", script = T.dir .. "/pol_export.lua", mode = "function" })
  s:run()
  s:policy("warp_scheduler")
end, { "sim:policy: the value of lua:export (warp_scheduler): a function cannot leave the policy's hook state" },
  "copy")
-- a C policy exports nothing
sim = mw.sim(opts)
local none, cname = sim:policy("warp_scheduler")
assert(none == nil and cname == "gto", "a C policy")
T.expect_error(function()
  sim:policy("l1d_bypass", { start = function(m) m.counter("Bad-Name") end })
  sim:run()
end, { "m.counter: a counter name is 1 to 39 of a-z, 0-9 and _" }, "counter name")
sim:close()
print(string.format("ok  a script's export: %d issues, %d global loads", v.issued, v.ops.ld_global))
