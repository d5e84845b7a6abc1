"""The application: the server's state with every handler group registered on it."""

from __future__ import annotations

from ascend_migrate.lsp.handlers import (
    code_actions,
    commands,
    documents,
    hover,
    lifecycle,
    notebooks,
    run_command,
    settings,
    workspace_scan,
)
from ascend_migrate.lsp.server import AscendMigrateServer


def create_server() -> AscendMigrateServer:
    server = AscendMigrateServer()
    server.document_sync = documents.DocumentSync(server)
    server.notebook_sync = notebooks.NotebookSync(server)
    for group in (lifecycle, settings, hover, code_actions, workspace_scan, commands, run_command):
        group.register(server)
    return server
