"""Code actions applied to the document give exactly the expected text, in every client's encoding."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_session import apply_workspace_edit, diagnostics_for, fixture_text, open_document, session

pytestmark = pytest.mark.asyncio(loop_scope="module")

EVALUATE = '''"""Evaluate a checkpoint on the validation set."""
from __future__ import annotations

import torch


def evaluate(model, loader):
    model.eval()
    device = torch.device("cuda")  # 评估用的设备
    total = 0
    with torch.no_grad():
        for images, labels in loader:
            total += (model(images.to(device)).argmax(1) == labels.to(device)).sum().item()
    torch.cuda.synchronize()
    return total
'''


client = session({"target": "npu"})


async def open_and_wait(client: LanguageClient, name: str, text: str) -> tuple[str, list[types.Diagnostic]]:
    uri = f"file:///project/{name}"
    open_document(client, uri, text)
    return uri, await diagnostics_for(client, uri, 1)


async def actions_for(client: LanguageClient, uri: str, diagnostics: list[types.Diagnostic], only=None) -> list[types.CodeAction]:
    range_ = diagnostics[0].range if diagnostics else types.Range(start=types.Position(0, 0), end=types.Position(0, 0))
    return await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=range_,
            context=types.CodeActionContext(diagnostics=diagnostics, only=only),
        )
    )


def resolves_edits(client: LanguageClient) -> bool:
    support = client.capabilities.text_document.code_action.resolve_support if client.capabilities.text_document.code_action else None
    return bool(support and "edit" in support.properties)


async def fix_all_edit(client: LanguageClient, action: types.CodeAction) -> types.WorkspaceEdit:
    """Fix-all's edit: in the action for a client that cannot resolve it, from `codeAction/resolve` otherwise."""
    if resolves_edits(client):
        assert action.edit is None and action.data is not None  # worked out only when picked
        action = await client.code_action_resolve_async(action)
    assert action.edit is not None
    return action.edit


def by_title(actions: list[types.CodeAction], title: str) -> types.CodeAction:
    matching = [action for action in actions if action.title == title]
    assert len(matching) == 1, [action.title for action in actions]
    return matching[0]


def code(diagnostics: list[types.Diagnostic], wanted: str) -> types.Diagnostic:
    return next(diagnostic for diagnostic in diagnostics if diagnostic.code == wanted)


async def test_the_quick_fix_of_a_safe_rename_is_preferred_and_renames_with_its_import(client):
    uri, diagnostics = await open_and_wait(client, "quick_fix.py", EVALUATE)
    actions = await actions_for(client, uri, [code(diagnostics, "NPU101")])
    action = by_title(actions, "Replace with torch.npu.synchronize")
    assert (action.kind, action.is_preferred) == (types.CodeActionKind.QuickFix, True)
    assert apply_workspace_edit(EVALUATE, action.edit, uri, client.encoding) == EVALUATE.replace(
        "import torch\n", "import torch\nimport torch_npu\n"
    ).replace("torch.cuda.synchronize()", "torch.npu.synchronize()")


async def test_the_quick_fix_of_a_device_string_after_chinese_text_edits_only_the_string(client):
    uri, diagnostics = await open_and_wait(client, "device_fix.py", EVALUATE)
    action = by_title(await actions_for(client, uri, [code(diagnostics, "NPU102")]), "Replace 'cuda' with 'npu'")
    fixed = apply_workspace_edit(EVALUATE, action.edit, uri, client.encoding)
    assert fixed == EVALUATE.replace("import torch\n", "import torch\nimport torch_npu\n").replace(
        'torch.device("cuda")  # 评估用的设备', 'torch.device("npu")  # 评估用的设备'
    )


async def test_an_unsafe_fix_says_so_and_is_not_preferred(client):
    text = fixture_text("train_cuda.py")
    uri, diagnostics = await open_and_wait(client, "unsafe.py", text)
    action = by_title(
        await actions_for(client, uri, [code(diagnostics, "NPU301")]), "Replace with torch_npu.fast_gelu (unsafe: review the result)"
    )
    assert action.is_preferred is False
    fixed = apply_workspace_edit(text, action.edit, uri, client.encoding)
    assert "return self.fc2(torch_npu.fast_gelu(self.fc1(x)))\n" in fixed
    assert fixed.count("import torch_npu\n") == 1


