"""torch's LayerNorm fixed for the ops/nn era computes what torch computes: mindspore.nn.LayerNorm wants the shape
as a tuple, normalizes from begin_norm_axis and defaults epsilon to 1e-07 (analysis/rules/layer_norm.py writes
all three). Needs torch and mindspore (CI stage 38-execution); skips without them."""

from __future__ import annotations

import pytest
from tests.execution.side_by_side import original_and_fixed, printed

pytest.importorskip("torch")
pytest.importorskip("mindspore")

PROGRAM = '''\
import json

import numpy
import torch
import torch.nn as nn

width = 8
values = numpy.random.default_rng(0).normal(3.0, 1e-3, size=(2, 4, width)).astype("float32")
x = torch.tensor(values)
# a near-constant input: the variance is about 1e-6, where eps 1e-05 and MindSpore's 1e-07 give other outputs
layers = [nn.LayerNorm(width), nn.LayerNorm([width], eps=1e-3), nn.LayerNorm(normalized_shape=(width,), eps=1e-6)]
print(json.dumps([[round(float(v), 4) for v in layer(x).reshape(-1)[:6]] for layer in layers]))
'''


def test_fixed_layer_norms_compute_torchs_values(tmp_path):
    original, fixed, text = original_and_fixed(tmp_path, PROGRAM, "2.4")
    assert "import torch" not in text, text
    assert "LayerNorm((width,), epsilon=1e-05)" in text and "LayerNorm((width,), epsilon=1e-3)" in text
    assert printed(fixed) == printed(original)
