"""A small classifier after a partial migration to torch_npu: each pitfall line is named in test_run.py."""

import torch
import torch_npu  # noqa: F401
from torch import nn

torch.manual_seed(0)
device = torch.device("npu:0")
features = torch.randn(22, 8)
labels = (features.sum(dim=1) > 0).long()
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
if torch.cuda.is_available():  # PITFALL cuda-left: False on Ascend, the NPU branch is never taken
    model = model.cuda()
torch.cuda.manual_seed_all(0)  # PITFALL cuda-seed
for epoch in range(2):
    for start in range(0, len(features), 8):  # the last batch has 6 rows: shapes change
        x = features[start:start + 8].to(device)
        y = labels[start:start + 8].npu()
        per_sample = nn.functional.cross_entropy(model(x), y, reduction="none")  # PITFALL varying-shapes
        loss = per_sample[y > 0].mean()  # PITFALL boolean-mask
        step = torch.heaviside(loss.detach(), torch.tensor(0.0))  # PITFALL unsupported
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
print(f"loss {loss.item():.4f}")
