"""Tensors of two devices in one call, and a channels_last layout reaching the NPU: named in test_pitfalls.py."""

import torch
import torch_npu  # noqa: F401
from torch import nn

device = torch.device("npu:0")
model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.Flatten(), nn.Linear(4 * 6 * 6, 2)).to(device)
images = torch.rand(5, 3, 8, 8)
labels = torch.randint(0, 2, (5,))
output = model(images.to(device))
loss = nn.functional.cross_entropy(output, labels)  # PITFALL labels-left-on-cpu
threshold = torch.tensor(0.5)
if loss.detach() > threshold:  # PITFALL zero-dim-compare
    loss = loss * threshold  # a 0-d CPU tensor combined with an NPU one: allowed (as a CPU scalar on CUDA)
best = loss.detach().cpu()
print(bool(best < threshold))  # both on the CPU
labels = labels.to(device)
loss = nn.functional.cross_entropy(output, labels)  # both on the NPU now
layout = images.to(memory_format=torch.channels_last)
layout.to(device)  # PITFALL channels-last-moved
model.to(memory_format=torch.channels_last)  # PITFALL channels-last-model
model(layout.contiguous().npu())
weights = labels * 2  # PITFALL int64-times-number: the Muls operator takes no int64
weights = labels.int() * 2  # int32: fine
weights = labels.cpu() * 2  # on the CPU: fine
