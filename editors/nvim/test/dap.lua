-- Driven by run.sh: `zeno dap` from Neovim. nvim-dap cannot be installed
-- here, so this is the client side of the protocol as nvim-dap speaks it,
-- in a few lines: the adapter that `require('zeno.dap')` registers with
-- nvim-dap (a stand-in `dap` module records it) is spawned with libuv, and
-- the test sends initialize, launch, setBreakpoints, configurationDone,
-- threads, stackTrace, next, variables, evaluate and disconnect. The
-- expected lines come from the model's text; the trace's length from its
-- comment (BFS gives the shortest counterexample, 6 steps).

-- fail/check: expect.lua beside this script.
local expect = dofile(debug.getinfo(1, 'S').source:sub(2):match('(.*/)') .. 'expect.lua')
local fail, check = expect.fail, expect.check

local ok, err = pcall(function()
  local model = os.getenv('ZENO_MODEL')
  require('zeno').setup({ path = os.getenv('ZENO_BIN') })
  -- What nvim-dap would receive.
  package.loaded['dap'] = { adapters = {}, configurations = {} }
  check(require('zeno.dap').setup(), 'setup with nvim-dap present')
  local adapter = package.loaded['dap'].adapters.zeno
  check(adapter.type == 'executable' and adapter.command == os.getenv('ZENO_BIN'), 'adapter: ' .. vim.inspect(adapter))
  check(#package.loaded['dap'].configurations.zeno == 2, 'two configurations for zeno files')

  -- The adapter, spawned as nvim-dap spawns an executable adapter.
  local stdin, stdout = vim.loop.new_pipe(false), vim.loop.new_pipe(false)
  local handle = vim.loop.spawn(adapter.command, { args = adapter.args, stdio = { stdin, stdout, nil } }, function() end)
  check(handle ~= nil, 'could not spawn ' .. adapter.command)
  local buffer = ''
  stdout:read_start(function(_, data)
    if data then
      buffer = buffer .. data
    end
  end)
  local messages = {}
  -- Splits what arrived into messages (Content-Length framing).
  local function drain()
    while true do
      local header_end = buffer:find('\r\n\r\n', 1, true)
      if not header_end then
        return
      end
      local length = tonumber(buffer:sub(1, header_end):match('Content%-Length: (%d+)'))
      check(length ~= nil, 'a header without Content-Length: ' .. buffer:sub(1, header_end))
      if #buffer < header_end + 3 + length then
        return
      end
      table.insert(messages, vim.fn.json_decode(buffer:sub(header_end + 4, header_end + 3 + length)))
      buffer = buffer:sub(header_end + 4 + length)
    end
  end
  local seq = 0
  local function send(command, arguments)
    seq = seq + 1
    local body = vim.fn.json_encode({ seq = seq, type = 'request', command = command, arguments = arguments or vim.empty_dict() })
    stdin:write('Content-Length: ' .. #body .. '\r\n\r\n' .. body)
    return seq
  end
  -- The first message matching `pred` (waits at most 20 s).
  local function await(pred, what)
    local found
    vim.wait(20000, function()
      drain()
      for i, m in ipairs(messages) do
        if pred(m) then
          found = table.remove(messages, i)
          return true
        end
      end
      return false
    end, 10)
    check(found ~= nil, 'no ' .. what .. ' within 20 s')
    return found
  end
  local function request(command, arguments)
    local s = send(command, arguments)
    local r = await(function(m)
      return m.type == 'response' and m.request_seq == s
    end, 'response to ' .. command)
    check(r.success, command .. ' failed: ' .. vim.inspect(r))
    return r.body
  end
  local function event(name)
    return await(function(m)
      return m.type == 'event' and m.event == name
    end, name .. ' event').body
  end
  local lines = vim.fn.readfile(model)
  local function line_of(pattern)
    for i, l in ipairs(lines) do
      if l:match(pattern) then
        return i
      end
    end
    check(false, 'no line matches ' .. pattern)
  end

  local caps = request('initialize', { adapterID = 'zeno', linesStartAt1 = true, columnsStartAt1 = true })
  check(caps.supportsStepBack == true, 'supportsStepBack')
  request('launch', { program = model, check = 'mutex', search = 'bfs' })
  event('initialized')
  -- A breakpoint on the edge into cs: `continue` stops where a step takes it.
  local wait_cs = line_of('^%s*wait %-> cs')
  local bps = request('setBreakpoints', { source = { path = model }, breakpoints = { { line = wait_cs } } })
  check(bps.breakpoints[1].verified == true, 'breakpoint on wait -> cs: ' .. vim.inspect(bps))
  request('configurationDone')
  check(event('stopped').reason == 'entry', 'entry stop')

  local threads = request('threads').threads
  check(#threads == 3 and threads[1].name == 'Proc(1)', 'threads: ' .. vim.inspect(threads))
  local frames = request('stackTrace', { threadId = 1 }).stackFrames
  check(frames[1].name == 'idle' and frames[1].line == line_of('^%s*init location idle'), 'entry frame: ' .. vim.inspect(frames[1]))

  -- One step: some process idle -> req (the only edge enabled at first).
  request('next', { threadId = 1 })
  local stop = event('stopped')
  check(stop.description == 'state 1 of 6', 'after next: ' .. vim.inspect(stop))
  frames = request('stackTrace', { threadId = stop.threadId }).stackFrames
  check(frames[1].name == 'req' and frames[1].line == line_of('^%s*location req'), 'frame after next: ' .. vim.inspect(frames))
  check(frames[2].name == 'via idle -> req', 'the edge frame: ' .. vim.inspect(frames[2]))
  local scopes = request('scopes', { frameId = frames[1].id }).scopes
  check(scopes[1].name == 'Variables', 'scopes: ' .. vim.inspect(scopes))
  local vars = request('variables', { variablesReference = scopes[1].variablesReference }).variables
  local id
  for _, v in ipairs(vars) do
    if v.name == 'id' then
      id = v.value
    end
  end
  check(id == '0', 'id after idle -> req: ' .. vim.inspect(vars))

  -- Continue: to the breakpoint, the first step through wait -> cs.
  request('continue', { threadId = 1 })
  stop = event('stopped')
  check(stop.reason == 'breakpoint', 'continue: ' .. vim.inspect(stop))
  frames = request('stackTrace', { threadId = stop.threadId }).stackFrames
  check(frames[2].line == wait_cs, 'the breakpoint edge: ' .. vim.inspect(frames))
  local watch = request('evaluate', { expression = 'Proc(' .. stop.threadId .. ').cs', context = 'watch' })
  check(watch.result == 'true', 'the process that took wait -> cs is in cs: ' .. vim.inspect(watch))

  request('disconnect')
  stdin:close()
  vim.wait(5000, function()
    return not handle:is_active()
  end, 10)
end)

if not ok then
  fail(tostring(err))
else
  print('dap: ok')
  vim.cmd('qall!')
end
