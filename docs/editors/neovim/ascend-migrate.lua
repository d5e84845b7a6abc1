-- ascend-migrate for Neovim 0.11 and later (vim.lsp.config / vim.lsp.enable).
-- Use as is: copy to ~/.config/nvim/plugin/ascend-migrate.lua (or paste into init.lua).
-- Needs `python3 -m pip install ascend-migrate`. For Neovim 0.8-0.10 use ascend-migrate-0.8.lua, for 0.7
-- ascend-migrate-0.7.lua.

-- The console script the install made (set vim.g.ascend_migrate_command before this file runs, for example
-- to a project's .venv/bin/ascend-migrate). Not `python -m ascend_migrate`: with the project as working
-- directory, Python would import a project file named ascend_migrate.py before any of our code runs.
local command = vim.g.ascend_migrate_command or "ascend-migrate"

vim.lsp.config("ascend_migrate", {
  cmd = { command, "serve" },
  filetypes = { "python" },
  root_markers = { "pyproject.toml", "setup.cfg", "setup.py", ".git" },
  -- Answered to the server's workspace/configuration request; see docs/editors/README.md for every key.
  -- A project's [tool.ascend-migrate] in pyproject.toml wins over these unless configurationPreference
  -- says "editorFirst".
  settings = {
    ascendMigrate = {
      target = "npu", -- or "mindspore"
      torchVersion = "2.8",
      mindsporeVersion = "2.10",
      minConfidence = "heuristic",
    },
  },
})
vim.lsp.enable("ascend_migrate")

-- Fix everything safe in the buffer: the server's source.fixAll.ascend-migrate code action.
vim.api.nvim_create_user_command("AscendMigrateFixAll", function()
  vim.lsp.buf.code_action({ context = { only = { "source.fixAll.ascend-migrate" }, diagnostics = {} }, apply = true })
end, { desc = "ascend-migrate: apply every safe fix in this buffer" })

-- Diagnostics for every Python file of the project, opened or not (they appear in :lua vim.diagnostic.setqflist()).
vim.api.nvim_create_user_command("AscendMigrateScanWorkspace", function()
  for _, client in ipairs(vim.lsp.get_clients({ name = "ascend_migrate" })) do
    client:exec_cmd({ title = "Scan workspace", command = "ascend-migrate.scanWorkspace", arguments = {} })
  end
end, { desc = "ascend-migrate: scan every Python file of the workspace" })
