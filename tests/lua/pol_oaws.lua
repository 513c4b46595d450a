-- Static OAWS in Lua: the twin of policies/sched_oaws.c's `oaws` (parity: tests/lua/oaws_twin.lua). GTO's pick;
-- qualify holds a load whose PC the divergent load classifier (32 PCs per SM, cleared at each kernel launch,
-- LRU) knows while floor(active lanes x SMR) > free MSHRs - the predictions of the loads in flight (Eq. 1);
-- coherent loads predict 1 and are never held. A load leaves the in-flight sum at its load_done event, which
-- also fills the classifier (more than 2 accesses = divergent) and asks qualify again.
local P = { name = "oaws_lua", qualify_deps = { "mshr", "issue" }, events = { "kernel_start", "load_done" } }
local LD_GLOBAL, LD_LOCAL = 9, 12
local DIV_LINES, DLC_N = 2, 32
local SM = {} -- per SM: inflight, fl[id] = prediction, dlc[1..32], clock, greedy[sched]

local function sm_of(sm)
  local s = SM[sm]
  if not s then
    s = { inflight = 0, fl = {}, dlc = {}, clock = 0, greedy = {} }
    for i = 1, DLC_N do s.dlc[i] = { valid = false } end
    SM[sm] = s
  end
  return s
end

local function dlc_find(s, pc)
  for i = 1, DLC_N do
    local e = s.dlc[i]
    if e.valid and e.pc == pc then return e end
  end
end

local function dlc_update(s, pc, acc, sets)
  local x = dlc_find(s, pc)
  if not x then
    x = s.dlc[1]
    for i = 1, DLC_N do
      local e = s.dlc[i]
      if not e.valid then x = e; break end
      if e.lru < x.lru then x = e end
    end
    x.valid, x.pc, x.ninst, x.acc, x.sets = true, pc, 0, 0, 0
  end
  s.clock = s.clock + 1
  x.lru = s.clock
  x.ninst, x.acc, x.sets = x.ninst + 1, x.acc + acc, x.sets + sets
  if x.ninst >= 127 then x.ninst, x.acc, x.sets = x.ninst // 2, x.acc // 2, x.sets // 2 end
end

-- Miss_pred and whether Eq. 1 applies
local function pred(m, s, pc, op, mask)
  if (op ~= LD_GLOBAL and op ~= LD_LOCAL) or mask == 0 then return 0, false end
  if not dlc_find(s, pc) then return 1, false end
  local smr = m.params.smr or 0.5
  local p = math.floor(m.popcount(mask) * smr + 1e-9)
  if p > m.l1d_mshrs then p = m.l1d_mshrs end
  return p, true
end

function P.start(m)
  -- the C policy's counters, in its order (only `held` moves in the static variant)
  m.state.held = m.counter("held")
  for _, n in ipairs { "fully_cached", "partially_cached", "assoc_sensitive", "ocw_up", "ocw_down", "ocw_sum" } do
    m.counter(n)
  end
  m.state.div_loc, m.state.div_gated = m.counter("div_locality"), m.counter("div_gated")
end

function P.qualify(m, sm, sc, w, pc, op, mask)
  local s = sm_of(sm)
  local p, gated = pred(m, s, pc, op, mask)
  if not gated or p == 0 then return true end
  if p <= m.mshr_free(sm) - s.inflight then return true end
  m.count(m.state.held)
  return false
end

function P.pick(m, sm, sc, ready, n)
  local g = sm_of(sm).greedy[sc]
  local best, best_age = 1, math.huge
  for i = 1, n do
    if ready[i] == g then return i end
    local a = m.warp_age(sm, ready[i])
    if a < best_age then best, best_age = i, a end
  end
  return best
end

function P.issued(m, sm, sc, w, pc, op, mask, id)
  local s = sm_of(sm)
  local p, gated = pred(m, s, pc, op, mask)
  s.greedy[sc] = w
  if gated then m.count(p > 0 and m.state.div_gated or m.state.div_loc) end
  if p > 0 then
    s.fl[id] = p
    s.inflight = s.inflight + p
  end
end

function P.on_event(m, kind, sm, warp, cta, pc, addr, set, way, value, aux, cycle, inst)
  if kind == "kernel_start" then
    for _, s in pairs(SM) do
      for i = 1, DLC_N do s.dlc[i] = { valid = false } end
    end
    return
  end
  local s = sm_of(sm)
  local p = s.fl[inst]
  if p then
    s.inflight = s.inflight - p
    s.fl[inst] = nil
  end
  if value > DIV_LINES then dlc_update(s, pc, value, set) end
  m.recheck(sm)
end

return P
