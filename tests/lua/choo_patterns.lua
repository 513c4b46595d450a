-- Choo 2016's synthetic access patterns (P1-P5 of the extraction's §9) as Lua workloads, with the verdicts the
-- policies must reach on them, and the Lua twins of IndSelCaching (pol_indsel.lua) and 1-bit LASC
-- (pol_lasc1.lua) giving every counter of the C policies.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"
local CFG = "experiments/configs/gtx480.yaml"
local function run(wl, sets, point, pol)
  local opts = { config = CFG, workload = wl, seed = 1, set = sets, size = type(wl) == "string" and "small" or nil }
  return T.run(opts, point, pol)
end
local function cset(...) return { ... } end
-- the machine's counters (a C policy also publishes its own policy.* counters, which its Lua twin does not keep)
local function same(a, b, label)
  local function strip(t)
    local r = {}
    for k, v in pairs(t) do if not k:find("^policy%.") then r[k] = v end end
    return r
  end
  return T.same_stats(strip(a), strip(b), label)
end

-- P1, BICG kernel_2 (Listing 4.1): q[tid] += A[tid*NY + j] * p[j], NY = 4096 floats: lanes 16 KB apart, a
-- multiple of 32 sets x 128 B, so a warp load's 32 lines share one set. 2 CTAs of 256 threads, j = 0..15.
-- Loads per warp: 16 column-strided (32 requests each, one set) and 16 broadcast p[j] (1 request).
-- IndSelCaching: each column load bypasses its first 32 - 4 = 28 requests: 2 x 8 warps x 16 x 28 = 7,168.
local NY = 4096
local P1 = {
  name = "choo.p1", kernels = { { name = "bicg2", grid = 2, block = 256, regs = 16, warp = function(w)
    local tid0 = w.cta * 256 + w.warp * 32
    for j = 0, 15 do
      w:ld(2, 0x10000000 + (tid0 * NY + j) * 4, { stride = NY * 4 }) -- A[tid*NY + j]
      w:ld(3, 0x20000000 + j * 4, { stride = 0 })                     -- p[j]: one address for the warp
      w:alu(4, 2, 3)
    end
  end } },
}
local base1 = run(P1, cset("gpu.n_sms=2"))
local ind1 = run(P1, cset("gpu.n_sms=2", "policies.l1d_bypass=indsel"))
assert(ind1["l1d.bypasses"] == 7168, "P1 IndSel bypasses " .. ind1["l1d.bypasses"] .. ", by hand 7168")
-- every warp's lines share set 0, so a warp's 32 requests replace mostly its own lines (IW; 4 ways, 32 lines) and,
-- at the start of each load, lines of the warp that used the set before it (XW)
assert(base1["l1d.victim_iw"] > 0.8 * base1["l1d.evictions"] and base1["l1d.victim_xb"] == 0,
  ("P1 baseline: %d of %d evictions intra-warp"):format(base1["l1d.victim_iw"], base1["l1d.evictions"]))
local lua1 = run(P1, cset("gpu.n_sms=2"), "l1d_bypass", T.dir .. "/pol_indsel.lua")
same(ind1, lua1, "P1 IndSelCaching C vs Lua")
print(("ok  P1 column-strided: IndSel bypasses %d (28 of 32 per load), baseline %d of %d evictions IW"):format(
  ind1["l1d.bypasses"], base1["l1d.victim_iw"], base1["l1d.evictions"]))

