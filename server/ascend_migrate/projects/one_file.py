"""Migrating one file of the project into the copy: the one function per file that `migrate` calls.

`migrate_file` picks a handler by the file's suffix (`HANDLERS`); a file without one is copied as it is. A
handler reads the file in SRC (never writes there), writes the migrated file in DST whole or not at all, and
says what it did in a `FileMigration`. A handler for another kind of file (notebooks) is added to `HANDLERS`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ascend_migrate.analysis.findings import FileError, Finding
from ascend_migrate.config import Settings
from ascend_migrate.fixes.apply import Change
from ascend_migrate.projects.tree import ProjectFile, copy_file

# Operation types of the Ascend tool's change_list.csv (msfmktransplt's OperatorType).
INSERT, MODIFY, DELETE = "INSERT", "MODIFY", "DELETE"


@dataclass(frozen=True)
class Operation:
    """One row of change_list.csv: the lines of the migrated file an edit covers, and what it did."""

    start_line: int
    end_line: int
    kind: str  # INSERT, MODIFY or DELETE
    message: str


@dataclass
class FileMigration:
    """What migrating one file did."""

    relative: str  # the path inside the project, posix form (as in every analysis file)
    analysed: bool = False  # the file was read and analysed (a Python file that parses)
    changed: bool = False  # the copy differs from the source
    applied: int = 0  # fixes applied
    findings: list[Finding] = field(default_factory=list)  # of the source, as `scan` reports them
    left: list[Finding] = field(default_factory=list)  # of the migrated copy
    operations: list[Operation] = field(default_factory=list)
    unknown: list[tuple[int, int, str]] = field(default_factory=list)  # torch.* names no table knows
    error: FileError | None = None  # why the file was copied without being migrated


@dataclass(frozen=True)
class Step:
    """A project-level edit applied to one file's fixed text (--auto imports, --distributed): returns the new
    text and the change-list rows, or raises StepError with what could not be done."""

    name: str
    apply: Callable[[str], tuple[str, list[Operation]]]
    # applied before the fixes (the automatic-migration imports: the fixes then find `import torch_npu` there)
    before_fixes: bool = False


class StepError(Exception):
    pass


@dataclass(frozen=True)
class FilePlan:
    """How to migrate the files: the settings, --unsafe, which findings to fix, and the steps per file."""

    settings: Settings
    unsafe: bool = False
    # findings of a text → the findings whose fixes are applied (--auto keeps what transfer_to_npu cannot do)
    select: Callable[[Sequence[Finding], str], list[Finding]] | None = None
    steps: dict[str, tuple[Step, ...]] = field(default_factory=dict)  # relative path → its steps, in order


Handler = Callable[[ProjectFile, Path, FilePlan], FileMigration]


def migrate_file(item: ProjectFile, target: Path, plan: FilePlan) -> FileMigration:
    """Migrate one file of the project to `target` (its place in DST)."""
    handler = None if item.is_link else HANDLERS.get(os.path.splitext(item.relative)[1].lower())
    if handler is None:
        copy_file(item, target)
        return FileMigration(item.relative)
    return handler(item, target, plan)


def migrate_python_file(item: ProjectFile, target: Path, plan: FilePlan) -> FileMigration:
    from ascend_migrate.analysis.after_edits import EditedTextAnalyser
    from ascend_migrate.files import decode_source, encode_like, read_source_bytes, write_atomically
    from ascend_migrate.fixes import fix_until_stable
    from ascend_migrate.fixes.syntax import check
    from ascend_migrate.projects.unknown_apis import unknown_torch_names

    outcome = FileMigration(item.relative)
    try:
        data = read_source_bytes(item.source)
        original = decode_source(data)
    except (OSError, ValueError) as error:
        message = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        return _copied_as_is(item, target, outcome, FileError(item.relative, f"cannot read: {message}; copied unchanged"))
    analyser = EditedTextAnalyser(item.relative, plan.settings)
    findings = analyser(original)
    if analyser.has_errors():  # as `fix`: the cost of a parse check of the whole text only then, for its message
        try:
            check(original)
        except SyntaxError as error:
            # what the analysis found in the statements that parse is still reported, as `scan` reports it
            outcome.findings = outcome.left = findings
            return _copied_as_is(item, target, outcome, FileError(item.relative, f"syntax error: {error.msg}; copied unchanged", error.lineno))
    outcome.analysed = True
    outcome.findings = findings
    steps = plan.steps.get(item.relative, ())
    text = _apply_steps(original, [step for step in steps if step.before_fixes], outcome)
    if text != original:
        findings = analyser(text)
    select = plan.select
    if select is None:
        fixed = fix_until_stable(text, analyser, plan.unsafe, findings=findings, analyse_edited=analyser.after)
    else:
        fixed = fix_until_stable(text, lambda current: select(analyser(current), current), plan.unsafe,
                                 findings=select(findings, text),
                                 analyse_edited=lambda old, new, edits: select(analyser.after(old, new, edits), new))
    outcome.applied = fixed.applied
    outcome.operations.extend(_operation(change) for change in fixed.changes)
    text = _apply_steps(fixed.text, [step for step in steps if not step.before_fixes], outcome)
    outcome.changed = text != original
    outcome.left = analyser(text) if outcome.changed else outcome.findings
    outcome.unknown = unknown_torch_names(original)
    if not outcome.changed:
        copy_file(item, target)
        return outcome
    try:
        encoded = encode_like(text, data)
    except (UnicodeEncodeError, LookupError, SyntaxError) as error:
        outcome.changed = False
        outcome.error = FileError(item.relative, f"the fixed text cannot be written in the file's encoding ({error}); copied unchanged")
        copy_file(item, target)
        return outcome
    write_atomically(target, encoded, mode=_mode(item.source))
    return outcome


def _apply_steps(text: str, steps: Sequence[Step], outcome: FileMigration) -> str:
    from ascend_migrate.fixes.text import OverlappingEditsError

    for step in steps:
        try:
            text, operations = step.apply(text)
        except (StepError, OverlappingEditsError) as error:  # the file keeps the text before the step
            outcome.error = FileError(outcome.relative, f"{step.name}: {error}")
            continue
        outcome.operations.extend(operations)
    return text


def _copied_as_is(item: ProjectFile, target: Path, outcome: FileMigration, error: FileError) -> FileMigration:
    copy_file(item, target)
    outcome.error = error
    return outcome


def _mode(path: Path) -> int:
    import stat

    return stat.S_IMODE(path.stat().st_mode)


def _operation(change: Change) -> Operation:
    """A fix's change as a change_list.csv row: the lines it replaced, and INSERT/DELETE/MODIFY as the tool says."""
    before_lines = max(1, change.before.count("\n") + (0 if change.before.endswith("\n") else 1)) if change.before else 1
    kind = INSERT if not change.before.strip() else DELETE if not change.after.strip() else MODIFY
    message = f"{change.code}: {change.title}"
    return Operation(change.line, change.line + before_lines - 1, kind, message)


