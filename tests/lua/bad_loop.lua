-- A warp scheduler whose pick never returns.
local P = { budget = 100000 }
function P.pick(m, sm, sched, ready, n) local x = 0; while true do x = x + 1 end end
return P
