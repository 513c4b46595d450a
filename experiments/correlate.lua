-- The correlator, after Accel-Sim's (util/plotting/plot-correlation.py): runs every trace of a reference CSV
-- (another simulator's numbers for the same traces, docs/fidelity.md) through moonwarp, prints each counter's
-- error per trace, the mean absolute error and Pearson correlation per counter, writes correlation.csv and draws
-- the cycles correlation plot (log-log, one point per trace, y = x) as SVG, and as PNG through gnuplot.
-- Usage: moonwarp experiments/correlate.lua REFERENCE.csv TRACES_DIR OUTDIR [--config PATH] [--set k=v ...]
local mw = require "moonwarp"

local USAGE = "usage: moonwarp experiments/correlate.lua REFERENCE.csv TRACES_DIR OUTDIR"
  .. " [--config PATH] [--set k=v ...]"

-- Where this script lives: the presets are found next to it, whatever the working folder.
local HERE = (arg and arg[0] and arg[0]:match("^(.*)/[^/]*$")) or "."

-- The reference CSV's config column names the reference machine; a preset that models that machine's
-- configuration is used when it exists (without --config), else the default below.
local PRESETS = { gtx480 = "gtx480_accelsim.yaml" }
local DEFAULT_PRESETS = { "gtx480_accelsim.yaml", "gtx480.yaml" }

-- The counters compared. `stats`: moonwarp's counter for it, in order of preference (the GPGPU-Sim-accounting
-- miss rates first; a name with '/' is a ratio of two counters); `kind`: relative error (counts, IPC, time) or
-- absolute difference (rates); `wall`: moonwarp's own wall time for the run (mw.clock around building and
-- running the simulation, as the reference's wall_s covers the whole trace).
local COUNTERS = {
  { name = "cycles", kind = "relative", stats = { "gpu.cycles" }, fmt = "%.0f" },
  { name = "thread_insts", kind = "relative", stats = { "gpu.thread_insts" }, fmt = "%.0f" },
  { name = "ipc", kind = "relative", stats = { "gpu.ipc" }, fmt = "%.3f" },
  { name = "l1d_miss_rate", kind = "absolute", rate = true, fmt = "%.4f",
    stats = { "l1d.gpgpusim_miss_rate", "l1d.miss_rate", "l1d.misses/l1d.accesses" } },
  { name = "l2_miss_rate", kind = "absolute", rate = true, fmt = "%.4f",
    stats = { "l2.gpgpusim_miss_rate", "l2.miss_rate", "l2.misses/l2.accesses" } },
  { name = "wall_s", kind = "relative", wall = "mw.clock", fmt = "%.3f" },
}

local function die(msg, code)
  io.stderr:write("correlate: ", msg, "\n")
  os.exit(code or 2)
end

local function readable(path)
  local f = io.open(path, "r")
  if f then f:close() end
  return f ~= nil
end

local function shell_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- ---- command line ------------------------------------------------------------------------------------------

