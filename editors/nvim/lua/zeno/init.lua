-- zeno for Neovim: starts `zeno lsp` for .zeno buffers and steps through
-- error traces. Works on Neovim 0.7 (vim.lsp.start_client) and uses the newer
-- APIs (vim.lsp.start, vim.lsp.config, inlay hints) when they exist.
--
-- Every trace view (stepping, the quickfix list) is built from the answer to
-- the `zeno/errorTrace` request; `trace.parse` is the one adapter.

local trace = require('zeno.trace')

local M = {}

-- The values the settings accept: the search orders, heuristics and
-- subsumptions of `zeno check --search` / `--heuristic` / `--subsume` / `--reduce` (a test
-- in the zeno repository keeps these lists equal to the checker's).
M.SEARCH_ORDERS = { 'bfs', 'dfs', 'rdfs', 'greedy', 'astar' }
M.HEURISTICS = { 'zero', 'dl', 'du', 'hl', 'hu', 'hcg', 'pdb' }
M.SUBSUME = { 'inclusion', 'alu' }
M.SYMMETRY = { 'on', 'off' }
M.REDUCE = { 'none', 'por' }
M.CHECK_ON = { 'change', 'save' }

-- The filetypes the server is attached to: zeno text, the models it
-- imports (UPPAAL XTA, TChecker, UPPAAL XML: only a buffer with `<nta>`,
-- see M.is_uppaal_xml) and UPPAAL query files (`*.q`), whose queries it
-- checks on the model beside them (`NAME.xml`, else `NAME.xta`).
M.FILETYPES = { 'zeno', 'uppaal', 'tchecker', 'xml', 'uppaalq' }

M.config = {
  -- The zeno binary; `cmd` overrides the whole command line.
  path = 'zeno',
  cmd = nil,
  -- Sent under the key `zeno` (initializationOptions and
  -- workspace/didChangeConfiguration): search (M.SEARCH_ORDERS), heuristic
  -- (M.HEURISTICS), subsume (M.SUBSUME), reduce (M.REDUCE), maxStates, timeoutSeconds (0: no limit), checkOn
  -- (M.CHECK_ON), debounceMs, threads (at least 1), nonZeno (true: liveness
  -- checks count only runs whose time diverges), memory (a size as
  -- `zeno --memory` reads it).
  settings = {},
  -- Highlight group of the current step's edges.
  highlight = 'IncSearch',
  -- Wait this long (ms) for `zeno/errorTrace`.
  request_timeout = 10000,
  -- Buffer-local key mappings (normal mode) in the buffers the server is
  -- attached to. `mappings = false` sets none; a key set to false leaves
  -- that one out; any other string maps that key instead.
  mappings = {
    hover = 'K',
    definition = 'gd',
    references = 'gr',
    rename = '<leader>rn',
    format = '<leader>f',
    codelens = '<leader>l',
    trace_next = ']t',
    trace_prev = '[t',
  },
}

M.quiescent = true
local ns = vim.api.nvim_create_namespace('zeno_trace')
-- Per buffer: { check = name, trace = parsed trace, pos = step index (0 = none yet) }
local active = {}

function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', M.config, opts or {})
end

local function notify(msg, level)
  vim.notify('zeno: ' .. msg, level or vim.log.levels.INFO)
end

local function root_dir(bufnr)
  local file = vim.api.nvim_buf_get_name(bufnr)
  local dir = vim.fn.fnamemodify(file, ':p:h')
  local git = vim.fn.finddir('.git', dir .. ';')
  if git ~= '' then
    return vim.fn.fnamemodify(git, ':p:h:h')
  end
  return dir
end

local client_for -- defined below

-- Only when the server offers lenses: asking one that does not is an error message.
local function refresh_codelens()
  local client = client_for(vim.api.nvim_get_current_buf())
  local caps = client and client.server_capabilities or {}
  if caps.codeLensProvider and vim.lsp.codelens and vim.lsp.codelens.refresh then
    pcall(vim.lsp.codelens.refresh)
  end
end

local handlers = {
  ['zeno/serverStatus'] = function(_, result)
    M.quiescent = type(result) == 'table' and result.quiescent == true
    if M.quiescent then
      refresh_codelens()
      vim.cmd('silent doautocmd <nomodeline> User ZenoQuiescent')
    end
  end,
}

-- What each mapping does; `vim.lsp.buf.format` is Neovim 0.8's name for
-- 0.7's `formatting`.
local mapping_actions = {
  hover = { 'hover', function()
    vim.lsp.buf.hover()
  end },
  definition = { 'go to definition', function()
    vim.lsp.buf.definition()
  end },
  references = { 'references', function()
    vim.lsp.buf.references()
  end },
  rename = { 'rename', function()
    vim.lsp.buf.rename()
  end },
  format = { 'format the model', function()
    if vim.lsp.buf.format then
      vim.lsp.buf.format({ name = 'zeno' })
    else
      vim.lsp.buf.formatting()
    end
  end },
  codelens = { 'run the code lens on this line', function()
    vim.lsp.codelens.run()
  end },
  trace_next = { 'next step of the error trace', function()
    M.next()
  end },
  trace_prev = { 'previous step of the error trace', function()
    M.prev()
  end },
}

--- Sets the buffer-local mappings of `M.config.mappings`; returns the
--- keys mapped, by action.
function M.set_mappings(bufnr)
  local mapped = {}
  local keys = M.config.mappings
  if type(keys) ~= 'table' then
    return mapped
  end
  for action, key in pairs(keys) do
    local what = mapping_actions[action]
    if not what then
      notify(string.format('mappings.%s: not a zeno mapping', action), vim.log.levels.WARN)
    elseif type(key) == 'string' and key ~= '' then
      vim.keymap.set('n', key, what[2], { buffer = bufnr, silent = true, desc = 'zeno: ' .. what[1] })
      mapped[action] = key
    end
  end
  return mapped
end

local function on_attach(client, bufnr)
  M.set_mappings(bufnr)
  require('zeno.steps').attach(client, bufnr)
  vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'BufWritePost' }, {
    buffer = bufnr,
    callback = refresh_codelens,
  })
  -- A stale trace would point at edited lines.
  vim.api.nvim_create_autocmd({ 'TextChanged', 'TextChangedI' }, {
    buffer = bufnr,
    callback = function()
      M.clear(bufnr)
    end,
  })
  local caps = client.server_capabilities or {}
  if vim.lsp.inlay_hint and caps.inlayHintProvider then
    pcall(vim.lsp.inlay_hint.enable, true, { bufnr = bufnr })
  end
  refresh_codelens()