async def test_ignore_on_this_line_appends_the_comment_after_an_existing_one(client):
    uri, diagnostics = await open_and_wait(client, "ignore_fix.py", EVALUATE)
    action = by_title(await actions_for(client, uri, [code(diagnostics, "NPU102")]), "Ignore NPU102 on this line")
    assert apply_workspace_edit(EVALUATE, action.edit, uri, client.encoding) == EVALUATE.replace(
        'torch.device("cuda")  # 评估用的设备', 'torch.device("cuda")  # 评估用的设备  # ascend-migrate: ignore[NPU102]'
    )


async def test_ignore_on_this_line_extends_an_existing_suppression(client):
    text = 'import torch\nx = torch.cuda.is_available() and torch.device("cuda")  # ascend-migrate: ignore[NPU102]\n'
    uri, diagnostics = await open_and_wait(client, "extend_ignore.py", text)
    assert [diagnostic.code for diagnostic in diagnostics] == ["NPU101"]
    action = by_title(await actions_for(client, uri, diagnostics), "Ignore NPU101 on this line")
    assert apply_workspace_edit(text, action.edit, uri, client.encoding) == text.replace("ignore[NPU102]", "ignore[NPU102, NPU101]")


async def test_enable_automatic_migration_inserts_the_imports_after_docstring_and_future_imports(client):
    uri, diagnostics = await open_and_wait(client, "automatic.py", EVALUATE)
    action = by_title(
        await actions_for(client, uri, [code(diagnostics, "NPU101")]),
        "Enable automatic migration (import torch_npu and transfer_to_npu at the top of the file)",
    )
    assert apply_workspace_edit(EVALUATE, action.edit, uri, client.encoding) == EVALUATE.replace(
        "from __future__ import annotations\n",
        "from __future__ import annotations\nimport torch_npu\nfrom torch_npu.contrib import transfer_to_npu\n",
    )


async def test_enable_automatic_migration_is_not_offered_once_enabled(client):
    text = "import torch\nimport torch_npu\nfrom torch_npu.contrib import transfer_to_npu\n\ntorch.cuda.synchronize()\n"
    uri, diagnostics = await open_and_wait(client, "already_automatic.py", text)
    titles = [action.title for action in await actions_for(client, uri, diagnostics)]
    assert not any(title.startswith("Enable automatic migration") for title in titles)


async def test_fix_all_applies_every_safe_fix_in_one_edit(client):
    text = fixture_text("train_cuda.py")
    uri, diagnostics = await open_and_wait(client, "fix_all.py", text)
    (action,) = await actions_for(client, uri, [], only=["source.fixAll"])
    assert (action.kind, action.title) == ("source.fixAll.ascend-migrate", "Fix all safe ascend-migrate issues")
    expected = (
        text.replace("from torch.utils.data import DataLoader, TensorDataset\n", "from torch.utils.data import DataLoader, TensorDataset\nimport torch_npu\n")
        .replace('torch.device("cuda" if torch.cuda.is_available()', 'torch.device("npu" if torch.npu.is_available()')
        .replace("torch.cuda.manual_seed_all(0)", "torch.npu.manual_seed_all(0)")
        .replace("images.cuda(), labels.cuda()", "images.npu(), labels.npu()")
        .replace("torch.cuda.synchronize()", "torch.npu.synchronize()")
    )
    assert apply_workspace_edit(text, await fix_all_edit(client, action), uri, client.encoding) == expected


async def test_fix_all_on_a_non_ascii_file_edits_the_right_columns(client):
    text = fixture_text("train_ddp_unicode.py")
    uri, diagnostics = await open_and_wait(client, "fix_all_unicode.py", text)
    (action,) = await actions_for(client, uri, [], only=["source.fixAll.ascend-migrate"])
    fixed = apply_workspace_edit(text, await fix_all_edit(client, action), uri, client.encoding)
    assert '    标记 = "🚀中文"; torch.npu.synchronize()  # 同步 🎉\n' in fixed
    assert '    batch = batch.npu()  # 数据搬到显卡上 😀🚀\n' in fixed
    assert 'dist.init_process_group(backend="hccl", rank=rank, world_size=world_size)  # 初始化通信后端\n' in fixed
    assert 'return torch.device("npu", rank)\n' in fixed


