"""initialize, initialized and shutdown: the position encoding, the first settings, warming up the engine."""

from __future__ import annotations

import logging

from lsprotocol import types

from ascend_migrate import __version__
from ascend_migrate.lsp import logs
from ascend_migrate.lsp.handlers.settings import PYPROJECT, apply_editor_settings, pull_configuration
from ascend_migrate.lsp.server import AscendMigrateServer

logger = logging.getLogger("ascend_migrate.lsp")


def register(server: AscendMigrateServer) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(ls: AscendMigrateServer, params: types.InitializeParams) -> None:
        ls.bind_loop()
        ls.encoding = ls.position_encoding(params.capabilities)
        if params.initialization_options is not None:
            apply_editor_settings(ls, params.initialization_options)
        if not any(isinstance(handler, logs.ClientLogHandler) for handler in logs.logger.handlers):
            logs.logger.addHandler(logs.ClientLogHandler(ls.send_log))
        logger.info("ascend-migrate %s: position encoding %s", __version__, ls.encoding)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: AscendMigrateServer, params: types.InitializedParams) -> None:
        ls.worker.start(warm_up=lambda: _warm_up(ls))
        try:
            await pull_configuration(ls)
        finally:
            ls.worker.ready()
            if ls.settings_pulled is not None:
                ls.settings_pulled.set()
        await _watch_pyproject(ls)

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: AscendMigrateServer, params: None) -> None:
        ls.stopping.set()
        ls.worker.stop()


def _warm_up(server: AscendMigrateServer) -> None:
    """Load the knowledge base, the engine and the fixes after `initialize` has been answered, so that
    neither the first analysis nor the first quick fix pays for it."""
    from ascend_migrate.kb.index import KnowledgeBase
    from ascend_migrate.kb.loader import KnowledgeBaseError

    try:
        KnowledgeBase.load()
        import ascend_migrate.analysis.incremental  # noqa: F401
        import ascend_migrate.fixes  # noqa: F401  (libcst)
    except KnowledgeBaseError as error:
        server.settings.report_once(f"The ascend-migrate knowledge base is broken: {error}")
    except Exception:
        logger.exception("loading the knowledge base failed")


async def _watch_pyproject(server: AscendMigrateServer) -> None:
    workspace = server.client_capabilities.workspace
    watched = workspace.did_change_watched_files if workspace is not None else None
    if watched is None or not watched.dynamic_registration:
        return  # pyproject.toml changes still arrive as didSave when the file is open in the editor
    registration = types.Registration(
        id="ascend-migrate-pyproject",
        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        register_options=types.DidChangeWatchedFilesRegistrationOptions(
            watchers=[types.FileSystemWatcher(glob_pattern=f"**/{PYPROJECT}")]
        ),
    )
    try:
        await server.client_register_capability_async(types.RegistrationParams(registrations=[registration]))
    except Exception as error:
        logger.warning("could not register a watcher for pyproject.toml: %s", error)
