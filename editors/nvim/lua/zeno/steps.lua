-- Every trace step of a line, each on a virtual line of its own under it.
--
-- The server puts a hint on the edge of every step of a violated check's
-- trace. Neovim's diagnostic virtual text shows only the last diagnostic of
-- a line (one `■` per diagnostic), cut at the window's edge: an edge taken
-- by steps 1, 3 and 5 would show step 5 alone. So the trace-step hints are
-- left out of the virtual text and drawn here instead, one virtual line per
-- step, in step order (`virt_lines`, Neovim 0.6+).

local M = {}

local ns = vim.api.nvim_create_namespace('zeno-steps')
M.namespace = ns

--- The diagnostic's code: `code` from Neovim 0.8 on, `user_data.lsp.code` in 0.7.
local function code(d)
  if d.code ~= nil then
    return d.code
  end
  local lsp = type(d.user_data) == 'table' and d.user_data.lsp or nil
  return type(lsp) == 'table' and lsp.code or nil
end

local function step_number(message)
  return tonumber(message:match('^step (%d+)')) or math.huge
end

--- The trace-step messages of `diagnostics` by line (0-based), each line's
--- in step order.
function M.by_line(diagnostics)
  local lines = {}
  for _, d in ipairs(diagnostics) do
    if code(d) == 'trace-step' and type(d.message) == 'string' then
      lines[d.lnum] = lines[d.lnum] or {}
      table.insert(lines[d.lnum], d.message)
    end
  end
  for _, messages in pairs(lines) do
    table.sort(messages, function(a, b)
      return step_number(a) < step_number(b)
    end)
  end
  return lines
end

--- Draws the steps of the buffer's trace-step hints under their lines.
function M.show(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) then
    return
  end
  vim.api.nvim_buf_clear_namespace(bufnr, ns, 0, -1)
  local last = vim.api.nvim_buf_line_count(bufnr) - 1
  for lnum, messages in pairs(M.by_line(vim.diagnostic.get(bufnr))) do
    if lnum <= last then
      -- Indented as the line is, so the steps sit under the edge.
      local text = vim.api.nvim_buf_get_lines(bufnr, lnum, lnum + 1, false)[1] or ''
      local indent = text:match('^%s*')
      local virt = {}
      for _, m in ipairs(messages) do
        table.insert(virt, { { indent .. '↳ ' .. m, 'DiagnosticHint' } })
      end
      pcall(vim.api.nvim_buf_set_extmark, bufnr, ns, lnum, 0, { virt_lines = virt })
    end
  end
end

--- Leaves hints (the trace steps) out of the virtual text of the server's
--- diagnostics, since `show` draws them, and redraws on every change.
function M.attach(client, bufnr)
  local lsp_ns = vim.lsp.diagnostic.get_namespace(client.id)
  vim.diagnostic.config({
    virtual_text = { severity = { min = vim.diagnostic.severity.INFO } },
  }, lsp_ns)
  vim.api.nvim_create_autocmd('DiagnosticChanged', {
    buffer = bufnr,
    callback = function()
      M.show(bufnr)
    end,
  })
  M.show(bufnr)
end

return M
