"""A model wrapped in DataParallel, which Ascend does not support."""

import torch
import torch_npu  # noqa: F401
from torch import nn

model = nn.Linear(4, 2).npu()
model = nn.DataParallel(model)  # PITFALL data-parallel
print(model(torch.randn(3, 4, device="npu")).shape)
