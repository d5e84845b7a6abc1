"""A CUDA script made to run by transfer_to_npu alone: cuda devices, .cuda(), torch.cuda amp and streams."""

import torch
import torch_npu  # noqa: F401
from torch import nn
from torch_npu.contrib import transfer_to_npu  # noqa: F401

assert torch.cuda.is_available()
capability = torch.cuda.get_device_capability()  # PITFALL capability
model = nn.Linear(8, 2).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
scaler = torch.amp.GradScaler("cuda")
stream = torch.cuda.Stream()
for step in range(3):
    x = torch.randn(4, 8, device="cuda")
    with torch.cuda.stream(stream), torch.cuda.amp.autocast():
        loss = model(x).float().pow(2).mean()
    optimizer.zero_grad()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    torch.cuda.synchronize()
print("capability", capability, "device", torch.device("cuda:0"), "name", torch.cuda.get_device_name())
