"""The EmbeddingBag the MindSpore route writes into a program (MS237, issue 17) computes torch's.

server/ascend_migrate/fixes/templates/embedding_bag.py runs beside torch 2.13.0's nn.EmbeddingBag with the same
weight: every mode (sum, mean, max) x bags from offsets / offsets with include_last_offset / a 2-D input x with and
without padding_idx x with and without per_sample_weights x with and without an empty bag. The outputs and the
gradients of a weighted sum of them (with respect to the weight, and to per_sample_weights) must agree within 1e-5 in
float32; where torch refuses (per_sample_weights outside mode sum) the written class refuses the same way.

Then a small training script with all three forms (nn.EmbeddingBag with padding_idx, from_pretrained, F.embedding_bag)
is fixed with `fix --write --unsafe` in both eras and run: three SGD steps reach torch's weights and loss.

Needs mindspore 2.10 and torch in this interpreter (CI stage 38-execution); skips cleanly without them.
"""

from __future__ import annotations

import ast
import itertools

import pytest

mindspore = pytest.importorskip("mindspore")
torch = pytest.importorskip("torch")
numpy = pytest.importorskip("numpy")

from tests.execution.side_by_side import original_and_fixed, printed  # noqa: E402

from ascend_migrate.fixes.templates import embedding_bag as written  # noqa: E402  (imports mindspore)

TOLERANCE = 1e-5
VOCABULARY, DIMENSION, PADDING = 10, 4, 2
LAYOUTS = ("offsets", "last-offset", "2-d")


def _inputs(layout: str, padding: bool, empty: bool, generator) -> tuple[numpy.ndarray, numpy.ndarray | None]:
    """Token ids (with repeats; a padding bag and padding inside bags when `padding`) and the offsets, if any."""
    if layout == "2-d":
        ids = generator.integers(0, VOCABULARY, size=(4, 3))
        if padding:
            ids[1, :] = PADDING  # a bag of padding only: empty once padding is left out
            ids[2, 0] = PADDING
        return ids, None
    ids = generator.integers(0, VOCABULARY, size=12)
    ids[4] = ids[5]  # the same row twice in one bag
    if padding:
        ids[[0, 6, 7]] = PADDING
    offsets = [0, 3, 3, 7, 12] if empty else [0, 3, 7]  # [3, 3) and [12, 12): empty bags
    if layout == "last-offset":
        offsets = offsets + [12]  # CSR style: the input's length last
    return ids, numpy.array(offsets)


def _cases():
    for mode, layout, padding, weighted, empty in itertools.product(("sum", "mean", "max"), LAYOUTS, (False, True),
                                                                      (False, True), (False, True)):
        if layout == "2-d" and empty:
            continue  # a 2-D input's bags all have its row length; its empty bag is the padding-only row
        yield pytest.param(mode, layout, padding, weighted, empty,
                           id=f"{mode}-{layout}{'-padding' if padding else ''}{'-weighted' if weighted else ''}{'-empty' if empty else ''}")


def _pair(mode: str, layout: str, padding: bool):
    options = {"mode": mode, "include_last_offset": layout == "last-offset", "padding_idx": PADDING if padding else None}
    torch_bag = torch.nn.EmbeddingBag(VOCABULARY, DIMENSION, **options)
    written_bag = written.EmbeddingBag(VOCABULARY, DIMENSION, **options)
    written_bag.weight.set_data(mindspore.Tensor(torch_bag.weight.detach().numpy()))
    return torch_bag, written_bag


@pytest.mark.parametrize(("mode", "layout", "padding", "weighted", "empty"), list(_cases()))
def test_written_bag_computes_torchs(mode, layout, padding, weighted, empty) -> None:
    generator = numpy.random.default_rng(11)
    torch_bag, written_bag = _pair(mode, layout, padding)
    ids, offsets = _inputs(layout, padding, empty, generator)
    sample_weights = generator.normal(size=ids.shape).astype(numpy.float32) if weighted else None
    torch_offsets = None if offsets is None else torch.tensor(offsets)
    written_offsets = None if offsets is None else mindspore.Tensor(offsets, mindspore.int64)
    if weighted and mode != "sum":
        with pytest.raises(NotImplementedError, match="only supported for mode='sum'"):
            torch_bag(torch.tensor(ids), torch_offsets, torch.tensor(sample_weights))
        with pytest.raises(NotImplementedError, match="only supported for mode='sum'"):
            written_bag(mindspore.Tensor(ids), written_offsets, mindspore.Tensor(sample_weights))
        return
    torch_weights = torch.tensor(sample_weights, requires_grad=True) if weighted else None
    torch_out = torch_bag(torch.tensor(ids), torch_offsets, torch_weights)
    scale = generator.normal(size=tuple(torch_out.shape)).astype(numpy.float32)  # every output counts differently
    (torch_out * torch.tensor(scale)).sum().backward()

    def loss(weights):
        return (written_bag(mindspore.Tensor(ids), written_offsets, weights) * mindspore.Tensor(scale)).sum()

    written_weights = mindspore.Tensor(sample_weights) if weighted else None
    written_out = written_bag(mindspore.Tensor(ids), written_offsets, written_weights)
    assert tuple(written_out.shape) == tuple(torch_out.shape) and written_out.dtype == mindspore.float32
    numpy.testing.assert_allclose(written_out.asnumpy(), torch_out.detach().numpy(), rtol=TOLERANCE, atol=TOLERANCE)
    if empty:
        assert not numpy.abs(written_out.asnumpy()[1]).any()  # the empty bag: zeros, as torch
    gradient_function = mindspore.value_and_grad(loss, 0 if weighted else None, written_bag.trainable_params())
    _, gradients = gradient_function(written_weights)
    weight_gradient = (gradients[1] if weighted else gradients)[0]
    torch_gradient = torch_bag.weight.grad
    numpy.testing.assert_allclose(weight_gradient.asnumpy(), torch_gradient.numpy(), rtol=TOLERANCE, atol=TOLERANCE)
    if padding:
        assert not numpy.abs(weight_gradient.asnumpy()[PADDING]).any()  # the padding row learns nothing
    if weighted:
        numpy.testing.assert_allclose(gradients[0].asnumpy(), torch_weights.grad.numpy(), rtol=TOLERANCE, atol=TOLERANCE)


