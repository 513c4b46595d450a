-- moonwarp.slurm: the Slurm backend of moonwarp.experiment's X.run{backend = "slurm"} (docs/sweeps.md). The runs a
-- sweep has not stored yet become one job array: each run's description is written into the shared folder
-- beforehand, each array task runs `moonwarp sweep-task SUB INDEX` on one of them and writes its result file
-- atomically (temporary file + rename), and the collector imports the finished results into the store. Slurm
-- does the scheduling; this module submits (sbatch), asks which tasks are still queued or running (squeue) and
-- collects.
--
-- The shared folder:
--   results/<key>.result   a finished run: header, the record, the stats, an end line repeating the key
--   results/<key>.error    a failed run: the error with its traceback (removed when the run is submitted again)
--   sub-<time>-<pid>/      one submission: tasks/<i>.run (run descriptions), keys (index and key per line),
--                          submit.sh (the sbatch script), job (the job id), logs/<i>.out (each task's output)
local S = require "moonwarp.store"

local M = {}

local RESULT_HEAD = "moonwarp-result 1\n"

local function shq(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

local function mkdir(path)
  local ok = os.execute("mkdir -p " .. shq(path))
  if not (ok == true or ok == 0) then error("slurm: cannot create the folder " .. path, 0) end
end

local function read_file(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local t = f:read("a")
  f:close()
  return t
end

-- A file written to a temporary name in the same folder and renamed over the target: a reader on any node sees
-- the whole file or none.
function M.write_atomic(path, text)
  local tmp = string.format("%s.tmp.%s.%d", path, S.hostname(), S.getpid())
  local f, err = io.open(tmp, "wb")
  if not f then error("slurm: " .. err, 0) end
  f:write(text)
  f:close()
  S.rename(tmp, path)
end

-- ---- run descriptions: a Lua table literal, read back with no environment --------------------------------------
local function key_less(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return ta < tb end
  if ta == "boolean" then return (a and 1 or 0) < (b and 1 or 0) end
  return a < b
end

-- %q writes integers as integers and floats as hexadecimal floats: every number reads back exactly, subtype
-- included. Functions, userdata and threads cannot travel to another machine.
local function dump(v, out, path, seen)
  local t = type(v)
  if t == "table" then
    if seen[v] then error(path .. " refers to itself", 0) end
    seen[v] = true
    local keys = {}
    for k in pairs(v) do
      local kt = type(k)
      if kt ~= "string" and kt ~= "number" and kt ~= "boolean" then
        error(string.format("%s has a %s key: a Slurm task cannot receive it", path, kt), 0)
      end
      keys[#keys + 1] = k
    end
    table.sort(keys, key_less)
    out[#out + 1] = "{"
    for _, k in ipairs(keys) do
      out[#out + 1] = "[" .. string.format("%q", k) .. "]="
      dump(v[k], out, path .. "." .. tostring(k), seen)
      out[#out + 1] = ","
    end
    out[#out + 1] = "}"
    seen[v] = nil
  elseif t == "string" or t == "number" or t == "boolean" or t == "nil" then
    out[#out + 1] = string.format("%q", v)
  else
    error(string.format("%s is a %s: a Slurm task cannot receive it (give a policy by name, as a table of "
                        .. "parameters or as a .lua script file; a workload by name or file)", path, t), 0)
  end
  return out
end

function M.encode_run(desc)
  return "-- moonwarp run description (moonwarp sweep-task reads it)\nreturn "
         .. table.concat(dump(desc, {}, "run", {})) .. "\n"
end

function M.decode_run(text, name)
  local fn, err = load(text, "=" .. (name or "run"), "t", {})
  if not fn then error("slurm: " .. err, 0) end
  local ok, t = pcall(fn)
  if not ok or type(t) ~= "table" or type(t.key) ~= "string" then
    error(string.format("slurm: %s is not a run description", name or "run"), 0)
  end
  return t
end

function M.read_run(path)
  local text = read_file(path)
  if not text then error("slurm: cannot read the run description " .. path, 0) end
  return M.decode_run(text, path)
end

-- ---- result files -------------------------------------------------------------------------------------------
-- "moonwarp-result 1", the record (key, status, cpu_s, wall_s, host, descr, nstats) and the stats as
-- store.encode text separated by an empty line, then "end <key>": a file cut short anywhere lacks the end line or
-- its stats count.
function M.encode_result(r)
  local n = 0
  for _ in pairs(r.stats) do n = n + 1 end
  local meta = S.encode { key = r.key, status = r.status, cpu_s = r.cpu_s, wall_s = r.wall_s, host = r.host,
                          descr = r.descr, nstats = n }
  return RESULT_HEAD .. meta .. "\n" .. S.encode(r.stats) .. "end " .. r.key .. "\n"
end

-- The record of a result file's text, or nil and why not.
function M.decode_result(text)
  local body, key = text:match("^moonwarp%-result 1\n(.*)end (%x+)\n$")
  if not body then return nil, "incomplete (no header or no end line)" end
  local meta, stats = body:match("^(.-\n)\n(.*)$")
  if not meta then return nil, "incomplete (no record)" end
  local ok1, m = pcall(S.decode, meta)
  local ok2, st = pcall(S.decode, stats)
  if not (ok1 and ok2) then return nil, "malformed" end
  local n = 0
  for _ in pairs(st) do n = n + 1 end
  if m.key ~= key or n ~= m.nstats or (m.status ~= "complete" and m.status ~= "capped") then
    return nil, "incomplete (its record does not match its stats)"
  end
  m.stats, m.nstats = st, nil
  return m
end

-- The result of `key` in the results folder: the record, or nil and why not ("missing", "incomplete ...", or
-- "refused: ..." for a complete file whose key is another run's).
function M.read_result(results, key)
  local path = results .. "/" .. key .. ".result"
  local text = read_file(path)
  if not text then return nil, "missing" end
  local r, why = M.decode_result(text)
  if not r then return nil, path .. ": " .. why end
  if r.key ~= key then return nil, string.format("%s: refused: it holds the result of key %s", path, r.key) end
  return r
end

-- collect(store, shared) imports every complete result file of the shared folder whose key is its file's name into
-- the store (a path or an open store); idempotent. Returns the number imported, the number already stored, and
-- the list of files refused or incomplete (with why).
function M.collect(store, shared)
  local db = type(store) == "string" and S.open(store) or store
  local results = shared .. "/results"
  local names = S.listdir(results) or {}
  local imported, had, bad = 0, 0, {}
  for _, name in ipairs(names) do
    local key = name:match("^(%x+)%.result$")
    if key then
      if db:get(key) then had = had + 1
      else
        local r, why = M.read_result(results, key)
        if r then
          if db:put(key, r) then imported = imported + 1 else had = had + 1 end
        else
          bad[#bad + 1] = why
        end
      end
    end
  end
  if type(store) == "string" then db:close() end
  return imported, had, bad
end

-- ---- the task side: `moonwarp sweep-task SUB INDEX` -----------------------------------------------------------
-- Runs the run described in SUB/tasks/INDEX.run and writes results/<key>.result, or results/<key>.error. The key
-- is computed again here: a node with another moonwarp version or other input files than the submitting machine
-- refuses to run instead of storing a result under a key it does not match. Returns the exit status.
function M.task(sub, index)
  local X = require "moonwarp.experiment"
  local desc = M.read_run(string.format("%s/tasks/%s.run", sub, index))
  local base = desc.results .. "/" .. desc.key
  local ok, res = xpcall(function()
    local key = X.run_key(desc.opts, desc.policy, desc.measure)
    if key ~= desc.key then
      error(string.format("the run's key computed on %s is %s, not the submitted %s: moonwarp's version (here %s, "
                          .. "submitted %s) or an input file differs from the submitting machine's", S.hostname(),
                          key, desc.key, S.version, tostring(desc.version)), 0)
    end
    local st, complete, wall, cpu = X.run_cell(desc)
    return { key = desc.key, status = complete and "complete" or "capped", cpu_s = cpu, wall_s = wall,
             host = S.hostname(), descr = desc.descr, stats = st }
  end, debug.traceback)
  if ok then
    M.write_atomic(base .. ".result", M.encode_result(res))
    os.remove(base .. ".error")
    return 0
  end
  local msg = tostring(res)
  M.write_atomic(base .. ".error", string.format("%s\n(task %s of %s on %s)\n", msg, index, sub, S.hostname()))
  io.stderr:write("moonwarp: sweep-task: ", msg, "\n")
  return 1
end

-- ---- the submitting side ------------------------------------------------------------------------------------
-- The sbatch script of a submission: o.sub (the folder), o.n (tasks), o.max (tasks at once, or nil), o.partition,
-- o.time, o.sbatch (more #SBATCH options), o.chdir (where relative paths resolve), o.binary, o.name.
function M.script(o)
  local l = { "#!/bin/sh", "#SBATCH --job-name=" .. (o.name or "moonwarp-sweep"),
              string.format("#SBATCH --array=0-%d%s", o.n - 1, o.max and ("%" .. o.max) or ""),
              "#SBATCH --ntasks=1", "#SBATCH --cpus-per-task=1", "#SBATCH --output=" .. o.sub .. "/logs/%a.out",
              "#SBATCH --chdir=" .. o.chdir }
  if o.partition then l[#l + 1] = "#SBATCH --partition=" .. o.partition end
  if o.time then l[#l + 1] = "#SBATCH --time=" .. o.time end
  for _, a in ipairs(o.sbatch or {}) do l[#l + 1] = "#SBATCH " .. a end
  l[#l + 1] = "# one run per array task: tasks/$SLURM_ARRAY_TASK_ID.run of this folder"
  l[#l + 1] = string.format('exec %s sweep-task %s "$SLURM_ARRAY_TASK_ID"', shq(o.binary), shq(o.sub))
  return table.concat(l, "\n") .. "\n"
end

-- A command's output (stdout and stderr) and whether it exited with 0.
local function capture(cmd)
  local p = io.popen(cmd .. " 2>&1", "r")
  local out = p:read("a")
  local ok = p:close()
  return out, ok
end

local function abs(path)
  if path:sub(1, 1) == "/" then return path end
  return S.cwd() .. "/" .. path
end

-- The option checks of X.run{backend = "slurm"}, made before anything is written.
function M.check(spec, list)
  assert(spec.store, "experiment.run: backend = \"slurm\" needs a store (the collected results go there)")
  assert(type(spec.shared) == "string" and spec.shared ~= "",
         "experiment.run: backend = \"slurm\" needs shared = DIR, a folder every node sees")
  for _, k in ipairs { "partition", "time", "binary", "job_name" } do
    assert(spec[k] == nil or type(spec[k]) == "string", "experiment.run: " .. k .. " must be a string")
  end
  assert(spec.poll == nil or (type(spec.poll) == "number" and spec.poll > 0),
         "experiment.run: poll must be a number of seconds > 0")
  assert(spec.sbatch == nil or type(spec.sbatch) == "table", "experiment.run: sbatch must be a list of options")
  for _, c in ipairs(list) do -- every run must travel: no functions in its options or policies
    local ok, err = pcall(dump, { opts = c.opts, policy = c.policy, measure = c.measure }, {},
                          string.format("%s/%s", c.w.label, c.policy.name), {})
    if not ok then error("experiment.run: backend = \"slurm\": " .. err, 0) end
  end
end

-- The array tasks of a job still queued or running (squeue), as a set of indices. A job Slurm no longer knows
-- has none. nil and the message when squeue fails otherwise (the controller does not answer, say).
local function queued(job)
  local out, ok = capture("squeue -h -r -j " .. job .. " -o %i")
  if not ok then
    if out:find("Invalid job id", 1, true) then return {} end
    return nil, "squeue -j " .. job .. " failed: " .. (out:match("^[^\n]*") or "")
  end
  local set = {}
  for line in out:gmatch("[^\n]+") do
    local id, t = line:match("^%s*(%d+)_(%S+)")
    if id == job then
      local n = tonumber(t)
      if n then set[n] = true
      else -- a range that squeue did not expand: [0-5%2], [1,3-4]
        for part in t:gsub("^%[", ""):gsub("%%.*$", ""):gsub("%]$", ""):gmatch("[^,]+") do
          local a, b = part:match("^(%d+)%-(%d+)$")
          a, b = tonumber(a or part), tonumber(b or part)
          if a and b then for k = a, b do set[k] = true end end
        end
      end
    end
  end
  return set
end

-- Submit, wait and collect for X.run: `queue` lists the cells of `list` not in the store. ctx.finish(i, stats,
-- complete, wall, cpu, cached, err, host) records a collected or failed run (and stores a collected one),
-- ctx.pending(i, why) one still on the cluster or not submitted.
function M.run(spec, list, queue, db, ctx)
  local shared = abs(spec.shared)
  local results = shared .. "/results"
  mkdir(results)
  local quiet = spec.quiet
  local function note(fmt, ...)
    if not quiet then io.stderr:write("slurm: ", string.format(fmt, ...), "\n") end
  end

  -- the submissions in the shared folder: key -> {job, sub, index}; only those holding a key of this sweep count
  local wanted = {}
  for _, i in ipairs(queue) do wanted[list[i].key] = i end
  local where = {}
  local function add_submission(sub)
    local job = (read_file(sub .. "/job") or ""):match("^(%d+)")
    local keys = read_file(sub .. "/keys")
    if not (job and keys) then return end
    for idx, key in keys:gmatch("(%d+) (%x+)\n") do
      if wanted[key] then
        where[key] = { job = job, sub = sub, index = tonumber(idx) } -- submissions are listed oldest first
      end
    end
  end
  for _, name in ipairs(S.listdir(shared) or {}) do
    if name:match("^sub%-") then add_submission(shared .. "/" .. name) end
  end

  -- the keys whose task is queued or running, asked before the results are read: a task that left the queue
  -- wrote its file before
  -- A job squeue could not tell about counts as running: its runs are neither submitted again nor failed.
  local function in_flight()
    local fl, tasks = {}, {}
    for _, w in pairs(where) do -- the latest submission of each run not collected yet
      if not tasks[w.job] then
        local t, err = queued(w.job)
        if not t then note("%s; its runs count as queued", err) end
        tasks[w.job] = t or true
      end
    end
    for key, w in pairs(where) do
      local t = tasks[w.job]
      if t == true or t[w.index] then fl[key] = true end
    end
    return fl
  end

  local left, warned = {}, {}
  for _, i in ipairs(queue) do left[#left + 1] = i end
  local function collect_pass()
    local fl = in_flight()
    local rest = {}
    for _, i in ipairs(left) do
      local c = list[i]
      local r, why = M.read_result(results, c.key)
      if r then
        where[c.key] = nil
        ctx.finish(i, r.stats, r.status == "complete", r.wall_s, r.cpu_s, false, nil, r.host)
      else
        if why ~= "missing" and not warned[c.key] then
          warned[c.key] = true
          note("%s", why)
        end
        rest[#rest + 1] = i
      end
    end
    left = rest
    return fl
  end
  local function error_of(c) return read_file(results .. "/" .. c.key .. ".error") end

  local fl = collect_pass()
  local tosubmit, waiting = {}, {}
  for _, i in ipairs(left) do
    local c = list[i]
    if fl[c.key] then
      waiting[#waiting + 1] = i
    elseif spec.submit == false then
      local e = error_of(c)
      if e then ctx.finish(i, nil, false, nil, nil, false, e) else ctx.pending(i, "not submitted") end
    else
      local e = error_of(c)
      if e then note("%s: the last attempt failed (%s); submitting it again", ctx.describe(c), e:match("^[^\n]*")) end
      tosubmit[#tosubmit + 1] = i
    end
  end
  if spec.submit == false then
    for _, i in ipairs(waiting) do ctx.pending(i, "queued or running") end
    return
  end

  if #tosubmit > 0 then
    local sub = string.format("%s/sub-%s-%d", shared, os.date("!%Y%m%d-%H%M%S"), S.getpid())
    mkdir(sub .. "/tasks")
    mkdir(sub .. "/logs")
    local keys = {}
    for n, i in ipairs(tosubmit) do
      local c = list[i]
      os.remove(results .. "/" .. c.key .. ".error") -- an earlier attempt's error is not this one's
      M.write_atomic(string.format("%s/tasks/%d.run", sub, n - 1),
                     M.encode_run { key = c.key, version = S.version, opts = c.opts, policy = c.policy,
                                    measure = c.measure, descr = ctx.describe(c), results = results })
      keys[n] = string.format("%d %s\n", n - 1, c.key)
    end
    M.write_atomic(sub .. "/keys", table.concat(keys))
    local script = M.script { sub = sub, n = #tosubmit, max = (spec.jobs or 0) > 0 and spec.jobs or nil, partition = spec.partition,
                              time = spec.time, sbatch = spec.sbatch, chdir = S.cwd(),
                              binary = spec.binary or S.exe(), name = spec.job_name }
    M.write_atomic(sub .. "/submit.sh", script)
    local out, ok = capture("sbatch --parsable " .. shq(sub .. "/submit.sh"))
    local job = ok and out:match("^%s*(%d+)")
    if not job then error("slurm: sbatch failed: " .. out, 0) end
    M.write_atomic(sub .. "/job", job .. "\n")
    add_submission(sub)
    note("submitted %d runs as job %s (array 0-%d%s) from %s", #tosubmit, job, #tosubmit - 1,
         (spec.jobs or 0) > 0 and ("%" .. spec.jobs) or "", sub)
    for _, i in ipairs(tosubmit) do waiting[#waiting + 1] = i end
  end

  if not spec.wait then
    for _, i in ipairs(waiting) do ctx.pending(i, "queued or running") end
    if #waiting > 0 then note("%d runs queued or running; run the sweep again to collect them", #waiting) end
    return
  end

  -- wait: collect as results arrive; a task that left the queue without a result failed (its error file says
  -- why, else its log: killed, out of time or memory). A task found gone is looked at once more a poll later,
  -- for a shared file system that shows a new file late.
  local poll, gone = spec.poll or 5, {}
  while #left > 0 do
    S.sleep(poll)
    fl = collect_pass()
    local rest = {}
    for _, i in ipairs(left) do
      local c = list[i]
      if fl[c.key] then
        rest[#rest + 1] = i
      else
        local e = error_of(c)
        if e then
          ctx.finish(i, nil, false, nil, nil, false, e)
        elseif gone[c.key] then
          local w = where[c.key]
          ctx.finish(i, nil, false, nil, nil, false,
                     w and string.format("task %d of job %s ended without a result (see %s/logs/%d.out)", w.index,
                                         w.job, w.sub, w.index)
                       or "no task of this run is queued and it has no result")
        else
          gone[c.key] = true
          rest[#rest + 1] = i
        end
      end
    end
    left = rest
  end
end

return M
