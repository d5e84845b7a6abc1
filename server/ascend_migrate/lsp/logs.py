"""Logging for the server: our records to stderr and to the client's `window/logMessage`; pygls kept quiet."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from lsprotocol import types

LEVELS = {"error": logging.ERROR, "warning": logging.WARNING, "info": logging.INFO, "debug": logging.DEBUG}
_MESSAGE_TYPES = {
    logging.ERROR: types.MessageType.Error,
    logging.WARNING: types.MessageType.Warning,
    logging.INFO: types.MessageType.Info,
    logging.DEBUG: types.MessageType.Log,
}
logger = logging.getLogger("ascend_migrate")


class ClientLogHandler(logging.Handler):
    """Sends records to the client as window/logMessage, through `send` (which must be thread-safe)."""

    def __init__(self, send: Callable[[types.LogMessageParams], None]) -> None:
        super().__init__()
        self._send = send
        self.setFormatter(logging.Formatter("%(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message_type = _MESSAGE_TYPES.get(record.levelno, types.MessageType.Error if record.levelno > logging.ERROR else types.MessageType.Log)
            self._send(types.LogMessageParams(type=message_type, message=self.format(record)))
        except Exception:  # logging must never take the server down
            self.handleError(record)


def configure(level: str) -> None:
    """stderr logging at `level` for ascend_migrate; pygls (which logs every message at INFO) at WARNING."""
    logger.setLevel(LEVELS.get(level, logging.INFO))
    logger.propagate = False
    if not any(isinstance(handler, logging.StreamHandler) and getattr(handler, "stream", None) is sys.stderr for handler in logger.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("ascend-migrate %(levelname)s: %(message)s"))
        logger.addHandler(handler)
    pygls_logger = logging.getLogger("pygls")
    pygls_logger.setLevel(logging.WARNING)
    if not pygls_logger.handlers:
        pygls_handler = logging.StreamHandler(sys.stderr)
        pygls_handler.setFormatter(logging.Formatter("pygls %(levelname)s: %(message)s"))
        pygls_logger.addHandler(pygls_handler)
        pygls_logger.propagate = False


def set_level(level: str) -> None:
    logger.setLevel(LEVELS.get(level, logging.INFO))