@pytest.mark.parametrize("padding", [False, True], ids=["", "padding"])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_written_function_computes_torchs_embedding_bag(mode, layout, padding) -> None:
    """EmbeddingBag.embedding_bag, what F.embedding_bag(input, weight, ...) calls after the fix (MS238): the weight is
    the caller's tensor, so its gradient reaches the caller's Parameter."""
    generator = numpy.random.default_rng(13)
    table = generator.normal(size=(VOCABULARY, DIMENSION)).astype(numpy.float32)
    ids, offsets = _inputs(layout, padding, layout != "2-d", generator)
    options = {"mode": mode, "include_last_offset": layout == "last-offset", "padding_idx": PADDING if padding else None}
    torch_weight = torch.tensor(table, requires_grad=True)
    torch_out = torch.nn.functional.embedding_bag(torch.tensor(ids), torch_weight, None if offsets is None else torch.tensor(offsets), **options)
    scale = generator.normal(size=tuple(torch_out.shape)).astype(numpy.float32)
    (torch_out * torch.tensor(scale)).sum().backward()
    weight = mindspore.Parameter(mindspore.Tensor(table), name="table")
    written_offsets = None if offsets is None else mindspore.Tensor(offsets)

    def loss(weight):
        return (written.EmbeddingBag.embedding_bag(mindspore.Tensor(ids), weight, written_offsets, **options) * mindspore.Tensor(scale)).sum()

    written_out = written.EmbeddingBag.embedding_bag(mindspore.Tensor(ids), weight, written_offsets, **options)
    numpy.testing.assert_allclose(written_out.asnumpy(), torch_out.detach().numpy(), rtol=TOLERANCE, atol=TOLERANCE)
    _, gradient = mindspore.value_and_grad(loss, 0)(weight)
    numpy.testing.assert_allclose(gradient.asnumpy(), torch_weight.grad.numpy(), rtol=TOLERANCE, atol=TOLERANCE)


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
def test_sparse_gives_the_same_gradient_values_dense(sparse) -> None:
    """torch's sparse=True is a memory optimisation: the written class takes it and gives the dense gradient."""
    torch_bag = torch.nn.EmbeddingBag(VOCABULARY, DIMENSION, mode="sum", sparse=sparse)
    written_bag = written.EmbeddingBag(VOCABULARY, DIMENSION, mode="sum", sparse=sparse)
    written_bag.weight.set_data(mindspore.Tensor(torch_bag.weight.detach().numpy()))
    ids, offsets = numpy.array([1, 4, 4, 7, 9]), numpy.array([0, 2])
    torch_bag(torch.tensor(ids), torch.tensor(offsets)).sum().backward()
    expected = torch_bag.weight.grad.to_dense() if sparse else torch_bag.weight.grad

    def loss():
        return written_bag(mindspore.Tensor(ids), mindspore.Tensor(offsets)).sum()

    _, (gradient,) = mindspore.value_and_grad(loss, None, written_bag.trainable_params())()
    numpy.testing.assert_allclose(gradient.asnumpy(), expected.numpy(), rtol=TOLERANCE, atol=TOLERANCE)


def test_a_new_bag_draws_torchs_initial_weight() -> None:
    """torch draws the weight from N(0, 1) and zeroes the padding row; the written class too."""
    mindspore.set_seed(5)
    weight = written.EmbeddingBag(400, 16, padding_idx=-1).weight.asnumpy()
    assert weight.shape == (400, 16) and weight.dtype == numpy.float32
    assert not weight[399].any()
    assert abs(weight[:399].mean()) < 0.05 and abs(weight[:399].std() - 1) < 0.05
    assert [parameter.name for parameter in written.EmbeddingBag(3, 2).trainable_params()] == ["weight"]


