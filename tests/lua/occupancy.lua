-- gpu.sur_regs and its companions: each kernel's maximum occupancy from its launch facts and the Linebacker
-- machine's limits (64 warps, 2,048 threads, 32 CTAs, 65,536 registers allocated in 128s per warp, 96 KB shared
-- memory), weighted by the kernel's cycles as the kernel_start / kernel_end events measure them.
--   K1: 256-thread CTAs, 20 registers: 8 warps x 640 = 5,120 registers a CTA; 64 / 8 = 8 by warps, 2,048 / 256 = 8 by
--       threads, 65,536 / 5,120 = 12 by registers: 8 CTAs, 40,960 registers, SUR 24,576 (96 KB).
--   K2: 128-thread CTAs, 21 registers (672 a warp, allocated 768), 40 KB shared memory: 3,072 registers a CTA;
--       16 by warps and threads, 21 by registers, 98,304 / 40,960 = 2 by shared memory: 2 CTAs, 6,144 registers,
--       SUR 59,392 (232 KB).
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"

local function body(w)
  for i = 0, 7 do
    w:ld(2, 0x10000000 + (w.cta * 64 + w.warp * 8 + i) * 128)
    w:alu(3, 2)
  end
end
local wl = { name = "occ", kernels = {
  { name = "k1", grid = 32, block = 256, regs = 20, warp = body },
  { name = "k2", grid = 32, block = 128, regs = 21, shmem = 40960, warp = body },
} }
local start, cyc = {}, {}
local st = T.run({ workload = wl, seed = 1, config = "experiments/configs/linebacker.yaml" }, "replacement", {
  events = { "kernel_start", "kernel_end" },
  on_event = function(m, kind, sm, warp, cta, pc, addr, set, way, value, aux, cycle)
    if kind == "kernel_start" then start[value] = cycle else cyc[value] = cycle - start[value] end
  end,
})
assert(cyc[1] and cyc[2] and cyc[1] > 0 and cyc[2] > 0, "two kernels measured")
local c1, c2 = cyc[1], cyc[2]
local sur = 65536 - (c1 * 40960 + c2 * 6144) / (c1 + c2)
local cta = (c1 * 5120 + c2 * 3072) / (c1 + c2)
assert(math.abs(st["gpu.sur_regs"] - sur) < 1e-6, string.format("gpu.sur_regs %.6f, expected %.6f", st["gpu.sur_regs"], sur))
assert(st["gpu.sur_regs_min"] == 24576 and st["gpu.sur_regs_max"] == 59392, "the two kernels' SUR")
assert(math.abs(st["gpu.occ_cta_regs"] - cta) < 1e-6, "registers per CTA")
assert(st["gpu.occ_ctas_min"] == 2, "K2 holds 2 CTAs")
-- per warp: K1 640 registers, K2 768 (21 x 32 = 672 rounded up to 128s); warps at maximum occupancy: K1 8 x 8 = 64,
-- K2 2 x 4 = 8
local wreg = (c1 * 640 + c2 * 768) / (c1 + c2)
assert(math.abs(st["gpu.occ_warp_regs"] - wreg) < 1e-6,
       string.format("gpu.occ_warp_regs %.6f, expected %.6f", st["gpu.occ_warp_regs"], wreg))
assert(st["gpu.occ_warps_min"] == 8, "K2 holds 8 warps")
print(string.format("ok  gpu.sur_regs %.1f = 65,536 - (%d x 40,960 + %d x 6,144) / %d", sur, c1, c2, c1 + c2))
