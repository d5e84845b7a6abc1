"""Single-node training with apex's fused optimizer and DataParallel over all visible GPUs."""

import torch
import torch.nn as nn
import torch_npu

from models import build_model


def train(loader, epochs: int = 10) -> None:
    model = build_model().npu()
    model = nn.DataParallel(model, device_ids=[0, 1, 2, 3])
    optimizer = torch_npu.optim.NpuFusedAdam(model.parameters(), lr=3e-4, weight_decay=0.01)
    criterion = nn.CrossEntropyLoss().npu()
    for epoch in range(epochs):
        for images, labels in loader:
            images = images.npu(non_blocking=True)
            labels = labels.npu(non_blocking=True)
            optimizer.zero_grad()
            loss = criterion(model(images), labels)
            loss.backward()
            optimizer.clip_grad_norm_fused_(5.0)
            optimizer.step()
        if torch.npu.is_available():
            torch.npu.empty_cache()
