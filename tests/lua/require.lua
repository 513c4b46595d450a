-- require inside a script policy's hook state: Lua text modules from the script's own folder and its
-- subfolders, loaded once; anything else (names with "..", absolute paths, C modules, bytecode, files that resolve
-- outside the folder) fails naming the module and the requiring line.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"
local mw = require "moonwarp"
local R = T.dir .. "/req"
local opts = { workload = "rodinia.bfs", size = "tiny", seed = 1 }

-- GTO from three modules gives the C GTO's stats, as a script and through YAML-style impl: lua
local ref = T.run(opts, "warp_scheduler", "gto")
T.same_stats(ref, T.run(opts, "warp_scheduler", R .. "/pol_gto_mod.lua"), "pol_gto_mod.lua (script)")
local o = { workload = opts.workload, size = opts.size, seed = opts.seed,
            config = { policies = { warp_scheduler = { impl = "lua", script = R .. "/pol_gto_mod.lua" } } } }
T.same_stats(ref, T.run(o), "pol_gto_mod.lua (config impl: lua)")
print("ok  a script policy from modules of its folder is gto")

-- names refused, from a hook (the error names the hook, the requiring line and the module)
local function refused(module, patterns, label, script)
  local sim = mw.sim(opts)
  sim:policy("warp_scheduler", { impl = "lua", script = script or (R .. "/bad_require.lua"), module = module })
  local all = { "Lua policy warp_scheduler.pick: ", "bad_require.lua:4: require \"" .. module .. "\": " }
  for _, p in ipairs(patterns) do all[#all + 1] = p end
  local msg = T.expect_error(function() sim:run() end, all, label)
  sim:close()
  print("ok  " .. label .. ": " .. msg:match("require [^\n]*"))
end
refused("../pol_gto", { "a module name may not contain \"..\"" }, "parent folder")
refused("/etc/passwd", { "a module name may not be an absolute path" }, "absolute path")
refused("socket.core", { "no file " .. R .. "/socket/core.lua", "C modules cannot be loaded" }, "C module")
refused("missing", { "no file " .. R .. "/missing.lua" }, "missing module")

-- while the script loads: the policy is refused with the script's line
T.expect_error(function() mw.sim(opts):policy("warp_scheduler", R .. "/bad_require_top.lua") end,
  { "warp_scheduler policy script: ", "bad_require_top.lua:2: require \"../pol_gto\": ",
    "a module name may not contain \"..\"" }, "at load")
print("ok  refused while the script loads")

-- a folder made here: a link out of it, bytecode, a C library, syntax and runtime errors, a cycle
local base = os.tmpname()
os.remove(base)
local D = base .. "/d"
assert(os.execute("mkdir -p '" .. D .. "'"))
local function write(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
end
local src = assert(io.open(R .. "/bad_require.lua")):read("a")
write(D .. "/bad_require.lua", src)
write(base .. "/outside.lua", "return {}\n")
assert(os.execute("ln -s ../outside.lua '" .. D .. "/link.lua'"))
write(D .. "/bytecode.lua", string.dump(function() return {} end))
write(D .. "/clib.so", "\127ELF")
write(D .. "/syntax.lua", "return {\n")
write(D .. "/boom.lua", "local x = 1\nerror('boom in a module')\n")
write(D .. "/cycle_a.lua", "return require 'cycle_b'\n")
write(D .. "/cycle_b.lua", "return require 'cycle_a'\n")
local pol = D .. "/bad_require.lua"
refused("link", { D .. "/link.lua resolves outside the script's folder" }, "link out of the folder", pol)
refused("bytecode", { D .. "/bytecode.lua: attempt to load a binary chunk (mode is 't')" }, "bytecode", pol)
refused("clib", { "no file " .. D .. "/clib.lua" }, "C library", pol)
refused("syntax", { D .. "/syntax.lua:2: " }, "syntax error", pol)
refused("boom", { D .. "/boom.lua:2: boom in a module" }, "runtime error", pol)
refused("cycle_a", { "require \"cycle_a\": circular" }, "cycle", pol)
assert(os.execute("rm -rf '" .. base .. "'"))
print("ok  require refuses what is not a Lua text module of the folder")