def migrate_notebook(item: ProjectFile, target: Path, plan: FilePlan) -> FileMigration:
    """A notebook: its code cells fixed as one program and written back into the cells (notebooks/per_file.py);
    findings and change-list rows say the cell. --auto and --distributed steps apply to Python files only."""
    import codecs

    from ascend_migrate.files import write_atomically
    from ascend_migrate.notebooks.per_file import analyze_notebook, fix_notebook

    outcome = FileMigration(item.relative)
    analysed = analyze_notebook(item.source, item.relative, plan.settings)
    outcome.findings = outcome.left = list(analysed.findings)
    try:
        done = fix_notebook(item.source, item.relative, plan.settings, plan.unsafe)
    except (OSError, ValueError) as error:
        message = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        return _copied_as_is(item, target, outcome, FileError(item.relative, f"{message}; copied unchanged"))
    outcome.analysed = True
    fixed = done.fixed
    outcome.applied = fixed.applied  # type: ignore[attr-defined]
    for change in fixed.changes:  # type: ignore[attr-defined]
        operation = _operation(change)
        cell, line = done.program.locate(operation.start_line)
        outcome.operations.append(Operation(line, line + operation.end_line - operation.start_line, operation.kind,
                                            f"cell {cell}: {operation.message}"))
    if done.text == done.original:
        copy_file(item, target)
        return outcome
    outcome.changed = True
    bom = codecs.BOM_UTF8 if done.data.startswith(codecs.BOM_UTF8) else b""
    write_atomically(target, bom + done.text.encode("utf-8"), mode=_mode(item.source))
    outcome.left = list(analyze_notebook(target, item.relative, plan.settings).findings)
    return outcome


HANDLERS: dict[str, Handler] = {".py": migrate_python_file, ".ipynb": migrate_notebook}
