-- Requires the module named by m.params.module from its pick hook (tests/lua/require.lua: names that must fail).
return {
  pick = function(m, sm, sched, ready, n)
    require(m.params.module)
    return 1
  end,
}
