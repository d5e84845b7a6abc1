"""Reading a notebook's JSON (nbformat 4): its cells, and where each cell's `source` sits in the file's text.

The spans let a fix replace exactly the edited `source` values and leave every other byte of the file (outputs,
metadata, key order, indentation) as it was.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

SUFFIX = ".ipynb"
_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


class NotebookError(ValueError):
    """The file is not a notebook this tool can read; the message says what and where."""


@dataclass(frozen=True, slots=True)
class Cell:
    number: int  # 1-based, counting every cell (markdown too), as the cell's place in the notebook
    kind: str  # "code", "markdown", "raw"
    source: str
    span: tuple[int, int]  # the `source` value's characters in the file's text
    source_is_list: bool  # nbformat writes a list of lines; a single string is valid too


@dataclass(frozen=True, slots=True)
class Notebook:
    text: str  # the file's text, as read
    cells: tuple[Cell, ...]
    language: str  # the kernel's language ("python" when the notebook does not say)

    @property
    def code_cells(self) -> list[Cell]:
        return [cell for cell in self.cells if cell.kind == "code"]


def is_notebook(path: str) -> bool:
    return path.lower().endswith(SUFFIX)


def parse_notebook(text: str) -> Notebook:
    """The notebook in `text`, or NotebookError saying what is wrong (with the JSON's line and column)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise NotebookError(f"not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}") from None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise NotebookError("not a Jupyter notebook: no list of \"cells\" at the top level")
    version = data.get("nbformat")
    if version != 4:
        raise NotebookError(f"nbformat {version} is not supported (only nbformat 4; `jupyter nbconvert --to notebook` upgrades it)")
    spans = _source_spans(text)
    cells = []
    for index, cell in enumerate(data["cells"]):
        where = f"cell {index + 1}"
        if not isinstance(cell, dict) or not isinstance(cell.get("cell_type"), str):
            raise NotebookError(f"{where}: not a cell (an object with a \"cell_type\")")
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            joined = "".join(source)
        elif isinstance(source, str):
            joined = source
        else:
            raise NotebookError(f"{where}: \"source\" is neither a string nor a list of strings")
        if index not in spans:
            raise NotebookError(f"{where}: has no \"source\" (nbformat 4 requires one)")
        cells.append(Cell(index + 1, cell["cell_type"], joined, spans[index], isinstance(source, list)))
    return Notebook(text, tuple(cells), _language(data.get("metadata")))


def _language(metadata: object) -> str:
    if not isinstance(metadata, dict):
        return "python"
    for key, field in (("kernelspec", "language"), ("language_info", "name")):
        value = metadata.get(key)
        if isinstance(value, dict) and isinstance(value.get(field), str):
            return value[field]
    return "python"


def _source_spans(text: str) -> dict[int, tuple[int, int]]:
    """Cell index → the span of its "source" value. `text` is valid JSON (json.loads read it first); only the
    top-level object, the "cells" array and each cell object are walked, every other value is skipped whole.
    A repeated key counts last, as json.loads reads it."""
    spans: dict[int, tuple[int, int]] = {}
    for key, start, _ in _members(text, _skip_space(text, 0)):
        if key != "cells" or text[start] != "[":
            continue
        spans = {}
        for index, (cell_start, _) in enumerate(array_elements(text, start)):
            if text[cell_start] == "{":
                for cell_key, value_start, value_end in _members(text, cell_start):
                    if cell_key == "source":
                        spans[index] = (value_start, value_end)
    return spans


def _skip_space(text: str, position: int) -> int:
    match = _SPACE.match(text, position)
    return match.end() if match else position


def _members(text: str, position: int):
    """(key, value start, value end) of the object starting at `position`."""
    position = _skip_space(text, position + 1)
    while text[position] != "}":
        key, position = _DECODER.raw_decode(text, position)
        position = _skip_space(text, _skip_space(text, position) + 1)  # past the ":"
        _, end = _DECODER.raw_decode(text, position)
        yield key, position, end
        position = _skip_space(text, end)
        if text[position] == ",":
            position = _skip_space(text, position + 1)


def array_elements(text: str, position: int):
    """(start, end) of each value of the array starting at `position`."""
    position = _skip_space(text, position + 1)
    while text[position] != "]":
        _, end = _DECODER.raw_decode(text, position)
        yield position, end
        position = _skip_space(text, end)
        if text[position] == ",":
            position = _skip_space(text, position + 1)
