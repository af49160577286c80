-- Driven by run.sh against the real server: the code lenses of a model with
-- one violated and one holding check (editors/test/models/lamp.zeno) each
-- show their own check's trace or witness, and the default key mappings
-- (hover, definition, references, format, rename, code lens, trace
-- stepping) work; `mappings` switches them off. Fails with a message and
-- exit code 1, passes with 0.

-- fail/check: expect.lua beside this script.
local expect = dofile(debug.getinfo(1, 'S').source:sub(2):match('(.*/)') .. 'expect.lua')
local fail, check = expect.fail, expect.check

local notified = {}
local default_notify = vim.notify
vim.notify = function(msg, level, opts)
  table.insert(notified, msg)
  return default_notify(msg, level, opts)
end

-- Picks the lens titled `want` when several share a line (as a person
-- would in the menu); `offered` keeps the titles shown.
local want, offered
vim.ui.select = function(items, opts, on_choice)
  offered = {}
  for _, item in ipairs(items) do
    table.insert(offered, opts.format_item(item))
  end
  for _, item in ipairs(items) do
    if opts.format_item(item) == want then
      return on_choice(item)
    end
  end
  on_choice(nil)
end

local function row()
  return vim.api.nvim_win_get_cursor(0)[1]
end

-- The 1-based line of the first line matching `pattern`.
local function line_of(bufnr, pattern)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if l:match(pattern) then
      return i
    end
  end
  error('no line matches ' .. pattern)
end

local function mapped(key)
  local m = vim.fn.maparg(key, 'n', false, true)
  return type(m) == 'table' and m.buffer == 1
end

local function request(client, bufnr, method, params)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:request_sync(method, params, 10000, bufnr)
  end
  return client.request_sync(method, params, 10000, bufnr)
end

