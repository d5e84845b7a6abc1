"""A training resumed after its last epoch (minGPT-ddp's shape, session 9): it builds the model, whose weight init
visits two identical blocks and a head, its optimizer and DataLoader, and runs no iteration."""

import sys

import torch
import torch_npu  # noqa: F401
from torch import nn


def init_weights(module):
    if isinstance(module, nn.Linear):
        module.weight.data.normal_(0.0, 0.02)  # PITFALL init-over-blocks: 8x8, 16x8, 8x16 twice, then 4x8


blocks = [nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 16), nn.Linear(16, 8)) for _ in range(2)]
model = nn.Sequential(*blocks, nn.Linear(8, 4)).npu()
model.apply(init_weights)
epochs_run, max_epochs = 2, 2  # the snapshot says both epochs are done
if "--no-loop" not in sys.argv:
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(16, 8)), batch_size=8)
    for epoch in range(epochs_run, max_epochs):
        for (x,) in data:
            optimizer.zero_grad()
            model(x.npu()).sum().backward()
            optimizer.step()
