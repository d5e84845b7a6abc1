"""Text positions and edits: the `TextEdit` value, engine positions to string offsets, applying edits, and
minimal edits from a rewrite."""

from __future__ import annotations

import bisect
import difflib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ascend_migrate.files import LINE_END as NEWLINE
from ascend_migrate.fixes import work
from ascend_migrate.pickling import pickled_by_position

# Tokens for diffing a rewritten span: numbers, words, runs of whitespace, or single other characters.
_DIFF_TOKEN = re.compile(r"\d[\w.]*|\w+|\s+|.", re.DOTALL)


@pickled_by_position
@dataclass(frozen=True, slots=True)
class TextEdit:
    """Replace the text between two positions (engine convention) with `new_text`.

    Defined here, below the engine, with the positions it counts in: the engine builds edits into its fixes
    (`analysis.findings` re-exports it), and the fix families below the engine compute them."""

    line: int
    column: int
    end_line: int
    end_column: int
    new_text: str


class OverlappingEditsError(ValueError):
    """Two edits change the same text, so no order of applying them is right."""


class LineIndex:
    """Where each line of a text starts, to turn (line, column) positions into offsets and back."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [match.end() for match in NEWLINE.finditer(text)]

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_end(self, line: int) -> int:
        """The offset just past the last character of `line`, before its line break."""
        if line < len(self.starts):
            start = self.starts[line]
            text = self.text
            return start - 2 if text[start - 2:start] == "\r\n" else start - 1
        return len(self.text)

    def line_text(self, line: int) -> str:
        return self.text[self.starts[line - 1]:self.line_end(line)]

    def offset(self, line: int, column: int) -> int:
        if not 1 <= line <= len(self.starts):
            raise ValueError(f"line {line} is outside the text ({len(self.starts)} lines)")
        start = self.starts[line - 1]
        end = self.line_end(line)
        if not 1 <= column <= end - start + 1:
            raise ValueError(f"column {column} is outside line {line} ({end - start} characters)")
        return start + column - 1

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1

    def span(self, edit: TextEdit) -> tuple[int, int]:
        start = self.offset(edit.line, edit.column)
        end = self.offset(edit.end_line, edit.end_column)
        if end < start:
            raise ValueError(f"edit ends (line {edit.end_line} column {edit.end_column}) before it starts (line {edit.line} column {edit.column})")
        return start, end

    def slice(self, line: int, column: int, end_line: int, end_column: int) -> str:
        return self.text[self.offset(line, column):self.offset(end_line, end_column)]


def newline_of(text: str) -> str:
    """The text's line break style, judged by its first line break (\\n for a text without one)."""
    match = NEWLINE.search(text)
    return match.group() if match else "\n"


def blank_lines_to_join(text_of: Callable[[int], str], line: int, end_line: int, line_count: int) -> int:
    """How many of the blank lines right below lines `line`..`end_line` go with them when they are deleted: as many
    as there are blank lines right above (all of them at the top of the text), so the gap left is the wider of the
    two, as a person deleting the statement would leave it (blank, statement, blank must not become two blanks)."""
    below = 0
    while end_line + below < line_count and not text_of(end_line + below + 1).strip():
        below += 1
    above = 0
    while above < below and line - above > 1 and not text_of(line - above - 1).strip():
        above += 1
    return below if line - above == 1 else above


def describe(edit: TextEdit) -> str:
    return f"line {edit.line} column {edit.column} to line {edit.end_line} column {edit.end_column}"


def sorted_spans(source: str, edits: Iterable[TextEdit], index: LineIndex | None = None) -> list[tuple[int, int, TextEdit]]:
    """The edits as (start, end, edit), in text order, without duplicates; raises on overlaps."""
    index = index or LineIndex(source)
    spans = sorted({(*index.span(edit), edit.new_text): edit for edit in edits}.items(), key=lambda item: item[0][:2])
    result: list[tuple[int, int, TextEdit]] = []
    for (start, end, _), edit in spans:
        if result:
            previous_start, previous_end, previous = result[-1]
            both_insert_here = previous_start == previous_end == start == end
            if start < previous_end or both_insert_here:
                raise OverlappingEditsError(f"the edit at {describe(edit)} overlaps the edit at {describe(previous)}")
        result.append((start, end, edit))
    return result


def apply_edits(source: str, edits: Iterable[TextEdit]) -> str:
    """`source` with every edit applied. Identical duplicate edits count once; overlapping ones raise."""
    pieces: list[str] = []
    cursor = 0
    for start, end, edit in sorted_spans(source, edits):
        pieces.append(source[cursor:start])
        pieces.append(edit.new_text)
        cursor = end
    pieces.append(source[cursor:])
    return "".join(pieces)


def touched_lines(edit: TextEdit) -> range:
    return range(edit.line, edit.end_line + 1)


def diff_edits(old: str, new: str, line: int, column: int) -> list[TextEdit]:
    """The smallest edits (by tokens) that turn `old`, which starts at (line, column), into `new`.

    The token matcher can take time quadratic in the length of long texts with many repeated tokens; a
    rewrite of a large libcst node goes through `node_diff.rewrite_edits`, which diffs only what changed.
    """
    if old == new:
        return []
    old_tokens = _DIFF_TOKEN.findall(old)
    new_tokens = _DIFF_TOKEN.findall(new)
    work.diffed(len(old_tokens) + len(new_tokens))
    matcher = difflib.SequenceMatcher(None, old_tokens, new_tokens, autojunk=False)
    old_offsets = _token_offsets(old_tokens)
    new_offsets = _token_offsets(new_tokens)
    local = LineIndex(old)
    edits = []
    for tag, old_start, old_end, new_start, new_end in matcher.get_opcodes():
        if tag == "equal":
            continue
        start_line, start_column = absolute(local.position(old_offsets[old_start]), line, column)
        end_line, end_column = absolute(local.position(old_offsets[old_end]), line, column)
        edits.append(TextEdit(start_line, start_column, end_line, end_column, new[new_offsets[new_start]:new_offsets[new_end]]))
    return edits


def _token_offsets(tokens: list[str]) -> list[int]:
    offsets = [0]
    for token in tokens:
        offsets.append(offsets[-1] + len(token))
    return offsets


def absolute(position: tuple[int, int], line: int, column: int) -> tuple[int, int]:
    """A (line, column) position inside a snippet that starts at (line, column) of the text, in the text."""
    local_line, local_column = position
    if local_line == 1:
        return line, column + local_column - 1
    return line + local_line - 1, local_column
