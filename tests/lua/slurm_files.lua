-- moonwarp.slurm's files without a cluster (tests/test_slurm.c): run descriptions and result files read back
-- exactly, a result file cut short anywhere is never read as a result, the collector imports only complete results
-- whose key is their file's, and again imports nothing; the sbatch script. arg[1]: a scratch folder.
local M = require "moonwarp.slurm"
local S = require "moonwarp.store"
local dir = assert(arg[1])

-- equal values with equal number subtypes (2 and 2.0 differ), NaN equal to NaN
local function same(a, b, path)
  if type(a) ~= type(b) then error(path .. ": " .. type(a) .. " vs " .. type(b)) end
  if type(a) == "table" then
    for k, v in pairs(a) do same(v, b[k], path .. "." .. tostring(k)) end
    for k in pairs(b) do if a[k] == nil then error(path .. "." .. tostring(k) .. " only in the copy") end end
  elseif type(a) == "number" then
    assert(math.type(a) == math.type(b), path .. ": " .. math.type(a) .. " vs " .. math.type(b))
    assert(a == b or (a ~= a and b ~= b), path .. string.format(": %.17g vs %.17g", a, b))
    if a == 0 then assert(1 / a == 1 / b, path .. ": the sign of zero") end
  else
    assert(a == b, path .. ": " .. tostring(a) .. " vs " .. tostring(b))
  end
end

-- 1. a run description: every number exactly, subtype included; strings with quotes, newlines, brackets
local desc = {
  key = string.rep("ab", 32), version = S.version, results = "/shared/dir with 'quotes'/results",
  opts = { workload = "micro.stream", size = "small", seed = 7, max_cycles = math.maxinteger,
           config = { l1d = { size_bytes = 32768, hit_latency = 2.0 }, dram = { tck_ns = 0.1, ratio = 1 / 3 },
                      x = { big = 1e300, tiny = 5e-324, neg = -0.0, inf = math.huge, ninf = -math.huge,
                            min = math.mininteger } },
           set = { "l1d.assoc=8", "sim.seed=2" } },
  policy = { name = "a \"quoted\"\nname ]] [[", warp_scheduler = { impl = "swl", limit = 4, on = true, off = false },
             l1d_bypass = "tests/lua/bad_error.lua", set = { "policies.dram_scheduler=frfcfs" } },
  measure = { warmup = 1000, window = 5000 },
  descr = "workload=micro.stream policy=a config=",
}
local text = M.encode_run(desc)
local back = M.decode_run(text, "t.run")
same(desc, back, "run")
assert(M.encode_run(back) == text, "encoding is not canonical")
local nan = M.decode_run(M.encode_run { key = "k", v = 0 / 0 }, "nan.run")
assert(nan.v ~= nan.v, "NaN did not survive")
-- the text is data: it runs with no environment
local ok, err = pcall(M.decode_run, "return { key = 'k', x = os.exit() }", "evil.run")
assert(not ok and err:find("not a run description"), err)
-- what cannot travel is refused, naming where it is
ok, err = pcall(M.encode_run, { key = "k", policy = { warp_scheduler = { pick = function() end } } })
assert(not ok and err:find("run.policy.warp_scheduler.pick is a function", 1, true), err)
print("descriptions ok")

-- 2. result files: round trip; every shorter prefix is refused
local stats = { ["gpu.ipc"] = 1 / 3, ["gpu.cycles"] = 123456789012, ["l1d.miss_rate"] = 0.0, ["x.float2"] = 2.0,
                ["x.nan"] = 0 / 0, ["x.inf"] = math.huge }
local key = S.sha256("run A")
local rec = { key = key, status = "complete", cpu_s = 0.25, wall_s = 0.5, host = "node7",
              descr = "workload=w policy=p config=", stats = stats }
