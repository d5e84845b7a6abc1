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
