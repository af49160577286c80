-- The trace debugger through nvim-dap: `zeno dap` as the debug adapter of
-- type `zeno`, with launch configurations for a check's trace and for a
-- simulation (editors/README.md, "Neovim: the trace debugger").
--
--   require('zeno.dap').setup()   -- after require('zeno').setup{...}

local M = {}

-- The filetypes of the models `zeno dap` reads.
M.FILETYPES = { 'zeno', 'uppaal', 'tchecker', 'xml' }

--- The adapter nvim-dap starts: the zeno binary (by default the one the
--- language server runs) with `dap`, speaking the protocol on stdio.
function M.adapter(path)
  if path == nil then
    path = require('zeno').config.path
  end
  return { type = 'executable', command = path, args = { 'dap' } }
end

--- Two launch configurations: a check's trace (its name asked for when
--- started) and a simulation from the initial state.
function M.configurations()
  return {
    {
      type = 'zeno',
      request = 'launch',
      name = "zeno: debug a check's trace",
      program = '${file}',
      check = function()
        return vim.fn.input('Check: ')
      end,
    },
    { type = 'zeno', request = 'launch', name = 'zeno: simulate', program = '${file}' },
  }
end

--- Registers the adapter and the configurations with nvim-dap. Returns
--- false (and says so) when nvim-dap is not installed.
function M.setup(opts)
  opts = opts or {}
  local ok, dap = pcall(require, 'dap')
  if not ok then
    vim.notify('zeno: nvim-dap is not installed; the trace debugger needs it', vim.log.levels.WARN)
    return false
  end
  dap.adapters.zeno = M.adapter(opts.path)
  for _, ft in ipairs(M.FILETYPES) do
    dap.configurations[ft] = dap.configurations[ft] or {}
    for _, c in ipairs(M.configurations()) do
      table.insert(dap.configurations[ft], c)
    end
  end
  return true
end

return M
