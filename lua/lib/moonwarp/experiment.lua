-- moonwarp.experiment: run a matrix of workloads x policies x config overrides, normalize a metric (IPC by
-- default) to a baseline policy, geometric means, an aligned table, CSV, and the paper-style bar chart
-- (normalized IPC per benchmark per policy) drawn by gnuplot as SVG or PNG.
--
--   local X = require "moonwarp.experiment"
--   local r = X.run{
--     workloads = { "micro.stream", { name = "micro.colstride", size = "small" } },
--     policies  = { { name = "GTO", warp_scheduler = "gto" },
--                   { name = "LRR", warp_scheduler = "lrr" },
--                   { name = "bypass", l1d_bypass = "all" } },          -- point = name | {impl=...} | hooks
--     configs   = { { name = "16KB" }, { name = "32KB", l1d = { size_bytes = 32768 } } },  -- optional
--     config = "experiments/configs/gtx480.yaml", size = "small", seed = 1,
--     metric = "gpu.ipc", baseline = "GTO",
--   }
--   X.print(r); X.write_csv(r, "out/result.csv"); X.plot(r, "out/figure.svg", { title = "..." })
local mw = require "moonwarp"

local X = {}

local clock = mw.clock or os.clock -- wall time of each run

-- The config table of one matrix cell: a base (file or table) plus an override table.
local function merge(base, over)
  local t = {}
  for sec, kv in pairs(base or {}) do
    t[sec] = {}
    for k, v in pairs(kv) do t[sec][k] = v end
  end
  for sec, kv in pairs(over or {}) do
    if sec ~= "name" and sec ~= "set" then
      t[sec] = t[sec] or {}
      for k, v in pairs(kv) do t[sec][k] = v end
    end
  end
  return t
end

local function norm_workload(w)
  if type(w) == "string" then return { name = w, label = w } end
  local t = {}
  for k, v in pairs(w) do t[k] = v end
  t.label = t.label or t.name or t.trace
  return t
end

