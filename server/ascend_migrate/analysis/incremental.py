"""Re-analysing a document after an edit by re-walking only the top-level statements the edit touched.

The language server keeps the `DocumentAnalysis` of each open document. After an edit of lines
`start_line..old_end_line` (now `start_line..new_end_line`), the chunks that overlap the edit are cut out,
their new text is parsed on its own, and the chunks after them keep their findings, shifted by the change
in line count. When what the region binds at module level changes (an import, a class, a module-level
variable's type), every chunk may read differently, and the whole document is analysed again.
"""

from __future__ import annotations

from dataclasses import dataclass

from ascend_migrate.analysis.chunks import Chunk, parse_module
from ascend_migrate.analysis.engine import ChunkRunner, ModuleAnalysis, analyze_module, prepass_bindings
from ascend_migrate.analysis.source import split_lines
from ascend_migrate.config import Settings
from ascend_migrate.kb.index import KnowledgeBase

DocumentAnalysis = ModuleAnalysis


@dataclass(frozen=True, slots=True)
class LineEdit:
    """Lines `start_line..old_end_line` of the old text became `start_line..new_end_line` (1-based, inclusive)."""

    start_line: int
    old_end_line: int
    new_end_line: int

    @classmethod
    def from_range(cls, start_line: int, end_line: int, new_text: str) -> LineEdit:
        """For an LSP-style change: the range's 1-based first and last line, and the text put there."""
        return cls(start_line, end_line, start_line + new_text.count("\n") + new_text.count("\r") - new_text.count("\r\n"))

    def then(self, later: LineEdit) -> LineEdit:
        """One edit covering this edit followed by `later` (whose lines count in the text after this one)."""
        delta = self.new_end_line - self.old_end_line
        later_delta = later.new_end_line - later.old_end_line
        start = min(self.start_line, later.start_line)
        if later.old_end_line > self.new_end_line:
            later_old_end = later.old_end_line - delta
        else:
            later_old_end = self.old_end_line if later.old_end_line >= self.start_line else later.old_end_line
        old_end = max(self.old_end_line, later_old_end)
        if self.new_end_line > later.old_end_line:
            mine_new_end = self.new_end_line + later_delta
        else:
            mine_new_end = later.new_end_line if self.new_end_line >= later.start_line else self.new_end_line
        new_end = max(later.new_end_line, mine_new_end)
        return LineEdit(start, old_end, new_end)


def analyze_document(
    text: str,
    path: str,
    settings: Settings,
    previous: DocumentAnalysis | None = None,
    edit: LineEdit | None = None,
    knowledge_base: KnowledgeBase | None = None,
) -> DocumentAnalysis:
    """The analysis of `text`, reusing `previous` (the analysis before `edit`) where the edit allows."""
    if previous is None or edit is None or previous.settings != settings or previous.path != path:
        return analyze_module(text, path, settings, knowledge_base)
    lines = split_lines(text)
    reused = _reanalyse_region(previous, lines, edit, knowledge_base)
    return reused if reused is not None else analyze_module(text, path, settings, knowledge_base)


def _reanalyse_region(previous: DocumentAnalysis, lines: list[str], edit: LineEdit, knowledge_base) -> DocumentAnalysis | None:
    delta = edit.new_end_line - edit.old_end_line
    chunks = previous.chunks
    if len(lines) != len(previous.lines) + delta or not chunks or edit.start_line < 1:
        return None
    first = next((index for index, chunk in enumerate(chunks) if chunk.end >= edit.start_line), None)
    if first is None:
        return None
    if first > 0 and edit.start_line <= chunks[first].start:
        first -= 1  # an edit on a statement's first line may join it to the statement above
    last = max(index for index, chunk in enumerate(chunks) if chunk.start <= max(edit.old_end_line, edit.start_line))
    last = max(last, first)
    region_start = chunks[first].start
    region_new_end = chunks[last].end + delta
    if region_new_end < region_start:
        return None
    region = parse_module(lines[region_start - 1:region_new_end], first_line=region_start)
    old_region = chunks[first:last + 1]

    analysis = DocumentAnalysis(previous.path, previous.settings, lines, [], previous.bindings, previous.classes)
    for chunk in region:
        chunk.bindings = prepass_bindings(chunk, analysis.bindings, analysis.classes)
    if _signature(region, "bindings") != _signature(old_region, "bindings"):
        return None
    ChunkRunner(analysis, knowledge_base).walk(region)
    if _signature(region, "written") != _signature(old_region, "written"):
        return None
    analysis.chunks = chunks[:first] + region + [_shifted(chunk, delta) for chunk in chunks[last + 1:]]
    return analysis


def _signature(chunks: list[Chunk], which: str) -> list:
    return [binding for chunk in chunks for binding in getattr(chunk, which)]


def _shifted(chunk: Chunk, delta: int) -> Chunk:
    if delta == 0:
        return chunk
    return Chunk(
        start=chunk.start + delta,
        end=chunk.end + delta,
        statements=chunk.statements,
        line_offset=chunk.line_offset + delta,
        error=chunk.error,
        error_line=chunk.error_line + delta if chunk.error_line else None,
        findings=[finding.shifted(delta) for finding in chunk.findings],
        bindings=chunk.bindings,
        written=chunk.written,
    )
