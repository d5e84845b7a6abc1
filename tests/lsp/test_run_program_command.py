"""`ascend-migrate.run` through a real client: the runtime check of a workspace program (docs/runtime-check.md).

The run needs torch in the interpreter that runs the program; without it the command answers with `run`'s message
(the suite's light venv), with it (CI stage 35) the program runs and its report comes back.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from lsp_session import config, encoding_of, start_session

pytestmark = pytest.mark.asyncio(loop_scope="module")
HAS_TORCH = importlib.util.find_spec("torch") is not None
RUN = "ascend-migrate.run"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("run-workspace")
    (root / "left.py").write_text("import torch\nimport torch_npu\n\nif torch.cuda.is_available():\n    print('cuda')\n"
                                  "print('done')\n", encoding="utf-8")
    return root


@pytest_lsp.fixture(config=config(mappings=None), params=["visual-studio-code"], scope="module")
async def client(lsp_client: LanguageClient, request, workspace: Path):
    result = await start_session(lsp_client, request.param, root=workspace)
    lsp_client.encoding = encoding_of(result)
    yield
    await lsp_client.shutdown_session()


async def execute(client: LanguageClient, *arguments):
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(command=RUN, arguments=list(arguments)))


@pytest.mark.parametrize(("arguments", "message"), [
    ({"program": "left.py"}, "`program` must be a non-empty list of strings"),
    ({"program": ["python", "left.py"], "steps": 0}, "`steps` must be a positive integer, got 0"),
    ({"program": ["python", "left.py"], "timeout": "soon"}, "`timeout` must be a positive number, got 'soon'"),
    ({"program": ["python", "left.py"], "workers": 2}, "unknown argument(s) workers"),
])
async def test_malformed_arguments_are_refused_with_what_is_wrong(client, arguments, message):
    with pytest.raises(JsonRpcException) as error:
        await execute(client, arguments)
    assert error.value.code == types.ErrorCodes.InvalidParams
    assert message in error.value.message


@pytest.mark.skipif(HAS_TORCH, reason="this interpreter has torch: the run itself is tested")
async def test_without_torch_the_answer_is_runs_message(client):
    with pytest.raises(JsonRpcException) as error:
        await execute(client, {"program": ["python", "left.py"]})
    assert error.value.code == types.ErrorCodes.InvalidParams
    assert "cannot import torch" in error.value.message


@pytest.mark.skipif(not HAS_TORCH, reason="needs torch (CI stage 35)")
async def test_the_program_runs_and_its_report_comes_back(client, workspace):
    answer = await execute(client, {"program": ["python", "left.py"], "timeout": 300})
    assert answer["status"] == 1, answer["stderr"]  # a CUDA call left: required, as `run` exits
    assert answer["report"]["program"]["outcome"] == "completed"
    assert [(finding["path"], finding["line"], finding["code"]) for finding in answer["report"]["findings"]] == [
        ("left.py", 4, "NPU101")]
    assert "done" in answer["stderr"]  # the program's own output (stdout belongs to the JSON report)
