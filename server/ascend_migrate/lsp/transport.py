"""The transport, and every touch of pygls' internals: reading and writing frames, the protocol's answers
where pygls 2.1 gives none, cancellation, shutdown.

Nothing else in the server reaches into pygls' private attributes: a new pygls that changes them breaks
this module only, and `tests/lsp/test_pygls_shape.py` (which checks each name in `RELIED_ON`) says so
loudly. What the protocol adds to pygls:

- A request whose params do not match the method's type gets an InvalidParams error response (pygls only
  logs it, so the client waits for ever); a notification like that is logged and dropped. A message with an
  id that is neither a request nor a response gets InvalidRequest.
- `$/cancelRequest` also reaches long-running handlers that registered a cancellation event.
- `exit` ends the process at once: code 0 after `shutdown`, else 1.
- didOpen/didChange/didClose go to the server's own document store (pygls' copy would be a second, slower
  copy of every open file, and it raises on out-of-range edits); so do the notebook documents' (LSP 3.17
  notebookDocument/didOpen/didChange/didSave/didClose, their cells being text documents in that store).
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import os
import re
import selectors
import stat
import sys
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, NoReturn, Protocol

from lsprotocol import types
from pygls.capabilities import ServerCapabilitiesBuilder
from pygls.exceptions import FeatureRequestError, JsonRpcException
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method

logger = logging.getLogger("ascend_migrate.lsp")

# (where, name, the parameters of a method or None for an attribute): the private or undocumented parts of
# pygls this module relies on. The shape test checks each of them, and that this module uses no other.
RELIED_ON: tuple[tuple[str, str, tuple[str, ...] | None], ...] = (
    ("pygls.protocol.JsonRPCProtocol", "_server", None),
    ("pygls.protocol.JsonRPCProtocol", "_shutdown", None),
    ("pygls.protocol.JsonRPCProtocol", "_include_headers", None),
    ("pygls.protocol.JsonRPCProtocol", "_request_futures", None),
    ("pygls.protocol.JsonRPCProtocol", "msg_id", None),
    ("pygls.protocol.JsonRPCProtocol", "writer", None),
    ("pygls.protocol.JsonRPCProtocol", "set_writer", ("self", "writer", "include_headers")),
    ("pygls.protocol.JsonRPCProtocol", "_send_response", ("self", "msg_id", "result", "error")),
    ("pygls.protocol.JsonRPCProtocol", "_handle_cancel_notification", ("self", "msg_id")),
    ("pygls.protocol.JsonRPCProtocol", "structure_message", ("self", "data")),
    ("pygls.protocol.JsonRPCProtocol", "handle_message", ("self", "message")),
    ("pygls.protocol.LanguageServerProtocol", "lsp_exit", ("self", "args")),
    ("pygls.protocol.LanguageServerProtocol", "lsp_text_document__did_open", ("self", "params")),
    ("pygls.protocol.LanguageServerProtocol", "lsp_text_document__did_change", ("self", "params")),
    ("pygls.protocol.LanguageServerProtocol", "lsp_text_document__did_close", ("self", "params")),
    ("pygls.protocol.LanguageServerProtocol", "lsp_notebook_document__did_open", ("self", "params")),
    ("pygls.protocol.LanguageServerProtocol", "lsp_notebook_document__did_change", ("self", "params")),
    ("pygls.protocol.LanguageServerProtocol", "lsp_notebook_document__did_close", ("self", "params")),
    ("pygls.server.JsonRPCServer", "_stop_event", None),
    ("pygls.server.JsonRPCServer", "_thread_pool", None),
    ("pygls.server.JsonRPCServer", "_server", None),
    ("pygls.server.JsonRPCServer", "report_server_error", ("self", "error", "source")),
    ("pygls.progress.Progress", "tokens", None),
    ("pygls.io_", "StdoutWriter", ("stdout",)),
    ("pygls.capabilities.ServerCapabilitiesBuilder", "choose_position_encoding", ("client_capabilities",)),
)


class DocumentSync(Protocol):
    """Where didOpen/didChange/didClose go instead of pygls' own document store."""

    def opened(self, params: types.DidOpenTextDocumentParams) -> None: ...

    def changed(self, params: types.DidChangeTextDocumentParams) -> None: ...

    def closed(self, params: types.DidCloseTextDocumentParams) -> None: ...

    def too_large(self, uri: str, size: int, version: int | None) -> None: ...


