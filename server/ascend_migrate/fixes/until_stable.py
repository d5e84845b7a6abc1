"""Fixing a text until nothing changes: fix its findings, analyse the fixed text, fix again (at most MAX_PASSES).

A fix whose edits overlap another's lands in the next pass, and a fixed line can hold something a further
fix matches; so one `fix_all` is not the end. `ascend-migrate fix` and the editor's "fix all" both go
through this loop, so both give the same text. The analysis is passed in: the fixes room applies fixes,
the caller decides how a text is analysed (the CLI's `analyze_file`, the server's cached findings first).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ascend_migrate.analysis.findings import Finding, TextEdit
from ascend_migrate.fixes.apply import Change, SkippedFix, fix_all
from ascend_migrate.fixes.text import LineIndex

MAX_PASSES = 4

Analyse = Callable[[str], Sequence[Finding]]
AnalyseEdited = Callable[[str, str, Sequence[TextEdit]], Sequence[Finding]]


@dataclass(frozen=True, slots=True)
class StableFix:
    """What the passes did to one text."""

    source: str
    text: str
    applied: int = 0  # findings fixed, over all passes
    changes: tuple[Change, ...] = ()  # the change list; a later pass's lines count in the text before it
    skipped: tuple[SkippedFix, ...] = ()  # of the last pass: what is left, and why
    first_edits: tuple[TextEdit, ...] = ()  # the first pass's edits, against `source`
    changing_passes: int = 0

    @property
    def changed(self) -> bool:
        return self.text != self.source

    def edits(self) -> list[TextEdit]:
        """Edits that turn `source` into `text`: the first pass's own minimal edits when no later pass
        changed anything (the usual case), else one edit per run of changed lines."""
        if self.changing_passes <= 1:
            return list(self.first_edits)
        return line_edits(self.source, self.text)


def fix_until_stable(source: str, analyse: Analyse, unsafe: bool = False, findings: Sequence[Finding] | None = None,
                     analyse_edited: AnalyseEdited | None = None) -> StableFix:
    """Fix `source` until a pass changes nothing or MAX_PASSES passes ran. `analyse(text)` gives a text's
    findings; `findings`, when given, are those of `source` (the first pass then analyses nothing).
    `analyse_edited(old, new, edits)`, when given, gives the findings of the text a pass made (`old` with the
    pass's `edits` applied): so the analysis can follow the edits rather than walk the whole text again."""
    text = source
    applied = 0
    changes: list[Change] = []
    skipped: tuple[SkippedFix, ...] = ()
    first_edits: tuple[TextEdit, ...] = ()
    changing_passes = 0
    previous: tuple[str, tuple[TextEdit, ...]] | None = None  # the text the last pass started from, its edits
    for number in range(MAX_PASSES):
        if number == 0 and findings is not None:
            current = findings
        elif previous is not None and analyse_edited is not None:
            current = analyse_edited(previous[0], text, previous[1])
        else:
            current = analyse(text)
        result = fix_all(text, current, unsafe=unsafe)
        skipped = result.skipped
        if not result.changed:
            break
        if number == 0:
            first_edits = result.edits
        applied += len(result.applied)
        changes.extend(result.changes)
        changing_passes += 1
        previous = (text, result.edits)
        text = result.text
    return StableFix(source, text, applied, tuple(changes), skipped, first_edits, changing_passes)


def line_edits(old: str, new: str) -> list[TextEdit]:
    """One edit per run of lines that differ between `old` and `new` (whole lines, breaks included)."""
    old_index, new_index = LineIndex(old), LineIndex(new)
    old_lines, new_lines = _lines(old, old_index), _lines(new, new_index)
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines)
    edits = []
    for tag, old_start, old_end, new_start, new_end in matcher.get_opcodes():
        if tag == "equal":
            continue
        start = old_index.position(old_index.starts[old_start]) if old_start < len(old_lines) else old_index.position(len(old))
        end = old_index.position(old_index.starts[old_end]) if old_end < len(old_lines) else old_index.position(len(old))
        edits.append(TextEdit(*start, *end, "".join(new_lines[new_start:new_end])))
    return edits


def _lines(text: str, index: LineIndex) -> list[str]:
    """The lines of `text`, each with its line break (the last, after the last break, may be empty)."""
    ends = index.starts[1:] + [len(text)]
    return [text[start:end] for start, end in zip(index.starts, ends, strict=True)]
