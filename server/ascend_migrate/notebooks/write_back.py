"""Writing a fixed program back into the notebook: only the edited cells' `source` values change in the file.

Every other byte stays: outputs, metadata, key order, indentation, and within an edited `source` list every
line that did not change keeps its exact JSON text (its escapes included). Lines blanked as IPython syntax
come back as the cell held them.
"""

from __future__ import annotations

import json
from difflib import SequenceMatcher

from ascend_migrate.files import split_lines, split_lines_keeping_ends
from ascend_migrate.notebooks.document import Cell, Notebook, NotebookError, array_elements, parse_notebook
from ascend_migrate.notebooks.program import Program


def write_back(notebook: Notebook, program: Program, fixed: str) -> str:
    """The notebook's text with `fixed` (the program after fixes) in its cells; NotebookError when a change
    cannot be put into one cell (it spans two cells, or touches a line of IPython syntax)."""
    old, new = list(program.lines), split_lines(fixed)
    if new and new[-1] == "":
        new.pop()  # the line end the join adds after the last cell
    sources: dict[int, list[str]] = {cell: [] for cell in program.cells}
    touched: set[int] = set()
    for tag, old_start, old_end, new_start, new_end in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            for line in range(old_start + 1, old_end + 1):
                cell, _ = program.locate(line)
                sources[cell].append(program.original_lines[line - 1])
            continue
        cell = _cell_of_change(program, old_start, old_end)
        sources[cell].extend(new[new_start:new_end])
        touched.add(cell)
    return _replace_sources(notebook, {cell: "\n".join(sources[cell]) for cell in touched})


def _cell_of_change(program: Program, old_start: int, old_end: int) -> int:
    """The cell that receives a change of the program's lines old_start+1..old_end (0-based half-open)."""
    if old_start == old_end:  # an insertion before line old_start+1
        return program.place_insertion(old_start + 1)[0]
    first_cell, _ = program.locate(old_start + 1)
    last_cell, _ = program.locate(old_end)
    if first_cell != last_cell:
        raise NotebookError(f"a fix changes cells {first_cell} to {last_cell} at once; the notebook is left as it is")
    touched = set(range(old_start + 1, old_end + 1)) & program.blanked
    if touched:
        cell, line = program.locate(min(touched))
        raise NotebookError(f"a fix changes cell {cell}, line {line}, which is IPython syntax; the notebook is left as it is")
    return first_cell


def _replace_sources(notebook: Notebook, edited: dict[int, str]) -> str:
    text = notebook.text
    ensure_ascii = text.isascii() and "\\u" in text  # a file written with ASCII escapes keeps them
    pieces = []
    position = 0
    for cell in notebook.cells:
        if cell.number not in edited:
            continue
        start, end = cell.span
        pieces.append(text[position:start])
        pieces.append(_encoded_source(text, cell, edited[cell.number], ensure_ascii))
        position = end
    pieces.append(text[position:])
    result = "".join(pieces)
    parse_notebook(result)  # what is written must read back as a notebook (raises NotebookError otherwise)
    return result


def _encoded_source(text: str, cell: Cell, source: str, ensure_ascii: bool) -> str:
    if not cell.source_is_list:
        return json.dumps(source, ensure_ascii=ensure_ascii)
    start, end = cell.span
    raw_items = _raw_items(text, start)
    old_items = [json.loads(raw) for raw in raw_items]
    new_items = split_lines_keeping_ends(source)
    if new_items[-1] == "":
        new_items.pop()
    if not new_items:
        return "[]"
    encoded: list[str] = []
    for tag, old_start, old_end, new_start, new_end in SequenceMatcher(None, old_items, new_items, autojunk=False).get_opcodes():
        if tag == "equal":
            encoded.extend(raw_items[old_start:old_end])
        else:
            encoded.extend(json.dumps(item, ensure_ascii=ensure_ascii) for item in new_items[new_start:new_end])
    opening, separator, closing = _list_layout(text, start, end, raw_items)
    return "[" + opening + separator.join(encoded) + closing + "]"


def _raw_items(text: str, start: int) -> list[str]:
    return [text[item_start:item_end] for item_start, item_end in array_elements(text, start)]


def _list_layout(text: str, start: int, end: int, raw_items: list[str]) -> tuple[str, str, str]:
    """The whitespace after "[", between items (with the comma) and before "]" of the list at start..end; for
    an empty list, nbformat's layout one level deeper than the "source" key's line."""
    inner = text[start + 1:end - 1]
    if raw_items:
        first = inner.index(raw_items[0])
        opening = inner[:first]
        closing = inner[len(inner.rstrip()):]
        if len(raw_items) > 1:
            after_first = inner[first + len(raw_items[0]):]
            separator = after_first[: after_first.index(raw_items[1])]
        else:
            separator = "," + opening
        return opening, separator, closing
    line_start = text.rfind("\n", 0, start) + 1
    key_line = text[line_start:start]
    indent = key_line[: len(key_line) - len(key_line.lstrip())]
    return "\n" + indent + " ", ",\n" + indent + " ", "\n" + indent
