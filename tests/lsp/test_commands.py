"""Commands: the workspace scan (progress, diagnostics for closed files, summary), report export, lookup, target."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from lsp_session import CLIENTS, FIXTURES, TEST_MAPPINGS, config, diagnostics_for, encoding_of, open_document, start_session, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("workspace")
    shutil.copy(FIXTURES / "train_cuda.py", root / "train.py")
    (root / "distributed").mkdir()
    shutil.copy(FIXTURES / "train_ddp_unicode.py", root / "distributed" / "ddp.py")
    (root / "clean.py").write_text("import math\n\nprint(math.pi)\n", encoding="utf-8")
    (root / "venv").mkdir()
    (root / "venv" / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")  # a virtual environment is skipped
    (root / "venv" / "vendored.py").write_text("import torch\ntorch.cuda.synchronize()\n", encoding="utf-8")
    (root / "generated").mkdir()
    (root / "generated" / "kernels.py").write_text("import torch\ntorch.cuda.synchronize()\n", encoding="utf-8")
    (root / ".gitignore").write_text("generated/\n", encoding="utf-8")
    (root / "open_in_editor.py").write_text("import torch\ntorch.cuda.synchronize()\n", encoding="utf-8")
    return root


@pytest_lsp.fixture(config=config(), params=CLIENTS, scope="module")
async def client(lsp_client: LanguageClient, request, workspace: Path):
    result = await start_session(lsp_client, request.param, root=workspace, options={"target": "npu"})
    lsp_client.encoding = encoding_of(result)
    lsp_client.workspace_root = workspace
    yield
    await lsp_client.shutdown_session()


async def execute(client: LanguageClient, command: str, *arguments):
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(command=command, arguments=list(arguments)))


async def test_export_report_before_any_scan_says_so_in_plain_words(client):
    """First in this module: each client's server has scanned nothing yet."""
    with pytest.raises(JsonRpcException) as error:
        await execute(client, "ascend-migrate.exportReport", {"format": "json", "path": "before-scan.json"})
    assert error.value.code == types.ErrorCodes.InvalidRequest
    assert error.value.message == "no workspace scan yet; scan the workspace first"
    assert error.value.data == {"reason": "no-scan"}
    assert not (client.workspace_root / "before-scan.json").exists()


async def test_the_scan_reports_progress_publishes_closed_files_and_returns_a_summary(client):
    root: Path = client.workspace_root
    open_uri = (root / "open_in_editor.py").as_uri()
    open_document(client, open_uri, "import torch\nprint(torch.__version__)\n")  # edited: no finding any more
    assert await diagnostics_for(client, open_uri, 1) == []
    tokens_before = set(client.progress_reports)
    summary = await execute(client, "ascend-migrate.scanWorkspace")
    assert {key: value for key, value in summary.items() if key != "seconds"} == {
        "files": 4,
        "findings": 12,  # not the one on disk in open_in_editor.py: the scan takes the editor's text
        "categories": {"npu-affinity": 1, "npu-rename": 10, "npu-unsupported": 1},
        "severities": {"error": 1, "warning": 10, "information": 0, "hint": 1},  # as published: checked below
        "errors": 0,
        "cancelled": False,
    }
    (token,) = set(client.progress_reports) - tokens_before
    reports = client.progress_reports[token]
    assert reports[0].kind == "begin" and reports[0].cancellable is True
    assert reports[-1].kind == "end" and reports[-1].message == "4 files, 12 findings"
    percentages = [report.percentage for report in reports if report.kind == "report"]
    assert percentages == sorted(percentages) and percentages[-1] == 100
    assert [report.message for report in reports if report.kind == "report"][-1] == "4/4 files"
    train = (root / "train.py").as_uri()
    ddp = (root / "distributed" / "ddp.py").as_uri()
    assert [d.code for d in client.diagnostics[train]] == ["NPU203", "NPU301", "NPU102", "NPU101", "NPU101", "NPU105", "NPU105", "NPU101"]
    assert [d.code for d in client.diagnostics[ddp]] == ["NPU103", "NPU102", "NPU105", "NPU101"]
    published = [d.severity.name.lower() for uri in (train, ddp) for d in client.diagnostics[uri]]
    assert summary["severities"] == {name: published.count(name) for name in ("error", "warning", "information", "hint")}
    # The open document keeps its live diagnostics; excluded and ignored files get none.
    assert [params.version for params in client.published[open_uri]] == [1]
    assert (root / "venv" / "vendored.py").as_uri() not in client.published
    assert (root / "generated" / "kernels.py").as_uri() not in client.published


async def test_closing_a_scanned_file_shows_it_as_on_disk_again(client):
    root: Path = client.workspace_root
    uri = (root / "clean.py").as_uri()
    await execute(client, "ascend-migrate.scanWorkspace")
    open_document(client, uri, "import torch\ntorch.cuda.synchronize()\n")
    assert len(await diagnostics_for(client, uri, 1)) == 1
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    await wait_until(lambda: client.published[uri][-1].version is None, what="diagnostics after close")
    assert list(client.published[uri][-1].diagnostics) == []