local rt = M.encode_result(rec)
local got = assert(M.decode_result(rt))
same(rec, got, "result")
for n = 0, #rt - 1 do
  local r, why = M.decode_result(rt:sub(1, n))
  assert(r == nil and why:find("incomplete"), string.format("a result cut at %d of %d bytes was read", n, #rt))
end
-- a stats line lost in the middle (the end line intact) is caught by the count
local holed = rt:gsub("gpu%.cycles\t[^\n]*\n", "", 1)
assert(#holed < #rt and M.decode_result(holed) == nil, "a result with a stat missing was read")
-- a capped run is a result; any other status is not
assert(M.decode_result(M.encode_result { key = key, status = "capped", stats = { a = 1 } }).status == "capped")
assert(not M.decode_result(M.encode_result { key = key, status = "running", stats = { a = 1 } }))
print("results ok")

-- 3. the collector: a complete result (imported), one cut short (left), one under another run's name (refused)
local shared = dir .. "/shared"
os.execute("mkdir -p '" .. shared .. "/results'")
local keyB, keyC, keyD = S.sha256("run B"), S.sha256("run C"), S.sha256("run D")
M.write_atomic(shared .. "/results/" .. key .. ".result", rt)
local rtB = M.encode_result { key = keyB, status = "complete", host = "n", descr = "b", stats = { a = 1 } }
M.write_atomic(shared .. "/results/" .. keyB .. ".result", rtB:sub(1, #rtB - 10))
M.write_atomic(shared .. "/results/" .. keyD .. ".result",
               M.encode_result { key = keyC, status = "complete", host = "n", descr = "c", stats = { a = 2 } })
local r, why = M.read_result(shared .. "/results", keyD)
assert(r == nil and why:find("refused: it holds the result of key " .. keyC, 1, true), why)
r, why = M.read_result(shared .. "/results", keyB)
assert(r == nil and why:find("incomplete", 1, true), why)
assert(select(2, M.read_result(shared .. "/results", S.sha256("nothing"))) == "missing")

local dbpath = dir .. "/collect.db"
local imported, had, bad = M.collect(dbpath, shared)
assert(imported == 1 and had == 0 and #bad == 2, string.format("collect: %d imported, %d had, %d bad", imported, had,
                                                                   #bad))
table.sort(bad)
local db = S.open(dbpath)
assert(db:count() == 1)
local st, row = db:get(key)
same(stats, st, "stored")
assert(row.status == "complete" and row.host == "node7" and row.cpu_s == 0.25 and row.wall_s == 0.5
       and row.descr == "workload=w policy=p config=")
assert(db:get(keyB) == nil and db:get(keyC) == nil and db:get(keyD) == nil)
local created = row.created
db:close()
-- again: nothing new, nothing changed; then B's task finishes and B is imported
imported, had, bad = M.collect(dbpath, shared)
assert(imported == 0 and had == 1 and #bad == 2, string.format("recollect: %d imported, %d had", imported, had))
M.write_atomic(shared .. "/results/" .. keyB .. ".result", rtB)
imported, had = M.collect(dbpath, shared)
assert(imported == 1 and had == 1)
db = S.open(dbpath)
assert(db:count() == 2)
assert(select(2, db:get(key)).created == created)
db:close()
print("collect ok")

-- 4. the sbatch script
local script = M.script { sub = "/sh/sub-1", n = 6, max = 2, partition = "gpu", time = "00:10:00",
                          sbatch = { "--mem=2G", "--account=arch" }, chdir = "/home/u/exp", binary = "/opt/mw/moonwarp" }
local want = [[
#!/bin/sh
#SBATCH --job-name=moonwarp-sweep
#SBATCH --array=0-5%2
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --output=/sh/sub-1/logs/%a.out
#SBATCH --chdir=/home/u/exp
#SBATCH --partition=gpu
#SBATCH --time=00:10:00
#SBATCH --mem=2G
#SBATCH --account=arch
# one run per array task: tasks/$SLURM_ARRAY_TASK_ID.run of this folder
exec '/opt/mw/moonwarp' sweep-task '/sh/sub-1' "$SLURM_ARRAY_TASK_ID"
]]
assert(script == want, "script:\n" .. script)
local one = M.script { sub = "/s/it's", n = 1, chdir = "/w", binary = "/b/mw" }
assert(one:find("#SBATCH --array=0-0\n", 1, true) and not one:find("partition") and not one:find("time="), one)
assert(one:find([[exec '/b/mw' sweep-task '/s/it'\''s' "$SLURM_ARRAY_TASK_ID"]], 1, true), one)
print("script ok")

-- 5. X.run refuses what cannot reach a node, and a missing option, before it writes anything
local X = require "moonwarp.experiment"
local function run(extra)
  local spec = { workloads = { "micro.stream" }, size = "tiny", store = dir .. "/never.db", backend = "slurm",
                 shared = dir .. "/never", quiet = true,
                 policies = { { name = "GTO", warp_scheduler = "gto" } } }
  for k, v in pairs(extra) do spec[k] = v end
  local ok2, e = pcall(X.run, spec)
  assert(not ok2, "X.run accepted it")
  return e
end
err = run { policies = { { name = "hooks", warp_scheduler = { pick = function() return 0 end } } } }
assert(err:find("backend = \"slurm\": micro.stream/hooks.policy.warp_scheduler.pick is a function", 1, true), err)
err = run { shared = false }
assert(err:find("needs shared = DIR, a folder every node sees", 1, true), err)
err = run { store = false }
assert(err:find("needs a store", 1, true), err)
err = run { backend = "cloud" }
assert(err:find("backend must be \"local\" or \"slurm\"", 1, true), err)
err = run { poll = 0 }
assert(err:find("poll must be a number of seconds > 0", 1, true), err)
assert(io.open(dir .. "/never.db") == nil and S.listdir(dir .. "/never") == nil, "something was written")
print("refusals ok")
print("slurm files ok")