async def test_fix_all_resolved_after_an_edit_fixes_the_text_as_it_is_now(client):
    """Picked after the document changed (and was analysed again): the edit is for the current text."""
    text = EVALUATE
    uri, _ = await open_and_wait(client, "fix_all_late.py", text)
    (offered,) = await actions_for(client, uri, [], only=["source.fixAll"])
    edited = text.replace("    torch.cuda.synchronize()\n", "    torch.cuda.synchronize()\n    torch.cuda.manual_seed_all(1)\n")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=edited)],
    ))
    await diagnostics_for(client, uri, 2)
    if not resolves_edits(client):
        (offered,) = await actions_for(client, uri, [], only=["source.fixAll"])  # an eager edit is per version
    fixed = apply_workspace_edit(edited, await fix_all_edit(client, offered), uri, client.encoding)
    assert "torch.npu.synchronize()\n    torch.npu.manual_seed_all(1)\n" in fixed and "cuda" not in fixed


async def test_no_fix_all_is_offered_when_no_fix_is_safe(client):
    uri, diagnostics = await open_and_wait(client, "nothing_safe.py", "import apex\n")
    assert diagnostics and not await actions_for(client, uri, [], only=["source.fixAll"])


async def test_the_fix_all_command_asks_the_client_to_apply_the_edit(client):
    text = EVALUATE
    uri, _ = await open_and_wait(client, "fix_all_command.py", text)
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(command="ascend-migrate.fixAll", arguments=[uri]))
    assert result == {"applied": True, "edits": 3}
    applied = client.applied_edits[-1]
    assert applied.label == "ascend-migrate: fix all safe issues"
    assert apply_workspace_edit(text, applied.edit, uri, client.encoding) == text.replace(
        "import torch\n", "import torch\nimport torch_npu\n"
    ).replace('"cuda"', '"npu"').replace("torch.cuda.synchronize", "torch.npu.synchronize")


async def test_only_quick_fixes_when_the_client_asks_for_quick_fixes(client):
    uri, diagnostics = await open_and_wait(client, "only_quickfix.py", EVALUATE)
    actions = await actions_for(client, uri, diagnostics, only=[types.CodeActionKind.QuickFix])
    assert {action.kind for action in actions} == {types.CodeActionKind.QuickFix}


async def test_a_diagnostic_from_another_tool_gets_no_actions(client):
    uri, _ = await open_and_wait(client, "foreign.py", "import os\n")
    foreign = types.Diagnostic(
        range=types.Range(start=types.Position(0, 0), end=types.Position(0, 9)), message="unused import", source="ruff", code="F401"
    )
    assert list(await actions_for(client, uri, [foreign], only=[types.CodeActionKind.QuickFix])) == []


async def test_a_fix_whose_data_does_not_fit_the_text_gives_no_fix_but_keeps_the_other_actions(client):
    uri, diagnostics = await open_and_wait(client, "stale_data.py", EVALUATE)
    diagnostic = code(diagnostics, "NPU101")
    diagnostic.data["fix"] = {"title": "Rewrite", "safe": True, "rewrite": "call-arguments", "arguments": {"call": [99, 1, 99, 5]}}
    titles = [action.title for action in await actions_for(client, uri, [diagnostic], only=[types.CodeActionKind.QuickFix])]
    assert "Rewrite" not in titles
    assert "Ignore NPU101 on this line" in titles


async def test_a_diagnostic_sent_back_without_source_and_data_still_gets_its_quick_fix(client):
    # Vim's ALE rebuilds the diagnostics it sends with a code-action request: range, message and code only.
    uri, diagnostics = await open_and_wait(client, "stripped.py", EVALUATE)
    original = code(diagnostics, "NPU101")
    stripped = types.Diagnostic(range=original.range, message=original.message, code="NPU101")
    actions = await actions_for(client, uri, [stripped], only=[types.CodeActionKind.QuickFix])
    action = by_title(actions, "Replace with torch.npu.synchronize")
    assert apply_workspace_edit(EVALUATE, action.edit, uri, client.encoding) == EVALUATE.replace(
        "import torch\n", "import torch\nimport torch_npu\n"
    ).replace("torch.cuda.synchronize()", "torch.npu.synchronize()")


async def test_messages_and_titles_are_plain_text_for_editors_that_show_them_raw(client):
    """Neovim, Emacs and Vim print a diagnostic's message and an action's title as they are: no Markdown."""
    text = fixture_text("train_cuda.py")
    uri, diagnostics = await open_and_wait(client, "plain_text.py", text)
    actions = await actions_for(client, uri, diagnostics)
    assert diagnostics and actions
    assert [d.message for d in diagnostics if "`" in d.message] == []
    assert [a.title for a in actions if "`" in a.title] == []
    sync = next(d for d in diagnostics if d.data["api"] == "torch.cuda.synchronize")
    assert sync.message.startswith("torch.cuda.synchronize is CUDA-specific; on Ascend use torch.npu.synchronize")

