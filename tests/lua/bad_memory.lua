-- An L1D bypass policy whose decide grows a table without end (line 4), in a hook state capped at 8 MiB.
local P = { memory = 8, budget = false }
local t = {}
function P.decide(m, sm) while true do t[#t + 1] = string.rep("x", 1000) .. #t end end
return P