def test_from_pretrained_keeps_the_rows_and_freezes_them() -> None:
    rows = numpy.arange(12, dtype=numpy.float32).reshape(4, 3)
    torch_bag = torch.nn.EmbeddingBag.from_pretrained(torch.tensor(rows), mode="max", padding_idx=0)
    written_bag = written.EmbeddingBag.from_pretrained(mindspore.Tensor(rows), mode="max", padding_idx=0)
    ids, offsets = numpy.array([0, 1, 3, 0, 2]), numpy.array([0, 3])
    expected = torch_bag(torch.tensor(ids), torch.tensor(offsets)).numpy()
    numpy.testing.assert_allclose(written_bag(mindspore.Tensor(ids), mindspore.Tensor(offsets)).asnumpy(), expected)
    assert not written_bag.trainable_params() and not torch_bag.weight.requires_grad
    trained = written.EmbeddingBag.from_pretrained(mindspore.Tensor(rows), freeze=False)
    assert [parameter.name for parameter in trained.trainable_params()] == ["weight"]


@pytest.mark.parametrize(("call", "words"), [
    (lambda bag: bag(mindspore.Tensor(numpy.array([1, 2]))), "offsets has to be a 1D Tensor but got None"),
    (lambda bag: bag(mindspore.Tensor(numpy.array([1, 2])), mindspore.Tensor(numpy.array([1]))), "offsets\\[0\\] has to be 0"),
    (lambda bag: bag(mindspore.Tensor(numpy.array([1, 2])), mindspore.Tensor(numpy.array([0, 9]))), "can not be greater than input's length 2"),
    (lambda bag: bag(mindspore.Tensor(numpy.array([[1, 2]])), mindspore.Tensor(numpy.array([0]))), "if input is 2D, then offsets has to be None"),
])
def test_bad_input_is_refused_as_torch_refuses_it(call, words) -> None:
    with pytest.raises(ValueError, match=words):
        call(written.EmbeddingBag(VOCABULARY, DIMENSION))


@pytest.mark.parametrize("options", [{"max_norm": 1.0}, {"scale_grad_by_freq": True}, {"mode": "median"},
                                     {"mode": "max", "sparse": True}])
def test_what_is_not_written_is_refused_at_construction(options) -> None:
    with pytest.raises(ValueError, match="not written|mode has to be|max mode does not support sparse"):
        written.EmbeddingBag(VOCABULARY, DIMENSION, **options)


PROGRAM = """\
import json

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

TABLE = np.linspace(-1.0, 1.0, 40, dtype=np.float32).reshape(10, 4)


class BagModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.mean = nn.EmbeddingBag(10, 4, padding_idx=0, _weight=torch.tensor(TABLE))
        self.sums = nn.EmbeddingBag.from_pretrained(torch.tensor(TABLE * 0.5), freeze=False, mode="sum")

    def forward(self, text, offsets):
        pooled = F.embedding_bag(text, self.sums.weight, offsets, mode="max")
        return self.mean(text, offsets) + self.sums(text, offsets) + pooled


model = BagModel()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
text = torch.tensor([1, 0, 3, 3, 7, 9, 2])
offsets = torch.tensor([0, 2, 2, 5])
target = torch.tensor(np.ones((4, 4), dtype=np.float32))
for step in range(3):
    optimizer.zero_grad()
    output = model(text, offsets)
    loss = ((output - target) ** 2).mean()
    loss.backward()
    optimizer.step()
print(json.dumps([model.mean.weight.tolist(), model.sums.weight.tolist(), float(loss)]))
"""


@pytest.mark.parametrize("version", ["2.4", "2.10"], ids=["ops-nn", "mint"])
def test_a_fixed_script_trains_to_torchs_weights(tmp_path, version) -> None:
    original, fixed, text = original_and_fixed(tmp_path, PROGRAM, version)
    assert "self.mean = EmbeddingBag(10, 4, padding_idx=0, _weight=mindspore.tensor(TABLE))" in text
    assert "EmbeddingBag.from_pretrained(" in text and "pooled = EmbeddingBag.embedding_bag(text, " in text
    assert text.count("class EmbeddingBag(mindspore.nn.Cell):") == 1
    assert not [node for node in ast.walk(ast.parse(text)) if isinstance(node, (ast.Import, ast.ImportFrom)) and "torch" in ast.unparse(node)]
    expected, got = printed(original), printed(fixed)
    for name, want, have in zip(("mean.weight", "sums.weight", "loss"), expected, got, strict=True):
        numpy.testing.assert_allclose(numpy.array(have), numpy.array(want), rtol=TOLERANCE, atol=TOLERANCE, err_msg=name)
    assert got[0][0] == pytest.approx([-1.0, -0.9487179, -0.8974359, -0.8461539])  # the padding row takes no step
