"""A notebook's code cells as one Python program, and the map between its lines and (cell, cell line).

Jupyter runs the cells in order in one namespace, so an import in cell 1 counts in cell 5: the cells are
joined in their order into one program. IPython's own syntax (line magics `%x`, cell magics `%%x`, shell
lines `!x`, help `x?`) is not Python: those lines are blanked (an indented one becomes `pass`, so its block
still parses), keeping every other line where it is, so a position needs only a line offset per cell.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass

from ascend_migrate.files import split_lines
from ascend_migrate.notebooks.document import Notebook

# Cell magics whose body is Python run as it is; any other cell magic (%%bash, %%html, %%writefile) blanks its cell.
PYTHON_BODY_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug"})
_MAGIC = re.compile(r"\s*[%!]")  # %magic, %%magic, !shell
_ASSIGNED_MAGIC = re.compile(r"\s*[A-Za-z_][\w.]*(\s*,\s*[A-Za-z_][\w.]*)*\s*=\s*[%!]")  # files = !ls, t = %time f()
_HELP = re.compile(r"\s*(\?\??[A-Za-z_][\w.]*(\(\))?|[A-Za-z_][\w.\[\]]*(\(\))?\?\??)\s*$")  # ?torch, torch.cuda??


@dataclass(frozen=True, slots=True)
class Program:
    """The joined code cells. Program lines are 1-based like the engine's; cell numbers count every cell."""

    text: str
    lines: tuple[str, ...]  # the program's lines (magics blanked)
    original_lines: tuple[str, ...]  # the same lines as the cells hold them (magics kept)
    starts: tuple[int, ...]  # the program line each code cell starts at, in order
    cells: tuple[int, ...]  # the cell number of each code cell, in the same order
    blanked: frozenset[int]  # program lines that hold IPython syntax, not Python

    def locate(self, line: int) -> tuple[int, int]:
        """(cell number, 1-based line in that cell) of a program line."""
        index = max(0, bisect_right(self.starts, line) - 1)
        return self.cells[index], line - self.starts[index] + 1

    def place_insertion(self, line: int) -> tuple[int, int]:
        """(cell, line in it) that lines inserted before program line `line` go to: the cell holding that line,
        except at a cell's first line, where they end the cell before (an added import joins the imports above)."""
        if line <= len(self.lines) and line not in self.starts[1:]:
            return self.locate(line)
        cell, last = self.locate(min(line, len(self.lines) + 1) - 1)
        return cell, last + 1

    def cell_range(self, cell: int) -> tuple[int, int]:
        """The first and last program line of a code cell."""
        index = self.cells.index(cell)
        end = self.starts[index + 1] - 1 if index + 1 < len(self.starts) else len(self.lines)
        return self.starts[index], end

    def start_of(self, cell: int) -> int:
        return self.starts[self.cells.index(cell)]


def build_program(notebook: Notebook) -> Program:
    return program_of_cells((cell.number, cell.source) for cell in notebook.code_cells)


def program_of_cells(code_cells: Iterable[tuple[int, str]]) -> Program:
    """The program of (cell number, source) pairs, in order: a notebook file's, or an editor's open notebook."""
    lines: list[str] = []
    original: list[str] = []
    starts: list[int] = []
    cells: list[int] = []
    blanked: set[int] = set()
    for number, source in code_cells:
        starts.append(len(lines) + 1)
        cells.append(number)
        cell_lines = split_lines(source)
        for index, python in enumerate(_blank_magics(cell_lines)):
            if python is None:
                blanked.add(len(lines) + 1)
                line = cell_lines[index]
                indent = line[: len(line) - len(line.lstrip())]
                python = indent + "pass" if indent else ""
            lines.append(python)
            original.append(cell_lines[index])
    return Program("\n".join(lines) + "\n", tuple(lines), tuple(original), tuple(starts), tuple(cells), frozenset(blanked))


def _blank_magics(lines: list[str]) -> list[str | None]:
    """Each line as Python, or None where it is IPython syntax."""
    first = lines[0].lstrip() if lines else ""
    if first.startswith("%%"):
        name = first[2:].split(None, 1)[0] if first[2:].strip() else ""
        if name not in PYTHON_BODY_CELL_MAGICS:
            return [None] * len(lines)
        result: list[str | None] = [None, *lines[1:]]
    else:
        result = list(lines)
    continued = False
    for index, line in enumerate(result):
        if line is None:
            continue
        if continued or _MAGIC.match(line) or _ASSIGNED_MAGIC.match(line) or _HELP.match(line):
            continued = line.rstrip().endswith("\\")  # a magic continued on the next line with a backslash
            result[index] = None
    return result
