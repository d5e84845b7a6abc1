"""What session 8's fixes for user-shaped programs write, run with the real packages (issue 17: a fix family is
proven when a test executed what it writes). Each test fixes torch code with the product and runs the result with
mindspore 2.10 on CPU, beside torch 2.13 where there is a torch result to compare with. Skips cleanly without them
(CI stage 38-execution runs it). The text of each fix: tests/fixes/test_mindspore_user_programs.py."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

mindspore = pytest.importorskip("mindspore")
torch = pytest.importorskip("torch")
numpy = pytest.importorskip("numpy")

from ascend_migrate.analysis.engine import analyze  # noqa: E402
from ascend_migrate.config import Settings  # noqa: E402
from ascend_migrate.fixes import fix_until_stable  # noqa: E402

OPS_NN = "2.4"


def fixed(source: str, version: str = OPS_NN) -> str:
    settings = Settings(target="mindspore", mindspore_version=version)
    return fix_until_stable(textwrap.dedent(source), lambda text: analyze(text, "train.py", settings), unsafe=True).text


PHASE = """
    import torch


    def train_model(model, criterion, optimizer, dataloaders, losses):
        for phase in ["train", "val"]:
            for inputs, labels in dataloaders[phase]:
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    outputs = model(inputs)
                    _, preds = torch.max(outputs, 1)
                    loss = criterion(outputs, labels)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
                losses.append((phase, float(loss.item()), int((preds == labels).sum().item())))
"""


def test_the_phase_step_trains_as_torch_does():
    """Two training batches and one validation batch: the fixed loop (value_and_grad in the train phase, a plain call in
    val) ends with torch's weights and reports torch's losses and correct counts."""
    generator = numpy.random.default_rng(0)
    weight, bias = generator.normal(size=(3, 4)).astype("float32"), generator.normal(size=3).astype("float32")
    batches = [(generator.normal(size=(5, 4)).astype("float32"), generator.integers(0, 3, 5)) for _ in range(3)]

    torch_space: dict = {}
    exec(compile(textwrap.dedent(PHASE), "torch_train.py", "exec"), torch_space)
    torch_model = torch.nn.Linear(4, 3)
    with torch.no_grad():
        torch_model.weight.copy_(torch.tensor(weight))
        torch_model.bias.copy_(torch.tensor(bias))
    torch_loaders = {"train": [(torch.tensor(x), torch.tensor(y)) for x, y in batches[:2]],
                     "val": [(torch.tensor(x), torch.tensor(y)) for x, y in batches[2:]]}
    torch_losses: list = []
    torch_space["train_model"](torch_model, torch.nn.CrossEntropyLoss(), torch.optim.SGD(torch_model.parameters(), lr=0.5),
                               torch_loaders, torch_losses)

    text = fixed(PHASE)
    assert "value_and_grad" in text and "torch" not in text
    space: dict = {}
    exec(compile(text, "train.py", "exec"), space)
    model = mindspore.nn.Dense(4, 3)
    model.weight.set_data(mindspore.Tensor(weight))
    model.bias.set_data(mindspore.Tensor(bias))
    loaders = {"train": [(mindspore.Tensor(x), mindspore.Tensor(y.astype("int32"))) for x, y in batches[:2]],
               "val": [(mindspore.Tensor(x), mindspore.Tensor(y.astype("int32"))) for x, y in batches[2:]]}
    losses: list = []
    optimizer = mindspore.experimental.optim.SGD(model.trainable_params(), lr=0.5)
    space["train_model"](model, mindspore.nn.CrossEntropyLoss(), optimizer, loaders, losses)

    assert [(phase, correct) for phase, _, correct in losses] == [(phase, correct) for phase, _, correct in torch_losses]
    numpy.testing.assert_allclose([loss for _, loss, _ in losses], [loss for _, loss, _ in torch_losses], rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(model.weight.asnumpy(), torch_model.weight.detach().numpy(), rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(model.bias.asnumpy(), torch_model.bias.detach().numpy(), rtol=1e-5, atol=1e-6)


def test_sgd_with_torch_default_lr_steps_as_torch_does():
    """`torch.optim.SGD(params, momentum=0.9)` fixed to experimental.optim.SGD(..., lr=0.001): the same two steps."""
    text = fixed("""
        import torch

        def make(params):
            return torch.optim.SGD(params, momentum=0.9)
    """)
    assert "lr=0.001" in text
    space: dict = {}
    exec(compile(text, "train.py", "exec"), space)
    start, gradient = numpy.arange(6, dtype="float32").reshape(2, 3), numpy.linspace(-1, 1, 6, dtype="float32").reshape(2, 3)
    parameter = mindspore.Parameter(mindspore.Tensor(start), name="w")
    optimizer = space["make"]([parameter])
    reference = torch.nn.Parameter(torch.tensor(start))
    torch_optimizer = torch.optim.SGD([reference], momentum=0.9)
    for _ in range(2):
        optimizer((mindspore.Tensor(gradient),))
        reference.grad = torch.tensor(gradient)
        torch_optimizer.step()
    numpy.testing.assert_allclose(parameter.asnumpy(), reference.detach().numpy(), rtol=1e-6)


def test_in_place_fills_of_layer_parameters_run_and_fill():
    text = fixed("""
        from torch import nn


        class Classifier(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(64, 32)
                initrange = 0.5
                self.fc.weight.data.uniform_(-initrange, initrange)
                self.fc.bias.data.zero_()
    """)
    space: dict = {}
    exec(compile(text, "model.py", "exec"), space)
    model = space["Classifier"]()
    weight, bias = model.fc.weight.asnumpy(), model.fc.bias.asnumpy()
    assert weight.min() >= -0.5 and weight.max() <= 0.5 and weight.std() > 0.2  # uniform on [-0.5, 0.5]: std 0.289
    assert not bias.any()


def test_a_saved_dict_becomes_a_checkpoint_that_keeps_its_values(tmp_path):
    text = fixed("""
        import torch
        from torch import nn

        net = nn.Linear(2, 3)
        for epoch in range(2):
            torch.save({"epoch": epoch, "model": net.state_dict()}, f"./net_{epoch}.pth")
    """)
    (tmp_path / "save.py").write_text(text, encoding="utf-8")
    run = subprocess.run([sys.executable, "save.py"], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                         env=dict(os.environ, GLOG_v="3", PYTHONWARNINGS="ignore"))
    assert run.returncode == 0, run.stderr[-2000:]
    saved = mindspore.load_checkpoint(str(tmp_path / "net_1.ckpt"))
    assert int(saved["epoch"]) == 1 and {"weight", "bias"} <= {name.rsplit(".", 1)[-1] for name in saved}


def test_mixed_precision_fixes_run_and_the_device_is_chosen_before_the_first_kernel(tmp_path):
    """The fixed script builds a tensor at module level before its device choice, as torch allows: the choice moved
    above it runs (set_device after a kernel raises RuntimeError), the scaler constructs and the block runs."""
    text = fixed("""
        import torch

        data = torch.ones(2, 3)
        device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
        use_amp = torch.cuda.is_available()
        scaler = torch.cuda.amp.GradScaler(enabled=use_amp)
        with torch.cuda.amp.autocast(enabled=use_amp):
            total = data.sum()
        print(device, float(total), scaler.scale_value)
    """)
    (tmp_path / "amp.py").write_text(text, encoding="utf-8")
    run = subprocess.run([sys.executable, "amp.py"], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                         env=dict(os.environ, GLOG_v="3", PYTHONWARNINGS="ignore"))
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split()[:2] == ["CPU", "6.0"]
