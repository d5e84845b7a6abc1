"""Diagnostics over a real connection: open, change, save, close; codes, severities, data; exact positions."""

from __future__ import annotations

import pytest
from lsprotocol import types

from lsp_session import FIXTURES, diagnostics_for, fixture_text, open_document, session, text_at, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="module")


client = session({"target": "npu"})


def summary(diagnostics, text, encoding):
    return [(d.range.start.line + 1, d.code, text_at(text, d.range, encoding)) for d in diagnostics]


async def test_opening_a_training_script_publishes_its_findings_with_the_version(client):
    uri = (FIXTURES / "train_cuda.py").as_uri()
    text = fixture_text("train_cuda.py")
    open_document(client, uri, text, version=3)
    diagnostics = await diagnostics_for(client, uri, 3)
    assert summary(diagnostics, text, client.encoding) == [
        (12, "NPU203", "torch.backends.cudnn.benchmark"),
        (22, "NPU301", "F.gelu"),
        (32, "NPU102", "cuda"),
        (32, "NPU101", "torch.cuda.is_available"),
        (33, "NPU101", "torch.cuda.manual_seed_all"),
        (38, "NPU105", "cuda"),
        (38, "NPU105", "cuda"),
        (43, "NPU101", "torch.cuda.synchronize"),
    ]


async def test_a_diagnostic_carries_code_link_source_severity_message_and_its_fix(client):
    uri = "file:///project/sync_only.py"
    text = "import torch\n\ntorch.cuda.synchronize()\n"
    open_document(client, uri, text)
    (diagnostic,) = await diagnostics_for(client, uri, 1)
    assert diagnostic.code == "NPU101"
    assert diagnostic.source == "ascend-migrate"
    assert diagnostic.severity == types.DiagnosticSeverity.Warning
    assert diagnostic.code_description.href == "https://www.hiascend.com/document/detail/zh/Pytorch/torch_npu/torch.npu.synchronize.html"
    assert diagnostic.message == (
        "torch.cuda.synchronize is CUDA-specific; on Ascend use torch.npu.synchronize\nUse torch.npu.synchronize()."
    )
    assert diagnostic.data["code"] == "NPU101"
    assert diagnostic.data["api"] == "torch.cuda.synchronize"
    assert diagnostic.data["category"] == "npu-rename"
    assert diagnostic.data["fix"]["title"] == "Replace with `torch.npu.synchronize`"
    assert diagnostic.data["fix"]["safe"] is True
    assert diagnostic.data["fix"]["edits"] == [
        {"line": 3, "column": 1, "end_line": 3, "end_column": 23, "new_text": "torch.npu.synchronize"}
    ]


async def test_non_ascii_before_a_flagged_api_gives_exact_ranges_in_the_negotiated_encoding(client):
    uri = (FIXTURES / "train_ddp_unicode.py").as_uri()
    text = fixture_text("train_ddp_unicode.py")
    open_document(client, uri, text)
    diagnostics = await diagnostics_for(client, uri, 1)
    assert summary(diagnostics, text, client.encoding) == [
        (12, "NPU103", "nccl"),
        (13, "NPU102", "cuda"),
        (17, "NPU105", "cuda"),
        (20, "NPU101", "torch.cuda.synchronize"),
    ]
    line_20 = diagnostics[-1].range.start
    # `    标记 = "🚀中文"; ` is 16 characters: 17 UTF-16 units (the rocket is a surrogate pair), 27 UTF-8 bytes.
    assert line_20.character == {"utf-16": 17, "utf-8": 27, "utf-32": 16}[client.encoding]


async def test_an_incremental_change_republishes_for_the_new_version(client):
    uri = "file:///project/edited.py"
    text = "import torch\n\nx = 1\n"
    open_document(client, uri, text)
    assert await diagnostics_for(client, uri, 1) == []
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=types.Position(2, 4), end=types.Position(2, 5)), text="torch.cuda.is_available()"
                )
            ],
        )
    )
    (diagnostic,) = await diagnostics_for(client, uri, 2)
    assert (diagnostic.code, diagnostic.range.start, diagnostic.range.end) == ("NPU101", types.Position(2, 4), types.Position(2, 27))


async def test_a_whole_document_change_replaces_the_text(client):
    uri = "file:///project/replaced.py"
    open_document(client, uri, "import torch\ntorch.cuda.synchronize()\n")
    assert len(await diagnostics_for(client, uri, 1)) == 1
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text="import torch\nprint(torch.__version__)\n")],
        )
    )
    assert await diagnostics_for(client, uri, 2) == []


async def test_saving_keeps_the_diagnostics_and_closing_clears_them(client):
    uri = "file:///project/closed.py"
    open_document(client, uri, "import torch\ntorch.cuda.synchronize()\n")
    assert len(await diagnostics_for(client, uri, 1)) == 1
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    await wait_until(lambda: client.published[uri][-1].version is None, what="diagnostics cleared on close")
    assert list(client.published[uri][-1].diagnostics) == []
    assert [params.version for params in client.published[uri]] == [1, None]


async def test_a_file_that_stops_parsing_keeps_the_findings_of_the_statements_that_still_parse(client):
    uri = "file:///project/half_typed.py"
    text = "import torch\n\ndef f():\n    torch.cuda.synchronize()\n\ndef g(:\n"
    open_document(client, uri, text)
    (diagnostic,) = await diagnostics_for(client, uri, 1)
    assert diagnostic.range.start == types.Position(3, 4)


def typed(client, uri: str, version: int, line: int, character: int, text: str) -> None:
    """The client inserts `text` at (line, character), as a keystroke does."""
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(start=types.Position(line, character), end=types.Position(line, character)), text=text)],
        )
    )


async def test_squiggles_stay_while_a_line_in_their_function_is_being_typed(client):
    uri = "file:///project/typing.py"
    text = "import torch\n\ndef train(model):\n    model = model.cuda()\n    torch.cuda.synchronize()\n    return model\n"
    open_document(client, uri, text)
    before = [(d.range.start.line, d.code) for d in await diagnostics_for(client, uri, 1)]
    assert before == [(3, "NPU105"), (4, "NPU101")]
    typed(client, uri, 2, 3, len("    model = model.cuda()"), "\n    ")  # Enter after the .cuda() line
    assert [(d.range.start.line, d.code) for d in await diagnostics_for(client, uri, 2)] == [(3, "NPU105"), (5, "NPU101")]
    typed(client, uri, 3, 4, 4, "mem = torch.")  # the function no longer parses
    assert [(d.range.start.line, d.code) for d in await diagnostics_for(client, uri, 3)] == [(3, "NPU105"), (5, "NPU101")]
    typed(client, uri, 4, 4, 16, "cuda")
    assert [(d.range.start.line, d.code) for d in await diagnostics_for(client, uri, 4)] == [(3, "NPU105"), (5, "NPU101")]
    typed(client, uri, 5, 4, 20, ".synchronize()")  # it parses again: the new line is flagged too
    assert [(d.range.start.line, d.code) for d in await diagnostics_for(client, uri, 5)] == [
        (3, "NPU105"), (4, "NPU101"), (5, "NPU101")
    ]
