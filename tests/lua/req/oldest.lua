-- The index of the oldest of n ready warps (the lowest launch age).
return function(m, sm, ready, n)
  local best, best_age = 1, math.maxinteger
  for i = 1, n do
    local a = m.warp_age(sm, ready[i])
    if a < best_age then best, best_age = i, a end
  end
  return best
end
