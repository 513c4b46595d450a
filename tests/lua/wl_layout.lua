-- The code layout of a Lua generator (tests/test_code_layout.c): in the warp form an instruction's PC is the
-- line of its emitter call times 16, the EXIT after the script's last line; the per-thread form's kernel is the
-- loop of its memory instruction (PC 0x10) and ALU instructions (0x20), its EXIT at 0x30.
return {
  name = "lua.layout",
  kernels = {
    { name = "warp_form", grid = 2, block = 64,
      warp = function(w)
        w:alu(1, 0, 0)
        for i = 0, 3 do
          w:ld(2, 0x10000000 + (w.cta * 64 + w.warp * 32 + i * 128) * 4, { src = 1 })
          w:alu(3, 3, 2)
        end
        w:st(3, 0x20000000 + (w.cta * 64 + w.warp * 32) * 4, { src = 1 })
      end,
    },
    { name = "thread_form", grid = 1, block = 32, alu = 2,
      thread = function(t) return { 0x10000000 + t.gtid * 4, 0x10000100 + t.gtid * 4 } end,
    },
  },
}
