"""Fixing a whole file: every chosen fix applied together, imports merged, and the result checked.

Guarantees: the output parses (a fix that would break it is dropped and reported), text outside the
edited spans is unchanged, a line that ends in `# ascend-migrate: ignore` is never touched, and fixes whose
code no longer matches give no edits, so running again on the fixed text changes nothing.
"""

from __future__ import annotations

import ast
import bisect
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from ascend_migrate.analysis.chunks import collector_paused
from ascend_migrate.analysis.findings import Finding, Fix, TextEdit
from ascend_migrate.analysis.suppression import suppressed_lines, suppressions
from ascend_migrate.files import split_lines
from ascend_migrate.fixes import work
from ascend_migrate.fixes.code_edits import code_edits, is_import_only
from ascend_migrate.fixes.errors import FixError
from ascend_migrate.fixes.imports import ModuleImports, add_import_edits, remove_import_edits, used_names
from ascend_migrate.fixes.outline import ModuleOutline
from ascend_migrate.fixes.syntax import check_region, parse_region
from ascend_migrate.fixes.text import LineIndex, OverlappingEditsError, apply_edits, sorted_spans, touched_lines


@dataclass(frozen=True, slots=True)
class SkippedFix:
    """A fix that was not applied, and why."""

    finding: Finding
    reason: str


@dataclass(frozen=True, slots=True)
class Change:
    """One entry of the change report: the lines an applied fix changed, before and after."""

    line: int
    code: str  # the finding's code, or "import" for an import added or removed
    title: str
    before: str
    after: str


@dataclass(frozen=True, slots=True)
class FixResult:
    text: str
    applied: tuple[Finding, ...] = ()
    skipped: tuple[SkippedFix, ...] = ()
    edits: tuple[TextEdit, ...] = ()  # every edit made, against the original text
    changes: tuple[Change, ...] = ()

    @property
    def changed(self) -> bool:
        return bool(self.edits)


@dataclass(frozen=True, slots=True)
class _Planned:
    finding: Finding
    fix: Fix  # the finding's fix, merged with its companions' fixes
    edits: tuple[TextEdit, ...]
    companions: tuple[Finding, ...] = ()  # findings whose fixes were merged into this one


class _Context:
    """What every step needs to know about the original text; built once per file. Raises SyntaxError when
    the text does not parse."""

    def __init__(self, source: str, index: LineIndex | None = None) -> None:
        self.source = source
        self.index = index or LineIndex(source)
        self.outline = ModuleOutline(source, self.index)  # statement spans and imports, not the whole tree
        self.suppressions = suppressions(split_lines(source))
        self.suppressed = suppressed_lines(source)  # no import on these lines is removed
        self.occupied = _Occupied()
        self.imports = ModuleImports(self.outline.module_sites)


def edits_for(fix: Fix, source: str) -> list[TextEdit]:
    """The minimal edits for one fix, imports included; [] when it has nothing left to change.

    Raises FixError when the fix's data does not fit the text, or when it manages imports and the text
    does not parse. Only a fix that manages imports reads the whole text's outline (once per text: an
    editor asks for the quick fixes of many findings of one text in a row, so the last text's line index
    and outline are kept).
    """
    facts = _facts_of(source)
    edits = code_edits(fix, source, facts.index)
    if not edits and not is_import_only(fix):
        return []
    if not fix.add_imports and not fix.remove_imports:
        return edits
    return _with_imports(facts.context(), [edits], [fix])


