"""The fix families: a fix's plain edits, or the edits of the rewrite family it names, against one text."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.fixes.affinity import clip_grad_fused_edits
from ascend_migrate.fixes.arguments import call_arguments_edits
from ascend_migrate.fixes.checkpoint import save_checkpoint_edits
from ascend_migrate.fixes.errors import FixError
from ascend_migrate.fixes.strings import string_value_edits
from ascend_migrate.fixes.text import LineIndex

Rewrite = Callable[[str, Mapping[str, Any], LineIndex], list[TextEdit]]

REWRITES: dict[str, Rewrite] = {
    "call-arguments": call_arguments_edits,
    "string-value": string_value_edits,
    "save-checkpoint": save_checkpoint_edits,
    "clip-grad-fused": clip_grad_fused_edits,
}


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
        rewrite = REWRITES.get(fix.rewrite)
        if rewrite is None:
            raise FixError(f"unknown fix family {fix.rewrite!r} (known: {', '.join(sorted(REWRITES))})")
        edits.extend(rewrite(source, dict(fix.arguments), index))
    return edits


def is_import_only(fix: Fix) -> bool:
    """A fix whose whole job is managing imports (`import amp_C` removal)."""
    return not fix.edits and fix.rewrite is None and bool(fix.add_imports or fix.remove_imports)
