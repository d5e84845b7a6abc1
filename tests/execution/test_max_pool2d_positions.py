"""torch's `F.max_pool2d` called with every argument by position, fixed for the ops/nn era (`--mindspore-version 2.4`),
computes what torch computes: torch's sixth and seventh parameters are ceil_mode and return_indices,
mindspore.ops.max_pool2d's are return_indices and ceil_mode, so both are written by keyword (before, only the last
was, and `max_pool2d(x, 2, 2, 0, 1, False, False)` raised "got multiple values for argument 'return_indices'").
Runs torch 2.13.0 and mindspore 2.10.0 on CPU side by side; skips cleanly without them (CI stage 38-execution).
"""

from __future__ import annotations

import pytest
from tests.execution.side_by_side import original_and_fixed, printed

pytest.importorskip("numpy")
pytest.importorskip("torch")
pytest.importorskip("mindspore")

PROGRAM = '''\
import json

import torch
import torch.nn.functional as F

x = torch.arange(2 * 3 * 8 * 8, dtype=torch.float32).reshape(2, 3, 8, 8) % 11
results = {
    "seven": F.max_pool2d(x, 2, 2, 0, 1, False, False).tolist(),
    "ceil": F.max_pool2d(x, 3, 2, 1, 1, True).tolist(),
    "ceil, no indices": F.max_pool2d(x, 3, 2, 0, 1, True, False).tolist(),
}
values, indices = F.max_pool2d(x, 2, 2, 0, 1, False, True)
results["indices"] = [values.tolist(), indices.tolist()]
print(json.dumps(results))
'''


def test_all_positional_max_pool2d_fixed_for_ops_nn_equals_torch(tmp_path):
    original, fixed, text = original_and_fixed(tmp_path, PROGRAM)
    assert "mindspore.ops.max_pool2d(x, 2, 2, 0, 1, ceil_mode=False, return_indices=False)" in text, text
    assert "mindspore.ops.max_pool2d(x, 3, 2, 1, 1, ceil_mode=True)" in text, text
    torch_results, mindspore_results = printed(original), printed(fixed)
    assert mindspore_results == torch_results
    assert len(torch_results["ceil, no indices"][0][0]) == 4  # ceil_mode took effect (3 without it)
