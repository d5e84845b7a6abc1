"""The ascend-migrate language server: pygls wiring over the open-document store and the analysis worker.

Threads: pygls handlers run on the event loop; analyses run on one worker thread (`worker.py`); the
workspace scan runs on a thread of its own. Everything sent to the client goes out from the event loop.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import os
import selectors
import stat
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

from lsprotocol import types
from pygls.capabilities import ServerCapabilitiesBuilder
from pygls.exceptions import FeatureRequestError
from pygls.io_ import StdoutWriter, run_async
from pygls.lsp.server import LanguageServer

from ascend_migrate import __version__
from ascend_migrate.analysis.findings import Finding
from ascend_migrate.config import Settings
from ascend_migrate.lsp import code_actions, convert, engine, hover, logs
from ascend_migrate.lsp.documents import Document, split_lines
from ascend_migrate.lsp.positions import UTF16
from ascend_migrate.lsp.protocol import AscendMigrateProtocol
from ascend_migrate.lsp.settings import CONFIGURATION_SECTION, SettingsManager, settings_section
from ascend_migrate.lsp.uris import path_of_uri, uri_of_path
from ascend_migrate.lsp.worker import AnalysisWorker

logger = logging.getLogger("ascend_migrate.lsp")
PYPROJECT = "pyproject.toml"
RECENT_DOCUMENT_CACHES = 8  # documents whose diagnostics' JSON is kept for the next edit


class AscendMigrateServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "ascend-migrate",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=AscendMigrateProtocol,
            max_workers=4,
        )
        self.lock = threading.RLock()  # guards `documents` and every Document in it
        self.documents: dict[str, Document] = {}
        self.document_settings: dict[str, Settings] = {}  # uri → the settings its analysis used
        self.encoding = UTF16
        self.loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread: int | None = None
        self.settings = SettingsManager(self.show_problem)
        self.worker = AnalysisWorker()
        self.fix_all_edits = code_actions.FixAllEdits()
        self._recent_caches: dict[str, Document] = {}  # touched by the analysis worker only
        self.scan_diagnostics: dict[str, list[str]] = {}  # uri → what the last scan published
        self.last_scan: Any = None
        self.stopping = threading.Event()
        self.settings_pulled: asyncio.Event | None = None  # set once the first workspace/configuration is answered
        self.background_tasks: set[asyncio.Future] = set()  # referenced until done (asyncio keeps weak references)

    # --- plumbing ------------------------------------------------------------------------------------
    def on_loop(self, function: Callable[..., Any], *arguments: Any) -> None:
        """Call `function` on the event loop thread (now, if this is it)."""
        if self.loop is None or threading.get_ident() == self._loop_thread:
            function(*arguments)
        elif not self.loop.is_closed():
            self.loop.call_soon_threadsafe(function, *arguments)

    def bind_loop(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        self.settings_pulled = asyncio.Event()

    async def wait_for_settings(self) -> None:
        """Until the settings asked for after `initialized` have arrived (a request may come before them)."""
        if self.settings_pulled is not None:
            await self.settings_pulled.wait()

    def show_problem(self, message: str) -> None:
        self.on_loop(self.window_show_message, types.ShowMessageParams(type=types.MessageType.Error, message=message))

    def send_log(self, params: types.LogMessageParams) -> None:
        if self.protocol.writer is not None and not self.stopping.is_set():
            self.on_loop(self.window_log_message, params)

    def start_io(self, stdin: Any = None, stdout: Any = None) -> None:
        """Serve on stdin/stdout, reading stdin with asyncio's pipe reader.

        pygls reads each header line and body on a thread-pool thread (three thread hops per message); a
        burst of 1,000 keystrokes then queues up in the pipe. A pipe, socket or terminal is read on the event
        loop directly; anything else (a regular file, /dev/null) falls back to pygls' reader.
        """
        source = stdin or sys.stdin.buffer
        if not _is_pollable_stream(source):
            super().start_io(stdin, stdout)
            return
        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))

        async def serve() -> None:
            reader = asyncio.StreamReader()
            await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), source)
            await run_async(
                stop_event=self._stop_event,
                reader=_EndTolerantReader(reader),
                protocol=self.protocol,
                logger=logger,
                error_handler=self.report_server_error,
            )

        try:
            asyncio.run(serve())
        except BrokenPipeError:
            logger.error("the connection to the client is lost")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

    def shutdown(self) -> None:
        """Stop without waiting for running jobs (a scan thread must not hold the process after stdin closes)."""
        self.stopping.set()
        self.worker.stop()
        if self._stop_event is not None:
            self._stop_event.set()
        if self._thread_pool is not None:
            self._thread_pool.shutdown(wait=False, cancel_futures=True)
        if self._server is not None:
            self._server.close()

    def report_server_error(self, error: Exception, source: Any) -> None:
        """Malformed JSON gets the JSON-RPC parse error (id null); other failures are logged and shown once.

        (pygls would pop up "Error in server" for each; a failed request has had its error response already.)
        """
        if isinstance(error, json.JSONDecodeError):
            logger.warning("malformed JSON from the client: %s", error)
            self.send_json(json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": f"Parse error: {error}"}}))
            return
        logger.error("internal error (%s): %s", getattr(source, "__name__", source), error)
        if source is not FeatureRequestError:
            self.settings.report_once(f"ascend-migrate: internal error: {error} (the server log has the details)")

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

    # --- documents -----------------------------------------------------------------------------------
    def documents_opened(self, params: types.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        document = Document(item.uri, _path_of(item.uri), item.text, item.version, item.language_id)
        with self.lock:
            self.documents[item.uri] = document
        logger.debug("opened %s (version %s)", item.uri, item.version)
        if _is_python(item.language_id, item.uri):
            self.schedule(item.uri)

    def documents_changed(self, params: types.DidChangeTextDocumentParams) -> None:
        uri, version = params.text_document.uri, params.text_document.version
        with self.lock:
            document = self.documents.get(uri)
            if document is None:
                logger.warning("didChange for %s, which is not open: ignored", uri)
                return
            if version is not None and document.version is not None and version <= document.version:
                logger.warning("didChange for %s with version %s, not newer than %s: ignored", uri, version, document.version)
                return
            for change in params.content_changes:
                if isinstance(change, types.TextDocumentContentChangePartial):
                    start, start_inside = document.position_from_client(change.range.start.line, change.range.start.character, self.encoding)
                    end, end_inside = document.position_from_client(change.range.end.line, change.range.end.character, self.encoding)
                    if not (start_inside and end_inside):
                        logger.warning("didChange for %s: range %s is outside the document; clamped to it", uri, _range_text(change.range))
                    document.apply_change(start, end, change.text)
                else:
                    document.replace_all(change.text)
            document.version = version
            is_python = _is_python(document.language_id, uri)
        if is_python:
            self.schedule(uri)

    def documents_closed(self, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        with self.lock:
            document = self.documents.pop(uri, None)
            self.document_settings.pop(uri, None)
        self.fix_all_edits.forget(uri)
        if document is None:
            logger.warning("didClose for %s, which is not open: ignored", uri)
            return
        if uri in self.scan_diagnostics:
            # The workspace scan owns this file's diagnostics: show the file as it is on disk again.
            self.worker.request(uri, lambda: self._analyze_file_on_disk(uri))
        else:
            self.publish(uri, [], None)

    def schedule(self, uri: str) -> None:
        self.worker.request(uri, lambda: self._analyze_open_document(uri))

    def reanalyze_all(self) -> None:
        with self.lock:
            uris = list(self.documents)
            for document in self.documents.values():
                document.needs_full_analysis = True
        for uri in uris:
            self.schedule(uri)

    def _analyze_open_document(self, uri: str) -> None:
        """On the worker: analyse the newest version, and publish it if it is still the newest."""
        from ascend_migrate.kb.loader import KnowledgeBaseError  # yaml: not needed to answer `initialize`

        with self.lock:
            document = self.documents.get(uri)
            if document is None:
                return
            text, version, lines, path = document.text, document.version, list(document.lines), document.path
            edit, full = document.take_pending()
            previous = None if full else document.analysis
        settings = self.settings.for_path(path)
        started = time.perf_counter()
        try:
            analysis = engine.analyze(text, path, settings, previous, edit)
        except KnowledgeBaseError as error:
            self.settings.report_once(f"The ascend-migrate knowledge base is broken: {error}")
            with self.lock:
                document.needs_full_analysis = True
            return
        except Exception:
            logger.exception("analysis of %s (version %s) failed", uri, version)
            with self.lock:
                document.needs_full_analysis = True
            return
        diagnostics = self._diagnostics_json(document, analysis.findings, lines, settings)
        with self.lock:
            if self.documents.get(uri) is not document:
                return  # closed (or reopened) meanwhile
            # The next incremental run starts from this result even if the text moved on: the pending
            # edit collected since `take_pending` is relative to exactly this text.
            document.analysis = analysis
            document.analysis_version = version
            document.analysis_lines = lines
            self.document_settings[uri] = settings
            is_newest = document.version == version
        logger.debug(
            "analysed %s version %s (%s) in %.1f ms: %d findings",
            uri, version, "whole file" if edit is None or previous is None else f"lines {edit.start + 1}-{edit.new_end + 1}",
            1000 * (time.perf_counter() - started), len(diagnostics),
        )
        for error in analysis.errors:
            logger.debug("%s:%s: %s", path, error.line or "", error.message)
        if is_newest:
            self.on_loop(self._publish_document, uri, document, version, diagnostics)

    def _diagnostics_json(self, document: Document, findings: list[Finding], lines: list[str], settings: Settings) -> list[str]:
        """On the worker: the diagnostics of `findings`, reusing the JSON of findings the engine carried over
        unchanged from the previous analysis (the same object means the same lines, so the same text)."""
        cache = document.diagnostic_cache
        # Only the documents being edited need their JSON kept; the others give their memory back.
        self._recent_caches.pop(document.uri, None)
        self._recent_caches[document.uri] = document
        while len(self._recent_caches) > RECENT_DOCUMENT_CACHES:
            oldest = next(iter(self._recent_caches))
            self._recent_caches.pop(oldest).diagnostic_cache = {}
        fresh: dict[int, tuple[Finding, str]] = {}
        diagnostics = []
        for finding in findings:
            cached = cache.get(id(finding))
            if cached is not None and cached[0] is finding:
                text = cached[1]
            else:
                text = convert.diagnostic_json(finding, lines, self.encoding, settings)
            fresh[id(finding)] = (finding, text)
            diagnostics.append(text)
        document.diagnostic_cache = fresh
        return diagnostics

    def _publish_document(self, uri: str, document: Document, version: int, diagnostics: list[str]) -> None:
        with self.lock:
            if self.documents.get(uri) is not document or document.version != version or document.analysis_version != version:
                return  # a newer version is on its way; never publish an older one
            document.published_version = version
        self.publish(uri, diagnostics, version)

    def publish(self, uri: str, diagnostics: list[str], version: int | None) -> None:
        """Send textDocument/publishDiagnostics (on the event loop thread) from diagnostics as JSON text."""
        self.send_json(convert.publish_diagnostics_message(uri, diagnostics, version))

    def send_json(self, body: str) -> None:
        """Write one JSON-RPC message that is already JSON text, framed as pygls frames its own."""
        writer = self.protocol.writer
        if writer is None:
            return
        data = body.encode("utf-8")
        if self.protocol._include_headers:
            data = b"Content-Length: %d\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" % len(data) + data
        try:
            result = writer.write(data)
            if inspect.isawaitable(result):
                asyncio.ensure_future(result)
        except (BrokenPipeError, ConnectionError, ValueError) as error:
            logger.warning("cannot send to the client: %s", error)

    def _analyze_file_on_disk(self, uri: str) -> None:
        from ascend_migrate.workspace import read_source

        with self.lock:
            if uri in self.documents:
                return
        path = _path_of(uri)
        settings = self.settings.for_path(path)
        try:
            text = read_source(Path(path))
        except (OSError, ValueError):
            self.on_loop(self.publish, uri, [], None)
            self.scan_diagnostics.pop(uri, None)
            return
        analysis = engine.analyze(text, path, settings, None, None)
        lines = split_lines(text)
        diagnostics = [convert.diagnostic_json(finding, lines, self.encoding, settings) for finding in analysis.findings]
        self.scan_diagnostics[uri] = diagnostics

        def publish_if_still_closed() -> None:
            with self.lock:
                if uri in self.documents:
                    return
            self.publish(uri, diagnostics, None)

        self.on_loop(publish_if_still_closed)

    def snapshot(self, uri: str) -> code_actions.DocumentSnapshot | None:
        """The current version of an open document, with its findings if they are of this version."""
        with self.lock:
            document = self.documents.get(uri)
            if document is None:
                return None
            current = document.analysis is not None and document.analysis_version == document.version
            return code_actions.DocumentSnapshot(
                uri=uri,
                version=document.version,
                text=document.text,
                lines=list(document.lines),
                findings=list(document.analysis.findings) if current else None,
                settings=self.document_settings.get(uri) or self.settings.for_path(document.path),
            )

    # --- settings ------------------------------------------------------------------------------------
    async def pull_configuration(self) -> None:
        """Ask for the `ascendMigrate` section: once for the whole workspace, once per workspace folder (a
        multi-root workspace may set them differently)."""
        workspace = self.client_capabilities.workspace
        if workspace is None or not workspace.configuration:
            return
        folders = [folder.uri for folder in self.workspace.folders.values()]
        items = [types.ConfigurationItem(section=CONFIGURATION_SECTION)]
        items += [types.ConfigurationItem(section=CONFIGURATION_SECTION, scope_uri=uri) for uri in folders]
        try:
            results = await self.workspace_configuration_async(types.ConfigurationParams(items=items))
        except Exception as error:  # a client that fails this request keeps the settings it gave before
            logger.warning("workspace/configuration failed: %s", error)
            return
        if results and isinstance(results[0], dict):
            self.apply_editor_settings(results[0])
        self.settings.forget_folders()
        for uri, result in zip(folders, (results or [])[1:]):
            path = path_of_uri(uri)
            if path and isinstance(result, dict):
                self.settings.update_editor(result, folder=Path(path))

    def apply_editor_settings(self, raw: Any) -> bool:
        if not self.settings.update_editor(raw):
            return False
        if self.settings.options.log_level is not None:
            logs.set_level(self.settings.options.log_level)
        return True


def _is_pollable_stream(stream: Any) -> bool:
    """Whether asyncio can watch `stream` for input: a FIFO, a socket or a terminal that epoll accepts.

    Other character devices (/dev/null) and regular files cannot be registered with epoll; asyncio would
    raise that inside the event loop, where nothing sees it, and the server would wait forever.
    """
    try:
        descriptor = stream.fileno()
        mode = os.fstat(descriptor).st_mode
    except (AttributeError, OSError, ValueError):
        return False
    if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or (stat.S_ISCHR(mode) and os.isatty(descriptor))):
        return False
    selector = selectors.DefaultSelector()
    try:
        selector.register(descriptor, selectors.EVENT_READ)
    except (OSError, ValueError):
        return False
    finally:
        selector.close()
    return True


class _EndTolerantReader:
    """asyncio's StreamReader as pygls' loop expects it: b"" at the end of input instead of an exception."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader

    async def readline(self) -> bytes:
        try:
            return await self._reader.readline()
        except ValueError:  # a "header" over 64 kB: asyncio has dropped it; the loop skips a line it cannot read
            return b"X-Dropped: header too long\r\n"

    async def readexactly(self, count: int) -> bytes:
        try:
            return await self._reader.readexactly(count)
        except asyncio.IncompleteReadError as error:
            return error.partial


