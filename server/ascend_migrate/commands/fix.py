"""`ascend-migrate fix PATH...`: apply the fixes of the findings, as a diff (default) or in place (--write).

Each file is analysed, fixed, and analysed again until nothing changes (`fixes.until_stable`, shared with the
editor's fix-all). Files that do not parse are reported and never touched.
Each file is written as soon as it is fixed, and only when its bytes on disk are still those that were read
(an edit saved meanwhile is never overwritten: the file is reported and left alone). Writes are atomic (a
temporary file beside the real file, synced, then a rename) and keep the file's mode, encoding, byte-order
mark and line breaks. Every change is listed on stderr, and with --report in a CSV
or JSON file: file, line, code, before, after.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ascend_migrate.commands.common import (
    add_settings_arguments,
    missing_path,
    print_error,
    settings_from_arguments,
    termination_as_interrupt,
)

EXIT_CLEAN, EXIT_CHANGES_OR_ERRORS, EXIT_USAGE = 0, 1, 2
REPORT_SUFFIXES = (".csv", ".json")
# Skips that are the normal course of things: counted in the summary or simply nothing to do.
_QUIET_SKIPS = ("unsafe fix", "nothing to change")


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "fix",
        help="apply the fixes: print a diff (default) or change the files in place (--write)",
        description="Apply the safe fixes of the findings (and the unsafe ones with --unsafe). Without --write "
        "nothing is changed and a unified diff is printed; exit 1 when that diff is not empty or a file could not be fixed.",
    )
    parser.add_argument("paths", nargs="*", type=Path, default=None, metavar="PATH", help="files or directories (default: .)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--diff", action="store_true", help="print a unified diff and change nothing (the default)")
    mode.add_argument("--write", action="store_true", help="change the files in place")
    parser.add_argument("--unsafe", action="store_true", help="also apply fixes that may change behaviour")
    parser.add_argument("--report", type=Path, metavar="FILE", help="write the change list to FILE (.csv or .json)")
    parser.add_argument("--jobs", "-j", type=int, default=1, metavar="N", help="fix in N processes (0: one per core)")
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


@dataclass
class _Outcome:
    """What fixing one file did."""

    path: str
    original: str
    text: str
    digest: bytes = b""  # SHA-256 of the bytes read: the file is written only while its bytes still match
    applied: int = 0  # fixes applied (findings fixed)
    changes: list = field(default_factory=list)  # list[Change]
    skipped: list = field(default_factory=list)  # list[SkippedFix]
    edits: list = field(default_factory=list)  # list[TextEdit]: what turns `original` into `text`
    program: object = None  # a notebook's notebooks.program.Program: its lines say cell and line

    def place(self, line: int, inserted: bool = False) -> tuple[int | None, int]:
        """(cell or None, line) of a line of the fixed text (in a notebook: of the program its cells make);
        `inserted`: lines added there, which at a cell's start end the cell before (as written back)."""
        if self.program is None:
            return None, line
        return self.program.place_insertion(line) if inserted else self.program.locate(line)  # type: ignore[attr-defined]

    def location(self, line: int, inserted: bool = False) -> str:
        cell, line = self.place(line, inserted)
        return f"{self.path} cell {cell}, line {line}" if cell is not None else f"{self.path}:{line}"


