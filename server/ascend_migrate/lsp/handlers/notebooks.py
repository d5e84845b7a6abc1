"""Notebook documents (LSP 3.17): notebookDocument/didOpen/didChange/didSave/didClose, the code cells analysed
together as one program, and each cell's diagnostics published under the cell's own URI.

A cell is a text document in the server's store like any other (hover and code actions find it there); what
differs is its analysis: the notebook's Python cells are joined in order (`notebooks.program`, IPython syntax
blanked), analysed at once, and each cell gets the findings in its lines, moved into the cell's coordinates
(their fixes with them), and the module's bindings for hover.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import Any

from lsprotocol import types

from ascend_migrate.lsp import convert, engine
from ascend_migrate.lsp.documents import Document, size_over
from ascend_migrate.lsp.handlers.documents import is_python, max_document_bytes, path_of, publish
from ascend_migrate.lsp.server import AscendMigrateServer

logger = logging.getLogger("ascend_migrate.lsp")


@dataclass
class OpenNotebook:
    uri: str
    path: str  # of the notebook file: the cells' settings are those of this path
    version: int
    cells: list[tuple[str, types.NotebookCellKind]]  # (cell uri, kind), in the notebook's order
    published: set[str] = field(default_factory=set)  # cells that were sent diagnostics (to clear them later)


@dataclass
class CellAnalysis:
    """What hover and code actions read of a cell's analysis (the engine's ModuleAnalysis has the same names)."""

    findings: list[Any]
    bindings: dict[str, Any]
    # The cell's text with its IPython lines blanked, as the engine saw it: the text a quick fix is computed
    # on (same lines and columns as the cell's own text; `%%time` or `!pip` would not parse).
    python_text: str
    errors: list[Any] = field(default_factory=list)


def for_cell(finding: Any) -> Any:
    """The finding as a quick fix in one cell applies it: the imports a fix would add or remove are the whole
    program's business (another cell may hold or use them), so a fix that edits code leaves them alone; the
    fix that is only an import (`import torch_npu` beside `import torch`) keeps it, in the cell of the imports."""
    fix = finding.fix
    if fix is None or not (fix.edits or fix.rewrite is not None) or not (fix.add_imports or fix.remove_imports):
        return finding
    return replace(finding, fix=replace(fix, add_imports=(), remove_imports=()))


class NotebookSync:
    """What the transport hands the notebookDocument/* notifications to."""

    def __init__(self, server: AscendMigrateServer) -> None:
        self.server = server

    def opened(self, params: types.DidOpenNotebookDocumentParams) -> None:
        notebook = params.notebook_document
        state = OpenNotebook(notebook.uri, path_of(notebook.uri), notebook.version,
                             [(cell.document, cell.kind) for cell in notebook.cells])
        with self.server.lock:
            self.server.notebooks[notebook.uri] = state
            for item in params.cell_text_documents:
                self._open_cell(state, item)
        logger.debug("opened notebook %s (version %s, %d cells)", notebook.uri, notebook.version, len(state.cells))
        self.schedule(notebook.uri)

    def _open_cell(self, state: OpenNotebook, item: types.TextDocumentItem) -> None:
        oversize = size_over(item.text, max_document_bytes())
        document = Document(item.uri, state.path, "" if oversize else item.text, item.version, item.language_id)
        self.server.documents[item.uri] = document
        self.server.cell_notebooks[item.uri] = state.uri
        if oversize:  # not analysed, and said so in the cell (never shown as clean), as for any document
            self.server.document_sync.too_large(item.uri, oversize, item.version)

    def _close_cell(self, uri: str) -> None:
        self.server.documents.pop(uri, None)
        self.server.cell_notebooks.pop(uri, None)
        self.server.document_settings.pop(uri, None)

    def changed(self, params: types.DidChangeNotebookDocumentParams) -> None:
        server, uri = self.server, params.notebook_document.uri
        closed: list[str] = []
        with server.lock:
            state = server.notebooks.get(uri)
            if state is None:
                logger.warning("notebookDocument/didChange for %s, which is not open: ignored", uri)
                return
            state.version = params.notebook_document.version
            cells = params.change.cells
            structure = cells.structure if cells is not None else None
            if structure is not None:
                array = structure.array
                state.cells[array.start:array.start + array.delete_count] = [(cell.document, cell.kind) for cell in array.cells or ()]
                for item in structure.did_open or ():
                    self._open_cell(state, item)
                for identifier in structure.did_close or ():
                    self._close_cell(identifier.uri)
                    if identifier.uri in state.published:
                        state.published.discard(identifier.uri)
                        closed.append(identifier.uri)
            if cells is not None and cells.data:  # a cell turned from code to markdown or back
                kinds = {cell.document: cell.kind for cell in cells.data}
                state.cells = [(cell_uri, kinds.get(cell_uri, kind)) for cell_uri, kind in state.cells]
        for cell_uri in closed:
            publish(server, cell_uri, [], None)
        for content in (cells.text_content or ()) if cells is not None else ():
            # The text changes as for any document (positions in the client's encoding, sizes checked); the
            # analysis that follows is the notebook's (documents.schedule sends a cell's to its notebook).
            server.document_sync.changed(types.DidChangeTextDocumentParams(text_document=content.document,
                                                                           content_changes=content.changes))
        self.schedule(uri)

    def saved(self, params: types.DidSaveNotebookDocumentParams) -> None:
        logger.debug("saved notebook %s", params.notebook_document.uri)  # the text is the one already analysed

    def closed(self, params: types.DidCloseNotebookDocumentParams) -> None:
        server, uri = self.server, params.notebook_document.uri
        with server.lock:
            state = server.notebooks.pop(uri, None)
            if state is None:
                logger.warning("notebookDocument/didClose for %s, which is not open: ignored", uri)
                return
            for cell_uri, _ in state.cells:
                self._close_cell(cell_uri)
            for identifier in params.cell_text_documents:
                self._close_cell(identifier.uri)
            published = sorted(state.published)
        logger.debug("closed notebook %s (%d cells had diagnostics)", uri, len(published))
        for cell_uri in published:
            publish(server, cell_uri, [], None)

    def schedule(self, uri: str) -> None:
        self.server.worker.request(uri, lambda: _analyze_notebook(self.server, uri))


def _analyze_notebook(server: AscendMigrateServer, uri: str) -> None:
    """On the worker: the notebook's Python cells as one program; each cell's findings published under its URI."""
    from ascend_migrate.kb.loader import KnowledgeBaseError
    from ascend_migrate.notebooks.per_file import in_cells
    from ascend_migrate.notebooks.program import program_of_cells

    with server.lock:
        found: OpenNotebook | None = server.notebooks.get(uri)
        if found is None:
            return
        state = found
        code = []  # (cell number, uri, document, its version, its text, its lines)
        for number, (cell_uri, kind) in enumerate(state.cells, start=1):
            document = server.documents.get(cell_uri)
            if kind == types.NotebookCellKind.Code and document is not None and is_python(document.language_id, cell_uri):
                code.append((number, cell_uri, document, document.version, document.text, list(document.lines)))
        notebook_version = state.version
    settings = server.settings.for_path(state.path)
    analysed = [cell for cell in code if cell[2].too_large is None]
    program = program_of_cells((number, text) for number, _, _, _, text, _ in analysed)
    try:
        analysis = engine.analyze(program.text, state.path, settings, None, None)
    except KnowledgeBaseError as error:
        server.settings.report_once(f"The ascend-migrate knowledge base is broken: {error}")
        return
    except Exception:
        logger.exception("analysis of notebook %s (version %s) failed", uri, notebook_version)
        return
    by_cell: dict[int, list[Any]] = {}
    for finding in in_cells(analysis.findings, program) if analysed else []:
        by_cell.setdefault(finding.cell, []).append(for_cell(finding))
    diagnostics = {cell_uri: [convert.diagnostic_json(finding, lines, server.encoding) for finding in by_cell.get(number, [])]
                   for number, cell_uri, _, _, _, lines in analysed}
    with server.lock:
        if server.notebooks.get(uri) is not state or state.version != notebook_version or any(
                server.documents.get(cell_uri) is not document or document.version != version
                for _, cell_uri, document, version, _, _ in code):
            return  # changed meanwhile: the analysis of the newer text is on its way
        for number, cell_uri, document, version, _, lines in analysed:
            first, last = program.cell_range(number)
            python_text = "\n".join(program.lines[first - 1:last])
            document.analysis = CellAnalysis(by_cell.get(number, []), analysis.bindings, python_text)
            document.analysis_version = version
            document.analysis_lines = lines
            server.document_settings[cell_uri] = settings
        # cells no longer analysed (turned into markdown, or another language) lose what they were shown
        stale = sorted(state.published - set(diagnostics))
        state.published = set(diagnostics)
    logger.debug("analysed notebook %s version %s: %d cells, %d findings", uri, notebook_version, len(analysed),
                  sum(map(len, by_cell.values())))
    for (_, cell_uri, _, version, _, _) in analysed:
        server.on_loop(publish, server, cell_uri, diagnostics[cell_uri], version)
    for cell_uri in stale:
        server.on_loop(publish, server, cell_uri, [], None)