end

local function one_of(list)
  return function(v)
    return vim.tbl_contains(list, v)
  end, table.concat(list, '|')
end

local function non_negative(integer)
  return function(v)
    return type(v) == 'number' and v >= 0 and (not integer or v == math.floor(v))
  end, integer and 'a non-negative integer' or 'a non-negative number'
end

local setting_checks = {}
setting_checks.search = { one_of(M.SEARCH_ORDERS) }
setting_checks.heuristic = { one_of(M.HEURISTICS) }
setting_checks.subsume = { one_of(M.SUBSUME) }
setting_checks.symmetry = { one_of(M.SYMMETRY) }
setting_checks.reduce = { one_of(M.REDUCE) }
setting_checks.checkOn = { one_of(M.CHECK_ON) }
setting_checks.maxStates = { non_negative(true) }
setting_checks.timeoutSeconds = { non_negative(false) }
setting_checks.debounceMs = { non_negative(true) }
setting_checks.threads = {
  function(v)
    return type(v) == 'number' and v >= 1 and v == math.floor(v)
  end,
  'a positive integer',
}
setting_checks.nonZeno = {
  function(v)
    return type(v) == 'boolean'
  end,
  'true or false',
}
setting_checks.memory = {
  function(v)
    return type(v) == 'string' and v:match('%S') ~= nil
  end,
  'a size such as 512M or 2G',
}

--- The settings to send, and a line per setting left out because the
--- server would not accept it (it keeps its default instead).
function M.checked_settings(settings)
  local ok, problems = {}, {}
  for key, value in pairs(settings or {}) do
    local check = setting_checks[key]
    if not check then
      table.insert(problems, string.format('settings.%s: not a zeno setting', key))
    elseif check[1](value) then
      ok[key] = value
    else
      table.insert(problems, string.format('settings.%s: expected %s, got %s', key, check[2], vim.inspect(value)))
    end
  end
  table.sort(problems)
  return ok, problems
end

--- The client configuration, the same for every API generation.
-- `{ zeno = {...} }`; an empty table would be sent as a JSON array. The
-- keys are the server's own (it reads `timeoutSeconds` as such).
local function settings_payload()
  local s, problems = M.checked_settings(M.config.settings)
  for _, p in ipairs(problems) do
    notify(p, vim.log.levels.WARN)
  end
  return { zeno = next(s) ~= nil and s or vim.empty_dict() }
end

function M.client_config(bufnr)
  local settings = settings_payload()
  return {
    name = 'zeno',
    cmd = M.config.cmd or { M.config.path, 'lsp' },
    root_dir = root_dir(bufnr),
    init_options = settings,
    settings = settings,
    handlers = handlers,
    on_attach = on_attach,
  }
