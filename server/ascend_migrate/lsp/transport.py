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
  copy of every open file, and it raises on out-of-range edits).
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
from dataclasses import dataclass
from typing import Any, Protocol

from lsprotocol import types
from pygls.capabilities import ServerCapabilitiesBuilder
from pygls.exceptions import FeatureRequestError, JsonRpcException
from pygls.io_ import StdoutWriter, run_async
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
    ("pygls.server.JsonRPCServer", "_stop_event", None),
    ("pygls.server.JsonRPCServer", "_thread_pool", None),
    ("pygls.server.JsonRPCServer", "_server", None),
    ("pygls.server.JsonRPCServer", "report_server_error", ("self", "error", "source")),
    ("pygls.progress.Progress", "tokens", None),
    ("pygls.io_", "run_async", ("stop_event", "reader", "protocol", "logger", "error_handler")),
    ("pygls.io_", "StdoutWriter", ("stdout",)),
    ("pygls.capabilities.ServerCapabilitiesBuilder", "choose_position_encoding", ("client_capabilities",)),
)


class DocumentSync(Protocol):
    """Where didOpen/didChange/didClose go instead of pygls' own document store."""

    def opened(self, params: types.DidOpenTextDocumentParams) -> None: ...

    def changed(self, params: types.DidChangeTextDocumentParams) -> None: ...

    def closed(self, params: types.DidCloseTextDocumentParams) -> None: ...


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

            details = transform_error(cause)  # type: ignore[arg-type]
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


class TransportServer(LanguageServer):
    """pygls' language server with our protocol, our stdio reader, raw JSON writes and a quick shutdown."""

    document_sync: DocumentSync

    def __init__(self, name: str, version: str) -> None:
        super().__init__(
            name,
            version,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
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
        self.stop_jobs()
        if self._stop_event is not None:
            self._stop_event.set()
        if self._thread_pool is not None:
            self._thread_pool.shutdown(wait=False, cancel_futures=True)
        if self._server is not None:
            self._server.close()

    def stop_jobs(self) -> None:
        """Stops the application's own background work; the application says what that is."""


def exit_process(code: int) -> None:
    """End the process now, output flushed: threads still running (a scan) must not keep it alive."""
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


class _EndTolerantReader:
    """asyncio's StreamReader as pygls' loop expects it: b"" at the end of input instead of an exception."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self.reader = reader

    async def readline(self) -> bytes:
        try:
            return await self.reader.readline()
        except ValueError:  # a "header" over 64 kB: asyncio has dropped it; the loop skips a line it cannot read
            return b"X-Dropped: header too long\r\n"

    async def readexactly(self, count: int) -> bytes:
        try:
            return await self.reader.readexactly(count)
        except asyncio.IncompleteReadError as error:
            return error.partial
