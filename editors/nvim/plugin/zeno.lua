-- Loaded at startup: commands, and the server for every zeno buffer, every
-- UPPAAL (XML or XTA) or TChecker model, which the server imports, and
-- every UPPAAL query file (`*.q`, filetype uppaalq), whose queries the
-- server checks on the model beside it.
-- `require('zeno').setup({...})` (before or after) changes the settings.
if vim.g.loaded_zeno then
  return
end
vim.g.loaded_zeno = true

local zeno = require('zeno')
zeno.create_commands()

vim.api.nvim_create_autocmd('FileType', {
  pattern = zeno.FILETYPES,
  group = vim.api.nvim_create_augroup('zeno_lsp', { clear = true }),
  callback = function(args)
    if vim.g.zeno_no_autostart then
      return
    end
    -- Any other XML file is none of zeno's business.
    if args.match == 'xml' and not zeno.is_uppaal_xml(args.buf) then
      return
    end
    zeno.attach(args.buf)
  end,
})