class _SourceFacts:
    """The line index of one text and, once a fix needs it, its parsed context."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.index = LineIndex(source)
        self._context: _Context | None = None
        self._problem: str | None = None

    def context(self) -> _Context:
        if self._context is None and self._problem is None:
            try:
                self._context = _Context(self.source, self.index)
            except SyntaxError as error:
                self._problem = f"the file does not parse (line {error.lineno}): {error.msg}"
        if self._problem is not None:
            raise FixError(self._problem)
        assert self._context is not None
        return self._context


_last_facts: _SourceFacts | None = None


def _facts_of(source: str) -> _SourceFacts:
    global _last_facts
    facts = _last_facts  # one read: another thread may replace it meanwhile
    if facts is None or (facts.source is not source and facts.source != source):
        facts = _SourceFacts(source)
        _last_facts = facts
    return facts


def fix_all(source: str, findings: Iterable[Finding], unsafe: bool = False) -> FixResult:
    """Apply every safe fix (and the unsafe ones when `unsafe`) of one file's findings together.

    The cyclic collector is paused meanwhile, as in the engine: the syntax trees and libcst nodes made here
    hold no cycles, and with it on, a file with 16,000 fixes spent about half of its time in the collector
    traversing them (docs/fixes.md).
    """
    with collector_paused():
        return _fix_all(source, findings, unsafe)


def _fix_all(source: str, findings: Iterable[Finding], unsafe: bool) -> FixResult:
    fixable = [finding for finding in findings if finding.fix is not None]
    fixable.sort(key=lambda finding: (finding.line, finding.column, finding.code))
    if not fixable:
        return FixResult(source)  # nothing to fix: no parse of the whole text (a last pass usually ends here)
    try:
        context = _Context(source)
    except SyntaxError as error:
        reason = f"the file does not parse (line {error.lineno}): {error.msg}"
        return FixResult(source, skipped=tuple(SkippedFix(finding, reason) for finding in fixable))
    skipped: list[SkippedFix] = []
    planned: list[_Planned] = []
    for finding, fix, companions in _merge_call_rewrites(fixable, unsafe):
        plan = _plan(context, finding, fix, companions, unsafe)
        if isinstance(plan, str):
            skipped.extend(SkippedFix(each, plan) for each in (finding, *companions))
        else:
            planned.append(plan)
    text, edits = _assemble_checked(context, planned, skipped) if planned else (source, [])
    if not edits:
        return FixResult(source, skipped=tuple(skipped))
    changes = _changes(context, planned, edits)
    applied = tuple(each for plan in planned for each in (plan.finding, *plan.companions))
    return FixResult(text, applied, tuple(skipped), tuple(edits), tuple(changes))


def _merge_call_rewrites(fixable: list[Finding], unsafe: bool) -> list[tuple[Finding, Fix, tuple[Finding, ...]]]:
    """The fixes to plan, with the fixes whose rewrites work on the same code merged into one (`Fix.merged`):
    several findings on one call (a renamed API and each argument without a counterpart) would otherwise
    overlap."""
    work: list[tuple[Finding, Fix, tuple[Finding, ...]]] = []
    by_key: dict[Hashable, int] = {}
    for finding in fixable:
        fix = finding.fix
        assert fix is not None
        key = fix.merge_key() if fix.safe or unsafe else None
        if key is not None and key in by_key:
            primary, merged, companions = work[by_key[key]]
            work[by_key[key]] = (primary, merged.merged(fix), (*companions, finding))
            continue
        if key is not None:
            by_key[key] = len(work)
        work.append((finding, fix, ()))
    return work


def _covered(context: _Context, line: int, codes: set[str]) -> bool:
    """Whether a suppression comment on `line` covers one of the `codes` of the findings being fixed."""
    suppression = context.suppressions.get(line)
    return suppression is not None and any(suppression.covers(code) for code in codes)


def _plan(context: _Context, finding: Finding, fix: Fix, companions: tuple[Finding, ...], unsafe: bool) -> _Planned | str:
    """The fix's edits, or the reason it cannot be applied together with the fixes planned so far."""
    if not fix.safe and not unsafe:
        return "unsafe fix: apply it with --unsafe (or one by one in the editor)"
    try:
        edits = code_edits(fix, context.source, context.index)
    except FixError as error:
        return str(error)
    for statement in fix.add_imports:
        problem = context.imports.problem_with(statement)
        if problem is not None:
            return problem
    if not edits and not is_import_only(fix):
        return "nothing to change: the code no longer matches this fix"
    codes = {finding.code, *(companion.code for companion in companions)}
    for edit in edits:
        suppressed = [line for line in touched_lines(edit) if _covered(context, line, codes)]
        if suppressed:
            return f"line {suppressed[0]} is suppressed with '# ascend-migrate: ignore'"
    try:
        spans = sorted_spans(context.source, edits, context.index)
    except OverlappingEditsError as error:
        return f"the fix's own edits overlap: {error}"
    for start, end, edit in spans:
        other = context.occupied.conflict(start, end, edit.new_text)
        if other is not None:
            return f"overlaps the fix for {other.code} at line {other.line}; run fix again to apply it"
    for start, end, edit in spans:
        context.occupied.add(start, end, edit.new_text, finding)
    return _Planned(finding, fix, tuple(edits), companions)


