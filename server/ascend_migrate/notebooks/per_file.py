"""The per-file entry points for notebooks: analyse one (scan, the editor's workspace scan) and fix one (fix,
migrate). Findings come out in the cells' own lines with their cell number; fixes go back into the cells.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from ascend_migrate.analysis.findings import FileError, FileResult, Finding
from ascend_migrate.config import Settings
from ascend_migrate.files import read_source_bytes
from ascend_migrate.notebooks.document import Notebook, NotebookError, parse_notebook
from ascend_migrate.notebooks.program import Program, build_program


def read_notebook(path: Path) -> tuple[bytes, Notebook]:
    """The file's bytes and its notebook; OSError, or ValueError (NotebookError) saying what is wrong."""
    data = read_source_bytes(path)
    try:
        text = data.decode("utf-8-sig")  # nbformat files are UTF-8 (JSON's encoding)
    except UnicodeDecodeError as error:
        raise NotebookError(f"not UTF-8 text: {error.reason} at byte {error.start}") from None
    return data, parse_notebook(text)


def unsupported_language(notebook: Notebook) -> str | None:
    """Why the notebook's code is not analysed (its kernel runs another language), or None."""
    if notebook.language.lower() in ("python", "python3", "ipython", "ipython3"):
        return None
    return f"a {notebook.language} notebook (not Python): not analysed"


def in_cells(findings: list[Finding], program: Program) -> list[Finding]:
    """The program's findings moved into their cells: `line` and `end_line` in the cell, `cell` set. A fix's
    edits move with them, so an editor can apply them to the cell's own text."""
    moved = []
    for finding in findings:
        cell, _ = program.locate(finding.line)
        first, last = program.cell_range(cell)
        if finding.end_line > last:  # only a program with a syntax error reaches past its cell: keep it inside
            finding = replace(finding, end_line=last, end_column=len(program.lines[last - 1]) + 1)
        moved.append(replace(finding.shifted(1 - first), cell=cell))
    return moved


def errors_in_cells(errors: list[FileError], program: Program) -> list[FileError]:
    """Errors with a program line said as cell and line (a FileError has only a line: the cell goes in the message)."""
    placed = []
    for error in errors:
        if error.line:
            cell, line = program.locate(error.line)
            error = FileError(error.path, f"cell {cell}, line {line}: {error.message}")
        placed.append(error)
    return placed


def analyze_notebook(path: Path, display: str, settings: Settings) -> FileResult:
    """A notebook's findings (in cells) and errors; a notebook that cannot be read is an error, never clean."""
    from ascend_migrate.analysis.engine import analyze_file

    try:
        _, notebook = read_notebook(path)
    except (OSError, ValueError) as error:
        message = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        return FileResult(display, errors=[FileError(display, f"cannot read: {message}")])
    reason = unsupported_language(notebook)
    if reason is not None:
        return FileResult(display, errors=[FileError(display, reason)])
    program = build_program(notebook)
    result = analyze_file(program.text, display, settings)
    return FileResult(display, in_cells(result.findings, program), errors_in_cells(result.errors, program))


@dataclass
class NotebookFix:
    """What fixing one notebook did: its text before and after, and the fixing loop's result (its lines in the
    program: `program.locate` says which cell)."""

    original: str
    text: str
    data: bytes
    program: Program
    fixed: object  # fixes.until_stable.StableFix


def fix_notebook(path: Path, display: str, settings: Settings, unsafe: bool) -> NotebookFix:
    """The notebook fixed until stable; ValueError (with cell and line) when it cannot be, OSError when unreadable."""
    from ascend_migrate.analysis.after_edits import EditedTextAnalyser
    from ascend_migrate.fixes import fix_until_stable
    from ascend_migrate.fixes.syntax import check
    from ascend_migrate.notebooks.write_back import write_back

    data, notebook = read_notebook(path)
    reason = unsupported_language(notebook)
    if reason is not None:
        raise NotebookError(reason)
    program = build_program(notebook)
    try:
        check(program.text)
    except SyntaxError as error:
        cell, line = program.locate(error.lineno or 1)
        raise NotebookError(f"cell {cell}, line {line}: syntax error: {error.msg}; the notebook is left as it is") from None
    analyser = EditedTextAnalyser(display, settings)
    fixed = fix_until_stable(program.text, analyser, unsafe, analyse_edited=analyser.after)
    text = write_back(notebook, program, fixed.text) if fixed.changed else notebook.text
    return NotebookFix(notebook.text, text, data, program, fixed)
