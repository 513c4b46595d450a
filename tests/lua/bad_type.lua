-- A warp scheduler whose pick returns a non-number.
local P = {}
function P.pick(m, sm, sched, ready, n) return "first" end
return P