-- P2, SYRK (Listing 3.1): c[i*N+j] *= beta, then for k: c[i*N+j] += a[i*M+k] * a[j*M+k], M = N = 1024:
-- a[j*M+k] strides 4 KB across the warp's lanes (j = x): one set; a[i*M+k] is one address per warp (i = y);
-- c[i*N+j] is one line. 32 x 8 blocks, 4 CTAs, k = 0..7: per warp 8 column loads -> IndSel bypasses
-- 4 x 8 x 8 x 28 = 7,168 and nothing else.
local M = 1024
local P2 = {
  name = "choo.p2", kernels = { { name = "syrk", grid = { 4, 1 }, block = { 32, 8 }, regs = 16, warp = function(w)
    local i, j0 = w.ctay * 8 + w.warp, w.ctax * 32
    local c = 0x30000000 + (i * M + j0) * 4
    w:ld(2, c)                                                          -- load 1: c[i*N+j]
    for k = 0, 7 do
      w:ld(3, 0x10000000 + (i * M + k) * 4, { stride = 0 })             -- load 2: a[i*M+k]
      w:ld(4, 0x10000000 + (j0 * M + k) * 4, { stride = M * 4 })        -- load 3: a[j*M+k]
      w:ld(5, c)                                                        -- load 4: c[i*N+j] again
      w:alu(2, 3, 4)
    end
    w:st(2, c)
  end } },
}
local ind2 = run(P2, cset("gpu.n_sms=4", "policies.l1d_bypass=indsel"))
assert(ind2["l1d.bypasses"] == 7168, "P2 IndSel bypasses " .. ind2["l1d.bypasses"] .. ", by hand 7168")
print("ok  P2 SYRK: IndSel bypasses " .. ind2["l1d.bypasses"] .. " (only the column-strided load)")

