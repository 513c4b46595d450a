-- Echoes m.params as an error from the LDST scheduler's `slots` hook (asked once per SM as the machine is built),
-- so that tests/lua/params.lua can compare what each way of giving parameters delivers. `params` here are the
-- script's defaults.
local function dump(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys)
  for i, k in ipairs(keys) do
    local v = t[k]
    keys[i] = string.format("%s=%s(%s)", k, tostring(v), math.type(v) or type(v))
  end
  return table.concat(keys, " ")
end

return {
  params = { window = 100, label = "base" },
  slots = function(m) error("params: " .. dump(m.params), 0) end,
}
