-- A script policy (run in a sandboxed hook state) that checks the name tables there: mw.ops, mw.events,
-- mw.points and mw.stalls, read-only, with the engine's numbers. Its qualify hook names every op it sees.
assert(mw.ops.ld_global == 9 and mw.ops[9] == "ld_global" and mw.ops.nop == 0 and #mw.ops == 17, "mw.ops")
assert(mw.events.kernel_start == 0 and mw.events[10] == "window", "mw.events")
assert(mw.points.warp_scheduler == 0 and mw.points[6] == "replacement", "mw.points")
assert(mw.stalls.none == 0 and mw.stalls[3] == "miss_queue", "mw.stalls")
assert(not pcall(function() mw.ops.ld_global = 1 end), "mw.ops is read-only")
assert(not pcall(function() mw.extra = 1 end), "mw is read-only")
assert(mw.ops.ld_global == 9)

return {
  qualify = function(m, sm, sched, warp, pc, op)
    if not mw.ops[op] then error("op " .. tostring(op) .. " has no name") end
    return true
  end,
}