async def test_export_report_writes_the_last_scan(client):
    await execute(client, "ascend-migrate.scanWorkspace")
    output = client.workspace_root / "report.json"
    result = await execute(client, "ascend-migrate.exportReport", {"format": "json", "path": str(output)})
    assert result == {"format": "json", "path": str(output), "findings": 12}
    report = json.loads(output.read_text(encoding="utf-8"))
    # open_in_editor.py has a finding on disk, none in the editor: the scan reads the editor's text.
    assert sorted({finding["path"] for finding in report["findings"]}) == ["distributed/ddp.py", "train.py"]


async def test_export_report_refuses_an_unknown_format(client, tmp_path):
    with pytest.raises(JsonRpcException) as error:
        await execute(client, "ascend-migrate.exportReport", "docx", str(tmp_path / "report.docx"))
    assert error.value.code == types.ErrorCodes.InvalidParams
    assert "format must be one of ['csv', 'html', 'json', 'sarif', 'text'], got 'docx'" in error.value.message


async def test_lookup_returns_the_entries_under_a_name(client):
    entries = await execute(client, "ascend-migrate.lookup", "torch.cuda")
    assert [(entry["api"], entry["route"], entry["category"]) for entry in entries] == [
        ("torch.cuda.is_available", "npu", "npu-rename"),
        ("torch.cuda.manual_seed_all", "npu", "npu-rename"),
        ("torch.cuda.synchronize", "mindspore", "ms-unsupported"),
        ("torch.cuda.synchronize", "npu", "npu-rename"),
    ]
    (linear,) = await execute(client, "ascend-migrate.lookup", {"name": "torch.nn.Linear"})
    assert linear["target"] == "mindspore.nn.Dense"
    assert linear["parameters"][0] == {
        "source": "in_features", "target": "in_channels", "change": "renamed", "source_default": None, "target_default": None, "note": ""
    }


async def test_a_command_with_a_wrong_argument_gets_an_invalid_params_error(client):
    with pytest.raises(JsonRpcException) as error:
        await execute(client, "ascend-migrate.lookup", 42)
    assert error.value.code == types.ErrorCodes.InvalidParams
    assert "`name` must be a non-empty string, got 42" in error.value.message


async def test_set_target_reanalyses_open_documents_for_the_new_route(client):
    uri = "file:///elsewhere/model.py"
    open_document(client, uri, "import torch\nlayer = torch.nn.Linear(4, 2)\ntorch.cuda.synchronize()\n")
    assert [d.code for d in await diagnostics_for(client, uri, 1)] == ["NPU101"]
    count = len(client.published[uri])
    assert await execute(client, "ascend-migrate.setTarget", "mindspore") == {"target": "mindspore"}
    await wait_until(lambda: len(client.published[uri]) > count, what="re-published diagnostics")
    assert [d.code for d in client.published[uri][-1].diagnostics] == ["MS102", "MS103"]
    assert await execute(client, "ascend-migrate.setTarget", "npu") == {"target": "npu"}
    with pytest.raises(JsonRpcException) as error:
        await execute(client, "ascend-migrate.setTarget", "gpu")
    assert "target must be one of ['mindspore', 'npu'], got 'gpu'" in error.value.message


async def test_lookup_takes_a_partial_name_as_typed(client):
    entries = await execute(client, "ascend-migrate.lookup", "torch.nn.Li")
    assert [entry["api"] for entry in entries] == ["torch.nn.Linear"]


async def test_lookup_gives_the_same_json_as_kb_lookup(client):
    """One function in kb/ makes the JSON; the editor's command and the CLI only render it."""
    for name in ("torch.nn.Linear", "torch.cuda.synchronize"):
        cli = subprocess.run([sys.executable, "-m", "ascend_migrate", "kb", "--mappings", str(TEST_MAPPINGS), "lookup", name, "--json"],
                             capture_output=True, text=True, check=True)
        assert await execute(client, "ascend-migrate.lookup", name) == json.loads(cli.stdout)


async def export_refused(client, arguments, message: str) -> None:
    with pytest.raises(JsonRpcException) as error:
        await execute(client, "ascend-migrate.exportReport", *(arguments if isinstance(arguments, list) else [arguments]))
    assert error.value.code == types.ErrorCodes.InvalidParams
    assert message in error.value.message, error.value.message


