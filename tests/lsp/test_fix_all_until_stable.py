"""The editor's fix-all and `ascend-migrate fix` run the same loop (fixes/until_stable.py): on a file whose
fixes take two passes, both give the same text."""

from __future__ import annotations

import subprocess
import sys

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_session import HERE, apply_workspace_edit, diagnostics_for, open_document, server_environment, session

pytestmark = pytest.mark.asyncio(loop_scope="module")

# torch.cuda.synchronize → torch.npu.synchronize, which this knowledge base renames again in the next pass.
CHAINED_MAPPINGS = HERE / "chained_mappings"
SCRIPT = '''import torch


def step(model, batch):
    device = torch.device("cuda")  # 设备 🚀
    loss = model(batch.to(device))
    torch.cuda.synchronize()  # 同步 🎉
    return loss
'''
TWICE_FIXED = SCRIPT.replace("import torch\n", "import torch\nimport torch_npu\n").replace('"cuda"', '"npu"').replace(
    "torch.cuda.synchronize()", "torch_npu.npu.synchronize()")

client = session({"target": "npu"}, mappings=CHAINED_MAPPINGS)


async def editor_fix_all(client: LanguageClient, text: str) -> str:
    uri = "file:///project/step.py"
    open_document(client, uri, text)
    await diagnostics_for(client, uri, 1)
    (action,) = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(0, 0), end=types.Position(0, 0)),
        context=types.CodeActionContext(diagnostics=[], only=["source.fixAll"]),
    ))
    if action.edit is None:  # a client that resolves code actions' edits gets it when it picks the action
        action = await client.code_action_resolve_async(action)
    return apply_workspace_edit(text, action.edit, uri, client.encoding)


def command_line_fix(text: str, directory) -> str:
    path = directory / "step.py"
    path.write_text(text, encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, "-m", "ascend_migrate", "fix", str(path), "--target", "npu", "--write"],
        env=server_environment(CHAINED_MAPPINGS), capture_output=True, text=True, encoding="utf-8", timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    return path.read_text(encoding="utf-8")


async def test_fix_all_in_the_editor_gives_the_text_of_the_fix_command(client, tmp_path):
    in_editor = await editor_fix_all(client, SCRIPT)
    assert in_editor == command_line_fix(SCRIPT, tmp_path) == TWICE_FIXED
