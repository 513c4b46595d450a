-- m.random over the whole integer range (hi - lo overflows a signed integer): an integer, no crash.
local got = {}
return { decide = function(m)
  if #got < 4 then got[#got + 1] = m.random(math.mininteger, math.maxinteger) end
  got.full = m.random(math.mininteger, math.maxinteger)
  got.near = m.random(math.maxinteger - 1, math.maxinteger)
  return 0
end, export = function() return { n = #got, int = math.type(got.full) == "integer",
  near = got.near >= math.maxinteger - 1 } end }
