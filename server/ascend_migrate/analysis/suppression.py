"""Suppression comments, read in one place: `# ascend-migrate: ignore` or `# ascend-migrate: ignore[NPU101, MS2]`
at the end of a line.

A bare `ignore` (or `ignore[]`) covers every code; a list covers the codes its selectors name, as `select`
and `ignore` do: a code, a prefix (`NPU1`) or a category. A selector that names no code (`torch.cuda`)
covers nothing. The engine leaves out the findings a comment covers, a fix never edits a line whose comment
covers its finding's code, and the editor's quick fix adds a code to the comment it finds here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ascend_migrate.files import split_lines
from ascend_migrate.taxonomy import code_matches, is_code_selector

MARKER = "ascend-migrate"  # no line without it can hold a suppression comment
_COMMENT = re.compile(r"#\s*ascend-migrate:\s*ignore(?:\[(?P<selectors>[^\]]*)\])?\s*$")


@dataclass(frozen=True, slots=True)
class Suppression:
    """One line's suppression comment."""

    start: int  # 0-based index of the comment's `#` in its line
    selectors: tuple[str, ...]  # as written; empty: every code

    def covers(self, code: str) -> bool:
        return not self.selectors or code_matches(code, self.selectors)

    def covers_any_code(self) -> bool:
        return not self.selectors or any(is_code_selector(selector) for selector in self.selectors)


def parse_suppression(line: str) -> Suppression | None:
    """The suppression comment at the end of `line` (without its line end), or None."""
    if MARKER not in line:
        return None
    match = _COMMENT.search(line)
    if match is None:
        return None
    written = match.group("selectors") or ""
    return Suppression(match.start(), tuple(part.strip() for part in written.split(",") if part.strip()))


def suppressions(lines: Sequence[str], first_line: int = 1) -> dict[int, Suppression]:
    """The suppression comments of `lines` by line number (`first_line` is the number of `lines[0]`)."""
    # Most files have none: one search of the whole text spares a look at every line.
    if MARKER not in "\n".join(lines):
        return {}
    found = {}
    for index, line in enumerate(lines):
        suppression = parse_suppression(line)
        if suppression is not None:
            found[index + first_line] = suppression
    return found


def suppressed_lines(text: str) -> frozenset[int]:
    """The numbers of the lines of `text` whose comment names any code: whatever else happens, no edit that
    follows from another line's fix (an import removed) touches them."""
    return frozenset(line for line, suppression in suppressions(split_lines(text)).items() if suppression.covers_any_code())
