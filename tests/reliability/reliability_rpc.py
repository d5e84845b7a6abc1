"""A raw JSON-RPC client over the server's stdio: sends exactly the bytes a test gives, malformed or not.

pytest-lsp's client serialises and validates what it sends, so it cannot send broken frames or params of
the wrong shape; this one can. A reader thread collects every message the server writes, so a test never
deadlocks on a full pipe, and the server's stderr goes to a file the test can read.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
TEST_MAPPINGS = HERE.parent / "fixtures" / "mappings"
SERVER_COMMAND = [sys.executable, "-m", "ascend_migrate", "serve", "--stdio", "--log-level", "debug"]
# The console script, as a user's shell or an editor configured with `ascend-migrate serve` starts it.
CONSOLE_SERVER_COMMAND = [str(Path(sys.executable).with_name("ascend-migrate")), "serve", "--stdio", "--log-level"]
TIMEOUT = 30.0  # a guard against a hung server, not a speed requirement


def frame(message: dict[str, Any] | list | str | int) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def server_environment(mappings: Path | None = TEST_MAPPINGS) -> dict[str, str]:
    environment = dict(os.environ)
    environment.pop("ASCEND_MIGRATE_MAPPINGS", None)
    if mappings is not None:
        environment["ASCEND_MIGRATE_MAPPINGS"] = str(mappings)
    return environment


class RawServer:
    """`ascend-migrate serve --stdio` in a subprocess, spoken to in raw bytes."""

    def __init__(self, environment: dict[str, str] | None = None, cwd: Path | None = None, log_level: str = "debug",
                 command: list[str] | None = None) -> None:
        command = (command or SERVER_COMMAND[:-1]) + [log_level]
        self._stderr = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
            env=environment or server_environment(), cwd=cwd,
        )
        self.pid = self.process.pid
        self.received: list[dict[str, Any]] = []
        self._arrivals: queue.Queue = queue.Queue()
        self._lock = threading.Lock()
        self._next_id = 1000
        self.output_closed = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    # --- reading ---------------------------------------------------------------------------------
    def _read(self) -> None:
        stream = self.process.stdout
        try:
            while True:
                length = None
                while True:
                    header = stream.readline()
                    if not header:
                        return
                    if header == b"\r\n":
                        break
                    name, _, value = header.decode("ascii").partition(":")
                    if name.lower() == "content-length":
                        length = int(value)
                message = json.loads(stream.read(length))
                with self._lock:
                    self.received.append(message)
                self._arrivals.put(None)
        finally:
            self.output_closed.set()
            self._arrivals.put(None)

    def wait_for(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = TIMEOUT, what: str = "a message") -> dict[str, Any]:
        """The first message received (so far or later) that satisfies `predicate`."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                for message in self.received:
                    if predicate(message):
                        return message
            remaining = deadline - time.monotonic()
            if remaining <= 0 or (self.output_closed.is_set() and self._arrivals.empty()):
                raise AssertionError(f"no {what} from the server (exit code {self.process.poll()}); stderr:\n{self.stderr()[-3000:]}")
            try:
                self._arrivals.get(timeout=min(remaining, 0.5))
            except queue.Empty:
                pass

    def response(self, message_id: Any, timeout: float = TIMEOUT) -> dict[str, Any]:
        return self.wait_for(lambda m: m.get("id") == message_id and "method" not in m, timeout, f"response to {message_id!r}")

    def notifications(self, method: str) -> list[dict[str, Any]]:
        with self._lock:
            return [message for message in self.received if message.get("method") == method]

    def log_messages(self) -> list[str]:
        return [m["params"]["message"] for m in self.notifications("window/logMessage") + self.notifications("window/showMessage")]

    def stderr(self) -> str:
        self._stderr.seek(0)
        return self._stderr.read().decode("utf-8", "replace")

    # --- writing ---------------------------------------------------------------------------------
    def send_bytes(self, data: bytes) -> None:
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message: Any) -> None:
        self.send_bytes(frame(message))

    def request(self, method: str, params: Any = None) -> int:
        self._next_id += 1
        self.send({"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params})
        return self._next_id

    def call(self, method: str, params: Any = None, timeout: float = TIMEOUT) -> dict[str, Any]:
        return self.response(self.request(method, params), timeout)

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    # --- the usual conversation ------------------------------------------------------------------
    def initialize(self, options: dict[str, Any] | None = None, capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
        result = self.call("initialize", {
            "processId": os.getpid(), "rootUri": None, "capabilities": capabilities or {},
            "initializationOptions": options or {"target": "npu"},
        })["result"]
        self.notify("initialized", {})
        return result

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": version, "text": text}})

    def change(self, uri: str, version: int, changes: list[dict[str, Any]]) -> None:
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": changes})

    def close_document(self, uri: str) -> None:
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    def diagnostics(self, uri: str, version: int | None, timeout: float = TIMEOUT) -> list[dict[str, Any]]:
        """The last diagnostics published for `uri` at `version` (waiting for the first)."""
        def matches(message: dict[str, Any]) -> bool:
            return (message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri
                    and message["params"].get("version") == version)
        self.wait_for(matches, timeout, f"diagnostics for {uri} version {version}")
        with self._lock:
            return [m for m in self.received if matches(m)][-1]["params"]["diagnostics"]

    def shutdown(self) -> int:
        """shutdown + exit; the exit code."""
        if self.process.poll() is None:
            try:
                self.call("shutdown", None)
                self.notify("exit", None)
            except (OSError, AssertionError):
                pass
        try:
            return self.process.wait(timeout=TIMEOUT)
        finally:
            self.kill()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()
            except OSError:
                pass
        self._stderr.close()

    def resident_kilobytes(self) -> int:
        with open(f"/proc/{self.pid}/status", encoding="ascii") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def summary(diagnostics: list[dict[str, Any]]) -> list[tuple]:
    """(code, start line, start character, end line, end character) of each diagnostic, 0-based as LSP."""
    return [(d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"], d["range"]["end"]["line"], d["range"]["end"]["character"]) for d in diagnostics]
