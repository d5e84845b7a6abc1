"""The open documents: their text (as lines), version, and what changed since they were last analysed.

Incremental changes are applied line-wise, so a burst of keystrokes in a long file costs little. Every change
also widens a `LineEdit` that tells the incremental analysis which lines to look at again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ascend_migrate.analysis.line_edits import LineEdit
from ascend_migrate.files import line_content
from ascend_migrate.files import split_lines_keeping_ends as split_lines  # a document's lines keep their ends
from ascend_migrate.lsp.positions import index_at_units, units_before


def size_over(text: str, limit: int) -> int | None:
    """The size of `text` in UTF-8 bytes if it is over `limit`, else None (no encoding when far from it)."""
    if len(text) * 4 <= limit:
        return None
    size = len(text) if len(text) > limit else len(text.encode("utf-8", "surrogatepass"))
    return size if size > limit else None


@dataclass(frozen=True, slots=True)
class Position:
    """A position in a document as an index into its lines (0-based line, 0-based character)."""

    line: int
    character: int


class Document:
    """One open document. Not thread-safe by itself: the `DocumentStore` lock guards it."""

    def __init__(self, uri: str, path: str, text: str, version: int | None, language_id: str = "python") -> None:
        self.uri = uri
        self.path = path
        self.version = version
        self.language_id = language_id
        self.lines = split_lines(text)
        self._text: str | None = text
        self.characters = len(text)  # kept up to date by every change: the size check costs nothing per keystroke
        self.too_large: int | None = None  # its size in bytes while over the analysis limit
        self.text_dropped = False  # over the memory bound: the text is gone until the client sends it whole
        # Since the text the last analysis started from: None means "analyse the whole file".
        self.pending_edit: LineEdit | None = None
        self.needs_full_analysis = True
        self.analysis: Any = None  # the engine's ModuleAnalysis of `analysis_version`
        self.analysis_version: int | None = None
        self.analysis_lines: list[str] = []  # the lines that analysis saw, for converting its positions
        self.published_version: int | None = None
        # id(finding) → (finding, its diagnostic as JSON), kept by the analysis worker between versions
        self.diagnostic_cache: dict[int, tuple[Any, str]] = {}

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = "".join(self.lines)
        return self._text

    def utf8_size(self, limit: int) -> int | None:
        """The document's size in UTF-8 bytes if it is over `limit`, else None (cheap when far under it)."""
        if self.characters * 4 <= limit:
            return None
        return size_over(self.text, limit)

    def drop_text(self) -> None:
        """Give the text's memory back; changes are ignored until the client sends the whole text again."""
        self.lines = [""]
        self._text = ""
        self.characters = 0
        self.text_dropped = True
        self.analysis = None
        self.diagnostic_cache = {}

    def replace_all(self, text: str) -> None:
        self.lines = split_lines(text)
        self._text = text
        self.characters = len(text)
        self.text_dropped = False
        self.needs_full_analysis = True
        self.pending_edit = None

    def position_from_client(self, line: int, units: int, encoding: str) -> tuple[Position, bool]:
        """The position for a client's (line, units), clamped into the document; and whether it was inside."""
        if line < 0:
            return Position(0, 0), False
        if line >= len(self.lines):
            last = len(self.lines) - 1
            return Position(last, len(line_content(self.lines[last]))), False
        content = line_content(self.lines[line])
        index = index_at_units(content, units, encoding)
        return Position(line, index), units >= 0 and units_before(content, index, encoding) == units

    def apply_change(self, start: Position, end: Position, new_text: str) -> LineEdit:
        """Replace the text between two (clamped) positions; returns the lines it touched (1-based)."""
        if (end.line, end.character) < (start.line, start.character):
            start, end = end, start
        first, last = start.line, end.line
        segment = self.lines[first][:start.character] + new_text + self.lines[last][end.character:]
        if segment.startswith("\n") and first > 0 and self.lines[first - 1].endswith("\r"):
            # "\r" + "\n" now meet: they are one line break, so the two lines are one.
            first -= 1
            segment = self.lines[first] + segment
        replacement = split_lines(segment)
        if last < len(self.lines) - 1:
            replacement.pop()  # the segment ends with the old last line's break: no partial line after it
        self.characters += sum(map(len, replacement)) - sum(map(len, self.lines[first:last + 1]))
        self.lines[first:last + 1] = replacement
        self._text = None
        edit = LineEdit(first + 1, last + 1, first + len(replacement))  # the engine counts lines from 1
        self.pending_edit = edit if self.pending_edit is None else self.pending_edit.then(edit)
        return edit

    def take_pending(self) -> tuple[LineEdit | None, bool]:
        """What changed since the last analysis started (and whether to analyse all), resetting both."""
        edit, full = self.pending_edit, self.needs_full_analysis
        self.pending_edit = None
        self.needs_full_analysis = False
        return edit, full
