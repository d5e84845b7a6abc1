"""Settings that change: the editor's configuration (pushed or pulled), workspace folders, pyproject.toml."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from lsprotocol import types

from ascend_migrate.lsp import logs
from ascend_migrate.lsp.handlers.documents import reanalyze_all
from ascend_migrate.lsp.server import AscendMigrateServer
from ascend_migrate.lsp.settings import CONFIGURATION_SECTION
from ascend_migrate.lsp.uris import path_of_uri

logger = logging.getLogger("ascend_migrate.lsp")
PYPROJECT = "pyproject.toml"


def register(server: AscendMigrateServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: AscendMigrateServer, params: types.DidSaveTextDocumentParams) -> None:
        if params.text_document.uri.endswith("/" + PYPROJECT):
            ls.settings.forget_files()
            reanalyze_all(ls)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched_files_changed(ls: AscendMigrateServer, params: types.DidChangeWatchedFilesParams) -> None:
        if any(change.uri.endswith("/" + PYPROJECT) for change in params.changes):
            ls.settings.forget_files()
            reanalyze_all(ls)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def configuration_changed(ls: AscendMigrateServer, params: types.DidChangeConfigurationParams) -> None:
        pushed = params.settings
        if isinstance(pushed, dict) and isinstance(pushed.get(CONFIGURATION_SECTION), dict):
            # A client that pushes its settings gives the whole picture: folder answers pulled before are stale.
            changed = apply_editor_settings(ls, pushed[CONFIGURATION_SECTION])
            if changed:
                ls.settings.forget_folders()
        else:
            # The pull model (VS Code sends null): ask for the section again.
            await pull_configuration(ls)
            changed = True
        if changed:
            reanalyze_all(ls)

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def workspace_folders_changed(ls: AscendMigrateServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
        # pygls has updated `ls.workspace.folders` already. A removed folder's settings stop applying now,
        # before the next message is read (a handler that awaited first would let a didOpen in between use
        # them); an added folder may have settings of its own: they are asked for.
        for folder in params.event.removed:
            path = path_of_uri(folder.uri)
            if path:
                ls.settings.forget_folder(Path(path))

        async def pull_and_reanalyze() -> None:
            await pull_configuration(ls)
            reanalyze_all(ls)

        ls.background_tasks.add(task := asyncio.ensure_future(pull_and_reanalyze()))
        task.add_done_callback(ls.background_tasks.discard)


async def pull_configuration(server: AscendMigrateServer) -> None:
    """Ask for the `ascendMigrate` section: once for the whole workspace, once per workspace folder (a
    multi-root workspace may set them differently)."""
    workspace = server.client_capabilities.workspace
    if workspace is None or not workspace.configuration:
        return
    folders = [folder.uri for folder in server.workspace.folders.values()]
    items = [types.ConfigurationItem(section=CONFIGURATION_SECTION)]
    items += [types.ConfigurationItem(section=CONFIGURATION_SECTION, scope_uri=uri) for uri in folders]
    try:
        results = await server.workspace_configuration_async(types.ConfigurationParams(items=items))
    except Exception as error:  # a client that fails this request keeps the settings it gave before
        logger.warning("workspace/configuration failed: %s", error)
        return
    if results and isinstance(results[0], dict):
        apply_editor_settings(server, results[0])
    server.settings.forget_folders()
    # A client may answer fewer items than asked for: the folders left over keep no folder settings.
    for uri, result in zip(folders, (results or [])[1:], strict=False):
        path = path_of_uri(uri)
        if path and isinstance(result, dict):
            server.settings.update_editor(result, folder=Path(path))


def apply_editor_settings(server: AscendMigrateServer, raw: Any) -> bool:
    """Take the editor's settings for the whole workspace; False when they were invalid (and kept out)."""
    if not server.settings.update_editor(raw):
        return False
    if server.settings.options.log_level is not None:
        logs.set_level(server.settings.options.log_level)
    return True
