"""A program's module-level function whose every call passes a tensor gets that parameter typed (analysis/call_sites.py),
conservatively; shown through MS230 (a format spec applied to a tensor), and an edit of a call gives what a full
analysis gives (issue 17, regression's poly_desc)."""

from __future__ import annotations

import textwrap

import pytest
from tests.analysis.conftest import assert_every_edit_matches_a_full_analysis

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings

SETTINGS = Settings(target="mindspore")

DESCRIBE = textwrap.dedent("""
    import torch


    def describe(W, b):
        result = ''
        for i, w in enumerate(W):
            result += '{:+.2f} x^{} '.format(w, i + 1)
        return result + '{:+.2f}'.format(b[0])


    fc = torch.nn.Linear(4, 1)
    W_target = torch.randn(4, 1)
""")
CALLS = "print(describe(fc.weight.view(-1), fc.bias))\nprint(describe(W_target.view(-1), torch.randn(1)))\n"


def format_lines(source: str) -> list[int]:
    return [finding.line for finding in analyze(source, "main.py", SETTINGS) if finding.code == "MS230"]


def test_a_parameter_every_call_passes_a_tensor_is_a_tensor():
    findings = [f for f in analyze(DESCRIBE + CALLS, "main.py", SETTINGS) if f.code == "MS230"]
    assert [(f.line, f.fix.edits[0].new_text) for f in findings] == [(8, "w.item()"), (9, "b[0].item()")]


@pytest.mark.parametrize("calls", [
    "print(describe(fc.weight.view(-1), fc.bias))\nprint(describe([0.5], [1.0]))\n",  # one call passes lists
    "print(describe(*pair))\n",  # which parameter gets what is not known
    "print(describe(fc.weight.view(-1), fc.bias))\nformatters = [describe]\n",  # used other than by a call
    "print(describe(fc.weight.view(-1), fc.bias))\ndef describe(W, b):\n    return '{:.2f}'.format(W)\n",  # defined twice
    "",  # never called
])
def test_no_parameter_type_unless_every_call_is_seen_and_passes_tensors(calls):
    assert format_lines(DESCRIBE + calls) == []


def test_a_library_module_gives_no_parameter_types():
    library = DESCRIBE + "describe_all = None\nresult = describe(W_target.view(-1), torch.randn(1))\n"  # no program statement
    assert format_lines(library) == []
    assert format_lines(library + "print(result)\n") == [8, 9]  # a top-level call statement: a program


CALL_EDITS = ["print(describe([0.5], [1.0]))", "print(describe(W_target.view(-1), torch.randn(1)))", "describe = None", "",
              "def describe(W):\n    return W"]


def test_every_edit_of_a_call_or_the_function_matches_a_full_analysis():
    source = DESCRIBE + "\n" + CALLS
    assert [f.line for f in analyze(source, "main.py", SETTINGS) if f.code == "MS230"] == [8, 9]
    assert_every_edit_matches_a_full_analysis(source, CALL_EDITS, "main.py", SETTINGS)


def test_a_loop_over_a_modules_parameters_sees_parameters_not_tensors():
    # self.parameters() is a collection: its elements are Parameters, whose requires_grad MindSpore has too, while a
    # loop over a tensor's rows sees tensors (the format spec is reported there)
    source = textwrap.dedent("""
        import torch
        from torch import nn


        class Tower(nn.Module):
            def lock(self):
                for param in self.parameters():
                    param.requires_grad = False
                for name, buffer in self.named_buffers():
                    print('{}: {:.2f}'.format(name, buffer.sum().item()))

            def show(self, x):
                for row in self(x):
                    print('{:.2f}'.format(row))
    """)
    findings = analyze(source, "model.py", SETTINGS)
    assert [f.line for f in findings if f.api == "torch.Tensor.requires_grad"] == []
    assert [f.line for f in findings if f.code == "MS230"] == [15]


def test_a_layers_weight_is_a_parameter_whose_requires_grad_mindspore_has():
    source = textwrap.dedent("""
        import torch
        from torch import nn


        class Frozen(nn.Module):
            def __init__(self):
                super().__init__()
                self.norm = nn.LayerNorm(4)
                self.model = self.load()
                self.norm.bias.requires_grad = False
                for param in self.model.parameters():
                    param.requires_grad = False
                self.scale = torch.ones(4)
                self.scale.requires_grad = True
    """)
    findings = analyze(source, "model.py", SETTINGS)
    assert [f.line for f in findings if f.api == "torch.Tensor.requires_grad"] == [15]  # the plain tensor only
