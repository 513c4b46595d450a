-- An endless loop in the script's top-level chunk, before any hook exists.
while true do end
return { decide = function() return 0 end }
