"""Keras metrics as a custom loop uses them, checked against NumPy: the same numbers before and after the fix."""

import numpy as np
import tensorflow as tf

train_loss = tf.keras.metrics.Mean(name="train_loss")
train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")
onehot_accuracy = tf.keras.metrics.CategoricalAccuracy(name="onehot_accuracy")

rng = np.random.default_rng(0)
losses, matches = [], []
for epoch in range(2):
    train_loss.reset_state()
    train_accuracy.reset_state()
    onehot_accuracy.reset_state()
    losses, matches = [], []
    for step in range(5):
        loss = np.array(rng.random() * 3, dtype="float32")  # a 0-d array, as a step returns its loss
        labels = rng.integers(0, 10, size=(8,))
        predictions = rng.normal(size=(8, 10)).astype("float32")
        train_loss(loss)
        train_accuracy(labels, predictions)
        onehot_accuracy.update_state(np.eye(10, dtype="float32")[labels], predictions)
        losses.append(loss)
        matches.extend(predictions.argmax(axis=1) == labels)
    print(f"epoch {epoch}: loss {float(train_loss.result()):.6f}, accuracy {float(train_accuracy.result()):.6f}")
    assert abs(float(train_loss.result()) - float(np.mean(losses))) < 1e-6
    assert abs(float(train_accuracy.result()) - float(np.mean(matches))) < 1e-6
    assert abs(float(onehot_accuracy.result()) - float(np.mean(matches))) < 1e-6
print(f'Loss: {train_loss.result():0.2f}, Accuracy: {train_accuracy.result() * 100:0.2f}')