class NotebookSync(Protocol):
    """Where the notebookDocument/* notifications go instead of pygls' own workspace."""

    def opened(self, params: types.DidOpenNotebookDocumentParams) -> None: ...

    def changed(self, params: types.DidChangeNotebookDocumentParams) -> None: ...

    def saved(self, params: types.DidSaveNotebookDocumentParams) -> None: ...

    def closed(self, params: types.DidCloseNotebookDocumentParams) -> None: ...

    def schedule(self, uri: str) -> None: ...


# The notebooks whose cells the server analyses: any notebook type, its Python cells (VS Code's Jupyter
# notebooks say "jupyter-notebook"; other clients other names).
NOTEBOOK_SYNC = types.NotebookDocumentSyncOptions(
    notebook_selector=[types.NotebookDocumentFilterWithCells(cells=[types.NotebookCellLanguage(language="python")], notebook="*")],
    save=True,
)


@dataclass(frozen=True)
class _Undecodable:
    """A message that cannot be handled: params that do not fit the method's type, or no valid shape at all."""

    id: Any
    method: str
    reason: str
    is_request: bool
    code: int = types.ErrorCodes.InvalidParams


def _describe(error: BaseException) -> str:
    cause = error.__cause__
    if cause is not None:
        try:
            from cattrs import transform_error

            details = transform_error(cause)
            if details:
                return "; ".join(details[:5])
        except Exception:  # an error this function cannot describe still gets a response
            pass
        return str(cause)
    return str(error)


def _invalid_request(data: dict[str, Any]) -> _Undecodable | None:
    """A message with an id that is neither a request nor a response (JSON-RPC: Invalid Request, -32600)."""
    if "id" not in data:
        return None
    message_id = data["id"] if isinstance(data["id"], (str, int)) and not isinstance(data["id"], bool) else None
    method = data.get("method")
    if "method" in data and not isinstance(method, str):
        reason = f"the method must be a string, got {method!r}"
    elif "method" not in data and "result" not in data and "error" not in data:
        reason = "a message with an id needs a method (a request) or a result or error (a response)"
    else:
        return None
    return _Undecodable(message_id, str(method), reason, True, types.ErrorCodes.InvalidRequest)


