"""Documents too large to analyse: the server applies `scan`'s limit (32 MiB), says so with one diagnostic
instead of publishing "clean", keeps no copy of the text, and analyses the document again once the client
sends a text within the limit. Raw JSON-RPC over stdio, as a client sends it."""

from __future__ import annotations

import json

import pytest

from reliability_rpc import RawServer, summary

from ascend_migrate.files import MAX_FILE_BYTES

URI = "file:///limits/generated.py"
SCRIPT = "import torch\n\ntorch.cuda.synchronize()\n"


@pytest.fixture(scope="module")
def server():
    process = RawServer()
    process.initialize()
    yield process
    assert process.shutdown() == 0


def too_large_message(diagnostics: list[dict]) -> str:
    (diagnostic,) = diagnostics
    assert diagnostic["severity"] == 2 and diagnostic["source"] == "ascend-migrate"
    return diagnostic["message"]


def test_a_document_over_the_limit_gets_one_diagnostic_saying_so_and_is_not_kept(server):
    text = SCRIPT + "x = 1\n" * (MAX_FILE_BYTES // 6)  # just over 32 MiB of short lines
    server.open(URI, text)
    message = too_large_message(server.diagnostics(URI, 1))
    assert f"it is {len(text):,} bytes, and files over 32 MiB are not analysed" in message
    # Neither analysed nor kept: five million lines as Python strings would be half a gigabyte.
    assert server.resident_kilobytes() < 400_000
    server.change(URI, 2, [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "# edited\n"}])
    assert "reopen it once it is smaller" in too_large_message(server.diagnostics(URI, 2))


def test_a_whole_text_within_the_limit_is_analysed_again(server):
    server.change(URI, 3, [{"text": SCRIPT}])
    assert summary(server.diagnostics(URI, 3)) == [("NPU101", 2, 0, 2, 22)]
    # Under the limit in characters, over it in UTF-8 bytes (sent unescaped, as most clients send it).
    body = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": URI, "version": 4}, "contentChanges": [{"text": SCRIPT + "é" * (MAX_FILE_BYTES // 2)}]}},
        ensure_ascii=False).encode("utf-8")
    server.send_bytes(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    assert "files over 32 MiB are not analysed" in too_large_message(server.diagnostics(URI, 4))


def test_a_message_over_the_transport_limit_is_skipped_unread_and_the_document_marked(server):
    from ascend_migrate.lsp.transport import MAX_MESSAGE_BYTES

    uri = "file:///limits/huge.py"
    text = "x = 1\n" * (MAX_MESSAGE_BYTES // 6 + 1000)
    server.open(uri, text)
    message = too_large_message(server.diagnostics(uri, 1))  # the version read from the skipped message's start
    assert "files over 32 MiB are not analysed" in message
    # Still serving: the next request is answered.
    assert server.call("workspace/executeCommand", {"command": "ascend-migrate.lookup", "arguments": ["torch.cuda.synchronize"]})["result"]
