-- Lua workload errors: each gives a clear message (kernel, CTA, warp, script line, traceback) and the next
-- run in the same Lua state works.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"
local twin = require "wl_micro_twin"

local function kernel(fields)
  local k = { name = "k", grid = 2, block = 64 }
  for key, v in pairs(fields) do k[key] = v end
  return { name = "lua.bad", kernels = { k } }
end

local function run(wl) return T.run { workload = wl, seed = 1 } end

local function good()
  local st = run(twin("stream", "tiny"))
  assert(st["gpu.warp_insts"] == 8, "the next run after an error: " .. tostring(st["gpu.warp_insts"]))
end

local cases = {
  { "error", kernel { warp = function(w)
      w:alu(1, 0, 0)
      if w.cta == 1 and w.warp == 1 then error("no pattern for this warp") end
    end }, { "Lua workload: kernel 1 (k), CTA 1, warp 1:", "wl_errors.lua:23: no pattern for this warp",
             "stack traceback" } },
  { "loop", kernel { warp = function(w) while true do end end },
    { "CTA 0, warp 1:", "wl_errors.lua:26:", "instruction budget of 10000000 exceeded" } }, -- fetch starts at warp 1
  { "address type", kernel { warp = function(w) w:ld(1, "0x100") end },
    { "wl_errors.lua:28:", "w:ld: addr must be a number, a table of lane addresses or a function, got string" } },
  { "lane address", kernel { warp = function(w) w:st(1, function(t) return t.lane == 3 and -8 or 0 end) end },
    { "wl_errors.lua:30:", "w:st: an address must be a non-negative integer, got a negative number" } },
  { "register", kernel { warp = function(w) w:alu(300, 1, 2) end },
    { "wl_errors.lua:32:", "w:alu: register 300 out of range [0, 254]" } },
  { "width", kernel { warp = function(w) w:ld(1, 0, 3) end }, { "w:ld: width 3 is not 1, 2, 4, 8 or 16 bytes" } },
  { "grid", kernel { grid = 0, warp = function() end },
    { "Lua workload: kernel 1 (k): grid must be a positive integer or {x, y, z}" } },
  { "two forms", kernel { warp = function() end, thread = function() end },
    { "give exactly one of warp = function(w) and thread = function(t)" } },
  { "thread result", kernel { thread = function(t) return t.lane end },
    { "thread(t) of lane 0 must return a list of addresses, got number" } },
  { "kernels", { kernels = 3 }, { "kernels must be a list of kernel tables or a function(i, seed)" } },
  { "syntax", T.dir .. "/bad_wl_syntax.lua", { "bad_wl_syntax.lua:2:", "')' expected" } },
}
local saved
cases[#cases + 1] = { "stale warp object", { kernels = {
    { grid = 1, block = 32, warp = function(w) saved = w; w:alu(1, 0, 0) end },
    { grid = 1, block = 32, warp = function(w) saved:alu(1, 0, 0) end } } },
  { "w:alu called outside its warp's generator" } }

for _, c in ipairs(cases) do
  local msg = T.expect_error(function() run(c[2]) end, c[3], c[1])
  good()
  print(string.format("ok  %-17s %s", c[1], (msg:gsub("\n.*", ""))))
end
