-- Drive the ascend-migrate server from headless Neovim (0.7, Debian's, and 0.11) set up with the shipped
-- configuration file: open a file, wait for the server's diagnostics, then either ask for the code actions at
-- one diagnostic and apply the chosen one, or (with "user_command") run the set-up's own command as a user
-- types it (:AscendMigrateFixAll); save. Input: a JSON file named by $ASCEND_MIGRATE_SCENARIO; output: a JSON
-- report at its "report" path.
-- Run it under `timeout` and pcall (see test_neovim.py): an uncaught error would hang headless nvim.
local scenario = vim.fn.json_decode(table.concat(vim.fn.readfile(vim.env.ASCEND_MIGRATE_SCENARIO), "\n"))
local report = { diagnostics = {}, actions = {}, steps = {} }

local function step(text)
  table.insert(report.steps, text)
end

local function write_report()
  vim.fn.writefile({ vim.fn.json_encode(report) }, scenario.report)
end

local function fail(message)
  report.error = message
  write_report()
  error(message, 0)
end

-- The documented set-up (docs/editors/neovim/ascend-migrate*.lua) starts and attaches the server on
-- the FileType event, exactly as it would in a user's configuration.
vim.g.ascend_migrate_command = scenario.console_script
dofile(scenario.setup)
vim.cmd("edit " .. vim.fn.fnameescape(scenario.file))
local bufnr = vim.api.nvim_get_current_buf()
vim.bo[bufnr].filetype = "python"

-- Neovim 0.7 lists a client for the buffer only once the server has answered `initialize`.
-- (vim.lsp.get_clients is 0.10+, vim.lsp.buf_get_clients is gone after 0.11.)
local function attached_client_id()
  if vim.lsp.get_clients then
    local clients = vim.lsp.get_clients({ bufnr = bufnr, name = "ascend_migrate" })
    return clients[1] and clients[1].id
  end
  for id, attached in pairs(vim.lsp.buf_get_clients(bufnr)) do
    if attached.name == "ascend_migrate" then
      return id
    end
  end
end
local client_id
vim.wait(scenario.timeout_ms, function()
  client_id = attached_client_id()
  return client_id ~= nil
end, 50)
if not client_id then
  fail("the documented set-up attached no ascend_migrate client to the Python buffer")
end
step("client started and attached by the documented set-up")

local function our_diagnostics()
  local found = {}
  for _, diagnostic in ipairs(vim.diagnostic.get(bufnr)) do
    if diagnostic.source == "ascend-migrate" then
      table.insert(found, diagnostic)
    end
  end
  return found
end

if not vim.wait(scenario.timeout_ms, function() return #our_diagnostics() > 0 end, 50) then
  fail("no diagnostics from ascend-migrate within " .. scenario.timeout_ms .. " ms")
end
-- The first publish may be partial while the server works through the file: wait for a quiet moment.
local settled_count, settled_since = -1, vim.loop.now()
vim.wait(scenario.timeout_ms, function()
  local count = #our_diagnostics()
  if count ~= settled_count then
    settled_count, settled_since = count, vim.loop.now()
  end
  return vim.loop.now() - settled_since > 500
end, 50)
for _, diagnostic in ipairs(our_diagnostics()) do
  local code = diagnostic.code
  if code == nil and diagnostic.user_data and diagnostic.user_data.lsp then
    code = diagnostic.user_data.lsp.code
  end
  table.insert(report.diagnostics, {
    line = diagnostic.lnum + 1,
    column = diagnostic.col + 1,
    code = code,
    severity = diagnostic.severity,
    message = diagnostic.message,
  })
end
step("diagnostics received")

-- The diagnostics on one line, in the LSP shape the codeAction request's context wants (0.7 has a function
-- for it; later versions keep the LSP diagnostic in user_data.lsp).
local function line_diagnostics_of(lnum)
  if vim.fn.has("nvim-0.8") == 0 then
    return vim.lsp.diagnostic.get_line_diagnostics(bufnr, lnum)
  end
  local found = {}
  for _, diagnostic in ipairs(vim.diagnostic.get(bufnr, { lnum = lnum })) do
    if diagnostic.source == "ascend-migrate" and diagnostic.user_data and diagnostic.user_data.lsp then
      table.insert(found, diagnostic.user_data.lsp)
    end
  end
  return found
end

local function apply_quick_fix()
  -- The diagnostics on the scenario's line, in the LSP shape the codeAction request's context wants.
  local lnum = scenario.fix_line - 1
  local line_diagnostics = line_diagnostics_of(lnum)
  if #line_diagnostics == 0 then
    fail("no diagnostic on line " .. scenario.fix_line)
  end
  local client = vim.lsp.get_client_by_id(client_id)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = line_diagnostics[1].range,
    context = { diagnostics = line_diagnostics, only = { "quickfix" } },
  }
  local response = client.request_sync("textDocument/codeAction", params, scenario.timeout_ms, bufnr)
  if not response or response.err then
    fail("textDocument/codeAction failed: " .. vim.inspect(response))
  end
  local chosen
  for _, action in ipairs(response.result or {}) do
    table.insert(report.actions, action.title)
    if not chosen and string.find(action.title, scenario.action_contains, 1, true) then
      chosen = action
    end
  end
  if not chosen then
    fail("no code action titled like '" .. scenario.action_contains .. "' on line " .. scenario.fix_line)
  end
  report.applied = chosen.title
  if not chosen.edit and not chosen.command then
    local resolved = client.request_sync("codeAction/resolve", chosen, scenario.timeout_ms, bufnr)
    if not resolved or resolved.err then
      fail("codeAction/resolve failed: " .. vim.inspect(resolved))
    end
    chosen = resolved.result
  end
  if chosen.edit then
    vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding)
  end
  if chosen.command then
    local command = type(chosen.command) == "table" and chosen.command or chosen
    local result = client.request_sync("workspace/executeCommand",
      { command = command.command, arguments = command.arguments }, scenario.timeout_ms, bufnr)
    if not result or result.err then
      fail("workspace/executeCommand failed: " .. vim.inspect(result))
    end
  end
end

-- The set-up's own command, typed as a user would; it may apply its edit later (0.8+ resolve asynchronously),
-- so wait for the buffer to change and then for a quiet moment.
local function run_user_command(name)
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  vim.cmd(name)
  if not vim.wait(scenario.timeout_ms, function() return vim.api.nvim_buf_get_changedtick(bufnr) ~= tick end, 50) then
    fail(":" .. name .. " changed nothing in the buffer")
  end
  local last_tick, since = vim.api.nvim_buf_get_changedtick(bufnr), vim.loop.now()
  vim.wait(5000, function()
    local now_tick = vim.api.nvim_buf_get_changedtick(bufnr)
    if now_tick ~= last_tick then
      last_tick, since = now_tick, vim.loop.now()
    end
    return vim.loop.now() - since > 300
  end, 50)
  report.applied = ":" .. name
end

if scenario.user_command then
  run_user_command(scenario.user_command)
else
  apply_quick_fix()
end
step("code action applied")
vim.cmd("write")
step("file written")
write_report()
vim.lsp.stop_client(client_id)
vim.wait(2000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
