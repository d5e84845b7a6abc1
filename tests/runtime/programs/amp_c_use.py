"""A gradient norm through apex's CUDA extension, as GPU training scripts compute it: named in test_pitfalls.py."""

import amp_C  # PITFALL amp-c-import
import torch
from apex.multi_tensor_apply import multi_tensor_applier

model = torch.nn.Linear(4, 4)
model(torch.ones(2, 4)).sum().backward()
overflow = torch.zeros(1, dtype=torch.int)
norm, _ = multi_tensor_applier(amp_C.multi_tensor_l2norm, overflow, [[p.grad for p in model.parameters()]], False)  # PITFALL amp-c-use
print("gradient norm", norm)
