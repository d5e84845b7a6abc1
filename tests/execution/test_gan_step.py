"""The G step's fix computes what torch computes (issue 17): a GAN training loop whose generator step reuses the
D step's `fake = netG(noise)` (`output = netD(fake)`, as pytorch/examples' dcgan does) is fixed with `fix --write
--unsafe --target mindspore --mindspore-version 2.4`; the fixed G step makes `fake` again inside its own forward
function from the same noise and the same (not yet updated) generator weights. The original (torch 2.13.0) and the
fixed program (mindspore 2.10.0) train the same small generator and discriminator from the same start weights on
the same batches and noise: both networks' weights after every step must agree. Needs both packages in this
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
import torch.nn as nn


def train(netD, netG, batches, noises, record):
    criterion = nn.BCELoss()
    optimizerD = torch.optim.SGD(netD.parameters(), lr=0.5)
    optimizerG = torch.optim.SGD(netG.parameters(), lr=0.5)
    for real, noise in zip(batches, noises):
        netD.zero_grad()
        output = netD(real)
        errD_real = criterion(output, torch.ones(4, 1))
        errD_real.backward()
        fake = netG(noise)
        output = netD(fake.detach())
        errD_fake = criterion(output, torch.zeros(4, 1))
        errD_fake.backward()
        optimizerD.step()

        netG.zero_grad()
        output = netD(fake)
        errG = criterion(output, torch.ones(4, 1))
        errG.backward()
        optimizerG.step()
        record(netD, netG)
'''

# The drivers build the two networks with each framework's own API, set the start weights and print the weights
# after every step.
TORCH_DRIVER = '''\
import json, sys, torch
import program
start = json.loads(sys.argv[1])
netD = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Sigmoid())
netG = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh())
with torch.no_grad():
    for layer, name in ((netD[0], "D"), (netG[0], "G")):
        layer.weight.copy_(torch.tensor(start[name + "weight"])); layer.bias.copy_(torch.tensor(start[name + "bias"]))
tensors = lambda key: [torch.tensor(value) for value in start[key]]
weights = []
program.train(netD, netG, tensors("batches"), tensors("noises"),
              lambda netD, netG: weights.append([p.detach().numpy().tolist() for p in (*netD.parameters(), *netG.parameters())]))
print(json.dumps(weights))
'''
MINDSPORE_DRIVER = '''\
import json, sys, numpy, mindspore
import program
start = json.loads(sys.argv[1])
netD = mindspore.nn.SequentialCell(mindspore.nn.Dense(3, 1), mindspore.nn.Sigmoid())
netG = mindspore.nn.SequentialCell(mindspore.nn.Dense(2, 3), mindspore.nn.Tanh())
for layer, name in ((netD[0], "D"), (netG[0], "G")):
    layer.weight.set_data(mindspore.Tensor(numpy.float32(start[name + "weight"])))
    layer.bias.set_data(mindspore.Tensor(numpy.float32(start[name + "bias"])))
tensors = lambda key: [mindspore.Tensor(numpy.float32(value)) for value in start[key]]
weights = []
program.train(netD, netG, tensors("batches"), tensors("noises"),
              lambda netD, netG: weights.append([p.asnumpy().tolist() for p in (*netD.trainable_params(), *netG.trainable_params())]))
print(json.dumps(weights))
'''


def test_the_fixed_generator_step_trains_to_the_same_weights_as_torch(tmp_path):
    generator = numpy.random.default_rng(23)
    normal = lambda *shape: generator.standard_normal(shape).astype("float32").tolist()  # noqa: E731
    start = {"Dweight": normal(1, 3), "Dbias": normal(1), "Gweight": normal(3, 2), "Gbias": normal(3),
             "batches": [normal(4, 3) for _ in range(4)], "noises": [normal(4, 2) for _ in range(4)]}
    original, fixed, text = original_and_fixed(tmp_path, PROGRAM)
    assert "def forward_fn_2(noise):\n            fake = netG(noise)\n" in text and "import torch" not in text, text
    expected, got = driven(original, TORCH_DRIVER, start), driven(fixed, MINDSPORE_DRIVER, start)
    assert len(got) == len(expected) == 4
    names = ("D weight", "D bias", "G weight", "G bias")
    for step, (torch_weights, mindspore_weights) in enumerate(zip(expected, got, strict=True), 1):
        for name, want, have in zip(names, torch_weights, mindspore_weights, strict=True):
            # float32 in both; BCELoss's log and the sigmoid round differently in the two frameworks (measured: at
            # most 8.1e-6 apart in 4 steps; the generator moves by 0.108), where a G step with no gradient into netG
            # would leave it where it started
            assert numpy.allclose(have, want, rtol=1e-4, atol=1e-5), f"step {step}: {name} {have} != {want}"
    assert not numpy.allclose(expected[-1][2], start["Gweight"])  # the generator did move
