import torch
from torch.cuda.amp import autocast, GradScaler
scaler = GradScaler()
with autocast():
    out = model(x)
