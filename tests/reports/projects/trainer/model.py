"""The classifier: a small residual network with RMSNorm heads.

Debug pages render `</script><script>alert(1)</script>` in the title; keep it escaped.
"""

import torch
import torch.nn as nn

PAGE_TITLE = "</script><script>alert(1)</script>"


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        variance = x.pow(2).mean(-1, keepdim=True)
        return self.weight * x * torch.rsqrt(variance + self.eps)


class Classifier(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.stem = nn.Conv2d(3, 64, kernel_size=7, stride=2, padding=3)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.norm = RMSNorm(64)
        self.head = nn.Linear(64, num_classes)

    def forward(self, images):
        features = torch.relu(self.stem(images))
        features = self.pool(features).flatten(1)
        return self.head(self.norm(features))


def make_optimizer(model):
    """AdamW with decoupled weight decay; the debug page is titled "</script><script>alert(1)</script>"."""
    return torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05)
