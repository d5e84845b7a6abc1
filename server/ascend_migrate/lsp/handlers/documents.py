"""Open documents and their diagnostics: didOpen/didChange/didClose, analysis on the worker, publishing.

A document is analysed on the worker thread at its newest version; the diagnostics of a version that has
been overtaken are never published.
"""

from __future__ import annotations

import functools
import json
import logging
import time
from pathlib import Path

from lsprotocol import types

from ascend_migrate.analysis.findings import Finding
from ascend_migrate.config import Settings
from ascend_migrate.lsp import convert, engine
from ascend_migrate.lsp.code_actions import DocumentSnapshot
from ascend_migrate.lsp.documents import Document, size_over, split_lines
from ascend_migrate.lsp.server import AscendMigrateServer
from ascend_migrate.lsp.uris import path_of_uri

logger = logging.getLogger("ascend_migrate.lsp")
RECENT_DOCUMENT_CACHES = 8  # documents whose diagnostics' JSON is kept for the next edit


def max_document_bytes() -> int:
    """`scan`'s limit on a file's size, which documents get too (imported on first use: `initialize` is
    answered before the workspace module is loaded)."""
    from ascend_migrate.files import MAX_FILE_BYTES

    return MAX_FILE_BYTES


class DocumentSync:
    """What the transport hands didOpen/didChange/didClose to (instead of pygls' document store)."""

    def __init__(self, server: AscendMigrateServer) -> None:
        self.server = server

    def opened(self, params: types.DidOpenTextDocumentParams) -> None:
        server, item = self.server, params.text_document
        oversize = size_over(item.text, max_document_bytes())  # checked before the text is split into lines
        document = Document(item.uri, path_of(item.uri), "" if oversize else item.text, item.version, item.language_id)
        if oversize:
            document.drop_text()
            document.too_large = oversize
        with server.lock:
            server.documents[item.uri] = document
        logger.debug("opened %s (version %s)", item.uri, item.version)
        if self.within_limits(document) and is_python(item.language_id, item.uri):
            schedule(server, item.uri)

    def within_limits(self, document: Document) -> bool:
        """Whether the document may be analysed. One over the limit has its text dropped (memory stays
        bounded) and, if it is Python, each version gets one diagnostic saying so (never "clean")."""
        server = self.server
        with server.lock:
            if not document.text_dropped:
                size = document.utf8_size(max_document_bytes())
                if size is None:
                    if document.too_large is not None:
                        document.too_large = None
                        document.needs_full_analysis = True
                    return True
                document.too_large = size
                document.drop_text()  # a document over the limit is not kept either: memory stays bounded
            document.analysis = None
            document.diagnostic_cache = {}
            uri, version, size = document.uri, document.version, document.too_large or 0
            python = is_python(document.language_id, uri)
        if python:
            logger.warning("%s is %d bytes, over the %d MiB limit: not analysed", uri, size, max_document_bytes() // (1 << 20))
            publish(server, uri, [_too_large_diagnostic(size)], version)
        return False

    def too_large(self, uri: str, size: int, version: int | None) -> None:
        """The transport skipped a didOpen/didChange of `uri` over its message limit: the text is not known."""
        server = self.server
        with server.lock:
            document = server.documents.get(uri)
            if document is None:
                document = server.documents[uri] = Document(uri, path_of(uri), "", version, "")
            document.drop_text()
            document.too_large = size
            document.version = version if version is not None else document.version
        self.within_limits(document)

    def changed(self, params: types.DidChangeTextDocumentParams) -> None:
        server = self.server
        uri, version = params.text_document.uri, params.text_document.version
        with server.lock:
            document = server.documents.get(uri)
            if document is None:
                logger.warning("didChange for %s, which is not open: ignored", uri)
                return
            if version is not None and document.version is not None and version <= document.version:
                logger.warning("didChange for %s with version %s, not newer than %s: ignored", uri, version, document.version)
                return
            for change in params.content_changes:
                if document.text_dropped and isinstance(change, types.TextDocumentContentChangePartial):
                    continue  # an edit of a text that is no longer kept: only a whole new text helps
                if not isinstance(change, types.TextDocumentContentChangePartial) and (oversize := size_over(change.text, max_document_bytes())):
                    document.drop_text()
                    document.too_large = oversize
                    continue
                if isinstance(change, types.TextDocumentContentChangePartial):
                    start, start_inside = document.position_from_client(change.range.start.line, change.range.start.character, server.encoding)
                    end, end_inside = document.position_from_client(change.range.end.line, change.range.end.character, server.encoding)
                    if not (start_inside and end_inside):
                        logger.warning("didChange for %s: range %s is outside the document; clamped to it", uri, _range_text(change.range))
                    document.apply_change(start, end, change.text)
                else:
                    document.replace_all(change.text)
            document.version = version
            python = is_python(document.language_id, uri)
        if self.within_limits(document) and python:
            schedule(server, uri)

    def closed(self, params: types.DidCloseTextDocumentParams) -> None:
        server, uri = self.server, params.text_document.uri
        with server.lock:
            document = server.documents.pop(uri, None)
            server.document_settings.pop(uri, None)
        server.fix_all_edits.forget(uri)
        if document is None:
            logger.warning("didClose for %s, which is not open: ignored", uri)
            return
        if uri in server.scan_diagnostics:
            # The workspace scan owns this file's diagnostics: show the file as it is on disk again.
            server.worker.request(uri, lambda: _analyze_file_on_disk(server, uri))
        else:
            publish(server, uri, [], None)


def schedule(server: AscendMigrateServer, uri: str) -> None:
    with server.lock:
        notebook = server.cell_notebooks.get(uri)
    if notebook is not None:  # a notebook's cell: the cells are analysed together, as one program
        server.notebook_sync.schedule(notebook)
        return
    server.worker.request(uri, lambda: _analyze_open_document(server, uri))


def reanalyze_all(server: AscendMigrateServer) -> None:
    """After a settings change (target, versions, pyproject.toml): every open document, and every closed
    file the last workspace scan published diagnostics for, analysed again with the settings it has now."""
    with server.lock:
        uris = list(server.documents)
        for document in server.documents.values():
            document.needs_full_analysis = True
    for uri in uris:
        schedule(server, uri)
    _reanalyze_scanned(server)


def _reanalyze_scanned(server: AscendMigrateServer) -> None:
    """The closed files whose scan diagnostics were found with other settings than they have now are
    analysed again: a target switch must not leave the old target's findings in the Problems panel. (Files
    the scan found clean may have findings under the new settings: only a new scan finds those, and until
    then exportReport refuses the stale scan.)"""
    with server.lock:
        scanned = {uri: settings for uri, settings in server.scan_settings.items() if uri not in server.documents}
    for uri, settings in scanned.items():
        if server.settings.for_path(path_of(uri)) != settings:
            server.worker.request(uri, functools.partial(_analyze_file_on_disk, server, uri))


def snapshot(server: AscendMigrateServer, uri: str) -> DocumentSnapshot | None:
    """The current version of an open document, with its findings if they are of this version."""
    with server.lock:
        document = server.documents.get(uri)
        if document is None:
            return None
        current = document.analysis is not None and document.analysis_version == document.version
        # A notebook cell's fixes are computed on its text with the IPython lines blanked (same positions).
        python_text = getattr(document.analysis, "python_text", None) if current else None
        return DocumentSnapshot(
            uri=uri,
            version=document.version,
            text=python_text if python_text is not None else document.text,
            lines=list(document.lines),
            findings=list(document.analysis.findings) if current else None,
            settings=settings_of(server, document),
            analysis=document.analysis if current else None,
        )


def settings_of(server: AscendMigrateServer, document: Document) -> Settings:
    """The settings the document's last analysis used (the current ones before its first)."""
    return server.document_settings.get(document.uri) or server.settings.for_path(document.path)


def publish(server: AscendMigrateServer, uri: str, diagnostics: list[str], version: int | None) -> None:
    """Send textDocument/publishDiagnostics (on the event loop thread) from diagnostics as JSON text."""
    server.send_json(convert.publish_diagnostics_message(uri, diagnostics, version))


def _analyze_open_document(server: AscendMigrateServer, uri: str) -> None:
    """On the worker: analyse the newest version, and publish it if it is still the newest."""
    from ascend_migrate.kb.loader import KnowledgeBaseError  # yaml: not needed to answer `initialize`

    with server.lock:
        document = server.documents.get(uri)
        if document is None or document.too_large is not None:
            return
        text, version, lines, path = document.text, document.version, list(document.lines), document.path
        edit, full = document.take_pending()
        previous = None if full else document.analysis
    settings = server.settings.for_path(path)
    started = time.perf_counter()
    try:
        analysis = engine.analyze(text, path, settings, previous, edit)
    except KnowledgeBaseError as error:
        server.settings.report_once(f"The ascend-migrate knowledge base is broken: {error}")
        with server.lock:
            document.needs_full_analysis = True
        return
    except Exception:
        logger.exception("analysis of %s (version %s) failed", uri, version)
        with server.lock:
            document.needs_full_analysis = True
        return
    diagnostics = _diagnostics_json(server, document, analysis.findings, lines)
    with server.lock:
        if server.documents.get(uri) is not document:
            return  # closed (or reopened) meanwhile
        # The next incremental run starts from this result even if the text moved on: the pending
        # edit collected since `take_pending` is relative to exactly this text.
        document.analysis = analysis
        document.analysis_version = version
        document.analysis_lines = lines
        server.document_settings[uri] = settings
        is_newest = document.version == version
    logger.debug(
        "analysed %s version %s (%s) in %.1f ms: %d findings",
        uri, version, "whole file" if edit is None or previous is None else f"lines {edit.start_line}-{edit.new_end_line}",
        1000 * (time.perf_counter() - started), len(diagnostics),
    )
    for problem in analysis.errors:
        logger.debug("%s:%s: %s", path, problem.line or "", problem.message)
    if is_newest:
        server.on_loop(_publish_document, server, uri, document, version, diagnostics)


def _diagnostics_json(server: AscendMigrateServer, document: Document, findings: list[Finding], lines: list[str]) -> list[str]:
    """On the worker: the diagnostics of `findings`, reusing the JSON of findings the engine carried over
    unchanged from the previous analysis (the same object means the same lines, so the same text)."""
    cache = document.diagnostic_cache
    # Only the documents being edited need their JSON kept; the others give their memory back.
    recent = server.recent_caches
    recent.pop(document.uri, None)
    recent[document.uri] = document
    while len(recent) > RECENT_DOCUMENT_CACHES:
        oldest = next(iter(recent))
        recent.pop(oldest).diagnostic_cache = {}
    fresh: dict[int, tuple[Finding, str]] = {}
    diagnostics = []
    for finding in findings:
        cached = cache.get(id(finding))
        if cached is not None and cached[0] is finding:
            text = cached[1]
        else:
            text = convert.diagnostic_json(finding, lines, server.encoding)
        fresh[id(finding)] = (finding, text)
        diagnostics.append(text)
    document.diagnostic_cache = fresh
    return diagnostics


def _publish_document(server: AscendMigrateServer, uri: str, document: Document, version: int, diagnostics: list[str]) -> None:
    with server.lock:
        if server.documents.get(uri) is not document or document.version != version or document.analysis_version != version:
            return  # a newer version is on its way; never publish an older one
        document.published_version = version
    publish(server, uri, diagnostics, version)


def _analyze_file_on_disk(server: AscendMigrateServer, uri: str) -> None:
    from ascend_migrate.files import read_source

    with server.lock:
        if uri in server.documents:
            return
    path = path_of(uri)
    settings = server.settings.for_path(path)
    try:
        text = read_source(Path(path))
    except (OSError, ValueError):
        server.on_loop(publish, server, uri, [], None)
        with server.lock:
            server.scan_diagnostics.pop(uri, None)
            server.scan_settings.pop(uri, None)
        return
    analysis = engine.analyze(text, path, settings, None, None)
    lines = split_lines(text)
    diagnostics = [convert.diagnostic_json(finding, lines, server.encoding) for finding in analysis.findings]
    with server.lock:
        server.scan_diagnostics[uri] = diagnostics
        server.scan_settings[uri] = settings

    def publish_if_still_closed() -> None:
        with server.lock:
            if uri in server.documents:
                return
        publish(server, uri, diagnostics, None)

    server.on_loop(publish_if_still_closed)


def _too_large_diagnostic(size: int) -> str:
    """The one diagnostic of a document too large to analyse, as JSON text."""
    message = (f"ascend-migrate did not analyse this file: it is {size:,} bytes, and files over "
               f"{max_document_bytes() // (1 << 20)} MiB are not analysed (the same limit as `ascend-migrate scan`). "
               "Its text is not kept either: reopen it once it is smaller.")
    return json.dumps({
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
        "severity": types.DiagnosticSeverity.Warning.value,
        "source": convert.SOURCE,
        "message": convert.plain_text(message),
    })


def is_python(language_id: str | None, uri: str) -> bool:
    """Whether to analyse a document: Python by its language id, or by its name when the client gives none."""
    if language_id:
        return language_id.lower() in ("python", "python3")
    return uri.endswith((".py", ".pyi"))


def path_of(uri: str) -> str:
    path = path_of_uri(uri)
    return path if path is not None else ""


def _range_text(range_: types.Range) -> str:
    return f"{range_.start.line}:{range_.start.character}-{range_.end.line}:{range_.end.character}"
