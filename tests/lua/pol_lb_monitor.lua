-- Linebacker's Load Monitor in Lua (policies/linebacker.c, spec/002_linebacker.md §1.2), as an event subscriber
-- that decides nothing: per SM, 32 entries indexed by the 5-bit XOR-folded PC count L1D hits and, for misses, hits
-- in a tag-only victim tag table (sets x 32 ways, LRU) fed by L1D replacements; at each window end the 2-bit valid
-- shift selects the entries high-locality (> 20 %) in two windows running, or disables Linebacker when no load was
-- high-locality in windows 1-2 (or, later, in a whole window). Monitoring restarts at each kernel. What it selects
-- is published as counters named like the C policy's (policy.<point>.selected_loads, selected_hpcs,
-- monitor_windows, disabled) and exported per SM with the PCs.
local WAYS, NLM = 32, 32
local sms = {}

local function hpc(pc)
  local x, h = pc & 0xffffffff, 0
  for i = 0, 30, 5 do h = h ~ ((x >> i) & 31) end
  return h
end

local function reset(m, s)
  local lm = {}
  for i = 0, NLM - 1 do lm[i] = { hit = 0, miss = 0, valid = 0, pc = nil } end
  local vtt = {}
  for set = 0, m.l1d_sets - 1 do vtt[set] = {} end
  sms[s] = { lm = lm, vtt = vtt, clock = 0, win = 0, seen = false, mode = "mon", sel = 0, pcs = {} }
end

local function vtt_find(v, set, line)
  for i, e in ipairs(v.vtt[set]) do if e.line == line then return i end end
end
local function vtt_insert(v, set, line)
  local ways = v.vtt[set]
  v.clock = v.clock + 1
  local i = vtt_find(v, set, line)
  if not i then
    if #ways < WAYS then
      i = #ways + 1
    else
      i = 1
      for k = 2, #ways do if ways[k].lru < ways[i].lru then i = k end end
    end
    ways[i] = {}
  end
  ways[i].line, ways[i].lru = line, v.clock
end

local function count(v, pc, hit)
  local e = v.lm[hpc(pc)]
  if not e.pc then e.pc = pc end
  if hit then e.hit = e.hit + 1 else e.miss = e.miss + 1 end
end

local function window_end(m, v)
  local b, prev, thr = 0, 0, m.params.hit_threshold
  v.win = v.win + 1
  for i = 0, NLM - 1 do
    local e = v.lm[i]
    local n = e.hit + e.miss
    local bit = (n > 0 and e.hit > thr * n) and 1 or 0
    e.valid = ((e.valid & 1) << 1) | bit
    e.hit, e.miss = 0, 0
    b = b | (bit << i)
    prev = prev | (((e.valid >> 1) & 1) << i)
  end
  if v.win <= 2 and b ~= 0 then v.seen = true end
  if v.win >= 2 and not v.seen then
    v.mode = "off"; m.count(m.state.c.disabled); return
  end
  local sel = 0
  for i = 0, NLM - 1 do if v.lm[i].valid == 3 then sel = sel | (1 << i) end end
  if sel ~= 0 then
    v.mode, v.sel = "on", sel
    for i = 0, NLM - 1 do if sel >> i & 1 == 1 then v.pcs[#v.pcs + 1] = m.code_offset(v.lm[i].pc) end end
    m.count(m.state.c.selected_loads, m.popcount(sel))
    m.state.hpcs = m.state.hpcs | sel
    m.count(m.state.c.monitor_windows, v.win)
    return
  end
  if v.win > 2 and b == 0 then v.mode = "off"; m.count(m.state.c.disabled) end
end

return {
  name = "lb_monitor",
  params = { window = 50000, hit_threshold = 0.2 },
  events = { "kernel_start", "window", "l1d_hit", "l1d_miss", "l1d_evict", "l1d_store" },
  start = function(m)
    m.state.c = { selected_loads = m.counter("selected_loads", "LM entries selected"),
                  monitor_windows = m.counter("monitor_windows", "windows until monitoring ended"),
                  disabled = m.counter("disabled", "SM-kernels with Linebacker disabled") }
    m.state.hpcs, m.state.done = 0, {}
    for s = 0, m.n_sms - 1 do reset(m, s) end
    m.set_window(m.params.window)
  end,
  on_event = function(m, kind, sm, warp, cta, pc, addr, set, way, value, aux, cycle, inst, size, sectors, apc, aw,
                      cause)
    if kind == "window" then
      for s = 0, m.n_sms - 1 do if sms[s].mode == "mon" then window_end(m, sms[s]) end end
      return
    elseif kind == "kernel_start" then
      for s = 0, m.n_sms - 1 do
        if #sms[s].pcs > 0 then m.state.done[#m.state.done + 1] = { sm = s, pcs = sms[s].pcs } end
        reset(m, s)
      end
      m.set_window(m.params.window)
      return
    end
    local v = sms[sm]
    if v.mode ~= "mon" then return end
    if kind == "l1d_hit" then
      count(v, pc, true)
    elseif kind == "l1d_miss" then
      count(v, pc, value == 0 and vtt_find(v, set, addr) ~= nil)
    elseif kind == "l1d_evict" then
      if cause == 0 then vtt_insert(v, set, addr) end -- mw.evict_causes.replace
    elseif kind == "l1d_store" then
      local i = vtt_find(v, set, addr)
      if i then table.remove(v.vtt[set], i) end
    end
  end,
  finish = function(m)
    for s = 0, m.n_sms - 1 do
      if #sms[s].pcs > 0 then m.state.done[#m.state.done + 1] = { sm = s, pcs = sms[s].pcs } end
    end
  end,
  export = function(m) return { hpcs = m.state.hpcs, done = m.state.done } end,
}
