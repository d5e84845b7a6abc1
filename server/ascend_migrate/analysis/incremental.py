"""Re-analysing a document after an edit by re-walking only the top-level statements the edit touched.

The language server keeps the `ModuleAnalysis` of each open document. After an edit of lines
`start_line..old_end_line` (now `start_line..new_end_line`), the chunks that overlap the edit are cut out,
their new text is parsed on its own, and the chunks after them keep their findings, shifted by the change
in line count. When what the region binds at module level changes (an import, a class, a module-level
variable's type), the chunks that read one of those names are analysed again too; when an import changes
(replacements are written with the file's own import names) the whole document is.

A statement that stops parsing while it is being typed (`mem = torch.` inside a function) keeps the findings
it had before the edit, moved with the lines around them, until it parses again: squiggles do not vanish
while the user types. Only findings on lines the edit changed are dropped. The CLI never passes a previous
analysis, so a file on disk that does not parse is reported as it is.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from ascend_migrate.analysis.chunks import Chunk, collector_paused, parse_module
from ascend_migrate.analysis.dictionary_keys import KEYS_MARK
from ascend_migrate.analysis.engine import (
    ChunkRunner,
    ModuleAnalysis,
    analyze_module,
    prepass_bindings,
    replay_bindings,
    replay_classes,
    walk_with_parameter_hints,
)
from ascend_migrate.analysis.line_edits import LineEdit
from ascend_migrate.config import Settings
from ascend_migrate.files import split_lines
from ascend_migrate.kb.index import KnowledgeBase


def analyze_document(
    text: str,
    path: str,
    settings: Settings,
    previous: ModuleAnalysis | None = None,
    edit: LineEdit | None = None,
    knowledge_base: KnowledgeBase | None = None,
) -> ModuleAnalysis:
    """The analysis of `text`, reusing `previous` (the analysis before `edit`) where the edit allows."""
    if previous is None or edit is None or previous.settings != settings or previous.path != path:
        return analyze_module(text, path, settings, knowledge_base)
    lines = split_lines(text)
    with collector_paused():
        reused = _reanalyse_region(previous, lines, edit, knowledge_base)
    analysis = reused if reused is not None else analyze_module(text, path, settings, knowledge_base)
    _keep_last_good_findings(analysis, previous, edit)
    return analysis


def _keep_last_good_findings(analysis: ModuleAnalysis, previous: ModuleAnalysis, edit: LineEdit) -> None:
    """Give each chunk of `analysis` that does not parse the findings `previous` had on its lines, moved by
    the edit, except those on lines whose text changed (their columns and meaning may no longer hold)."""
    unparsed = [chunk for chunk in analysis.chunks if chunk.error and not chunk.findings]
    if not unparsed or not previous.findings:
        return
    changed = _changed_lines(previous.lines, analysis.lines, edit)
    if changed is None:
        return
    start, old_end, new_end = changed
    delta = new_end - old_end
    old_findings = previous.findings
    old_starts = [finding.line for finding in old_findings]  # chunks are in line order, findings in each too

    def old_line(line: int, edge: int) -> int:
        """Line `line` of the new text in the old text's numbering; `edge` where it is a changed line."""
        if line < start:
            return line
        return line - delta if line > new_end else edge

    for chunk in unparsed:
        first, last = old_line(chunk.start, start), old_line(chunk.end, old_end)
        kept = []
        for finding in old_findings[bisect_left(old_starts, first):bisect_right(old_starts, last)]:
            if finding.end_line > last or (finding.line <= old_end and finding.end_line >= start):
                continue  # runs out of the chunk, or touches a changed line
            kept.append(finding.shifted(delta) if finding.line > old_end else finding)
        chunk.findings = kept


def _changed_lines(old: list[str], new: list[str], edit: LineEdit) -> tuple[int, int, int] | None:
    """The edit narrowed to the lines whose text really changed: (start, old_end, new_end), 1-based and
    inclusive (an end below the start when lines were only inserted or deleted). Pressing Enter reports the
    line it was pressed on as edited; that line's findings still stand. None when the edit does not fit."""
    start, old_end, new_end = edit.start_line, edit.old_end_line, edit.new_end_line
    if start < 1 or old_end > len(old) or new_end > len(new) or len(new) - len(old) != new_end - old_end:
        return None
    while start <= old_end and start <= new_end and old[start - 1] == new[start - 1]:
        start += 1
    while old_end >= start and new_end >= start and old[old_end - 1] == new[new_end - 1]:
        old_end -= 1
        new_end -= 1
    return start, old_end, new_end


