"""A large module is parsed and walked piece by piece; its findings are those of one syntax tree, in less memory.

The size thresholds are lowered here so that ordinary scripts take the piecewise path; the analysis of the
real knowledge base on the example scripts, for both routes, must not change by a single finding.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from ascend_migrate.analysis import engine
from ascend_migrate.analysis.chunks import plan_pieces
from ascend_migrate.files import split_lines
from ascend_migrate.config import Settings

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.py"))


@pytest.fixture
def small_pieces(monkeypatch):
    monkeypatch.setattr(engine, "LARGE_MODULE_CHARACTERS", 1_000)
    monkeypatch.setattr(engine, "PIECE_CHARACTERS", 1_500)


def whole_and_pieces(monkeypatch, source: str, target: str):
    settings = Settings(target=target)
    monkeypatch.setattr(engine, "LARGE_MODULE_CHARACTERS", 10**12)
    whole = engine.analyze_module(source, "module.py", settings)
    monkeypatch.setattr(engine, "LARGE_MODULE_CHARACTERS", 1_000)
    monkeypatch.setattr(engine, "PIECE_CHARACTERS", 400)
    pieces = engine.analyze_module(source, "module.py", settings)
    return whole, pieces


@pytest.mark.parametrize("target", ["npu", "mindspore"])
@pytest.mark.parametrize("example", EXAMPLES, ids=[path.stem for path in EXAMPLES])
def test_the_examples_in_pieces_give_the_findings_of_one_tree(monkeypatch, example, target):
    source = example.read_text(encoding="utf-8")
    assert len(plan_pieces(split_lines(source), 400)) >= 3  # the piecewise path is really taken
    whole, pieces = whole_and_pieces(monkeypatch, source, target)
    assert pieces.findings == whole.findings and (whole.findings or example.stem == "keras_classifier")
    assert [(chunk.start, chunk.end, chunk.bindings, chunk.written, chunk.referenced) for chunk in pieces.chunks] == [
        (chunk.start, chunk.end, chunk.bindings, chunk.written, chunk.referenced) for chunk in whole.chunks
    ]
    # The classes the incremental analysis replays: the pre-pass's own objects, with what the walk learned.
    assert {name: (info.bases, info.attributes) for name, info in pieces.classes.items()} == {
        name: (info.bases, info.attributes) for name, info in whole.classes.items()
    }
    assert pieces.errors == whole.errors == []


def test_names_bound_late_and_classes_used_early_resolve_as_in_one_tree(monkeypatch):
    """A function reads a class and an import defined pieces later; a module-level name is rebound."""
    filler = "".join(f"def helper_{index}(value):\n    return value + {index}\n\n\n" for index in range(60))
    source = (
        "def build():\n    model = Net()\n    model.cuda()\n    return torch.cuda.device_count()\n\n\n"
        + filler
        + "import torch\nimport torch.nn as nn\n\n\nclass Net(nn.Module):\n    def forward(self, x):\n        return x.cuda()\n\n\n"
        + filler.replace("helper_", "more_")
        + "device = 'cuda'\nnet = Net().cuda()\n"
    )
    whole, pieces = whole_and_pieces(monkeypatch, source, "npu")
    assert pieces.findings == whole.findings
    assert {finding.api for finding in whole.findings} >= {"torch.cuda.device_count", "torch.nn.Module.cuda"}


def test_a_cut_inside_a_string_falls_back_to_one_tree(monkeypatch):
    prose = "\n".join(f"line {index} of a long text at column 0" for index in range(200))
    # a script (a top-level loop): `import torch` there needs `import torch_npu` too (NPU106 on line 1)
    source = f'import torch\n\nTEXT = """\n{prose}\n"""\n\nfor _ in range(2):\n    torch.cuda.synchronize()\n'
    whole, pieces = whole_and_pieces(monkeypatch, source, "npu")
    assert pieces.findings == whole.findings and [finding.line for finding in whole.findings] == [1, source.count("\n")]


def test_a_syntax_error_falls_back_to_the_recovering_parse(monkeypatch):
    filler = "".join(f"def helper_{index}():\n    return torch.cuda.current_device()\n\n\n" for index in range(40))
    source = ("import torch\n\n" + filler + "def broken(:\n    pass\n\n\n" + filler.replace("helper_", "more_")
              + 'if __name__ == "__main__":\n    helper_0()\n')
    whole, pieces = whole_and_pieces(monkeypatch, source, "npu")
    # 80 calls and `import torch` (torch_npu: the guard in the last piece makes the module a program)
    assert pieces.findings == whole.findings and len(whole.findings) == 81
    assert pieces.errors == whole.errors and whole.errors[0].line == 163


def test_pieces_cover_every_line_once_and_cut_only_at_column_0():
    lines = split_lines(EXAMPLES[0].read_text(encoding="utf-8"))
    pieces = plan_pieces(lines, 1_000)
    assert pieces[0][0] == 0 and pieces[-1][1] == len(lines)
    assert all(end == next_begin for (_, end), (next_begin, _) in zip(pieces, pieces[1:]))
    assert all(lines[begin][:1] not in ("", " ", "\t", "#") for begin, _ in pieces[1:])
    assert plan_pieces(lines, 10**9) == [(0, len(lines))]


def test_the_largest_tree_alive_is_a_piece_not_the_module(monkeypatch):
    source = "import torch\n\n" + "".join(
        f"def layer_{index}(x):\n    torch.cuda.synchronize()\n    return x * {index}\n\n\n" for index in range(2_000)
    ) + "for index in range(3):\n    layer_0(index)\n"
    settings = Settings(target="npu")

    def peak(large: int) -> tuple[int, int]:
        monkeypatch.setattr(engine, "LARGE_MODULE_CHARACTERS", large)
        monkeypatch.setattr(engine, "PIECE_CHARACTERS", 6_000)
        tracemalloc.start()
        try:
            findings = len(engine.analyze_module(source, "generated.py", settings).findings)
            return tracemalloc.get_traced_memory()[1], findings
        finally:
            tracemalloc.stop()

    one_tree, findings_whole = peak(10**12)
    in_pieces, findings_pieces = peak(30_000)
    assert findings_pieces == findings_whole == 2_001  # and `import torch` (torch_npu: a script, with its loop)
    assert in_pieces * 3 < one_tree, (in_pieces, one_tree)
