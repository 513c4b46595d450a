-- Lua twins of the built-in micro.stream and micro.colstride models (engine/workloads/wl_micro.c), instruction for
-- instruction: prologue r1 = .., r4 = ..; body `iters` times: ld r2 <- [r1], r3 += r2, r1 += r4, branch;
-- epilogue st [r1] <- r3; EXIT (added by the generator).
local A, B = 0x10000000, 0x40000000

local function twin(kind, size)
  local ctas = size == "tiny" and 1 or size == "small" and 30 or 120
  local threads = size == "tiny" and 32 or 256
  local iters = size == "tiny" and 1 or 32
  local total = ctas * threads
  return {
    name = "lua." .. kind,
    kernels = {
      {
        name = "micro." .. kind, grid = ctas, block = threads, regs = 16,
        warp = function(w)
          local g0 = w.cta * threads + w.warp * 32 -- gtid of lane 0
          w:alu(1, 0, 0)
          w:alu(4, 0, 0)
          for it = 0, iters - 1 do
            if kind == "stream" then
              w:ld(2, A + (it * total + g0) * 4, { src = 1 })          -- coalesced: lane l at +4l
            else
              w:ld(2, A + g0 * 4096 + it * 4, { stride = 4096, src = 1 }) -- one row per lane, 4 KB apart
            end
            w:alu(3, 3, 2)
            w:alu(1, 1, 4)
            w:branch() -- the loop's compare-and-branch
          end
          w:st(3, B + g0 * 4, { src = 1 })
        end,
      },
    },
  }
end
return twin
