-- Run keys (tests/test_store.c): equal for equal runs, different when a config field, a policy parameter, the
-- seed, the size or a Lua policy's source changes; the name of a policy is only a label. Prints "key ok".
local X = require "moonwarp.experiment"
local S = require "moonwarp.store"
local CFG = "experiments/configs/gtx480.yaml"
local base = { workload = "micro.stream", size = "small", config = CFG }
local function with(t)
  local o = {}
  for k, v in pairs(base) do o[k] = v end
  for k, v in pairs(t) do o[k] = v end
  return o
end
local k0 = X.run_key(base, { name = "A", warp_scheduler = "gto" })
assert(#k0 == 64 and k0:match("^%x+$"), k0)
assert(X.run_key(base, { name = "B", warp_scheduler = "gto" }) == k0, "the policy's name must not count")
assert(X.run_key(with {}, { warp_scheduler = "gto" }) == k0, "equal runs, equal keys")
assert(X.run_key(base, { warp_scheduler = "lrr" }) ~= k0, "another policy")
assert(X.run_key(with { seed = 2 }, { warp_scheduler = "gto" }) ~= k0, "the seed")
assert(X.run_key(with { size = "tiny" }, { warp_scheduler = "gto" }) ~= k0, "the size")
assert(X.run_key(with { set = { "l1d.assoc=8" } }, { warp_scheduler = "gto" }) ~= k0, "a config override")
assert(X.run_key(with { max_cycles = 1000 }, { warp_scheduler = "gto" }) ~= k0, "the cycle cap")
-- an override equal to the file's value resolves to the same config, so to the same key
local cfg = require "moonwarp".sim(base):config()
local same = with { set = { "l1d.assoc=" .. cfg.l1d.assoc } }
assert(X.run_key(same, { warp_scheduler = "gto" }) == k0, "the resolved config counts, not how it was written")
-- parameters of a policy
local p1 = X.run_key(base, { warp_scheduler = { impl = "lua", script = "tests/lua/pol_gto.lua", window = 5 } })
local p2 = X.run_key(base, { warp_scheduler = { impl = "lua", script = "tests/lua/pol_gto.lua", window = 6 } })
assert(p1 ~= p2, "a changed parameter")
-- a Lua policy's source: a script file edited in place, and a table of hooks whose code differs
local tmp = os.tmpname() .. ".lua"
local function write(text) local f = assert(io.open(tmp, "w")); f:write(text); f:close() end
write("local P = {}\nfunction P.pick(m, sm, sched, ready, n) return 1 end\nreturn P\n")
local s1 = X.run_key(base, { warp_scheduler = tmp })
write("local P = {}\nfunction P.pick(m, sm, sched, ready, n) return n end\nreturn P\n")
local s2 = X.run_key(base, { warp_scheduler = tmp })
assert(s1 ~= s2, "an edited policy script")
local h1 = X.run_key(base, { warp_scheduler = { pick = load("return function(m, sm, sched, ready, n) return 1 end")() } })
local h2 = X.run_key(base, { warp_scheduler = { pick = load("return function(m, sm, sched, ready, n) return n end")() } })
local h3 = X.run_key(base, { warp_scheduler = { pick = load("return function(m, sm, sched, ready, n) return 1 end")() } })
assert(h1 ~= h2 and h1 == h3, "a hook's source text")
local function limit(k) return { pick = function(m, sm, sched, ready, n) return math.min(n, k) end } end
assert(X.run_key(base, { warp_scheduler = limit(2) }) ~= X.run_key(base, { warp_scheduler = limit(3) }),
       "a hook's upvalue parameter")
-- a config file's content counts through the resolved fields: another preset differs
assert(X.run_key(with { config = "experiments/configs/oaws.yaml" }, { warp_scheduler = "gto" }) ~= k0, "the config")
os.remove(tmp)
print("key ok", S.version)