local function parse_args(a)
  local pos, sets, config = {}, {}, nil
  local i = 1
  while i <= #a do
    local s = a[i]
    if s == "-h" or s == "--help" then
      print(USAGE)
      os.exit(0)
    elseif s == "--config" or s == "--set" then
      local v = a[i + 1]
      if not v then die(s .. " needs a value\n" .. USAGE) end
      if s == "--config" then config = v
      elseif not v:find("=", 1, true) then die("--set " .. v .. ": expected section.key=value")
      else sets[#sets + 1] = v end
      i = i + 1
    elseif s:match("^%-%-config=") then config = s:sub(10)
    elseif s:match("^%-%-set=") then sets[#sets + 1] = s:sub(7)
    elseif s:sub(1, 1) == "-" and #s > 1 then die("unknown option " .. s .. "\n" .. USAGE)
    else pos[#pos + 1] = s end
    i = i + 1
  end
  if #pos ~= 3 then die("expected REFERENCE.csv, TRACES_DIR and OUTDIR, got " .. #pos .. " arguments\n" .. USAGE) end
  return { reference = pos[1], traces = pos[2], outdir = pos[3], config = config, set = sets }
end

-- ---- the reference CSV -------------------------------------------------------------------------------------

-- One CSV line (RFC 4180 quoting, no newline inside a field) as a list of fields, or nil and a message.
local function split_csv(line)
  local fields, i, n = {}, 1, #line
  while true do
    if line:sub(i, i) == '"' then
      local buf, j = {}, i + 1
      while true do
        local q = line:find('"', j, true)
        if not q then return nil, "unterminated quoted field " .. #fields + 1 end
        buf[#buf + 1] = line:sub(j, q - 1)
        if line:sub(q + 1, q + 1) == '"' then
          buf[#buf + 1] = '"'
          j = q + 2
        else
          i = q + 1
          break
        end
      end
      fields[#fields + 1] = table.concat(buf)
      local c = line:sub(i, i)
      if c == "," then i = i + 1
      elseif i > n then return fields
      else return nil, "unexpected text after the quoted field " .. #fields end
    else
      local c = line:find(",", i, true)
      fields[#fields + 1] = line:sub(i, (c or n + 1) - 1):match("^%s*(.-)%s*$")
      if not c then return fields end
      i = c + 1
    end
  end
end

-- Reads the reference: { path, rows = { {trace, config, kernels, line, ref = {counter = number}} } }.
-- Required columns: trace and one per counter; config and kernels are optional; other columns are ignored.
-- An empty counter field is not available (NA); anything else must be a number, rates within [0, 1].
local function read_reference(path)
  local f, err = io.open(path, "r")
  if not f then die("cannot read the reference " .. tostring(err)) end
  local rows, col, seen, n = {}, nil, {}, 0
  local function bad(msg) f:close(); die(string.format("%s:%d: %s", path, n, msg)) end
  for line in f:lines() do
    n = n + 1
    line = line:gsub("\r$", "")
    if line:match("^%s*$") or line:match("^%s*#") then goto continue end
    local fields, why = split_csv(line)
    if not fields then bad(why) end
    if not col then
      col = {}
      for i, name in ipairs(fields) do col[name] = i end
      local missing = {}
      for _, name in ipairs { "trace", "cycles", "thread_insts", "ipc", "l1d_miss_rate", "l2_miss_rate", "wall_s" } do
        if not col[name] then missing[#missing + 1] = name end
      end
      if #missing > 0 then bad("the header lacks the column(s) " .. table.concat(missing, ", ")) end
      col.n = #fields
      goto continue
    end
    if #fields ~= col.n then bad(string.format("expected %d fields as in the header, found %d", col.n, #fields)) end
    local row = { trace = fields[col.trace], config = col.config and fields[col.config] or "", line = n, ref = {} }
    if row.trace == "" then bad("empty trace name") end
    if row.trace:find("/", 1, true) or row.trace == "." or row.trace == ".." then
      bad("trace '" .. row.trace .. "' must be a folder name inside TRACES_DIR")
    end
    if seen[row.trace] then bad(string.format("trace %s is already listed at line %d", row.trace, seen[row.trace])) end
    seen[row.trace] = n
    if col.kernels and fields[col.kernels] ~= "" then
      row.kernels = math.tointeger(tonumber(fields[col.kernels]))
      if not row.kernels or row.kernels < 1 then
        bad("kernels: '" .. fields[col.kernels] .. "' is not a positive integer")
      end
    end
    for _, c in ipairs(COUNTERS) do
      local s = fields[col[c.name]]
      if s ~= "" then
        local v = tonumber(s)
        if not v or v ~= v or v == math.huge or v == -math.huge then
          bad(c.name .. ": '" .. s .. "' is not a number")
        end
        if v < 0 then bad(c.name .. ": " .. s .. " is negative") end
        if c.rate and v > 1 then bad(c.name .. ": " .. s .. " is not a rate in [0, 1]") end
        row.ref[c.name] = v
      end
    end
    rows[#rows + 1] = row
    ::continue::
  end
  f:close()
  if not col then die(path .. ": empty file (expected a header line and one line per trace)") end
  if #rows == 0 then die(path .. ": no traces listed") end
  return { path = path, rows = rows }
end

-- The moonwarp config of a row: --config, else the preset of its reference machine, else the default.
local function config_for(opts, row)
  if opts.config then return opts.config end
  local preset = PRESETS[row.config]
  if preset and readable(HERE .. "/configs/" .. preset) then return HERE .. "/configs/" .. preset end
  for _, p in ipairs(DEFAULT_PRESETS) do
    if readable(HERE .. "/configs/" .. p) then return HERE .. "/configs/" .. p end
  end
  die("no config: none of " .. table.concat(DEFAULT_PRESETS, ", ") .. " in " .. HERE .. "/configs; give --config PATH")
end

-- ---- running and comparing ---------------------------------------------------------------------------------

-- A counter's value in moonwarp's stats and the name it was read from; nil when none of its names exists.
local function stat_value(c, st, wall)
  if c.wall then return wall, c.wall end
  for _, name in ipairs(c.stats) do
    local a, b = name:match("^(.-)/(.*)$")
    if a then
      if st[a] and st[b] then return (st[b] ~= 0 and st[a] / st[b] or 0), name end
    elseif st[name] then
      return st[name], name
    end
  end
end

-- The error of a moonwarp value against a reference value: (moonwarp - reference) / reference for counts, IPC
-- and time; moonwarp - reference for rates. nil when either is missing or the reference is 0 (relative).
local function error_of(c, m, r)
  if m == nil or r == nil then return nil end
  if c.kind == "absolute" then return m - r end
  if r == 0 then return m == 0 and 0.0 or nil end
  return (m - r) / r
end

-- Pearson's correlation of two equal-length lists; nil below two points or with zero variance.
local function pearson(xs, ys)
  local n = #xs
  if n < 2 then return nil end
  local mx, my = 0, 0
  for i = 1, n do mx, my = mx + xs[i], my + ys[i] end
  mx, my = mx / n, my / n
  local sxy, sxx, syy = 0, 0, 0
  for i = 1, n do
    local dx, dy = xs[i] - mx, ys[i] - my
    sxy, sxx, syy = sxy + dx * dy, sxx + dx * dx, syy + dy * dy
  end
  if sxx == 0 or syy == 0 then return nil end
  return sxy / math.sqrt(sxx * syy)
end

local function run_trace(opts, row, k, total)
  local t0 = mw.clock()
  local ok, res = pcall(function()
    local sim = mw.sim { config = row.moonwarp_config, set = opts.set, trace = row.dir .. "/kernelslist.g" }
    local done, why = sim:run()
    local st = sim:stats()
    sim:close()
    return { stats = st, done = done, why = why }
  end)
  local wall = mw.clock() - t0
  if not ok then
    local msg = tostring(res):gsub("^" .. (arg[0]:gsub("%p", "%%%0")) .. ":%d+: ", "")
    die(string.format("%s:%d: trace %s: %s", opts.reference, row.line, row.trace, msg), 1)
  end
  res.wall = wall
  io.stderr:write(string.format("[%d/%d] %-28s %10.0f cycles  (%.2f s)\n", k, total, row.trace,
                                res.stats["gpu.cycles"] or 0 / 0, wall))
  return res
end

-- Runs every trace; returns the comparison rows (trace x counter), the per-counter summary and notes.
local function correlate(opts, ref)
  local cmp, notes = {}, {}
  for k, row in ipairs(ref.rows) do
    local r = run_trace(opts, row, k, #ref.rows)
    if not r.done then
      notes[#notes + 1] = string.format("%s: the run stopped before the end (%s): its counters are partial", row.trace,
                                        tostring(r.why))
    end
    local kernels = r.stats["gpu.kernels"]
    if row.kernels and kernels and kernels ~= row.kernels then
      notes[#notes + 1] = string.format("%s: moonwarp ran %d kernels, the reference lists %d", row.trace, kernels,
                                        row.kernels)
    end
    for _, c in ipairs(COUNTERS) do
      local m, stat = stat_value(c, r.stats, r.wall)
      cmp[#cmp + 1] = { trace = row.trace, ref_config = row.config, config = row.moonwarp_config, counter = c,
                        stat = stat or "-", moonwarp = m, reference = row.ref[c.name],
                        error = error_of(c, m, row.ref[c.name]) }
    end
  end
  local summary = {}
  for _, c in ipairs(COUNTERS) do
    local xs, ys, errs, stats, sum = {}, {}, 0, {}, 0
    for _, e in ipairs(cmp) do
      if e.counter == c then
        if e.moonwarp and e.reference then xs[#xs + 1], ys[#ys + 1] = e.reference, e.moonwarp end
        if e.error then errs, sum = errs + 1, sum + math.abs(e.error) end
        if not stats[e.stat] then stats[e.stat], stats[#stats + 1] = true, e.stat end
      end
    end
    if c.stats and stats[1] ~= c.stats[1] then
      notes[#notes + 1] = string.format("%s: moonwarp has no %s yet; read from %s (moonwarp's own accounting)", c.name,
                                        c.stats[1], table.concat(stats, ","))
    end
    summary[#summary + 1] = { counter = c, n = #xs, stat = table.concat(stats, ","),
                              mae = errs > 0 and sum / errs or nil, pearson = pearson(xs, ys) }
  end
  return cmp, summary, notes
end

-- ---- printing ----------------------------------------------------------------------------------------------

local function fmt_value(c, v) return v == nil and "NA" or string.format(c.fmt, v) end

local function fmt_error(c, e)
  if e == nil then return "NA" end
  return c.kind == "relative" and string.format("%+.2f%%", 100 * e) or string.format("%+.4f", e)
end

-- An aligned table: the first three columns (names) left-aligned, the numbers right-aligned; a rule under the header.
local function print_table(head, rows)
  local width = {}
  for _, r in ipairs { head, table.unpack(rows) } do
    for i, s in ipairs(r) do width[i] = math.max(width[i] or 0, #s) end
  end
  local function line(r)
    local parts = {}
    for i, s in ipairs(r) do
      local pad = string.rep(" ", width[i] - #s)
      parts[i] = i <= 3 and s .. pad or pad .. s
    end
    return (table.concat(parts, "  "):gsub("%s+$", ""))
  end
  print(line(head))
  local total = 2 * (#width - 1)
  for i = 1, #width do total = total + width[i] end
  print(string.rep("-", total))
  for _, r in ipairs(rows) do print(line(r)) end
end

local function report(opts, ref, cmp, summary, notes)
  local configs, seen = {}, {}
  for _, row in ipairs(ref.rows) do
    local c = row.moonwarp_config
    if not seen[c] then seen[c], configs[#configs + 1] = true, c end
  end
  print(string.format("moonwarp %s vs %s: %d traces from %s, config %s%s", mw.version or "", ref.path, #ref.rows,
                      opts.traces, table.concat(configs, ", "),
                      #opts.set > 0 and (" --set " .. table.concat(opts.set, " --set ")) or ""))
  print("error: (moonwarp - reference) / reference for counts, ipc and time; moonwarp - reference for rates")
  print()
  local rows, last = {}, nil
  for _, e in ipairs(cmp) do
    rows[#rows + 1] = { e.trace ~= last and e.trace or "", e.counter.name, e.stat, fmt_value(e.counter, e.moonwarp),
                        fmt_value(e.counter, e.reference), fmt_error(e.counter, e.error) }
    last = e.trace
  end
  print_table({ "trace", "counter", "moonwarp stat", "moonwarp", "reference", "error" }, rows)
  print()
  rows = {}
  for _, s in ipairs(summary) do
    local mae = fmt_error(s.counter, s.mae):gsub("^%+", "")
    rows[#rows + 1] = { s.counter.name, s.stat, s.counter.kind, tostring(s.n), mae,
                        s.pearson and string.format("%.4f", s.pearson) or "NA" }
  end
  print_table({ "counter", "moonwarp stat", "error", "traces", "mean |error|", "pearson" }, rows)
  for _, n in ipairs(notes) do print("note: " .. n) end
end

-- ---- outputs -----------------------------------------------------------------------------------------------

-- Writes text to path through a temporary file in the same folder and a rename: readers never see half a file.
local function write_atomic(path, text)
  local dir, base = path:match("^(.*)/([^/]*)$")
  local tmp = dir .. "/." .. base .. ".tmp"
  local f, err = io.open(tmp, "w")
  if not f then die("cannot write " .. tostring(err), 1) end
  local ok, werr = f:write(text)
  local cok, cerr = f:close()
  if not ok or not cok then
    os.remove(tmp)
    die("cannot write " .. tmp .. ": " .. tostring(werr or cerr), 1)
  end
  local rok, rerr = os.rename(tmp, path)
  if not rok then
    os.remove(tmp)
    die("cannot rename " .. tmp .. " to " .. path .. ": " .. tostring(rerr), 1)
  end
  return path
end

local function csv_field(v)
  if v == nil then return "" end
  if type(v) == "number" then return string.format("%.12g", v) end
  local s = tostring(v)
  if s:find('[,"\n]') then s = '"' .. s:gsub('"', '""') .. '"' end
  return s
end

local function csv_text(cmp)
  local out = { "trace,reference_config,moonwarp_config,counter,moonwarp_stat,moonwarp,reference,error,error_kind" }
  for _, e in ipairs(cmp) do
    local v = { e.trace, e.ref_config, e.config, e.counter.name, e.stat, e.moonwarp, e.reference, e.error,
                e.counter.kind }
    for i = 1, 9 do v[i] = csv_field(v[i]) end
    out[#out + 1] = table.concat(v, ",")
  end
  return table.concat(out, "\n") .. "\n"
end

local XML_ESC = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;" }
local function xml(s) return (tostring(s):gsub('[&<>"]', XML_ESC)) end

-- The points of the cycles plot: traces whose moonwarp and reference cycles are both known and positive.
local function cycle_points(cmp)
  local pts, skipped = {}, {}
  for _, e in ipairs(cmp) do
    if e.counter.name == "cycles" then
      if e.moonwarp and e.reference and e.moonwarp > 0 and e.reference > 0 then
        pts[#pts + 1] = { label = e.trace, x = e.reference, y = e.moonwarp }
      else
        skipped[#skipped + 1] = e.trace
      end
    end
  end
  return pts, skipped
end

-- Decade bounds holding every x and y value, the same for both axes so that y = x is the square's diagonal.
local function log_range(pts)
  local lo, hi = math.huge, 0
  for _, p in ipairs(pts) do lo, hi = math.min(lo, p.x, p.y), math.max(hi, p.x, p.y) end
  if #pts == 0 then lo, hi = 1, 10 end
  local a, b = math.floor(math.log(lo, 10) + 1e-9), math.ceil(math.log(hi, 10) - 1e-9)
  if b <= a then b = a + 1 end
  return a, b
end

local function decade_label(k)
  if k >= 0 and k <= 6 then return string.format("%.0f", 10 ^ k) end
  return "1e" .. k
end

-- Accel-Sim's correlation plot as SVG: moonwarp cycles (y) against reference cycles (x), log-log, one labelled
-- point per trace, the y = x line; the title gives Pearson's r and the mean absolute error as Accel-Sim's does.
local function svg_text(pts, s, ref_name, config)
  local W, H, left, top, side = 700, 620, 90, 60, 500
  local a, b = log_range(pts)
  local function px(v) return left + (math.log(v, 10) - a) / (b - a) * side end
  local function py(v) return top + side - (math.log(v, 10) - a) / (b - a) * side end
  local o = {}
  local function add(...) o[#o + 1] = string.format(...) end
  add('<?xml version="1.0" encoding="UTF-8"?>')
  add('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" ' ..
      'font-family="sans-serif" font-size="12">', W, H, W, H)
  add('<rect width="%d" height="%d" fill="white"/>', W, H)
  add('<text x="%d" y="28" font-size="15" text-anchor="middle">Cycles: moonwarp vs %s (%d traces)</text>',
      left + side / 2, xml(ref_name), #pts)
  add('<text x="%d" y="46" text-anchor="middle">Correl = %s, mean |error| = %s</text>', left + side / 2,
      s.pearson and string.format("%.4f", s.pearson) or "NA", s.mae and string.format("%.1f%%", 100 * s.mae) or "NA")
  add('<g class="grid" stroke="#ddd" stroke-width="1">')
  for k = a, b do
    for m = 1, (k < b and 9 or 1) do
      local v = m * 10 ^ k
      local dash = m == 1 and "" or ' stroke-dasharray="2,3"'
      add('<line x1="%.2f" y1="%d" x2="%.2f" y2="%d"%s/>', px(v), top, px(v), top + side, dash)
      add('<line x1="%d" y1="%.2f" x2="%d" y2="%.2f"%s/>', left, py(v), left + side, py(v), dash)
    end
  end
  add('</g>')
  add('<rect class="frame" x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>', left, top, side, side)
  for k = a, b do
    add('<text x="%.2f" y="%d" text-anchor="middle">%s</text>', px(10 ^ k), top + side + 18, decade_label(k))
    add('<text x="%d" y="%.2f" text-anchor="end" dominant-baseline="middle">%s</text>', left - 6, py(10 ^ k),
        decade_label(k))
  end
  add('<text x="%d" y="%d" text-anchor="middle">%s cycles</text>', left + side / 2, top + side + 44, xml(ref_name))
  add('<text transform="translate(%d,%d) rotate(-90)" text-anchor="middle">moonwarp cycles (%s)</text>', 24,
      top + side / 2, xml(config))
  add('<line class="diagonal" x1="%d" y1="%d" x2="%d" y2="%d" stroke="#888" stroke-dasharray="6,4"/>', left,
      top + side, left + side, top)
  add('<text x="%d" y="%d" fill="#888" text-anchor="end">y = x</text>', left + side - 6, top + 40)
  for _, p in ipairs(pts) do
    local x, y = px(p.x), py(p.y)
    add('<g><title>%s: reference %.0f, moonwarp %.0f</title>', xml(p.label), p.x, p.y)
    add('<circle class="point" cx="%.2f" cy="%.2f" r="5" fill="#1f77b4" stroke="black" stroke-width="0.5"/></g>', x, y)
    local right = x > left + side * 0.8
    add('<text class="label" x="%.2f" y="%.2f" text-anchor="%s">%s</text>', right and x - 8 or x + 8, y - 8,
        right and "end" or "start", xml(p.label))
  end
  add('</svg>')
  return table.concat(o, "\n") .. "\n"
end

local function have_gnuplot()
  local ok = os.execute("command -v gnuplot >/dev/null 2>&1")
  return ok == true or ok == 0
end

-- The same plot as PNG through gnuplot (data and script in temporary files, the image renamed into place).
local function png(pts, s, ref_name, config, path)
  if not have_gnuplot() then
    return nil, "gnuplot not found: install gnuplot (Debian: gnuplot-nox) to draw " .. path .. "; PNG skipped"
  end
  local a, b = log_range(pts)
  local data, script = os.tmpname(), os.tmpname()
  local tmp = path:gsub("([^/]*)$", ".%1.tmp")
  local function gp_str(x) return "'" .. tostring(x):gsub("'", "''") .. "'" end
  local f = assert(io.open(data, "w"))
  for _, p in ipairs(pts) do
    -- the 4th column puts a label left of its point near the right edge, as in the SVG
    local right = (math.log(p.x, 10) - a) / (b - a) > 0.8 and 1 or 0
    f:write(string.format('%.17g %.17g "%s" %d\n', p.x, p.y, (p.label:gsub('"', "'")), right))
  end
  f:close()
  local g = assert(io.open(script, "w"))
  g:write("set terminal png size 760,700 noenhanced font ',10'\n")
  g:write("set output ", gp_str(tmp), "\n")
  local title = string.format("Cycles: moonwarp vs %s (%d traces)\nCorrel = %s, mean |error| = %s", ref_name, #pts,
                              s.pearson and string.format("%.4f", s.pearson) or "NA",
                              s.mae and string.format("%.1f%%", 100 * s.mae) or "NA")
  g:write('set title "', title:gsub('[\\"]', "\\%0"):gsub("\n", "\\n"), '"\n')
  g:write("set logscale xy\nset size square\nset grid xtics ytics mxtics mytics\nset key top left\n")
  g:write(string.format("set xrange [%g:%g]\nset yrange [%g:%g]\n", 10 ^ a, 10 ^ b, 10 ^ a, 10 ^ b))
  g:write("set format x '%.0f'\nset format y '%.0f'\n")
  g:write("set xlabel ", gp_str(ref_name .. " cycles"), "\nset ylabel ", gp_str("moonwarp cycles (" .. config .. ")"),
          "\n")
  g:write("plot ", gp_str(data), " using 1:2 with points pt 7 ps 1.3 lc rgb '#1f77b4' title 'traces', ",
          "'' using 1:2:($4 == 0 ? stringcolumn(3) : '') with labels offset 1,0.7 left notitle, ",
          "'' using 1:2:($4 == 1 ? stringcolumn(3) : '') with labels offset -1,0.7 right notitle, ",
          "x with lines dt 2 lc rgb '#888888' title 'y = x'\n")
  g:close()
  local ok = os.execute("gnuplot " .. shell_quote(script) .. " 2>" .. shell_quote(script .. ".log"))
  local log = io.open(script .. ".log")
  local msg = log and log:read("a") or ""
  if log then log:close() end
  os.remove(data); os.remove(script); os.remove(script .. ".log")
  if not (ok == true or ok == 0) or not readable(tmp) then
    os.remove(tmp)
    return nil, "gnuplot failed, PNG skipped: " .. msg:gsub("%s+$", "")
  end
  local rok, rerr = os.rename(tmp, path)
  if not rok then
    os.remove(tmp)
    return nil, rerr
  end
  return path
end

-- ---- main --------------------------------------------------------------------------------------------------

local opts = parse_args(arg)
local ref = read_reference(opts.reference)
-- Every input is checked before the first run and before OUTDIR is touched.
if opts.config and not readable(opts.config) then die("cannot read the config " .. opts.config) end
for _, row in ipairs(ref.rows) do
  row.dir = opts.traces .. "/" .. row.trace
  if not readable(row.dir .. "/kernelslist.g") then
    die(string.format("%s:%d: no trace folder for %s: %s/kernelslist.g is missing", ref.path, row.line, row.trace,
                      row.dir))
  end
  row.moonwarp_config = config_for(opts, row)
end

local cmp, summary, notes = correlate(opts, ref)
report(opts, ref, cmp, summary, notes)

local ok = os.execute("mkdir -p " .. shell_quote(opts.outdir))
if not (ok == true or ok == 0) then die("cannot create " .. opts.outdir, 1) end
local ref_name = "reference"
do
  local names = {}
  for _, row in ipairs(ref.rows) do
    if row.config ~= "" and not names[row.config] then names[row.config], names[#names + 1] = true, row.config end
  end
  if #names > 0 then ref_name = "reference (" .. table.concat(names, ", ") .. ")" end
end
local config_name = ref.rows[1].moonwarp_config:match("([^/]*)$")
local pts, skipped = cycle_points(cmp)
print()
print("csv:  " .. write_atomic(opts.outdir .. "/correlation.csv", csv_text(cmp)))
print("svg:  " .. write_atomic(opts.outdir .. "/correlation.svg", svg_text(pts, summary[1], ref_name, config_name)))
local path, err = png(pts, summary[1], ref_name, config_name, opts.outdir .. "/correlation.png")
print("png:  " .. (path or err))
if #skipped > 0 then print("note: not plotted (cycles unknown or 0): " .. table.concat(skipped, ", ")) end
