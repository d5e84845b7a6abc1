"""The language server's state: the open documents, the settings, the analysis worker, the last scan.

Threads: pygls handlers run on the event loop; analyses run on one worker thread (`worker.py`); the
workspace scan runs on a thread of its own. Everything sent to the client goes out from the event loop
(`on_loop`). The handlers that act on this state are in `handlers/`; `application.py` wires them up.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

from lsprotocol import types

from ascend_migrate import __version__
from ascend_migrate.config import Settings
from ascend_migrate.lsp.code_actions import FixAllEdits
from ascend_migrate.lsp.documents import Document
from ascend_migrate.lsp.positions import UTF16
from ascend_migrate.lsp.settings import SettingsManager
from ascend_migrate.lsp.transport import TransportServer
from ascend_migrate.lsp.worker import AnalysisWorker


class AscendMigrateServer(TransportServer):
    def __init__(self) -> None:
        super().__init__("ascend-migrate", __version__)
        self.lock = threading.RLock()  # guards `documents` and every Document in it
        self.documents: dict[str, Document] = {}  # text documents, a notebook's cells among them
        self.notebooks: dict[str, Any] = {}  # notebook uri → handlers.notebooks.OpenNotebook
        self.cell_notebooks: dict[str, str] = {}  # a cell's uri → its notebook's uri
        self.document_settings: dict[str, Settings] = {}  # uri → the settings its analysis used
        self.encoding = UTF16
        self.loop: asyncio.AbstractEventLoop | None = None
        self.loop_thread: int | None = None
        self.settings = SettingsManager(self.show_problem)
        self.worker = AnalysisWorker()
        self.fix_all_edits = FixAllEdits()
        self.recent_caches: dict[str, Document] = {}  # touched by the analysis worker only
        self.scan_diagnostics: dict[str, list[str]] = {}  # uri → what the last scan published
        self.scan_settings: dict[str, Settings] = {}  # uri → the settings its published diagnostics were found with
        self.last_scan: Any = None
        # path of each scanned folder and file → the settings the last scan used: while any differs from the
        # settings it has now, the scan is stale (its report would describe other settings)
        self.last_scan_settings: dict[str, Settings] = {}
        self.settings_pulled: asyncio.Event | None = None  # set once the first workspace/configuration is answered
        self.background_tasks: set[asyncio.Future] = set()  # referenced until done (asyncio keeps weak references)

    def on_loop(self, function: Callable[..., Any], *arguments: Any) -> None:
        """Call `function` on the event loop thread (now, if this is it)."""
        if self.loop is None or threading.get_ident() == self.loop_thread:
            function(*arguments)
        elif not self.loop.is_closed():
            self.loop.call_soon_threadsafe(function, *arguments)

    def bind_loop(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.loop_thread = threading.get_ident()
        self.settings_pulled = asyncio.Event()

    async def wait_for_settings(self) -> None:
        """Until the settings asked for after `initialized` have arrived (a request may come before them)."""
        if self.settings_pulled is not None:
            await self.settings_pulled.wait()

    def show_problem(self, message: str) -> None:
        self.on_loop(self.window_show_message, types.ShowMessageParams(type=types.MessageType.Error, message=message))

    def report_internal_error(self, message: str) -> None:
        self.settings.report_once(message)

    def send_log(self, params: types.LogMessageParams) -> None:
        if self.connected:
            self.on_loop(self.window_log_message, params)

    def stop_jobs(self) -> None:
        self.worker.stop()

    @property
    def resolves_code_action_edits(self) -> bool:
        """The client asks `codeAction/resolve` for an action's edit (VS Code, Neovim): fix-all can wait."""
        text_document = self.client_capabilities.text_document
        code_action = text_document.code_action if text_document is not None else None
        support = code_action.resolve_support if code_action is not None else None
        return bool(support is not None and "edit" in support.properties)

    @property
    def versioned_edits(self) -> bool:
        capabilities = self.client_capabilities.workspace
        edit = capabilities.workspace_edit if capabilities is not None else None
        return bool(edit is not None and edit.document_changes)

    @property
    def markdown_hover(self) -> bool:
        text_document = self.client_capabilities.text_document
        formats = text_document.hover.content_format if text_document is not None and text_document.hover is not None else None
        return not formats or types.MarkupKind.Markdown in formats
