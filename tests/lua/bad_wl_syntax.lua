return {
  kernels = { { grid = 1, block = 32, warp = function(w) w:alu(1 2) end } },
}