local ok, err = pcall(function()
  vim.cmd('filetype on')
  local zeno = require('zeno')
  zeno.setup({ path = os.getenv('ZENO_BIN'), settings = { search = 'bfs' } })
  vim.cmd('runtime plugin/zeno.lua')
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('ZENO_MODEL')))
  local bufnr = vim.api.nvim_get_current_buf()
  local bright_line = line_of(bufnr, '^check too_bright:')
  local door_line = line_of(bufnr, '^check door_opens:')

  -- Both checks decided and their lenses shown (bounded wait).
  local function trace_lenses()
    local n = 0
    for _, l in ipairs(vim.lsp.codelens.get(bufnr)) do
      if l.command and l.command.title == 'Show trace' then
        n = n + 1
      end
    end
    return n
  end
  vim.wait(60000, function()
    vim.cmd('ZenoCodeLens')
    return trace_lenses() == 2
  end, 200)
  check(trace_lenses() == 2, 'no "Show trace" lens on both checks within 60 s')

  -- The two checks' traces, straight from the server.
  local client = zeno.client_for(bufnr)
  local uri = vim.uri_from_bufnr(bufnr)
  local function first_lines(name)
    local resp = request(client, bufnr, 'zeno/errorTrace', { uri = uri, check = name })
    check(resp and resp.result and resp.result.steps, 'no trace for ' .. name)
    local lines = {}
    for _, s in ipairs(resp.result.steps) do
      table.insert(lines, s.edges[1].range.start.line + 1)
    end
    return lines, resp.result.verdict
  end
  local bright, bright_verdict = first_lines('too_bright')
  local door, door_verdict = first_lines('door_opens')
  check(bright_verdict == 'violated' and #bright == 2, 'too_bright: ' .. bright_verdict .. ', ' .. #bright .. ' steps')
  check(door_verdict == 'holds' and #door == 1, 'door_opens: ' .. door_verdict .. ', ' .. #door .. ' steps')
  -- The test tells the lenses apart only if the traces start apart.
  check(bright[1] == line_of(bufnr, '^%s*off %-> low'), 'too_bright starts at line ' .. bright[1])
  check(door[1] == line_of(bufnr, '^%s*closed %-> open'), 'door_opens starts at line ' .. door[1])

  local function run_lens(line, title)
    want = title
    vim.api.nvim_win_set_cursor(0, { line, 0 })
    vim.lsp.codelens.run()
    check(vim.tbl_contains(offered or {}, title), 'no lens "' .. title .. '" on line ' .. line)
  end

  -- The witness lens of the holding check shows the witness, not the
  -- violated check's trace.
  notified = {}
  run_lens(door_line, 'Show trace')
  check(row() == door[1], string.format('door_opens "Show trace": cursor on line %d, witness edge on %d; said %s',
    row(), door[1], table.concat(notified, ' | ')))
  run_lens(bright_line, 'Show trace')
  check(row() == bright[1], string.format('too_bright "Show trace": line %d, trace edge on %d', row(), bright[1]))
  run_lens(bright_line, 'Step through')
  check(row() == bright[2], string.format('too_bright "Step through": line %d, second edge on %d', row(), bright[2]))
  -- Back on door_opens' lens: its own witness again.
  run_lens(door_line, 'Step through')
  check(row() == door[1], string.format('door_opens "Step through": line %d, witness edge on %d', row(), door[1]))
  io.stdout:write('lenses: each shows its own check\n')

  -- The default mappings, buffer-local.
  for _, key in ipairs({ 'K', 'gd', 'gr', '\\rn', '\\f', '\\l', ']t', '[t' }) do
    check(mapped(key), 'no buffer-local mapping for ' .. key)
  end
  -- Trace stepping: ]t from the violated check's line follows its trace.
  zeno.clear(bufnr)
  vim.api.nvim_win_set_cursor(0, { bright_line, 0 })
  vim.cmd('normal ]t')
  check(row() == bright[1], ']t: line ' .. row() .. ', first edge on ' .. bright[1])
  vim.cmd('normal ]t')
  check(row() == bright[2], ']t ]t: line ' .. row() .. ', second edge on ' .. bright[2])
  vim.cmd('normal [t')
  check(row() == bright[1], '[t: line ' .. row() .. ', first edge on ' .. bright[1])
  -- The code lens mapping.
  want = 'Show trace'
  vim.api.nvim_win_set_cursor(0, { door_line, 0 })
  vim.cmd('normal \\l')
  check(row() == door[1], '\\l on door_opens: line ' .. row() .. ', witness edge on ' .. door[1])

  -- gd on the use of x in `low -> bright when x <= 5` goes to `clock x;`.
  local use = line_of(bufnr, 'when x <= 5')
  local col = vim.api.nvim_buf_get_lines(bufnr, use - 1, use, false)[1]:find('x <=', 1, true) - 1
  local decl = line_of(bufnr, '^%s*clock x;')
  vim.api.nvim_win_set_cursor(0, { use, col })
  vim.cmd('normal gd')
  vim.wait(10000, function()
    return row() == decl
  end, 50)
  check(row() == decl, 'gd: line ' .. row() .. ', clock x declared on ' .. decl)

  -- K: a hover window.
  vim.api.nvim_win_set_cursor(0, { use, col })
  local function floats()
    local n = 0
    for _, w in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_config(w).relative ~= '' then
        n = n + 1
      end
    end
    return n
  end
  vim.cmd('normal K')
  vim.wait(10000, function()
    return floats() > 0
  end, 50)
  check(floats() > 0, 'K: no hover window')
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(w).relative ~= '' then
      local text = table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(w), 0, -1, false), '\n')
      check(text:find('clock', 1, true), 'K: the hover says ' .. text)
      vim.api.nvim_win_close(w, true)
    end
  end

  -- gr: the declaration and both uses of x in the quickfix list.
  vim.fn.setqflist({})
  vim.api.nvim_win_set_cursor(0, { use, col })
  vim.cmd('normal gr')
  vim.wait(10000, function()
    return #vim.fn.getqflist() > 0
  end, 50)
  local refs = {}
  for _, item in ipairs(vim.fn.getqflist()) do
    table.insert(refs, item.lnum)
  end
  table.sort(refs)
  local reset = line_of(bufnr, 'do x = 0')
  check(vim.deep_equal(refs, { decl, reset, use }) or vim.deep_equal(refs, { reset, use }),
    'gr: references on lines ' .. table.concat(refs, ', '))
  vim.cmd('cclose')
  vim.api.nvim_set_current_buf(bufnr)

  -- <leader>f: a line indented badly is put back as `zeno fmt` writes it.
  local before = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  zeno.quiescent = false
  vim.api.nvim_buf_set_lines(bufnr, use - 1, use, false, { '        ' .. vim.trim(before[use]) })
  -- Format once the server has checked the edited text, as a person would
  -- see it first: asked in the same moment as the edit, Neovim 0.7 left the
  -- line as it was (the server formats an edit it has just received; the
  -- cause is on the client's side).
  vim.wait(20000, function()
    return zeno.quiescent
  end, 50)
  vim.cmd('normal \\f')
  vim.wait(10000, function()
    return vim.deep_equal(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), before)
  end, 50)
  check(vim.deep_equal(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), before),
    '\\f: the line reads ' .. vim.api.nvim_buf_get_lines(bufnr, use - 1, use, false)[1])

  -- <leader>rn: x renamed to clk everywhere.
  vim.ui.input = function(_, on_confirm)
    on_confirm('clk')
  end
  vim.api.nvim_win_set_cursor(0, { use, col })
  vim.cmd('normal \\rn')
  local function renamed()
    local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
    return lines[decl]:match('clock clk;') and lines[use]:match('when clk <= 5') and lines[reset]:match('do clk = 0')
  end
  vim.wait(10000, renamed, 50)
  check(renamed(), '\\rn: x not renamed to clk: ' .. table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), ' | '))
  io.stdout:write('mappings: trace, lens, definition, hover, references, format, rename\n')

  -- Switched off: one key, then all of them, in buffers opened afterwards.
  local function open_copy(name)
    local path = vim.fn.fnamemodify(os.getenv('ZENO_MODEL'), ':h') .. '/' .. name
    vim.fn.writefile(before, path)
    vim.cmd('edit ' .. vim.fn.fnameescape(path))
    local b = vim.api.nvim_get_current_buf()
    vim.wait(10000, function()
      return zeno.client_for(b) ~= nil
    end, 50)
    check(zeno.client_for(b) ~= nil, name .. ': no server attached')
    vim.wait(200)
    return b
  end
  zeno.setup({ mappings = { hover = false, trace_next = '<leader>n' } })
  open_copy('one-off.zeno')
  check(not mapped('K') and not mapped(']t'), 'K or ]t still mapped with hover = false, trace_next = \\n')
  check(mapped('gd') and mapped('\\n'), 'gd or \\n not mapped')
  zeno.setup({ mappings = false })
  open_copy('all-off.zeno')
  for _, key in ipairs({ 'K', 'gd', 'gr', '\\rn', '\\f', '\\l', ']t', '[t' }) do
    check(not mapped(key), 'mappings = false, yet ' .. key .. ' is mapped')
  end
  io.stdout:write('mappings: switched off by setup\n')
end)

if not ok then
  fail(tostring(err))
else
  io.stdout:write('\nok: lenses and mappings\n')
  vim.cmd('qa!')
end
