-- A script policy's hook state cannot run Lua bytecode or read files outside require: no dofile or loadfile, load
-- of text only (bytecode can break the VM's memory safety), and a policy script that is bytecode is refused.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"
local mw = require "moonwarp"
local sim = mw.sim { workload = "micro.stream", size = "tiny", seed = 1 }
sim:policy("warp_scheduler", T.dir .. "/pol_sandbox.lua")
local f = sim:policy("warp_scheduler")
assert(f.dofile and f.loadfile, "dofile and loadfile are gone")
assert(f.text and f.env, "load of text works, with an environment")
for _, k in ipairs { "binary", "binary_b", "binary_bt" } do
  assert(type(f[k]) == "string" and f[k]:find("attempt to load a binary chunk", 1, true), k .. ": " .. tostring(f[k]))
end
assert(sim:run() == true)
sim:close()
-- a policy script that is bytecode
local path = os.tmpname() .. ".lua"
local out = assert(io.open(path, "wb"))
out:write(string.dump(assert(loadfile(T.dir .. "/pol_gto.lua"))))
out:close()
T.expect_error(function() mw.sim { workload = "micro.stream", size = "tiny" }:policy("warp_scheduler", path) end,
  { "warp_scheduler policy script", "attempt to load a binary chunk" }, "bytecode script")
os.remove(path)
print("ok  hook states: no dofile, no loadfile, load and scripts of text only")
