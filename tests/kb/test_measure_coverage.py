"""tools/measure_coverage.py: torch references counted from imports, answered as kb stats answers them."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # tools/ is not part of the installed package
from tools.measure_coverage import count_references, measure  # noqa: E402

PROGRAM = '''\
import torch
import torch.nn as nn
from torch.nn import functional as F
from torch.optim import SGD


def step(model, x: torch.Tensor):
    from torch.utils.data import DataLoader
    y = F.relu(model(x)).sum()
    loader = DataLoader([x])
    optimizer = SGD(model.parameters(), lr=0.1)
    return nn.Linear(2, 2), torch.nn.functional.relu(y), x.sum(), torch.float32, loader, optimizer
'''


def test_uses_are_counted_under_their_qualified_names_once_per_use() -> None:
    assert count_references(PROGRAM) == {
        "torch.Tensor": 1, "torch.nn.functional.relu": 2, "torch.utils.data.DataLoader": 1, "torch.optim.SGD": 1,
        "torch.nn.Linear": 1, "torch.float32": 1}


def test_uses_inside_annotations_can_be_left_out() -> None:
    """The engine reports nothing in an annotation, so the figure it can answer leaves them out."""
    outside = count_references(PROGRAM + "\n\ndef typed(y: torch.Tensor = None) -> torch.nn.Module:\n"
                                         "    z: torch.Tensor = torch.zeros(1)\n    return isinstance(z, torch.Tensor)\n",
                               annotations=False)
    assert outside == {
        "torch.nn.functional.relu": 2, "torch.utils.data.DataLoader": 1, "torch.optim.SGD": 1,
        "torch.nn.Linear": 1, "torch.float32": 1, "torch.zeros": 1, "torch.Tensor": 1}


def test_a_file_that_does_not_parse_counts_nothing() -> None:
    assert count_references("import torch\ndef broken(:\n    torch.zeros(1)\n") == {}


def test_a_wheel_is_measured_against_the_tables(tmp_path: Path) -> None:
    wheel = tmp_path / "example-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("example/train.py", PROGRAM)
        archive.writestr("example/data.txt", "torch.zeros is not Python")
    report = measure([wheel], ROOT / "mappings")
    figures = report["packages"][wheel.name]
    assert (figures["files"], figures["references"]) == (1, 7)
    assert figures["share"] == 1.0  # every one of these names has an entry on the MindSpore route
    assert report["total_outside_annotations"]["references"] == 6  # x: torch.Tensor left out
    assert 0 < figures["checked_share"] <= figures["checked_or_review_noted_share"] <= figures["checked_or_reviewed_share"]