class AscendMigrateProtocol(LanguageServerProtocol):
    _server: TransportServer  # pygls keeps the server it was made for here; ours is always a TransportServer

    def __init__(self, server, converter) -> None:
        super().__init__(server, converter)
        self.cancellation_lock = threading.Lock()
        self.cancellations: dict[Any, threading.Event] = {}

    # --- requests the client cancels -------------------------------------------------------------
    def cancellation_event(self, message_id: Any) -> threading.Event:
        """An event set when the client cancels request `message_id`; forget it with `forget_cancellation`."""
        event = threading.Event()
        with self.cancellation_lock:
            self.cancellations[message_id] = event
        return event

    def forget_cancellation(self, message_id: Any) -> None:
        with self.cancellation_lock:
            self.cancellations.pop(message_id, None)

    def _handle_cancel_notification(self, msg_id):
        with self.cancellation_lock:
            event = self.cancellations.get(msg_id)
        if event is not None:
            event.set()
        if msg_id in self._request_futures:
            super()._handle_cancel_notification(msg_id)

    # --- params that do not fit ------------------------------------------------------------------
    def structure_message(self, data: dict[str, Any]):
        if isinstance(data, dict) and "jsonrpc" in data:
            invalid = _invalid_request(data)
            if invalid is not None:
                return invalid
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            if isinstance(data, dict) and "method" in data:
                return _Undecodable(data.get("id"), str(data["method"]), _describe(error), "id" in data)
            raise

    def handle_message(self, message):
        if isinstance(message, _Undecodable):
            if message.is_request:
                logger.warning("request %s (%s): %s", message.id, message.method, message.reason)
                if message.code == types.ErrorCodes.InvalidParams:
                    text = f"invalid params for {message.method}: {message.reason}"
                else:
                    text = f"invalid request: {message.reason}"
                self._send_response(message.id, error=types.ResponseError(code=message.code, message=text))
            else:
                logger.warning("ignored notification %s with invalid params: %s", message.method, message.reason)
            return
        super().handle_message(message)

    # --- exit ------------------------------------------------------------------------------------
    @lsp_method(types.EXIT)
    def lsp_exit(self, *args):
        code = 0 if self._shutdown else 1
        if code:
            logger.warning("exit without shutdown: exiting with code 1")
        exit_process(code)

    # --- documents -------------------------------------------------------------------------------
    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):
        self._server.document_sync.opened(params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        self._server.document_sync.changed(params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):
        self._server.document_sync.closed(params)

    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def lsp_notebook_document__did_open(self, params: types.DidOpenNotebookDocumentParams):
        self._server.notebook_sync.opened(params)

    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def lsp_notebook_document__did_change(self, params: types.DidChangeNotebookDocumentParams):
        self._server.notebook_sync.changed(params)

    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    def lsp_notebook_document__did_save(self, params: types.DidSaveNotebookDocumentParams):
        self._server.notebook_sync.saved(params)

    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def lsp_notebook_document__did_close(self, params: types.DidCloseNotebookDocumentParams):
        self._server.notebook_sync.closed(params)


class TransportServer(LanguageServer):
    """pygls' language server with our protocol, our stdio reader, raw JSON writes and a quick shutdown."""

    document_sync: DocumentSync
    notebook_sync: NotebookSync
    protocol: AscendMigrateProtocol  # made by pygls from protocol_cls below

    def __init__(self, name: str, version: str) -> None:
        super().__init__(
            name,
            version,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            notebook_document_sync=NOTEBOOK_SYNC,
            protocol_cls=AscendMigrateProtocol,
            max_workers=4,
        )
        self.stopping = threading.Event()

    # --- what handlers may ask of the transport ----------------------------------------------------
    @property
    def connected(self) -> bool:
        return self.protocol.writer is not None and not self.stopping.is_set()

    @property
    def shutdown_requested(self) -> bool:
        """Whether the client sent `shutdown` (the exit code is 0 only then)."""
        return bool(self.protocol._shutdown)

    def current_request_id(self) -> Any:
        """The id of the request whose handler is running (in that handler's context)."""
        return self.protocol.msg_id

    def cancellation_event(self, message_id: Any) -> threading.Event:
        return self.protocol.cancellation_event(message_id)

    def forget_cancellation(self, message_id: Any) -> None:
        self.protocol.forget_cancellation(message_id)

    def progress_cancelled(self, token: types.ProgressToken) -> bool:
        """Whether the client cancelled the work-done progress `token`."""
        future = self.work_done_progress.tokens.get(token)
        return future is not None and future.cancelled()

    @staticmethod
    def position_encoding(capabilities: types.ClientCapabilities) -> str:
        """The position encoding to use with a client of these capabilities (pygls picks it, as it announces it)."""
        encoding = ServerCapabilitiesBuilder.choose_position_encoding(capabilities)
        return getattr(encoding, "value", encoding)

    # --- writing ---------------------------------------------------------------------------------
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
            self.report_internal_error(f"ascend-migrate: internal error: {error} (the server log has the details)")

    def report_internal_error(self, message: str) -> None:
        """Shows `message` to the user (once); the application decides how."""
        logger.error("%s", message)

    # --- reading ---------------------------------------------------------------------------------
    def start_io(self, stdin: Any = None, stdout: Any = None) -> None:
        """Serve on stdin/stdout.

        A pipe, socket or terminal is read on the event loop with asyncio's pipe reader (pygls reads each
        header line and body on a pool thread, three thread hops per message, so a burst of keystrokes queues
        up in the pipe); anything else (a regular file, /dev/null, which epoll cannot watch) is read on a thread.
        """
        source = stdin or sys.stdin.buffer
        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))

        async def serve() -> None:
            loop = asyncio.get_running_loop()
            read: Callable[[int], Awaitable[bytes]]
            if _is_pollable_stream(source):
                stream = asyncio.StreamReader()
                await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stream), source)
                read = stream.read
            else:
                read_some = getattr(source, "read1", source.read)

                def read_in_executor(count: int) -> Awaitable[bytes]:
                    return loop.run_in_executor(None, read_some, count)

                read = read_in_executor

            await self.serve_frames(FrameReader(read))

        try:
            asyncio.run(serve())
        except BrokenPipeError:
            logger.error("the connection to the client is lost")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

    def start_tcp(self, host: str, port: int, token: str = "", token_file: str = "") -> None:
        """Serve one client on a loopback TCP port. The first message of a connection must be `initialize`
        with the token (`tcp_token`) in its initializationOptions; any other connection is answered with
        an error and closed, and so is every connection while a client is being served. The server ends
        when its client disconnects."""
        from ascend_migrate.lsp.tcp_token import presented_token, token_matches

        self._stop_event = threading.Event()
        state: dict[str, Any] = {"client": None}

        def refuse(writer: asyncio.StreamWriter, message_id: Any, reason: str) -> None:
            logger.warning("refused a TCP connection: %s", reason)
            error = {"jsonrpc": "2.0", "id": message_id, "error": {"code": types.ErrorCodes.InvalidRequest, "message": reason}}
            body = json.dumps(error).encode("utf-8")
            writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            writer.close()

        async def connection(stream: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            reader = FrameReader(stream.read)
            try:
                first = await asyncio.wait_for(reader.first_body(), timeout=TCP_GREETING_SECONDS)
            except asyncio.TimeoutError:
                first = None
            message_id, presented = presented_token(first or b"")
            if first is None or not token_matches(presented, token):  # no first message: no token either
                refuse(writer, message_id, f"this server needs the token in {token_file or 'its token file'} as initializationOptions.token in `initialize`")
                return
            if state["client"] is not None:
                refuse(writer, message_id, "another client is connected to this server")
                return
            state["client"] = writer
            logger.info("a client connected over TCP")
            self.protocol.set_writer(writer)
            self.handle_body(first, reader)
            await self.serve_frames(reader)
            logger.info("the TCP client disconnected")
            self.shutdown()

        async def serve() -> None:
            self._server = await asyncio.start_server(connection, host, port)
            addresses = ", ".join(str(sock.getsockname()[:2]) for sock in self._server.sockets)
            logger.info("listening on %s; a client sends the token in %s as initializationOptions.token", addresses, token_file)
            async with self._server:
                await self._server.serve_forever()

        try:
            asyncio.run(serve())
        except (asyncio.CancelledError, KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

    async def serve_frames(self, reader: FrameReader, gate: Callable[[bytes], bool] | None = None) -> None:
        """Handle every message `reader` gives until the input ends or the server stops. `gate(body)` (if
        given) sees the first message's body and may refuse the connection."""
        async for body in reader.frames(self.frame_problem, self.frame_too_large):
            if self._stop_event is not None and self._stop_event.is_set():
                return
            if gate is not None:
                if not gate(body):
                    return
                gate = None
            self.handle_body(body, reader)

    def handle_body(self, body: bytes, reader: FrameReader) -> None:
        """Decode and handle one message. A body that is a whole JSON value followed by more bytes (its
        Content-Length was too long) is handled, and the rest read again as the start of the next frame."""
        try:
            message = json.loads(body, object_hook=self.protocol.structure_message)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            message, rest = _leading_message(body, self.protocol.structure_message)
            if message is None:
                # The next frame may have started inside what was read as this body.
                start = body.lower().find(b"content-length")
                if start > 0:
                    reader.unread(body[start:])
                self.frame_problem(str(error), f"its body is not JSON ({error})")
                return
            logger.warning("a frame's Content-Length of %d ran %d bytes past its message; they are read again", len(body), len(rest))
            reader.unread(rest)
        except Exception as error:  # a message pygls cannot make anything of: it says why
            logger.exception("unable to read a message")
            self.report_server_error(error, JsonRpcException)
            return
        try:
            self.protocol.handle_message(message)
        except Exception as error:
            logger.exception("unable to handle a message")
            self.report_server_error(error, JsonRpcException)

    def frame_problem(self, problem: str, logged: str | None = None) -> None:
        """A frame that cannot be read: logged, and answered with the JSON-RPC parse error (id null)."""
        logger.warning("dropped a frame: %s; reading on from the next Content-Length header", logged or problem)
        self.send_json(json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": types.ErrorCodes.ParseError, "message": f"Parse error: {problem}"}}))

    def frame_too_large(self, head: bytes, length: int) -> None:
        """A frame over MAX_MESSAGE_BYTES, skipped unread: a request is answered with an error, a document
        notification reaches `document_too_large` (from the first bytes, the only ones looked at)."""
        text = head.decode("utf-8", "replace")
        method = _JSON_METHOD.search(text)
        message_id = _JSON_ID.search(text)
        uri = _JSON_URI.search(text)
        problem = f"a message of {length} bytes is over the limit of {MAX_MESSAGE_BYTES} bytes"
        logger.warning("skipped a frame: %s (%s)", problem, method.group(1) if method else "no method seen")
        if message_id is not None and method is not None:
            self.protocol._send_response(json.loads(message_id.group(1)), error=types.ResponseError(code=types.ErrorCodes.InvalidRequest, message=problem))
        elif method is not None and uri is not None and method.group(1) in (types.TEXT_DOCUMENT_DID_OPEN, types.TEXT_DOCUMENT_DID_CHANGE):
            version = _JSON_VERSION.search(text)
            self.document_sync.too_large(json.loads(f'"{uri.group(1)}"'), length, int(version.group(1)) if version else None)
        else:
            self.frame_problem(problem)

    def shutdown(self) -> None:
        """Stop without waiting for running jobs (a scan thread must not hold the process after stdin closes)."""
        self.stopping.set()
        self.stop_jobs()
        if self._stop_event is not None:
            self._stop_event.set()
        if self._thread_pool is not None:
            self._thread_pool.shutdown(wait=False, cancel_futures=True)
        if self._server is not None:
            self._server.close()

    def stop_jobs(self) -> None:
        """Stops the application's own background work; the application says what that is."""


_EXIT_HOOKS: list[Callable[[], None]] = []


def on_exit(hook: Callable[[], None]) -> None:
    """Run `hook` when the process ends through `exit_process` (which skips `finally` blocks and atexit)."""
    _EXIT_HOOKS.append(hook)


def exit_process(code: int) -> NoReturn:
    """End the process now, output flushed: threads still running (a scan) must not keep it alive."""
    for hook in _EXIT_HOOKS:
        try:
            hook()
        except Exception:  # ending must not fail
            logger.exception("cleaning up at exit failed")
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


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


MAX_MESSAGE_BYTES = 96 * 1024 * 1024  # the JSON of a 32 MiB document (the analysis limit) with room for escapes
TCP_GREETING_SECONDS = 10  # a TCP connection that has not sent its `initialize` by then is closed
MAX_HEADER_LINE = 64 * 1024  # longer "header lines" are garbage; only their tail is kept, to find the next header
TOO_LARGE = "over the size limit"
_HEADER = re.compile(rb"content-length[ \t]*:[ \t]*([^\r\n]*?)[ \t]*\r?\n\Z", re.IGNORECASE)
_JSON_METHOD = re.compile(r'"method"\s*:\s*"([^"\\]*)"')
_JSON_ID = re.compile(r'"id"\s*:\s*(-?\d{1,15}|"[^"\\]{0,200}")')
_JSON_VERSION = re.compile(r'"version"\s*:\s*(\d{1,15})')
_JSON_URI = re.compile(r'"uri"\s*:\s*"((?:[^"\\]|\\.){1,8000})"')


class FrameReader:
    """LSP frames from a byte stream, tolerant of what clients get wrong, and never deaf for good.

    Read leniently: a header's name in any case, spaces before the colon, LF-only line ends. A frame that
    cannot be read (no Content-Length, one that is not a number, one over MAX_MESSAGE_BYTES, a body that is
    not JSON) is reported, and reading goes on from the next line that holds a Content-Length header, even
    one glued to the end of the bad frame's body. Memory stays bounded: a body is read only when it is
    within the limit, and a line is never kept beyond MAX_HEADER_LINE.
    """

    def __init__(self, read: Callable[[int], Awaitable[bytes]]) -> None:
        self.read = read  # read(n): up to n bytes, b"" at the end of the input
        self.buffer = bytearray()
        self.ended = False

    async def first_body(self) -> bytes | None:
        """The first message's body, or None if the input ends (or a frame cannot be read) first."""
        async for body in self.frames(lambda problem: None, lambda head, length: None):
            return body
        return None

    def unread(self, data: bytes) -> None:
        """Put `data` back in front of what is still to be read."""
        self.buffer[:0] = data

    async def fill(self) -> bool:
        if self.ended:
            return False
        try:
            chunk = await self.read(1 << 16)
        except (ConnectionError, OSError) as error:
            logger.warning("reading from the client failed: %s", error)
            chunk = b""
        if not chunk:
            self.ended = True
            return False
        self.buffer += chunk
        return True

    async def readline(self) -> bytes | None:
        """The next line with its line end (None at the end of the input); of an overlong line, its tail."""
        searched = 0
        while True:
            index = self.buffer.find(b"\n", searched)
            if index >= 0:
                line = bytes(self.buffer[:index + 1])
                del self.buffer[:index + 1]
                return line
            if len(self.buffer) > MAX_HEADER_LINE:
                del self.buffer[:-256]  # the tail may hold the start of the next header
            searched = len(self.buffer)
            if not await self.fill():
                line = bytes(self.buffer)
                self.buffer.clear()
                return line or None

    async def readexactly(self, count: int) -> bytes | None:
        while len(self.buffer) < count:
            if not await self.fill():
                return None
        data = bytes(self.buffer[:count])
        del self.buffer[:count]
        return data

    async def frames(self, problem: Callable[[str], None], too_large: Callable[[bytes, int], None]) -> AsyncIterator[bytes]:
        """Every body; `problem(text)` for a frame that cannot be read, `too_large(head, length)` for one
        over the limit (with what is already read of it, at most 4 kB)."""
        length: int | None = None  # of the frame whose headers are being read
        trouble: str | None = None  # what is wrong with them
        seen = False  # whether any header line of this frame has been read
        hunting = False  # after a bad frame: skipping to the next line with a Content-Length header
        while True:
            line = await self.readline()
            if line is None:
                return
            match = _HEADER.search(line)
            if match is not None:
                if match.start() > 0 and not hunting:
                    logger.warning("skipped %d bytes before a Content-Length header (frame out of step)", match.start())
                hunting, seen = False, True
                value = match.group(1)
                length, trouble = None, None
                if value.isdigit() and len(value) < 20 and 0 < int(value) <= MAX_MESSAGE_BYTES:
                    length = int(value)
                elif value.isdigit() and int(value) > 0:
                    trouble, length = TOO_LARGE, int(value)
                else:
                    trouble = f"its Content-Length {value.decode('ascii', 'replace')!r} is not a positive number"
                continue
            if hunting:
                continue
            if line.strip():
                seen = True
                if b":" not in line and trouble is None:
                    trouble = f"a header line without a colon: {line[:60]!r}"
                continue  # Content-Type and the like
            if not seen:
                continue  # a stray blank line between frames
            # The blank line that ends the headers.
            frame_length, frame_trouble = length, trouble
            length, trouble, seen = None, None, False
            if frame_trouble is TOO_LARGE and frame_length is not None:
                if not self.buffer:
                    await self.fill()
                too_large(bytes(self.buffer[:4096]), frame_length)
                hunting = True
            elif frame_trouble is not None or frame_length is None:
                problem(frame_trouble or "a frame without a Content-Length header")
                hunting = True
            else:
                body = await self.readexactly(frame_length)
                if body is None:
                    return
                yield body


def _leading_message(body: bytes, object_hook: Callable[[dict[str, Any]], Any]) -> tuple[Any, bytes]:
    """The JSON value at the start of `body` (None if there is none) and the bytes after it."""
    try:
        text = body.decode("utf-8")
        message, end = json.JSONDecoder(object_hook=object_hook).raw_decode(text)
    except Exception:  # not JSON, or JSON pygls cannot make a message of: the frame is dropped
        return None, b""
    rest = text[end:]
    if not rest.strip():
        return message, b""
    return message, rest.lstrip(" \t\r\n").encode("utf-8")
