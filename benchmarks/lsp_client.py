"""A small Language Server Protocol client over stdio, for timing a real server from outside.

It speaks JSON-RPC with Content-Length framing, answers the requests a server sends to its client
(configuration, capability registration, progress) so the server never waits on us, and stamps every
message from the server with the moment it was read, so latencies do not include our own processing.
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class ServerError(RuntimeError):
    """The server died, answered with an error, or did not answer in time."""


@dataclass(frozen=True)
class Received:
    message: dict[str, Any]
    at: float  # time.perf_counter() when the message was read off the pipe


class LanguageServerProcess:
    """A server process and the stream of messages it sends."""

    def __init__(self, command: list[str], cwd: Path | None = None, environment: dict[str, str] | None = None) -> None:
        self.started_at = time.perf_counter()
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
            env={**os.environ, **(environment or {})},
        )
        self._ids = itertools.count(1)
        self._write_lock = threading.Lock()
        self._responses: dict[int, Received] = {}
        self._responses_ready = threading.Condition()
        self.notifications: queue.Queue[Received] = queue.Queue()
        self.stderr_tail: list[str] = []
        threading.Thread(target=self._read_messages, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    @property
    def pid(self) -> int:
        return self.process.pid

    # -- sending ---------------------------------------------------------------------------------------------
    def send(self, message: dict[str, Any]) -> float:
        """Write one message; returns the time just before the write, the start of a latency."""
        body = json.dumps({"jsonrpc": "2.0", **message}, separators=(",", ":")).encode()
        frame = b"Content-Length: %d\r\n\r\n" % len(body) + body
        with self._write_lock:
            sent_at = time.perf_counter()
            try:
                self.process.stdin.write(frame)
                self.process.stdin.flush()
            except (BrokenPipeError, OSError) as error:
                raise ServerError(f"the server closed its input: {error}; stderr: {self.last_stderr()}") from None
        return sent_at

    def notify(self, method: str, params: Any) -> float:
        return self.send({"method": method, "params": params})

    def request(self, method: str, params: Any, timeout: float = 60.0) -> tuple[Any, float, float]:
        """Send a request and wait for its response: (result, sent_at, answered_at)."""
        identifier = next(self._ids)
        sent_at = self.send({"id": identifier, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        with self._responses_ready:
            while identifier not in self._responses:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self.process.poll() is not None:
                    raise ServerError(f"no answer to {method} within {timeout:.0f} s; stderr: {self.last_stderr()}")
                self._responses_ready.wait(min(remaining, 0.5))
            received = self._responses.pop(identifier)
        if "error" in received.message:
            raise ServerError(f"{method} failed: {received.message['error']}")
        return received.message.get("result"), sent_at, received.at

    def next_notification(self, method: str, timeout: float) -> Received:
        """The next notification with this method (others are dropped), or ServerError after `timeout`."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ServerError(f"no {method} within {timeout:.0f} s; stderr: {self.last_stderr()}")
            try:
                received = self.notifications.get(timeout=min(remaining, 0.5))
            except queue.Empty:
                if self.process.poll() is not None:
                    raise ServerError(f"the server exited ({self.process.returncode}); stderr: {self.last_stderr()}") from None
                continue
            if received.message.get("method") == method:
                return received

    def drain(self, quiet_seconds: float, limit_seconds: float) -> int:
        """Drop notifications until none arrives for `quiet_seconds` (at most `limit_seconds`); returns how many."""
        dropped = 0
        deadline = time.monotonic() + limit_seconds
        while time.monotonic() < deadline:
            try:
                self.notifications.get(timeout=quiet_seconds)
                dropped += 1
            except queue.Empty:
                return dropped
        return dropped

    def shutdown(self, timeout: float = 10.0) -> None:
        try:
            if self.process.poll() is None:
                self.request("shutdown", None, timeout=timeout)
                self.notify("exit", None)
                self.process.wait(timeout=timeout)
        except (ServerError, subprocess.TimeoutExpired):
            pass
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()

    def last_stderr(self) -> str:
        return " | ".join(self.stderr_tail[-5:]) or "(empty)"

    # -- receiving -------------------------------------------------------------------------------------------
    def _read_messages(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii", "replace").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            if length is None:
                continue
            body = stream.read(length)
            at = time.perf_counter()
            message = json.loads(body)
            if "id" in message and "method" in message:
                self._answer_server_request(message)
            elif "id" in message:
                with self._responses_ready:
                    self._responses[message["id"]] = Received(message, at)
                    self._responses_ready.notify_all()
            else:
                self.notifications.put(Received(message, at))

    def _answer_server_request(self, message: dict[str, Any]) -> None:
        if message["method"] == "workspace/configuration":
            result: Any = [None for _ in message.get("params", {}).get("items", [])]
        else:  # client/registerCapability, window/workDoneProgress/create, ...: accept
            result = None
        try:
            self.send({"id": message["id"], "result": result})
        except ServerError:
            pass

    def _read_stderr(self) -> None:
        for line in self.process.stderr:
            self.stderr_tail.append(line.decode("utf-8", "replace").rstrip())
            del self.stderr_tail[:-20]


CLIENT_CAPABILITIES: dict[str, Any] = {
    "general": {"positionEncodings": ["utf-16"]},
    "textDocument": {
        "synchronization": {"dynamicRegistration": False, "didSave": True},
        "publishDiagnostics": {"versionSupport": True, "relatedInformation": True, "codeDescriptionSupport": True,
                               "dataSupport": True, "tagSupport": {"valueSet": [1, 2]}},
        "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix", "source.fixAll"]}}},
        "hover": {"contentFormat": ["markdown", "plaintext"]},
    },
    "workspace": {"configuration": True, "workspaceFolders": True},
    "window": {"workDoneProgress": False},
}


def initialize(server: LanguageServerProcess, root: Path, timeout: float = 60.0) -> tuple[dict[str, Any], float]:
    """The initialize handshake; returns the server's capabilities and the seconds from process start to the answer."""
    result, _, answered_at = server.request(
        "initialize",
        {
            "processId": os.getpid(),
            "clientInfo": {"name": "ascend-migrate-benchmark", "version": "1"},
            "rootUri": root.as_uri(),
            "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
            "capabilities": CLIENT_CAPABILITIES,
        },
        timeout=timeout,
    )
    server.notify("initialized", {})
    return result.get("capabilities", {}), answered_at - server.started_at


def change_kind(capabilities: dict[str, Any]) -> int:
    """1 (full text) or 2 (incremental), as the server asked in its textDocumentSync capability."""
    sync = capabilities.get("textDocumentSync", 1)
    return sync.get("change", 1) if isinstance(sync, dict) else int(sync)


def process_cpu_seconds(pid: int) -> float:
    """CPU seconds run so far by every thread of a process, from /proc/PID/task/*/schedstat (nanoseconds).

    Unlike wall time, this does not grow when other programs compete for the cores.
    """
    total = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0.0
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as schedstat:
                total += int(schedstat.read().split()[0])
        except (OSError, IndexError, ValueError):
            continue
    return total / 1e9


def process_tree_rss(pid: int) -> int:
    """Resident memory in bytes of a process and all its descendants (worker pools count too), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    total = 0
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            with open(f"/proc/{current}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
        except OSError:
            pass
        pending.extend(children.get(current, []))
    return total
