-- C pattern matching that runs for hours (each .- backtracks over 100 KB): no Lua instruction is counted.
local s = string.rep("a", 100000)
return { decide = function()
  s:find(".-.-.-.-b")
  return 0
end }
