"""ascend-migrate corpus addition (not from pytorch/examples): a small CNN in place of torchvision.models, so the
ImageNet script runs without torchvision and in seconds. Its `features`/`classifier` split is AlexNet/VGG's."""

import torch.nn as nn


def small_cnn(num_classes=10):
    return SmallCNN(num_classes)


class SmallCNN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(inplace=True),
                                      nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(inplace=True),
                                      nn.AdaptiveAvgPool2d(1))
        self.classifier = nn.Linear(32, num_classes)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))
