"""What session 9's fixes for user programs write, run with the real packages (issue 17: a fix family is proven when
a test executed what it writes): each test fixes torch code with the product and runs the result with mindspore 2.10 on
CPU beside torch 2.13. Skips cleanly without them (CI stage 38-execution runs it). The text of each fix, both ways:
tests/fixes/test_mindspore_user_programs_session9.py; the programs: siamese_network, reinforce and gcn in
tests/execution/test_mindspore_route.py."""

from __future__ import annotations

import textwrap

import pytest

mindspore = pytest.importorskip("mindspore")
torch = pytest.importorskip("torch")
numpy = pytest.importorskip("numpy")

from ascend_migrate.analysis.engine import analyze  # noqa: E402
from ascend_migrate.config import Settings  # noqa: E402
from ascend_migrate.fixes import fix_until_stable  # noqa: E402

OPS_NN, MINT = "2.4", "2.10"


def fixed(source: str, version: str = OPS_NN) -> str:
    settings = Settings(target="mindspore", mindspore_version=version)
    return fix_until_stable(textwrap.dedent(source), lambda text: analyze(text, "train.py", settings), unsafe=True).text


def run_both(source: str, version: str = OPS_NN) -> tuple[dict, dict]:
    """The namespaces of the torch source and of its fixed text, each executed."""
    original: dict = {}
    exec(compile(textwrap.dedent(source), "torch_train.py", "exec"), original)
    text = fixed(source, version)
    assert "torch" not in text, text
    port: dict = {}
    exec(compile(text, "train.py", "exec"), port)
    return original, port


def test_typed_constructors_give_torch_shapes_and_dtypes():
    original, port = run_both("""
        from collections import deque
        import numpy as np
        import torch
        import torch.nn as nn

        rows = np.arange(6, dtype=np.int32)
        weight = nn.Parameter(torch.Tensor(3, 4))
        vector = torch.Tensor(5)
        features = torch.FloatTensor(rows[1:])
        labels = torch.LongTensor(rows)
        returns = deque()
        for reward in (1.0, 0.5, 2.0):
            returns.appendleft(reward)
        returns = torch.tensor(returns)
        images = torch.randint(0, 256, (2, 3, 3), dtype=torch.uint8)
    """)
    for name in ("weight", "vector", "features", "labels", "returns", "images"):
        assert tuple(port[name].shape) == tuple(original[name].shape), name
        assert str(port[name].dtype).lower() == str(original[name].dtype).replace("torch.", "").lower(), name
    for name in ("features", "labels", "returns"):
        numpy.testing.assert_array_equal(port[name].asnumpy(), original[name].numpy())
    assert 0 <= port["images"].asnumpy().min() and port["images"].asnumpy().max() <= 255


@pytest.mark.parametrize("version", [OPS_NN, MINT])
def test_pooling_layers_pool_as_torch_does(version):
    source = """
        import torch.nn as nn

        layers = [nn.MaxPool2d(2), nn.MaxPool2d(kernel_size=3, stride=2, padding=1), nn.MaxPool2d(2, ceil_mode=True)]
    """
    original, port = run_both(source, version)
    image = numpy.random.default_rng(0).normal(size=(2, 3, 9, 9)).astype("float32") - 3  # negatives: padding must not win
    for torch_layer, layer in zip(original["layers"], port["layers"], strict=True):
        expected = torch_layer(torch.tensor(image)).numpy()
        numpy.testing.assert_array_equal(layer(mindspore.Tensor(image)).asnumpy(), expected)


def test_average_pooling_in_the_ops_nn_era_pools_as_torch_does():
    original, port = run_both("""
        import torch.nn as nn

        layers = [nn.AvgPool2d(2), nn.AvgPool2d(3, 1, 1)]
    """)
    image = numpy.random.default_rng(1).normal(size=(2, 3, 9, 9)).astype("float32")
    for torch_layer, layer in zip(original["layers"], port["layers"], strict=True):
        numpy.testing.assert_allclose(layer(mindspore.Tensor(image)).asnumpy(), torch_layer(torch.tensor(image)).numpy(), rtol=1e-6, atol=1e-6)


