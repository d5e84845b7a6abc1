"""Train the classifier on one or more GPUs: python train.py --epochs 90 --device cuda."""

import argparse
import os

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader

from model import Classifier, make_optimizer
from utils.数据增强 import build_dataset


def parse_arguments():
    parser = argparse.ArgumentParser(description="训练分类模型")
    parser.add_argument("--epochs", type=int, default=90)
    parser.add_argument("--device", default="cuda")
    return parser.parse_args()


def setup(rank, world_size):
    os.environ["CUDA_VISIBLE_DEVICES"] = str(rank)
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
    torch.cuda.set_device(rank)
    torch.backends.cudnn.benchmark = True
    return torch.device("cuda", rank)


def train_one_epoch(model, loader, optimizer, device):
    model.train()
    for images, labels in loader:
        images, labels = images.to(device), labels.cuda()
        logits = model(images)
        valid = labels >= 0
        loss = F.cross_entropy(logits[valid], labels[valid])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    torch.cuda.synchronize()
    return loss.item()


def main():
    arguments = parse_arguments()
    rank = int(os.environ.get("RANK", "0"))
    device = setup(rank, int(os.environ.get("WORLD_SIZE", "1")))
    model = DistributedDataParallel(Classifier(num_classes=1000).to(device), device_ids=[rank])
    optimizer = make_optimizer(model)
    loader = DataLoader(build_dataset("/data/imagenet/train"), batch_size=256, num_workers=8, pin_memory=True)
    for epoch in range(arguments.epochs):
        loss = train_one_epoch(model, loader, optimizer, device)
        if rank == 0:
            print(f"epoch {epoch}: loss {loss:.4f}")
            torch.save(model.state_dict(), f"checkpoint_{epoch}.pt")


if __name__ == "__main__":
    main()
