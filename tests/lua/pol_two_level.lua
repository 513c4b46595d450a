-- Two-level warp scheduling in Lua: the twin of policies/sched_two_level.c (parity tests). Per scheduler, a
-- small active set is scheduled round-robin; a warp that issues a long-latency load or a barrier (or exits)
-- leaves it, and the oldest pending warp that is not waiting at a barrier takes its place.
local P = { name = "two_level" }
local CAP = 8 -- active_warps
local LD_GLOBAL, ATOMIC, LD_LOCAL, BARRIER, EXIT = 9, 11, 12, 6, 8
local S = {}  -- per scheduler: last, nactive, queue[head..tail], where[w], age[w]

local function sched(sm, sc)
  local k = sm * 16 + sc
  local s = S[k]
  if not s then
    s = { last = -1, nactive = 0, queue = {}, head = 1, tail = 0, where = {}, age = {} }
    S[k] = s
  end
  return s
end

local function push(s, w)
  s.tail = s.tail + 1
  s.queue[s.tail] = w
  s.where[w] = "pending"
end

local function promote(m, sm, s)
  local budget = s.tail - s.head + 1 -- each entry looked at once: waiting warps go to the back
  while s.nactive < CAP and s.head <= s.tail and budget > 0 do
    budget = budget - 1
    local w = s.queue[s.head]
    s.queue[s.head] = nil
    s.head = s.head + 1
    if s.where[w] == "pending" then
      if m.warp_at_barrier(sm, w) then
        push(s, w)
      else
        s.where[w] = "active"
        s.nactive = s.nactive + 1
      end
    end
  end
  if s.head > s.tail then s.queue, s.head, s.tail = {}, 1, 0 end
end

function P.qualify(m, sm, sc, w, pc, op)
  local s = sched(sm, sc)
  local age = m.warp_age(sm, w)
  if s.where[w] == nil or s.age[w] ~= age then -- a warp new to this slot
    if s.where[w] == "active" then s.nactive = s.nactive - 1 end
    s.age[w] = age
    push(s, w)
  end
  promote(m, sm, s)
  return s.where[w] == "active"
end

function P.pick(m, sm, sc, ready, n)
  local last = sched(sm, sc).last
  for i = 1, n do
    if ready[i] > last then return i end
  end
  return 1
end

function P.issued(m, sm, sc, w, pc, op)
  local s = sched(sm, sc)
  s.last = w
  local long = op == LD_GLOBAL or op == LD_LOCAL or op == ATOMIC or op == BARRIER
  if (long or op == EXIT) and s.where[w] == "active" then
    s.nactive = s.nactive - 1
    if op == EXIT then s.where[w] = nil else push(s, w) end
    promote(m, sm, s)
  end
end

return P
