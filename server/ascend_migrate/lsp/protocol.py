"""pygls' protocol with the answers LSP asks for where pygls 2.1 gives none.

- A request whose params do not match the method's type gets an InvalidParams error response (pygls only
  logs it, so the client waits for ever); a notification like that is logged and dropped. A message with an
  id that is neither a request nor a response gets InvalidRequest.
- `$/cancelRequest` also reaches long-running handlers that registered a cancellation event.
- `exit` ends the process at once: code 0 after `shutdown`, else 1.
- didOpen/didChange/didClose go to the server's own document store (pygls' copy would be a second, slower
  copy of every open file, and it raises on out-of-range edits).
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from dataclasses import dataclass
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.protocol import LanguageServerProtocol, lsp_method

logger = logging.getLogger("ascend_migrate.lsp")


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
        self._cancellation_lock = threading.Lock()
        self._cancellations: dict[Any, threading.Event] = {}

    # --- requests the client cancels -------------------------------------------------------------
    def cancellation_event(self, message_id: Any) -> threading.Event:
        """An event set when the client cancels request `message_id`; forget it with `forget_cancellation`."""
        event = threading.Event()
        with self._cancellation_lock:
            self._cancellations[message_id] = event
        return event

    def forget_cancellation(self, message_id: Any) -> None:
        with self._cancellation_lock:
            self._cancellations.pop(message_id, None)

    def _handle_cancel_notification(self, msg_id):
        with self._cancellation_lock:
            event = self._cancellations.get(msg_id)
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
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)

    # --- documents -------------------------------------------------------------------------------
    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):
        self._server.documents_opened(params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        self._server.documents_changed(params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):
        self._server.documents_closed(params)
