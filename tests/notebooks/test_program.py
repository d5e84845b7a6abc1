"""A notebook's code cells as one program: the order, IPython syntax blanked, and positions as cell and line."""

from __future__ import annotations

import json
from pathlib import Path

from ascend_migrate.config import Settings
from ascend_migrate.notebooks.document import parse_notebook
from ascend_migrate.notebooks.per_file import analyze_notebook
from ascend_migrate.notebooks.program import build_program

FIXTURE = Path(__file__).parent / "fixtures" / "cuda_training.ipynb"


def notebook_text(*cells: tuple[str, str]) -> str:
    return json.dumps({
        "cells": [{"cell_type": kind, "metadata": {}, "source": source}
                  | ({"outputs": [], "execution_count": None} if kind == "code" else {}) for kind, source in cells],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5,
    }, indent=1)


def test_an_import_in_cell_1_counts_in_cell_5(tmp_path):
    cells = [("code", "import torch\n"), ("markdown", "text"), ("code", "x = 1"), ("code", "y = 2"),
             ("code", "z = 3\ntorch.cuda.synchronize()")]
    (tmp_path / "joined.ipynb").write_text(notebook_text(*cells))
    found = analyze_notebook(tmp_path / "joined.ipynb", "joined.ipynb", Settings(target="npu")).findings
    assert [(finding.cell, finding.line, finding.column, finding.code) for finding in found if finding.code == "NPU101"] == [(5, 2, 1, "NPU101")]
    # Cell 5 on its own does not know `torch`: the finding above exists only because the cells are one program.
    (tmp_path / "alone.ipynb").write_text(notebook_text(cells[4]))
    alone = analyze_notebook(tmp_path / "alone.ipynb", "alone.ipynb", Settings(target="npu")).findings
    assert [finding.code for finding in alone if finding.code == "NPU101"] == []


def test_ipython_syntax_is_blanked_and_every_other_line_stays_where_it_is():
    notebook = parse_notebook(FIXTURE.read_text(encoding="utf-8"))
    program = build_program(notebook)
    by_cell = {}
    for line_number, line in enumerate(program.lines, start=1):
        cell, line_in_cell = program.locate(line_number)
        by_cell.setdefault(cell, []).append(line)
        assert program.original_lines[line_number - 1] == notebook.cells[cell - 1].source.split("\n")[line_in_cell - 1]
    assert by_cell[2][0] == ""  # %matplotlib inline
    assert by_cell[3] == ["", "print(torch.__version__)"]  # !nvidia-smi
    assert by_cell[4] == ["", "", ""]  # %%bash: the whole cell is shell
    assert by_cell[6][0] == "" and by_cell[6][1] == "for step in range(3):"  # %%time: its body is Python
    assert by_cell[6][5] == "    pass"  # an indented %time keeps its block valid
    assert by_cell[6][-1] == ""  # torch.cuda.empty_cache? (help)
    assert 1 not in program.cells and 4 in program.cells  # markdown cells are not code; their numbers still count
    compile(program.text, "program", "exec")


def test_findings_are_in_cell_lines_and_none_comes_from_ipython_syntax():
    found = analyze_notebook(FIXTURE, "cuda_training.ipynb", Settings(target="npu")).findings
    located = [(finding.cell, finding.line, finding.column, finding.code) for finding in found]
    assert located == [(2, 2, 8, "NPU106"), (5, 1, 24, "NPU102"), (5, 13, 15, "NPU105"), (6, 7, 5, "NPU101")]
    source = parse_notebook(FIXTURE.read_text(encoding="utf-8")).cells[5].source.split("\n")
    assert source[6][4:26] == "torch.cuda.synchronize"  # the positions point into the cell's own text
    # the %time line (cell 6, line 6) and the %%bash cell hold torch.cuda too, and give nothing


def test_insertions_at_a_cell_start_end_the_cell_before():
    program = build_program(parse_notebook(notebook_text(("code", "import torch"), ("code", "x = 1\ny = 2"))))
    assert program.place_insertion(2) == (1, 2)  # before cell 2's first line: after cell 1's last
    assert program.place_insertion(3) == (2, 2)
    assert program.place_insertion(4) == (2, 3)  # after the last line
    assert program.place_insertion(1) == (1, 1)


def test_write_back_refuses_a_change_across_cells_or_on_an_ipython_line():
    import pytest

    from ascend_migrate.notebooks.document import NotebookError
    from ascend_migrate.notebooks.write_back import write_back

    notebook = parse_notebook(notebook_text(("code", "!nvidia-smi\nx = 1"), ("code", "y = 2")))
    program = build_program(notebook)
    assert program.text == "\nx = 1\ny = 2\n"
    with pytest.raises(NotebookError, match="a fix changes cells 1 to 2 at once"):
        write_back(notebook, program, "\nx = 10\ny = 20\n")
    with pytest.raises(NotebookError, match="cell 1, line 1, which is IPython syntax"):
        write_back(notebook, program, "import os\nx = 1\ny = 2\n")
    written = write_back(notebook, program, "\nx = 1\ny = 3\n")
    assert [cell.source for cell in parse_notebook(written).cells] == ["!nvidia-smi\nx = 1", "y = 3"]
