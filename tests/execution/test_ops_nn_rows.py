"""The ops/nn-era rows derived for names the tables mapped only to mint (tools/generate_mappings/ops_nn_rows.py) compute
what torch computes: a program of such calls, by position and by keyword, fixed with `fix --write --unsafe
--mindspore-version 2.4`, prints the same values, dtypes and shapes as torch's original; and the forms the rows with no
fix tell the user to write (`fix: none`) are run against torch here, as are the differences the rows state.
Runs torch 2.13.0 and mindspore 2.10.0 on CPU side by side; skips cleanly without them (CI stage 38-execution).
"""

from __future__ import annotations

import math

import pytest
from tests.execution.side_by_side import original_and_fixed, printed

np = pytest.importorskip("numpy")
torch = pytest.importorskip("torch")
mindspore = pytest.importorskip("mindspore")

PROGRAM = '''\
import json

import numpy
import torch
import torch.nn.functional as F

random = numpy.random.default_rng(0)
a = torch.tensor(random.standard_normal((4, 5)).astype(numpy.float32))
b = torch.tensor(random.standard_normal((4, 5)).astype(numpy.float32))
batch = torch.tensor(random.standard_normal((3, 4, 4)).astype(numpy.float32))
index = torch.tensor(random.integers(0, 5, (4, 3)))
labels = torch.tensor(numpy.array([0, 2, 1, 3, 4]))
volume = torch.tensor(random.standard_normal((1, 2, 3, 4, 5)).astype(numpy.float32))
positive = torch.tensor((numpy.abs(random.standard_normal((4, 5))) + 0.1).astype(numpy.float32))


def described(value):
    return {"values": value.tolist(), "dtype": str(value.dtype).rsplit(".", 1)[-1].lower(), "shape": list(value.shape)}


def shaped(value):  # the values of an empty tensor are unspecified
    return {"dtype": str(value.dtype).rsplit(".", 1)[-1].lower(), "shape": list(value.shape)}


copy = torch.clone(a)
a_before = copy.tolist()
a[0, 0] = 100.0
results = {
    "triu": described(torch.triu(a, 1)),
    "triu keyword": described(torch.triu(batch, diagonal=-1)),
    "gather": described(torch.gather(b, 1, index)),
    "gather keyword": described(torch.gather(b, dim=1, index=index)),
    "one_hot": described(F.one_hot(labels, 5)),
    "one_hot keyword": described(F.one_hot(labels, num_classes=6)),
    "inv": described(torch.linalg.inv(batch)),
    "arctan2": described(torch.arctan2(b, positive)),
    "arctan2 keyword": described(torch.arctan2(b, other=positive)),
    "method arctan2": described(b.arctan2(positive)),
    "method arctan2 keyword": described(b.arctan2(other=positive)),
    "concat": described(torch.concat([b, positive], 1)),
    "concat keyword": described(torch.concat((b, positive), dim=0)),
    "clone": [copy.tolist() == a_before, described(copy)],
    "empty": shaped(torch.empty(2, 3)),
    "empty tuple dtype": shaped(torch.empty((2, 3), dtype=torch.float64)),
    "empty_like": shaped(torch.empty_like(b)),
    "empty_like dtype": shaped(torch.empty_like(b, dtype=torch.int32)),
    "erfc": described(torch.special.erfc(b * 3)),
    "exp2": described(torch.special.exp2(b * 3)),
    "expm1": described(torch.special.expm1(b)),
    "log1p": described(torch.special.log1p(positive)),
    "sinc": described(torch.special.sinc(b * 3)),
    "round": described(torch.special.round(b * 3)),
    "log_softmax": described(torch.special.log_softmax(b, 1)),
    "log_softmax keyword": described(torch.special.log_softmax(b, dim=0)),
    "Mish": described(torch.nn.Mish()(b)),
    "ReflectionPad3d": described(torch.nn.ReflectionPad3d(1)(volume)),
    "ReflectionPad3d tuple": described(torch.nn.ReflectionPad3d((1, 0, 2, 1, 0, 2))(volume)),
    "norm": described(torch.norm(b)),
    "norm fro": described(torch.norm(b, "fro")),
    "norm dim": described(torch.norm(b, 2, 1)),
    "norm keyword": described(torch.norm(b, p=1, dim=1, keepdim=True)),
}
print(json.dumps(results))
'''

