"""A Keras image classifier trained with model.fit, written for TensorFlow 2."""

import numpy as np
import tensorflow as tf
from tensorflow.keras import layers


def build_model(num_classes: int) -> tf.keras.Model:
    inputs = tf.keras.Input(shape=(32, 32, 3))
    x = layers.Conv2D(32, 3, padding="same", activation="relu")(inputs)
    x = layers.MaxPooling2D()(x)
    x = layers.Conv2D(64, 3, padding="same", activation="relu")(x)
    x = layers.BatchNormalization()(x)
    x = layers.GlobalAveragePooling2D()(x)
    x = layers.Dropout(0.3)(x)
    outputs = layers.Dense(num_classes)(x)
    return tf.keras.Model(inputs, outputs)


def main():
    images = np.random.rand(256, 32, 32, 3).astype("float32")
    labels = np.random.randint(0, 10, size=(256,))
    model = build_model(10)
    model.compile(
        optimizer=tf.keras.optimizers.Adam(learning_rate=1e-3),
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
    model.fit(images, labels, batch_size=32, epochs=2)
    probabilities = tf.nn.softmax(model(images[:4]))
    print(tf.argmax(probabilities, axis=-1))


if __name__ == "__main__":
    main()
