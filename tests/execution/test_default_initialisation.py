"""Layers whose mapping says they are the same as torch's: their default initial weights are drawn from the same
distributions (corrections.FALSE_DIFFERENCES' nn.Linear row: the doc's only difference, weight_init=None and
bias_init=None, is not one). Many draws of each side, compared by range, mean, standard deviation and the two-sample
Kolmogorov-Smirnov statistic; both sides seeded, so a run is repeatable.
Runs torch 2.13.0 and mindspore 2.10.0 on CPU; skips cleanly without them (CI stage 38-execution).
"""

from __future__ import annotations

import math

import pytest

np = pytest.importorskip("numpy")
torch = pytest.importorskip("torch")
mindspore = pytest.importorskip("mindspore")
from mindspore import mint  # noqa: E402  (after the skip: mindspore may be absent)


def _kolmogorov_smirnov(left, right) -> float:
    """The largest distance between the two samples' empirical distribution functions."""
    left, right = np.sort(left.ravel()), np.sort(right.ravel())
    points = np.concatenate([left, right])
    return float(np.max(np.abs(np.searchsorted(left, points, side="right") / left.size
                               - np.searchsorted(right, points, side="right") / right.size)))


def _critical(left_size: int, right_size: int) -> float:
    """The statistic two samples of one distribution exceed with probability 0.001."""
    return 1.95 * math.sqrt((left_size + right_size) / (left_size * right_size))


def _assert_same_distribution(torch_values, mindspore_values, bound: float, where: str) -> None:
    statistic = _kolmogorov_smirnov(torch_values, mindspore_values)
    assert statistic < _critical(torch_values.size, mindspore_values.size), (where, statistic)
    for values in (torch_values, mindspore_values):  # uniform on [-bound, bound]: its range, mean and spread
        deviation = bound / math.sqrt(3)  # within five standard errors of the sample's mean and deviation
        assert -bound <= values.min() and values.max() <= bound, where
        assert abs(values.mean()) < 5 * deviation / math.sqrt(values.size), where
        assert math.isclose(values.std(), deviation, rel_tol=5 * math.sqrt(0.2 / values.size)), where


# (torch layer, its MindSpore counterpart, fan_in): torch draws weight and bias uniform on +-1/sqrt(fan_in)
LAYERS = {
    "Linear": (lambda: torch.nn.Linear(300, 400), lambda: mint.nn.Linear(300, 400), 300),
    "Linear narrow": (lambda: torch.nn.Linear(7, 400), lambda: mint.nn.Linear(7, 400), 7),
    "Conv2d": (lambda: torch.nn.Conv2d(16, 64, 3), lambda: mint.nn.Conv2d(16, 64, 3), 16 * 9),
    "ConvTranspose2d": (lambda: torch.nn.ConvTranspose2d(64, 32, 3), lambda: mint.nn.ConvTranspose2d(64, 32, 3), 32 * 9),
}


@pytest.mark.parametrize("name", LAYERS)
def test_default_weights_and_biases_are_drawn_as_torch_draws_them(name):
    make_torch, make_mindspore, fan_in = LAYERS[name]
    torch.manual_seed(9)
    mindspore.set_seed(9)
    torch_layers = [make_torch() for _ in range(8)]
    mindspore_layers = [make_mindspore() for _ in range(8)]
    for parameter in ("weight", "bias"):
        torch_values = np.concatenate([getattr(layer, parameter).detach().numpy().ravel() for layer in torch_layers])
        mindspore_values = np.concatenate([getattr(layer, parameter).asnumpy().ravel() for layer in mindspore_layers])
        _assert_same_distribution(torch_values, mindspore_values, 1 / math.sqrt(fan_in), f"{name}.{parameter}")


def test_the_comparison_tells_another_initialiser_apart():
    """The same check rejects a weight drawn otherwise: weight_init='normal' (N(0, 0.01)) and HeUniform without torch's
    a=sqrt(5) (bound sqrt(6/fan_in), 2.4 times wider)."""
    torch.manual_seed(9)
    mindspore.set_seed(9)
    torch_values = torch.nn.Linear(300, 400).weight.detach().numpy()
    for weight_init in ("normal", "he_uniform"):
        other = mint.nn.Linear(300, 400, weight_init=weight_init).weight.asnumpy()
        assert _kolmogorov_smirnov(torch_values, other) > 10 * _critical(torch_values.size, other.size), weight_init
