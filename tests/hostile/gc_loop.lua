-- A finalizer that never returns: Lua runs __gc with its hooks off, so a hook state refuses __gc.
return { decide = function()
  setmetatable({}, { __gc = function() while true do end end })
  collectgarbage()
  return 0
end }
