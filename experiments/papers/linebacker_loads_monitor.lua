-- Per-load view of Linebacker's Load Monitor (policies/linebacker.c; the selection logic is
-- tests/lua/pol_lb_monitor.lua, the twin that selects what the C bundle selects), as an event subscriber that
-- decides nothing. Per SM-kernel it keeps the LM's counts per PC (not per 5-bit hashed PC) in monitoring windows
-- 1 and 2: L1D hits, VTT hits, misses merged into an MSHR, other misses; which hashed entries ended selected; and
-- over the whole run, per PC, L1D accesses, L1D hits and victim (register) hits. Beside it a shadow LM that never
-- stops monitoring (its own tag-only VTT fed by L1D replacements all run) gives, per PC and per window of the
-- kernel, the ratio the LM would see if it monitored in that window, and the victim hits of that window. `export`
-- gives the lot; experiments/papers/linebacker_loads.lua prints it. At each window end it also notes how far apart
-- the warps of each SM are: the instructions issued by its most advanced live warp minus its least advanced one's
-- (warps of one CTA in step: near 0), averaged over the SMs with two or more live warps.
local WAYS, NLM = 32, 32
local sms = {}
local pcs = {}      -- code offset -> per-PC record
local slots = {}    -- "kernel:hashed PC" -> SM-kernels where its LM entry ended selected
local kn = 0        -- kernels started
local kw = 0        -- windows elapsed in the current kernel
local spread = {}   -- "kernel:window" -> { sum of the SMs' warp spreads, SMs }
local shadow = {}   -- per SM: { vtt = set -> { line -> LRU stamp }, n = set -> lines held, clock }
local bases, nbases = {}, 0 -- code range base -> kernel number (1, 2, ... in order of first access)

local function hpc(pc)
  local x, h = pc & 0xffffffff, 0
  for i = 0, 30, 5 do h = h ~ ((x >> i) & 31) end
  return h
end

local function rec(m, pc)
  local r = pcs[pc]
  if r then return r end
  local off = m.code_offset(pc)
  local base = pc >> 24 -- each kernel name has its own 16 MB code range (docs/fidelity.md)
  if not bases[base] then nbases = nbases + 1; bases[base] = nbases end
  r = { kernel = bases[base], off = off, slot = hpc(pc), w = { {}, {} }, acc = 0, hit = 0, vhit = 0,
        hl = { 0, 0 }, seen = { 0, 0 }, series = {} }
  for i = 1, 2 do r.w[i] = { hit = 0, vhit = 0, vtt = 0, merged = 0, miss = 0 } end
  pcs[pc] = r
  return r
end

local function reset(m, s)
  local lm = {}
  for i = 0, NLM - 1 do lm[i] = { hit = 0, miss = 0, valid = 0 } end
  local vtt = {}
  for set = 0, m.l1d_sets - 1 do vtt[set] = {} end
  sms[s] = { lm = lm, vtt = vtt, clock = 0, win = 0, seen = false, mode = "mon", win_pcs = {} }
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

local function shadow_reset(m, s)
  local sh = { vtt = {}, n = {}, clock = 0 }
  for set = 0, m.l1d_sets - 1 do sh.vtt[set], sh.n[set] = {}, 0 end
  shadow[s] = sh
end

local function shadow_insert(sh, set, line)
  local t = sh.vtt[set]
  sh.clock = sh.clock + 1
  if not t[line] then
    if sh.n[set] < WAYS then
      sh.n[set] = sh.n[set] + 1
    else
      local lru, stamp = nil, math.huge
      for l, c in pairs(t) do if c < stamp then lru, stamp = l, c end end
      t[lru] = nil
    end
  end
  t[line] = sh.clock
end

local function shadow_drop(sh, set, line)
  if sh.vtt[set][line] then sh.vtt[set][line], sh.n[set] = nil, sh.n[set] - 1 end
end

-- per PC and window of the kernel: accesses, LM hits (L1D, victim or shadow-VTT hits), victim hits
local function tick(r, lmhit, vhit)
  local w = r.series[kw + 1]
  if not w then w = { 0, 0, 0 }; r.series[kw + 1] = w end
  w[1] = w[1] + 1
  if lmhit then w[2] = w[2] + 1 end
  if vhit then w[3] = w[3] + 1 end
end

local function window_end(m, v)
  local b, thr = 0, m.params.hit_threshold
  v.win = v.win + 1
  if v.win <= 2 then -- per PC: was it high-locality on its own in this window?
    for r, c in pairs(v.win_pcs) do
      local n = c.hit + c.vhit + c.vtt + c.merged + c.miss
      if n > 0 then
        r.seen[v.win] = r.seen[v.win] + 1
        if c.hit + c.vhit + c.vtt > thr * n then r.hl[v.win] = r.hl[v.win] + 1 end
      end
    end
  end
  v.win_pcs = {}
  for i = 0, NLM - 1 do
    local e = v.lm[i]
    local n = e.hit + e.miss
    local bit = (n > 0 and e.hit > thr * n) and 1 or 0
    e.valid = ((e.valid & 1) << 1) | bit
    e.hit, e.miss = 0, 0
    b = b | (bit << i)
  end
  if v.win <= 2 and b ~= 0 then v.seen = true end
  if v.win >= 2 and not v.seen then v.mode = "off"; return end
  local sel = 0
  for i = 0, NLM - 1 do if v.lm[i].valid == 3 then sel = sel | (1 << i) end end
  if sel ~= 0 then
    v.mode = "on"
    for i = 0, NLM - 1 do
      if sel >> i & 1 == 1 then slots[kn .. ":" .. i] = (slots[kn .. ":" .. i] or 0) + 1 end
    end
    return
  end
  if v.win > 2 and b == 0 then v.mode = "off" end
end

local function count(v, r, kind)
  local e = v.lm[r.slot]
  if kind ~= "merged" and kind ~= "miss" then e.hit = e.hit + 1 else e.miss = e.miss + 1 end
  if v.win < 2 then
    local c = v.win_pcs[r]
    if not c then c = { hit = 0, vhit = 0, vtt = 0, merged = 0, miss = 0 }; v.win_pcs[r] = c end
    c[kind] = c[kind] + 1
    local w = r.w[v.win + 1]
    w[kind] = w[kind] + 1
  end
end

return {
  name = "lb_loads",
  params = { window = 50000, hit_threshold = 0.2 },
  events = { "kernel_start", "window", "l1d_hit", "l1d_miss", "l1d_evict", "l1d_store" },
  start = function(m)
    for s = 0, m.n_sms - 1 do reset(m, s); shadow_reset(m, s) end
    m.set_window(m.params.window)
  end,
  on_event = function(m, kind, sm, warp, cta, pc, addr, set, way, value, aux, cycle, inst, size, sectors, apc, aw,
                      cause)
    if kind == "window" then
      kw = kw + 1
      local sum, n = 0, 0
      for s = 0, m.n_sms - 1 do
        local lo, hi, live = math.huge, -1, 0
        for w = 0, m.max_warps - 1 do
          if m.warp_active(s, w) then
            local k = m.warp_insts(s, w)
            if k < lo then lo = k end
            if k > hi then hi = k end
            live = live + 1
          end
        end
        if live >= 2 then sum, n = sum + hi - lo, n + 1 end
      end
      spread[kn .. ":" .. kw] = { sum, n }
      for s = 0, m.n_sms - 1 do if sms[s].mode == "mon" then window_end(m, sms[s]) end end
      return
    elseif kind == "kernel_start" then
      kn, kw = kn + 1, 0
      for s = 0, m.n_sms - 1 do reset(m, s); shadow_reset(m, s) end
      m.set_window(m.params.window)
      return
    end
    local v = sms[sm]
    if kind == "l1d_hit" then
      local r = rec(m, pc)
      r.acc = r.acc + 1
      tick(r, true, way < 0 and value == 1)
      if way < 0 and value == 1 then
        r.vhit = r.vhit + 1
        if v.mode == "mon" then count(v, r, "vhit") end
      else
        r.hit = r.hit + 1
        if v.mode == "mon" then count(v, r, "hit") end
      end
    elseif kind == "l1d_miss" then
      local r = rec(m, pc)
      r.acc = r.acc + 1
      tick(r, value == 0 and shadow[sm].vtt[set][addr] ~= nil, false)
      if v.mode == "mon" then
        if value ~= 0 then count(v, r, "merged")
        elseif vtt_find(v, set, addr) then count(v, r, "vtt")
        else count(v, r, "miss") end
      end
    elseif kind == "l1d_evict" then
      if cause == 0 then shadow_insert(shadow[sm], set, addr) end
    elseif kind == "l1d_store" then
      shadow_drop(shadow[sm], set, addr)
    end
    if v.mode ~= "mon" then
      return
    elseif kind == "l1d_evict" then
      if cause == 0 then vtt_insert(v, set, addr) end -- mw.evict_causes.replace
    elseif kind == "l1d_store" then
      local i = vtt_find(v, set, addr)
      if i then table.remove(v.vtt[set], i) end
    end
  end,
  export = function()
    local out = {}
    for _, r in pairs(pcs) do out[#out + 1] = r end
    table.sort(out, function(a, b) return a.kernel < b.kernel or a.kernel == b.kernel and a.off < b.off end)
    return { pcs = out, slots = slots, spread = spread }
  end,
}
