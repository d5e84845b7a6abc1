"""torch's creation calls with sizes one by one or unpacked (`torch.zeros(n, 3)`, `torch.ones(*x.shape)`,
`torch.zeros(2, *x.shape)`), fixed for MindSpore, give the shapes torch gives: mindspore 2.10's ops/mint
zeros/ones take one size and raise TypeError on several (analysis/rules/size_arguments.py). Needs torch and
mindspore (CI stage 38-execution); skips without them."""

from __future__ import annotations

import pytest
from tests.execution.side_by_side import original_and_fixed, printed

pytest.importorskip("torch")
pytest.importorskip("mindspore")

PROGRAM = '''\
import json

import torch


def shapes(x, n):
    made = [torch.zeros(n, 3), torch.ones(*x.shape), torch.zeros(2, *x.shape), torch.ones(*[4]), torch.zeros(x.shape),
            x.new_zeros(2, n), x.new_ones(*x.shape)]
    return [list(tensor.shape) for tensor in made]


print(json.dumps(shapes(torch.ones(5, 2), 4)))
'''


@pytest.mark.parametrize("version", ["2.4", "2.10"])
def test_sizes_one_by_one_or_unpacked_give_torchs_shapes(tmp_path, version):
    original, fixed, text = original_and_fixed(tmp_path, PROGRAM, version)
    assert "import torch" not in text and "(*x.shape,)" in text, text
    assert printed(fixed) == printed(original) == [[4, 3], [5, 2], [2, 5, 2], [4], [5, 2], [2, 4], [5, 2]]