async def test_export_report_stays_inside_the_workspace(client, tmp_path):
    root: Path = client.workspace_root
    await execute(client, "ascend-migrate.scanWorkspace")
    for path in (str(tmp_path / "report.json"), "../../report.json", str(root / ".." / "report.json")):
        await export_refused(client, {"format": "json", "path": path}, "must be inside the workspace folder")
    await export_refused(client, {"format": "json", "path": "~/report.json"}, "`~` is not expanded")
    await export_refused(client, {"format": "json", "path": "reports/new/report.json"}, "creates no directories")
    assert not (tmp_path / "report.json").exists() and not (root / "reports").exists()
    # A relative path is taken from the workspace folder.
    result = await execute(client, "ascend-migrate.exportReport", {"format": "sarif", "path": "findings.sarif"})
    assert result["path"] == str(root / "findings.sarif") and (root / "findings.sarif").is_file()


async def test_export_report_never_overwrites_a_file_that_is_not_its_report_unless_asked(client):
    root: Path = client.workspace_root
    for leftover in ("csv", "csv-report"):  # from the run with the previous client: the workspace is shared
        shutil.rmtree(root / leftover, ignore_errors=True)
    await execute(client, "ascend-migrate.scanWorkspace")
    precious = root / "notes.json"
    precious.write_text('{"mine": true}\n', encoding="utf-8")
    await export_refused(client, {"format": "json", "path": "notes.json"}, "is not an ascend-migrate json report")
    await export_refused(client, ["html", "train.py"], "is not an ascend-migrate html report")
    assert precious.read_text(encoding="utf-8") == '{"mine": true}\n'
    # Its own report is replaced; any file when asked to.
    await execute(client, "ascend-migrate.exportReport", {"format": "html", "path": "report.html"})
    await execute(client, "ascend-migrate.exportReport", {"format": "html", "path": "report.html"})
    await execute(client, "ascend-migrate.exportReport", {"format": "json", "path": "notes.json", "overwrite": True})
    assert json.loads(precious.read_text(encoding="utf-8"))["tool"]["name"] == "ascend-migrate"
    (root / "csv").mkdir()
    (root / "csv" / "findings.csv").write_text("mine\n", encoding="utf-8")
    await export_refused(client, {"format": "csv", "path": "csv"}, "findings.csv exists and is not an ascend-migrate csv report")
    await execute(client, "ascend-migrate.exportReport", {"format": "csv", "path": "csv-report"})  # its own directory
    await execute(client, "ascend-migrate.exportReport", {"format": "csv", "path": "csv-report"})


async def test_export_report_never_follows_or_replaces_a_symlink(client, tmp_path):
    root: Path = client.workspace_root
    await execute(client, "ascend-migrate.scanWorkspace")
    outside = tmp_path / "outside.json"
    outside.write_text("{}", encoding="utf-8")
    (root / "link.json").symlink_to(outside)
    (root / "linked-directory").symlink_to(tmp_path, target_is_directory=True)
    try:
        await export_refused(client, {"format": "json", "path": "link.json", "overwrite": True}, "is a symbolic link")
        await export_refused(client, {"format": "json", "path": "linked-directory/x.json"}, "is a symbolic link")
        assert (root / "link.json").is_symlink() and outside.read_text(encoding="utf-8") == "{}"
        assert not (tmp_path / "x.json").exists()
    finally:  # the workspace is shared with the other tests, whose scans must not see the links
        (root / "link.json").unlink()
        (root / "linked-directory").unlink()


async def test_a_target_switch_reanalyses_the_closed_files_the_scan_published_and_makes_its_report_stale(client):
    root: Path = client.workspace_root
    await execute(client, "ascend-migrate.scanWorkspace")
    train = (root / "train.py").as_uri()
    assert {d.code[:3] for d in client.diagnostics[train]} == {"NPU"}
    count = len(client.published[train])
    await execute(client, "ascend-migrate.setTarget", "mindspore")
    try:
        await wait_until(lambda: len(client.published[train]) > count, what="train.py published again")
        codes = [d.code for d in client.published[train][-1].diagnostics]
        assert codes and all(code.startswith("MS") for code in codes), codes
        with pytest.raises(JsonRpcException) as error:
            await execute(client, "ascend-migrate.exportReport", {"format": "json", "path": "stale.json"})
        assert error.value.data == {"reason": "stale-scan"}
        assert error.value.message == (
            "the last workspace scan is out of date (the target or settings changed since); scan the workspace again"
        )
        assert not (root / "stale.json").exists()
        await execute(client, "ascend-migrate.scanWorkspace")
        result = await execute(client, "ascend-migrate.exportReport", {"format": "json", "path": "fresh.json"})
        assert json.loads((root / "fresh.json").read_text(encoding="utf-8"))["findings"][0]["code"].startswith("MS")
        assert result["findings"] > 0
    finally:
        count = len(client.published[train])
        await execute(client, "ascend-migrate.setTarget", "npu")
        await wait_until(lambda: len(client.published[train]) > count, what="train.py published again for npu")
        (root / "fresh.json").unlink(missing_ok=True)
    assert {d.code[:3] for d in client.published[train][-1].diagnostics} == {"NPU"}
