-- A script policy that counts its picks (GTO's choice stays with the C default) and exports what it saw: read back by
-- tests/lua/lifecycle.lua through sim:policy("warp_scheduler").
local issued, ops, started, finished = 0, {}, nil, nil
return {
  name = "export",
  params = { mode = "plain" },
  start = function(m) started = m.now() end,
  issued = function(m, sm, sched, w, pc, op)
    issued = issued + 1
    local name = mw.ops[op]
    ops[name] = (ops[name] or 0) + 1
  end,
  finish = function(m) finished = m.now() end,
  export = function(m)
    if m.params.mode == "function" then return { f = print } end
    local t = { issued = issued, ops = ops, started = started, finished = finished, ok = true, name = "export",
                half = issued / 2 }
    t.self = t -- shared and cyclic tables copy as such
    t.again = ops
    return t
  end,
}
