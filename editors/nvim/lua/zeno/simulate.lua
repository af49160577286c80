-- The simulator in Neovim, on the server's `zeno/simulate` request.
--
-- The request is stateless: this module keeps the steps taken per buffer
-- and sends them each time; the server replays them on the current model
-- and answers the state and the enabled transitions, each with the step
-- that takes it. Firing appends that step, back drops the last one, reset
-- sends none. The state and the numbered transitions are shown in a
-- scratch buffer; the edges of the enabled transitions are highlighted in
-- the model.

local M = {}

local ns = vim.api.nvim_create_namespace('zeno_simulate')
-- Per model buffer: { mode, steps, result, view (scratch buffer) }
local sessions = {}

local function notify(msg, level)
  vim.notify('zeno: ' .. msg, level or vim.log.levels.INFO)
end

--- The session of a model buffer (for tests and statuslines).
function M.session(bufnr)
  return sessions[bufnr]
end

-- `zeno/simulate`; the result, or nil after telling the user why not.
local function request(bufnr, params)
  local zeno = require('zeno')
  local client = zeno.client_for(bufnr)
  if not client then
    notify('no zeno language server for this buffer', vim.log.levels.WARN)
    return nil
  end
  params.uri = vim.uri_from_bufnr(bufnr)
  local response, err
  if vim.fn.has('nvim-0.11') == 1 then
    response, err = client:request_sync('zeno/simulate', params, zeno.config.request_timeout, bufnr)
  else
    response, err = client.request_sync('zeno/simulate', params, zeno.config.request_timeout, bufnr)
  end
  if not response then
    notify('simulation: ' .. tostring(err or 'no answer'), vim.log.levels.WARN)
    return nil
  end
  if response.err then
    local e = response.err
    notify('simulation: ' .. (type(e) == 'table' and e.message or tostring(e)), vim.log.levels.WARN)
    return nil
  end
  if response.result == nil or response.result == vim.NIL then
    notify('simulation: the model has errors', vim.log.levels.WARN)
    return nil
  end
  return response.result
end

