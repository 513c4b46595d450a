-- moonwarp.experiment: run a matrix of workloads x policies x config overrides (measurement windows, a cycle cap,
-- per-workload policy parameters), normalize a metric (IPC by default) to a baseline policy, geometric or harmonic
-- means (overall and per class), an aligned table, CSV, and the paper-style bar chart (normalized IPC per benchmark
-- per policy) drawn by gnuplot as SVG or PNG.
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
local S = require "moonwarp.store"

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

-- The canonical text of a value for a run key: tables with sorted keys; a function as the SHA-256 of its
-- chunk's source (the whole file for a function loaded from one) with its line range and its number, string and
-- boolean upvalues; a string ending in .lua that names a readable file adds the file's SHA-256.
local function canon(v, out, seen)
  local t = type(v)
  if t == "string" then
    out[#out + 1] = "s" .. #v .. ":" .. v
    if v:match("%.lua$") then
      local f = io.open(v, "rb")
      if f then
        out[#out + 1] = "file:" .. S.sha256(f:read("a"))
        f:close()
      end
    end
  elseif t == "number" then
    out[#out + 1] = math.type(v) == "integer" and ("i" .. v) or string.format("f%.17g", v)
  elseif t == "table" then
    if seen[v] then out[#out + 1] = "<cycle>"; return end
    seen[v] = true
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys, function(x, y)
      local tx, ty = type(x), type(y)
      if tx ~= ty then return tx < ty end
      if tx == "number" or tx == "string" then return x < y end
      return tostring(x) < tostring(y)
    end)
    out[#out + 1] = "{"
    for _, k in ipairs(keys) do
      canon(k, out, seen)
      out[#out + 1] = "="
      canon(v[k], out, seen)
    end
    out[#out + 1] = "}"
    seen[v] = nil
  elseif t == "function" then
    local info = debug.getinfo(v, "S")
    local src = info.source
    if src:sub(1, 1) == "@" then
      local f = io.open(src:sub(2), "rb")
      if f then src = f:read("a"); f:close() end
    end
    out[#out + 1] = string.format("fn:%s:%d-%d", S.sha256(src), info.linedefined, info.lastlinedefined)
    for i = 1, 255 do
      local name, uv = debug.getupvalue(v, i)
      if not name then break end
      local ut = type(uv)
      if ut == "number" or ut == "string" or ut == "boolean" then
        out[#out + 1] = name .. "="
        canon(uv, out, seen)
      end
    end
  else
    out[#out + 1] = tostring(t == "nil" and "nil" or (t == "boolean" and v) or t)
  end
  return out
end

-- The run key (64 hex digits, docs/sweeps.md): opts as for mw.sim, policy as in X.run's policies list (its name
-- is a label and does not count).
function X.run_key(opts, policy, measure)
  local pol = {}
  for point, spec in pairs(policy or {}) do
    if point ~= "name" and point ~= "params" then pol[point] = spec end
  end
  local extra = { policies = pol }
  if measure and next(measure) then extra.measure = measure end -- absent: the keys of whole runs stay as they were
  if type(opts.workload) == "table" then extra.workload = opts.workload end
  return S.key(opts, table.concat(canon(extra, {}, {}), " "))
end

-- Stats over a measurement window: `after` minus `before` (two sim:stats() snapshots) for every counter, the ratios
-- (IPC, miss rates, mean latencies) computed again from the window's counters, and maxima (names with "max") as at
-- the end, since a maximum cannot be taken apart.
local RATIOS = {
  ["gpu.ipc"] = { "gpu.thread_insts", "gpu.cycles" }, ["gpu.warp_ipc"] = { "gpu.warp_insts", "gpu.cycles" },
  ["l1d.miss_rate"] = { "l1d.misses", "l1d.accesses" }, ["l2.miss_rate"] = { "l2.misses", "l2.accesses" },
  ["l1d.gpgpusim_miss_rate"] = { "l1d.gpgpusim_misses", "l1d.gpgpusim_accesses" },
  ["l2.gpgpusim_miss_rate"] = { "l2.gpgpusim_misses", "l2.gpgpusim_accesses" },
  ["l1i.miss_rate"] = { "l1i.misses", "l1i.accesses" },
  ["dram.avg_read_latency"] = { "dram.read_latency_sum", "dram.reads_done" },
  ["mem.avg_load_latency"] = { "sm.load_latency_sum", "sm.load_latency_count" },
}
function X.window_stats(before, after)
  local w = {}
  for k, v in pairs(after) do
    if k:find("max", 1, true) then w[k] = v else w[k] = v - (before[k] or 0) end
  end
  local function ratio(a, b) return b > 0 and a / b or 0.0 end
  for k, nd in pairs(RATIOS) do
    if after[k] ~= nil then w[k] = ratio(w[nd[1]] or 0, w[nd[2]] or 0) end
  end
  if after["dram.row_hit_rate"] ~= nil then
    local h = w["dram.row_hits"] or 0
    w["dram.row_hit_rate"] = ratio(h, h + (w["dram.row_misses"] or 0) + (w["dram.row_conflicts"] or 0))
  end
  return w
end

-- One run in this process: stats, completed (false: stopped at max_cycles), wall seconds, CPU seconds.
-- measure = {warmup = N, window = M} or {kernel = K} (or empty: the whole run).
local function run_cell(c)
  local t0, c0 = clock(), os.clock()
  local sim = mw.sim(c.opts)
  for point, pol in pairs(c.policy) do
    if point ~= "name" and point ~= "set" and point ~= "params" then sim:policy(point, pol) end
  end
  local m = c.measure or {}
  local done, why, before, st
  if m.kernel then
    done, why = sim:run { until_kernel = m.kernel }
    if done then
      local n = sim:stats()["gpu.kernels"]
      sim:close()
      error(string.format("kernel = %d: the workload launched %d kernels", m.kernel, n), 0)
    end
    if why == "kernel" then
      before = sim:stats()
      done, why = sim:run { until_kernel = m.kernel + 1 }
    end
  elseif m.warmup or m.window then
    if (m.warmup or 0) > 0 then done, why = sim:run { cycles = m.warmup } end
    if why ~= "max_cycles" and why ~= "max_warp_insts" then -- (ended in the warm-up: an empty window)
      before = sim:stats()
      if not done then done, why = sim:run { cycles = m.window or 0 } end
    end
  else
    done, why = sim:run()
  end
  st = sim:stats()
  if before then st = X.window_stats(before, st) end
  sim:close()
  -- complete: the workload ended, or the window (warm-up + window, the kernel, the max_warp_insts instructions)
  -- was measured in full
  local complete = done or why == "cycles" or why == "kernel" or why == "max_warp_insts"
  return st, complete, clock() - t0, os.clock() - c0
end
X.run_cell = run_cell -- a Slurm task runs one cell with it (moonwarp.slurm)

-- The measurement of a workload's runs: its own warmup/window/kernel fields, else the sweep's.
local function measure_of(spec, w)
  local src = (w.warmup or w.window or w.kernel) and w or spec
  local m = { warmup = src.warmup, window = src.window, kernel = src.kernel }
  for _, k in ipairs { "warmup", "window", "kernel" } do
    local v = m[k]
    assert(v == nil or (math.type(v) == "integer" and v >= (k == "kernel" and 1 or 0)),
           string.format("experiment.run: %s must be an integer >= %d", k, k == "kernel" and 1 or 0))
  end
  assert(not (m.kernel and (m.warmup or m.window)), "experiment.run: kernel = K excludes warmup and window")
  return m
end

-- Add parameters to a point's policy spec, whatever its form (docs/lua.md, Parameters).
local function with_params(spec, params)
  local t = {}
  if type(spec) == "string" then
    if spec:match("%.lua$") then t = { impl = "lua", script = spec } else t = { impl = spec } end
  elseif type(spec) == "table" then
    for k, v in pairs(spec) do t[k] = v end
  else
    error("experiment.run: per-workload params need a policy given by name, script or table")
  end
  if t.impl then
    for k, v in pairs(params) do t[k] = v end
  else -- a table of hooks: its params field
    local p = {}
    for k, v in pairs(t.params or {}) do p[k] = v end
    for k, v in pairs(params) do p[k] = v end
    t.params = p
  end
  return t
end

-- A policies entry as run on workload w: its `params` field, a table from workload (label or name, else
-- `default`) to parameters, resolved. The parameters go to every point of the entry; a key naming one of the
-- entry's points with a table value gives that point's own parameters.
function X.policy_for(p, w)
  if p.params == nil then return p end
  assert(type(p.params) == "table", "experiment.run: a policy's params must be a table")
  local params = p.params[w.label] or p.params[w.name] or p.params.default
  local out = {}
  for k, v in pairs(p) do
    if k ~= "params" then out[k] = v end
  end
  if not params then return out end
  local common, per = {}, {}
  for k, v in pairs(params) do
    if p[k] ~= nil and k ~= "name" and type(v) == "table" then per[k] = v else common[k] = v end
  end
  for point, spec in pairs(out) do
    if point ~= "name" and point ~= "set" then
      local pp = {}
      for k, v in pairs(common) do pp[k] = v end
      for k, v in pairs(per[point] or {}) do pp[k] = v end
      if next(pp) then out[point] = with_params(spec, pp) end
    end
  end
  return out
end

-- The cells of the matrix in order (configs, then workloads, then policies), each with its mw.sim options.
local function cells(spec, workloads, policies, configs)
  local base_cfg_file = type(spec.config) == "string" and spec.config or nil
  local base_cfg_tab = type(spec.config) == "table" and spec.config or nil
  local list = {}
  for _, c in ipairs(configs) do
    for _, w in ipairs(workloads) do
      for _, p in ipairs(policies) do
        local opts = { workload = w.name, trace = w.trace, size = w.size or spec.size, seed = spec.seed,
                       max_cycles = w.max_cycles or spec.max_cycles,
                       max_warp_insts = w.max_warp_insts or spec.max_warp_insts }
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
          table.sort(opts.set)
        else
          opts.config = merge(base_cfg_tab, c)
        end
        if c.set then
          opts.set = opts.set or {}
          for _, a in ipairs(c.set) do opts.set[#opts.set + 1] = a end
        end
        if p.set then -- a policy given as config assignments ("policies.warp_scheduler=gto")
          opts.set = opts.set or {}
          for _, a in ipairs(p.set) do opts.set[#opts.set + 1] = a end
        end
        list[#list + 1] = { opts = opts, policy = X.policy_for(p, w), w = w, cname = c.name or "",
                            measure = measure_of(spec, w) }
      end
    end
  end
  return list
end

local function describe(c)
  return string.format("workload=%s policy=%s config=%s", c.w.label, c.policy.name, c.cname)
end
X.describe = describe

-- Run every cell; returns a result object { rows = {...}, workloads, policies, configs, metric, baseline,
-- failures }. store = "path.db": runs already stored are read back, new ones put as they finish. jobs = N (default:
-- the online CPUs): up to N runs at once, each in a child process; a failed run (an error, a crash) is reported
-- in res.failures and its row has no value, the others complete. jobs = 0: one after another in this process,
-- an error stops the sweep (as before the store existed). backend = "slurm" (with store and shared = DIR): the runs
-- not stored go to Slurm as one job array and finished ones are collected (moonwarp.slurm, docs/sweeps.md); runs
-- still on the cluster are rows with status = "pending", counted in res.pending.
function X.run(spec)
  assert(type(spec) == "table", "experiment.run: expected a table")
  local workloads = {}
  for i, w in ipairs(assert(spec.workloads, "experiment.run: workloads = {...} is required")) do
    workloads[i] = norm_workload(w)
  end
  local policies = spec.policies or { { name = "default" } }
  local configs = spec.configs or { { name = "" } }
  local metric = spec.metric or "gpu.ipc"
  local res = { rows = {}, workloads = {}, policies = {}, configs = {}, metric = metric,
                baseline = spec.baseline or policies[1].name, failures = {}, mean = spec.mean or "geometric",
                classes = spec.classes }
  assert(res.mean == "geometric" or res.mean == "harmonic", "experiment.run: mean must be \"geometric\" or \"harmonic\"")
  for _, w in ipairs(workloads) do res.workloads[#res.workloads + 1] = w.label end
  for _, p in ipairs(policies) do res.policies[#res.policies + 1] = assert(p.name, "each policy needs a name") end
  for _, c in ipairs(configs) do res.configs[#res.configs + 1] = c.name or "" end
  local list = cells(spec, workloads, policies, configs)
  local total = #list
  local jobs = spec.jobs or S.ncpu()
  assert(math.type(jobs) == "integer" and jobs >= 0, "experiment.run: jobs must be an integer >= 0")
  local backend = spec.backend or "local"
  assert(backend == "local" or backend == "slurm", "experiment.run: backend must be \"local\" or \"slurm\"")
  local slurm = backend == "slurm" and require "moonwarp.slurm"
  if slurm then slurm.check(spec, list) end -- before the store is opened: a bad option writes nothing
  local db = spec.store and (type(spec.store) == "string" and S.open(spec.store) or spec.store)
  local host = S.hostname()
  local t_start, done, failed, ran, queue = clock(), 0, 0, 0, {}

  -- host: where the run ran, when not here (a Slurm task's result)
  local function finish(i, st, complete, wall, cpu, cached, err, where)
    local c = list[i]
    local row = { workload = c.w.label, policy = c.policy.name, config = c.cname, stats = st or {},
                  value = st and st[metric], cycles = st and st["gpu.cycles"], complete = complete, wall = wall,
                  cpu = cpu, wall_s = wall, cpu_s = cpu, key = c.key, cached = cached, error = err,
                  capped = not err and not complete,
                  status = err and "failed" or (complete and "complete" or "capped") }
    res.rows[i] = row
    done = done + 1
    if err then
      failed = failed + 1
      res.failures[#res.failures + 1] = row
    elseif not cached then
      ran = ran + 1
      if db then
        db:put(c.key, { stats = st, status = row.status, cpu_s = cpu, wall_s = wall, host = where or host,
                        descr = describe(c) })
      end
    end
    if not spec.quiet then
      local el = clock() - t_start
      -- the time left: the pace so far (N at a time included) times the runs left
      local left = ran > 0 and string.format("~%.0f s left", el / ran * (total - done)) or "time left unknown"
      io.stderr:write(string.format("[%d/%d] %-22s %-14s %-10s %s %s  %s| %d failed, %.1f s elapsed, %s\n",
                                    done, total, c.w.label, c.policy.name, c.cname, metric,
                                    err and "FAILED" or string.format("%.4g", row.value or 0 / 0),
                                    cached and "(stored) " or string.format("(%.2f s) ", wall or 0), failed, el,
                                    left))
      if err then io.stderr:write("    ", (err:match("^[^\n]*")), "\n") end -- the whole traceback: res.failures
    end
  end

  for i, c in ipairs(list) do
    if db then
      c.key = X.run_key(c.opts, c.policy, c.measure)
      local st, rec = db:get(c.key)
      if st then finish(i, st, rec.status == "complete", rec.wall_s, rec.cpu_s, true)
      else queue[#queue + 1] = i end
    else
      queue[#queue + 1] = i
    end
  end

  if slurm then -- the cells not stored go to Slurm as one job array; finished tasks' results are collected
    local pending = 0
    slurm.run(spec, list, queue, db, {
      finish = finish,
      describe = describe,
      pending = function(i, why)
        local c = list[i]
        pending = pending + 1
        res.rows[i] = { workload = c.w.label, policy = c.policy.name, config = c.cname, stats = {}, key = c.key,
                        status = "pending", pending = why, complete = false, capped = false }
      end,
    })
    res.pending = pending
    queue = {}
  end

  -- With a store, a cell is claimed before it runs: one that another live sweep is running waits (deferred)
  -- until that sweep stores it, or gives it up, or dies.
  local deferred = {}
  local function take(i)
    if not db then return true end
    local st, rec = db:get(list[i].key)
    if st then
      finish(i, st, rec.status == "complete", rec.wall_s, rec.cpu_s, true)
      return false
    end
    if db:claim(list[i].key) then return true end
    deferred[#deferred + 1] = i
    return false
  end

  local running, which, q = {}, {}, 1
  while q <= #queue or #running > 0 or #deferred > 0 do
    while q <= #queue and #running < math.max(jobs, 1) do
      local i = queue[q]
      q = q + 1
      if take(i) then
        local c = list[i]
        if jobs == 0 then
          local st, complete, wall, cpu = run_cell(c) -- an error stops the sweep; its claim dies with this process
          finish(i, st, complete, wall, cpu, false)
        else
          running[#running + 1] = S.spawn(function()
            local st, complete, wall = run_cell(c)
            return S.encode { complete = complete, wall_s = wall } .. "\n" .. S.encode(st)
          end)
          which[#running] = i
        end
      end
    end
    if #running > 0 then
      local j, ok, text, cpu = S.wait(running, 1.0)
      if j then
        local i = table.remove(which, j)
        table.remove(running, j)
        if ok then
          local meta, stats = text:match("^(.-\n)\n(.*)$")
          meta = S.decode(meta)
          finish(i, S.decode(stats), meta.complete, meta.wall_s, cpu, false)
        else
          if db then db:unclaim(list[i].key) end
          finish(i, nil, false, nil, cpu, false, text)
        end
      end
    elseif q > #queue and #deferred > 0 then
      local waiting = deferred
      deferred = {}
      for _, i in ipairs(waiting) do
        if db:get(list[i].key) or db:claim(list[i].key) then queue[#queue + 1] = i -- take() decides again
        else deferred[#deferred + 1] = i end
      end
      if #deferred == #waiting then S.sleep(0.2) end
    end
  end
  if db and type(spec.store) == "string" then db:close() end
  if failed > 0 and not spec.quiet then
    io.stderr:write(string.format("experiment: %d of %d runs failed:\n", failed, total))
    for _, r in ipairs(res.failures) do
      io.stderr:write(string.format("  %s %s %s: %s\n", r.workload, r.policy, r.config, (r.error:match("^[^\n]*"))))
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

-- The harmonic mean n / sum(1/v) of the positive values (as geomean, others are left out); nil if none.
function X.hmean(list)
  local s, n = 0, 0
  for _, v in ipairs(list) do
    if v and v > 0 then s, n = s + 1 / v, n + 1 end
  end
  return n > 0 and n / s or nil
end

-- The mean of a list by kind: "geometric" (default) or "harmonic".
function X.mean(list, kind)
  if kind == nil or kind == "geometric" then return X.geomean(list) end
  if kind == "harmonic" then return X.hmean(list) end
  error("mean must be \"geometric\" or \"harmonic\", not " .. tostring(kind))
end

-- The classes of a result as an ordered list { {name, members = {label = true}} }: classes given as
-- {name = {labels...}} are taken in name order, or as a list { {name = ..., "label", ...}, ... } in its order.
local function class_list(classes)
  local list = {}
  if not classes then return list end
  if classes[1] then
    for _, c in ipairs(classes) do
      local m = {}
      for _, l in ipairs(c) do m[l] = true end
      list[#list + 1] = { name = assert(c.name, "classes: each entry needs a name"), members = m }
    end
  else
    local names = {}
    for n in pairs(classes) do names[#names + 1] = n end
    table.sort(names)
    for _, n in ipairs(names) do
      local m = {}
      for _, l in ipairs(classes[n]) do m[l] = true end
      list[#list + 1] = { name = n, members = m }
    end
  end
  return list
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
-- opts (or the result's own fields from X.run): mean = "geometric" (rows GMEAN) | "harmonic" (HMEAN); classes =
-- {name = {workload labels}}: a mean row per class after the overall one (GMEAN-name). The third result marks
-- capped runs: capped[row][column] = true (a mean row is marked when any run it averages is).
function X.matrix(res, field, opts)
  field = field or "norm"
  opts = opts or {}
  local kind = opts.mean or res.mean or "geometric"
  local tag = kind == "harmonic" and "HMEAN" or (kind == "geometric" and "GMEAN")
  assert(tag, "mean must be \"geometric\" or \"harmonic\", not " .. tostring(kind))
  local cols, m, capped = columns(res), {}, {}
  for _, w in ipairs(res.workloads) do
    local row, cap = { w }, {}
    for i, col in ipairs(cols) do
      local r = cell(res, w, col)
      row[i + 1] = r and r[field] or false
      cap[i + 1] = r and r.capped and r[field] and true or nil
    end
    m[#m + 1] = row
    capped[#capped + 1] = cap
  end
  local nbench = #m
  local groups = { { label = tag } }
  for _, c in ipairs(class_list(opts.classes or res.classes)) do
    groups[#groups + 1] = { label = tag .. "-" .. c.name, members = c.members }
  end
  for _, g in ipairs(groups) do
    local row, cap = { g.label }, {}
    for i = 1, #cols do
      local vals = {}
      for b = 1, nbench do
        if m[b][i + 1] and (not g.members or g.members[m[b][1]]) then
          vals[#vals + 1] = m[b][i + 1]
          if capped[b][i + 1] then cap[i + 1] = true end
        end
      end
      row[i + 1] = X.mean(vals, kind) or false
    end
    m[#m + 1] = row
    capped[#capped + 1] = cap
  end
  return m, cols, capped, nbench
end

-- An aligned text table: benchmarks down, policies across, normalized metric and a GMEAN row.
function X.table(res, opts)
  opts = opts or {}
  local field = opts.field or "norm"
  local m, cols, capped, nbench = X.matrix(res, field, opts)
  local head = { "benchmark" }
  for _, c in ipairs(cols) do head[#head + 1] = c.label end
  local cells, any_capped = { head }, false
  for n, row in ipairs(m) do
    local r = { row[1] }
    for i = 2, #row do
      r[i] = row[i] and string.format(opts.format or "%.3f", row[i]) or "-"
      if capped[n][i] then r[i], any_capped = r[i] .. "*", true end
    end
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
    if n == 1 or n == nbench + 1 then
      local total = 0
      for i = 1, #width do total = total + width[i] end
      lines[#lines + 1] = string.rep("-", total + 2 * (#width - 1))
    end
  end
  if any_capped then lines[#lines + 1] = "* stopped at max_cycles (capped): the run or its window is incomplete" end
  return table.concat(lines, "\n")
end

function X.print(res, opts) print(X.table(res, opts)) end

local function mkdir_for(path)
  local dir = path:match("^(.*)/[^/]*$")
  if dir and dir ~= "" then os.execute("mkdir -p '" .. dir:gsub("'", "'\\''") .. "'") end
end

-- Outputs are written to a temporary file next to the target and renamed over it: a reader (or a killed
-- sweep) never sees half a file.
local function temp_for(path)
  return string.format("%s.tmp%d", path, S.getpid())
end

local function csv_field(v)
  if v == nil or v == false then return "" end
  local s = tostring(v)
  if s:find('[,"\n]') then s = '"' .. s:gsub('"', '""') .. '"' end
  return s
end

-- One line per run: workload, config, policy, metric value, normalized value, cycles, complete (1/0), capped (1:
-- stopped at max_cycles), the run's CPU and wall seconds, and any extra stats.
function X.write_csv(res, path, extra)
  mkdir_for(path)
  local tmp = temp_for(path)
  local f = assert(io.open(tmp, "w"))
  local head = { "workload", "config", "policy", res.metric, "normalized", "gpu.cycles", "complete", "capped", "cpu_s",
                 "wall_s" }
  for _, k in ipairs(extra or {}) do head[#head + 1] = k end
  f:write(table.concat(head, ","), "\n")
  for _, r in ipairs(res.rows) do
    local v = { r.workload, r.config, r.policy, r.value, r.norm, r.cycles, r.complete and 1 or 0, r.capped and 1 or 0,
                r.cpu_s and string.format("%.3f", r.cpu_s), r.wall_s and string.format("%.3f", r.wall_s) }
    for j, k in ipairs(extra or {}) do v[10 + j] = r.stats[k] end -- by position: a stat a run lacks stays empty
    for i = 1, #head do v[i] = csv_field(v[i]) end
    f:write(table.concat(v, ",", 1, #head), "\n")
  end
  f:close()
  S.rename(tmp, path)
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
  local m, cols = X.matrix(res, opts.field or "norm", opts)
  mkdir_for(path)
  local data = path:gsub("%.%w+$", "") .. ".dat"
  local f = assert(io.open(temp_for(data), "w"))
  local head = { "benchmark" }
  for _, c in ipairs(cols) do head[#head + 1] = '"' .. c.label .. '"' end
  f:write(table.concat(head, " "), "\n")
  for _, row in ipairs(m) do
    local parts = { '"' .. row[1] .. '"' }
    for i = 2, #row do parts[i] = row[i] and string.format("%.6g", row[i]) or "NaN" end
    f:write(table.concat(parts, " "), "\n")
  end
  f:close()
  S.rename(temp_for(data), data)
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
  g:write("set output '", temp_for(path), "'\n")
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
    os.remove(temp_for(path))
    return nil, "gnuplot failed on " .. script .. " (see " .. script .. ".log)"
  end
  S.rename(temp_for(path), path)
  return path
end

-- The sweep of `moonwarp sweep spec.yaml` (lua/cmd_sweep.c checks the spec and passes it as a table): config,
-- workloads ({name, size} or {trace}), policies ({name, set = {"policies.<point>=impl", ...}}), set (applied to
-- every run), seeds (one config column per seed), size, store, jobs, out (results.csv and normalized.svg),
-- metric, baseline, and the Slurm backend's options (backend, shared, partition, time, binary, wait, poll, submit,
-- sbatch). Prints the table; returns true when no run failed (runs still pending on Slurm are not failures).
function X.sweep(spec)
  local configs = {}
  for _, sd in ipairs(spec.seeds or {}) do
    local set = table.move(spec.set or {}, 1, #(spec.set or {}), 1, {})
    set[#set + 1] = "sim.seed=" .. sd
    configs[#configs + 1] = { name = "seed=" .. sd, set = set }
  end
  if #configs == 0 then configs[1] = { name = "", set = spec.set } end
  if spec.store then mkdir_for(spec.store) end
  local r = X.run{ workloads = spec.workloads, policies = spec.policies, configs = configs, config = spec.config,
                   size = spec.size, store = spec.store, jobs = spec.jobs, metric = spec.metric,
                   baseline = spec.baseline, backend = spec.backend, shared = spec.shared, partition = spec.partition,
                   time = spec.time, binary = spec.binary, wait = spec.wait, poll = spec.poll, submit = spec.submit,
                   sbatch = spec.sbatch }
  X.print(r)
  if (r.pending or 0) > 0 then print(string.format("pending: %d runs on Slurm (run the sweep again to collect them)",
                                                   r.pending)) end
  if spec.out then
    print("csv: " .. X.write_csv(r, spec.out .. "/results.csv"))
    local svg, err = X.plot(r, spec.out .. "/normalized.svg", { title = spec.file })
    print(svg and ("plot: " .. svg) or ("plot: " .. err))
  end
  return #r.failures == 0
end

return X
