"""A linear regression trained by a custom TensorFlow loop: a tf.data pipeline, a GradientTape step in a tf.function."""

import numpy as np
import tensorflow as tf
from tensorflow import keras


class LinearRegression(keras.Model):
    def __init__(self, features):
        super().__init__()
        self.w = self.add_weight(shape=(features, 1), initializer="zeros", trainable=True)

    def call(self, inputs):
        return tf.matmul(inputs, self.w)


model = LinearRegression(4)
loss_fn = keras.losses.MeanSquaredError()
optimizer = keras.optimizers.SGD(learning_rate=0.05)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        predictions = model(features, training=True)
        loss = loss_fn(targets, predictions)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    return loss


rng = np.random.default_rng(0)
features = rng.normal(size=(64, 4)).astype("float32")
targets = features @ np.array([[1.0], [-2.0], [0.5], [3.0]], dtype="float32")
dataset = tf.data.Dataset.from_tensor_slices((features, targets)).batch(16)
losses = []
for epoch in range(30):
    for batch_features, batch_targets in dataset:
        losses.append(float(train_step(batch_features, batch_targets)))
print(f"loss {losses[0]:.4f} -> {losses[-1]:.4f}")
assert losses[-1] < losses[0] / 100, losses
