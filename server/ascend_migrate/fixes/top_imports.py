"""Import statements added at the top of a file (after its docstring and `from __future__` imports): the
automatic-migration imports of the editor's quick fix and of `migrate --auto`."""

from __future__ import annotations

import ast
import warnings
from collections.abc import Sequence

from ascend_migrate.analysis.findings import TextEdit
from ascend_migrate.files import line_content
from ascend_migrate.files import split_lines_keeping_ends as split_lines

# torch_npu's automatic migration: importing transfer_to_npu remaps CUDA to the NPU at run time.
AUTOMATIC_MIGRATION_IMPORTS = ("import torch_npu", "from torch_npu.contrib import transfer_to_npu")


def top_insertion_line(source: str) -> int:
    """The 1-based line before which new top-of-file imports go: after the docstring and __future__ imports."""
    lines = split_lines(source)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            module = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        module = None
    after = 0
    if module is not None:
        for index, statement in enumerate(module.body):
            is_docstring = index == 0 and isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) and isinstance(statement.value.value, str)
            is_future = isinstance(statement, ast.ImportFrom) and statement.module == "__future__"
            if not (is_docstring or is_future):
                break
            after = statement.end_lineno or statement.lineno
    if after == 0:
        # Keep a shebang, an encoding cookie and a licence header above the imports.
        while after < len(lines) and line_content(lines[after]).startswith("#"):
            after += 1
    return after + 1


def add_imports_edit(source: str, statements: Sequence[str]) -> TextEdit | None:
    """An edit adding the import statements that `source` does not already have, at the top of the file."""
    present = {line_content(line).strip() for line in split_lines(source)}
    missing = [statement for statement in statements if statement not in present]
    if not missing:
        return None
    lines = split_lines(source)
    line = top_insertion_line(source)
    newline = _newline(lines)
    text = "".join(statement + newline for statement in missing)
    if line > len(lines) or (line == len(lines) and lines[-1] == ""):
        # After the last line: make sure that line ends first.
        last = len(lines)
        prefix = newline if line_content(lines[-1]) == lines[-1] and lines[-1] else ""
        return TextEdit(last, len(lines[-1]) + 1, last, len(lines[-1]) + 1, prefix + text)
    return TextEdit(line, 1, line, 1, text)


def _newline(lines: Sequence[str]) -> str:
    for line in lines:
        if line.endswith("\r\n"):
            return "\r\n"
        if line.endswith("\r"):
            return "\r"
        if line.endswith("\n"):
            return "\n"
    return "\n"
