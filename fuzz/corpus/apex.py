import amp_C
from apex.optimizers import FusedAdam
import torch
opt = FusedAdam(model.parameters())
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