--- The lines shown for a result: the state, then the numbered transitions.
function M.lines(result)
  local out = {}
  local function named(list)
    local parts = {}
    for _, v in ipairs(list or {}) do
      table.insert(parts, v.name .. ' = ' .. v.value)
    end
    return table.concat(parts, '  ')
  end
  local locs = {}
  for _, l in ipairs(result.state.locations) do
    table.insert(locs, l.name .. '.' .. l.value)
  end
  table.insert(out, 'steps: ' .. #result.steps)
  table.insert(out, 'locations: ' .. table.concat(locs, '  '))
  if #result.state.variables > 0 then
    table.insert(out, 'variables: ' .. named(result.state.variables))
  end
  if #result.state.clocks > 0 then
    table.insert(out, 'clocks: ' .. named(result.state.clocks))
  end
  if #result.state.zone > 0 then
    table.insert(out, 'zone: ' .. table.concat(result.state.zone, ', '))
  end
  if type(result.state.delays) == 'string' then
    table.insert(out, 'delays allowed: ' .. result.state.delays)
  end
  table.insert(out, #result.transitions > 0 and 'enabled transitions:' or 'no transition is enabled')
  for i, t in ipairs(result.transitions) do
    local line = string.format('  %d. %s', i, t.label)
    if #t.windows > 0 then
      line = line .. '  (delay in ' .. table.concat(t.windows, ' or ') .. ')'
    end
    table.insert(out, line)
  end
  return out
end

local function show(bufnr, s)
  -- The edges that can be taken, highlighted in the model.
  vim.api.nvim_buf_clear_namespace(bufnr, ns, 0, -1)
  local last = vim.api.nvim_buf_line_count(bufnr) - 1
  for _, t in ipairs(s.result.transitions) do
    for _, e in ipairs(t.edges) do
      if e.range.start.line <= last then
        pcall(vim.api.nvim_buf_set_extmark, bufnr, ns, e.range.start.line, e.range.start.character, {
          end_row = e.range.start.line,
          end_col = #(vim.api.nvim_buf_get_lines(bufnr, e.range.start.line, e.range.start.line + 1, false)[1] or ''),
          hl_group = require('zeno').config.highlight,
        })
      end
    end
  end
  if not (s.view and vim.api.nvim_buf_is_valid(s.view)) then
    s.view = vim.api.nvim_create_buf(false, true)
    pcall(vim.api.nvim_buf_set_name, s.view, 'zeno-simulator://' .. bufnr)
    local win = vim.api.nvim_get_current_win()
    vim.cmd('botright split')
    vim.api.nvim_win_set_buf(0, s.view)
    vim.api.nvim_set_current_win(win)
  end
  vim.api.nvim_buf_set_lines(s.view, 0, -1, false, M.lines(s.result))
end

-- Sends `steps` (or the trace of `check`); on success they become the session's.
local function run(bufnr, mode, steps, check)
  local s = sessions[bufnr] or { mode = mode, steps = {} }
  local result = request(bufnr, { mode = mode, steps = steps, trace = check })
  if not result then
    return false
  end
  if result.error ~= nil and result.error ~= vim.NIL then
    notify(result.error, vim.log.levels.WARN)
  end
  s.mode, s.steps, s.result = mode, result.steps, result
  sessions[bufnr] = s
  show(bufnr, s)
  return true
end

local function current(bufnr)
  local s = sessions[bufnr]
  if not s then
    notify('no simulation in this buffer: :ZenoSimulate starts one', vim.log.levels.WARN)
  end
  return s
end

local function copy(list)
  return vim.list_extend({}, list)
end

function M.start(mode)
  return run(vim.api.nvim_get_current_buf(), (mode == 'symbolic') and 'symbolic' or 'concrete', {})
end

--- Takes transition `n` (1-based); without `n`, picks one with vim.ui.select.
function M.fire(n)
  local bufnr = vim.api.nvim_get_current_buf()
  local s = current(bufnr)
  if not s then
    return false
  end
  local function take(t)
    if t.step == nil or t.step == vim.NIL then
      local why = (t.error ~= nil and t.error ~= vim.NIL) and t.error
        or ('it needs a delay first: ' .. table.concat(t.windows, ' or '))
      notify('cannot take ' .. t.label .. ': ' .. why, vim.log.levels.WARN)
      return false
    end
    local steps = copy(s.steps)
    table.insert(steps, t.step)
    return run(bufnr, s.mode, steps)
  end
  local ts = s.result.transitions
  if n then
    local t = ts[n]
    if not t then
      notify(string.format('there is no transition %d: the enabled ones are numbered 1 to %d', n, #ts), vim.log.levels.WARN)
      return false
    end
    return take(t)
  end
  vim.ui.select(ts, {
    prompt = 'zeno: take a transition',
    format_item = function(t)
      return t.label
    end,
  }, function(t)
    if t then
      take(t)
    end
  end)
  return true
end

function M.back()
  local bufnr = vim.api.nvim_get_current_buf()
  local s = current(bufnr)
  if not s then
    return false
  end
  if #s.steps == 0 then
    notify('already at the initial state', vim.log.levels.WARN)
    return false
  end
  local steps = copy(s.steps)
  table.remove(steps)
  return run(bufnr, s.mode, steps)
end

function M.delay(d)
  local bufnr = vim.api.nvim_get_current_buf()
  local s = current(bufnr)
  if not s then
    return false
  end
  local steps = copy(s.steps)
  table.insert(steps, { kind = 'delay', delay = d })
  local before = #s.steps
  -- The server replays what applies and says why the rest does not.
  return run(bufnr, s.mode, steps) and #sessions[bufnr].steps > before
end

function M.reset()
  local bufnr = vim.api.nvim_get_current_buf()
  local s = current(bufnr)
  return s ~= nil and run(bufnr, s.mode, {})
end

--- Starts from a check's current trace, at its end (`:ZenoSimBack` walks back).
function M.from_trace(check, mode)
  local bufnr = vim.api.nvim_get_current_buf()
  local s = sessions[bufnr]
  return run(bufnr, mode or (s and s.mode) or 'concrete', {}, check)
end

function M.create_commands()
  local cmd = vim.api.nvim_create_user_command
  cmd('ZenoSimulate', function(o)
    M.start(o.args)
  end, { nargs = '?', desc = 'zeno: start simulating (concrete, or symbolic)' })
  cmd('ZenoSimFire', function(o)
    M.fire(tonumber(o.args))
  end, { nargs = '?', desc = 'zeno: take transition N (no N: pick one)' })
  cmd('ZenoSimBack', function()
    M.back()
  end, { desc = 'zeno: undo the last simulation step' })
  cmd('ZenoSimDelay', function(o)
    M.delay(o.args)
  end, { nargs = 1, desc = 'zeno: let time pass (3/2)' })
  cmd('ZenoSimReset', function()
    M.reset()
  end, { desc = 'zeno: back to the initial state' })
  cmd('ZenoSimTrace', function(o)
    M.from_trace(o.args)
  end, { nargs = 1, desc = "zeno: simulate along a check's trace" })
end

return M
