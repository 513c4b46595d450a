-- A store's rows without where and how long each ran (key, status, description, the whole stats text), sorted by
-- key: what two stores of the same sweep must share whatever backend ran it. arg[1]: the store.
local S = require "moonwarp.store"
local db = S.open(arg[1])
for _, key in ipairs(db:keys()) do
  local st, rec = db:get(key)
  io.write(key, " ", rec.status, " ", rec.descr or "", "\n", S.encode(st))
end
db:close()
