"""A module's outline (fixes/outline.py) read in pieces gives the fixes exactly what one tree of it gives.

The pieces are made tiny here, so that every example program is cut into many, with cuts between any two
statements and inside multi-line ones (where the outline falls back to one tree). The fixed text, the change
list and the skipped fixes must be those of the outline read whole.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ascend_migrate.analysis.engine import analyze_file
from ascend_migrate.config import Settings
from ascend_migrate.fixes import fix_all, outline
from ascend_migrate.fixes.outline import ModuleOutline
from ascend_migrate.fixes.text import LineIndex
from ascend_migrate.fixes.work import counting

EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("*.py"))

# Imports far below the top (in a later piece), in a function, after `;`, a decorated first statement and a
# statement that spans a cut: what the outline must place and number right.
TRICKY = '''@staticmethod
def helper():
    import torch.cuda as tc
    return tc.is_available()

import os; import torch
x = torch.zeros(3).cuda()
y = (1,
     2)
from torch.cuda import amp
scaler = amp.GradScaler()
torch.cuda.synchronize()
'''


@pytest.mark.parametrize("example", [*EXAMPLES, None], ids=lambda path: path.name if path else "tricky")
@pytest.mark.parametrize("target", ["npu", "mindspore"])
def test_fixing_in_pieces_gives_what_fixing_from_one_tree_gives(example, target, monkeypatch):
    source = example.read_text(encoding="utf-8") if example else TRICKY
    findings = analyze_file(source, "program.py", Settings(target=target)).findings
    whole = fix_all(source, findings, unsafe=True)
    monkeypatch.setattr(outline, "PIECE_CHARACTERS", 40)
    with counting() as work:
        pieces = fix_all(source, findings, unsafe=True)
    assert work.module_parses == 0 or work.piece_parses > 0  # read in pieces (or fell back to one tree after a cut)
    assert (pieces.text, pieces.applied, pieces.changes, pieces.skipped) == (whole.text, whole.applied, whole.changes, whole.skipped)


def test_the_outline_in_pieces_numbers_statements_and_imports_as_one_tree_does(monkeypatch):
    source = TRICKY + "\n".join(f"v{number} = {number}" for number in range(200)) + "\nimport numpy as np\n"
    tree = ast.parse(source)
    monkeypatch.setattr(outline, "PIECE_CHARACTERS", 64)
    with counting() as work:
        read = ModuleOutline(source, LineIndex(source))
    assert work.piece_parses > 10 and work.module_parses == 0
    assert list(read.lines) == [statement.lineno for statement in tree.body]
    assert list(read.end_lines) == [statement.end_lineno for statement in tree.body]
    assert read.first_lines[0] == 1 and read.lines[0] == 2  # the decorator's line first
    assert [(site.node.lineno, site.bindings) for site in read.all_sites] == [
        (3, (("tc", "torch.cuda"),)),
        (6, (("os", "os"),)),
        (6, (("torch", "torch"),)),
        (10, (("amp", "torch.cuda.amp"),)),
        (213, (("np", "numpy"),)),
    ]
    assert [site.node.lineno for site in read.module_sites] == [6, 6, 10, 213]
    untouched = list(read.untouched_statements([(6, 7)]))
    # `import os; import torch` and `x = ...` share the edited lines; the rest, parsed again in runs, are the same trees
    assert [ast.dump(statement) for statement in untouched] == [ast.dump(statement) for statement in tree.body[:1] + tree.body[4:]]


def test_a_decorated_first_statement_gets_its_import_above_the_decorator():
    source = '@staticmethod\ndef f():\n    return 1\n\nx = torch_function()\n'
    index = LineIndex(source)
    from ascend_migrate.fixes.imports import add_import_edits

    (edit,) = add_import_edits(ModuleOutline(source, index), ["import torch"])
    assert (edit.line, edit.column) == (1, 1)  # not between the decorator and `def` (which would not parse)
