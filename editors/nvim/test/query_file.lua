-- Driven by run.sh against the real server: a UPPAAL model (ZENO_MODEL,
-- bridge.xml) with its query file beside it (bridge.q). The query file
-- gets its own filetype and the server: each query's verdict is on its
-- line. The XML buffer is attached too, and the simulator works on it,
-- its enabled edges highlighted at their first labels.

-- fail/check: expect.lua beside this script.
local expect = dofile(debug.getinfo(1, 'S').source:sub(2):match('(.*/)') .. 'expect.lua')
local fail, check = expect.fail, expect.check

-- The 0-based line of `bufnr` that holds `text` (plain), by search.
local function line_of(bufnr, text)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if l:find(text, 1, true) then
      return i - 1
    end
  end
  error('no line holds ' .. text)
end

local ok, err = pcall(function()
  vim.cmd('filetype plugin on')
  local zeno = require('zeno')
  zeno.setup({ path = os.getenv('ZENO_BIN'), settings = { search = 'bfs' } })
  vim.cmd('runtime plugin/zeno.lua')

  local model = os.getenv('ZENO_MODEL')
  local queries = model:gsub('%.xml$', '.q')
  vim.cmd('edit ' .. vim.fn.fnameescape(queries))
  local q = vim.api.nvim_get_current_buf()
  check(vim.bo.filetype == 'uppaalq', 'the .q file has filetype ' .. vim.bo.filetype)
  check(vim.bo.commentstring == '// %s', 'commentstring ' .. vim.bo.commentstring)

  -- Crossing in under 60 minutes is impossible (bridge.q's comment works
  -- it out; tests/data/uppaal/bridge/EXPECTED: line6 fails): an error on
  -- that line. The same question with `<=` (line 4) holds.
  local faster = line_of(q, 'time < 60')
  local in60 = line_of(q, 'time <= 60')
  local function on(line)
    return vim.diagnostic.get(q, { lnum = line })[1]
  end
  vim.wait(60000, function()
    return on(faster) ~= nil and on(in60) ~= nil
  end, 100)
  local d = on(faster)
  check(d ~= nil, 'no diagnostic on line ' .. (faster + 1) .. ' of bridge.q: ' .. vim.inspect(vim.diagnostic.get(q)))
  check(d.severity == vim.diagnostic.severity.ERROR and d.message:match('^fails: no reachable state'),
    'line ' .. (faster + 1) .. ': ' .. d.message)
  local h = on(in60)
  check(h.severity ~= vim.diagnostic.severity.ERROR and h.message:match('^holds: witness'),
    'line ' .. (in60 + 1) .. ': ' .. h.message)
  io.stdout:write('query file: the verdict of each line on its line\n')

  -- The model: an XML buffer with `<nta>`, attached; its simulator shows
  -- the soldiers' first moves, each edge highlighted on its guard's line.
  vim.cmd('edit ' .. vim.fn.fnameescape(model))
  local x = vim.api.nvim_get_current_buf()
  check(vim.bo.filetype == 'xml', 'the model has filetype ' .. vim.bo.filetype)
  vim.wait(30000, function()
    return zeno.client_for(x) ~= nil
  end, 100)
  check(zeno.client_for(x) ~= nil, 'the server is not attached to the UPPAAL model')
  vim.cmd('ZenoSimulate')
  local sim = require('zeno.simulate')
  local s = sim.session(x)
  check(s ~= nil, 'no simulation of the UPPAAL model')
  local labels = {}
  for _, t in ipairs(s.result.transitions) do
    table.insert(labels, t.label)
  end
  -- Four soldiers may take the torch (Torch: free -> choose with each).
  check(#labels == 4, 'enabled: ' .. table.concat(labels, ', '))
  local marks = vim.api.nvim_buf_get_extmarks(x, vim.api.nvim_create_namespace('zeno_simulate'), 0, -1, {})
  local lines = {}
  for _, m in ipairs(marks) do
    lines[m[2]] = true
  end
  -- Soldier's unsafe -> going at its guard `L == 0`, Torch's free -> choose
  -- at its synchronisation `take?`.
  local guard = line_of(x, '<label kind="guard">L == 0</label>')
  local take = line_of(x, '<source ref="t0"/><target ref="t1"/><label kind="synchronisation">take?')
  check(lines[guard] and lines[take], 'highlighted lines ' .. vim.inspect(vim.tbl_keys(lines))
    .. ', expected ' .. guard .. ' and ' .. take)
  io.stdout:write('UPPAAL model: attached, simulated, edges at their labels\n')
end)

if not ok then
  fail(tostring(err))
else
  io.stdout:write('ok: query file and UPPAAL model in nvim\n')
  vim.cmd('qa!')
end
