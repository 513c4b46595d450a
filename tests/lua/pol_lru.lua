-- Least-recently-used replacement in Lua: the twin of policies/repl_lru.c.
return {
  name = "lru",
  victim = function(m, sm, set, w, assoc)
    local best, ev, la = false, w.evictable, w.last_access
    for i = 1, assoc do
      if ev[i] and (not best or la[i] < la[best]) then best = i end
    end
    return best
  end,
}
