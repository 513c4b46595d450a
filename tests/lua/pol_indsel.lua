-- IndSelCaching (Choo 2016, §4.3.2) as an L1D bypass policy: each request's verdict comes from the whole request
-- list of its instruction (reqs.set), by the per-set rule of indsel_rule.lua.
local bypasses = require "indsel_rule"
return {
  name = "indsel",
  decide = function(m, sm, warp, pc, line, set, size, index, n, retry, reqs)
    return bypasses(reqs.set, n, index, m.l1d_assoc)
  end,
}
