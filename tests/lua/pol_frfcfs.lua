-- First-ready FCFS in Lua: the twin of policies/dram_frfcfs.c (row hits first, then the oldest; ties by id).
local P = { name = "frfcfs" }

function P.pick(m, channel, bank, open_row, hits_in_row, now, c, n)
  local hit, arr, id = c.row_hit, c.arrival, c.id
  local best = 1
  local hb, ab, ib = hit[1], arr[1], id[1]
  for i = 2, n do
    local hi, ai = hit[i], arr[i]
    if (hi and not hb) or (hi == hb and (ai < ab or (ai == ab and id[i] < ib))) then
      best, hb, ab, ib = i, hi, ai, id[i]
    end
  end
  return best
end

return P
