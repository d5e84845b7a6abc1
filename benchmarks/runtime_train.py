"""A small training run for the overhead of `ascend-migrate run` (docs/runtime-check.md has the numbers).

Under `run` it imports the emulated torch_npu and trains on "npu"; under plain python (CPU torch, no torch_npu)
the same loop trains on the CPU:
    farm-bench -n 5 -- ascend-migrate run -- python benchmarks/runtime_train.py \
        --vs 'python benchmarks/runtime_train.py'
"""

import torch
from torch import nn

try:
    import torch_npu  # noqa: F401

    device = "npu"
except ImportError:
    device = "cpu"

torch.manual_seed(0)
features, labels = torch.randn(4096, 32), torch.randint(0, 4, (4096,))
model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 4)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(3):
    for start in range(0, len(features), 32):
        x = features[start:start + 32].to(device)
        y = labels[start:start + 32].to(device)
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
print(f"{device}: loss {loss.item():.4f}")
