"""Odd frames over stdio, in raw bytes: the server answers what it can read, answers a parse error for what
it cannot, finds the next `Content-Length` header and keeps serving; it never goes deaf.

Each test sends one odd frame carrying a lookup request, then a well-framed lookup: the second must be
answered whatever happened to the first.
"""

from __future__ import annotations

import json

import pytest

from reliability_rpc import RawServer, frame

LOOKUP = {"command": "ascend-migrate.lookup", "arguments": ["torch.cuda.synchronize"]}


def body(message_id: int) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": message_id, "method": "workspace/executeCommand", "params": LOOKUP}).encode()


@pytest.fixture(scope="module")
def server():
    process = RawServer()
    process.initialize()
    yield process
    assert process.shutdown() == 0


def answered(server: RawServer, message_id: int) -> None:
    response = server.response(message_id)
    assert response["result"][0]["api"] == "torch.cuda.synchronize", response


def errors(server: RawServer, message_id: int) -> int:
    """Parse errors (id null), and error responses to `message_id`, received so far."""
    with server._lock:
        return sum(1 for message in server.received
                   if message.get("error") and (message.get("id") == message_id or message["error"]["code"] == -32700))


@pytest.mark.parametrize(
    "odd_frame",
    [
        lambda b: b"content-length: %d\r\n\r\n" % len(b) + b,
        lambda b: b"Content-Length : %d\r\n\r\n" % len(b) + b,
        lambda b: b"Content-Length: %d\n\n" % len(b) + b,
        lambda b: b"CONTENT-LENGTH:%d\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" % len(b) + b,
        lambda b: b"Content-Length: %d\r\n\r\n" % (len(b) + 25) + b,  # too long: eats the start of the next frame
    ],
    ids=["lowercase", "space-before-colon", "lf-only", "uppercase-no-space", "length-too-long"],
)
def test_a_frame_that_can_still_be_read_is_answered_and_so_is_the_next(server, odd_frame):
    first, second = next_ids(server)
    server.send_bytes(odd_frame(body(first)) + frame(json.loads(body(second))))
    answered(server, first)
    answered(server, second)


@pytest.mark.parametrize(
    "odd_frame",
    [
        lambda b: b"Content-Length: abc\r\n\r\n" + b,
        lambda b: b"Content-Type: application/vscode-jsonrpc\r\n\r\n" + b,
        lambda b: b"Content-Length: -5\r\n\r\n" + b,
        lambda b: b"Content-Length: %d\r\n\r\n" % (len(b) - 7) + b,  # too short: the rest of the body is left over
        lambda b: b"Content-Length: 99999999999999999999\r\n\r\n" + b,
        lambda b: b"\x00\xff garbage with no line end " + b"Content-Length: %d\r\n\r\n" % len(b) + b,
    ],
    ids=["non-numeric", "missing", "negative", "length-too-short", "absurd-length", "garbage-before-header"],
)
def test_a_frame_that_cannot_be_read_gets_a_parse_error_and_the_next_is_answered(server, odd_frame):
    first, second = next_ids(server)
    before, logged = errors(server, first), len(server.stderr())
    server.send_bytes(odd_frame(body(first)))
    server.send_bytes(frame(json.loads(body(second))))
    answered(server, second)
    if b"garbage" in odd_frame(b""):
        answered(server, first)  # the header after the garbage is found, and its frame read
    else:
        assert errors(server, first) > before  # a parse error, or an error response to the request
    assert "frame" in server.stderr()[logged:]  # logged, with what was wrong


def next_ids(server: RawServer) -> tuple[int, int]:
    server._next_id += 2
    return server._next_id - 1, server._next_id
