-- IndSelCaching's rule (Choo 2016, §4.3.2): for each L1D set s touched by an instruction's requests, R_s is the
-- list of its requests that map to s, in issue order; if |R_s| > n (the associativity) the last n of R_s are cached
-- and the first |R_s| - n bypass, else all of R_s is cached. Returns whether request `index` of the `count`
-- requests whose sets are sets[1..count] bypasses.
return function(sets, count, index, assoc)
  local s, total, before = sets[index], 0, 0
  for i = 1, count do
    if sets[i] == s then
      total = total + 1
      if i < index then before = before + 1 end
    end
  end
  return total > assoc and before < total - assoc -- its position in R_s is before + 1
end