def run(arguments: argparse.Namespace) -> int:
    from ascend_migrate.config import ConfigError
    from ascend_migrate.kb.errors import KnowledgeBaseError

    paths = arguments.paths or [Path(".")]
    missing = missing_path(paths)
    if missing is not None:
        print_error(f"{missing}: no such file or directory")
        return EXIT_USAGE
    if arguments.report is not None and arguments.report.suffix.lower() not in REPORT_SUFFIXES:
        print_error(f"--report {arguments.report}: the file name must end in .csv or .json")
        return EXIT_USAGE
    try:
        settings = settings_from_arguments(arguments, paths)
    except ConfigError as error:
        print_error(str(error))
        return EXIT_USAGE
    from ascend_migrate.files import display_path
    from ascend_migrate.workspace import discover, processes

    discovered = discover(paths, settings)
    problems = [(error.path, error.line, error.message) for error in discovered.skipped]
    outcomes: list[_Outcome] = []
    guard = _WriteGuard(paths)
    base = Path.cwd().resolve()
    work = [(str(path), display_path(path, base)) for path in discovered.files]
    jobs = processes(arguments.jobs)
    interrupted = False
    try:
        # Each file is written as soon as its fix is known, so the time in which an edit saved by the user could
        # race the write is one file's fix, not the whole run; _write refuses when the bytes changed even so.
        with termination_as_interrupt():
            for (path_text, display), (outcome, skip) in zip(work, _fix_files(work, settings, arguments.unsafe, jobs), strict=True):
                if skip is not None:
                    problems.append((display, skip[0], skip[1]))
                    continue
                if arguments.write and outcome.text != outcome.original:
                    path = Path(path_text)
                    refusal = guard.refusal(path) or _write(path, outcome.text, outcome.digest)
                    if refusal is not None:
                        problems.append((display, None, refusal))
                        outcome.changes.clear()
                        outcome.applied = 0
                outcomes.append(outcome)
    except KnowledgeBaseError as error:
        print_error(f"the knowledge base is broken: {error}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        # Ctrl-C or SIGTERM: every file in `outcomes` is complete (written, or left as it was); say which.
        interrupted = True
    if interrupted:
        _print_changes(outcomes, problems, arguments.write)
        written = [outcome.path for outcome in outcomes if arguments.write and outcome.changes]
        print(f"ascend-migrate: interrupted after {len(outcomes)} of {len(work)} files; "
              + (f"written: {', '.join(written)}" if written else "no file was written"), file=sys.stderr)
        return 130
    changed = [outcome for outcome in outcomes if outcome.text != outcome.original]
    if not arguments.write:
        _print_diff(changed)
    _print_changes(outcomes, problems, arguments.write)
    if arguments.report is not None:
        try:
            _write_report(arguments.report, outcomes, problems)
        except OSError as error:
            print_error(f"cannot write {arguments.report}: {error.strerror or error}")
            return EXIT_USAGE
    if problems or (changed and not arguments.write):
        return EXIT_CHANGES_OR_ERRORS
    return EXIT_CLEAN


def _fix_files(work: list[tuple[str, str]], settings, unsafe: bool, jobs: int) -> Iterator[tuple]:
    """(outcome, None) or (None, (line, reason)) per file, in order, each as soon as it and the files before it
    are fixed; in `jobs` processes for many files."""
    import functools

    from ascend_migrate.workspace import each_file, load_engine

    finished: dict[int, tuple] = {}
    next_index = 0
    for index, result in each_file(functools.partial(_fix_one, settings=settings, unsafe=unsafe), work, jobs, prepare=load_engine):
        finished[index] = result
        while next_index in finished:
            yield finished.pop(next_index)
            next_index += 1


def _fix_one(item: tuple[str, str], settings, unsafe: bool) -> tuple[_Outcome | None, tuple[int | None, str] | None]:
    path, display = item

    try:
        return _fix_file(Path(path), display, settings, unsafe), None
    except _Skip as skip:
        return None, (skip.line, skip.message)


class _Skip(Exception):
    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def _fix_file(path: Path, display: str, settings, unsafe: bool) -> _Outcome:
    from ascend_migrate.notebooks.document import is_notebook

    if is_notebook(display):
        return _fix_notebook(path, display, settings, unsafe)
    from ascend_migrate.analysis.after_edits import EditedTextAnalyser
    from ascend_migrate.files import decode_source, read_source_bytes
    from ascend_migrate.fixes import fix_until_stable
    from ascend_migrate.fixes.syntax import check

    try:
        data = read_source_bytes(path)
        original = decode_source(data)
    except (OSError, ValueError) as error:
        message = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise _Skip(f"cannot read: {message}") from None
    analyser = EditedTextAnalyser(display, settings)  # a later pass re-analyses only the lines a pass edited
    findings = analyser(original)
    if analyser.has_errors():  # only then the cost of a parse check of the whole text, for its exact message
        try:
            check(original)
        except SyntaxError as error:
            raise _Skip(f"syntax error: {error.msg}; the file is left as it is", error.lineno) from None
    fixed = fix_until_stable(original, analyser, unsafe, findings=findings, analyse_edited=analyser.after)
    return _Outcome(display, original, fixed.text, _sha256(data), fixed.applied, list(fixed.changes), list(fixed.skipped), fixed.edits())


def _fix_notebook(path: Path, display: str, settings, unsafe: bool) -> _Outcome:
    from ascend_migrate.notebooks.per_file import fix_notebook

    try:
        done = fix_notebook(path, display, settings, unsafe)
    except (OSError, ValueError) as error:
        message = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise _Skip(message if message.startswith("cell ") else f"cannot read: {message}") from None
    from ascend_migrate.fixes.until_stable import line_edits

    fixed = done.fixed
    # The fixing loop's edits are the program's; the diff is of the file: its runs of changed JSON lines.
    edits = line_edits(done.original, done.text) if done.text != done.original else []
    return _Outcome(display, done.original, done.text, _sha256(done.data), fixed.applied, list(fixed.changes),  # type: ignore[attr-defined]
                    list(fixed.skipped), edits, done.program)  # type: ignore[attr-defined]


class _WriteGuard:
    """Only files inside the given paths are written, never through a symlink that leads out of them."""

    def __init__(self, paths: list[Path]) -> None:
        self.directories = [path.resolve() for path in paths if path.is_dir()]
        self.files = {Path(path).absolute() for path in paths if not path.is_dir()}

    def refusal(self, path: Path) -> str | None:
        real = path.resolve()
        if path.absolute() in self.files and not path.is_symlink():
            return None
        if any(real == directory or directory in real.parents for directory in self.directories):
            return None
        return f"not written: it is a symlink to {real}, outside the given paths"


CHANGED_SINCE_READ = "not written: the file changed on disk while it was being fixed; run fix again"


def _sha256(data: bytes) -> bytes:
    import hashlib

    return hashlib.sha256(data).digest()


def _unchanged(path: Path, digest: bytes) -> bool:
    with open(path, "rb") as handle:
        return _sha256(handle.read()) == digest


def _write(path: Path, text: str, digest: bytes) -> str | None:
    """Write `text` over the file `path` points to, atomically, in the file's encoding, if its bytes still have
    the SHA-256 `digest` they had when read; a reason when not written."""
    from ascend_migrate.files import encode_like, write_atomically

    real = path.resolve()
    try:
        with open(real, "rb") as handle:
            current = handle.read()
        if _sha256(current) != digest:
            return CHANGED_SINCE_READ
        data = encode_like(text, current)
    except (OSError, SyntaxError, UnicodeEncodeError, LookupError) as error:
        return f"not written: {getattr(error, 'strerror', None) or error}"
    try:
        # still_current: checked again just before the rename, so an edit saved while the temporary file was
        # written wins. The file keeps its mode, owner, group and extended attributes; a read-only one is refused.
        written = write_atomically(real, data, still_current=lambda: _unchanged(real, digest), keep_identity=True)
    except OSError as error:
        return f"not written: {error.strerror or error}"
    if not written:
        return CHANGED_SINCE_READ
    return None


def _print_diff(outcomes: list[_Outcome]) -> None:
    from ascend_migrate.fixes.unified_diff import unified_diff

    for outcome in outcomes:
        relative = not outcome.path.startswith("/")
        from_file = f"a/{outcome.path}" if relative else outcome.path
        to_file = f"b/{outcome.path}" if relative else outcome.path
        sys.stdout.writelines(unified_diff(outcome.original, outcome.text, outcome.edits, from_file, to_file))
    sys.stdout.flush()


def _one_line(text: str) -> str:
    return " ⏎ ".join(part.strip() for part in text.splitlines() if part.strip()) or "(nothing)"


def _print_changes(outcomes: list[_Outcome], problems: list, written: bool) -> None:
    applied = files = unsafe_left = 0
    for outcome in outcomes:
        for change in outcome.changes:
            print(f"{outcome.location(change.line, not change.before)}: {change.code} {_one_line(change.before)} -> {_one_line(change.after)}", file=sys.stderr)
        applied += outcome.applied
        files += bool(outcome.changes)
        unsafe_left += sum(1 for skip in outcome.skipped if skip.reason.startswith("unsafe"))
        for skip in outcome.skipped:
            if not skip.reason.startswith(_QUIET_SKIPS):
                print(f"{outcome.location(skip.finding.line)}: {skip.finding.code} not fixed: {skip.reason}", file=sys.stderr)
    for path, line, message in problems:
        location = f"{path}:{line}" if line else path
        print(f"ascend-migrate: {location}: {message}", file=sys.stderr)
    verb = "applied" if written else "would apply"
    summary = f"{verb} {applied} fix{'es' if applied != 1 else ''} in {files} file{'s' if files != 1 else ''}"
    if unsafe_left:
        summary += f"; {unsafe_left} unsafe fix{'es' if unsafe_left != 1 else ''} left (apply with --unsafe)"
    if problems:
        summary += f"; {len(problems)} file{'s' if len(problems) != 1 else ''} skipped"
    print(summary, file=sys.stderr)


def _placed(row: dict, outcome: _Outcome) -> dict:
    """A change-list row of a notebook says its cell, and the line in that cell."""
    cell, row["line"] = outcome.place(row["line"], not row.get("before", "x"))
    return row | {"cell": cell} if cell is not None else row


def _write_report(output: Path, outcomes: list[_Outcome], problems: list) -> None:
    import csv
    import io
    import json

    from ascend_migrate.files import write_atomically
    from ascend_migrate.reports.csv_report import neutralise_formula

    rows = [
        _placed({"file": outcome.path, "line": change.line, "code": change.code, "title": change.title,
                 "before": change.before, "after": change.after}, outcome)
        for outcome in outcomes
        for change in outcome.changes
    ]
    if output.suffix.lower() == ".json":
        skipped = [
            _placed({"file": outcome.path, "line": skip.finding.line, "code": skip.finding.code, "reason": skip.reason}, outcome)
            for outcome in outcomes
            for skip in outcome.skipped
        ]
        errors = [{"file": path, "line": line, "message": message} for path, line, message in problems]
        text = json.dumps({"changes": rows, "skipped": skipped, "errors": errors}, indent=2, ensure_ascii=False) + "\n"
    else:
        buffer = io.StringIO()
        table = csv.DictWriter(buffer, fieldnames=["file", "line", "code", "title", "before", "after", "cell"], lineterminator="\n")
        table.writeheader()
        # File names and code may begin with = + - @: never let a spreadsheet run them (as scan's CSV does).
        table.writerows({key: neutralise_formula(value) for key, value in row.items()} for row in rows)
        text = buffer.getvalue()
    write_atomically(output, text.encode("utf-8"))