def test_unbiased_std_normalises_as_torch_does():
    original, port = run_both("""
        import torch

        def normalise(values):
            values = torch.tensor(values)
            return (values - values.mean()) / (values.std() + 1e-6)
    """)
    rewards = [1.0, 0.0, 2.0, 5.0]
    numpy.testing.assert_allclose(port["normalise"](rewards).asnumpy(), original["normalise"](rewards).numpy(), rtol=1e-6)


def test_the_step_in_a_function_body_trains_as_torch_does():
    """gcn's train_iter shape: three calls of a function holding zero_grad/forward/backward/step end with torch's
    weights (a Linear on 6 samples, masked rows, Adam)."""
    source = """
        import torch


        def train_iter(model, optimizer, criterion, input, target, mask):
            model.train()
            optimizer.zero_grad()
            output = model(*input)
            loss = criterion(output[mask], target[mask])
            loss.backward()
            optimizer.step()
            return loss.item()
    """
    generator = numpy.random.default_rng(0)
    weight, bias = generator.normal(size=(3, 4)).astype("float32"), generator.normal(size=3).astype("float32")
    features, target = generator.normal(size=(6, 4)).astype("float32"), generator.integers(0, 3, 6)
    mask = numpy.array([0, 2, 3, 5])
    original, port = run_both(source)

    torch_model = torch.nn.Linear(4, 3)
    with torch.no_grad():
        torch_model.weight.copy_(torch.tensor(weight))
        torch_model.bias.copy_(torch.tensor(bias))
    torch_optimizer = torch.optim.Adam(torch_model.parameters(), lr=0.1)
    torch_losses = [original["train_iter"](torch_model, torch_optimizer, torch.nn.NLLLoss(), (torch.tensor(features),),
                                           torch.tensor(target), torch.tensor(mask)) for _ in range(3)]

    model = mindspore.nn.Dense(4, 3)
    model.weight.set_data(mindspore.Tensor(weight))
    model.bias.set_data(mindspore.Tensor(bias))
    optimizer = mindspore.experimental.optim.Adam(model.trainable_params(), lr=0.1)
    losses = [port["train_iter"](model, optimizer, mindspore.nn.NLLLoss(), (mindspore.Tensor(features),),
                                 mindspore.Tensor(target.astype("int32")), mindspore.Tensor(mask)) for _ in range(3)]
    numpy.testing.assert_allclose(losses, torch_losses, rtol=1e-5)
    numpy.testing.assert_allclose(model.weight.asnumpy(), torch_model.weight.detach().numpy(), rtol=1e-5, atol=1e-6)


def test_children_cells_clone_and_an_isinstance_fill_build_the_siamese_backbone():
    """siamese_network's construction: a layer replaced after construction, list(children())[:-1] into a Sequential,
    fc.in_features read through an attribute of an attribute, weights filled under isinstance; and x.clone()."""
    source = """
        import torch
        import torch.nn as nn


        class Small(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv1 = nn.Conv2d(3, 4, 3)
                self.pool = nn.AdaptiveAvgPool2d((1, 1))
                self.fc = nn.Linear(4, 10)


        class Twin(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = Small()
                self.body.conv1 = nn.Conv2d(1, 4, 3)
                self.width = self.body.fc.in_features
                self.body = nn.Sequential(*list(self.body.children())[:-1])
                self.head = nn.Linear(self.width, 1)
                self.head.apply(self.init_weights)

            def init_weights(self, m):
                if isinstance(m, nn.Linear):
                    m.bias.data.fill_(0.01)

            def forward(self, x):
                return self.head(self.body(x.clone()).view(x.size(0), -1))
    """
    original, port = run_both(source)
    torch_twin, twin = original["Twin"](), port["Twin"]()
    image = numpy.random.default_rng(2).normal(size=(2, 1, 6, 6)).astype("float32")
    assert twin.width == torch_twin.width == 4
    numpy.testing.assert_array_equal(twin.head.bias.asnumpy(), torch_twin.head.bias.detach().numpy())
    assert tuple(twin(mindspore.Tensor(image)).shape) == tuple(torch_twin(torch.tensor(image)).shape) == (2, 1)
