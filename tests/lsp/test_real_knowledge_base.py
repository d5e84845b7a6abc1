"""End to end with the real knowledge base in mappings/: it loads in the server, and a CUDA script gets fixed."""

from __future__ import annotations

import pytest
from lsprotocol import types

from lsp_session import FIXTURES, apply_workspace_edit, diagnostics_for, fixture_text, open_document, session

pytestmark = pytest.mark.asyncio(loop_scope="module")


client = session({"target": "npu"}, clients=["visual-studio-code"], mappings=None)


async def test_the_real_knowledge_base_loads_without_a_complaint(client):
    entries = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="ascend-migrate.lookup", arguments=["torch.cuda.synchronize"])
    )
    assert {entry["route"] for entry in entries} == {"npu", "mindspore"}
    assert client.messages == []


async def test_a_cuda_training_script_gets_its_renames_fixed(client):
    uri = (FIXTURES / "train_cuda.py").as_uri()
    text = fixture_text("train_cuda.py")
    open_document(client, uri, text)
    diagnostics = await diagnostics_for(client, uri, 1)
    synchronize = next(d for d in diagnostics if d.range.start.line == 42 and d.code == "NPU101")
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=synchronize.range,
            context=types.CodeActionContext(diagnostics=[synchronize], only=[types.CodeActionKind.QuickFix]),
        )
    )
    preferred = [action for action in actions if action.is_preferred]
    assert len(preferred) == 1
    fixed = apply_workspace_edit(text, preferred[0].edit, uri, client.encoding)
    assert "        torch.npu.synchronize()\n" in fixed and fixed.count("import torch_npu\n") == 1
    assert fixed.replace("        torch.npu.synchronize()\n", "        torch.cuda.synchronize()\n").replace("import torch_npu\n", "", 1) == text


HOVERED = """import torch
opt = torch.optim.AdamW([], lr=1e-3, fused=True)
scaler = torch.cuda.amp.GradScaler()
"""


async def hover_text(client, uri: str, line: int, character: int) -> str:
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line, character))
    )
    return hover.contents.value


async def test_hovers_neither_contradict_nor_repeat_and_leave_provenance_to_kb_lookup(client):
    uri = "file:///project/hovered.py"
    open_document(client, uri, HOVERED)
    codes = {(d.range.start.line, d.code) for d in await diagnostics_for(client, uri, 1)}
    assert {(1, "NPU301"), (1, "NPU204"), (2, "NPU101")} <= codes
    adamw = await hover_text(client, uri, 1, 20)
    # Both findings on the span, one hover; the caveat does not claim there is no equivalent.
    assert adamw.startswith("**`torch.optim.AdamW`**\n\n`torch.optim.AdamW` is supported on Ascend NPU with a restriction")
    assert "\n\n---\n\n**`torch.optim.AdamW`** → `torch_npu.optim.NpuFusedAdamW`\n\n" in adamw
    assert "no torch_npu equivalent" not in adamw
    scaler = await hover_text(client, uri, 2, 25)
    assert scaler.count("The NPU counterpart is torch_npu.npu.amp.GradScaler") == 1
    for text in (adamw, scaler):
        assert "Source:" not in text and ".csv row" not in text and "sha256" not in text and "@" not in text
        assert "`ascend-migrate kb lookup " in text
    # The affinity table came from torch_npu's optimizer documentation: linked at the commit it was read.
    assert ("[op-plugin: torch_npu-optim](https://github.com/Ascend/op-plugin/tree/"
            "517f2e7d0f202f38b76310706cb977ca2388ad21/docs/zh/custom_APIs/torch_npu-optim/)") in adamw