-- P3, streaming + hot array: each warp streams 64 lines it never touches again (PC S) and reads a 2-line hot array
-- over and over (PC H). LASC (1-bit) must bypass requests of S and never of H.
local P3 = {
  name = "choo.p3", kernels = { { name = "stream", grid = 1, block = 256, regs = 16, warp = function(w)
    local gw = w.cta * 8 + w.warp
    for i = 0, 63 do
      w:ld(2, 0x10000000 + (gw * 64 + i) * 128)          -- S: a new line each time
      w:ld(3, 0x20000000 + (i % 2) * 128, { src = 2 })   -- H: two hot lines
      w:alu(4, 2, 3)
    end
  end } },
}
local byPC, lascPol = {}, dofile(T.dir .. "/pol_lasc1.lua")
local spy = { events = lascPol.events, on_event = lascPol.on_event, decide = function(m, sm, warp, pc, ...)
  local v = lascPol.decide(m, sm, warp, pc, ...)
  byPC[pc] = byPC[pc] or { 0, 0 }
  byPC[pc][v == 0 and 1 or 2] = byPC[pc][v == 0 and 1 or 2] + 1
  return v
end }
local lua3 = run(P3, cset("gpu.n_sms=1"), "l1d_bypass", spy)
local c3 = run(P3, cset("gpu.n_sms=1", "policies.l1d_bypass=lasc"))
same(c3, lua3, "P3 LASC C vs Lua")
local pcs = {}
for pc in pairs(byPC) do pcs[#pcs + 1] = pc end
table.sort(pcs)
assert(#pcs == 2, "P3: two load PCs, got " .. #pcs)
local S, H = byPC[pcs[1]], byPC[pcs[2]]
assert(S[2] > 0.9 * (S[1] + S[2]), ("P3: stream PC bypassed %d of %d"):format(S[2], S[1] + S[2]))
assert(H[2] == 0, "P3: hot PC bypassed " .. H[2])
print(("ok  P3 streaming: LASC bypasses %d of %d stream requests, 0 of %d hot ones; C and Lua identical"):format(
  S[2], S[1] + S[2], H[1]))

-- P4, a mixed-reuse PC: each warp reads 64 lines from one call site, the even ones twice (the second read waits for
-- the first one's data), 8 warps x 8 KB > 16 KB. Warp g's line i is in set (4 g + i) mod 32, so the 8 warps,
-- running about in step, touch 8 different sets and an even line survives until its second read (a hit): half
-- the lines are reused (Reuse0 = 50 %). The 1-bit LASC (TH = 1.0) sees a reused line leave among the first
-- evictions and caches the PC for good (sticky OR); TH = 1.5 (average (1 + 2) / 2 = 1.5 <= 1.5) bypasses it once
-- the average settles, and a bypassed PC allocates no more lines, so nothing changes its mind.
local P4 = {
  name = "choo.p4", kernels = { { name = "mixed", grid = 1, block = 256, regs = 16, warp = function(w)
    local gw = w.cta * 8 + w.warp
    for i = 0, 63 do
      for _ = 1, (i % 2 == 0) and 2 or 1 do
        w:ld(2, 0x10000000 + gw * (8192 + 512) + i * 128, { src = 3 })
        w:alu(3, 2, 3)
      end
    end
  end } },
}
local t10 = run(P4, cset("gpu.n_sms=1", "policies.l1d_bypass=lasc"))
local t15 = run(P4, cset("gpu.n_sms=1", "policies.l1d_bypass=lasc", "policies.l1d_bypass.bits=multi",
  "policies.l1d_bypass.th=1.5"))
local req = 8 * 96
assert(t10["policy.l1d_bypass.bypass"] < 0.05 * req, "P4 LASC1.0 bypassed " .. t10["policy.l1d_bypass.bypass"])
assert(t15["policy.l1d_bypass.bypass"] > 0.5 * req, "P4 LASC1.5 bypassed " .. t15["policy.l1d_bypass.bypass"])
print(("ok  P4 mixed reuse: LASC1.0 bypasses %d of %d requests, LASC1.5 %d"):format(
  t10["policy.l1d_bypass.bypass"], req, t15["policy.l1d_bypass.bypass"]))

-- P5, LDST-stall hits: warp 0 issues 8 loads of 32 lines in one set (stalling the LDST unit on line allocation);
-- warps 1..11 first bring their own line (set w) in, then hit it 16 times. MemSched serves their hits while warp 0
-- waits: every hit is a probe hit, no warp's issue waits for the LDST unit, and warps 1..11 finish long before they
-- do in the baseline, where each of their loads waits behind warp 0's (the run's length is warp 0's either way).
local P5 = {
  name = "choo.p5", kernels = { { name = "stall", grid = 1, block = 384, regs = 16, warp = function(w)
    if w.warp == 0 then
      for r = 0, 7 do w:ld(2, 0x10000000 + r * 128 * 32 * 32, { stride = 4096, src = 3 }); w:alu(3, 2, 3) end
    else
      for _ = 0, 16 do w:ld(2, 0x20000000 + w.warp * 128, { src = 3 }); w:alu(3, 2, 3) end
    end
  end } },
}
-- the exit cycles of warps 1..11 (an observer in the bypass slot; its decide is the default's)
local function exits(sets)
  local sum = 0
  local st = run(P5, sets, "l1d_bypass", { events = { "warp_exit" }, on_event = function(m, kind, sm, warp, cta, pc,
      addr, set, way, value, aux, cycle)
    if warp ~= 0 then sum = sum + cycle end
  end })
  return st, sum / 11
end
local b5, be = exits(cset("gpu.n_sms=1"))
local m5, me = exits(cset("gpu.n_sms=1", "policies.ldst_scheduler=memsched"))
assert(m5["policy.ldst_scheduler.probe_hit"] == m5["l1d.hits"] and m5["l1d.hits"] == b5["l1d.hits"],
  "P5: every hit served by a probe")
assert(b5["sm.stall_ldst"] > 0 and m5["sm.stall_ldst"] == 0, "P5: issue stalls on the LDST unit")
assert(me < 0.5 * be, ("P5: warps 1..11 exit at %.0f with MemSched vs %.0f"):format(me, be))
print(("ok  P5 LDST-stall hits: warps 1..11 exit at cycle %.0f on average with MemSched (%d probe hits) vs %.0f"):format(
  me, m5["policy.ldst_scheduler.probe_hit"], be))

-- the twins on built-in workloads as well (micro.colstride: 32 lines of one set per load; rodinia.bfs: irregular)
local ai = run("micro.colstride", cset("policies.l1d_bypass=indsel"))
same(ai, run("micro.colstride", nil, "l1d_bypass", T.dir .. "/pol_indsel.lua"), "colstride IndSel C vs Lua")
local al = run("rodinia.bfs", cset("policies.l1d_bypass=lasc"))
same(al, run("rodinia.bfs", nil, "l1d_bypass", T.dir .. "/pol_lasc1.lua"), "bfs LASC C vs Lua")
assert(ai["l1d.bypasses"] > 0 and al["l1d.bypasses"] > 0 and al["l1d.hits"] > 0, "the twins decide something")
print(("ok  twins: IndSelCaching on micro.colstride (%d bypasses) and 1-bit LASC on rodinia.bfs (%d bypasses, %d hits), every counter identical"):format(
  ai["l1d.bypasses"], al["l1d.bypasses"], al["l1d.hits"]))