class _Occupied:
    """The spans (as offsets) that planned fixes edit, kept sorted, to find overlaps in logarithmic time."""

    def __init__(self) -> None:
        self.keys: list[tuple[int, int]] = []
        self.values: list[tuple[str, Finding | None]] = []

    def conflict(self, start: int, end: int, text: str) -> Finding | None:
        """The finding whose edit overlaps the span (None when nothing, or only an unattributed edit, does)."""
        neighbour = self._overlapping(start, end, text)
        return None if neighbour is None else self.values[neighbour][1]

    def overlaps(self, start: int, end: int, text: str) -> bool:
        return self._overlapping(start, end, text) is not None

    def _overlapping(self, start: int, end: int, text: str) -> int | None:
        position = bisect.bisect_left(self.keys, (start, end))
        for neighbour in (position - 1, position):
            if not 0 <= neighbour < len(self.keys):
                continue
            other_start, other_end = self.keys[neighbour]
            other_text = self.values[neighbour][0]
            if (other_start, other_end, other_text) == (start, end, text):
                continue  # the same edit twice: applied once
            overlaps = other_start < end and start < other_end
            both_insert_here = other_start == other_end == start == end
            if overlaps or both_insert_here:
                return neighbour
        return None

    def add(self, start: int, end: int, text: str, finding: Finding | None) -> None:
        position = bisect.bisect_left(self.keys, (start, end))
        if position < len(self.keys) and self.keys[position] == (start, end) and self.values[position][0] == text:
            return
        self.keys.insert(position, (start, end))
        self.values.insert(position, (text, finding))


def _assemble_checked(context: _Context, planned: list[_Planned], skipped: list[SkippedFix]) -> tuple[str, list[TextEdit]]:
    """Apply the planned fixes; drop (into `skipped`) the ones that make the text stop parsing.

    When the whole does not parse, the fixes are tried in order, in halves: a group that parses together
    with the fixes kept so far is kept at once, a group that does not is split, down to the single fix
    that breaks the code (alone, or together with the kept ones). So k broken fixes among n cost about
    k·log(n) parses of the file rather than 2n.
    """
    result = _assemble(context, planned)
    if result is not None:
        return result
    kept: list[_Planned] = []
    alone: list[_Planned] = []  # fixes that break the code on their own
    together: list[_Planned] = []  # fixes that break it together with the fixes kept before them
    middle = len(planned) // 2
    pending = [planned[middle:], planned[:middle]] if middle else [planned]  # the whole is known not to parse
    while pending:
        group = pending.pop()
        if _assemble(context, [*kept, *group]) is not None:
            kept.extend(group)
        elif len(group) > 1:
            middle = len(group) // 2
            pending.extend((group[middle:], group[:middle]))  # the first half is tried first
        elif kept and _assemble(context, group) is not None:
            together.extend(group)
        else:
            alone.extend(group)
    for plan in alone:
        skipped.extend(SkippedFix(each, "the fixed code would not parse; fix this line by hand") for each in (plan.finding, *plan.companions))
    for plan in together:
        reason = "the fixed code would not parse together with the other fixes; run fix again"
        skipped.extend(SkippedFix(each, reason) for each in (plan.finding, *plan.companions))
    planned[:] = kept
    return _assemble(context, planned) or (context.source, [])


def _assemble(context: _Context, planned: Sequence[_Planned]) -> tuple[str, list[TextEdit]] | None:
    """The fixed text and every edit made, or None when the fixed text would not parse.

    Only the edited statements are checked: the original parses, and a run of whole top-level statements
    that parses alone parses in its place (the text around it is unchanged, and each run ends at a
    statement boundary). So the check follows the fixes, not the file."""
    try:
        all_edits = _with_imports(context, [plan.edits for plan in planned], [plan.fix for plan in planned])
        for text in _fixed_region_texts(context, all_edits, _edited_regions(context, all_edits)):
            check_region(text)
        text = apply_edits(context.source, all_edits)
    except (SyntaxError, FixError, OverlappingEditsError, ValueError):
        return None
    return text, all_edits


