-- Li 2015 MSHR-S in Lua: the twin of policies/dram_mshr.c's mshr_s. Rule 1: the open row's request of the largest
-- merge length; with no row hit, the row whose merge lengths sum highest (ties: the row of the oldest request),
-- then its request of the largest merge length. Ties between requests go to the oldest (arrival, then id). A list
-- of writes only is served FR-FCFS.
local P = { name = "mshr_s" }

local sum, first = {}, {}

function P.pick(m, channel, bank, open_row, hits_in_row, now, c, n)
  local hit, arr, id, merge, row = c.row_hit, c.arrival, c.id, c.merge, c.row
  local function older(i, j) return arr[i] < arr[j] or (arr[i] == arr[j] and id[i] < id[j]) end
  local wr, all_writes = c.is_write, true
  for i = 1, n do if not wr[i] then all_writes = false break end end
  if all_writes then -- the write queue: FR-FCFS
    local b = 1
    for i = 2, n do
      if (hit[i] and not hit[b]) or (hit[i] == hit[b] and older(i, b)) then b = i end
    end
    return b
  end
  local best
  for i = 1, n do
    if hit[i] and (not best or merge[i] > merge[best] or (merge[i] == merge[best] and older(i, best))) then best = i end
  end
  if best then return best end
  -- row scores; candidates come oldest first, so a row's first candidate is its oldest
  for k in pairs(sum) do sum[k] = nil; first[k] = nil end
  for i = 1, n do
    local r = row[i]
    if not sum[r] then sum[r], first[r] = 0, i end
    sum[r] = sum[r] + merge[i]
  end
  local brow
  for r, s in pairs(sum) do
    if not brow or s > sum[brow] or (s == sum[brow] and older(first[r], first[brow])) then brow = r end
  end
  for i = 1, n do
    if row[i] == brow and (not best or merge[i] > merge[best] or (merge[i] == merge[best] and older(i, best))) then
      best = i
    end
  end
  return best
end

return P
