-- A warp scheduler whose pick raises an error (line 3).
local P = {}
function P.pick(m, sm, sched, ready, n) error("boom from pick") end
return P
