"""Shapes measured per call stack and per iteration: each line is named in test_run.py."""

import torch
import torch_npu  # noqa: F401
from torch import nn


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(1))

    def forward(self, x):
        return torch.tanh(x) * self.scale  # PITFALL shared-layer: called from two places, each with its fixed size


def init_weights(module):
    if isinstance(module, nn.Linear):
        module.weight.data.mul_(0.5)  # PITFALL init-over-layers: two layers, two sizes, once each


torch.manual_seed(0)
head, encoder, decoder = Head(), nn.Linear(8, 16), nn.Linear(16, 4)
nn.ModuleList([encoder, decoder]).apply(init_weights)
optimizer = torch.optim.SGD([*encoder.parameters(), *decoder.parameters(), *head.parameters()], lr=0.1)
data = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(16, 8)), batch_size=8)
for epoch in range(3):
    for (x,) in data:
        hidden = head(encoder(x.npu()))
        output = head(decoder(hidden))
        loss = output[: 2 + epoch].mean()  # PITFALL varies-by-epoch: 2, 3 then 4 rows, a new shape each epoch
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
