-- A script may lower its memory cap, never raise it past the config's ceiling (sim.lua_memory_mib).
return { memory = 65536, decide = function() return 0 end }
