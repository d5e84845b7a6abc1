"""The server's one door into the analysis engine, so the engine's entry point can change in one place.

The engine is imported on first use (on the analysis worker), not at start-up: `initialize` is answered
before the engine and its knowledge base are loaded.
"""

from __future__ import annotations

from typing import Any

from ascend_migrate.analysis.line_edits import LineEdit
from ascend_migrate.config import Settings


def analyze(text: str, path: str, settings: Settings, previous: Any, edit: LineEdit | None) -> Any:
    """The engine's `ModuleAnalysis` of `text` (`.findings`, `.errors`); with `previous` and `edit`
    (the engine's 1-based lines), only the statements the edit touched are analysed again.

    Never raises for bad input: the engine reports unparsable code as errors and keeps the findings of what
    still parses.
    """
    from ascend_migrate.analysis.incremental import analyze_document

    return analyze_document(text, path, settings, previous if edit is not None else None, edit)


def analyze_file(text: str, path: str, settings: Settings) -> Any:
    """The engine's `FileResult` of a whole file (`.findings`, `.errors`), as the CLI's scan analyses it."""
    from ascend_migrate.analysis.engine import analyze_file as engine_analyze_file

    return engine_analyze_file(text, path, settings)


def edited_text_analyser(path: str, settings: Settings, text: str | None = None, analysis: Any = None) -> Any:
    """An `EditedTextAnalyser` for fixing a document until stable; seeded with the document's own analysis of
    `text` when there is one, so that each pass re-analyses only the lines it edited."""
    from ascend_migrate.analysis.after_edits import EditedTextAnalyser

    analyser = EditedTextAnalyser(path, settings)
    if text is not None and analysis is not None:
        analyser.seed(text, analysis)
    return analyser


def qualified_name(analysis: Any, dotted: str) -> str | None:
    """What `dotted` (`F.relu`, `nn`) names through the module's imports as the engine bound them
    (`torch.nn.functional.relu`), or None when its first part is not bound by an import."""
    from ascend_migrate.analysis.symbols import qualify

    if analysis is None:
        return None
    root, *parts = dotted.split(".")
    return qualify(analysis.bindings.get(root), parts)
