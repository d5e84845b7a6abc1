"""Restriction rows checked against the values really passed: named in test_pitfalls.py."""

import torch
import torch_npu  # noqa: F401

x = torch.rand(8, 3, 4, 4)
torch.topk(x.flatten(), 2, sorted=False)  # PITFALL sorted-false
fmt = torch.contiguous_format
y = x.to(memory_format=fmt)  # PITFALL harmless-format
z = x.to(memory_format=torch.channels_last)  # PITFALL channels-last
