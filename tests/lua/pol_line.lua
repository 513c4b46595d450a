-- Fixed whole-line granularity in Lua: the twin of policies/gran_line.c (fetch every sector of the line).
return {
  name = "line",
  fetch = function(m, sm, warp, pc, line, set, need, have, size, full) return full end,
}
