"""A multi-root workspace: each folder scanned and analysed with its own settings, open files scanned as the
editor has them, and a file name that is not UTF-8 published under a URI that names its bytes."""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import unquote_to_bytes, urlsplit

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from lsp_session import config, diagnostics_for, open_document, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="module")

SCRIPT = "import torch\nlayer = torch.nn.Linear(4, 2)\ntorch.cuda.synchronize()\n"
SYNCHRONIZE = "import torch\ntorch.cuda.synchronize()\n"
NON_UTF8_NAME = b"caf\xe9.py"  # Latin-1 "café.py": not valid UTF-8
ERROR, WARNING, INFO, HINT = (
    types.DiagnosticSeverity.Error, types.DiagnosticSeverity.Warning, types.DiagnosticSeverity.Information, types.DiagnosticSeverity.Hint
)


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict[str, Path]:
    """`ported` moves to MindSpore, `kept` stays on PyTorch with torch_npu; `elsewhere` is in no folder."""
    ported = tmp_path_factory.mktemp("ported")
    write(ported / "pyproject.toml", (
        '[project]\nname = "ported"\n\n[tool.ascend-migrate]\ntarget = "mindspore"\nextend-exclude = ["legacy"]\n'
        'severity = {"ms-unsupported" = "hint"}\n'
    ))
    write(ported / "model.py", SCRIPT)
    write(ported / "edited.py", SCRIPT)
    write(ported / "legacy" / "old.py", SYNCHRONIZE)
    # A project nested in the folder, still on PyTorch: its own pyproject.toml counts for its files.
    write(ported / "serving" / "pyproject.toml", '[tool.ascend-migrate]\ntarget = "npu"\n')
    write(ported / "serving" / "server.py", SYNCHRONIZE)
    with open(os.path.join(os.fsencode(ported), NON_UTF8_NAME), "wb") as stream:
        stream.write(SYNCHRONIZE.encode("utf-8"))
    kept = tmp_path_factory.mktemp("kept")
    write(kept / "pyproject.toml", '[project]\nname = "kept"\n\n[tool.ascend-migrate]\ntarget = "npu"\n')
    write(kept / "model.py", SCRIPT)
    write(kept / "legacy" / "old.py", SYNCHRONIZE)
    return {"ported": ported, "kept": kept, "elsewhere": tmp_path_factory.mktemp("elsewhere")}


@pytest_lsp.fixture(config=config(), scope="module")
async def client(lsp_client: LanguageClient, folders: dict[str, Path]):
    ported, kept = folders["ported"], folders["kept"]
    # What VS Code answers: the user's settings, and per folder the settings with that folder's own merged in.
    lsp_client.set_configuration({"target": "mindspore", "severity": {"ms-unsupported": "info"}}, section="ascendMigrate")
    lsp_client.set_configuration({"target": "npu"}, section="ascendMigrate", scope_uri=ported.as_uri())
    lsp_client.set_configuration({"severity": {"npu-rename": "error"}}, section="ascendMigrate", scope_uri=kept.as_uri())
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=ported.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=ported.as_uri(), name="ported"), types.WorkspaceFolder(uri=kept.as_uri(), name="kept")],
        )
    )
    lsp_client.folders = folders
    yield
    await lsp_client.shutdown_session()


async def scan(client: LanguageClient) -> dict:
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(command="ascend-migrate.scanWorkspace", arguments=[]))


def codes_and_severities(diagnostics) -> list[tuple[str, types.DiagnosticSeverity]]:
    return [(diagnostic.code, diagnostic.severity) for diagnostic in diagnostics]


async def test_each_folder_is_scanned_with_its_own_project_and_editor_settings(client):
    """Asked for right after `initialized`: the scan waits for the settings the server is pulling."""
    ported, kept = client.folders["ported"], client.folders["kept"]
    summary = await scan(client)
    # ported: model.py, edited.py, café.py, serving/server.py (legacy/ is excluded there); kept: model.py, legacy/old.py.
    assert (summary["files"], summary["findings"], summary["categories"]) == (6, 8, {"ms-differs": 2, "ms-unsupported": 3, "npu-rename": 3})
    # ported: the project's mindspore target and ms-unsupported severity win over the folder's editor settings.
    assert codes_and_severities(client.diagnostics[(ported / "model.py").as_uri()]) == [("MS102", WARNING), ("MS103", HINT)]
    assert codes_and_severities(client.diagnostics[(ported / "edited.py").as_uri()]) == [("MS102", WARNING), ("MS103", HINT)]
    assert (ported / "legacy" / "old.py").as_uri() not in client.published
    # ... except in the nested project, whose own pyproject.toml says npu (as when the file is opened).
    assert codes_and_severities(client.diagnostics[(ported / "serving" / "server.py").as_uri()]) == [("NPU101", WARNING)]
    # kept: the npu target of its project, the npu-rename severity of its folder's editor settings, no exclude.
    assert codes_and_severities(client.diagnostics[(kept / "model.py").as_uri()]) == [("NPU101", ERROR)]
    assert codes_and_severities(client.diagnostics[(kept / "legacy" / "old.py").as_uri()]) == [("NPU101", ERROR)]


