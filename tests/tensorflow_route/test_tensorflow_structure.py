"""Program structure of Keras code: layers and models become Cells, call becomes construct, build moves to __init__."""

from __future__ import annotations

ENCODER = """
    import keras
    import tensorflow as tf
    from keras import layers


    class Encoder(layers.Layer):
        def __init__(self, dim):
            super().__init__()
            self.dense = layers.Dense(dim)

        def build(self, input_shape):
            self.scale = self.add_weight(shape=(input_shape[-1],))

        def call(self, x, training=False):
            return self.dense(x) * self.scale


    class Net(tf.keras.Model):
        def call(self, x):
            return x


    class Plain:
        def call(self, x):
            return x

        def build(self):
            return self
"""


def test_keras_classes_get_the_structure_findings_and_plain_classes_none(scan):
    rows = [(finding.line, finding.code, finding.api) for finding in scan(ENCODER).findings]
    assert rows == [
        (7, "MS201", "keras.layers.Layer"),
        (10, "MS102", "keras.layers.Dense"),
        (12, "MS201", "tensorflow.keras.Layer.build"),
        (13, "MS102", "tensorflow.keras.Layer.add_weight"),  # the weight becomes a mindspore.Parameter
        (15, "MS202", "tensorflow.keras.Layer.call"),
        (19, "MS201", "tensorflow.keras.Model"),
        (20, "MS202", "tensorflow.keras.Model.call"),
    ]


def test_the_training_argument_is_named_in_the_call_finding(scan):
    (call,) = [finding for finding in scan(ENCODER).findings if finding.api == "tensorflow.keras.Layer.call"]
    assert "set_train" in call.message + call.suggestion
