"""The MindSpore (mindspore.nn, runs on CPU) counterpart of cnn_torch.SmallCNN, written for these tests."""

from mindspore import nn, ops


class SmallCNN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.features = nn.SequentialCell([
            nn.Conv2d(3, 8, 3, pad_mode="pad", padding=1, has_bias=True), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2, 2),
            nn.Conv2d(8, 16, 3, pad_mode="pad", padding=1, has_bias=False), nn.BatchNorm2d(16), nn.ReLU(),
        ])
        self.classifier = nn.Dense(16, 10)

    def construct(self, x):
        x = self.features(x)
        return self.classifier(ops.flatten(x.mean(axis=(2, 3), keep_dims=True), start_dim=1))


