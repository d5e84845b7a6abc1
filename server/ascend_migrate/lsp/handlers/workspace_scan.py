"""ascend-migrate.scanWorkspace: scan every workspace folder on a thread of its own, with cancellable
progress, and publish the diagnostics of the files that are not open (the scan itself is `lsp/workspace_scan.py`)."""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidRequest, JsonRpcRequestCancelled

from ascend_migrate.lsp import convert
from ascend_migrate.lsp.documents import split_lines
from ascend_migrate.lsp.handlers.arguments import named
from ascend_migrate.lsp.handlers.documents import publish
from ascend_migrate.lsp.server import AscendMigrateServer
from ascend_migrate.lsp.uris import path_of_uri, uri_of_path
from ascend_migrate.taxonomy import SEVERITIES

logger = logging.getLogger("ascend_migrate.lsp")
SCAN_WORKSPACE = "ascend-migrate.scanWorkspace"


def register(server: AscendMigrateServer) -> None:
    @server.command(SCAN_WORKSPACE)
    async def scan_workspace(ls: AscendMigrateServer, *arguments: Any) -> dict[str, Any]:
        named(arguments, (), SCAN_WORKSPACE)
        return await _scan_workspace(ls)


def workspace_roots(server: AscendMigrateServer) -> list[Path]:
    """The workspace folders (or the root, for a client without folders) that are directories."""
    workspace = server.workspace
    uris = [folder.uri for folder in workspace.folders.values()] or ([workspace.root_uri] if workspace.root_uri else [])
    roots = []
    for uri in uris:
        path = path_of_uri(uri)
        if path and Path(path).is_dir() and Path(path) not in roots:
            roots.append(Path(path))
    return roots


def scan_is_stale(server: AscendMigrateServer) -> bool:
    """Whether a scanned folder's or file's settings changed since the last scan (the target, a version, a
    pyproject.toml): its findings describe the old settings, and files it found clean may not be clean now."""
    with server.lock:
        used_by_scan = dict(server.last_scan_settings)
    return any(server.settings.for_path(path) != settings for path, settings in used_by_scan.items())


def _open_text_reader(server: AscendMigrateServer) -> Callable[[Path], str | None]:
    """`open_text(path)`: the editor's current text of the file at `path` if it is open, else None."""
    with server.lock:
        # (a notebook's cells carry the notebook's path, but none of them is the file: the scan reads it from disk)
        uris = {os.path.normpath(document.path): uri for uri, document in server.documents.items()
                if document.path and uri not in server.cell_notebooks}

    def open_text(path: Path) -> str | None:
        uri = uris.get(os.path.normpath(path))
        if uri is None:
            return None
        with server.lock:
            document = server.documents.get(uri)
            return document.text if document is not None else None

    return open_text


