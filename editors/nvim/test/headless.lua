-- Driven by run.sh: fails with a message and exit code 1, passes with 0.

-- fail/check: expect.lua beside this script.
local expect = dofile(debug.getinfo(1, 'S').source:sub(2):match('(.*/)') .. 'expect.lua')
local fail, check = expect.fail, expect.check

-- What the server logs and what the plugin tells the user, to check that
-- the documented settings start cleanly and errors read well.
local logged = {}
local default_log = vim.lsp.handlers['window/logMessage']
vim.lsp.handlers['window/logMessage'] = function(e, result, ctx, config)
  table.insert(logged, result)
  return default_log(e, result, ctx, config)
end
local notified = {}
local default_notify = vim.notify
vim.notify = function(msg, level, opts)
  table.insert(notified, msg)
  return default_notify(msg, level, opts)
end
-- Server stderr goes to the LSP log as errors: look at what this run adds.
local log_path = vim.lsp.get_log_path()
local log_size = vim.fn.getfsize(log_path)

local ok, err = pcall(function()
  vim.cmd('filetype on')
  vim.cmd('syntax on')
  local zeno = require('zeno')
  -- The settings of the README, and every heuristic the checker has.
  check(vim.deep_equal(zeno.HEURISTICS, { 'zero', 'dl', 'du', 'hl', 'hu', 'hcg', 'pdb' }), 'heuristics')
  local _, problems = zeno.checked_settings({ heuristic = 'nope', subsume = 'nope', symmetry = 'yes', timeoutSeconds = -1, colour = 'red', nonZeno = 'yes' })
  check(#problems == 6, 'six bad settings: ' .. vim.inspect(problems))
  local good = zeno.checked_settings({ nonZeno = true })
  check(good.nonZeno == true, 'nonZeno is a setting')
  zeno.setup({
    path = os.getenv('ZENO_BIN'),
    settings = { search = 'greedy', heuristic = 'hcg', subsume = 'alu', checkOn = 'change', timeoutSeconds = 30, nonZeno = false },
  })
  vim.cmd('runtime plugin/zeno.lua')
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('ZENO_MODEL')))
  local bufnr = vim.api.nvim_get_current_buf()
  check(vim.bo.filetype == 'zeno', 'filetype is ' .. vim.bo.filetype)

  -- The violation of `mutex` (bounded wait).
  local violation
  vim.wait(60000, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr, { severity = vim.diagnostic.severity.ERROR })) do
      if d.message:match('^violated') then
        violation = d
        return true
      end
    end
    return false
  end, 100)
  check(violation ~= nil, 'no violation diagnostic within 60 s')
  local line = vim.api.nvim_buf_get_lines(bufnr, violation.lnum, violation.lnum + 1, false)[1]
  check(line:match('^check mutex:'), 'violation not on the mutex check: ' .. line)

  -- The expected edge, straight from the server (not through the plugin).
  local client
  local clients = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
  for _, c in pairs(clients) do
    if c.name == 'zeno' then
      client = c
    end
  end
  check(client ~= nil, 'no zeno client')
  local params = { uri = vim.uri_from_bufnr(bufnr), check = 'mutex' }
  local resp
  if vim.fn.has('nvim-0.11') == 1 then
    resp = client:request_sync('zeno/errorTrace', params, 10000, bufnr)
  else
    resp = client.request_sync('zeno/errorTrace', params, 10000, bufnr)
  end
  check(resp and resp.result and resp.result.steps and #resp.result.steps > 2, 'no trace from zeno/errorTrace')
  local steps = resp.result.steps
  local function line_of(i)
    return steps[i].edges[1].range.start.line + 1
  end
  local first, second, third = line_of(1), line_of(2), line_of(3)

  -- Every step of the trace under its edge's line, each on a virtual line
  -- of its own (the diagnostic virtual text would show one per line, cut
  -- at the window's edge). The stand-in server sends no step hints.
  if vim.fn.fnamemodify(os.getenv('ZENO_BIN'), ':t') ~= 'fake-zeno' then
    local steps_ns = require('zeno.steps').namespace
    local shown = {}
    vim.wait(10000, function()
      shown = {}
      for _, m in ipairs(vim.api.nvim_buf_get_extmarks(bufnr, steps_ns, 0, -1, { details = true })) do
        for _, l in ipairs(m[4].virt_lines or {}) do
          table.insert(shown, { row = m[2], text = l[1][1] })
        end
      end
      return #shown == #steps
    end, 100)
    check(#shown == #steps, string.format('%d steps shown under their lines, the trace has %d', #shown, #steps))
    local per_row = {}
    for _, l in ipairs(shown) do
      per_row[l.row] = (per_row[l.row] or 0) + 1
    end
    local shared = 0
    for i = 1, #steps do
      local row = line_of(i) - 1
      local found = false
      for _, l in ipairs(shown) do
        found = found or (l.row == row and l.text:find('step ' .. i .. ' of ' .. #steps .. ':', 1, true) ~= nil)
      end
      check(found, 'step ' .. i .. ' is not shown under line ' .. (row + 1))
      if per_row[row] > 1 then
        shared = shared + 1
      end
    end
    -- Fischer's trace takes an edge more than once (each process idle -> req).
    check(shared > 0, 'no line with several steps in the trace')
    local cfg = vim.diagnostic.config(nil, vim.lsp.diagnostic.get_namespace(client.id))
    check(cfg.virtual_text and cfg.virtual_text.severity, 'the hints are still in the virtual text')
    io.stdout:write('steps shown: ' .. #shown .. '\n')
  end

  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  vim.cmd('ZenoTraceNext')
  local row = vim.api.nvim_win_get_cursor(0)[1]
  check(row == first, string.format('after :ZenoTraceNext cursor on line %d, first edge on line %d', row, first))
  check(#vim.api.nvim_buf_get_extmarks(bufnr, vim.api.nvim_create_namespace('zeno_trace'), 0, -1, {}) > 0,
    'the step is not highlighted')

  vim.cmd('ZenoTraceNext')
  row = vim.api.nvim_win_get_cursor(0)[1]
  check(row == second, string.format('second step: cursor on line %d, edge on line %d', row, second))
  vim.cmd('ZenoTraceNext')
  row = vim.api.nvim_win_get_cursor(0)[1]
  check(row == third, string.format('third step: cursor on line %d, edge on line %d', row, third))
  vim.cmd('ZenoTracePrev')
  row = vim.api.nvim_win_get_cursor(0)[1]
  check(row == second, string.format('back to the second step: cursor on line %d, edge on line %d', row, second))

  -- Code lenses, when the server offers them: refreshed and displayed.
  local caps = client.server_capabilities or client.resolved_capabilities or {}
  if caps.codeLensProvider or caps.code_lens then
    vim.cmd('ZenoCodeLens')
    local lenses
    vim.wait(10000, function()
      lenses = vim.lsp.codelens.get(bufnr)
      return lenses and #lenses > 0
    end, 100)
    check(lenses and #lenses > 0, 'no code lenses displayed')
    local on_mutex = false
    for _, l in ipairs(lenses) do
      if l.range.start.line == violation.lnum then
        on_mutex = true
      end
    end
    check(on_mutex, 'no code lens on the mutex check')
    io.stdout:write('lenses: ' .. #lenses .. '\n')
  end

  -- A check that does not exist: the server's reason, not a Lua table.
  notified = {}
  vim.cmd('ZenoTraceNext nope')
  local said = table.concat(notified, '\n')
  check(said:find('no check named `nope`', 1, true), 'ZenoTraceNext nope said: ' .. said)
  check(not said:find('code', 1, true) and not said:find('{', 1, true), 'ZenoTraceNext nope said: ' .. said)

  -- The documented settings were accepted: nothing logged about them.
  for _, m in ipairs(logged) do
    check(not (m.message or ''):find('settings', 1, true), 'the server logged: ' .. tostring(m.message))
  end
  if vim.fn.filereadable(log_path) == 1 then
    local log = table.concat(vim.fn.readfile(log_path, 'b'), '\n')
    check(not log:sub(math.max(log_size, 0) + 1):find('settings', 1, true),
      'the LSP log has an error about the settings')
  end

  vim.cmd('ZenoTrace')
  local qf = vim.fn.getqflist()
  check(#qf == #steps, string.format('quickfix has %d entries, trace %d steps', #qf, #steps))
  check(qf[1].lnum == first, 'first quickfix entry not on the first edge')
  check(qf[#qf].text:match('^step ' .. #steps), 'last quickfix entry: ' .. qf[#qf].text)
  vim.cmd('cclose')

  -- The simulator (zeno/simulate): start, fire, back, a refused delay.
  -- The protocol stand-in has no simulator; with it this part is skipped.
  if vim.fn.fnamemodify(os.getenv('ZENO_BIN'), ':t') == 'fake-zeno' then
    io.stdout:write('simulator test skipped: the stand-in server has no simulator\n')
  else
    local sim = require('zeno.simulate')
    vim.api.nvim_set_current_buf(bufnr)
    vim.cmd('ZenoSimulate')
    local s = sim.session(bufnr)
    check(s ~= nil, 'no simulation after :ZenoSimulate')
    local function labels()
      local out = {}
      for _, t in ipairs(sim.session(bufnr).result.transitions) do
        table.insert(out, t.label)
      end
      return table.concat(out, ', ')
    end
    local function where()
      local out = {}
      for _, l in ipairs(sim.session(bufnr).result.state.locations) do
        table.insert(out, l.name .. '.' .. l.value)
      end
      return table.concat(out, ' ')
    end
    check(labels() == 'Proc(1): idle -> req, Proc(2): idle -> req, Proc(3): idle -> req', 'initial: ' .. labels())
    check(#vim.api.nvim_buf_get_extmarks(bufnr, vim.api.nvim_create_namespace('zeno_simulate'), 0, -1, {}) == 3,
      'the three enabled edges are not highlighted')
    vim.cmd('ZenoSimFire 1')
    check(where() == 'Proc(1).req Proc(2).idle Proc(3).idle', 'after firing 1: ' .. where())
    vim.cmd('ZenoSimFire 2')
    check(where() == 'Proc(1).req Proc(2).req Proc(3).idle', 'after firing 2: ' .. where())
    check(#sim.session(bufnr).steps == 2, 'two steps')
    vim.cmd('ZenoSimBack')
    check(where() == 'Proc(1).req Proc(2).idle Proc(3).idle', 'after back: ' .. where())
    notified = {}
    vim.cmd('ZenoSimDelay 3')
    local said = table.concat(notified, '\n')
    check(said:find('the invariants forbid a delay of 3', 1, true), ':ZenoSimDelay 3 said: ' .. said)
    check(#sim.session(bufnr).steps == 1, 'the refused delay is not a step')
    local view = vim.api.nvim_buf_get_lines(sim.session(bufnr).view, 0, -1, false)
    check(vim.tbl_contains(view, 'locations: Proc(1).req  Proc(2).idle  Proc(3).idle'),
      'the simulator buffer shows: ' .. table.concat(view, ' | '))
    check(vim.tbl_contains(view, '  1. Proc(1): req -> wait  (delay in [0, 2])'),
      'the simulator buffer shows: ' .. table.concat(view, ' | '))
    io.stdout:write('simulator: start, fire, back and a refused delay\n')
  end
end)

if not ok then
  fail(tostring(err))
else
  io.stdout:write('\nok: nvim plugin follows the trace of mutex\n')
  vim.cmd('qa!')
end