async def test_open_documents_take_the_settings_of_their_folder_or_the_global_ones_outside_every_folder(client):
    ported, kept, elsewhere = client.folders["ported"], client.folders["kept"], client.folders["elsewhere"]
    expected = {
        (ported / "unsaved_new.py").as_uri(): [("MS102", WARNING), ("MS103", HINT)],
        (ported / "serving" / "unsaved_new.py").as_uri(): [("NPU101", WARNING)],
        (kept / "unsaved_new.py").as_uri(): [("NPU101", ERROR)],
        (elsewhere / "loose.py").as_uri(): [("MS102", WARNING), ("MS103", INFO)],  # the user's settings
    }
    for uri in expected:
        open_document(client, uri, SCRIPT)
    assert {uri: codes_and_severities(await diagnostics_for(client, uri, 1)) for uri in expected} == expected


async def test_the_scan_reads_an_open_file_as_the_editor_has_it_and_closing_it_shows_the_disk_again(client, tmp_path):
    ported = client.folders["ported"]
    uri = (ported / "edited.py").as_uri()
    open_document(client, uri, SYNCHRONIZE)  # unsaved: the Linear line is gone
    assert codes_and_severities(await diagnostics_for(client, uri, 1)) == [("MS103", HINT)]
    summary = await scan(client)
    assert summary["findings"] == 7
    report_path = ported / "report.json"
    await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="ascend-migrate.exportReport", arguments=["json", str(report_path)])
    )
    report = json.loads(report_path.read_text(encoding="utf-8"))
    assert [(finding["line"], finding["code"]) for finding in report["findings"] if finding["path"] == "edited.py"] == [(2, "MS103")]
    # The live diagnostics stay; the scan published nothing over them.
    assert [params.version for params in client.published[uri]] == [None, 1]
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    await wait_until(lambda: client.published[uri][-1].version is None and len(client.published[uri]) == 3, what="diagnostics from disk")
    assert codes_and_severities(client.published[uri][-1].diagnostics) == [("MS102", WARNING), ("MS103", HINT)]


async def test_a_file_name_that_is_not_utf8_is_published_under_the_uri_of_its_bytes(client):
    ported = client.folders["ported"]
    await scan(client)
    uri = ported.as_uri() + "/caf%E9.py"
    assert codes_and_severities(client.diagnostics[uri]) == [("MS103", HINT)]
    assert not [published for published in client.published if "caf" in published and published != uri]
    # The URI names exactly the file's bytes.
    assert unquote_to_bytes(urlsplit(uri).path) == os.path.join(os.fsencode(ported), NON_UTF8_NAME)
    # ... and the server maps it back to the file: opened, the document is analysed; closed, the server reads
    # the file from disk again under that URI.
    open_document(client, uri, "import torch\nx = torch.nn.Linear(1, 1)\n")
    assert codes_and_severities(await diagnostics_for(client, uri, 1)) == [("MS102", WARNING)]
    count = len(client.published[uri])
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    await wait_until(lambda: len(client.published[uri]) > count, what="diagnostics from disk after close")
    assert codes_and_severities(client.published[uri][-1].diagnostics) == [("MS103", HINT)]


async def test_a_removed_folder_is_no_longer_scanned_and_loses_its_folder_settings(client):
    kept = client.folders["kept"]
    client.workspace_did_change_workspace_folders(
        types.DidChangeWorkspaceFoldersParams(
            event=types.WorkspaceFoldersChangeEvent(added=[], removed=[types.WorkspaceFolder(uri=kept.as_uri(), name="kept")])
        )
    )
    uri = (kept / "after_removal.py").as_uri()
    open_document(client, uri, SYNCHRONIZE)
    # Its project's target still counts (the nearest pyproject.toml); the folder's editor severity does not.
    assert codes_and_severities(await diagnostics_for(client, uri, 1)) == [("NPU101", WARNING)]
    summary = await scan(client)
    assert summary["files"] == 4
    # kept's files were fixed "since the last scan" as far as the problem list goes: their diagnostics clear. The
    # clearing is a notification the worker thread sends, which may arrive after the scan's reply on a busy machine.
    model = (kept / "model.py").as_uri()
    await wait_until(lambda: list(client.diagnostics[model]) == [], what="kept's diagnostics cleared")
