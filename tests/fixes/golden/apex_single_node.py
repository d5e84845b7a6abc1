"""Single-node training with apex's fused optimizer and DataParallel over all visible GPUs."""

import amp_C
import torch
import torch.nn as nn
from apex.optimizers import FusedAdam

from models import build_model


def train(loader, epochs: int = 10) -> None:
    model = build_model().cuda()
    model = nn.DataParallel(model, device_ids=[0, 1, 2, 3])
    optimizer = FusedAdam(model.parameters(), lr=3e-4, weight_decay=0.01)
    criterion = nn.CrossEntropyLoss().cuda()
    for epoch in range(epochs):
        for images, labels in loader:
            images = images.cuda(non_blocking=True)
            labels = labels.cuda(non_blocking=True)
            optimizer.zero_grad()
            loss = criterion(model(images), labels)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=5.0)
            optimizer.step()
        if torch.cuda.is_available():
            torch.cuda.empty_cache()
