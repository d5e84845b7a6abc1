"""pitfalls.py migrated: torch.npu calls, mask arithmetic instead of boolean indexing, full batches only."""

import torch
import torch_npu  # noqa: F401
from torch import nn

torch.manual_seed(0)
device = torch.device("npu:0")
features = torch.randn(24, 8)
labels = (features.sum(dim=1) > 0).long()
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
if torch.npu.is_available():
    model = model.npu()
torch.npu.manual_seed_all(0)
for epoch in range(2):
    for start in range(0, len(features), 8):  # 24 rows: every batch has 8 (drop_last)
        x = features[start:start + 8].to(device)
        y = labels[start:start + 8].npu()
        with torch.autocast(device_type="npu", dtype=torch.bfloat16):
            logits = model(x)
        per_sample = nn.functional.cross_entropy(logits.float(), y, reduction="none")
        mask = (y > 0).float()
        loss = (per_sample * mask).sum() / mask.sum().clamp(min=1)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
torch.save(model.state_dict(), "checkpoint.pt")
model.load_state_dict(torch.load("checkpoint.pt", map_location="npu:0"))
print(f"loss {loss.item():.4f}")
