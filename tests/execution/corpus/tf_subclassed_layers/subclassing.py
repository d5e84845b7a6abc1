"""
Title: Making new layers and models via subclassing
Author: [fchollet](https://twitter.com/fchollet)
Date created: 2019/03/01
Last modified: 2023/03/16
Description: Complete guide to writing `Layer` and `Model` objects from scratch.
Accelerator: GPU
"""

# Copyright the keras-io authors. Licensed under the Apache License, Version 2.0 (see SOURCE.md).
# An excerpt of the guide: its setup, the first `Linear` layer and its use, and `CustomDropout` (see SOURCE.md).

"""
## Setup
"""

import tensorflow as tf
from tensorflow import keras

"""
## The `Layer` class: the combination of state (weights) and some computation
"""


class Linear(keras.layers.Layer):
    def __init__(self, units=32, input_dim=32):
        super().__init__()
        self.w = self.add_weight(
            shape=(input_dim, units), initializer="random_normal", trainable=True
        )
        self.b = self.add_weight(shape=(units,), initializer="zeros", trainable=True)

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b


"""
You would use a layer by calling it on some tensor input(s), much like a Python
function.
"""

x = tf.ones((2, 2))
linear_layer = Linear(4, 2)
y = linear_layer(x)
print(y)

"""
## Privileged `training` argument in the `call()` method
"""


class CustomDropout(keras.layers.Layer):
    def __init__(self, rate, **kwargs):
        super().__init__(**kwargs)
        self.rate = rate

    def call(self, inputs, training=False):
        if training:
            return tf.nn.dropout(inputs, rate=self.rate)
        return inputs


# Corpus edit: the guide defines CustomDropout without calling it; a call runs it (inference: training is False).
dropout = CustomDropout(0.5)
print(dropout(y))
