"""The recurrent cells the MindSpore route writes where a program computes in float64 (MS255, issue 17) compute
torch's cells.

Each class of server/ascend_migrate/fixes/templates/recurrent_cells.py runs beside torch 2.13.0's cell with the same
weights, in float64 and in float32, batched and unbatched, with the state given and left out: the outputs and the
gradients of a loss with respect to the input and every weight must agree. mindspore.nn's own cells refuse float64
(checked here too, so the template is dropped when a release takes it).

Needs mindspore 2.10 and torch in this interpreter (CI stage 38-execution); skips cleanly without them.
"""

from __future__ import annotations

import pytest

mindspore = pytest.importorskip("mindspore")
torch = pytest.importorskip("torch")
numpy = pytest.importorskip("numpy")

from ascend_migrate.fixes.templates import recurrent_cells as written  # noqa: E402  (imports mindspore)

WEIGHTS = ("weight_ih", "weight_hh", "bias_ih", "bias_hh")
DTYPES = {"float64": (torch.float64, mindspore.float64, 1e-12), "float32": (torch.float32, mindspore.float32, 2e-5)}
# (cell name, constructor keywords for torch's cell, for the written one)
CELLS = [("LSTMCell", {}, {}), ("GRUCell", {}, {}), ("RNNCell", {}, {}),
         ("RNNCell", {"nonlinearity": "relu"}, {"nonlinearity": "relu"})]


def _state(name: str, batch: tuple, hidden: int, generator) -> tuple:
    shape = (*batch, hidden)
    if name == "LSTMCell":
        return (generator.normal(size=shape), generator.normal(size=shape))
    return generator.normal(size=shape)


def _as(value, convert):
    return tuple(convert(part) for part in value) if isinstance(value, tuple) else convert(value)


def _pair(name: str, torch_options: dict, written_options: dict, dtype: str, bias: bool = True):
    torch_dtype, mindspore_dtype, _ = DTYPES[dtype]
    torch_cell = getattr(torch.nn, name)(3, 5, bias=bias, **torch_options).to(torch_dtype)
    written_cell = getattr(written, name)(3, 5, bias=bias, dtype=mindspore_dtype, **written_options)
    for weight in WEIGHTS if bias else WEIGHTS[:2]:
        getattr(written_cell, weight).set_data(mindspore.Tensor(getattr(torch_cell, weight).detach().numpy()))
    return torch_cell, written_cell


@pytest.mark.parametrize("dtype", sorted(DTYPES))
@pytest.mark.parametrize("batch", [(4,), ()], ids=["batched", "unbatched"])
@pytest.mark.parametrize("given_state", [True, False], ids=["state", "no-state"])
@pytest.mark.parametrize(("name", "torch_options", "written_options"), CELLS, ids=["lstm", "gru", "rnn-tanh", "rnn-relu"])
def test_written_cell_computes_torchs(name, torch_options, written_options, given_state, batch, dtype) -> None:
    torch_dtype, mindspore_dtype, tolerance = DTYPES[dtype]
    generator = numpy.random.default_rng(7)
    torch_cell, written_cell = _pair(name, torch_options, written_options, dtype)
    data = generator.normal(size=(*batch, 3))
    state = _state(name, batch, 5, generator) if given_state else None

    def to_torch(array):
        return torch.tensor(array, dtype=torch_dtype)

    def to_mindspore(array):
        return mindspore.Tensor(array, mindspore_dtype)

    torch_input = to_torch(data).requires_grad_()
    torch_out = torch_cell(torch_input, _as(state, to_torch) if given_state else None)
    torch_total = sum(part.sum() for part in torch_out) if isinstance(torch_out, tuple) else torch_out.sum()
    torch_total.backward()

    parameters = written_cell.trainable_params()

    def forward(x):
        out = written_cell(x, _as(state, to_mindspore) if given_state else None)
        return sum(part.sum() for part in out) if isinstance(out, tuple) else out.sum()

    written_out = written_cell(to_mindspore(data), _as(state, to_mindspore) if given_state else None)
    _, (input_grad, weight_grads) = mindspore.value_and_grad(forward, 0, parameters)(to_mindspore(data))
    for torch_part, written_part in zip(*(value if isinstance(value, tuple) else (value,) for value in (torch_out, written_out)), strict=True):
        assert written_part.dtype == mindspore_dtype and tuple(written_part.shape) == tuple(torch_part.shape)
        assert numpy.allclose(written_part.asnumpy(), torch_part.detach().numpy(), rtol=tolerance, atol=tolerance)
    assert numpy.allclose(input_grad.asnumpy(), torch_input.grad.numpy(), rtol=tolerance, atol=tolerance)
    for parameter, gradient in zip(parameters, weight_grads, strict=True):
        expected = getattr(torch_cell, parameter.name.rsplit(".", 1)[-1]).grad.numpy()
        assert numpy.allclose(gradient.asnumpy(), expected, rtol=tolerance, atol=tolerance), parameter.name


@pytest.mark.parametrize("name", ["LSTMCell", "GRUCell", "RNNCell"])
def test_without_bias_there_are_two_weights_and_the_same_output(name) -> None:
    torch_cell, written_cell = _pair(name, {}, {}, "float64", bias=False)
    assert sorted(parameter.name for parameter in written_cell.trainable_params()) == ["weight_hh", "weight_ih"]
    data = numpy.random.default_rng(3).normal(size=(2, 3))
    expected = torch_cell(torch.tensor(data))
    got = written_cell(mindspore.Tensor(data))
    for torch_part, written_part in zip(*(value if isinstance(value, tuple) else (value,) for value in (expected, got)), strict=True):
        assert numpy.allclose(written_part.asnumpy(), torch_part.detach().numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", ["LSTMCell", "GRUCell", "RNNCell"])
def test_mindspores_own_cell_still_refuses_float64(name) -> None:
    """Why the template exists: when mindspore.nn's cell takes float64, the rule (analysis/rules/recurrent_cells.py)
    should go back to the library's cell."""
    cell = getattr(mindspore.nn, name)(3, 5)
    data = mindspore.Tensor(numpy.zeros((2, 3)), mindspore.float64)
    state = mindspore.Tensor(numpy.zeros((2, 5)), mindspore.float64)
    with pytest.raises(TypeError, match="float32"):
        cell(data, (state, state) if name == "LSTMCell" else state)


def test_initial_weights_lie_in_torchs_bound() -> None:
    cell = written.LSTMCell(3, 16, dtype=mindspore.float64)
    bound = 1 / 16 ** 0.5
    for weight in WEIGHTS:
        values = getattr(cell, weight).asnumpy()
        assert values.dtype == numpy.float64 and numpy.abs(values).max() <= bound and values.std() > bound / 4