def _reanalyse_region(previous: ModuleAnalysis, lines: list[str], edit: LineEdit, knowledge_base) -> ModuleAnalysis | None:
    """The new analysis, or None when only a full analysis can give the right answer."""
    delta = edit.new_end_line - edit.old_end_line
    chunks = previous.chunks
    if len(lines) != len(previous.lines) + delta or not chunks or edit.start_line < 1:
        return None
    first = next((index for index, chunk in enumerate(chunks) if chunk.end >= edit.start_line), None)
    if first is None:
        return None
    if first > 0 and edit.start_line <= chunks[first].start:
        first -= 1  # an edit on a statement's first line may join it to the statement above
    last = max(index for index, chunk in enumerate(chunks) if chunk.start <= max(edit.old_end_line, edit.start_line))
    last = max(last, first)
    region_start = chunks[first].start
    region_new_end = chunks[last].end + delta
    if region_new_end < region_start:
        return None
    if any(chunk.reads_from is not None and chunk.reads_from <= chunks[last].end for chunk in chunks[last + 1:]):
        return None  # a later chunk's findings were computed from the edited text (RuleContext.read_earlier_lines)
    if any(chunk.reads_later for chunk in chunks[:first]):
        return None  # so were an earlier chunk's (RuleContext.read_later_lines)
    # Copies: `previous` stays valid (a reader may still hold it, and a failed attempt falls back to a full run).
    classes = dict(previous.classes)
    analysis = ModuleAnalysis(previous.path, previous.settings, lines, [], {}, classes)
    if analysis.frameworks != previous.frameworks:
        return None  # the rules installed for the module change (rules/api.py: Rule.frameworks)
    old_region = chunks[first:last + 1]
    old_names = _bound_names(old_region)
    region = parse_module(lines[region_start - 1:region_new_end], first_line=region_start)
    if any(chunk.error for chunk in region) or any(chunk.error for chunk in chunks):
        # Where the text does not parse, only the whole text says how far the damage goes (an unclosed
        # triple quote swallows every statement after it); the full analysis recovers what still parses.
        return None
    prepass_scope = replay_bindings(chunks[:first], classes, 0)  # class bases resolve as in a full pre-pass
    for chunk in region:
        chunk.bindings = prepass_bindings(chunk, prepass_scope, {})
    before = list(chunks[:first])
    after = [_shifted(chunk, delta) for chunk in chunks[last + 1:]]
    document = before + region + after
    replay_classes(document, classes)
    analysis.bindings = replay_bindings(document, classes, len(document))
    runner = ChunkRunner(analysis, knowledge_base)
    positions = {id(chunk): index for index, chunk in enumerate(document)}

    def scope_for(chunk: Chunk) -> dict:
        return replay_bindings(document, classes, positions[id(chunk)])

    runner.walk(region, scope_for)
    new_names = _bound_names(region)
    changed = {name for name in old_names.keys() | new_names.keys() if old_names.get(name) != new_names.get(name)}
    # A module-level dict's keys changed: the chunks that use the dict may now follow it, or stop (walker.watched).
    changed |= {name[:-len(KEYS_MARK)] for name in changed if name.endswith(KEYS_MARK)}
    if changed:
        if not _rebindings_stay_local(changed):
            return None
        imported = _imported_modules(changed, old_names, new_names)
        torch_npu_changed = any(module.split(".", 1)[0] == "torch_npu" for module in imported)
        knowledge_base = knowledge_base or KnowledgeBase.load()
        for index, chunk in enumerate(document):
            if positions.get(id(chunk)) is None or region_start <= chunk.start <= region_new_end:
                continue
            if chunk.referenced & changed or _renders_under(chunk, imported, knowledge_base) or (
                    torch_npu_changed and _may_import_torch(chunk, lines)):
                rewalked = _rewalk(chunk, lines, runner, classes, document, index)
                if rewalked is None:
                    return None
                document[index] = rewalked
    walk_with_parameter_hints(analysis, runner, document)
    analysis.chunks = document
    analysis.bindings = replay_bindings(document, classes, len(document))
    return analysis


