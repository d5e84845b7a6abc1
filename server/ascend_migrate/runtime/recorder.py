"""What the child observes, where in the user's code, written to the parent as JSON lines as it happens."""

from __future__ import annotations

import json
import os
import sys
import threading
import types
from pathlib import Path

_RUNTIME_DIRECTORY = os.path.dirname(os.path.abspath(__file__))
# Frames in these files are the emulation's or the framework's, never the user's call site.
_INTERNAL_PREFIXES: tuple[str, ...] = (_RUNTIME_DIRECTORY + os.sep,)
_INTERNAL_NAMES = ("<frozen ", "<string>")
STACK_DEPTH = 5  # user frames kept for a call stack


def add_internal_directory(directory: str) -> None:
    """Frames under `directory` (the torch package) are not user code."""
    global _INTERNAL_PREFIXES
    _INTERNAL_PREFIXES = (*_INTERNAL_PREFIXES, os.path.abspath(directory) + os.sep)


def is_internal(filename: str) -> bool:
    return filename.startswith(_INTERNAL_PREFIXES) or filename.startswith(_INTERNAL_NAMES) or filename == __file__


def user_caller(depth: int = 2):
    """The frame that called the watched function, if it is user code (not torch, not us), else None."""
    frame: types.FrameType | None = sys._getframe(depth)
    while frame is not None and frame.f_code.co_filename == __file__:
        frame = frame.f_back
    if frame is None or is_internal(frame.f_code.co_filename):
        return None
    return frame


def first_user_frame():
    """The innermost frame of user code on the stack (an import statement reaches us through importlib's frames)."""
    frame: types.FrameType | None = sys._getframe(1)
    while frame is not None and (is_internal(frame.f_code.co_filename) or frame.f_code.co_filename.endswith("runpy.py")):
        frame = frame.f_back
    return frame


def call_stack(frame) -> list[str]:
    """`file:line in function` of the user frames from `frame` outwards (runpy and the child are cut off)."""
    stack: list[str] = []
    while frame is not None and len(stack) < STACK_DEPTH:
        filename = frame.f_code.co_filename
        if not is_internal(filename) and not filename.endswith(("runpy.py",)):
            stack.append(f"{filename}:{frame.f_lineno} in {frame.f_code.co_name}")
        frame = frame.f_back
    return stack


def stack_key(frame) -> tuple:
    """(file, line) of the user frames from `frame` outwards, as `call_stack` lists them: a call site's identity."""
    key: list[tuple[str, int]] = []
    while frame is not None and len(key) < STACK_DEPTH:
        filename = frame.f_code.co_filename
        if not is_internal(filename) and not filename.endswith("runpy.py"):
            key.append((filename, frame.f_lineno))
        frame = frame.f_back
    return tuple(key)


class Recorder:
    """Appends one JSON object a line to the observations file; each call site and kind is written once."""

    def __init__(self, path: Path) -> None:
        self._handle = open(path, "a", encoding="utf-8")
        self._lock = threading.Lock()
        self._seen: dict[tuple, int] = {}

    def observe(self, kind: str, api: str, frame, **observed) -> None:
        """Record `kind` (cuda-call, unsupported-call, device-string, ...) of `api` at the user `frame`."""
        key = (kind, api, frame.f_code.co_filename, frame.f_lineno)
        with self._lock:
            count = self._seen.get(key, 0) + 1
            self._seen[key] = count
            if count > 1:
                return  # once per site: the parent reports a site once, and a loop must not flood the file
            self._write({"kind": kind, "api": api, "path": frame.f_code.co_filename, "line": frame.f_lineno,
                         "function": frame.f_code.co_name, "stack": call_stack(frame), "observed": observed})

    def write(self, record: dict) -> None:
        with self._lock:
            self._write(record)

    def _write(self, record: dict) -> None:
        self._handle.write(json.dumps(record, default=str) + "\n")
        self._handle.flush()  # a killed child (timeout) still leaves what it saw

    def close(self) -> None:
        with self._lock:
            self._handle.close()
