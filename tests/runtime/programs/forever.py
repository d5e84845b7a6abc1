"""A training loop with no end: --steps stops it."""

import torch
import torch_npu  # noqa: F401

weight = torch.zeros(3, requires_grad=True, device="npu")
optimizer = torch.optim.SGD([weight], lr=0.1)
while True:
    loss = (weight - 1).pow(2).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
