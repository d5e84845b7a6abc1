"""Dtype restrictions of the Ascend tables met by the tensors really passed: named in test_pitfalls.py."""

import torch
import torch_npu  # noqa: F401

table = torch.rand(4, 3, dtype=torch.float64).npu()
index = torch.zeros(4, 1, dtype=torch.int64).npu()
for _ in range(2):
    table.gather(1, index)  # PITFALL gather-float64
table.float().gather(1, index)  # float32: a dtype the table lists
scores = torch.rand(4, 3).npu()
torch.softmax(scores.double(), dim=1)  # PITFALL softmax-float64
torch.softmax(scores, dim=1)  # float32: a dtype the table lists
