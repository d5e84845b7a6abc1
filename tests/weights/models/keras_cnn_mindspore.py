"""The MindSpore (mindspore.nn, runs on CPU) counterpart of the Keras CNN built in test_keras.py, written for these tests."""

from mindspore import nn


class KerasCNN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, pad_mode="same", has_bias=True)
        self.bn = nn.BatchNorm2d(4, eps=1e-3)  # Keras BatchNormalization's default epsilon
        self.relu = nn.ReLU()
        self.fc = nn.Dense(4, 5)

    def construct(self, x):
        return self.fc(self.relu(self.bn(self.conv(x))).mean(axis=(2, 3)))
