-- experiments/correlate.lua on a reference of three shared traces with made-up numbers: the CSV has one row per
-- trace x counter, its errors are those worked out here from the same traces' own stats, the printed Pearson
-- correlation and mean error of cycles are the hand-computed ones, the SVG has a point per trace and the
-- diagonal, and OUTDIR holds nothing but the outputs.
-- Usage (from the source tree): moonwarp tests/lua/correlate.lua path/to/moonwarp
local mw = require "moonwarp"

local BIN = assert(arg[1], "usage: moonwarp tests/lua/correlate.lua path/to/moonwarp")
local CONFIG, TRACES = "experiments/configs/gtx480.yaml", "../shared/traces"

-- Made-up reference numbers; one field left empty (not available).
local REF = {
  { trace = "microgpusim_vectoradd_100", cycles = 1000, thread_insts = 10000, ipc = 10.5, l1d_miss_rate = 0.5,
    l2_miss_rate = 0.75, wall_s = 0.5 },
  { trace = "microgpusim_matrixmul_32", cycles = 5000, thread_insts = 140000, ipc = 28, l1d_miss_rate = 0.25,
    l2_miss_rate = 1, wall_s = nil },
  { trace = "mgpusim_vectoradd", cycles = 4000, thread_insts = 800000, ipc = 200, l1d_miss_rate = 0.9,
    l2_miss_rate = 0.95, wall_s = 4 },
}
local COUNTERS = { "cycles", "thread_insts", "ipc", "l1d_miss_rate", "l2_miss_rate", "wall_s" }

local function sh(cmd)
  local p = io.popen(cmd .. " 2>&1")
  local out = p:read("a")
  local _, _, code = p:close()
  return code, out
end