# what the fix writes for each derived row (the renames and keyword renames of the rows)
WRITTEN = (
    "mindspore.ops.triu(a, 1)", "mindspore.ops.triu(batch, diagonal=-1)",
    "mindspore.ops.gather_elements(b, 1, index)", "mindspore.ops.gather_elements(b, dim=1, index=index)",
    "mindspore.ops.one_hot(labels, 5)", "mindspore.ops.one_hot(labels, depth=6)",
    "mindspore.ops.inverse(batch)", "mindspore.ops.atan2(b, positive)", "mindspore.ops.atan2(b, other=positive)",
    "b.atan2(positive)", "b.atan2(other=positive)",
    "mindspore.ops.cat([b, positive], 1)", "mindspore.ops.cat((b, positive), axis=0)", "mindspore.ops.deepcopy(a)",
    "mindspore.ops.zeros((2, 3))", "mindspore.ops.zeros((2, 3), dtype=mindspore.float64)",
    "mindspore.ops.zeros_like(b)", "mindspore.ops.zeros_like(b, dtype=mindspore.int32)",
    "mindspore.ops.erfc(b * 3)", "mindspore.ops.exp2(b * 3)", "mindspore.ops.expm1(b)", "mindspore.ops.log1p(positive)",
    "mindspore.ops.sinc(b * 3)", "mindspore.ops.round(b * 3)", "mindspore.ops.log_softmax(b, 1)",
    "mindspore.ops.log_softmax(b, axis=0)", "mindspore.nn.Mish()(b)", "mindspore.nn.ReflectionPad3d(1)(volume)",
    "mindspore.ops.norm(b)", "mindspore.ops.norm(b, \"fro\")", "mindspore.ops.norm(b, 2, 1)",
    "mindspore.ops.norm(b, ord=1, dim=1, keepdim=True)",
)


def _close(expected, actual, where: str = "") -> None:
    """Equal structure, equal strings and bools, numbers within 1e-5 (relative) or 1e-6."""
    if isinstance(expected, dict):
        assert expected.keys() == actual.keys(), where
        for key in expected:
            _close(expected[key], actual[key], f"{where}/{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(expected) == len(actual), where
        for position, (left, right) in enumerate(zip(expected, actual, strict=True)):
            _close(left, right, f"{where}[{position}]")
    elif isinstance(expected, float) or isinstance(actual, float):
        assert math.isclose(expected, actual, rel_tol=1e-5, abs_tol=1e-6), (where, expected, actual)
    else:
        assert expected == actual, (where, expected, actual)


def test_each_derived_row_fixed_for_ops_nn_computes_what_torch_computes(tmp_path):
    original, fixed, text = original_and_fixed(tmp_path, PROGRAM)
    missing = [form for form in WRITTEN if form not in text]
    assert not missing, (missing, text)
    assert "torch." not in text.replace("import torch", ""), text
    _close(printed(original), printed(fixed))


def _ms(array) -> mindspore.Tensor:
    return mindspore.Tensor(np.asarray(array))


RANDOM = np.random.default_rng(1)
A = RANDOM.standard_normal((4, 5)).astype(np.float32)
B = RANDOM.standard_normal((4, 5)).astype(np.float32)


def _same(torch_value, mindspore_value) -> None:
    expected, actual = torch_value.detach().numpy(), mindspore_value.asnumpy()
    assert expected.shape == actual.shape and expected.dtype == actual.dtype
    np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-6)


def test_padding_rows_without_a_fix_say_what_computes_torchs_padding():
    """ZeroPad1d/ZeroPad3d: ConstantPad1d/3d(padding, 0.0), as the rows' notes say."""
    rows = RANDOM.standard_normal((2, 3, 5)).astype(np.float32)
    volume = RANDOM.standard_normal((1, 2, 3, 4, 5)).astype(np.float32)
    for padding in (2, (1, 3)):
        _same(torch.nn.ZeroPad1d(padding)(torch.tensor(rows)), mindspore.nn.ConstantPad1d(padding, 0.0)(_ms(rows)))
    for padding in (1, (1, 0, 2, 1, 0, 2)):
        _same(torch.nn.ZeroPad3d(padding)(torch.tensor(volume)), mindspore.nn.ConstantPad3d(padding, 0.0)(_ms(volume)))


def test_fold_is_ops_fold_with_the_output_size_as_a_tensor():
    blocks = RANDOM.standard_normal((1, 12, 12)).astype(np.float32)
    torch_value = torch.nn.Fold((4, 5), 2)(torch.tensor(blocks))
    _same(torch_value, mindspore.ops.fold(_ms(blocks), _ms(np.array([4, 5], np.int32)), 2))


