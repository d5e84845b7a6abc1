"""The fixes room: turning a finding's `Fix` into minimal text edits, and fixing whole files.

`edits_for(fix, source)` gives the edits of one fix (for the editor's quick fix), `fix_all(source,
findings, unsafe)` applies a file's fixes together (for `ascend-migrate fix` and "fix all"), and
`apply_edits(source, edits)` applies edits to a text. docs/fixes.md documents the `Fix` shapes.
"""

from ascend_migrate.fixes.apply import Change, FixResult, SkippedFix, edits_for, fix_all
from ascend_migrate.fixes.errors import FixError
from ascend_migrate.fixes.text import OverlappingEditsError, apply_edits

__all__ = [
    "Change",
    "FixError",
    "FixResult",
    "OverlappingEditsError",
    "SkippedFix",
    "apply_edits",
    "edits_for",
    "fix_all",
]
