"""The server's one door into the analysis engine, so the engine's entry point can change in one place."""

from __future__ import annotations

from ascend_migrate.analysis.incremental import DocumentAnalysis, LineEdit as EngineLineEdit, analyze_document
from ascend_migrate.config import Settings
from ascend_migrate.lsp.documents import LineEdit


def analyze(text: str, path: str, settings: Settings, previous: DocumentAnalysis | None, edit: LineEdit | None) -> DocumentAnalysis:
    """Analyse `text`; with `previous` and `edit` (0-based lines), only the statements the edit touched.

    The result has `.findings` and `.errors`. Never raises for bad input: the engine reports unparsable
    code as errors and keeps the findings of what still parses.
    """
    engine_edit = EngineLineEdit(edit.start + 1, edit.old_end + 1, edit.new_end + 1) if edit is not None else None
    return analyze_document(text, path, settings, previous if edit is not None else None, engine_edit)