def test_equal_and_allclose_are_one_bool_from_the_elementwise_comparison():
    def equal(a, b):
        return a.shape == b.shape and bool(mindspore.ops.equal(a, b).all())

    def allclose(a, b, **tolerances):
        return bool(mindspore.ops.isclose(a, b, **tolerances).all())

    for left, right in ((A, A), (A, B), (A, A.copy())):
        assert torch.equal(torch.tensor(left), torch.tensor(right)) is equal(_ms(left), _ms(right))
    assert torch.equal(torch.tensor(A), torch.tensor(A[:2])) is equal(_ms(A), _ms(A[:2])) is False
    for left, right, tolerances in ((A, A + 1e-9, {}), (A, B, {}), (A, B, {"atol": 10.0})):
        assert torch.allclose(torch.tensor(left), torch.tensor(right), **tolerances) is allclose(
            _ms(left), _ms(right), **tolerances)
    assert isinstance(mindspore.ops.equal(_ms(A), _ms(A)), mindspore.Tensor)  # what a rename would have returned


def test_select_is_ops_gather_with_a_tensor_index_not_ops_select():
    for dim, index in ((1, 2), (0, -1)):
        _same(torch.select(torch.tensor(A), dim, index), mindspore.ops.gather(_ms(A), _ms(np.int64(index)), dim))


def test_normalize_is_l2normalize_with_the_squared_epsilon():
    zero_rows = np.concatenate([A, np.zeros((2, 5), np.float32)])
    for values, dim in ((A, 1), (A, 0), (zero_rows, 1)):
        torch_value = torch.nn.functional.normalize(torch.tensor(values), dim=dim)
        _same(torch_value, mindspore.ops.L2Normalize(axis=dim, epsilon=1e-24)(_ms(values)))


def test_embedding_is_ops_gather_of_the_weight_rows():
    weight = RANDOM.standard_normal((10, 3)).astype(np.float32)
    index = RANDOM.integers(0, 10, (2, 4))
    torch_value = torch.nn.functional.embedding(torch.tensor(index), torch.tensor(weight))
    _same(torch_value, mindspore.ops.gather(_ms(weight), _ms(index), 0))


def test_relu_in_place_is_an_assignment_of_ops_relu():
    torch_value = torch.tensor(A)
    torch.nn.functional.relu_(torch_value)
    value = _ms(A)
    value = mindspore.ops.relu(value)
    _same(torch_value, value)


def test_scatter_add_is_tensor_scatter_elements_with_add():
    index = RANDOM.integers(0, 5, (4, 3))
    source = RANDOM.standard_normal((4, 3)).astype(np.float32)
    torch_value = torch.tensor(A).scatter_add(1, torch.tensor(index), torch.tensor(source))
    _same(torch_value, mindspore.ops.tensor_scatter_elements(_ms(A), _ms(index), _ms(source), 1, "add"))


def test_the_differences_the_rows_state_are_real():
    """torch.norm with a number p and no dim on 2-D input: a matrix norm in MindSpore (the row's note and its
    suggested form); special.round with decimals: refused on the CPU."""
    for p in (1, 2, float("inf")):
        expected = torch.norm(torch.tensor(A), p).item()
        assert not math.isclose(mindspore.ops.norm(_ms(A), p).asnumpy().item(), expected, rel_tol=1e-3)
        assert math.isclose(mindspore.ops.norm(_ms(A).flatten(), p).asnumpy().item(), expected, rel_tol=1e-5)
    with pytest.raises(RuntimeError, match="decimals"):
        mindspore.ops.round(_ms(A), decimals=2).asnumpy()


def test_edge_inputs_differ_where_the_rows_say_and_only_there():
    """expm1/log1p of -0.0 lose the sign, Mish of inf is NaN (the rows' edge lines); erfc, exp2, sinc and round
    agree on the same edge inputs (their rows are equivalent)."""
    edges = np.array([-0.0, 0.0, np.nan, np.inf, -np.inf, -1.0], np.float32)
    for name in ("erfc", "exp2", "sinc", "round"):
        expected = getattr(torch.special, name)(torch.tensor(edges)).numpy()
        actual = getattr(mindspore.ops, name)(_ms(edges)).asnumpy()
        np.testing.assert_array_equal(actual, expected)
        assert (np.signbit(actual) == np.signbit(expected)).all(), name
    for name in ("expm1", "log1p"):
        expected = getattr(torch.special, name)(torch.tensor(edges[:1])).numpy()
        actual = getattr(mindspore.ops, name)(_ms(edges[:1])).asnumpy()
        assert actual[0] == expected[0] == 0.0 and np.signbit(expected[0]) and not np.signbit(actual[0]), name
    assert torch.nn.Mish()(torch.tensor(edges[3:4])).item() == math.inf
    assert math.isnan(mindspore.nn.Mish()(_ms(edges[3:4])).asnumpy()[0])
