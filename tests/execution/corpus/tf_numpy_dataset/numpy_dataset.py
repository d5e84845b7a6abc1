# Copyright 2019 The TensorFlow Authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
# https://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""Load NumPy data: the code cells of the TensorFlow tutorial notebook, in order (see SOURCE.md)."""

import numpy as np
import tensorflow as tf

# Corpus edit: random uint8 images and labels instead of downloading mnist.npz (tf.keras.utils.get_file).
rng = np.random.default_rng(0)
train_examples = rng.integers(0, 256, size=(256, 28, 28)).astype("uint8")
train_labels = rng.integers(0, 10, size=(256,))
test_examples = rng.integers(0, 256, size=(64, 28, 28)).astype("uint8")
test_labels = rng.integers(0, 10, size=(64,))

train_dataset = tf.data.Dataset.from_tensor_slices((train_examples, train_labels))
test_dataset = tf.data.Dataset.from_tensor_slices((test_examples, test_labels))

BATCH_SIZE = 64
SHUFFLE_BUFFER_SIZE = 100

train_dataset = train_dataset.shuffle(SHUFFLE_BUFFER_SIZE).batch(BATCH_SIZE)
test_dataset = test_dataset.batch(BATCH_SIZE)

model = tf.keras.Sequential([
    tf.keras.layers.Flatten(input_shape=(28, 28)),
    tf.keras.layers.Dense(128, activation='relu'),
    tf.keras.layers.Dense(10)
])

model.compile(optimizer=tf.keras.optimizers.RMSprop(),
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=['sparse_categorical_accuracy'])

model.fit(train_dataset, epochs=1)  # corpus edit: 10 epochs in the original

model.evaluate(test_dataset)
