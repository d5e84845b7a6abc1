"""Text edits the code actions need: a finding's fix, all safe fixes, a suppression comment, an import block.

Turning a `Fix` into edits is the fixes room's job (`ascend_migrate.fixes`); `fix_edits` and
`fix_all_edits` are the one place that calls it. Everything here works in engine positions (1-based
lines and character columns) on the document text the diagnostics were computed from.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from ascend_migrate.analysis.findings import Finding, Fix, TextEdit
from ascend_migrate.analysis.suppression import parse_suppression
from ascend_migrate.config import Settings
from ascend_migrate.fixes.top_imports import add_imports_edit, top_insertion_line  # noqa: F401  (the code actions use them from here)
from ascend_migrate.lsp.documents import line_content

logger = logging.getLogger("ascend_migrate.lsp")


def fix_edits(fix: Fix, source: str) -> list[TextEdit]:
    """The edits that apply one fix to `source` (its imports included); [] when it no longer fits the text."""
    from ascend_migrate.fixes import FixError, edits_for

    try:
        return list(edits_for(fix, source))
    except (FixError, ValueError) as error:  # the text moved on, or does not parse right now
        logger.debug("no edits for fix %r: %s", fix.title, error)
        return []


def fix_all_edits(source: str, findings: Sequence[Finding], settings: Settings, analysis: Any = None) -> list[TextEdit]:
    """The edits that apply every safe fix of `source`, against `source`: fixed and analysed again until
    nothing changes, as `ascend-migrate fix` does (`findings` are those of `source`, so the first pass
    analyses nothing). With `analysis`, the engine's analysis of `source` that gave `findings`, a later pass
    re-analyses only the lines the pass before it edited, as `fix` does."""
    from ascend_migrate.fixes import fix_until_stable
    from ascend_migrate.lsp.engine import edited_text_analyser

    if not findings:
        return []
    path = findings[0].path  # the document's, as the analysis saw it (per-file settings depend on it)
    analyser = edited_text_analyser(path, settings, source, analysis)
    return fix_until_stable(source, analyser, findings=findings, analyse_edited=analyser.after).edits()


def suppression_edit(source_lines: Sequence[str], line: int, code: str) -> TextEdit | None:
    """Add `code` to the `# ascend-migrate: ignore[...]` comment at the end of `line`, or add that comment.

    None when the comment there already covers that code (the engine's reading of it, `analysis.suppression`).
    """
    content = line_content(source_lines[line - 1])
    suppression = parse_suppression(content)
    if suppression is not None and _is_comment(content, suppression.start):
        if suppression.covers(code):
            return None
        comment = f"# ascend-migrate: ignore[{', '.join((*suppression.selectors, code))}]"
        return TextEdit(line, suppression.start + 1, line, len(content) + 1, comment)
    stripped = content.rstrip()
    separator = "  " if stripped else ""
    return TextEdit(line, len(stripped) + 1, line, len(content) + 1, f"{separator}# ascend-migrate: ignore[{code}]")


def _is_comment(line: str, index: int) -> bool:
    """Whether the `#` at `index` starts a comment (is not inside a string literal on this line)."""
    quote = None
    position = 0
    while position < index:
        character = line[position]
        if quote is None and character in "'\"":
            quote = line[position:position + 3] if line[position:position + 3] in ("'''", '"""') else character
            position += len(quote)
            continue
        if quote is not None and character == "\\":
            position += 2
            continue
        if quote is not None and line.startswith(quote, position):
            position += len(quote)
            quote = None
            continue
        position += 1
    return quote is None
