"""torch.full with a literal float or bool fill, fixed for the ops/nn era (analysis/rules/fill_dtype.py): the fix passes
torch's dtype to mindspore.ops.full, and the fixed program prints torch's values and dtypes. Without it ops.full gives
Int64 and truncates the fill (pinned below). Runs torch 2.13.0 and mindspore 2.10.0 on CPU; skips cleanly without them.
"""

from __future__ import annotations

import pytest
from tests.execution.side_by_side import original_and_fixed, printed

torch = pytest.importorskip("torch")
mindspore = pytest.importorskip("mindspore")

PROGRAM = '''\
import json

import torch


def described(value):
    return {"values": value.tolist(), "dtype": str(value.dtype).rsplit(".", 1)[-1].lower().rstrip("_")}


weights = torch.full((2, 3), 2.5)
results = {
    "float": described(weights),
    "negative float": described(torch.full((2, 3), -1.5)),
    "keywords": described(torch.full(size=(2,), fill_value=0.5)),
    "int": described(torch.full((2, 3), 2)),
    "bool": described(torch.full((2,), True)),
    "dtype given": described(torch.full((2,), 2.0, dtype=torch.float64)),
    "used with a float tensor": described(weights * torch.ones(2, 3)),
}
print(json.dumps(results))
'''


def test_a_literal_fill_gets_torchs_dtype_and_values(tmp_path):
    original, fixed, text = original_and_fixed(tmp_path, PROGRAM)
    for written in ("mindspore.ops.full((2, 3), 2.5, dtype=mindspore.float32)",
                    "mindspore.ops.full((2, 3), -1.5, dtype=mindspore.float32)",
                    "mindspore.ops.full(size=(2,), fill_value=0.5, dtype=mindspore.float32)",
                    "mindspore.ops.full((2, 3), 2)", "mindspore.ops.full((2,), True, dtype=mindspore.bool_)"):
        assert written in text, text
    assert "torch." not in text.replace("import torch", ""), text
    expected = printed(original)
    assert expected["float"] == {"values": [[2.5] * 3] * 2, "dtype": "float32"}
    assert printed(fixed) == expected


def test_without_the_dtype_ops_full_gives_int64_and_truncates():
    """Why the fix writes the dtype (and why a fill in a variable keeps the entry's note): mindspore 2.10.0."""
    value = mindspore.ops.full((2,), 2.5)
    assert value.dtype == mindspore.int64 and value.asnumpy().tolist() == [2, 2]
    assert torch.full((2,), 2.5).tolist() == [2.5, 2.5]
