-- Linebacker §2.3 (Figs. 2 and 3) as an event subscriber that decides nothing: per SM and per window of
-- `window` core cycles (counted from each kernel's start, as the Load Monitor's; a kernel's last window is shorter),
-- every global load's L1D accesses (hits and misses, merged ones included: one per coalesced line request) by load PC
-- and line. At each window end, for each SM that loaded something:
--   * a load (PC) is streaming when its miss ratio in an infinite cache emptied at the window's start exceeds
--     `stream_ratio` (0.95): an access misses when its line was not accessed before in the window on this SM, by any
--     load (`inf_scope = "shared"`, one infinite L1D per SM) or by this load (`"own"`, "the miss ratio of only that
--     load" read as the load alone in the cache);
--   * streaming data = the distinct lines the streaming loads accessed (x 128 B);
--   * the top `top` (4) loads = the non-streaming loads of this SM-window with the most accesses (ties: lower PC);
--   * their reused working set = the distinct lines they accessed that were accessed at least twice in the window
--     (re-accessed within it), counting the accesses of every load (`reuse_by = "any"`) or of the top loads only
--     (`"top"`); a line of it is used by only one load when no other load PC accessed it in the window.
-- `export` gives per SM-window {sm, kernel, window, lines, stream_lines, ws_lines, ws_single} and per PC {kernel,
-- off, acc, inf_miss, sw (SM-windows it ran in), stream_w, top_w, ws_lines (reused lines it accessed while in the
-- top)}. experiments/papers/linebacker_ws.lua turns them into the per-app table.
local sms = {}        -- per SM: { lines = line -> { n, npc, pcs = pc -> accesses }, pcs = pc -> { acc, miss } }
local smwin = {}      -- the SM-windows' results
local pcinfo = {}     -- pc -> totals
local kn, kw = 0, 0   -- kernel number, window of the kernel

local function reset(s) sms[s] = { lines = {}, pcs = {}, any = false } end

local function info(m, pc)
  local r = pcinfo[pc]
  if not r then
    r = { kernel = kn, off = m.code_offset(pc), pc = pc, acc = 0, inf_miss = 0, sw = 0, stream_w = 0, top_w = 0,
          ws_lines = 0 }
    pcinfo[pc] = r
  end
  return r
end

local function access(m, s, pc, line)
  local v = sms[s]
  v.any = true
  local l = v.lines[line]
  local own_hit = false
  if not l then
    l = { n = 0, npc = 0, pcs = {} }
    v.lines[line] = l
  end
  local c = l.pcs[pc]
  if c then own_hit = true else l.npc = l.npc + 1 end
  local hit = m.params.inf_scope == "own" and own_hit or (m.params.inf_scope ~= "own" and l.n > 0)
  l.pcs[pc] = (c or 0) + 1
  l.n = l.n + 1
  local p = v.pcs[pc]
  if not p then p = { acc = 0, miss = 0 }; v.pcs[pc] = p end
  p.acc = p.acc + 1
  if not hit then p.miss = p.miss + 1 end
  local r = info(m, pc)
  r.acc = r.acc + 1
  if not hit then r.inf_miss = r.inf_miss + 1 end
end

local function close_window(m, s)
  local v = sms[s]
  if not v or not v.any then return end
  local prm = m.params
  local streaming, cand = {}, {}
  for pc, p in pairs(v.pcs) do
    local r = pcinfo[pc]
    r.sw = r.sw + 1
    if p.miss > prm.stream_ratio * p.acc then
      streaming[pc] = true
      r.stream_w = r.stream_w + 1
    else
      cand[#cand + 1] = pc
    end
  end
  table.sort(cand, function(a, b)
    local x, y = v.pcs[a].acc, v.pcs[b].acc
    if x ~= y then return x > y end
    return a < b
  end)
  local top = {}
  for i = 1, math.min(prm.top, #cand) do top[cand[i]] = true; pcinfo[cand[i]].top_w = pcinfo[cand[i]].top_w + 1 end
  local nlines, nstream, nws, nsingle = 0, 0, 0, 0
  for _, l in pairs(v.lines) do
    nlines = nlines + 1
    local st, tn, intop = false, 0, false
    for pc, c in pairs(l.pcs) do
      if streaming[pc] then st = true end
      if top[pc] then intop = true; tn = tn + c end
    end
    if st then nstream = nstream + 1 end
    if intop and (prm.reuse_by == "top" and tn or l.n) >= 2 then
      nws = nws + 1
      if l.npc == 1 then nsingle = nsingle + 1 end
      for pc in pairs(l.pcs) do
        if top[pc] then pcinfo[pc].ws_lines = pcinfo[pc].ws_lines + 1 end
      end
    end
  end
  smwin[#smwin + 1] = { sm = s, kernel = kn, window = kw, lines = nlines, stream_lines = nstream, ws_lines = nws,
                        ws_single = nsingle }
end

local function close_all(m)
  for s = 0, m.n_sms - 1 do close_window(m, s); reset(s) end
end

return {
  name = "lb_ws",
  budget = false, -- a window end walks every line an SM touched in it: tens of ms at default sizes
  params = { window = 50000, top = 4, stream_ratio = 0.95, inf_scope = "shared", reuse_by = "any" },
  events = { "kernel_start", "window", "l1d_hit", "l1d_miss" },
  start = function(m)
    assert(m.params.inf_scope == "shared" or m.params.inf_scope == "own", "inf_scope: shared or own")
    assert(m.params.reuse_by == "any" or m.params.reuse_by == "top", "reuse_by: any or top")
    for s = 0, m.n_sms - 1 do reset(s) end
  end,
  on_event = function(m, kind, sm, warp, cta, pc, addr)
    if kind == "l1d_hit" or kind == "l1d_miss" then
      access(m, sm, pc, addr)
    elseif kind == "window" then
      close_all(m)
      kw = kw + 1
    else -- kernel_start: the last (short) window of the kernel before, then windows from this kernel's start
      close_all(m)
      kn, kw = kn + 1, 0
      m.set_window(m.params.window)
    end
  end,
  finish = function(m) close_all(m) end,
  export = function()
    local pcs = {}
    for _, r in pairs(pcinfo) do pcs[#pcs + 1] = r end
    table.sort(pcs, function(a, b) return a.kernel < b.kernel or a.kernel == b.kernel and a.off < b.off end)
    return { smwin = smwin, pcs = pcs }
  end,
}
