"""Notebook documents through a real client's LSP 3.17 notebook messages: the cells analysed as one program,
diagnostics per cell URI (the same findings `scan` reports as cell and line), code actions and hover per cell,
cells added, edited and closed."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsp_session import apply_workspace_edit, config, diagnostics_for, encoding_of, wait_until
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from ascend_migrate.config import Settings
from ascend_migrate.notebooks.document import parse_notebook
from ascend_migrate.notebooks.per_file import analyze_notebook

pytestmark = pytest.mark.asyncio(loop_scope="module")

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "fixtures" / "cuda_training.ipynb"
NOTEBOOK_URI = NOTEBOOK.as_uri()


def cell_uri(number: int) -> str:
    return f"vscode-notebook-cell:{NOTEBOOK.as_posix()}#cell{number}"


CELLS = parse_notebook(NOTEBOOK.read_text(encoding="utf-8")).cells


@pytest_lsp.fixture(config=config(None), scope="module")
async def client(lsp_client: LanguageClient, request):
    capabilities = client_capabilities("visual-studio-code")  # recorded before VS Code declared notebook sync
    capabilities.notebook_document = types.NotebookDocumentClientCapabilities(
        synchronization=types.NotebookDocumentSyncClientCapabilities(execution_summary_support=True))
    folder = types.WorkspaceFolder(uri=NOTEBOOK.parent.as_uri(), name="fixtures")  # holds only the notebook
    result = await lsp_client.initialize_session(types.InitializeParams(
        capabilities=capabilities, initialization_options={"target": "npu"}, root_uri=folder.uri, workspace_folders=[folder]))
    lsp_client.encoding = encoding_of(result)
    lsp_client.capabilities_result = result.capabilities
    yield
    await lsp_client.shutdown_session()


def _cell(number: int, kind: str) -> types.NotebookCell:
    code = kind == "code"
    return types.NotebookCell(kind=types.NotebookCellKind.Code if code else types.NotebookCellKind.Markup, document=cell_uri(number))


def _item(number: int, kind: str, text: str, version: int = 1) -> types.TextDocumentItem:
    return types.TextDocumentItem(uri=cell_uri(number), language_id="python" if kind == "code" else "markdown", version=version, text=text)


async def test_the_server_offers_notebook_sync_for_python_cells(client):
    sync = client.capabilities_result.notebook_document_sync
    assert sync is not None and sync.save is True
    selector = sync.notebook_selector[0]
    assert selector.notebook == "*" and [cell.language for cell in selector.cells] == ["python"]


async def test_each_cell_gets_the_findings_scan_reports_for_it_and_a_fix_and_hover_work_in_a_cell(client):
    client.notebook_document_did_open(types.DidOpenNotebookDocumentParams(
        notebook_document=types.NotebookDocument(uri=NOTEBOOK_URI, notebook_type="jupyter-notebook", version=1,
                                                 cells=[_cell(cell.number, cell.kind) for cell in CELLS]),
        cell_text_documents=[_item(cell.number, cell.kind, cell.source) for cell in CELLS],
    ))
    published = {}
    for cell in CELLS:
        if cell.kind == "code":
            published[cell.number] = await diagnostics_for(client, cell_uri(cell.number), 1)
    assert cell_uri(1) not in client.published  # the markdown cell is not analysed
    seen = sorted((number, item.range.start.line + 1, item.range.start.character + 1, item.code)
                  for number, items in published.items() for item in items)
    scanned = analyze_notebook(NOTEBOOK, "cuda_training.ipynb", Settings(target="npu")).findings
    assert seen == [(finding.cell, finding.line, finding.column, finding.code) for finding in scanned]
    assert (6, 7, 5, "NPU101") in seen and (2, 2, 8, "NPU106") in seen  # cell 6 knows cell 2's `import torch`

    synchronize = next(item for item in published[6] if item.code == "NPU101")
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=cell_uri(6)), range=synchronize.range,
        context=types.CodeActionContext(diagnostics=[synchronize], only=[types.CodeActionKind.QuickFix])))
    preferred = [action for action in actions if action.is_preferred]
    assert len(preferred) == 1
    edit = preferred[0].edit
    if edit is None:
        edit = (await client.code_action_resolve_async(preferred[0])).edit
    fixed = apply_workspace_edit(CELLS[5].source, edit, cell_uri(6), client.encoding)
    assert fixed == CELLS[5].source.replace("    torch.cuda.synchronize()\ntorch", "    torch.npu.synchronize()\ntorch")

    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=cell_uri(6)), position=types.Position(line=6, character=12)))
    assert hover is not None and "NPU101" in hover.contents.value and "torch.npu.synchronize" in hover.contents.value


async def test_a_workspace_scan_reads_an_open_notebook_from_its_file_and_publishes_nothing_for_it(client):
    summary = await client.workspace_execute_command_async(types.ExecuteCommandParams(command="ascend-migrate.scanWorkspace"))
    assert (summary["files"], summary["findings"], summary["errors"]) == (1, 4, 0)  # the whole program, not one cell's text
    assert NOTEBOOK_URI not in client.published  # its cells have the diagnostics; the file's JSON lines have none


async def test_editing_adding_and_closing_cells(client):
    # cell 6 edited as the quick fix would: its NPU101 goes, the other cells keep theirs
    line = CELLS[5].source.split("\n").index("    torch.cuda.synchronize()")
    client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
        notebook_document=types.VersionedNotebookDocumentIdentifier(uri=NOTEBOOK_URI, version=2),
        change=types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(text_content=[
            types.NotebookDocumentCellContentChanges(
                document=types.VersionedTextDocumentIdentifier(uri=cell_uri(6), version=2),
                changes=[types.TextDocumentContentChangePartial(
                    range=types.Range(start=types.Position(line=line, character=10), end=types.Position(line=line, character=14)),
                    text="npu")])]))))
    assert [item.code for item in await diagnostics_for(client, cell_uri(6), 2)] == []
    # a new code cell at the end, using the model of cell 5 and torch of cell 2
    client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
        notebook_document=types.VersionedNotebookDocumentIdentifier(uri=NOTEBOOK_URI, version=3),
        change=types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(structure=types.NotebookDocumentCellChangeStructure(
            array=types.NotebookCellArrayChange(start=6, delete_count=0, cells=[_cell(7, "code")]),
            did_open=[_item(7, "code", "torch.cuda.empty_cache()\n")])))))
    added = await diagnostics_for(client, cell_uri(7), 1)
    assert [(item.range.start.line, item.range.start.character, item.code) for item in added] == [(0, 0, "NPU101")]
    # cell 7 turned into markdown: its diagnostics go
    client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
        notebook_document=types.VersionedNotebookDocumentIdentifier(uri=NOTEBOOK_URI, version=4),
        change=types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(data=[_cell(7, "markdown")]))))
    await wait_until(lambda: len(client.published[cell_uri(7)][-1].diagnostics) == 0, what="cell 7 cleared as markdown")
    assert [item.code for item in client.published[cell_uri(5)][-1].diagnostics] == ["NPU102", "NPU105"]
    # closing the notebook clears every cell's diagnostics
    client.notebook_document_did_close(types.DidCloseNotebookDocumentParams(
        notebook_document=types.NotebookDocumentIdentifier(uri=NOTEBOOK_URI),
        cell_text_documents=[types.TextDocumentIdentifier(uri=cell_uri(number)) for number in range(1, 8)]))
    for number in (2, 5, 6):
        await wait_until(lambda number=number: len(client.published[cell_uri(number)][-1].diagnostics) == 0,
                         what=f"cell {number} cleared")