end

local started = {} -- root_dir -> client id (Neovim < 0.8)

--- Starts (or reuses) the server for a buffer.
function M.attach(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local config = M.client_config(bufnr)
  if vim.lsp.start then
    vim.lsp.start(config, { bufnr = bufnr })
    return
  end
  local id = started[config.root_dir]
  if not id or vim.lsp.client_is_stopped(id) then
    id = vim.lsp.start_client(config)
    if not id then
      notify('could not start ' .. table.concat(config.cmd, ' '), vim.log.levels.ERROR)
      return
    end
    started[config.root_dir] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
end

function client_for(bufnr)
  local clients
  if vim.lsp.get_clients then
    clients = vim.lsp.get_clients({ bufnr = bufnr, name = 'zeno' })
  else
    clients = {}
    for _, c in pairs(vim.lsp.buf_get_clients(bufnr)) do
      if c.name == 'zeno' then
        table.insert(clients, c)
      end
    end
  end
  return clients[1]
end
M.client_for = client_for

--- `zeno/errorTrace` for a check, parsed; nil when there is none, and
--- `nil, true` when the request failed (the user has been told why).
function M.fetch(bufnr, check)
  local client = client_for(bufnr)
  if not client then
    notify('no zeno language server for this buffer', vim.log.levels.WARN)
    return nil
  end
  local params = { uri = vim.uri_from_bufnr(bufnr), check = check }
  local response, err
  if vim.fn.has('nvim-0.11') == 1 then
    response, err = client:request_sync('zeno/errorTrace', params, M.config.request_timeout, bufnr)
  else
    response, err = client.request_sync('zeno/errorTrace', params, M.config.request_timeout, bufnr)
  end
  if not response then
    -- No answer: `err` says why ("timeout", "client has shut down", ...).
    notify(string.format('no trace for check %s: %s', check, tostring(err or 'no answer')), vim.log.levels.WARN)
    return nil, true
  end
  if response.err then
    -- The server's error (e.g. "no check named `x`"), not the table around it.
    local e = response.err
    local why = type(e) == 'table' and e.message or tostring(e)
    notify(string.format('no trace for check %s: %s', check, why), vim.log.levels.WARN)
    return nil, true
  end
  return trace.parse(response.result)
end

--- The check to trace when none is named: the violated check (an error
--- diagnostic on a `check NAME:` line) at or above the cursor, else the
--- first one in the buffer.
local function default_check(bufnr)
  local line = vim.api.nvim_win_get_cursor(0)[1] - 1
  local best_line, best_name
  for _, d in ipairs(vim.diagnostic.get(bufnr, { severity = vim.diagnostic.severity.ERROR })) do
    local text = vim.api.nvim_buf_get_lines(bufnr, d.lnum, d.lnum + 1, false)[1] or ''
    local name = text:match('^%s*check%s+([%a_][%w_]*)%s*:')
    if name then
      local better
      if best_line == nil then
        better = true
      elseif d.lnum <= line then
        better = best_line > line or d.lnum > best_line
      else
        better = best_line > line and d.lnum < best_line
      end
      if better then
        best_line, best_name = d.lnum, name
      end
    end
  end
  return best_name
end

local function load(bufnr, check)
  check = (check ~= nil and check ~= '') and check or default_check(bufnr)
  if not check then
    notify('no violated check in this buffer')
    return nil
  end
  local t, reported = M.fetch(bufnr, check)
  if reported then
    return nil
  end
  if not t or #t.steps == 0 then
    notify('no trace for check ' .. check)
    return nil
  end
  active[bufnr] = { check = check, trace = t, pos = 0 }
  return active[bufnr]
end

local function current(bufnr, check)
  local a = active[bufnr]
  if a and (check == nil or check == '' or check == a.check) then
    return a
  end
  return load(bufnr, check)
end

function M.clear(bufnr)
  active[bufnr] = nil
  vim.api.nvim_buf_clear_namespace(bufnr, ns, 0, -1)
end

--- Moves the cursor to the step's first edge and highlights all its edges.
local function show(bufnr, a)
  local step = a.trace.steps[a.pos]
  vim.api.nvim_buf_clear_namespace(bufnr, ns, 0, -1)
  local last = vim.api.nvim_buf_line_count(bufnr) - 1
  for _, e in ipairs(step.edges) do
    local r = e.range
    if r.start.line <= last then
      local end_line = math.min(r['end'].line, last)
      local end_text = vim.api.nvim_buf_get_lines(bufnr, end_line, end_line + 1, false)[1] or ''
      pcall(vim.api.nvim_buf_set_extmark, bufnr, ns, r.start.line, r.start.character, {
        end_row = end_line,
        end_col = math.min(r['end'].character, #end_text),
        hl_group = M.config.highlight,
      })
    end
  end
  local first = step.edges[1]
  if first and first.range.start.line <= last then
    vim.api.nvim_win_set_cursor(0, { first.range.start.line + 1, first.range.start.character })
  end
  local cycle = trace.in_cycle(a.trace, a.pos) and ' (cycle)' or ''
  vim.api.nvim_echo(
    { { string.format('%s %d/%d%s: %s', a.check, a.pos, #a.trace.steps, cycle, trace.summary(step)) } },
    false,
    {}
  )
end

function M.next(check)
  local bufnr = vim.api.nvim_get_current_buf()
  local a = current(bufnr, check)
  if not a then
    return
  end
  a.pos = trace.move(a.pos, 1, #a.trace.steps, a.trace.loop_start)
  show(bufnr, a)
end

function M.prev(check)
  local bufnr = vim.api.nvim_get_current_buf()
  local a = current(bufnr, check)
  if not a then
    return
  end
  a.pos = trace.move(a.pos, -1, #a.trace.steps)
  show(bufnr, a)
end

--- The whole trace in the quickfix list, one entry per step with the state after it.
function M.quickfix(check)
  local bufnr = vim.api.nvim_get_current_buf()
  local a = load(bufnr, check)
  if not a then
    return
  end
  vim.fn.setqflist({}, ' ', {
    title = 'zeno trace: ' .. a.check .. ' (' .. a.trace.verdict .. ')',
    items = trace.qf_items(a.trace, bufnr),
  })
  vim.cmd('copen')
end

-- The server's trace commands (used by its code lenses) are answered from
-- the client's trace model, like the commands above.
local function register_lsp_commands()
  if not vim.lsp.commands then
    return
  end
  -- The server's lenses send one argument, `{ uri, check }`
  -- (crates/lsp/src/lenses.rs): the check is that of the lens.
  local function args_of(command)
    local arg = (command.arguments or {})[1]
    return type(arg) == 'table' and arg.check or nil
  end
  vim.lsp.commands['zeno.trace.show'] = function(command)
    local bufnr = vim.api.nvim_get_current_buf()
    M.clear(bufnr)
    M.next(args_of(command))
  end
  vim.lsp.commands['zeno.trace.next'] = function(command)
    M.next(args_of(command))
  end
  vim.lsp.commands['zeno.trace.prev'] = function(command)
    M.prev(args_of(command))
  end
end

function M.create_commands()
  local opts = { nargs = '?', desc = '' }
  vim.api.nvim_create_user_command('ZenoTraceNext', function(o)
    M.next(o.args)
  end, vim.tbl_extend('force', opts, { desc = 'zeno: next step of the error trace' }))
  vim.api.nvim_create_user_command('ZenoTracePrev', function(o)
    M.prev(o.args)
  end, vim.tbl_extend('force', opts, { desc = 'zeno: previous step of the error trace' }))
  vim.api.nvim_create_user_command('ZenoTrace', function(o)
    M.quickfix(o.args)
  end, vim.tbl_extend('force', opts, { desc = 'zeno: error trace in the quickfix list' }))
  require('zeno.simulate').create_commands()
  vim.api.nvim_create_user_command('ZenoCodeLens', function()
    refresh_codelens()
  end, { desc = 'zeno: refresh code lenses' })
  register_lsp_commands()
end

-- Whether an XML buffer holds a UPPAAL model (an `<nta>` element in its
-- first lines), which the server imports and checks.
function M.is_uppaal_xml(buf)
  for _, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, 50, false)) do
    if line:find('<nta', 1, true) then
      return true
    end
  end
  return false
end

-- nvim-lspconfig-style registration for Neovim 0.11+ (`vim.lsp.enable('zeno')`).
function M.register_config()
  if type(vim.lsp.config) ~= 'table' and type(vim.lsp.config) ~= 'function' then
    return false
  end
  local ok = pcall(function()
    vim.lsp.config('zeno', {
      cmd = M.config.cmd or { M.config.path, 'lsp' },
      -- Not xml: Neovim 0.11's configurations cannot tell a UPPAAL model
      -- from other XML (the plugin's FileType autocommand does).
      filetypes = { 'zeno', 'uppaal', 'tchecker', 'uppaalq' },
      root_markers = { '.git' },
      init_options = settings_payload(),
      settings = settings_payload(),
      handlers = handlers,
      on_attach = on_attach,
    })
  end)
  return ok
end

return M
