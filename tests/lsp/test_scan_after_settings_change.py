"""A workspace scan's diagnostics of closed files follow a settings change pushed with didChangeConfiguration."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from lsp_session import config, start_session, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(config=config(), params=["neovim"], scope="module")
async def client(lsp_client: LanguageClient, request, tmp_path_factory):
    root = tmp_path_factory.mktemp("switched")
    (root / "train.py").write_text("import torch\nlayer = torch.nn.Linear(4, 2)\ntorch.cuda.synchronize()\n", encoding="utf-8")
    await start_session(lsp_client, request.param, root=root, options={"target": "npu"})
    lsp_client.root = root
    yield
    await lsp_client.shutdown_session()


async def execute(client: LanguageClient, command: str, *arguments):
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(command=command, arguments=list(arguments)))


async def test_a_pushed_target_republishes_the_scanned_closed_files(client):
    uri = (client.root / "train.py").as_uri()
    await execute(client, "ascend-migrate.scanWorkspace")
    assert [d.code for d in client.diagnostics[uri]] == ["NPU101"]
    count = len(client.published[uri])
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"ascendMigrate": {"target": "mindspore"}}))
    await wait_until(lambda: len(client.published[uri]) > count, what="the scanned file published again")
    assert [d.code for d in client.published[uri][-1].diagnostics] == ["MS102", "MS103"]
    with pytest.raises(JsonRpcException) as error:
        await execute(client, "ascend-migrate.exportReport", {"format": "json", "path": "report.json"})
    assert error.value.data == {"reason": "stale-scan"}
    count = len(client.published[uri])
    # Back to the target the scan used: its report is current again.
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"ascendMigrate": {"target": "npu"}}))
    await wait_until(lambda: len(client.published[uri]) > count, what="the scanned file published for npu again")
    result = await execute(client, "ascend-migrate.exportReport", {"format": "json", "path": "report.json"})
    assert result["findings"] == 1 and Path(result["path"]).is_file()
