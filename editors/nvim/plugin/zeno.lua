-- Loaded at startup: commands, and the server for every zeno buffer.
-- `require('zeno').setup({...})` (before or after) changes the settings.
if vim.g.loaded_zeno then
  return
end
vim.g.loaded_zeno = true

local zeno = require('zeno')
zeno.create_commands()

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'zeno',
  group = vim.api.nvim_create_augroup('zeno_lsp', { clear = true }),
  callback = function(args)
    if vim.g.zeno_no_autostart then
      return
    end
    zeno.attach(args.buf)
  end,
})
