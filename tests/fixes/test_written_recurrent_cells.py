"""Recurrent cells in a program that computes in float64, MindSpore route (MS236, issue 17), text for text: a call
of torch's LSTMCell/GRUCell/RNNCell calls a cell written into the file (fixes/templates/recurrent_cells.py, one class
per cell, once per file, after the imports) where the file casts with `.double()` or names torch.float64; elsewhere
the table's rename to mindspore.nn's cell stands. An edit below the cell that adds or removes the cast changes the
answer in the editor's incremental analysis too. tests/execution/test_recurrent_cells.py runs the classes beside
torch's cells, and tests/execution/test_mindspore_route.py runs the fixed time_sequence_prediction."""

from __future__ import annotations

import ast
import textwrap

import pytest

from ascend_migrate.analysis.engine import analyze, analyze_module
from ascend_migrate.analysis.incremental import LineEdit, analyze_document
from ascend_migrate.config import Settings
from ascend_migrate.fixes import fix_until_stable
from ascend_migrate.fixes.templates import class_source

OPS_NN, MINT = "2.4", "2.10"

MODEL = textwrap.dedent("""
    import torch
    import torch.nn as nn


    class Decoder(nn.Module):
        def __init__(self, hidden):
            super().__init__()
            self.cell = nn.{cell}(1, hidden)
            self.head = nn.Linear(hidden, 1)

        def forward(self, steps):
            outputs = []
            state = None
            for step in steps.split(1, dim=1):
                state = self.cell(step, state)
                outputs.append(self.head(state[0] if isinstance(state, tuple) else state))
            return torch.cat(outputs, dim=1)


    model = Decoder(16){cast}
    series = torch.randn(4, 10{dtype})
    print(model(series).shape)
""")


def program(cell: str = "LSTMCell", float64: bool = True) -> str:
    return MODEL.format(cell=cell, cast=".double()" if float64 else "", dtype=", dtype=torch.float64" if float64 else "")


def settings(version: str = MINT) -> Settings:
    return Settings(target="mindspore", mindspore_version=version)


def fixed(source: str, version: str = MINT) -> str:
    return fix_until_stable(source, lambda text: analyze(text, "model.py", settings(version)), unsafe=True).text


@pytest.mark.parametrize("version", [OPS_NN, MINT])
@pytest.mark.parametrize("cell", ["LSTMCell", "GRUCell", "RNNCell"])
def test_a_float64_program_gets_the_written_cell(cell, version):
    found = [finding for finding in analyze(program(cell), "model.py", settings(version)) if finding.line == 9]
    assert [finding.code for finding in found] == ["MS236"]
    assert f"mindspore.nn.{cell} takes float32 and float16 input only" in found[0].message
    text = fixed(program(cell), version)
    assert f"self.cell = {cell}(1, hidden)" in text
    assert text.count(f"class {cell}(mindspore.nn.Cell):") == 1 and class_source("recurrent_cells", cell) in text
    assert text.index("import mindspore") < text.index(f"class {cell}(") < text.index("class Decoder(")
    assert not [node for node in ast.walk(ast.parse(text)) if isinstance(node, (ast.Import, ast.ImportFrom)) and "torch" in ast.unparse(node)]
    assert fixed(text, version) == text  # fixing again writes nothing more


@pytest.mark.parametrize("cell", ["LSTMCell", "GRUCell", "RNNCell"])
def test_a_float32_program_keeps_mindspores_cell(cell):
    found = [finding for finding in analyze(program(cell, float64=False), "model.py", settings()) if finding.line == 9]
    assert [finding.code for finding in found] == ["MS102"]
    text = fixed(program(cell, float64=False))
    assert f"self.cell = mindspore.nn.{cell}(1, hidden)" in text and "class " + cell not in text


def test_float64_only_in_a_comment_is_not_float64():
    source = program(float64=False).replace("model = Decoder(16)", "# model = Decoder(16).double() is too slow\nmodel = Decoder(16)")
    assert "MS236" not in {finding.code for finding in analyze(source, "model.py", settings())}


def test_the_class_named_but_not_built_keeps_the_tables_finding():
    source = program() + "\nprint(isinstance(model.cell, nn.LSTMCell))\n"
    codes = {finding.line: finding.code for finding in analyze(source, "model.py", settings())}
    assert codes[9] == "MS236" and codes[len(source.split("\n")) - 1] == "MS102"


def test_a_name_the_file_uses_gets_another_class_name():
    source = program().replace("import torch.nn as nn\n", "import torch.nn as nn\nfrom mylib import LSTMCell\n")
    text = fixed(source)
    assert "self.cell = WrittenLSTMCell(1, hidden)" in text and "class WrittenLSTMCell(mindspore.nn.Cell):" in text


@pytest.mark.parametrize("add", [True, False], ids=["cast-added", "cast-removed"])
def test_an_edit_below_the_cell_changes_its_finding_in_the_editor(add):
    # one line typed two statements below the class (an edit on a statement's first line re-walks the statement
    # above it too, so the class must not be that statement)
    float32 = program(float64=False).replace("model = Decoder(16)\n", "model = Decoder(16)\nmodel.train()\n")
    float64 = float32.replace("model.train()", "model.double()")
    before_text, after_text = (float32, float64) if add else (float64, float32)
    before = analyze_module(before_text, "model.py", settings())
    line = before_text.split("\n").index("model.train()" if add else "model.double()") + 1
    incremental = analyze_document(after_text, "model.py", settings(), before, LineEdit(line, line, line))
    full = analyze_module(after_text, "model.py", settings())
    key = [(finding.line, finding.code) for finding in full.findings]
    assert [(finding.line, finding.code) for finding in incremental.findings] == key
    assert ((9, "MS236") in key) is add
