"""A unified diff of a fixed text, built from the fix's edits rather than by comparing the two texts whole.

`difflib.unified_diff` compares every line of both texts, and treats a line that makes up more than 1% of
a long text as junk it will not align: on a 1,000,000-line file with three changed lines it printed every
line as removed and added (14 MB). The edits already say which lines changed; only those lines, grouped
into blocks, are compared (with difflib, each block on its own), and the lines between blocks are equal by
construction. The output has difflib's format, with three lines of context.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Sequence

from ascend_migrate.files import split_lines_keeping_ends
from ascend_migrate.fixes.text import LineIndex, TextEdit, apply_edits

CONTEXT_LINES = 3
Opcode = tuple[str, int, int, int, int]


def unified_diff(old: str, new: str, edits: Sequence[TextEdit], from_file: str, to_file: str) -> Iterator[str]:
    """The lines of a unified diff from `old` to `new`, where `edits` (against `old`) make `new`. Each line
    ends with its own line break; a last line without one is followed by difflib's "No newline" marker."""
    old_lines, new_lines = _lines(old), _lines(new)
    matcher = _KnownOpcodes(_opcodes(old, edits, len(old_lines), len(new_lines)))
    started = False
    for group in matcher.get_grouped_opcodes(CONTEXT_LINES):
        if not started:
            started = True
            yield f"--- {from_file}\n"
            yield f"+++ {to_file}\n"
        first, last = group[0], group[-1]
        yield f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@\n"
        for tag, old_start, old_end, new_start, new_end in group:
            if tag == "equal":
                yield from (_ended(" " + line) for line in old_lines[old_start:old_end])
                continue
            yield from (_ended("-" + line) for line in old_lines[old_start:old_end])
            yield from (_ended("+" + line) for line in new_lines[new_start:new_end])


class _KnownOpcodes(difflib.SequenceMatcher):
    """difflib's grouping of opcodes into hunks, for opcodes computed elsewhere."""

    def __init__(self, opcodes: list[Opcode]) -> None:
        super().__init__(None, [], [])
        self._known = opcodes

    def get_opcodes(self) -> list[Opcode]:  # type: ignore[override]  # difflib's own annotation is looser
        return self._known


def _opcodes(old: str, edits: Sequence[TextEdit], old_count: int, new_count: int) -> list[Opcode]:
    """difflib-style opcodes over whole lines: equal between the edited blocks, difflib's inside each."""
    index = LineIndex(old)
    opcodes: list[Opcode] = []
    old_line = new_line = 0  # 0-based: the first line not yet described
    for first, last, block_edits in _blocks(edits, index):
        if first - 1 > old_line:
            opcodes.append(("equal", old_line, first - 1, new_line, new_line + first - 1 - old_line))
            new_line += first - 1 - old_line
            old_line = first - 1
        begin = index.starts[first - 1]
        end = index.starts[last] if last < index.line_count else len(old)
        local = [TextEdit(edit.line - first + 1, edit.column, edit.end_line - first + 1, edit.end_column, edit.new_text) for edit in block_edits]
        old_block = _lines(old[begin:end])
        new_block = _lines(apply_edits(old[begin:end], local))
        for tag, old_start, old_end, new_start, new_end in difflib.SequenceMatcher(None, old_block, new_block, autojunk=False).get_opcodes():
            opcodes.append((tag, old_line + old_start, old_line + old_end, new_line + new_start, new_line + new_end))
        old_line += len(old_block)
        new_line += len(new_block)
    if old_line < old_count:
        opcodes.append(("equal", old_line, old_count, new_line, new_count))
    return _joined(opcodes)


def _joined(opcodes: list[Opcode]) -> list[Opcode]:
    """Neighbouring equal runs as one (a block's last lines and the lines after it): difflib trims a hunk's
    context within one equal run only."""
    joined: list[Opcode] = []
    for opcode in opcodes:
        if joined and opcode[0] == "equal" == joined[-1][0]:
            previous = joined[-1]
            joined[-1] = ("equal", previous[1], opcode[2], previous[3], opcode[4])
        else:
            joined.append(opcode)
    return joined


def _blocks(edits: Sequence[TextEdit], index: LineIndex) -> Iterator[tuple[int, int, list[TextEdit]]]:
    """The edits grouped into runs of whole old lines (first, last, 1-based and inclusive), neither sharing
    nor touching a line."""
    block: list[TextEdit] = []
    first = last = 0
    for edit in sorted(edits, key=lambda edit: (edit.line, edit.column, edit.end_line, edit.end_column)):
        # An edit that ends at the start of a line may join it to the line above: the block holds it too
        # (compared as equal inside the block when it is not).
        end = min(edit.end_line, index.line_count)
        if block and edit.line <= last + 1:  # adjacent changed lines make one block, as difflib shows them
            last = max(last, end)
            block.append(edit)
            continue
        if block:
            yield first, last, block
        block, first, last = [edit], edit.line, end
    if block:
        yield first, last, block


def _lines(text: str) -> list[str]:
    lines = split_lines_keeping_ends(text)
    return lines if lines[-1] else lines[:-1]  # no empty line after the last line end


def _ended(line: str) -> str:
    return line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n"


def _range(start: int, stop: int) -> str:
    """A hunk's line range as unified diffs write it (difflib's rule)."""
    beginning, length = start + 1, stop - start
    if length == 1:
        return str(beginning)
    if not length:
        beginning -= 1
    return f"{beginning},{length}"