-- Run every cell; returns a result object { rows = {...}, workloads, policies, configs, metric, baseline }.
function X.run(spec)
  assert(type(spec) == "table", "experiment.run: expected a table")
  local workloads = {}
  for i, w in ipairs(assert(spec.workloads, "experiment.run: workloads = {...} is required")) do
    workloads[i] = norm_workload(w)
  end
  local policies = spec.policies or { { name = "default" } }
  local configs = spec.configs or { { name = "" } }
  local metric = spec.metric or "gpu.ipc"
  local base_cfg_file = type(spec.config) == "string" and spec.config or nil
  local base_cfg_tab = type(spec.config) == "table" and spec.config or nil
  local res = { rows = {}, workloads = {}, policies = {}, configs = {}, metric = metric,
                baseline = spec.baseline or policies[1].name }
  for _, w in ipairs(workloads) do res.workloads[#res.workloads + 1] = w.label end
  for _, p in ipairs(policies) do res.policies[#res.policies + 1] = assert(p.name, "each policy needs a name") end
  for _, c in ipairs(configs) do res.configs[#res.configs + 1] = c.name or "" end
  local total, k = #workloads * #policies * #configs, 0
  for _, c in ipairs(configs) do
    for _, w in ipairs(workloads) do
      for _, p in ipairs(policies) do
        k = k + 1
        local opts = { workload = w.name, trace = w.trace, size = w.size or spec.size, seed = spec.seed,
                       max_cycles = spec.max_cycles }
        if base_cfg_file and not next(merge(nil, c)) then opts.config = base_cfg_file
        elseif base_cfg_file then
          -- a file plus overrides: the overrides go through `set`, validated like --set
          opts.config = base_cfg_file
          opts.set = {}
          for sec, kv in pairs(c) do
            if sec ~= "name" and sec ~= "set" then
              for key, v in pairs(kv) do opts.set[#opts.set + 1] = sec .. "." .. key .. "=" .. tostring(v) end
            end
          end
        else
          opts.config = merge(base_cfg_tab, c)
        end
        if c.set then
          opts.set = opts.set or {}
          for _, a in ipairs(c.set) do opts.set[#opts.set + 1] = a end
        end
        local t0 = clock()
        local sim = mw.sim(opts)
        for point, pol in pairs(p) do
          if point ~= "name" then sim:policy(point, pol) end
        end
        local done = sim:run()
        local st = sim:stats()
        sim:close()
        local row = { workload = w.label, policy = p.name, config = c.name or "", stats = st,
                      value = st[metric], cycles = st["gpu.cycles"], complete = done, wall = clock() - t0 }
        res.rows[#res.rows + 1] = row
        if not spec.quiet then
          io.stderr:write(string.format("[%d/%d] %-22s %-14s %-10s %s %.4g  (%.2f s)\n", k, total, w.label, p.name,
                                        c.name or "", metric, row.value or 0 / 0, row.wall))
        end
      end
    end
  end
  X.normalize(res, res.baseline)
  return res
end

-- Fill row.norm = value / value of the baseline policy on the same workload and config.
function X.normalize(res, baseline)
  res.baseline = baseline or res.baseline
  local base = {}
  for _, r in ipairs(res.rows) do
    if r.policy == res.baseline then base[r.workload .. "\0" .. r.config] = r.value end
  end
  for _, r in ipairs(res.rows) do
    local b = base[r.workload .. "\0" .. r.config]
    r.norm = (b and b ~= 0 and r.value) and r.value / b or nil
  end
  return res
end

-- The median of a list of numbers (sorts the list in place); nil for an empty list.
function X.median(t)
  table.sort(t)
  local n = #t
  if n == 0 then return nil end
  return n % 2 == 1 and t[(n + 1) / 2] or (t[n / 2] + t[n / 2 + 1]) / 2
end

function X.geomean(list)
  local s, n = 0, 0
  for _, v in ipairs(list) do
    if v and v > 0 then s, n = s + math.log(v), n + 1 end
  end
  return n > 0 and math.exp(s / n) or nil
end

-- Column labels: the policy, or policy@config when there are several configs.
local function columns(res)
  local cols = {}
  for _, c in ipairs(res.configs) do
    for _, p in ipairs(res.policies) do
      cols[#cols + 1] = { policy = p, config = c, label = #res.configs > 1 and (p .. "@" .. c) or p }
    end
  end
  return cols
end

local function cell(res, w, col)
  for _, r in ipairs(res.rows) do
    if r.workload == w and r.policy == col.policy and r.config == col.config then return r end
  end
end

-- The matrix as rows of numbers: { {label, v1, v2, ...}, ..., {"GMEAN", ...} }, field "norm" or "value".
function X.matrix(res, field)
  field = field or "norm"
  local cols, m = columns(res), {}
  for _, w in ipairs(res.workloads) do
    local row = { w }
    for i, col in ipairs(cols) do
      local r = cell(res, w, col)
      row[i + 1] = r and r[field] or false
    end
    m[#m + 1] = row
  end
  local g = { "GMEAN" }
  for i = 1, #cols do
    local vals = {}
    for _, row in ipairs(m) do
      if row[i + 1] then vals[#vals + 1] = row[i + 1] end
    end
    g[i + 1] = X.geomean(vals) or false
  end
  m[#m + 1] = g
  return m, cols
end

-- An aligned text table: benchmarks down, policies across, normalized metric and a GMEAN row.
function X.table(res, opts)
  opts = opts or {}
  local field = opts.field or "norm"
  local m, cols = X.matrix(res, field)
  local head = { "benchmark" }
  for _, c in ipairs(cols) do head[#head + 1] = c.label end
  local cells = { head }
  for _, row in ipairs(m) do
    local r = { row[1] }
    for i = 2, #row do r[i] = row[i] and string.format(opts.format or "%.3f", row[i]) or "-" end
    cells[#cells + 1] = r
  end
  local width = {}
  for _, r in ipairs(cells) do
    for i, s in ipairs(r) do width[i] = math.max(width[i] or 0, #s) end
  end
  local lines = {}
  local title = opts.title or string.format("%s normalized to %s", res.metric, res.baseline)
  if field ~= "norm" then title = opts.title or res.metric end
  lines[1] = title
  for n, r in ipairs(cells) do
    local parts = {}
    for i, s in ipairs(r) do
      parts[i] = i == 1 and s .. string.rep(" ", width[i] - #s) or string.rep(" ", width[i] - #s) .. s
    end
    lines[#lines + 1] = table.concat(parts, "  ")
    if n == 1 or n == #cells - 1 then
      local total = 0
      for i = 1, #width do total = total + width[i] end
      lines[#lines + 1] = string.rep("-", total + 2 * (#width - 1))
    end
  end
  return table.concat(lines, "\n")
end

function X.print(res, opts) print(X.table(res, opts)) end

local function mkdir_for(path)
  local dir = path:match("^(.*)/[^/]*$")
  if dir and dir ~= "" then os.execute("mkdir -p '" .. dir:gsub("'", "'\\''") .. "'") end
end

local function csv_field(v)
  if v == nil or v == false then return "" end
  local s = tostring(v)
  if s:find('[,"\n]') then s = '"' .. s:gsub('"', '""') .. '"' end
  return s
end

-- One line per run: workload, config, policy, metric value, normalized value, cycles, and any extra stats.
function X.write_csv(res, path, extra)
  mkdir_for(path)
  local f = assert(io.open(path, "w"))
  local head = { "workload", "config", "policy", res.metric, "normalized", "gpu.cycles", "complete" }
  for _, k in ipairs(extra or {}) do head[#head + 1] = k end
  f:write(table.concat(head, ","), "\n")
  for _, r in ipairs(res.rows) do
    local v = { r.workload, r.config, r.policy, r.value, r.norm, r.cycles, r.complete and 1 or 0 }
    for _, k in ipairs(extra or {}) do v[#v + 1] = r.stats[k] end
    for i = 1, #head do v[i] = csv_field(v[i]) end
    f:write(table.concat(v, ",", 1, #head), "\n")
  end
  f:close()
  return path
end

function X.have_gnuplot()
  local ok = os.execute("command -v gnuplot >/dev/null 2>&1")
  return ok == true or ok == 0
end

-- The paper-style clustered bar chart through gnuplot; the format follows the extension (.svg or .png).
-- Returns the path, or nil and a message (gnuplot missing or failing); the data file is written either way.
function X.plot(res, path, opts)
  opts = opts or {}
  local m, cols = X.matrix(res, opts.field or "norm")
  mkdir_for(path)
  local data = path:gsub("%.%w+$", "") .. ".dat"
  local f = assert(io.open(data, "w"))
  local head = { "benchmark" }
  for _, c in ipairs(cols) do head[#head + 1] = '"' .. c.label .. '"' end
  f:write(table.concat(head, " "), "\n")
  for _, row in ipairs(m) do
    local parts = { '"' .. row[1] .. '"' }
    for i = 2, #row do parts[i] = row[i] and string.format("%.6g", row[i]) or "NaN" end
    f:write(table.concat(parts, " "), "\n")
  end
  f:close()
  if not X.have_gnuplot() then
    return nil, string.format("gnuplot not found: install gnuplot (Debian: gnuplot-nox) to draw %s; the data is in %s",
                              path, data)
  end
  local term
  if path:match("%.png$") then term = "png size 1000,450 font ',10'"
  elseif path:match("%.svg$") then term = "svg size 1000,450 dynamic font 'sans,11'"
  else return nil, "plot: the output must end in .svg or .png: " .. path end
  local script = path:gsub("%.%w+$", "") .. ".gp"
  local g = assert(io.open(script, "w"))
  g:write("set terminal ", term, "\n")
  g:write("set output '", path, "'\n")
  g:write("set title '", (opts.title or ""):gsub("'", "''"), "'\n")
  g:write("set style data histograms\nset style histogram clustered gap 1\n")
  g:write("set style fill solid 0.85 border -1\nset boxwidth 0.9\nset grid ytics\n")
  g:write("set key outside right top\nset xtics nomirror rotate by -25\nset yrange [0:*]\n")
  g:write("set ylabel '", opts.ylabel or ("Normalized " .. (res.metric == "gpu.ipc" and "IPC" or res.metric)), "'\n")
  if (opts.field or "norm") == "norm" then g:write("set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2\n") end
  local plots = {}
  for i = 1, #cols do
    plots[i] = string.format("%s using %d%s title columnheader(%d)", i == 1 and ("'" .. data .. "'") or "''", i + 1,
                             i == 1 and ":xtic(1)" or "", i + 1)
  end
  g:write("plot ", table.concat(plots, ", "), "\n")
  g:close()
  local ok = os.execute("gnuplot '" .. script .. "' 2>'" .. script .. ".log'")
  if not (ok == true or ok == 0) then
    return nil, "gnuplot failed on " .. script .. " (see " .. script .. ".log)"
  end
  return path
end

return X
