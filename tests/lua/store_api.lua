-- moonwarp.store's own calls (tests/test_store.c): put keeps the first result, get returns exactly what was put
-- (integer and float subtypes included), a put that cannot be stored leaves nothing behind; claims.
-- arg[1]: the store.
local S = require "moonwarp.store"
local db = S.open(arg[1])
local st = { a = 1, b = 0.1, c = 3.0, d = 1 / 0, e = "text", f = true, g = -2 ^ 63 }
assert(db:put("k", { stats = st, status = "complete", cpu_s = 1.5, host = "h", descr = "d" }) == true)
assert(db:put("k", { stats = { a = 2 }, status = "complete" }) == false, "the first result stays")
local g, rec = db:get("k")
for k, v in pairs(st) do assert(g[k] == v and math.type(g[k]) == math.type(v), k) end
for k in pairs(g) do assert(st[k] ~= nil, k) end
assert(rec.status == "complete" and rec.cpu_s == 1.5 and rec.host == "h" and rec.descr == "d" and rec.stats == g)
assert(not pcall(db.put, db, "x", { stats = { f = function() end }, status = "complete" }))
assert(db:get("x") == nil and db:count() == 1 and db:keys()[1] == "k")
assert(S.decode(S.encode(st)).b == 0.1)
assert(S.sha256("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
-- the run key sees every built-in policy's parameter defaults and each point's default policy, so a default
-- changed in the source changes every key (a store never hands back a run made under the old default)
local d = S.defaults_text()
assert(d:find("default warp_scheduler=gto\n", 1, true) and d:find("default dram_scheduler=frfcfs\n", 1, true))
assert(d:find("\nbuiltin bundle.mrpb slots=8 drain=fixed bypass_on=line queues=0\n", 1, true), d)
for point, list in pairs(require("moonwarp").policies()) do
  for name in pairs(list) do
    assert(d:find("\nbuiltin " .. point .. "." .. name .. "[ \n]"), point .. "." .. name .. " is not in the key")
  end
end
-- claims: a live claimant (this process) keeps its claim, a stored key cannot be claimed, unclaim gives it up
assert(db:claim("c") == true and db:claim("c") == true, "this process's own claim")
assert(db:claim("k") == false, "a stored key")
db:unclaim("c")
assert(db:claim("c") == true)
db:close()
assert(not pcall(db.get, db, "k"), "a closed store")
print("api ok")
