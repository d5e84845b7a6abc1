"""The torch.load / load_state_dict finding (MindSpore route) points at `weights convert`: hover, a code action
whose command the client runs to get the command text, and the quick fix that loads the converted checkpoint."""

from __future__ import annotations

import pytest
from lsprotocol import types

from lsp_session import apply_workspace_edit, diagnostics_for, open_document, session

pytestmark = pytest.mark.asyncio(loop_scope="module")

client = session({"target": "mindspore"}, clients=["visual-studio-code"], mappings=None)

SOURCE = """import torch
state = torch.load("runs/model.pth", map_location="cpu")
net.load_state_dict(state)
other = torch.load(path)
"""


async def _diagnostics(client, uri: str):
    open_document(client, uri, SOURCE)
    return [d for d in await diagnostics_for(client, uri, 1) if d.code in ("MS206", "MS207")]


async def test_the_hover_gives_the_convert_and_compare_commands_for_the_loaded_file(client):
    uri = "file:///project/load_hover.py"
    await _diagnostics(client, uri)
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(1, 12)))
    text = hover.contents.value
    assert "ascend-migrate weights convert runs/model.pth --model MODEL.py:TorchModel" in text
    assert "-o runs/model.ckpt" in text and "ascend-migrate compare --torch" in text
    other = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(3, 12)))
    assert "ascend-migrate weights convert WEIGHTS.pth" in other.contents.value  # a computed path: a placeholder


async def test_the_code_action_runs_a_command_that_returns_the_command_text_and_the_fix_loads_the_ckpt(client):
    uri = "file:///project/load_action.py"
    diagnostics = await _diagnostics(client, uri)
    load = next(d for d in diagnostics if d.range.start.line == 1 and d.code == "MS206")
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=load.range,
        context=types.CodeActionContext(diagnostics=[load], only=[types.CodeActionKind.QuickFix])))
    [copy] = [action for action in actions if isinstance(action, types.Command)]
    assert copy.command == "ascend-migrate.weightsCommand" and copy.title.startswith("Copy the command")
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(command=copy.command, arguments=copy.arguments))
    assert result["convert"] == ("ascend-migrate weights convert runs/model.pth --model MODEL.py:TorchModel "
                                 "--target-model MS_MODEL.py:MindSporeModel -o runs/model.ckpt")
    fix = next(action for action in actions if isinstance(action, types.CodeAction) and "load_checkpoint" in action.title)
    fixed = apply_workspace_edit(SOURCE, fix.edit, uri, client.encoding)
    assert 'state = mindspore.load_checkpoint("runs/model.ckpt")\n' in fixed and "map_location" not in fixed


async def test_a_bad_command_argument_is_refused_with_its_name(client):
    with pytest.raises(Exception) as raised:
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="ascend-migrate.weightsCommand", arguments=[{"source": 3}]))
    assert "`source` must be a path or null" in str(raised.value)
