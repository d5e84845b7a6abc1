"""The manual SGD step's fix computes what torch computes (issue 17): a program updating each parameter by hand
(`param.data.add_(-0.1 * param.grad)` after `fc.zero_grad()` and `output.backward()`, as pytorch/examples'
regression does) is fixed with `fix --write --unsafe --target mindspore --mindspore-version 2.4`, and the
original (torch 2.13.0) and the fixed program (mindspore 2.10.0) train the same Linear/Dense layer from the
same start weights on the same batches: the weights after every step must agree. Needs both packages in this
interpreter (CI stage 38-execution); skips cleanly without them.
"""

from __future__ import annotations

import pytest
from tests.execution.side_by_side import driven, original_and_fixed

numpy = pytest.importorskip("numpy")
pytest.importorskip("torch")
pytest.importorskip("mindspore")

PROGRAM = '''\
import torch
import torch.nn.functional as F


def train(fc, batches, record):
    for batch_x, batch_y in batches:
        fc.zero_grad()
        output = F.mse_loss(fc(batch_x), batch_y)
        loss = output.item()
        output.backward()
        with torch.no_grad():
            for param in fc.parameters():  # its MS213 fix (get_parameters) lands first; the step's fix follows
                param.data.add_(-0.1 * param.grad)
        record(fc)
    return loss
'''

# The drivers set the start weights and the batches with each framework's own API and print what train() saw.
TORCH_DRIVER = '''\
import json, sys, numpy, torch
import program
start = json.loads(sys.argv[1])
fc = torch.nn.Linear(4, 1)
with torch.no_grad():
    fc.weight.copy_(torch.tensor(start["weight"])); fc.bias.copy_(torch.tensor(start["bias"]))
batches = [(torch.tensor(x), torch.tensor(y)) for x, y in start["batches"]]
weights = []
program.train(fc, batches, lambda fc: weights.append([fc.weight.detach().numpy().tolist(), fc.bias.detach().numpy().tolist()]))
print(json.dumps(weights))
'''
MINDSPORE_DRIVER = '''\
import json, sys, numpy, mindspore
import program
start = json.loads(sys.argv[1])
fc = mindspore.nn.Dense(4, 1)
fc.weight.set_data(mindspore.Tensor(numpy.float32(start["weight"]))); fc.bias.set_data(mindspore.Tensor(numpy.float32(start["bias"])))
batches = [(mindspore.Tensor(numpy.float32(x)), mindspore.Tensor(numpy.float32(y))) for x, y in start["batches"]]
weights = []
program.train(fc, batches, lambda fc: weights.append([fc.weight.asnumpy().tolist(), fc.bias.asnumpy().tolist()]))
print(json.dumps(weights))
'''


def test_the_fixed_manual_sgd_step_trains_to_the_same_weights_as_torch(tmp_path):
    generator = numpy.random.default_rng(17)
    start = {
        "weight": generator.standard_normal((1, 4)).astype("float32").tolist(),
        "bias": generator.standard_normal(1).astype("float32").tolist(),
        "batches": [(generator.standard_normal((8, 4)).astype("float32").tolist(), generator.standard_normal((8, 1)).astype("float32").tolist())
                    for _ in range(5)],
    }
    original, fixed, text = original_and_fixed(tmp_path, PROGRAM)
    assert "mindspore.ops.assign_add(param, -0.1 * grad)" in text and "import torch" not in text, text
    expected, got = driven(original, TORCH_DRIVER, start), driven(fixed, MINDSPORE_DRIVER, start)
    assert len(got) == len(expected) == 5
    for step, (torch_weights, mindspore_weights) in enumerate(zip(expected, got, strict=True), 1):
        for name, want, have in zip(("weight", "bias"), torch_weights, mindspore_weights, strict=True):
            assert numpy.allclose(have, want, rtol=1e-5, atol=1e-6), f"step {step}: {name} {have} != {want}"
    assert not numpy.allclose(expected[-1][0], start["weight"])  # the weights did move
