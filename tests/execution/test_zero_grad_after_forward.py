"""A training step in nanoGPT's order (the forward pass, then `optimizer.zero_grad()`, then `loss.backward()` and
`optimizer.step()`) is rewritten like the usual order (analysis/rules/training_step.py: the forward pass starts at
the first statement before zero_grad that runs the model) and trains to torch's weights: the original (torch
2.13.0) and the program fixed for the ops/nn era (mindspore 2.10.0) take SGD steps from the same start weights on
the same batches. Needs both packages (CI stage 38-execution); skips cleanly without them."""

from __future__ import annotations

import pytest
from tests.execution.side_by_side import driven, original_and_fixed

numpy = pytest.importorskip("numpy")
pytest.importorskip("torch")
pytest.importorskip("mindspore")

PROGRAM = '''\
import torch
import torch.nn.functional as F


def train(model, optimizer, batches, record):
    for step, batch in enumerate(batches):
        x, y = batch
        prediction = model(x)
        loss = F.mse_loss(prediction, y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        record(model, loss.item())
'''

TORCH_DRIVER = '''\
import json, sys, torch
import program
start = json.loads(sys.argv[1])
model = torch.nn.Linear(4, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor(start["weight"])); model.bias.copy_(torch.tensor(start["bias"]))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
batches = [(torch.tensor(x), torch.tensor(y)) for x, y in start["batches"]]
seen = []
program.train(model, optimizer, batches, lambda m, loss: seen.append([m.weight.detach().numpy().tolist(), m.bias.detach().numpy().tolist(), loss]))
print(json.dumps(seen))
'''
MINDSPORE_DRIVER = '''\
import json, sys, numpy, mindspore
import program
start = json.loads(sys.argv[1])
model = mindspore.nn.Dense(4, 1)
model.weight.set_data(mindspore.Tensor(numpy.float32(start["weight"]))); model.bias.set_data(mindspore.Tensor(numpy.float32(start["bias"])))
optimizer = mindspore.nn.SGD(model.trainable_params(), learning_rate=0.1)
batches = [(mindspore.Tensor(numpy.float32(x)), mindspore.Tensor(numpy.float32(y))) for x, y in start["batches"]]
seen = []
program.train(model, optimizer, batches, lambda m, loss: seen.append([m.weight.asnumpy().tolist(), m.bias.asnumpy().tolist(), float(loss)]))
print(json.dumps(seen))
'''


def test_a_step_zeroing_grads_after_its_forward_pass_trains_to_torchs_weights(tmp_path):
    generator = numpy.random.default_rng(7)
    start = {
        "weight": generator.standard_normal((1, 4)).astype("float32").tolist(),
        "bias": generator.standard_normal(1).astype("float32").tolist(),
        "batches": [(generator.standard_normal((8, 4)).astype("float32").tolist(), generator.standard_normal((8, 1)).astype("float32").tolist())
                    for _ in range(4)],
    }
    original, fixed, text = original_and_fixed(tmp_path, PROGRAM)
    assert "zero_grad" not in text and "backward" not in text and "import torch" not in text, text
    assert "        x, y = batch\n        def forward_fn(x, y):\n" in text, text  # the batch stays outside
    expected, got = driven(original, TORCH_DRIVER, start), driven(fixed, MINDSPORE_DRIVER, start)
    assert len(got) == len(expected) == 4
    for step, (want, have) in enumerate(zip(expected, got, strict=True), 1):
        for name, wanted, had in zip(("weight", "bias", "loss"), want, have, strict=True):
            assert numpy.allclose(had, wanted, rtol=1e-5, atol=1e-6), f"step {step}: {name} {had} != {wanted}"
    assert not numpy.allclose(expected[-1][0], start["weight"])  # the weights did move
