-- l1d_bypass.decide sees the instruction's whole request list: IndSelCaching (tests/lua/pol_indsel.lua) written
-- from it gives exactly the verdicts worked out by hand on a column-strided load; the list is one reused table;
-- verdict 2 bypasses a miss but serves a hit from L1D.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"
local rule = require "indsel_rule"

-- the rule on the thesis's own example: 8 requests, n = 2, five to set i (here 7) and three to set k (here 9):
-- set i caches 2 and bypasses 3, set k caches 2 and bypasses 1 (the first ones of each set bypass)
local sets = { 7, 9, 7, 7, 9, 7, 9, 7 }
local got = {}
for i = 1, #sets do got[i] = rule(sets, #sets, i, 2) and "B" or "C" end
-- by set: set 7 holds requests 1, 3, 4, 6, 8 -> bypass 1, 3, 4, cache 6, 8; set 9 holds 2, 5, 7 -> bypass 2, cache 5, 7
local want = { "B", "B", "B", "B", "C", "C", "C", "C" }
for i = 1, #sets do assert(got[i] == want[i], "request " .. i .. ": " .. got[i]) end

-- micro.colstride: lane l of warp w in CTA c (thread gtid = 256 c + 32 w + l) loads 0x10000000 + 4096 gtid + 4 it in
-- iteration it = 0..31. 4096 B = 32 sets x 128 B, so every lane's line is in set (0x10000000 / 128 + 32 gtid) mod 32
-- = 0, and 4 it < 128 keeps it there: each load is 32 requests (one per lane, in lane order), all in set 0 of the
-- 4-way L1D. IndSelCaching: |R_0| = 32 > 4, so requests 1..28 bypass and 29..32 are cached.
-- tiny: one warp, one iteration: one load, 28 bypasses.
-- small: 30 CTAs x 8 warps x 32 iterations = 7,680 loads, 7,680 x 28 = 215,040 bypasses of 245,760 requests.
local function run(size)
  local calls, verdicts, reqs_seen, bad = 0, {}, nil, nil
  local bypasses = dofile(T.dir .. "/pol_indsel.lua").decide
  local st = T.run({ workload = "micro.colstride", size = size, seed = 1 }, "l1d_bypass", {
    decide = function(m, sm, warp, pc, line, set, size_, index, n, retry, reqs)
      calls = calls + 1
      reqs_seen = reqs_seen or reqs
      if rawequal(reqs, reqs_seen) == false then bad = "a new request table" end
      if reqs.line[index] ~= line or reqs.set[index] ~= set or reqs.size[index] ~= size_ or #reqs.line ~= n then
        bad = string.format("request %d of %d: list and arguments differ", index, n)
      end
      if n ~= 32 or reqs.lanes[index] ~= 1 << (index - 1) or reqs.set[index] ~= 0 or reqs.size[index] ~= 32 then
        bad = string.format("request %d: lanes 0x%x, set %d, size %d", index, reqs.lanes[index], set, size_)
      end
      local b = bypasses(m, sm, warp, pc, line, set, size_, index, n, retry, reqs)
      verdicts[index] = (verdicts[index] or 0) + (b and 1 or 0)
      return b
    end,
  })
  assert(not bad, bad)
  return st, calls, verdicts
end

local st, calls, v = run("tiny")
assert(calls == 32, "tiny: one load of 32 requests, got " .. calls .. " calls")
for i = 1, 32 do
  assert(v[i] == (i <= 28 and 1 or 0), "tiny: request " .. i .. (v[i] == 1 and " bypassed" or " cached"))
end
assert(st["l1d.bypasses"] == 28, "tiny: l1d.bypasses " .. st["l1d.bypasses"] .. ", by hand 28")
st, calls, v = run("small")
assert(calls == 245760, "small: " .. calls .. " calls")
for i = 1, 32 do assert(v[i] == (i <= 28 and 7680 or 0), "small: request " .. i .. " bypassed " .. v[i] .. " times") end
assert(st["l1d.bypasses"] == 215040, "small: l1d.bypasses " .. st["l1d.bypasses"] .. ", by hand 215040")
-- the script form (a hook state; the rule comes through require) gives the same run
local script = T.run({ workload = "micro.colstride", size = "small", seed = 1 }, "l1d_bypass",
  T.dir .. "/pol_indsel.lua")
T.same_stats(st, script, "pol_indsel.lua script")
print("ok  IndSelCaching from the request list: requests 1..28 of 32 bypass, l1d.bypasses " .. st["l1d.bypasses"])

-- verdict 2: the first half of the requests of micro.reuse (a 4 KB array read over and over) are cached as usual,
-- the rest bypass L1D (1) or bypass only on a miss (2). In a 2 KB L1D the array does not fit: with 2 the lines
-- still cached keep serving hits and the others go past L1D without taking a line.
local function half(verdict)
  local k = 0
  return T.run({ workload = "micro.reuse", size = "small", seed = 1, config = { l1d = { size_bytes = 2048 } } },
    "l1d_bypass", { decide = function()
      k = k + 1
      return k > 15000 and verdict or 0
    end })
end
local bypass, probe = half(1), half(2)
assert(bypass["l1d.bypasses"] > 0 and probe["l1d.bypasses"] > 0, "both bypass")
assert(probe["l1d.hits"] > bypass["l1d.hits"] and probe["l1d.bypasses"] < bypass["l1d.bypasses"],
  string.format("probe hits %d vs %d, bypasses %d vs %d", probe["l1d.hits"], bypass["l1d.hits"],
    probe["l1d.bypasses"], bypass["l1d.bypasses"]))
assert(probe["l1d.misses"] == bypass["l1d.misses"], "a probe that misses allocates nothing")
print(string.format("ok  verdict 2 serves hits: %d hits and %d bypasses, %d and %d with verdict 1", probe["l1d.hits"],
  probe["l1d.bypasses"], bypass["l1d.hits"], bypass["l1d.bypasses"]))