class _ScanProgress:
    """Reports scan progress to the client from the scan thread, at most every 1% or 0.2 s."""

    def __init__(self, server: AscendMigrateServer, token: types.ProgressToken | None) -> None:
        self.server = server
        self.token = token
        self.last_percentage = -1
        self.last_time = 0.0
        self.done = self.total = 0

    def begin(self) -> None:
        if self.token is not None:
            self.server.work_done_progress.begin(
                self.token,
                types.WorkDoneProgressBegin(title="ascend-migrate: scanning the workspace", cancellable=True, message="finding Python files", percentage=0),
            )

    def __call__(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        if self.token is None:
            return
        percentage = int(100 * done / total) if total else 100
        now = time.monotonic()
        if percentage == self.last_percentage and now - self.last_time < 0.2 and done != total:
            return
        self.last_percentage, self.last_time = percentage, now
        report = types.WorkDoneProgressReport(message=f"{done}/{total} files", percentage=percentage, cancellable=True)
        self.server.on_loop(self.server.work_done_progress.report, self.token, report)

    def end(self, message: str) -> None:
        if self.token is not None:
            self.server.work_done_progress.end(self.token, types.WorkDoneProgressEnd(message=message))

    def cancelled(self) -> bool:
        return self.token is not None and self.server.progress_cancelled(self.token)


async def _create_progress(server: AscendMigrateServer) -> types.ProgressToken | None:
    window = server.client_capabilities.window
    if window is None or not window.work_done_progress:
        return None
    token = f"ascend-migrate-scan-{uuid.uuid4()}"
    try:
        await server.work_done_progress.create_async(token)
    except Exception as error:
        logger.warning("the client refused a progress token: %s", error)
        return None
    return token


async def _scan_workspace(server: AscendMigrateServer) -> dict[str, Any]:
    from ascend_migrate.lsp.workspace_scan import Folder, scan_folders

    message_id = server.current_request_id()
    cancelled = server.cancellation_event(message_id)
    try:
        await server.wait_for_settings()
        roots = workspace_roots(server)
        if not roots:
            raise JsonRpcInvalidRequest(message=f"{SCAN_WORKSPACE}: the client opened no workspace folder to scan")
        # Each folder with its own settings (its pyproject.toml and the editor's settings for that folder)
        # decides which files to scan; each file is analysed with the settings it has when opened.
        folders = [Folder(root, server.settings.for_path(root)) for root in roots]
        open_text = _open_text_reader(server)
        progress = _ScanProgress(server, await _create_progress(server))
        progress.begin()

        def is_cancelled() -> bool:
            return cancelled.is_set() or progress.cancelled() or server.stopping.is_set()

        used_settings: dict[str, Any] = {}  # each file's settings as the scan read them (they may change meanwhile)

        def settings_for(path: Path) -> Any:
            used_settings[os.path.normpath(path)] = settings = server.settings.for_path(path)
            return settings

        try:
            scan = await _in_thread(
                lambda: scan_folders(folders, open_text, progress=progress, cancelled=is_cancelled, settings_for=settings_for)
            )
        except Exception as error:
            progress.end("failed")
            logger.exception("the workspace scan failed")
            raise JsonRpcInvalidRequest(message=f"{SCAN_WORKSPACE} failed: {error}") from None
        result = scan.result
        was_cancelled = is_cancelled() and progress.done < progress.total  # a late cancel of a finished scan is no cancel
        summary = _summary(result, was_cancelled)
        progress.end(("cancelled: " if was_cancelled else "") + f"{summary['files']} files, {summary['findings']} findings")
        if cancelled.is_set() and was_cancelled:
            raise JsonRpcRequestCancelled(message=f"{SCAN_WORKSPACE} was cancelled")
        server.last_scan = result
        _publish_scan(server, scan, folders, used_settings)
        return summary
    finally:
        server.forget_cancellation(message_id)


async def _in_thread(function: Any) -> Any:
    """Run `function` on a daemon thread of its own (a pool thread would hold the process at exit)."""
    loop = asyncio.get_running_loop()
    future = loop.create_future()

    def target() -> None:
        try:
            value = function()
        except BaseException as error:  # handed to the awaiting coroutine
            loop.call_soon_threadsafe(_settle, future, None, error)
        else:
            loop.call_soon_threadsafe(_settle, future, value, None)

    threading.Thread(target=target, name="ascend-migrate-scan", daemon=True).start()
    return await future


def _settle(future: asyncio.Future, value: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(value)


def _summary(result: Any, cancelled: bool) -> dict[str, Any]:
    categories = Counter(finding.category for finding in result.findings)
    severities = Counter(finding.severity for finding in result.findings)
    return {
        "files": result.files_scanned,
        "findings": len(result.findings),
        "categories": dict(sorted(categories.items())),
        # Named as the LSP names diagnostic severities: an editor's Problems panel may hide hints.
        "severities": {"information" if name == "info" else name: severities.get(name, 0) for name in SEVERITIES},
        "errors": len(result.errors),
        "cancelled": cancelled,
        "seconds": round(result.seconds, 3),
    }


def _publish_scan(server: AscendMigrateServer, scan: Any, folders: list[Any], used_settings: dict[str, Any]) -> None:
    """Diagnostics for every scanned file that is not open (open ones show their live analysis); and the
    settings each was found with, so that a settings change can analyse them again and mark the scan stale."""
    result = scan.result
    by_path: dict[str, list[Any]] = {}
    for finding in result.findings:
        by_path.setdefault(finding.path, []).append(finding)
    with server.lock:
        open_uris = set(server.documents)
        uri_of_open_path = {os.path.normpath(document.path): uri for uri, document in server.documents.items()
                            if document.path and uri not in server.cell_notebooks}
    published: dict[str, list[str]] = {}
    published_settings: dict[str, Any] = {}
    used_by_scan = {str(folder.root): folder.settings for folder in folders} | used_settings
    for path, findings in by_path.items():
        file = scan.files.get(path)
        if file is None:
            continue  # not a file the scan read (an engine finding under another path): nothing to link it to
        if findings[0].cell:
            continue  # a notebook: its cells have URIs only while it is open (then its live analysis shows them)
        # An open file is known by the URI its client gave (closing it looks the URI up).
        uri = uri_of_open_path.get(os.path.normpath(file)) or uri_of_path(file)
        lines = split_lines(result.sources.get(path, ""))
        published[uri] = [convert.diagnostic_json(finding, lines, server.encoding) for finding in findings]
        published_settings[uri] = used_settings.get(os.path.normpath(file)) or server.settings.for_path(file)
    for uri in set(server.scan_diagnostics) - set(published) - open_uris:
        publish(server, uri, [], None)  # fixed since the last scan
    with server.lock:
        server.scan_diagnostics = published
        server.scan_settings = published_settings
        server.last_scan_settings = used_by_scan
    for uri, diagnostics in published.items():
        if uri not in open_uris:
            publish(server, uri, diagnostics, None)
