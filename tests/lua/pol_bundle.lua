-- A Lua bundle: one hook state, so its points share upvalues. The bypass hook sends every `every`-th request of a
-- global load past L1D and counts them per SM; the scheduler reads that count at each issue (its choice stays
-- GTO's: only `issued` is defined). The bundle's own start/finish/export see both.
local mw = require "moonwarp"
local bypassed, asked = {}, 0 -- written by l1d_bypass, read by warp_scheduler
local seen, backwards = 0, 0
local last = {}
return {
  bundle = true,
  name = "pair",
  params = { every = 1 },
  start = function(m)
    for sm = 0, m.n_sms - 1 do bypassed[sm] = 0 end
    m.state.k = m.counter("bypassed", "requests the bundle's bypass hook sent past L1D")
  end,
  l1d_bypass = {
    decide = function(m, sm, warp, pc, line, set, size, index, n)
      asked = asked + 1
      if asked % m.params.every ~= 0 then return false end
      bypassed[sm] = bypassed[sm] + 1
      m.count(m.state.k) -- the bundle's counter, from a member
      return true
    end,
  },
  warp_scheduler = {
    issued = function(m, sm, sched, w, pc, op)
      if op ~= mw.ops.ld_global then return end
      local b = bypassed[sm]
      if b < (last[sm] or 0) then backwards = backwards + 1 end
      last[sm] = b
      seen = seen + b
    end,
  },
  export = function(m)
    local total = 0
    for _, b in pairs(bypassed) do total = total + b end
    return { total = total, seen = seen, backwards = backwards, every = m.params.every, point = m.point }
  end,
}
