"""torch.meshgrid and torch.repeat_interleave on the MindSpore route run as torch's. meshgrid: the ops/nn era's fix writes torch's indexing='ij' (ops.meshgrid
defaults to 'xy'), the mint era's plain rename indexes as torch does (mint.meshgrid's indexing=None is 'ij'). Each fixed
program is run with mindspore 2.10.0 and prints the same grids as torch 2.13.0. repeat_interleave(x, 2, dim=1) becomes
ops.repeat_interleave(x, 2, axis=1) in the ops/nn era (dim= raised TypeError) and gives torch's values (mint's has no CPU
kernel, so the mint era is not run). Needs mindspore and torch in this
interpreter (CI stage 38-execution); skips cleanly without them.
"""

from __future__ import annotations

import pytest
from tests.execution.side_by_side import original_and_fixed, printed

pytest.importorskip("torch")
pytest.importorskip("mindspore")

PROGRAM = '''\
import json

import torch

rows = torch.tensor([0.0, 1.0, 2.0])
columns = torch.tensor([10.0, 20.0, 30.0, 40.0])
first, second = torch.meshgrid(rows, columns)
explicit, _ = torch.meshgrid(rows, columns, indexing="xy")
print(json.dumps({"first": first.tolist(), "second": second.tolist(), "explicit": explicit.tolist()}))
'''


@pytest.mark.parametrize("version", ["2.4", "2.10"])
def test_the_fixed_meshgrid_gives_torchs_grids(tmp_path, version):
    original, fixed, text = original_and_fixed(tmp_path, PROGRAM, version)
    assert "torch" not in text.replace("mindspore", ""), text
    if version == "2.4":
        assert "mindspore.ops.meshgrid(rows, columns, indexing='ij')" in text, text
    else:
        assert "mint.meshgrid(rows, columns)" in text, text
    expected = printed(original)
    assert len(expected["first"]) == 3 and len(expected["explicit"]) == 4  # 'ij' then 'xy'
    assert printed(fixed) == expected


REPEATED = '''\
import json

import torch

x = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
wide = torch.repeat_interleave(x, 2, dim=1)
tall = x.repeat_interleave(3, 0)
flat = torch.repeat_interleave(x, 2, 1, output_size=6)
print(json.dumps({"wide": wide.tolist(), "tall": tall.tolist(), "flat": flat.tolist()}))
'''


def test_the_ops_era_repeat_interleave_takes_dim_as_axis(tmp_path):
    original, fixed, text = original_and_fixed(tmp_path, REPEATED, "2.4")
    assert "mindspore.ops.repeat_interleave(x, 2, axis=1)" in text and "output_size" not in text, text
    assert printed(fixed) == printed(original)
