"""x.cauchy_(...) and x.log_normal_(...) as statements, fixed for MindSpore (analysis/rules/inplace_fill.py): the fix
assigns the result, `x = x.cauchy(...)`, since mindspore.Tensor.cauchy and log_normal return a new tensor and leave
the receiver as it was (the plain rename computed nothing: pinned below). The draws differ from torch's, so the two
programs are compared by their distributions (10,000 draws: the Cauchy median within 0.1 of the given one, the log of
the log-normal draws within 0.05 of the given mean and std). Runs torch 2.13.0 and mindspore 2.10.0 on CPU; skips
cleanly without them.
"""

from __future__ import annotations

import pytest
from tests.execution.side_by_side import original_and_fixed, printed

torch = pytest.importorskip("torch")
mindspore = pytest.importorskip("mindspore")

PROGRAM = '''\
import json

import numpy
import torch

generator = torch.Generator().manual_seed(0)
spread = torch.ones(10000)
spread.cauchy_(2.0, 0.5)
sizes = torch.ones(10000)
sizes.log_normal_(1.0, 0.25, generator=generator)
logs = numpy.log(sizes.numpy())
print(json.dumps({"changed": bool((spread.numpy() != 1).all()), "median": float(numpy.median(spread.numpy())),
                  "positive": bool((sizes.numpy() > 0).all()), "mean": float(logs.mean()), "std": float(logs.std())}))
'''


@pytest.mark.parametrize("version", ["2.4", "2.10"])
def test_the_fixed_fills_change_their_tensors_as_torchs_do(tmp_path, version):
    original, fixed, text = original_and_fixed(tmp_path, PROGRAM, version)
    assert "spread = spread.cauchy(2.0, 0.5)" in text and "sizes = sizes.log_normal(1.0, 0.25)" in text, text
    for result in (printed(original), printed(fixed)):
        assert result["changed"] and result["positive"], result
        assert abs(result["median"] - 2.0) < 0.1 and abs(result["mean"] - 1.0) < 0.05 and abs(result["std"] - 0.25) < 0.05, result


def test_the_renamed_statement_alone_leaves_the_tensor_unchanged():
    """Why the fix assigns: mindspore 2.10.0 returns the draws and keeps the receiver."""
    tensor = mindspore.ops.ones(4, mindspore.float32)
    drawn = tensor.cauchy(0.0, 1.0)
    assert tensor.asnumpy().tolist() == [1.0] * 4 and drawn.asnumpy().tolist() != [1.0] * 4
