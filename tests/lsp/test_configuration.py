"""Settings: initializationOptions, workspace/configuration, didChangeConfiguration and pyproject.toml."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_session import CLIENTS, config, diagnostics_for, open_document, start_session, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="module")

SCRIPT = "import torch\nlayer = torch.nn.Linear(4, 2)\ntorch.cuda.synchronize()\n"


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("configured")
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\n\n[tool.ascend-migrate]\ntarget = "mindspore"\n', encoding="utf-8")
    (root / "unconfigured").mkdir()
    return root


@pytest_lsp.fixture(config=config(), params=CLIENTS, scope="module")
async def client(lsp_client: LanguageClient, request, project: Path):
    # The client's workspace/configuration answer: pulled by the server after `initialized`.
    lsp_client.set_configuration({"target": "npu", "severity": {"npu-rename": "error"}}, section="ascendMigrate")
    await start_session(lsp_client, request.param, root=project, options={"target": "npu"})
    lsp_client.project = project
    yield
    await lsp_client.shutdown_session()


async def republished(client: LanguageClient, uri: str, count: int) -> list[types.Diagnostic]:
    await wait_until(lambda: len(client.published[uri]) > count, what=f"new diagnostics for {uri}")
    return list(client.published[uri][-1].diagnostics)


def change_configuration(client: LanguageClient, settings) -> None:
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=settings))


async def test_pulled_settings_apply_to_files_without_a_project_table(client):
    uri = "file:///tmp/loose_script.py"
    open_document(client, uri, SCRIPT)
    (diagnostic,) = await diagnostics_for(client, uri, 1)
    assert (diagnostic.code, diagnostic.severity) == ("NPU101", types.DiagnosticSeverity.Error)


async def test_the_project_table_wins_over_the_editor_by_default(client):
    uri = (client.project / "model.py").as_uri()
    open_document(client, uri, SCRIPT)
    assert [d.code for d in await diagnostics_for(client, uri, 1)] == ["MS102", "MS103"]


async def test_a_pushed_configuration_change_republishes_open_documents(client):
    uri = "file:///tmp/pushed.py"
    open_document(client, uri, SCRIPT)
    await diagnostics_for(client, uri, 1)
    count = len(client.published[uri])
    change_configuration(client, {"ascendMigrate": {"target": "npu", "severity": {"npu-rename": "hint"}}})
    (diagnostic,) = await republished(client, uri, count)
    assert diagnostic.severity == types.DiagnosticSeverity.Hint
    assert client.published[uri][-1].version == 1


async def test_a_null_configuration_change_pulls_the_settings_again(client):
    uri = "file:///tmp/pulled.py"
    open_document(client, uri, SCRIPT)
    await diagnostics_for(client, uri, 1)
    count = len(client.published[uri])
    client.set_configuration({"target": "mindspore"}, section="ascendMigrate")
    change_configuration(client, None)
    assert [d.code for d in await republished(client, uri, count)] == ["MS102", "MS103"]


async def test_an_invalid_setting_is_reported_once_and_the_last_good_settings_stay(client):
    uri = "file:///tmp/invalid.py"
    open_document(client, uri, SCRIPT)
    codes = [d.code for d in await diagnostics_for(client, uri, 1)]
    messages_before = len(client.messages)
    for _ in range(2):
        change_configuration(client, {"ascendMigrate": {"target": "gpu", "minConfidence": "sure"}})
    await wait_until(lambda: len(client.messages) > messages_before, what="a showMessage")
    lookup = await client.workspace_execute_command_async(types.ExecuteCommandParams(command="ascend-migrate.lookup", arguments=["torch.nn.ReLU"]))
    assert lookup  # the server still answers
    new_messages = client.messages[messages_before:]
    assert len(new_messages) == 1
    assert new_messages[0].type == types.MessageType.Error
    assert new_messages[0].message == (
        "Invalid ascend-migrate settings (the previous settings stay in use): "
        "target: must be one of ['mindspore', 'npu'], got 'gpu'"
    )
    open_document(client, "file:///tmp/invalid_after.py", SCRIPT)
    assert [d.code for d in await diagnostics_for(client, "file:///tmp/invalid_after.py", 1)] == codes


async def test_editor_first_lets_the_editor_win_over_the_project(client):
    uri = (client.project / "editor_first.py").as_uri()
    change_configuration(client, {"ascendMigrate": {"target": "npu", "configurationPreference": "editorFirst"}})
    open_document(client, uri, SCRIPT)
    await wait_until(lambda: uri in client.published, what="diagnostics")
    await wait_until(lambda: [d.code for d in client.published[uri][-1].diagnostics] == ["NPU101"], what="npu diagnostics")
    change_configuration(client, {"ascendMigrate": {"target": "npu", "configurationPreference": "filesystemFirst"}})
    await wait_until(lambda: [d.code for d in client.published[uri][-1].diagnostics] == ["MS102", "MS103"], what="mindspore diagnostics")


async def test_a_changed_pyproject_reanalyses_and_a_broken_one_keeps_the_last_good_settings(client):
    project: Path = client.project
    uri = (project / "watched.py").as_uri()
    open_document(client, uri, SCRIPT)
    assert [d.code for d in await diagnostics_for(client, uri, 1)] == ["MS102", "MS103"]
    pyproject = project / "pyproject.toml"
    original = pyproject.read_text(encoding="utf-8")
    try:
        pyproject.write_text(original.replace('target = "mindspore"', 'target = "npu"'), encoding="utf-8")
        count = len(client.published[uri])
        client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=pyproject.as_uri(), type=types.FileChangeType.Changed)])
        )
        assert [d.code for d in await republished(client, uri, count)] == ["NPU101"]

        messages_before = len(client.messages)
        pyproject.write_text(original.replace('target = "mindspore"', 'target = "tpu"'), encoding="utf-8")
        count = len(client.published[uri])
        client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=pyproject.as_uri())))
        assert [d.code for d in await republished(client, uri, count)] == ["NPU101"]
        assert [message.message for message in client.messages[messages_before:]] == [
            f"{pyproject} [tool.ascend-migrate]: target: must be one of ['mindspore', 'npu'], got 'tpu' "
            "(ascend-migrate keeps the last good settings)"
        ]
    finally:
        pyproject.write_text(original, encoding="utf-8")
        client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=pyproject.as_uri(), type=types.FileChangeType.Changed)])
        )


async def test_clients_with_dynamic_registration_are_asked_to_watch_pyproject(client):
    watched = [registration for registration in client.registrations if registration.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES]
    dynamic = client.capabilities.workspace.did_change_watched_files
    if dynamic is not None and dynamic.dynamic_registration:
        (registration,) = watched
        assert registration.register_options["watchers"] == [{"globPattern": "**/pyproject.toml"}]
    else:
        assert watched == []


async def test_a_workspace_folder_can_have_settings_of_its_own(client):
    project: Path = client.project
    client.set_configuration({"target": "mindspore", "severity": {"ms-unsupported": "warning"}}, section="ascendMigrate")
    client.set_configuration({"target": "mindspore", "severity": {"ms-unsupported": "hint"}}, section="ascendMigrate", scope_uri=project.as_uri())
    inside, outside = (project / "folder_scoped.py").as_uri(), "file:///tmp/outside_the_folder.py"
    probe = "file:///tmp/probe.py"
    open_document(client, probe, SCRIPT)
    await diagnostics_for(client, probe, 1)
    count = len(client.published[probe])
    change_configuration(client, None)  # pull again, now per folder too
    await republished(client, probe, count)  # the new settings are in use
    open_document(client, inside, "import torch\ntorch.cuda.synchronize()\n")
    open_document(client, outside, "import torch\ntorch.cuda.synchronize()\n")
    ((inside_code, inside_severity),) = [(d.code, d.severity) for d in await diagnostics_for(client, inside, 1)]
    ((outside_code, outside_severity),) = [(d.code, d.severity) for d in await diagnostics_for(client, outside, 1)]
    assert (inside_code, inside_severity) == ("MS103", types.DiagnosticSeverity.Hint)
    assert (outside_code, outside_severity) == ("MS103", types.DiagnosticSeverity.Warning)
