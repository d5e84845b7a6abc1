-- ascend-migrate for Neovim 0.8 to 0.10 (vim.lsp.start). Use as is: copy to
-- ~/.config/nvim/plugin/ascend-migrate.lua. Needs `python3 -m pip install ascend-migrate`.
-- Set vim.g.ascend_migrate_command first to use another install (for example a project's
-- .venv/bin/ascend-migrate). Not `python -m ascend_migrate`: with the project as working directory, Python
-- would import a project file named ascend_migrate.py before any of our code runs.

local command = vim.g.ascend_migrate_command or "ascend-migrate"
local root_markers = { "pyproject.toml", "setup.cfg", "setup.py", ".git" }

vim.api.nvim_create_autocmd("FileType", {
  pattern = "python",
  group = vim.api.nvim_create_augroup("ascend_migrate", { clear = true }),
  callback = function(event)
    local file = vim.api.nvim_buf_get_name(event.buf)
    local marker = vim.fs.find(root_markers, { upward = true, path = vim.fs.dirname(file) })[1]
    vim.lsp.start({
      name = "ascend_migrate",
      cmd = { command, "serve" },
      root_dir = marker and vim.fs.dirname(marker) or vim.fn.getcwd(),
      -- Every key is in docs/editors/README.md.
      settings = { ascendMigrate = { target = "npu", torchVersion = "2.8", mindsporeVersion = "2.10" } },
    }, { bufnr = event.buf })
  end,
})

vim.api.nvim_create_user_command("AscendMigrateFixAll", function()
  vim.lsp.buf.code_action({ context = { only = { "source.fixAll.ascend-migrate" }, diagnostics = {} }, apply = true })
end, { desc = "ascend-migrate: apply every safe fix in this buffer" })
