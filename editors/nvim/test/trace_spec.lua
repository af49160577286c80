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
-- Every trace step of a line, in step order; other diagnostics left out.
-- The code as Neovim 0.7 keeps it (user_data.lsp.code) and as 0.8 does (code).
local steps = require('zeno.steps')
local hint = function(lnum, message, new)
  if new then
    return { lnum = lnum, message = message, code = 'trace-step' }
  end
  return { lnum = lnum, message = message, user_data = { lsp = { code = 'trace-step' } } }
end
eq(steps.by_line({
  hint(4, 'step 10 of 12: P(1) idle → req'),
  hint(4, 'step 2 of 12: P(2) idle → req', true),
  { lnum = 4, message = 'violated: trace of 12 steps', user_data = { lsp = { code = 'check' } } },
  hint(7, 'step 3 of 12: P(1) req → wait'),
}), {
  [4] = { 'step 2 of 12: P(2) idle → req', 'step 10 of 12: P(1) idle → req' },
  [7] = { 'step 3 of 12: P(1) req → wait' },
}, 'trace steps by line, in step order')

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

-- A lasso of three steps back to the state after step 1: steps 2 and 3 repeat.
local steps = {}
for i = 1, 3 do
  steps[i] = { index = i, delay = '0', edges = {}, state = {} }
end
local l = trace.parse({ check = 'c', verdict = 'violated', steps = steps, ['end'] = { kind = 'loop', start = 1 } })
eq(l.loop_start, 1, 'loop start read')
eq(trace.move(3, 1, 3, l.loop_start), 2, 'next on the last step of a lasso wraps to the cycle')
eq(trace.move(2, 1, 3, l.loop_start), 3, 'next inside the cycle')
eq({ trace.in_cycle(l, 1), trace.in_cycle(l, 2), trace.in_cycle(l, 3) }, { false, true, true }, 'cycle steps')
eq(trace.qf_items(l, 1)[2].text:sub(1, 15), '(cycle starts) ', 'the cycle marked in the quickfix list')
eq(trace.qf_items(l, 1)[1].text:sub(1, 5), 'step ', 'the prefix unmarked')
eq(trace.parse({ check = 'c', verdict = 'v', steps = steps, ['end'] = { kind = 'loop', start = 3 } }).loop_start, nil, 'a start out of range is no lasso')

if failures > 0 then
  vim.cmd('cquit 1')
else
  io.stdout:write('ok: trace model\n')
  vim.cmd('qa!')
end
