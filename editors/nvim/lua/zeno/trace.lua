-- The trace model: parsing `zeno/errorTrace` answers and formatting steps.
-- Pure Lua (no editor state), so the same code serves every view.

local M = {}

local function text(v)
  if v == nil or v == vim.NIL then
    return ''
  end
  return tostring(v)
end

-- A state part is an object (`{"id": 1}`; Lua tables have no key order, so
-- names are sorted) or a list of `{ name, value }` entries (server order).
local function pairs_sorted(obj)
  local out = {}
  if type(obj) ~= 'table' then
    return out
  end
  local islist = vim.islist or vim.tbl_islist
  if islist(obj) then
    for _, e in ipairs(obj) do
      if type(e) == 'table' and type(e.name) == 'string' then
        table.insert(out, { e.name, text(e.value) })
      end
    end
    return out
  end
  for k, v in pairs(obj) do
    table.insert(out, { tostring(k), text(v) })
  end
  table.sort(out, function(a, b)
    return a[1] < b[1]
  end)
  return out
end

local function valid_range(r)
  return type(r) == 'table'
    and type(r.start) == 'table'
    and type(r['end']) == 'table'
    and type(r.start.line) == 'number'
    and type(r.start.character) == 'number'
    and type(r['end'].line) == 'number'
    and type(r['end'].character) == 'number'
end

--- Parses a `zeno/errorTrace` result; nil when there is no trace.
function M.parse(raw)
  if type(raw) ~= 'table' or type(raw.steps) ~= 'table' then
    return nil
  end
  local t = { check = text(raw.check), verdict = text(raw.verdict), steps = {} }
  for i, s in ipairs(raw.steps) do
    if type(s) == 'table' then
      local edges = {}
      for _, e in ipairs(type(s.edges) == 'table' and s.edges or {}) do
        if type(e) == 'table' and valid_range(e.range) then
          table.insert(edges, {
            process = text(e.process),
            source = text(e.source),
            target = text(e.target),
            range = e.range,
          })
        end
      end
      -- The state after the step: `state`, or `after` in the server's own naming.
      local state = type(s.state) == 'table' and s.state or (type(s.after) == 'table' and s.after or {})
      table.insert(t.steps, {
        index = type(s.index) == 'number' and s.index or i,
        delay = text(s.delay) ~= '' and text(s.delay) or '0',
        edges = edges,
        locations = pairs_sorted(state.locations),
        variables = pairs_sorted(state.variables),
        clocks = pairs_sorted(state.clocks),
      })
    end
  end
  -- A lasso (liveness checks): `end = { kind = 'loop', start = N }`: after
  -- the last step the run is back at the state after step N, and steps
  -- N + 1 .. the last repeat for ever.
  local e = type(raw['end']) == 'table' and raw['end'] or {}
  if e.kind == 'loop' and type(e.start) == 'number' and e.start >= 0 and e.start < #t.steps then
    t.loop_start = e.start
  end
  return t
end

--- New position after moving `delta` steps, clamped to 1..count; next on
--- the last step of a lasso (`loop_start` given) goes round the cycle again.
function M.move(pos, delta, count, loop_start)
  if loop_start ~= nil and delta > 0 and pos >= count then
    return loop_start + 1
  end
  return math.max(1, math.min(pos + delta, count))
end

--- Whether step `index` (1-based) belongs to the cycle of a lasso.
function M.in_cycle(t, index)
  return t.loop_start ~= nil and index > t.loop_start
end

function M.title(step)
  local parts = {}
  for _, e in ipairs(step.edges) do
    table.insert(parts, string.format('%s: %s -> %s', e.process, e.source, e.target))
  end
  return #parts > 0 and table.concat(parts, ' | ') or '(no edge)'
end

function M.state_text(step)
  local parts = {}
  for _, group in ipairs({ step.locations, step.variables, step.clocks }) do
    for _, kv in ipairs(group) do
      table.insert(parts, kv[1] .. '=' .. kv[2])
    end
  end
  return table.concat(parts, ' ')
end

function M.summary(step)
  local delay = step.delay ~= '0' and ('delay ' .. step.delay .. ', ') or ''
  return string.format('step %d: %s%s; %s', step.index, delay, M.title(step), M.state_text(step))
end

--- Quickfix items: one per step, at its first edge.
function M.qf_items(t, bufnr)
  local items = {}
  for _, step in ipairs(t.steps) do
    local e = step.edges[1]
    local mark = ''
    if M.in_cycle(t, step.index) then
      mark = step.index == t.loop_start + 1 and '(cycle starts) ' or '(cycle) '
    end
    table.insert(items, {
      bufnr = bufnr,
      lnum = e and e.range.start.line + 1 or 1,
      col = e and e.range.start.character + 1 or 1,
      text = mark .. M.summary(step),
    })
  end
  return items
end

return M
