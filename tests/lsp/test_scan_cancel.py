"""Cancelling the workspace scan, from the progress UI and with $/cancelRequest."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from lsp_session import config, fixture_text, start_session, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="module")
FILE_COUNT = 800  # far more than the scan can do before the cancellation arrives


@pytest.fixture(scope="module")
def big_workspace(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("big_workspace")
    text = fixture_text("train_cuda.py")
    for index in range(FILE_COUNT):
        directory = root / f"experiment_{index // 100:02d}"
        directory.mkdir(exist_ok=True)
        (directory / f"train_{index:04d}.py").write_text(text, encoding="utf-8")
    return root


@pytest_lsp.fixture(config=config(), params=["visual-studio-code"], scope="module")
async def client(lsp_client: LanguageClient, big_workspace: Path):
    await start_session(lsp_client, "visual-studio-code", root=big_workspace, options={"target": "npu"})
    yield
    await lsp_client.shutdown_session()


def start_scan(client: LanguageClient, message_id: str) -> asyncio.Future:
    params = types.ExecuteCommandParams(command="ascend-migrate.scanWorkspace", arguments=[])
    return asyncio.wrap_future(client.protocol.send_request(types.WORKSPACE_EXECUTE_COMMAND, params, msg_id=message_id))


async def first_report(client: LanguageClient, known: set) -> str:
    """The token of the new scan's progress, once it has reported a file done."""

    def reported() -> bool:
        return any(token not in known and any(value.kind == "report" for value in values) for token, values in client.progress_reports.items())

    await wait_until(reported, what="the first progress report")
    return next(token for token in client.progress_reports if token not in known)


async def test_cancelling_the_progress_stops_the_scan_and_returns_what_was_done(client):
    known = set(client.progress_reports)
    scan = start_scan(client, "scan-progress-cancel")
    token = await first_report(client, known)
    client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))
    summary = await scan
    assert summary["cancelled"] is True
    assert 0 < summary["files"] < FILE_COUNT
    end = client.progress_reports[token][-1]
    assert end.kind == "end" and end.message.startswith("cancelled: ")


async def test_cancel_request_answers_request_cancelled(client):
    known = set(client.progress_reports)
    scan = start_scan(client, "scan-cancel-request")
    token = await first_report(client, known)
    client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="scan-cancel-request"))
    with pytest.raises(JsonRpcException) as error:
        await scan
    assert error.value.code == types.LSPErrorCodes.RequestCancelled
    # The scan thread saw the cancellation too: its progress ends instead of running to 100%.
    await wait_until(lambda: client.progress_reports[token][-1].kind == "end", what="the progress to end")
    assert client.progress_reports[token][-1].message.startswith("cancelled: ")


async def test_the_server_still_answers_after_cancelled_scans(client):
    entries = await client.workspace_execute_command_async(types.ExecuteCommandParams(command="ascend-migrate.lookup", arguments=["torch.cuda.synchronize"]))
    assert [entry["route"] for entry in entries] == ["mindspore", "npu"]
