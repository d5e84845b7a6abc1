"""The Keras attention Cell the fixes write into a program (fixes/templates/keras_attention.py), imported as the real
module: the text the fix writes is this module's class, its sizes and Keras' call order hold, and its dropout acts
only while training (set_train), as Keras' `training` does. Its numbers against Keras' layer (weights copied) are in
mappings/verification/keras_layers_numeric.yaml (tools/keras_layer_check.py, CI stage 39). Needs mindspore."""

from __future__ import annotations

import inspect

import pytest

mindspore = pytest.importorskip("mindspore")
import numpy  # noqa: E402  (mindspore's dependency: absent where mindspore is)

from ascend_migrate.fixes.templates import class_source  # noqa: E402
from ascend_migrate.fixes.templates.keras_attention import KerasMultiHeadAttention  # noqa: E402


def test_the_fix_writes_the_class_of_the_template_module():
    assert class_source("keras_attention", "KerasMultiHeadAttention") == inspect.getsource(KerasMultiHeadAttention).rstrip("\n")


def test_sizes_and_call_order_are_keras():
    cell = KerasMultiHeadAttention(8, 6, 4, num_heads=3, key_dim=5, value_dim=7)
    cell.set_train(False)
    generator = numpy.random.default_rng(0)
    query, value, key = (mindspore.Tensor(generator.normal(size=shape).astype("float32")) for shape in ((2, 5, 8), (2, 9, 6), (2, 9, 4)))
    assert cell(query, value, key).shape == (2, 5, 8)  # back to the query's size
    assert cell.value_dense.weight.shape == (21, 6) and cell.key_dense.weight.shape == (15, 4)
    with pytest.raises((ValueError, TypeError, RuntimeError)):
        cell(query, value)  # without a key, the value (size 6) is the key: the key projection takes 4


def test_dropout_acts_only_while_training():
    cell = KerasMultiHeadAttention(8, 8, 8, num_heads=2, key_dim=16, dropout=0.5)
    inputs = mindspore.Tensor(numpy.random.default_rng(1).normal(size=(2, 5, 8)).astype("float32"))
    cell.set_train(False)
    assert numpy.array_equal(cell(inputs, inputs).asnumpy(), cell(inputs, inputs).asnumpy())
    cell.set_train(True)
    assert not numpy.array_equal(cell(inputs, inputs).asnumpy(), cell(inputs, inputs).asnumpy())
