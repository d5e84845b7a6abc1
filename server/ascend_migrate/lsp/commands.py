"""workspace/executeCommand: scan the workspace, export a report, look an API up, fix a file, switch target.

Arguments may come positionally (`["json", "/tmp/report.json"]`) or as one object
(`[{"format": "json", "path": "/tmp/report.json"}]`); both are documented in docs/language-server.md.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any, Callable

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams, JsonRpcInvalidRequest, JsonRpcRequestCancelled

from ascend_migrate.lsp import code_actions, convert
from ascend_migrate.lsp.documents import split_lines
from ascend_migrate.lsp.server import AscendMigrateServer, uri_for
from ascend_migrate.lsp.uris import path_of_uri

logger = logging.getLogger("ascend_migrate.lsp")

SCAN_WORKSPACE = "ascend-migrate.scanWorkspace"
EXPORT_REPORT = "ascend-migrate.exportReport"
LOOKUP = "ascend-migrate.lookup"
FIX_ALL = "ascend-migrate.fixAll"
SET_TARGET = "ascend-migrate.setTarget"
LOOKUP_LIMIT = 200


def _arguments(arguments: tuple[Any, ...], names: tuple[str, ...], command: str) -> dict[str, Any]:
    """Named arguments from positional ones or from a single object."""
    if len(arguments) == 1 and isinstance(arguments[0], dict):
        values = dict(arguments[0])
    else:
        if len(arguments) > len(names):
            raise JsonRpcInvalidParams(message=f"{command} takes at most {len(names)} arguments ({', '.join(names)}), got {len(arguments)}")
        values = dict(zip(names, arguments))
    unknown = sorted(set(values) - set(names))
    if unknown:
        raise JsonRpcInvalidParams(message=f"{command}: unknown argument(s) {', '.join(unknown)}; expected {', '.join(names)}")
    return values


def _string(values: dict[str, Any], name: str, command: str) -> str:
    value = values.get(name)
    if not isinstance(value, str) or not value:
        raise JsonRpcInvalidParams(message=f"{command}: `{name}` must be a non-empty string, got {value!r}")
    return value


def register(server: AscendMigrateServer) -> None:
    @server.command(SCAN_WORKSPACE)
    async def scan_workspace(ls: AscendMigrateServer, *arguments: Any) -> dict[str, Any]:
        _arguments(arguments, (), SCAN_WORKSPACE)
        return await _scan_workspace(ls)

    @server.command(EXPORT_REPORT)
    def export_report(ls: AscendMigrateServer, *arguments: Any) -> dict[str, Any]:
        return _export_report(ls, _arguments(arguments, ("format", "path"), EXPORT_REPORT))

    @server.command(LOOKUP)
    def lookup(ls: AscendMigrateServer, *arguments: Any) -> list[dict[str, Any]]:
        name = _string(_arguments(arguments, ("name",), LOOKUP), "name", LOOKUP)
        return _lookup(name)

    @server.command(FIX_ALL)
    async def fix_all(ls: AscendMigrateServer, *arguments: Any) -> dict[str, Any]:
        uri = _string(_arguments(arguments, ("uri",), FIX_ALL), "uri", FIX_ALL)
        return await _fix_all(ls, uri)

    @server.command(SET_TARGET)
    def set_target(ls: AscendMigrateServer, *arguments: Any) -> dict[str, Any]:
        target = _string(_arguments(arguments, ("target",), SET_TARGET), "target", SET_TARGET)
        try:
            ls.settings.set_target(target)
        except ValueError as error:
            raise JsonRpcInvalidParams(message=f"{SET_TARGET}: {error}") from None
        ls.reanalyze_all()
        return {"target": target}


# --- scanWorkspace -----------------------------------------------------------------------------------
def _workspace_roots(server: AscendMigrateServer) -> list[Path]:
    workspace = server.workspace
    uris = [folder.uri for folder in workspace.folders.values()] or ([workspace.root_uri] if workspace.root_uri else [])
    roots = []
    for uri in uris:
        path = path_of_uri(uri)
        if path and Path(path).is_dir() and Path(path) not in roots:
            roots.append(Path(path))
    return roots


def _open_text_reader(server: AscendMigrateServer) -> Callable[[Path], str | None]:
    """`open_text(path)`: the editor's current text of the file at `path` if it is open, else None."""
    with server.lock:
        uris = {os.path.normpath(document.path): uri for uri, document in server.documents.items() if document.path}

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
        self._last_percentage = -1
        self._last_time = 0.0
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
        if percentage == self._last_percentage and now - self._last_time < 0.2 and done != total:
            return
        self._last_percentage, self._last_time = percentage, now
        report = types.WorkDoneProgressReport(message=f"{done}/{total} files", percentage=percentage, cancellable=True)
        self.server.on_loop(self.server.work_done_progress.report, self.token, report)

    def end(self, message: str) -> None:
        if self.token is not None:
            self.server.work_done_progress.end(self.token, types.WorkDoneProgressEnd(message=message))

    def cancelled(self) -> bool:
        if self.token is None:
            return False
        future = self.server.work_done_progress.tokens.get(self.token)
        return future is not None and future.cancelled()


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

    protocol = server.protocol
    message_id = protocol.msg_id
    cancelled = protocol.cancellation_event(message_id)
    try:
        await server.wait_for_settings()
        roots = _workspace_roots(server)
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

        try:
            scan = await _in_thread(
                lambda: scan_folders(folders, open_text, progress=progress, cancelled=is_cancelled, settings_for=server.settings.for_path)
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
        _publish_scan(server, scan)
        return summary
    finally:
        protocol.forget_cancellation(message_id)


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
    return {
        "files": result.files_scanned,
        "findings": len(result.findings),
        "categories": dict(sorted(categories.items())),
        "errors": len(result.errors),
        "cancelled": cancelled,
        "seconds": round(result.seconds, 3),
    }


def _publish_scan(server: AscendMigrateServer, scan: Any) -> None:
    """Diagnostics for every scanned file that is not open (open ones show their live analysis)."""
    result = scan.result
    by_path: dict[str, list[Any]] = {}
    for finding in result.findings:
        by_path.setdefault(finding.path, []).append(finding)
    with server.lock:
        open_uris = set(server.documents)
        uri_of_open_path = {os.path.normpath(document.path): uri for uri, document in server.documents.items() if document.path}
    published: dict[str, list[str]] = {}
    for path, findings in by_path.items():
        file = scan.files.get(path)
        if file is None:
            continue  # not a file the scan read (an engine finding under another path): nothing to link it to
        # An open file is known by the URI its client gave (closing it looks the URI up).
        uri = uri_of_open_path.get(os.path.normpath(file)) or uri_for(file)
        lines = split_lines(result.sources.get(path, ""))
        settings = scan.settings[path]
        published[uri] = [convert.diagnostic_json(finding, lines, server.encoding, settings) for finding in findings]
    for uri in set(server.scan_diagnostics) - set(published) - open_uris:
        server.publish(uri, [], None)  # fixed since the last scan
    server.scan_diagnostics = published
    for uri, diagnostics in published.items():
        if uri not in open_uris:
            server.publish(uri, diagnostics, None)


# --- exportReport ------------------------------------------------------------------------------------
def _export_report(server: AscendMigrateServer, values: dict[str, Any]) -> dict[str, Any]:
    from ascend_migrate.reports import FORMATS, ReportOptions, writer

    format_name = _string(values, "format", EXPORT_REPORT)
    path = _string(values, "path", EXPORT_REPORT)
    if format_name not in FORMATS:
        raise JsonRpcInvalidParams(message=f"{EXPORT_REPORT}: format must be one of {sorted(FORMATS)}, got {format_name!r}")
    if server.last_scan is None:
        raise JsonRpcInvalidRequest(message=f"{EXPORT_REPORT}: there is no scan to report yet; run {SCAN_WORKSPACE} first")
    try:
        write = writer(format_name)
    except ImportError:
        raise JsonRpcInvalidParams(message=f"{EXPORT_REPORT}: the {format_name} report is not available in this build") from None
    output = Path(path).expanduser()
    try:
        write(server.last_scan, output, ReportOptions())
    except OSError as error:
        raise JsonRpcInvalidRequest(message=f"{EXPORT_REPORT}: cannot write {output}: {error.strerror or error}") from None
    return {"format": format_name, "path": str(output), "findings": len(server.last_scan.findings)}


# --- lookup ------------------------------------------------------------------------------------------
def _lookup(name: str) -> list[dict[str, Any]]:
    from ascend_migrate.kb.index import KnowledgeBase

    knowledge_base = KnowledgeBase.load()
    query = "tensorflow" + name[2:] if name == "tf" or name.startswith("tf.") else name
    # A plain prefix, so that a search box can ask as the user types (`torch.nn.Li` finds torch.nn.Linear).
    prefix = query.rstrip("*")
    entries = [entry for entry in knowledge_base.entries if entry.api.startswith(prefix)]
    entries.sort(key=lambda entry: (entry.api != query, entry.api, entry.route))
    return [_entry_json(entry) for entry in entries[:LOOKUP_LIMIT]]


def _entry_json(entry: Any) -> dict[str, Any]:
    return {
        "key": entry.key,
        "api": entry.api,
        "route": entry.route,
        "category": entry.category,
        "code": entry.code,
        "match": entry.match,
        "target": entry.target,
        "note": entry.note,
        "suggestion": entry.suggestion,
        "fix": entry.fix,
        "parameters": [
            {
                "source": parameter.source,
                "target": parameter.target,
                "change": parameter.change,
                "source_default": parameter.source_default,
                "target_default": parameter.target_default,
                "note": parameter.note,
            }
            for parameter in entry.parameters
        ],
        "source_versions": entry.source_versions.text,
        "target_versions": entry.target_versions.text,
        "docs": list(entry.docs),
        "provenance": entry.provenance,
        "verified": entry.verified,
        "curated": entry.curated,
    }


# --- fixAll ------------------------------------------------------------------------------------------
async def _fix_all(server: AscendMigrateServer, uri: str) -> dict[str, Any]:
    snapshot = server.snapshot(uri)
    if snapshot is None:
        raise JsonRpcInvalidParams(message=f"{FIX_ALL}: {uri} is not open")
    if snapshot.findings is None:
        raise JsonRpcInvalidRequest(message=f"{FIX_ALL}: {uri} is being analysed; try again")
    action = code_actions.fix_all_action(snapshot, server.encoding, server.versioned_edits, server.fix_all_edits)
    if action is None:
        return {"applied": False, "edits": 0}
    response = await server.workspace_apply_edit_async(
        types.ApplyWorkspaceEditParams(edit=action.edit, label="ascend-migrate: fix all safe issues")
    )
    edit_count = sum(len(change.edits) for change in action.edit.document_changes or []) or sum(len(edits) for edits in (action.edit.changes or {}).values())
    return {"applied": bool(response.applied), "edits": edit_count}
