import tensorflow as tf
model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
model.compile(optimizer="adam")
