"""`serve --tcp`: loopback only, and a client must prove it may read the token file (mode 0600) by sending
the token in `initializationOptions.token`; any other connection is answered with an error and closed."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lsp_session import server_environment

TIMEOUT = 30.0


def frame(message: dict) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_message(connection: socket.socket) -> dict | None:
    """The next message, or None when the server closed the connection."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            return None
        data += chunk
    header, _, body = data.partition(b"\r\n\r\n")
    length = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
    while len(body) < length:
        body += connection.recv(65536)
    return json.loads(body[:length])


def response(connection: socket.socket, message_id: int) -> dict:
    while True:
        message = read_message(connection)
        assert message is not None, "the server closed the connection"
        if message.get("id") == message_id and "method" not in message:
            return message


def initialize(token: str | None) -> dict:
    options = {"target": "npu"} | ({"token": token} if token is not None else {})
    return {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"processId": None, "rootUri": None, "capabilities": {}, "initializationOptions": options}}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def tcp_server(tmp_path):
    port = free_port()
    token_file = tmp_path / "private" / "token"
    process = subprocess.Popen(
        [sys.executable, "-m", "ascend_migrate", "serve", "--tcp", f"127.0.0.1:{port}", "--token-file", str(token_file)],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=server_environment(),
    )
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert time.monotonic() < deadline and process.poll() is None, process.stderr.read().decode()
            time.sleep(0.05)
    yield process, port, token_file
    if process.poll() is None:
        process.kill()
    process.wait()


def connect(port: int) -> socket.socket:
    connection = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
    return connection


def test_a_client_without_the_token_is_refused_and_one_with_it_is_served(tcp_server):
    process, port, token_file = tcp_server
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(token_file.parent.stat().st_mode) & 0o077 == 0
    token = token_file.read_text(encoding="ascii").strip()
    assert len(token) >= 32
    for attempt in (None, "not-the-token"):
        stranger = connect(port)
        stranger.sendall(frame(initialize(attempt)))
        refusal = response(stranger, 1)
        assert "token" in refusal["error"]["message"] and str(token_file) in refusal["error"]["message"]
        assert read_message(stranger) is None  # closed
        stranger.close()
    owner = connect(port)
    owner.sendall(frame(initialize(token)))
    assert response(owner, 1)["result"]["serverInfo"]["name"] == "ascend-migrate"
    # A second client, even with the token, is not let in while the first is connected.
    second = connect(port)
    second.sendall(frame(initialize(token)))
    assert "another client" in response(second, 1)["error"]["message"]
    assert read_message(second) is None
    owner.sendall(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    owner.sendall(frame({"jsonrpc": "2.0", "id": 2, "method": "workspace/executeCommand",
                         "params": {"command": "ascend-migrate.lookup", "arguments": ["torch.cuda.synchronize"]}}))
    assert response(owner, 2)["result"]
    owner.sendall(frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown", "params": None}))
    response(owner, 3)
    owner.sendall(frame({"jsonrpc": "2.0", "method": "exit", "params": None}))
    assert process.wait(timeout=TIMEOUT) == 0
    assert not token_file.exists()  # the token dies with the server


@pytest.mark.parametrize("address", ["0.0.0.0:2087", "192.168.1.5:2087", "example.com:2087", "[::]:2087"])
def test_tcp_listens_on_the_loopback_interface_only(address):
    result = subprocess.run([sys.executable, "-m", "ascend_migrate", "serve", "--tcp", address],
                            capture_output=True, text=True, env=server_environment(), timeout=TIMEOUT)
    assert result.returncode == 2
    assert "loopback" in result.stderr
