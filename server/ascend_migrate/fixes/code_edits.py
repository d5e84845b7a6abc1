"""A fix's own edits against one text: its plain edits and its family's (imports aside)."""

from __future__ import annotations

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.fixes.errors import FixError
from ascend_migrate.fixes.text import LineIndex


def code_edits(fix: Fix, source: str, index: LineIndex) -> list[TextEdit]:
    """The edits of the fixed code itself (imports aside), without edits that would change nothing."""
    edits = []
    for edit in fix.edits:
        try:
            start, end = index.span(edit)
        except ValueError as error:
            raise FixError(f"an edit does not fit the text: {error}") from None
        if source[start:end] != edit.new_text:
            edits.append(edit)
    if fix.rewrite is not None:
        edits.extend(fix.rewrite.edits(source, index))
    return edits


def is_import_only(fix: Fix) -> bool:
    """A fix whose whole job is managing imports (`import amp_C` removal)."""
    return not fix.edits and fix.rewrite is None and bool(fix.add_imports or fix.remove_imports)
