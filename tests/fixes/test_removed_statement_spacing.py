"""A statement a MindSpore fix deletes or moves leaves one gap where it stood, not the blank lines above and below it
together (fixes.text.blank_lines_to_join): the early device choice (fixes/families/early_device.py) and a statement
that only placed values on the device (rules/device_placement.py via rules/statement_removal.py). What the fixed code
computes is unchanged (blank lines only); tests/execution/test_device_placement.py and finetune run it."""

from __future__ import annotations

import ast
import textwrap

import pytest

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings
from ascend_migrate.fixes import fix_until_stable
from ascend_migrate.fixes.text import blank_lines_to_join


def fixed(source: str) -> str:
    settings = Settings(target="mindspore", mindspore_version="2.10")
    text = fix_until_stable(textwrap.dedent(source), lambda text: analyze(text, "train.py", settings), unsafe=True).text
    ast.parse(text)
    return text


def test_the_early_device_choice_leaves_one_gap_where_it_stood():
    text = fixed("""\
        import torch
        import torch.nn as nn

        data = torch.randn(8, 4)

        device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")

        model = nn.Linear(4, 2)
        print(model(data).shape, device)
    """)
    assert text == textwrap.dedent("""\
        import mindspore
        from mindspore import mint

        device = "Ascend" if mindspore.device_context.ascend.is_available() else "CPU"
        mindspore.set_device(device)

        data = mint.randn(8, 4)

        model = mint.nn.Linear(4, 2)
        print(model(data).shape, device)
    """)


def test_the_early_device_choice_keeps_the_two_blank_lines_before_a_definition():
    text = fixed("""\
        import torch

        data = torch.randn(8, 4)

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


        def show():
            print(data, device)
    """)
    assert "data = mint.randn(8, 4)\n\n\ndef show():\n" in text


def test_a_removed_placement_leaves_one_gap_at_module_level_and_in_a_function():
    text = fixed("""\
        import torch

        model = torch.nn.Linear(4, 2)

        model = model.to("cpu")

        print(model)


        def train(loader):
            for x, y in loader:
                print(x)

                x, y = x.to("cpu"), y.to("cpu")

                print(y)
    """)
    assert "model = mint.nn.Linear(4, 2)\n\nprint(model)\n\n\ndef train(loader):\n" in text
    assert "        print(x)\n\n        print(y)\n" in text


def test_a_removed_placement_between_code_lines_takes_no_blank_line_with_it():
    text = fixed("""\
        import torch

        model = torch.nn.Linear(4, 2)
        model = model.to("cpu")

        print(model)
    """)
    assert "model = mint.nn.Linear(4, 2)\n\nprint(model)\n" in text


@pytest.mark.parametrize(("lines", "statement", "joined"), [
    (["a", "", "s", "", "b"], (3, 3), 1),          # blank above and below: one of them goes
    (["a", "", "s", "", "", "def f():"], (3, 3), 1),  # one above, two below: the wider gap stays
    (["a", "", "", "s", "", "b"], (4, 4), 1),       # two above, one below
    (["a", "s", "", "b"], (2, 2), 0),              # none above: the gap below stays
    (["s", "", "b"], (1, 1), 1),                   # at the top of the text: no blank line left to start it
    (["a", "", "s", "t", "", "b"], (3, 4), 1),      # a statement of two lines
])
def test_blank_lines_to_join(lines, statement, joined):
    assert blank_lines_to_join(lambda number: lines[number - 1], *statement, len(lines)) == joined
