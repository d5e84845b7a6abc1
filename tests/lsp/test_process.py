"""The server process: start-up over raw stdio, exit codes, a vanished client, malformed input, bad flags."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from typing import Any, BinaryIO

from lsp_session import SERVER_COMMAND, server_environment

TIMEOUT = 20  # a guard against a hung server, not a speed requirement


def frame(message: dict[str, Any]) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_message(stream: BinaryIO) -> dict[str, Any]:
    length = None
    while True:
        header = stream.readline()
        assert header, "the server closed its output"
        if header == b"\r\n":
            break
        name, _, value = header.decode("ascii").partition(":")
        if name.lower() == "content-length":
            length = int(value)
    assert length is not None
    return json.loads(stream.read(length))


def response_to(stream: BinaryIO, message_id: Any) -> dict[str, Any]:
    while True:
        message = read_message(stream)
        if message.get("id") == message_id and "method" not in message:
            return message


def start() -> subprocess.Popen:
    return subprocess.Popen(
        SERVER_COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=server_environment()
    )


def send(server: subprocess.Popen, message: dict[str, Any]) -> None:
    server.stdin.write(frame(message))
    server.stdin.flush()


def initialize(server: subprocess.Popen, capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
    send(server, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": capabilities or {}}})
    result = response_to(server.stdout, 1)["result"]
    send(server, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    return result


def test_initialize_advertises_the_features_and_commands():
    server = start()
    try:
        result = initialize(server, {"general": {"positionEncodings": ["utf-8", "utf-16"]}})
    finally:
        server.kill()
        server.wait()
    capabilities = result["capabilities"]
    assert result["serverInfo"]["name"] == "ascend-migrate"
    assert capabilities["positionEncoding"] == "utf-8"
    assert capabilities["textDocumentSync"]["change"] == 2  # incremental
    assert capabilities["hoverProvider"] is True
    assert capabilities["codeActionProvider"]["codeActionKinds"] == ["quickfix", "source.fixAll.ascend-migrate"]
    assert sorted(capabilities["executeCommandProvider"]["commands"]) == [
        "ascend-migrate.exportReport",
        "ascend-migrate.fixAll",
        "ascend-migrate.lookup",
        "ascend-migrate.run",
        "ascend-migrate.scanWorkspace",
        "ascend-migrate.setTarget",
        "ascend-migrate.weightsCommand",
    ]


def test_exit_after_shutdown_exits_with_code_0():
    server = start()
    initialize(server)
    send(server, {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
    assert response_to(server.stdout, 2)["result"] is None
    send(server, {"jsonrpc": "2.0", "method": "exit", "params": None})
    assert server.wait(timeout=TIMEOUT) == 0


def test_exit_without_shutdown_exits_with_code_1():
    server = start()
    initialize(server)
    send(server, {"jsonrpc": "2.0", "method": "exit", "params": None})
    assert server.wait(timeout=TIMEOUT) == 1


def test_the_server_ends_when_the_client_closes_its_input():
    server = start()
    initialize(server)
    send(
        server,
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "file:///x.py", "languageId": "python", "version": 1, "text": "import torch\n"}}},
    )
    server.stdin.close()
    assert server.wait(timeout=TIMEOUT) == 1


def test_malformed_json_wrong_shapes_and_unknown_notifications_do_not_stop_the_server():
    server = start()
    try:
        initialize(server)
        server.stdin.write(b"Content-Length: 12\r\n\r\n{not json!!}")
        server.stdin.flush()
        parse_error = response_to(server.stdout, None)
        assert parse_error["error"]["code"] == -32700
        assert parse_error["error"]["message"].startswith("Parse error: Expecting property name enclosed in double quotes")
        for wrong_shape in ({"jsonrpc": "2.0", "id": 5, "method": 7, "params": {}}, {"jsonrpc": "2.0", "id": 6, "params": {}}):
            send(server, wrong_shape)
            assert response_to(server.stdout, wrong_shape["id"])["error"]["code"] == -32600  # Invalid Request
        send(server, {"jsonrpc": "2.0", "method": "ascendMigrate/unknownNotification", "params": {}})
        send(server, {"jsonrpc": "2.0", "id": 7, "method": "workspace/executeCommand", "params": {"command": "ascend-migrate.lookup", "arguments": ["torch.nn.ReLU"]}})
        (entry,) = response_to(server.stdout, 7)["result"]
        assert entry["target"] == "mindspore.nn.ReLU"
    finally:
        server.kill()
        server.wait()


def test_a_bad_tcp_address_is_a_usage_error():
    completed = subprocess.run(
        [sys.executable, "-m", "ascend_migrate", "serve", "--tcp", "localhost"], capture_output=True, text=True, timeout=TIMEOUT
    )
    assert completed.returncode == 2
    assert completed.stderr == "ascend-migrate: error: --tcp expects HOST:PORT (for example 127.0.0.1:2087), got 'localhost'\n"


def test_the_server_exits_at_once_when_stdin_is_dev_null():
    """/dev/null is a character device epoll cannot watch: the server must read it as an ended input."""
    with open(os.devnull, "rb") as null:
        completed = subprocess.run(
            [sys.executable, "-m", "ascend_migrate", "serve"], stdin=null, capture_output=True, timeout=TIMEOUT, env=server_environment()
        )
    assert completed.returncode == 1  # the input ended without `shutdown`
    assert (completed.stdout, completed.stderr) == (b"", b"")  # no traceback, no message: nothing happened


def test_a_session_read_from_a_regular_file_is_served_to_its_end(tmp_path):
    """A file of recorded messages as stdin (as when replaying a session): answered, and `exit` after
    `shutdown` ends the process with 0."""
    session = tmp_path / "session.jsonrpc"
    session.write_bytes(
        frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}})
        + frame({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        + frame({"jsonrpc": "2.0", "id": 2, "method": "workspace/executeCommand", "params": {"command": "ascend-migrate.lookup", "arguments": ["torch.nn.ReLU"]}})
        + frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown", "params": None})
        + frame({"jsonrpc": "2.0", "method": "exit", "params": None})
    )
    with session.open("rb") as stdin:
        completed = subprocess.run(SERVER_COMMAND, stdin=stdin, capture_output=True, timeout=TIMEOUT, env=server_environment())
    assert completed.returncode == 0, completed.stderr.decode(errors="replace")
    output = io.BytesIO(completed.stdout)
    assert response_to(output, 1)["result"]["serverInfo"]["name"] == "ascend-migrate"
    assert [entry["target"] for entry in response_to(output, 2)["result"]] == ["mindspore.nn.ReLU"]
    assert response_to(output, 3)["result"] is None
