-- A Lua workload generator: the column-strided load of micro.colstride written in Lua. Each of the warps
-- reads a 32 x 32 float matrix down its columns (lanes 4 KB apart: one L1D set), `iters` times.
-- Run: moonwarp run --config experiments/configs/gtx480.yaml --workload experiments/lua/colstride_gen.lua
local seed = ... -- the run's seed (unused: the pattern is fixed)
local iters, ctas = 16, 30
return {
  name = "lua.colstride",
  kernels = {
    {
      name = "colstride", grid = ctas, block = 256, regs = 16,
      warp = function(w)
        local base = 0x10000000 + (w.cta * 8 + w.warp) * 32 * 4096
        for i = 0, iters - 1 do
          w:ld(2, base + i * 4, { stride = 4096, src = 1 }) -- lane l: base + i*4 + l*4096
          w:alu(3, 2, 3)
        end
        w:st(3, base, { stride = 4096 })
      end,
    },
  },
}
