-- A victim cache in Lua (Linebacker keeps L1D victims in idle registers): each SM keeps the last `entries` lines
-- its L1D evicted from each set (evicted), and a later load miss on one of them is served from there in `latency`
-- cycles instead of going to L2 (victim_probe), as its C twin would through the same two hooks. Victim storage
-- only: the L1D's own replacement stays the C default (LRU).
local store = {} -- [sm * 65536 + set] = { line1, sectors1, line2, sectors2, ... }, oldest first
return {
  name = "victim",
  params = { entries = 4, latency = 3 },
  start = function(m)
    m.state.kept = m.counter("kept", "lines the L1D evicted into the victim cache")
    m.state.served = m.counter("served", "load misses served from the victim cache")
  end,
  evicted = function(m, sm, set, way, line, hits, sectors, pc, warp, alloc_pc, alloc_warp, cause)
    if cause ~= mw.evict_causes.replace then return end -- stores and invalidations make the data stale
    m.count(m.state.kept)
    local k = sm * 65536 + set
    local s = store[k]
    if not s then
      s = {}
      store[k] = s
    end
    s[#s + 1] = line
    s[#s + 1] = sectors
    if #s > 2 * m.params.entries then
      table.remove(s, 1)
      table.remove(s, 1)
    end
  end,
  victim_probe = function(m, sm, set, line, sectors, warp, pc)
    local s = store[sm * 65536 + set]
    if not s then return 0 end
    for i = 1, #s, 2 do
      if s[i] == line and s[i + 1] & sectors == sectors then
        table.remove(s, i) -- the line goes back to the warp: an exclusive victim cache
        table.remove(s, i)
        m.count(m.state.served)
        return m.params.latency
      end
    end
    return 0
  end,
}
