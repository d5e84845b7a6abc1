"""Analysing a text again after a fix pass's edits: the incremental analysis, one edited run of lines at a time.

A fix pass changes a few lines of a file; walking the whole file again for them made `fix` on a 1,000,000-line
file with two fixes cost as much as two scans. `EditedTextAnalyser` keeps the last `ModuleAnalysis` and gives
the incremental analysis each run of edited lines (bottom-up, so that the lines above an edit keep their
numbers), after checking that the text outside the runs is unchanged (else it analyses the whole text).
Each step still costs a pass over the chunk list (shifting, replaying bindings), so above MAX_EDITED_RUNS
runs one full analysis is cheaper, and is what a pass with many fixes gets.
"""

from __future__ import annotations

from collections.abc import Sequence

from ascend_migrate.analysis.engine import ModuleAnalysis, analyze_module
from ascend_migrate.analysis.findings import Finding, TextEdit
from ascend_migrate.analysis.incremental import analyze_document
from ascend_migrate.analysis.line_edits import LineEdit
from ascend_migrate.config import Settings
from ascend_migrate.files import split_lines, split_lines_keeping_ends
from ascend_migrate.kb.index import KnowledgeBase

MAX_EDITED_RUNS = 16


class EditedTextAnalyser:
    """Findings of one file's texts: `analyser(text)` analyses a text in full, `analyser.after(old, new, edits)`
    analyses `new` (`old` with `edits` applied) from the analysis of `old` when it was the last one made."""

    def __init__(self, path: str, settings: Settings, knowledge_base: KnowledgeBase | None = None) -> None:
        self.path = path
        self.settings = settings
        self.knowledge_base = knowledge_base
        self._text: str | None = None
        self._analysis: ModuleAnalysis | None = None

    def seed(self, text: str, analysis: ModuleAnalysis) -> None:
        """Start from an analysis of `text` made elsewhere (the language server's of an open document), so
        that the first `after` follows the edits rather than analysing the whole text."""
        self._text, self._analysis = text, analysis

    def has_errors(self) -> bool:
        """Whether part of the last text analysed did not parse."""
        return self._analysis is not None and any(chunk.error for chunk in self._analysis.chunks)

    def __call__(self, text: str) -> list[Finding]:
        return self._keep(text, analyze_module(text, self.path, self.settings, self.knowledge_base))

    def after(self, old: str, new: str, edits: Sequence[TextEdit]) -> list[Finding]:
        runs = edited_runs(edits)
        if self._analysis is None or self._text != old or not runs or len(runs) > MAX_EDITED_RUNS:
            return self(new)
        old_lines, new_lines = split_lines_keeping_ends(old), split_lines_keeping_ends(new)
        if not _only_runs_differ(old_lines, new_lines, runs):  # not the edits that made `new`
            return self(new)
        analysis, self._analysis = self._analysis, None  # each step's input is freed once it is replaced
        shift = sum(run.new_end_line - run.old_end_line for run in runs)
        for run in reversed(runs):  # bottom-up: the runs above keep their line numbers
            shift -= run.new_end_line - run.old_end_line  # the shift the runs above this one make in `new`
            text = "".join(old_lines[:run.start_line - 1]) + "".join(new_lines[run.start_line - 1 + shift:])
            analysis = analyze_document(text, self.path, self.settings, analysis, run, self.knowledge_base)
        return self._keep(new, analysis)

    def _keep(self, text: str, analysis: ModuleAnalysis) -> list[Finding]:
        self._text, self._analysis = text, analysis
        return analysis.findings


def edited_runs(edits: Sequence[TextEdit]) -> list[LineEdit]:
    """The lines the edits touch, as runs (edits overlapping or sharing a line join one run), in line order.
    A run's lines count in the text before it and after the runs below it (as applied bottom-up)."""
    runs: list[tuple[int, int, int]] = []  # start, old end, line delta
    for edit in sorted(edits, key=lambda each: (each.line, each.column, each.end_line, each.end_column)):
        delta = len(split_lines(edit.new_text)) - 1 - (edit.end_line - edit.line)
        if runs and edit.line <= runs[-1][1]:
            start, old_end, run_delta = runs[-1]
            runs[-1] = (start, max(old_end, edit.end_line), run_delta + delta)
        else:
            runs.append((edit.line, edit.end_line, delta))
    return [LineEdit(start, old_end, old_end + delta) for start, old_end, delta in runs]


def _only_runs_differ(old: list[str], new: list[str], runs: list[LineEdit]) -> bool:
    """Whether `old` and `new` (lines with their ends) agree everywhere outside the runs."""
    if len(new) - len(old) != sum(run.new_end_line - run.old_end_line for run in runs):
        return False
    old_cursor, shift = 0, 0  # the first old line (0-based) after the runs checked; `new` is `shift` lines longer
    for run in [*runs, LineEdit(len(old) + 1, len(old), len(old))]:
        first = run.start_line - 1
        if first < old_cursor or old[old_cursor:first] != new[old_cursor + shift:first + shift]:
            return False
        old_cursor = run.old_end_line
        shift += run.new_end_line - run.old_end_line
    return True
