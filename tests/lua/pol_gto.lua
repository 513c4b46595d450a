-- Greedy-then-oldest in Lua: the twin of policies/sched_gto.c (parity tests, benchmark).
local P = { name = "gto" }
local last = {}

function P.pick(m, sm, sched, ready, n)
  local g = last[sm * 16 + sched]
  local best, best_age = 1, math.maxinteger
  local age = m.warp_age
  for i = 1, n do
    local w = ready[i]
    if w == g then return i end
    local a = age(sm, w)
    if a < best_age then best, best_age = i, a end
  end
  return best
end

function P.issued(m, sm, sched, w)
  last[sm * 16 + sched] = w
end

return P