def _is_python(language_id: str | None, uri: str) -> bool:
    """Whether to analyse a document: Python by its language id, or by its name when the client gives none."""
    if language_id:
        return language_id.lower() in ("python", "python3")
    return uri.endswith((".py", ".pyi"))


def _path_of(uri: str) -> str:
    path = path_of_uri(uri)
    return path if path is not None else ""


def _range_text(range_: types.Range) -> str:
    return f"{range_.start.line}:{range_.start.character}-{range_.end.line}:{range_.end.character}"


def create_server() -> AscendMigrateServer:
    server = AscendMigrateServer()
    _register_lifecycle(server)
    _register_features(server)
    from ascend_migrate.lsp import commands

    commands.register(server)
    return server


def _register_lifecycle(server: AscendMigrateServer) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(ls: AscendMigrateServer, params: types.InitializeParams) -> None:
        ls.bind_loop()
        encoding = ServerCapabilitiesBuilder.choose_position_encoding(params.capabilities)
        ls.encoding = getattr(encoding, "value", encoding)
        if params.initialization_options is not None:
            ls.apply_editor_settings(params.initialization_options)
        if not any(isinstance(handler, logs.ClientLogHandler) for handler in logs.logger.handlers):
            logs.logger.addHandler(logs.ClientLogHandler(ls.send_log))
        logger.info("ascend-migrate %s: position encoding %s", __version__, ls.encoding)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: AscendMigrateServer, params: types.InitializedParams) -> None:
        ls.worker.start(warm_up=lambda: _warm_up(ls))
        try:
            await ls.pull_configuration()
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


