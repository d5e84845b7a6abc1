"""torch's Dropout2d (the layer and the function F.dropout2d), fixed for MindSpore (MS216: the input given as (N, C, -1, 1) and reshaped back), zeroes what
torch's zeroes, in distribution (issue 17, mnist_rnn): a program that calls Dropout2d layers on 2-D, 3-D and 4-D
input is fixed with `fix --write --unsafe --target mindspore --mindspore-version 2.4` and both versions run (torch
2.13.0, mindspore 2.10.0 on CPU). Per rank, each prints the share of zeroed (sample, channel) slices, whether every
slice is zeroed or kept whole, the values kept, and the share of samples zeroed in every channel (channels drop
independently; torch treats a 2-D (N, C) input as N samples of C one-element channels: element-wise dropout). Needs both packages in this
interpreter (CI stage 38-execution); skips cleanly without them.
"""

from __future__ import annotations

import pytest
from tests.execution.side_by_side import original_and_fixed, printed

pytest.importorskip("numpy")
pytest.importorskip("torch")
pytest.importorskip("mindspore")

PROGRAM = '''\
import json

import numpy
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.dropout = nn.Dropout2d(0.3)

    def forward(self, x):
        x = self.dropout(x)
        return x


def statistics(output, shape):
    values = numpy.asarray(output).reshape(shape[0] * shape[1], -1)  # one row per (sample, channel) slice
    zeroed = (values == 0).all(axis=1)
    whole = bool(((values == 0).all(axis=1) | (values != 0).all(axis=1)).all())
    kept = sorted({round(float(value), 5) for value in values[~zeroed].ravel()})
    samples = (numpy.asarray(output).reshape(shape[0], -1) == 0).all(axis=1)  # a sample zeroed in all its channels
    return {"zeroed": float(zeroed.mean()), "whole": whole, "kept": kept, "samples": float(samples.mean())}


net = Net()
net.train()
results = {}
for shape in ((4000, 10), (500, 8, 6), (250, 8, 3, 4)):
    x = torch.ones(shape)
    results[len(shape)] = statistics(net(x), shape)
    results[f"F{len(shape)}"] = statistics(F.dropout2d(x, 0.3, True), shape)  # the function form
net.eval()
results["eval"] = bool((numpy.asarray(net(torch.ones((30, 10)))) == 1).all())
x = torch.ones((30, 10))
results["F eval"] = bool((numpy.asarray(F.dropout2d(x, p=0.3, training=False)) == 1).all())
print(json.dumps(results))
'''


def test_a_fixed_dropout2d_zeroes_torchs_slices_with_torchs_probability_and_scale(tmp_path):
    original, fixed, text = original_and_fixed(tmp_path, PROGRAM)
    assert "self.dropout(x.reshape(x.shape[:2] + (-1, 1))).reshape(x.shape)" in text and "import torch" not in text, text
    assert "mindspore.ops.dropout2d(x.reshape(x.shape[:2] + (-1, 1)), 0.3, True).reshape(x.shape)" in text, text
    torch_results, mindspore_results = printed(original), printed(fixed)
    for rank in ("2", "3", "4", "F2", "F3", "F4"):
        for results in (torch_results, mindspore_results):
            # 40,000, 4,000 and 2,000 slices: the share is within 0.05 of p far beyond six standard deviations
            assert abs(results[rank]["zeroed"] - 0.3) < 0.05, (rank, results)
            assert results[rank]["whole"], (rank, results)  # a slice is zeroed or kept whole
            assert results[rank]["kept"] == [round(1 / 0.7, 5)], (rank, results)  # kept values scaled by 1 / (1 - p)
            # channels drop independently (0.3 ** 8 of the samples lose all): not one draw per sample or per batch
            assert results[rank]["samples"] < 0.01, (rank, results)
    assert torch_results["eval"] and mindspore_results["eval"]  # no dropout outside training
    assert torch_results["F eval"] and mindspore_results["F eval"]