def _with_imports(context: _Context, edits_by_fix: Sequence[Sequence[TextEdit]], fixes: Sequence[Fix]) -> list[TextEdit]:
    """The fixes' edits plus the import insertions and removals they ask for (removals that would touch an
    edited span or a suppressed line are left out)."""
    edits = [edit for fix_edits in edits_by_fix for edit in fix_edits]
    add = [statement for fix in fixes for statement in fix.add_imports]
    remove = [name for fix in fixes for name in fix.remove_imports]
    result = list(edits)
    if add:
        first_use: dict[str, int] = {}
        for fix, fix_edits in zip(fixes, edits_by_fix, strict=True):
            if fix_edits:
                line = min(edit.line for edit in fix_edits)
                for statement in fix.add_imports:
                    first_use[statement] = min(first_use.get(statement, line), line)
        result.extend(add_import_edits(context.outline, add, context.imports, first_use))
    unused = _unused_after(context, edits, remove) if remove else set()
    if unused:
        try:
            spans = sorted_spans(context.source, result, context.index)
        except OverlappingEditsError:
            return result  # no removal can fit; the caller's check reports the overlap
        occupied = _Occupied()
        for start, end, edit in spans:
            occupied.add(start, end, edit.new_text, None)
        for removal in remove_import_edits(context.outline.all_sites, unused, context.index, context.suppressed):
            start, end = context.index.span(removal)
            if not occupied.overlaps(start, end, removal.new_text):
                occupied.add(start, end, removal.new_text, None)
                result.append(removal)
    return result


def _unused_after(context: _Context, edits: Sequence[TextEdit], names: Sequence[str]) -> set[str]:
    """The `names` that the code after `edits` no longer uses: those that neither the edited statements'
    fixed text (parsed on its own) nor a statement the edits leave alone uses. The untouched statements are
    read only until every name is found in use; so a fix whose import stays in use (the usual case) costs a
    parse of the statements it edited, not of the file. Empty when the edited statements do not parse (the
    caller's check then refuses the fixes)."""
    candidates = set(names)
    regions = _edited_regions(context, edits)
    try:
        for text in _fixed_region_texts(context, edits, regions):
            candidates -= used_names(parse_region(text))  # first: the fixed code usually still uses what it used
    except (SyntaxError, OverlappingEditsError, ValueError):
        return set()
    for statement in context.outline.untouched_statements(regions):
        if not candidates:
            break
        candidates -= used_names(ast.Module(body=[statement], type_ignores=[]))
    return candidates


def _edited_regions(context: _Context, edits: Sequence[TextEdit]) -> list[tuple[int, int]]:
    """Sorted, disjoint runs of whole lines (first, last) holding every edit, widened to whole top-level
    statements (from their first decorator)."""
    outline = context.outline
    touched = _merged_runs(sorted((edit.line, edit.end_line) for edit in edits))
    widened = [(outline.first_lines[number], outline.end_lines[number])
               for first, last in touched for number in outline.overlapping(first, last)]
    return _merged_runs(sorted(touched + widened))


