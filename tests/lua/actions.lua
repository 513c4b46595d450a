-- The engine's actions and facts in `m`: cta_deactivate stops a resident CTA's warps and cta_reactivate lets them
-- run again; inject sends a policy's own traffic (l1d.injected_reads, inject_done); l1d_invalidate evicts with
-- cause "policy"; per-line bytes (line_meta) follow the line; the lookups, queues, registers and schedulers agree
-- with what the events and the inspector say.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require "common"
local mw = require "moonwarp"
local opts = { workload = "micro.stream", size = "small", seed = 1 }

-- SM 0's first CTA is stopped at its launch and let go at the first window at or after cycle 2000
local slot, stopped_at, resumed_at, early, late, inactive_seen = nil, nil, nil, 0, 0, false
local base = T.run(opts)
local st = T.run(opts, "warp_scheduler", {
  events = { "cta_launch", "window" },
  start = function(m) m.set_window(500) end,
  issued = function(m, sm, sched, w)
    if sm ~= 0 or slot == nil or m.warp_cta(0, w) ~= slot then return end
    if resumed_at == nil then early = early + 1 else late = late + 1 end
  end,
  on_event = function(m, kind, sm, warp, cta, pc, addr, set, way, value, aux, cycle)
    if kind == "cta_launch" and sm == 0 and slot == nil then
      slot, stopped_at = cta, cycle
      assert(m.cta_deactivate(0, cta) == true and m.cta_deactivate(0, cta) == false, "deactivate once")
    elseif kind == "window" and slot and not resumed_at and cycle >= 2000 then
      inactive_seen = m.cta_active(0, slot) == false and m.cta_resident(0, slot)
      assert(m.cta_reactivate(0, slot) == true and m.cta_active(0, slot), "reactivate")
      resumed_at = cycle
    end
  end,
})
assert(inactive_seen and early == 0 and late > 0, string.format("issued %d while stopped, %d after", early, late))
assert(st["gpu.cycles"] > base["gpu.cycles"], "stopping a CTA costs time")
print(string.format("ok  CTA %d of SM 0 stopped at cycle %d, resumed at %d: no issue between, %d after", slot,
  stopped_at, resumed_at, late))

-- inject: eight line reads and two line writes from SM 0 at the start; inject_done for each read, with its tag,
-- and for each write's acknowledgement (aux = 1, tag 0)
local done, acked = {}, 0
st = T.run(opts, "l1d_bypass", {
  events = { "inject_done" },
  start = function(m)
    assert(m.inject(0, 0x70000000, 1024, false, 77) == 8 and m.inject(0, 0x71000000, 256, true) == 2)
  end,
  on_event = function(m, kind, sm, warp, cta, pc, addr, set, way, value, aux)
    if aux == 1 then
      assert(sm == 0 and value == 0 and addr >= 0x71000000 and addr < 0x71000100, "inject_done of a write")
      acked = acked + 1
      return
    end
    assert(sm == 0 and value == 77, "inject_done: SM 0, tag 77")
    done[#done + 1] = addr
  end,
})
table.sort(done)
assert(#done == 8 and done[1] == 0x70000000 and done[8] == 0x70000000 + 7 * 128, #done .. " inject_done events")
assert(acked == 2, acked .. " write acknowledgements")
assert(st["l1d.injected_reads"] == base["l1d.injected_reads"] + 8 and st["l1d.injected_writes"] == 2, "injected")
print(string.format("ok  inject: l1d.injected_reads %d -> %d, %d inject_done", base["l1d.injected_reads"],
  st["l1d.injected_reads"], #done))

-- facts on micro.reuse (a 4 KB array read over and over, so lines are hit after their fill), per-line bytes
-- marked at the fill and read at each hit, and every 50th filled line invalidated by the policy
local fills, hits, marked, invalidated, policy_evicts, checks = 0, 0, 0, 0, 0, 0
local sim = mw.sim { workload = "micro.reuse", size = "small", seed = 1 }
sim:policy("replacement", {
  line_meta = 2,
  events = { "l1d_fill", "l1d_hit", "l1d_miss", "l1d_evict" },
  on_event = function(m, kind, sm, warp, cta, pc, addr, set, way, value, aux, cycle, inst, size, sectors, ap, aw, cause)
    if kind == "l1d_miss" and value == 0 and aux == 0 then -- a new line: reserved, its data on the way
      assert(m.l1d_lookup(sm, addr) == "pending" and m.l1d_find(sm, addr) == way + 1, "miss: pending")
      assert(m.l1d_meta(sm, set, way + 1) == 0, "a new line's bytes are zero")
    elseif kind == "l1d_fill" then
      fills = fills + 1
      assert(m.l1d_lookup(sm, addr) == "hit" and m.l1d_line(sm, set, way + 1).line == addr, "fill: valid")
      m.l1d_meta(sm, set, way + 1, (addr >> 7) & 0xFFFF)
      if fills % 50 == 0 then
        assert(m.l1d_invalidate(sm, set, way + 1) == true and m.l1d_lookup(sm, addr) == "miss", "invalidate")
        invalidated = invalidated + 1
      end
    elseif kind == "l1d_hit" and way >= 0 then
      hits = hits + 1
      if m.l1d_meta(sm, set, way + 1) == (addr >> 7) & 0xFFFF then marked = marked + 1 end
    elseif kind == "l1d_evict" and cause == mw.evict_causes.policy then
      policy_evicts = policy_evicts + 1
    end
    if warp >= 0 and m.warp_active(sm, warp) then -- schedulers, masks, queues, registers
      checks = checks + 1
      local k = m.warp_scheduler(sm, warp)
      local found = false
      for _, w in ipairs(m.sched_warps(sm, k)) do found = found or w == warp end
      local regs = 0
      for c = 0, m.max_ctas - 1 do
        if m.cta_resident(sm, c) then
          regs = regs + m.cta_regs(sm, c)
          for _, w in ipairs(m.cta_warps(sm, c)) do assert(m.warp_cta(sm, w) == c, "cta_warps") end
        end
      end
      assert(found and k == warp % m.n_schedulers, "warp_scheduler and sched_warps")
      assert(regs + m.free_regs(sm) == m.registers, "registers: " .. regs .. " + " .. m.free_regs(sm))
      assert(m.warp_mask(sm, warp) >= 0 and m.popcount(0xF0F0) == 8, "warp_mask, popcount")
      local q = m.missq_used(sm)
      assert(q >= 0 and q <= m.missq_size and m.l2_queue_len(0) >= 0 and m.dram_queue_len(0) >= 0, "queues")
      assert(type(m.l1d_can_allocate(sm, set >= 0 and set or 0)) == "boolean", "can_allocate")
    end
  end,
})
assert(sim:run() == true)
st = sim:stats()
sim:close()
assert(fills > 0 and hits > 0 and marked == hits, string.format("%d of %d hits saw their fill's mark", marked, hits))
assert(policy_evicts == invalidated and invalidated > 0, policy_evicts .. " evictions by the policy")
print(string.format("ok  facts: %d fills, %d hits read their line's bytes, %d invalidated, %d checks", fills, hits,
  invalidated, checks))
