-- ascend-migrate for Neovim 0.7 (Debian 12's neovim): vim.lsp.start_client + buf_attach_client, one
-- server per project root. Use as is: copy to ~/.config/nvim/plugin/ascend-migrate.lua.
-- Needs `python3 -m pip install ascend-migrate`; set vim.g.ascend_migrate_command first to use another
-- install (a project's .venv/bin/ascend-migrate). Not `python -m ascend_migrate`: with the project as working
-- directory, Python would import a project file named ascend_migrate.py before any of our code runs.
-- This file is what tests/e2e/test_neovim.py loads, so it is checked in CI.

local command = vim.g.ascend_migrate_command or "ascend-migrate"
local root_markers = { "pyproject.toml", "setup.cfg", "setup.py", ".git" }
local clients_by_root = {}

local function project_root(file)
  local directory = vim.fn.fnamemodify(file, ":p:h")
  while true do
    for _, marker in ipairs(root_markers) do
      if vim.loop.fs_stat(directory .. "/" .. marker) then
        return directory
      end
    end
    local parent = vim.fn.fnamemodify(directory, ":h")
    if parent == directory then
      return vim.fn.getcwd()
    end
    directory = parent
  end
end

local function attach(bufnr)
  local root = project_root(vim.api.nvim_buf_get_name(bufnr))
  local client_id = clients_by_root[root]
  if not client_id or not vim.lsp.get_client_by_id(client_id) then
    client_id = vim.lsp.start_client({
      name = "ascend_migrate",
      cmd = { command, "serve" },
      root_dir = root,
      -- Every key is in docs/editors/README.md.
      settings = { ascendMigrate = { target = "npu", torchVersion = "2.8", mindsporeVersion = "2.10" } },
    })
    clients_by_root[root] = client_id
  end
  if client_id then
    vim.lsp.buf_attach_client(bufnr, client_id)
  end
end

vim.api.nvim_create_autocmd("FileType", {
  pattern = "python",
  group = vim.api.nvim_create_augroup("ascend_migrate", { clear = true }),
  callback = function(event)
    attach(event.buf)
  end,
})

-- Neovim 0.7 applies a chosen code action with :lua vim.lsp.buf.code_action(); this command applies the
-- server's fix-all action directly. The server leaves that action's edit to codeAction/resolve (it is
-- computed only when asked for), so an action without an edit is resolved first.
vim.api.nvim_create_user_command("AscendMigrateFixAll", function()
  local bufnr = vim.api.nvim_get_current_buf()
  local params = vim.lsp.util.make_range_params()
  params.context = { only = { "source.fixAll.ascend-migrate" }, diagnostics = {} }
  local applied = false
  for client_id, response in pairs(vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", params, 10000) or {}) do
    local client = vim.lsp.get_client_by_id(client_id)
    for _, action in ipairs(client and response.result or {}) do
      if not action.edit and not action.command then
        local resolved = client.request_sync("codeAction/resolve", action, 10000, bufnr)
        if not resolved or resolved.err then
          vim.notify("ascend-migrate: resolving the fix-all action failed: " .. vim.inspect(resolved and resolved.err),
            vim.log.levels.ERROR)
          return
        end
        action = resolved.result
      end
      if action.edit then
        vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
        applied = true
      end
      if action.command then
        local command = type(action.command) == "table" and action.command or action
        client.request_sync("workspace/executeCommand", { command = command.command, arguments = command.arguments },
          10000, bufnr)
        applied = true
      end
    end
  end
  if not applied then
    vim.notify("ascend-migrate: no safe fixes in this buffer", vim.log.levels.INFO)
  end
end, { desc = "ascend-migrate: apply every safe fix in this buffer" })
