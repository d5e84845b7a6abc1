"""A small residual network for CIFAR-10, written for PyTorch."""

import torch
import torch.nn as nn
from mindspore import mint


class ResidualBlock(nn.Module):
    """Two 3x3 convolutions with a shortcut."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.first = nn.Conv2d(channels, channels, kernel_size=3, padding=1)
        self.second = nn.Conv2d(channels, channels, kernel_size=3, padding=1)
        self.activation = mint.nn.ReLU()

    def forward(self, inputs):
        hidden = self.activation(self.first(inputs))
        return self.activation(inputs + self.second(hidden))


class SmallResNet(nn.Module):
    def __init__(self, classes: int = 10) -> None:
        super().__init__()
        self.stem = nn.Conv2d(3, 32, kernel_size=3, padding=1)
        self.blocks = nn.Sequential(ResidualBlock(32), ResidualBlock(32))
        self.head = mint.nn.Linear(32 * 32 * 32, classes)

    def forward(self, images):
        features = self.blocks(self.stem(images))
        return self.head(mint.flatten(features, 1))


def export(model: SmallResNet, path: str) -> None:
    model.set_train(False)
    torch.save(model.state_dict(), path)
    model.set_train(True)
