-- Probes a script policy's hook state while it loads: nothing reads files (no dofile, no loadfile) and load takes
-- Lua text only, whatever mode it is asked for. Returns GTO's default table (no hooks) and what it found.
local found = {
  dofile = dofile == nil,
  loadfile = loadfile == nil,
  text = load("return 6 * 7")() == 42,
  env = load("return x", "chunk", "t", { x = 5 })() == 5,
}
local f, err = load(string.dump(function() return 1 end))
found.binary = f == nil and err
f, err = load(string.dump(function() return 1 end), "dumped", "b")
found.binary_b = f == nil and err
f, err = load(string.dump(function() return 1 end), "dumped", "bt")
found.binary_bt = f == nil and err
return { name = "sandbox", export = function() return found end }
