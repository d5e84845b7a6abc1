"""Keras layer internals on the MindSpore route: weights made with add_weight, changed with assign, and the calls on
super() in a layer, found on any Keras layer class (a subclass of Dense too), and nowhere else."""

from __future__ import annotations

LAYER = """
    import tensorflow as tf


    class Noisy(tf.keras.layers.Dense):
        def __init__(self, units, **kwargs):
            super().__init__(units, **kwargs)

        def build(self, input_shape):
            self.w = self.add_weight("w", shape=[input_shape[-1], self.units])
            if self.use_bias:
                self.b = self.add_weight("b", shape=[self.units])
            else:
                self.b = None

        def reset(self):
            self.w.assign(tf.zeros_like(self.w))
            self.b.assign(tf.zeros([self.units]))

        def call(self, inputs):
            return super().call(inputs)

        def get_config(self):
            return super().get_config()


    class Quiet(tf.keras.layers.Layer):
        def __init__(self):
            super().__init__()


    class Named(tf.keras.layers.Layer):
        def __init__(self):
            super().__init__(name="named")


    class Forward(tf.keras.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)


    class Other:
        def __init__(self, weight):
            self.weight = weight

        def reset(self):
            self.weight.assign(0)
"""


def _rows(result):
    return [(finding.line, finding.api) for finding in result.findings]


def test_a_subclass_of_a_keras_layer_gets_the_layer_findings(scan):
    rows = _rows(scan(LAYER))
    assert (7, "tensorflow.keras.Layer.__init__") in rows  # **kwargs carries Keras' name/dtype to a Cell
    assert (9, "tensorflow.keras.Layer.build") in rows
    assert [line for line, api in rows if api == "tensorflow.keras.Layer.add_weight"] == [10, 12]
    # the bias is None in one branch: still a weight where it is assigned
    assert [line for line, api in rows if api == "tensorflow.Variable.assign"] == [17, 18]
    assert (20, "tensorflow.keras.Layer.call") in rows and (21, "tensorflow.keras.Layer.call") in rows
    assert (24, "tensorflow.keras.Layer.get_config") in rows


def test_super_init_without_keras_arguments_and_plain_objects_are_left_alone(scan):
    rows = _rows(scan(LAYER))
    assert not [row for row in rows if row[0] == 29]  # super().__init__() passes nothing a Cell refuses
    assert (34, "tensorflow.keras.Layer.__init__") in rows  # name= is a Keras argument
    assert (39, "tensorflow.keras.Layer.__init__") in rows  # **kwargs may carry name, dtype, trainable
    assert not [row for row in rows if row[0] > 41]  # Other.weight is not known to be a weight


def test_super_in_a_torch_module_is_not_typed_by_the_keras_rule(scan):
    result = scan("""
        import torch
        from torch import nn


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
    """)
    assert _rows(result) == [(6, "torch.nn.Module")]