local tmp = assert(io.popen("mktemp -d")):read("l")
assert(tmp and tmp ~= "", "mktemp -d failed")
local ok, err = pcall(function()
  -- the reference
  local f = assert(io.open(tmp .. "/ref.csv", "w"))
  f:write("trace,config,kernels,cycles,thread_insts,ipc,l1d_miss_rate,l2_miss_rate,wall_s\n")
  for _, r in ipairs(REF) do
    local v = { r.trace, "gtx480", 1 }
    for _, c in ipairs(COUNTERS) do v[#v + 1] = r[c] ~= nil and tostring(r[c]) or "" end
    f:write(table.concat(v, ","), "\n")
  end
  f:close()

  local out_dir = tmp .. "/out"
  local code, out = sh(string.format("'%s' experiments/correlate.lua '%s/ref.csv' %s '%s' --config %s", BIN, tmp,
                                     TRACES, out_dir, CONFIG))
  if code ~= 0 then error("the correlator exited " .. tostring(code) .. ":\n" .. out) end

  -- correlation.csv: one row per trace x counter
  local rows, header = {}, nil
  for line in io.lines(out_dir .. "/correlation.csv") do
    local fields = {}
    for s in (line .. ","):gmatch("([^,]*),") do fields[#fields + 1] = s end
    if not header then header = fields
    else
      local row = {}
      for i, h in ipairs(header) do row[h] = fields[i] end
      rows[#rows + 1] = row
    end
  end
  assert(#rows == #REF * #COUNTERS, "expected " .. #REF * #COUNTERS .. " rows, found " .. #rows)
  local by = {}
  for _, r in ipairs(rows) do by[r.trace .. "/" .. r.counter] = r end
  for _, t in ipairs(REF) do
    for _, c in ipairs(COUNTERS) do assert(by[t.trace .. "/" .. c], "no row for " .. t.trace .. " " .. c) end
  end
  print(string.format("ok  correlation.csv: %d rows, one per trace x counter", #rows))

  -- the errors, worked out from each trace's own stats
  local function g(v) return string.format("%.12g", v) end
  local mw_cycles, ref_cycles, abs_sum = {}, {}, 0
  local checked = 0
  for _, t in ipairs(REF) do
    local sim = mw.sim { config = CONFIG, trace = TRACES .. "/" .. t.trace .. "/kernelslist.g" }
    assert(sim:run() == true)
    local st = sim:stats()
    sim:close()
    for _, c in ipairs { "cycles", "thread_insts", "ipc" } do
      local r = by[t.trace .. "/" .. c]
      local m = st[r.moonwarp_stat]
      assert(r.moonwarp_stat == "gpu." .. c, c .. " read from " .. r.moonwarp_stat)
      assert(r.moonwarp == g(m), string.format("%s %s: moonwarp %s, stats say %s", t.trace, c, r.moonwarp, g(m)))
      assert(r.reference == g(t[c]))
      local e = (m - t[c]) / t[c]
      assert(r.error == g(e), string.format("%s %s: error %s, expected %s", t.trace, c, r.error, g(e)))
      assert(r.error_kind == "relative")
      checked = checked + 1
    end
    for _, c in ipairs { "l1d_miss_rate", "l2_miss_rate" } do
      local r = by[t.trace .. "/" .. c]
      local unit = c:match("^(%w+)_")
      local m
      if r.moonwarp_stat == unit .. ".gpgpusim_miss_rate" or r.moonwarp_stat == unit .. ".miss_rate" then
        m = st[r.moonwarp_stat]
      else
        assert(r.moonwarp_stat == unit .. ".misses/" .. unit .. ".accesses", c .. " read from " .. r.moonwarp_stat)
        m = st[unit .. ".accesses"] ~= 0 and st[unit .. ".misses"] / st[unit .. ".accesses"] or 0
      end
      assert(r.error == g(m - t[c]), string.format("%s %s: error %s, expected %s", t.trace, c, r.error, g(m - t[c])))
      assert(r.error_kind == "absolute")
      checked = checked + 1
    end
    local w = by[t.trace .. "/wall_s"]
    assert(tonumber(w.moonwarp) and tonumber(w.moonwarp) > 0, "wall time " .. tostring(w.moonwarp))
    if t.wall_s then
      -- moonwarp's wall time is in the CSV to 12 digits
      assert(math.abs(tonumber(w.error) - (tonumber(w.moonwarp) - t.wall_s) / t.wall_s) < 1e-9, w.error)
    else
      assert(w.reference == "" and w.error == "", "an empty reference field gives no error")
    end
    mw_cycles[#mw_cycles + 1], ref_cycles[#ref_cycles + 1] = st["gpu.cycles"], t.cycles
    abs_sum = abs_sum + math.abs((st["gpu.cycles"] - t.cycles) / t.cycles)
  end
  print(string.format("ok  %d errors equal the hand-computed ones", checked))

  -- Pearson's r of cycles by the one-pass textbook formula, and the mean absolute error
  local n, sx, sy, sxx, syy, sxy = #mw_cycles, 0, 0, 0, 0, 0
  for i = 1, n do
    local x, y = ref_cycles[i], mw_cycles[i]
    sx, sy, sxx, syy, sxy = sx + x, sy + y, sxx + x * x, syy + y * y, sxy + x * y
  end
  local r = (n * sxy - sx * sy) / math.sqrt((n * sxx - sx * sx) * (n * syy - sy * sy))
  local line = out:match("\ncycles%s+gpu%.cycles%s+relative[^\n]*")
  assert(line, "no summary line for cycles in:\n" .. out)
  local traces, mae, pr = line:match("relative%s+(%d+)%s+([%d.]+)%%%s+(%S+)%s*$")
  assert(traces == "3", line)
  assert(pr == string.format("%.4f", r), string.format("pearson %s, expected %.4f", pr, r))
  assert(mae == string.format("%.2f", 100 * abs_sum / n), string.format("mean error %s, expected %.2f", mae,
                                                                       100 * abs_sum / n))
  assert(out:find("\nwall_s%s+mw%.clock%s+relative%s+2%s"), "wall_s summarises the 2 traces with a reference")
  print(string.format("ok  cycles: pearson %s, mean |error| %s%%", pr, mae))

  -- the plot
  local svg = assert(io.open(out_dir .. "/correlation.svg")):read("a")
  local _, points = svg:gsub('<circle class="point"', "")
  local _, diagonals = svg:gsub('<line class="diagonal"', "")
  assert(points == #REF, "the SVG has " .. points .. " points")
  assert(diagonals == 1, "the SVG has " .. diagonals .. " diagonals")
  for _, t in ipairs(REF) do assert(svg:find(">" .. t.trace .. "</text>", 1, true), "no label " .. t.trace) end
  assert(svg:match("</svg>\n$"), "the SVG is complete")
  print(string.format("ok  correlation.svg: %d points, the diagonal", points))

  -- nothing but the outputs in OUTDIR (no temporary file left)
  local files = {}
  for name in io.popen("ls -A '" .. out_dir .. "'"):lines() do files[#files + 1] = name end
  local list = table.concat(files, " ")
  assert(list == "correlation.csv correlation.png correlation.svg" or list == "correlation.csv correlation.svg", list)
  print("ok  OUTDIR: " .. list)
end)
os.execute("rm -rf '" .. tmp .. "'")
if not ok then error(err, 0) end
