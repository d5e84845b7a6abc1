"""`LineEdit`: which lines of a text an edit replaced, as the incremental analysis and the editor both count them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LineEdit:
    """Lines `start_line..old_end_line` of the old text became `start_line..new_end_line` (1-based, inclusive)."""

    start_line: int
    old_end_line: int
    new_end_line: int

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