def _bound_names(chunks: list[Chunk]) -> dict[str, list]:
    """name → what the chunks bind it to at module level, in order (pre-pass first, then the walk)."""
    names: dict[str, list] = {}
    for chunk in chunks:
        for binding in (*chunk.bindings, *chunk.written):
            names.setdefault(binding[0], []).append(binding[1:])
    return names


def _rebindings_stay_local(changed: set[str]) -> bool:
    """Whether re-walking the chunks that read the changed names (or whose fixes are written with a changed
    import) is enough. Not when a marker such as the transfer_to_npu import changed (it changes every
    finding's severity). A change of torch_npu's import is local: it decides only whether an `import torch`
    needs `import torch_npu` beside it, so the chunks that may import torch are walked again."""
    return not any(name.startswith("<") for name in changed)


def _may_import_torch(chunk: Chunk, lines: list[str]) -> bool:
    """Whether the chunk's text could hold an `import torch` (anywhere in it: the rule sees nested imports too)."""
    text = "".join(lines[chunk.start - 1:chunk.end])
    return "torch" in text and "import" in text


def _imported_modules(changed: set[str], old: dict, new: dict) -> set[str]:
    """The qualified names that the changed names are (or were) imports of."""
    modules = set()
    for name in changed:
        for binding in (*old.get(name, ()), *new.get(name, ())):
            if binding and type(binding[0]) is tuple and binding[0][0] == "import":
                modules.add(binding[0][1])  # pre-pass: (name, ("import", module))
            elif binding and binding[0] == "import" and len(binding) > 1:
                modules.add(binding[1])  # walk: (name, "import", module)
    return modules


def _renders_under(chunk: Chunk, modules: set[str], knowledge_base: KnowledgeBase) -> bool:
    """Whether a fix in the chunk names a replacement under one of `modules` (its text uses the import names)."""
    if not modules:
        return False
    for finding in chunk.findings:
        if finding.fix is None or not finding.entry_key:
            continue
        entry = knowledge_base.by_key.get(finding.entry_key)
        target = entry.target if entry is not None else None
        if target and any(target == module or target.startswith(module + ".") for module in modules):
            return True
    return False


def _rewalk(chunk: Chunk, lines: list[str], runner: ChunkRunner, classes: dict, document: list[Chunk],
            index: int) -> Chunk | None:
    """The chunk analysed again from its (unchanged) text, for a module-level name it reads that changed."""
    parsed = parse_module(lines[chunk.start - 1:chunk.end], first_line=chunk.start)
    if len(parsed) != 1 or parsed[0].error != chunk.error:
        return None
    fresh = parsed[0]
    fresh.bindings = prepass_bindings(fresh, replay_bindings(document[:index], classes, 0), {})
    if fresh.bindings != chunk.bindings:
        return None
    document[index] = fresh  # scope_for finds it at the same position
    replay_classes(document, classes)
    runner.walk([fresh], lambda walked: replay_bindings(document, classes, index))
    if fresh.written != chunk.written:
        return None
    return fresh


def _shifted(chunk: Chunk, delta: int) -> Chunk:
    if delta == 0:
        return chunk
    return Chunk(
        start=chunk.start + delta,
        end=chunk.end + delta,
        statements=chunk.statements,
        line_offset=chunk.line_offset + delta,
        error=chunk.error,
        error_line=chunk.error_line + delta if chunk.error_line else None,
        findings=[finding.shifted(delta) for finding in chunk.findings],
        bindings=chunk.bindings,
        written=chunk.written,
        referenced=chunk.referenced,
        class_infos=chunk.class_infos,
        reads_from=chunk.reads_from + delta if chunk.reads_from is not None else None,
        reads_later=chunk.reads_later,
        function_records=chunk.function_records,
        hints=chunk.hints,
        unused_candidates=tuple((name, first + delta, last + delta, finding.shifted(delta))
                                for name, first, last, finding in chunk.unused_candidates),
    )
