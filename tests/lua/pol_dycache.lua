-- DyCache's granularity selector in Lua: the twin of policies/gran_dycache.c with its defaults (count-based
-- fine-grain ratio, `>=` comparisons, no 32/64 re-pick). Per SM, every L1D hit or miss is sampled (size, miss);
-- at `window` requests: poor = miss rate >= T, fine = fine-grain ratio >= T; poor and fine at 128 B -> 32 if
-- n32 > n64 else 64; poor and coarse below 128 B -> 128 (flush); otherwise keep. Counters as the C policy's.
local names = { "windows", "fine_ratio_permille_sum", "miss_rate_permille_sum", "windows_poor", "windows_fine",
                "windows_poor_fine", "to_fine", "to_coarse", "windows_at_32", "windows_at_64" }
return {
  name = "dycache_lua",
  params = { threshold = 50, window = 1000 },
  events = { "l1d_hit", "l1d_miss" },
  start = function(m)
    m.state.sm = {}
    for i = 0, m.n_sms - 1 do m.state.sm[i] = { n = 0, n32 = 0, n64 = 0, miss = 0 } end
    m.state.c = {}
    for _, k in ipairs(names) do m.state.c[k] = m.counter(k) end
  end,
  on_event = function(m, kind, sm, warp, cta, pc, addr, set, way, value, aux, cycle, inst, size)
    local x = m.state.sm[sm]
    x.n = x.n + 1
    if size <= 32 then x.n32 = x.n32 + 1 elseif size <= 64 then x.n64 = x.n64 + 1 end
    if kind == "l1d_miss" then x.miss = x.miss + 1 end
    if x.n < m.params.window then return end
    local T, c = m.params.threshold, m.state.c
    local fine_num = x.n32 + x.n64
    local poor = x.miss * 100 >= T * x.n
    local fine = fine_num * 100 >= T * x.n
    local g = m.l1d_granularity(sm)
    m.count(c.windows)
    m.count(c.fine_ratio_permille_sum, fine_num * 1000 // x.n)
    m.count(c.miss_rate_permille_sum, x.miss * 1000 // x.n)
    if poor then m.count(c.windows_poor) end
    if fine then m.count(c.windows_fine) end
    if poor and fine then m.count(c.windows_poor_fine) end
    if g == 32 then m.count(c.windows_at_32) end
    if g == 64 then m.count(c.windows_at_64) end
    m.state.sm[sm] = { n = 0, n32 = 0, n64 = 0, miss = 0 }
    if not poor then return end
    local ng = g
    if fine and g == 128 then ng = (x.n32 > x.n64) and 32 or 64
    elseif not fine and g ~= 128 then ng = 128 end
    if ng == g then return end
    m.count(ng < g and c.to_fine or c.to_coarse)
    m.l1d_set_granularity(sm, ng)
  end,
  -- the line organisation's fetch (the chunked one does not ask): the G-aligned sectors of the miss
  fetch = function(m, sm, warp, pc, line, set, need, have, size, full)
    local g = m.l1d_granularity(sm)
    if g >= 128 then return full end
    if g == 64 then
      if need & 3 ~= 0 then need = need | 3 end
      if need & 12 ~= 0 then need = need | 12 end
    end
    return need
  end,
}
