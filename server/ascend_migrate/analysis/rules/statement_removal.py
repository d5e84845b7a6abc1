"""Deleting a whole statement a fix makes pointless, without leaving an empty block (`pass` in its place then).

Shared by the rules whose fix removes a statement: cudnn_switches (`cudnn.benchmark = True`) and device_placement
(`x, y = x.to(device), y.to(device)`).
"""

from __future__ import annotations

from ascend_migrate.analysis.findings import TextEdit
from ascend_migrate.fixes.text import blank_lines_to_join


def alone_on_its_lines(lines, line: int, column: int, end_line: int, end_column: int) -> bool:
    """Whether the statement spanning (line, column)-(end_line, end_column) shares its lines with no other code
    (`a = 1; x = x.to(d)` does: deleting the lines would delete `a = 1`); a comment after it may follow."""
    before = lines.text(line)[:column - 1]
    after = lines.text(end_line)[end_column - 1:]
    return not before.strip() and (not after.strip() or after.lstrip().startswith("#"))


def removal(lines, line: int, column: int, end_line: int, end_column: int) -> TextEdit:
    """The statement's lines deleted, or the statement replaced by `pass` where it may be the only statement of its
    block (the code line above opens a block and the next code line is not a sibling at the same indentation).
    Blank lines below that would double the gap above go too: one gap is left where the statement was."""
    indentation = column - 1
    if indentation and _opens_block(lines, line) and _next_code_indentation(lines, end_line) != indentation:
        return TextEdit(line, column, end_line, end_column, "pass")
    last = _last_line(lines)
    if end_line < last:
        joined = blank_lines_to_join(lines.text, line, end_line, last)
        if end_line + joined < last:  # (blank lines that end the text stay: nothing below them to space)
            end_line += joined
        return TextEdit(line, 1, end_line + 1, 1, "")
    return TextEdit(line, 1, end_line, len(lines.text(end_line)) + 1, "")


def _last_line(lines) -> int:
    return lines.first_line + len(lines.lines) - 1


def _opens_block(lines, line: int) -> bool:
    for number in range(line - 1, 0, -1):
        code = lines.text(number).split("#", 1)[0].rstrip()
        if code:
            return code.endswith(":")
    return False


def _next_code_indentation(lines, end_line: int) -> int | None:
    for number in range(end_line + 1, _last_line(lines) + 1):
        text = lines.text(number)
        if text.strip() and not text.lstrip().startswith("#"):
            return len(text) - len(text.lstrip())
    return None
