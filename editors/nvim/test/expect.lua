-- What every headless test script asserts with (loaded by dofile from the
-- scripts beside it): `fail` ends Neovim with a message and exit code 1,
-- `check` fails unless its condition holds.

local M = {}

function M.fail(msg)
  io.stderr:write('FAIL: ' .. msg .. '\n')
  vim.cmd('cquit 1')
end

function M.check(cond, msg)
  if not cond then
    M.fail(msg)
    error(msg) -- stop the script if cquit is delayed
  end
end

return M