def _register_features(server: AscendMigrateServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: AscendMigrateServer, params: types.DidSaveTextDocumentParams) -> None:
        if params.text_document.uri.endswith("/" + PYPROJECT):
            ls.settings.forget_files()
            ls.reanalyze_all()

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched_files_changed(ls: AscendMigrateServer, params: types.DidChangeWatchedFilesParams) -> None:
        if any(change.uri.endswith("/" + PYPROJECT) for change in params.changes):
            ls.settings.forget_files()
            ls.reanalyze_all()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def configuration_changed(ls: AscendMigrateServer, params: types.DidChangeConfigurationParams) -> None:
        pushed = params.settings
        if isinstance(pushed, dict) and isinstance(pushed.get(CONFIGURATION_SECTION), dict):
            # A client that pushes its settings gives the whole picture: folder answers pulled before are stale.
            changed = ls.apply_editor_settings(pushed[CONFIGURATION_SECTION])
            if changed:
                ls.settings.forget_folders()
        else:
            # The pull model (VS Code sends null): ask for the section again.
            await ls.pull_configuration()
            changed = True
        if changed:
            ls.reanalyze_all()

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
            await ls.pull_configuration()
            ls.reanalyze_all()

        ls.background_tasks.add(task := asyncio.ensure_future(pull_and_reanalyze()))
        task.add_done_callback(ls.background_tasks.discard)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def on_hover(ls: AscendMigrateServer, params: types.HoverParams) -> types.Hover | None:
        return _hover(ls, params)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=code_actions.CODE_ACTION_KINDS, resolve_provider=True),
    )
    def on_code_action(ls: AscendMigrateServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        snapshot = ls.snapshot(params.text_document.uri)
        if snapshot is None:
            return None
        return code_actions.code_actions(snapshot, params, ls.encoding, ls.versioned_edits, ls.fix_all_edits,
                                         resolve_later=ls.resolves_code_action_edits)

    @server.feature(types.CODE_ACTION_RESOLVE)
    def on_code_action_resolve(ls: AscendMigrateServer, action: types.CodeAction) -> types.CodeAction:
        """Fill in fix-all's edit, against the document as it is now (its current findings); any other action
        is complete already."""
        data = action.data if isinstance(action.data, dict) else {}
        if action.kind != code_actions.FIX_ALL_KIND or action.edit is not None or not isinstance(data.get("uri"), str):
            return action
        snapshot = ls.snapshot(data["uri"])
        if snapshot is None or snapshot.findings is None:
            return action  # closed, or edited and not analysed yet: nothing that would be right to apply
        resolved = code_actions.resolve_fix_all(action, snapshot, ls.encoding, ls.versioned_edits, ls.fix_all_edits)
        return resolved if resolved is not None else action


def _hover(server: AscendMigrateServer, params: types.HoverParams) -> types.Hover | None:
    from ascend_migrate.kb.index import KnowledgeBase
    from ascend_migrate.kb.loader import KnowledgeBaseError

    with server.lock:
        document = server.documents.get(params.text_document.uri)
        if document is None:
            return None
        position, inside = document.position_from_client(params.position.line, params.position.character, server.encoding)
        if not inside:
            return None
        lines = list(document.lines)
        current = document.analysis is not None and document.analysis_version == document.version
        findings = list(document.analysis.findings) if current else []
        settings = server.document_settings.get(document.uri) or server.settings.for_path(document.path)
    line_number, column = position.line + 1, position.character + 1
    finding = _finding_at(findings, line_number, column)
    try:
        knowledge_base = KnowledgeBase.load()
    except KnowledgeBaseError:
        return None  # already reported to the user when the server tried to load it

    if finding is not None:
        entry = knowledge_base.by_key.get(finding.entry_key) if finding.entry_key else None
        text = hover.finding_markdown(finding, entry)
        start = convert.position(lines, finding.line, finding.column, server.encoding)
        end = convert.position(lines, finding.end_line, finding.end_column, server.encoding)
        return _markdown_hover(server, text, types.Range(start=start, end=end))
    content = lines[position.line].rstrip("\r\n")
    found = hover.name_at(content, position.character)
    if found is None:
        return None
    dotted, start_index, end_index = found
    qualified = hover.qualify(dotted, hover.import_aliases(lines))
    if qualified is None:
        return None
    text = hover.unflagged_markdown(qualified, settings.target, knowledge_base.lookup(qualified))
    if text is None:
        return None
    start = convert.position(lines, line_number, start_index + 1, server.encoding)
    end = convert.position(lines, line_number, end_index + 1, server.encoding)
    return _markdown_hover(server, text, types.Range(start=start, end=end))


def _markdown_hover(server: AscendMigrateServer, text: str, range_: types.Range) -> types.Hover:
    text_document = server.client_capabilities.text_document
    formats = text_document.hover.content_format if text_document is not None and text_document.hover is not None else None
    kind = types.MarkupKind.Markdown if not formats or types.MarkupKind.Markdown in formats else types.MarkupKind.PlainText
    return types.Hover(contents=types.MarkupContent(kind=kind, value=text), range=range_)


def _finding_at(findings: list[Finding], line: int, column: int) -> Finding | None:
    """The narrowest finding whose span contains (line, column); the column just past the end counts too."""
    best = None
    for finding in findings:
        if not (finding.line <= line <= finding.end_line):
            continue
        if line == finding.line and column < finding.column:
            continue
        if line == finding.end_line and column > finding.end_column:
            continue
        size = (finding.end_line - finding.line, finding.end_column - finding.column)
        if best is None or size < best[0]:
            best = (size, finding)
    return best[1] if best is not None else None


def uri_for(path: Path) -> str:
    return uri_of_path(path)


__all__ = ["AscendMigrateServer", "create_server", "settings_section", "uri_for"]
