"""Helpers for tests/lsp: a real ascend-migrate server in a subprocess, driven by pytest-lsp's client under
recorded capability sets. (Not conftest.py: other rooms have one too, and `from conftest import` would
pick whichever was imported first.)

Protocol tests point the server at the small knowledge base in tests/lsp/mappings/ (ASCEND_MIGRATE_MAPPINGS),
so they do not move when the real tables in mappings/ grow.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import pytest_lsp
from lsprotocol import types
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import PositionCodec
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features
from pygls.protocol import default_converter

HERE = Path(__file__).parent
FIXTURES = HERE / "fixtures"
TEST_MAPPINGS = HERE / "mappings"
CLIENTS = ["visual-studio-code", "neovim", "emacs"]
SERVER_COMMAND = [sys.executable, "-m", "ascend_migrate", "serve", "--stdio", "--log-level", "debug"]


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def server_environment(mappings: Path | None = TEST_MAPPINGS) -> dict[str, str]:
    environment = dict(os.environ)
    environment.pop("ASCEND_MIGRATE_MAPPINGS", None)
    if mappings is not None:
        environment["ASCEND_MIGRATE_MAPPINGS"] = str(mappings)
    return environment


def make_client() -> LanguageClient:
    """pytest-lsp's client, also keeping every publishDiagnostics (with its version) and applied edit."""
    client = LanguageClient(converter_factory=default_converter)
    client.published = {}  # type: ignore[attr-defined]
    client.applied_edits = []  # type: ignore[attr-defined]
    client.registrations = []  # type: ignore[attr-defined]

    def publish(ls: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        ls.diagnostics[params.uri] = params.diagnostics
        ls.published.setdefault(params.uri, []).append(params)  # type: ignore[attr-defined]

    def apply_edit(ls: LanguageClient, params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        ls.applied_edits.append(params)  # type: ignore[attr-defined]
        return types.ApplyWorkspaceEditResult(applied=True)

    def register_capability(ls: LanguageClient, params: types.RegistrationParams) -> None:
        ls.registrations.extend(params.registrations)  # type: ignore[attr-defined]

    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish
    features[types.WORKSPACE_APPLY_EDIT] = apply_edit
    features[types.CLIENT_REGISTER_CAPABILITY] = register_capability
    register_lsp_features(client, features)
    return client


def config(mappings: Path | None = TEST_MAPPINGS) -> ClientServerConfig:
    return ClientServerConfig(server_command=SERVER_COMMAND, client_factory=make_client, server_env=server_environment(mappings))


def session(options: dict[str, Any], clients: list[str] = CLIENTS, mappings: Path | None = TEST_MAPPINGS):
    """A module-scoped `client` fixture: one server per capability set, initialised with `options`."""

    @pytest_lsp.fixture(config=config(mappings), params=clients, scope="module")
    async def client(lsp_client: LanguageClient, request):
        result = await start_session(lsp_client, request.param, options=options)
        lsp_client.encoding = encoding_of(result)
        yield
        await lsp_client.shutdown_session()

    return client


async def start_session(
    client: LanguageClient, client_name: str, root: Path | None = None, options: dict[str, Any] | None = None
) -> types.InitializeResult:
    folders = [types.WorkspaceFolder(uri=root.as_uri(), name=root.name)] if root is not None else None
    return await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities(client_name),
            root_uri=root.as_uri() if root is not None else None,
            workspace_folders=folders,
            initialization_options=options,
        )
    )


def encoding_of(result: types.InitializeResult) -> str:
    encoding = result.capabilities.position_encoding or "utf-16"
    return getattr(encoding, "value", encoding)


async def wait_until(condition, timeout: float = 20.0, what: str = "the condition") -> None:
    """Poll `condition()` until true; fails (rather than hangs) when the server never gets there."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


async def diagnostics_for(client: LanguageClient, uri: str, version: int | None, timeout: float = 20.0) -> list[types.Diagnostic]:
    """The diagnostics published for `uri` at `version` (waiting for them)."""

    def published() -> bool:
        return any(params.version == version for params in client.published.get(uri, []))  # type: ignore[attr-defined]

    await wait_until(published, timeout=timeout, what=f"diagnostics for {uri} version {version}")
    return list([params for params in client.published[uri] if params.version == version][-1].diagnostics)  # type: ignore[attr-defined]


def open_document(client: LanguageClient, uri: str, text: str, version: int = 1) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri, language_id="python", version=version, text=text))
    )


def apply_text_edits(text: str, edits: list[types.TextEdit], encoding: str) -> str:
    """Apply LSP text edits as a client would, with pygls' own position codec (an independent implementation)."""
    codec = PositionCodec(encoding=encoding)
    document = TextDocument("file:///edited.py", text, position_codec=codec)
    offsets = [(document.offset_at_position(edit.range.start), document.offset_at_position(edit.range.end), edit.new_text) for edit in edits]
    for start, end, new_text in sorted(offsets, key=lambda item: (item[0], item[1]), reverse=True):
        text = text[:start] + new_text + text[end:]
    return text


def apply_workspace_edit(text: str, edit: types.WorkspaceEdit, uri: str, encoding: str) -> str:
    edits: list[types.TextEdit] = []
    for change in edit.document_changes or []:
        assert isinstance(change, types.TextDocumentEdit) and change.text_document.uri == uri
        edits.extend(change.edits)
    for changed_uri, changed in (edit.changes or {}).items():
        assert changed_uri == uri
        edits.extend(changed)
    return apply_text_edits(text, edits, encoding)


def text_at(text: str, range_: types.Range, encoding: str) -> str:
    """The text a client would see under `range_`."""
    document = TextDocument("file:///read.py", text, position_codec=PositionCodec(encoding=encoding))
    return text[document.offset_at_position(range_.start):document.offset_at_position(range_.end)]
