# ruff: noqa: UP031, UP032  (the str.format and % forms are what this file checks)
"""What mindspore 2.10's Tensor.__format__ accepts (the knowledge base's MS230 entry rests on this run): no format
spec at all, for any shape, where torch formats a 0-d tensor as its number. Needs mindspore (CI stage 38)."""

from __future__ import annotations

import pytest

mindspore = pytest.importorskip("mindspore")
numpy = pytest.importorskip("numpy")

SPECS = ["{:.2f}", "{:+.2f}", "{:>10}", "{:d}"]


def tensors():
    vector = mindspore.Tensor(numpy.array([1.5, 2.5], numpy.float32))
    return {
        "0-d": mindspore.Tensor(1.5, mindspore.float32),
        "1-element": mindspore.Tensor(numpy.array([1.5], numpy.float32)),
        "2-element": vector,
        "element of a 1-d": [element for element in vector][0],
        "indexed": vector[0],
    }


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("shape", ["0-d", "1-element", "2-element", "element of a 1-d", "indexed"])
def test_every_format_spec_on_a_mindspore_tensor_raises(spec, shape):
    tensor = tensors()[shape]
    for formatting in (lambda: spec.format(tensor), lambda: format(tensor, spec[2:-1]), lambda: f"{tensor:{spec[2:-1]}}"):
        with pytest.raises(TypeError, match="unsupported format string passed to Tensor.__format__"):
            formatting()


@pytest.mark.parametrize("shape", ["0-d", "1-element", "element of a 1-d", "indexed"])
def test_plain_formats_and_the_item_work(shape):
    tensor = tensors()[shape]
    assert "1.5" in "{}".format(tensor) and "1.5" in f"{tensor}" and "Tensor(" in "{!r}".format(tensor)
    assert "%.2f" % tensor == "1.50"
    assert "{:+.2f}".format(tensor.item()) == "+1.50"  # what the MS230 fix writes


def test_torch_formats_a_0_d_tensor_with_a_spec():
    torch = pytest.importorskip("torch")
    assert "{:+.2f}".format(torch.tensor(1.5)) == "+1.50"
    with pytest.raises(TypeError):
        "{:.2f}".format(torch.tensor([1.5, 2.5]))