def _merged_runs(runs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for first, last in runs:
        if merged and first <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return merged


def _fixed_region_texts(context: _Context, edits: Sequence[TextEdit], regions: list[tuple[int, int]]) -> list[str]:
    """Each region's text with the edits in it applied. Raises ValueError when an edit crosses a region's end
    (it cannot: the regions hold every edit) and OverlappingEditsError for overlapping edits."""
    index = context.index
    starts = [first for first, _ in regions]
    local: list[list[TextEdit]] = [[] for _ in regions]
    for edit in edits:
        position = bisect.bisect_right(starts, edit.line) - 1
        if position < 0 or edit.end_line > regions[position][1]:
            raise ValueError(f"an edit at line {edit.line} is outside the edited regions")
        first = regions[position][0]
        local[position].append(TextEdit(edit.line - first + 1, edit.column, edit.end_line - first + 1, edit.end_column, edit.new_text))
    texts = []
    for (first, last), region_edits in zip(regions, local, strict=True):
        text = context.source[index.starts[first - 1]:index.line_end(last)]
        texts.append(apply_edits(text, region_edits))
    return texts


def _changes(context: _Context, planned: Sequence[_Planned], edits: list[TextEdit]) -> list[Change]:
    code_edits_made = {edit for plan in planned for edit in plan.edits}
    changes: list[Change] = []
    listed: set[tuple[TextEdit, ...]] = set()
    for plan in planned:
        if plan.edits in listed:
            continue  # findings sharing one fix (a statement removed for each of its calls): listed once
        listed.add(plan.edits)
        rewrite, shown = plan.fix.rewrite, plan.edits
        if rewrite is not None:  # a definition written whole is listed as one line, not as its text
            summaries = {edit: summary for edit in plan.edits if (summary := rewrite.listed(edit)) is not None}
            changes.extend(Change(edit.line, plan.finding.code, plan.fix.title, "", summary) for edit, summary in summaries.items())
            shown = tuple(edit for edit in plan.edits if edit not in summaries)
        if shown:
            changes.append(Change(plan.finding.line, plan.finding.code, plan.fix.title, *_before_after(context, shown)))
    # An import added for a fix that only adds imports is listed under that fix's code and title.
    requested_by = {
        statement: plan.finding
        for plan in reversed(planned)
        if is_import_only(plan.fix)
        for statement in plan.fix.add_imports
    }
    for edit in edits:
        if edit in code_edits_made:
            continue
        if edit.line == edit.end_line and edit.column == edit.end_column:  # an insertion: only new lines
            added = edit.new_text.strip("\r\n")
            requester = requested_by.get(added)
            if requester is not None and requester.fix is not None:
                changes.append(Change(edit.line, requester.code, requester.fix.title, "", added))
            else:
                changes.append(Change(edit.line, "import", "add import", "", added))
        else:
            changes.append(Change(edit.line, "import", "remove unused import", *_before_after(context, (edit,))))
    changes.sort(key=lambda change: change.line)
    return changes


def _before_after(context: _Context, edits: Sequence[TextEdit]) -> tuple[str, str]:
    """The text of the whole lines the edits touch, before and after them.

    A touched line longer than LONG_LINE characters is shortened to EXCERPT_CONTEXT characters around
    each edit on it, the cut parts marked with "…": with many fixes on one long line, whole lines would
    make the change list grow with the square of the fixes.
    """
    index = context.index
    source = context.source
    spans = sorted_spans(source, edits, index)
    first_line = min(edit.line for edit in edits)
    # An edit ending at the start of a line (a deleted line break) does not touch that line's text.
    last_line = max(edit.end_line - 1 if edit.end_column == 1 and edit.end_line > edit.line else edit.end_line for edit in edits)
    start = index.starts[first_line - 1]
    end = max(index.line_end(last_line), max(span_end for _, span_end, _ in spans))
    cuts = _cuts(index, first_line, last_line, spans)
    before, after, cursor = [], [], start
    for cut_start, cut_end, edit in _merged(cuts, spans):
        before.append(source[cursor:cut_start])
        after.append(source[cursor:cut_start])
        if edit is None:  # text left out of a long line
            before.append(ELLIPSIS)
            after.append(ELLIPSIS)
        else:
            before.append(source[cut_start:cut_end])
            after.append(edit.new_text)
        cursor = cut_end
    before.append(source[cursor:end])
    after.append(source[cursor:end])
    result = "".join(before).rstrip("\r\n"), "".join(after).rstrip("\r\n")
    work.change_listed(*result)
    return result


LONG_LINE = 240
EXCERPT_CONTEXT = 40
ELLIPSIS = "\u2026"


def _cuts(index: LineIndex, first_line: int, last_line: int, spans: list[tuple[int, int, TextEdit]]) -> list[tuple[int, int]]:
    """The parts of the lines `first_line`..`last_line` left out of the change list: in each line longer
    than LONG_LINE, everything farther than EXCERPT_CONTEXT characters from an edit (sorted, disjoint)."""
    cuts: list[tuple[int, int]] = []
    ends = [span_end for _, span_end, _ in spans]
    for line in range(first_line, last_line + 1):
        line_start, line_end = index.starts[line - 1], index.line_end(line)
        if line_end - line_start <= LONG_LINE:
            continue
        kept: list[tuple[int, int]] = []
        position = bisect.bisect_left(ends, line_start)  # the first edit that ends on or after this line
        while position < len(spans) and spans[position][0] <= line_end:
            span_start, span_end, _ = spans[position]
            window = (max(line_start, span_start - EXCERPT_CONTEXT), min(line_end, span_end + EXCERPT_CONTEXT))
            if kept and window[0] <= kept[-1][1]:
                kept[-1] = (kept[-1][0], max(kept[-1][1], window[1]))
            else:
                kept.append(window)
            position += 1
        if not kept:  # a line between two edited lines of one fix: its start only
            kept.append((line_start, line_start + EXCERPT_CONTEXT))
        cursor = line_start
        for kept_start, kept_end in kept:
            if kept_start > cursor:
                cuts.append((cursor, kept_start))
            cursor = max(cursor, kept_end)
        if cursor < line_end:
            cuts.append((cursor, line_end))
    return cuts


def _merged(cuts: list[tuple[int, int]], spans: list[tuple[int, int, TextEdit]]) -> list[tuple[int, int, TextEdit | None]]:
    """The cuts (as (start, end, None)) and the edits' spans in text order; they never overlap, as every
    edit keeps EXCERPT_CONTEXT characters around it."""
    merged: list[tuple[int, int, TextEdit | None]] = [(start, end, None) for start, end in cuts]
    merged.extend(spans)
    merged.sort(key=lambda item: (item[0], item[1]))
    return merged
