-- OAWS Fig. 5's toy example as a Lua workload: one CTA of three warps A, B, C (ages 0, 1, 2) whose one load (the
-- same PC) sends 6, 6 and 2 requests to distinct lines (lanes 0..n-1 active, one line each), then a chain of
-- 8 ALU instructions on the loaded register. With 8 MSHRs, A's load takes 6 of them and B's 6 misses cannot fit.
return {
  name = "oaws_fig5",
  kernels = { {
    name = "fig5", grid = 1, block = 96, regs = 16,
    warp = function(w)
      local n = ({ 6, 6, 2 })[w.warp + 1]
      local addrs = {}
      for l = 1, n do addrs[l] = 0x10000000 + (w.warp * 6 + l - 1) * 128 end
      w:ld(1, addrs)
      for i = 2, 9 do w:alu(i, i - 1) end
    end,
  } },
}
