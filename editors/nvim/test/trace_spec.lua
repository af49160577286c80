-- Unit tests of the trace model (pure Lua), run by run.sh with
-- `nvim --headless -u NONE -c "luafile ..."` (no server needed).
local trace = require('zeno.trace')

local failures = 0
local function eq(actual, expected, what)
  if not vim.deep_equal(actual, expected) then
    failures = failures + 1
    io.stderr:write(string.format('FAIL %s: expected %s, got %s\n', what, vim.inspect(expected), vim.inspect(actual)))
  end
end

local function r(line, from, to)
  return { start = { line = line, character = from }, ['end'] = { line = line, character = to } }
end

-- The documented shape: states as objects.
local t = trace.parse({
  check = 'mutex',
  verdict = 'violated',
  steps = {
    { index = 1, delay = '0', edges = { { process = 'P(1)', source = 'idle', target = 'req', range = r(10, 4, 30) } },
      state = { locations = { ['P(2)'] = 'idle', ['P(1)'] = 'req' }, variables = { id = 0 }, clocks = {} } },
    { index = 2, delay = '3/2', edges = { { process = 'P(1)', source = 'req', target = 'wait' } },
      state = { locations = {}, variables = {}, clocks = { ['P(1).x'] = '3/2' } } },
  },
})
eq(#t.steps, 2, 'two steps')
eq(t.steps[1].locations, { { 'P(1)', 'req' }, { 'P(2)', 'idle' } }, 'locations sorted by name')
eq(#t.steps[2].edges, 0, 'an edge without a range is dropped')
eq(trace.summary(t.steps[1]), 'step 1: P(1): idle -> req; P(1)=req P(2)=idle id=0', 'summary')
eq(trace.summary(t.steps[2]), 'step 2: delay 3/2, (no edge); P(1).x=3/2', 'summary with delay')
eq(trace.qf_items(t, 7)[1], { bufnr = 7, lnum = 11, col = 5, text = trace.summary(t.steps[1]) }, 'quickfix item')

-- The other shape: `after` with name/value lists, no index.
local u = trace.parse({
  check = 'mutex',
  verdict = 'violated',
  steps = { { delay = '1', edges = {}, after = { locations = { { name = 'Q', value = 'b' }, { name = 'A', value = 'c' } }, variables = {}, clocks = {} } } },
})
eq(u.steps[1].index, 1, 'index defaults to the position')
eq(u.steps[1].locations, { { 'Q', 'b' }, { 'A', 'c' } }, 'list order kept')

eq(trace.parse(vim.NIL), nil, 'null is no trace')
eq(trace.parse({ check = 'x' }), nil, 'no steps is no trace')

eq(trace.move(0, 1, 3), 1, 'first next')
eq(trace.move(3, 1, 3), 3, 'next stops at the end')
eq(trace.move(1, -1, 3), 1, 'prev stops at the first step')

if failures > 0 then
  vim.cmd('cquit 1')
else
  io.stdout:write('ok: trace model\n')
  vim.cmd('qa!')
end
