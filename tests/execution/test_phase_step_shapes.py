"""The phase step (MS245, analysis/rules/phase_step.py) in the shapes real train/eval loops have, fixed with the product
and run with mindspore 2.10 on CPU beside torch 2.13 (issue 17: a fix family is proven when a test ran what it writes):
zero_grad() inside the training branch, gradient clipping between backward() and step(), a scheduler's step after it,
and the branch under `if model.training:` with no set_grad_enabled block. Each ends with torch's losses, weights and
learning rate. Skips cleanly without the packages (CI stage 38-execution runs it). The text of each fix:
tests/fixes/test_phase_step_shapes.py."""

from __future__ import annotations

import textwrap

import pytest

mindspore = pytest.importorskip("mindspore")
torch = pytest.importorskip("torch")
numpy = pytest.importorskip("numpy")

from ascend_migrate.analysis.engine import analyze  # noqa: E402
from ascend_migrate.config import Settings  # noqa: E402
from ascend_migrate.fixes import fix_until_stable  # noqa: E402

WITH_BRANCH = """
    import torch


    def train_model(model, criterion, optimizer, scheduler, dataloaders, losses):
        for phase in ["train", "val"]:
            for inputs, labels in dataloaders[phase]:
                with torch.set_grad_enabled(phase == "train"):
                    outputs = model(inputs)
                    loss = criterion(outputs, labels)
                    if phase == "train":
                        optimizer.zero_grad()
                        loss.backward()
                        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
                        optimizer.step()
                        scheduler.step()
                losses.append((phase, float(loss.item())))
"""

MODEL_TRAINING = """
    def run_epoch(model, criterion, optimizer, loader, losses):
        for inputs, labels in loader:
            outputs = model(inputs)
            loss = criterion(outputs, labels)
            if model.training:
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            losses.append(float(loss.item()))
"""


def fixed(source: str, version: str) -> str:
    settings = Settings(target="mindspore", mindspore_version=version)
    return fix_until_stable(textwrap.dedent(source), lambda text: analyze(text, "train.py", settings), unsafe=True).text


def _start():
    generator = numpy.random.default_rng(0)
    weight, bias = generator.normal(size=(3, 4)).astype("float32"), generator.normal(size=3).astype("float32")
    batches = [(generator.normal(size=(5, 4)).astype("float32") * 3, generator.integers(0, 3, 5)) for _ in range(4)]
    torch_model = torch.nn.Linear(4, 3)
    with torch.no_grad():
        torch_model.weight.copy_(torch.tensor(weight))
        torch_model.bias.copy_(torch.tensor(bias))
    model = mindspore.nn.Dense(4, 3)
    model.weight.set_data(mindspore.Tensor(weight))
    model.bias.set_data(mindspore.Tensor(bias))
    return batches, torch_model, model


def _same_weights(model, torch_model):
    numpy.testing.assert_allclose(model.weight.asnumpy(), torch_model.weight.detach().numpy(), rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(model.bias.asnumpy(), torch_model.bias.detach().numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("version", ["2.4", "2.10"])
def test_zero_grad_clipping_and_a_scheduler_in_the_training_branch_train_as_torch_does(version):
    batches, torch_model, model = _start()
    torch_space: dict = {}
    exec(compile(textwrap.dedent(WITH_BRANCH), "torch_train.py", "exec"), torch_space)
    torch_optimizer = torch.optim.SGD(torch_model.parameters(), lr=0.5)
    torch_scheduler = torch.optim.lr_scheduler.StepLR(torch_optimizer, step_size=1, gamma=0.5)
    torch_loaders = {"train": [(torch.tensor(x), torch.tensor(y)) for x, y in batches[:3]],
                     "val": [(torch.tensor(x), torch.tensor(y)) for x, y in batches[3:]]}
    torch_losses: list = []
    torch_space["train_model"](torch_model, torch.nn.CrossEntropyLoss(), torch_optimizer, torch_scheduler, torch_loaders, torch_losses)
    # clipping was at work: the first step's gradient norm is above 0.5 (else the clip line would prove nothing)
    _, probe, _ = _start()
    torch.nn.CrossEntropyLoss()(probe(torch.tensor(batches[0][0])), torch.tensor(batches[0][1])).backward()
    assert float(torch.nn.utils.clip_grad_norm_(probe.parameters(), 0.5)) > 0.5

    text = fixed(WITH_BRANCH, version)
    assert "grads = mindspore.ops.clip_by_global_norm(grads, 0.5)" in text and "        scheduler.step()\n" in text
    assert "torch" not in text and "zero_grad" not in text
    space: dict = {}
    exec(compile(text, "train.py", "exec"), space)
    optimizer = mindspore.experimental.optim.SGD(model.trainable_params(), lr=0.5)
    scheduler = mindspore.experimental.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.5)
    loaders = {"train": [(mindspore.Tensor(x), mindspore.Tensor(y.astype("int32"))) for x, y in batches[:3]],
               "val": [(mindspore.Tensor(x), mindspore.Tensor(y.astype("int32"))) for x, y in batches[3:]]}
    losses: list = []
    space["train_model"](model, mindspore.nn.CrossEntropyLoss(), optimizer, scheduler, loaders, losses)

    assert [phase for phase, _ in losses] == [phase for phase, _ in torch_losses] == ["train"] * 3 + ["val"]
    numpy.testing.assert_allclose([loss for _, loss in losses], [loss for _, loss in torch_losses], rtol=1e-5, atol=1e-6)
    _same_weights(model, torch_model)
    assert float(scheduler.get_last_lr()[0]) == pytest.approx(torch_scheduler.get_last_lr()[0])  # 0.5 * 0.5 ** 3


@pytest.mark.parametrize("version", ["2.4", "2.10"])
def test_a_training_branch_under_model_training_trains_as_torch_does(version):
    batches, torch_model, model = _start()
    torch_space: dict = {}
    exec(compile(textwrap.dedent(MODEL_TRAINING), "torch_train.py", "exec"), torch_space)
    torch_optimizer = torch.optim.SGD(torch_model.parameters(), lr=0.5)
    torch_losses: list = []
    torch_model.train()
    torch_space["run_epoch"](torch_model, torch.nn.CrossEntropyLoss(), torch_optimizer,
                             [(torch.tensor(x), torch.tensor(y)) for x, y in batches[:3]], torch_losses)
    torch_model.eval()
    torch_space["run_epoch"](torch_model, torch.nn.CrossEntropyLoss(), torch_optimizer,
                             [(torch.tensor(x), torch.tensor(y)) for x, y in batches[3:]], torch_losses)

    text = fixed(MODEL_TRAINING, version)
    assert "        if model.training:\n            (loss, (outputs,)), grads = mindspore.value_and_grad(" in text
    space: dict = {}
    exec(compile(text, "train.py", "exec"), space)
    optimizer = mindspore.experimental.optim.SGD(model.trainable_params(), lr=0.5)
    losses: list = []
    model.set_train(True)
    space["run_epoch"](model, mindspore.nn.CrossEntropyLoss(), optimizer,
                       [(mindspore.Tensor(x), mindspore.Tensor(y.astype("int32"))) for x, y in batches[:3]], losses)
    model.set_train(False)
    space["run_epoch"](model, mindspore.nn.CrossEntropyLoss(), optimizer,
                       [(mindspore.Tensor(x), mindspore.Tensor(y.astype("int32"))) for x, y in batches[3:]], losses)

    numpy.testing.assert_allclose(losses, torch_losses, rtol=1e-5, atol=1e-6)
    _same_weights(model, torch_model)
