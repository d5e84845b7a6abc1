"""ImageNet training with DistributedDataParallel, in the style of pytorch/examples (written for CUDA)."""

import argparse
import os
import time

import torch
import torch.backends.cudnn as cudnn
import torch.distributed as dist
import torch.nn as nn
import torch.optim
import torch.utils.data
import torch.utils.data.distributed
import torchvision.datasets as datasets
import torchvision.models as models
import torchvision.transforms as transforms

parser = argparse.ArgumentParser(description="PyTorch ImageNet Training (runs on cuda devices)")
parser.add_argument("data", metavar="DIR", help="path to dataset")
parser.add_argument("--arch", default="resnet50")
parser.add_argument("--epochs", default=90, type=int)
parser.add_argument("--batch-size", default=256, type=int)
parser.add_argument("--lr", default=0.1, type=float)
parser.add_argument("--dist-backend", default="nccl", type=str, help="distributed backend")
parser.add_argument("--device", default="cuda", help="cuda or cpu")


def main():
    args = parser.parse_args()
    local_rank = int(os.environ["LOCAL_RANK"])
    os.environ["CUDA_VISIBLE_DEVICES"] = os.environ.get("VISIBLE", "0,1,2,3")
    dist.init_process_group(backend=args.dist_backend)
    torch.cuda.set_device(local_rank)
    cudnn.benchmark = True

    model = models.__dict__[args.arch]()
    model.cuda(local_rank)
    model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[local_rank])

    criterion = nn.CrossEntropyLoss().cuda(local_rank)
    optimizer = torch.optim.SGD(model.parameters(), args.lr, momentum=0.9, weight_decay=1e-4)
    scaler = torch.cuda.amp.GradScaler()

    normalize = transforms.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])
    train_dataset = datasets.ImageFolder(
        os.path.join(args.data, "train"),
        transforms.Compose([transforms.RandomResizedCrop(224), transforms.ToTensor(), normalize]),
    )
    train_sampler = torch.utils.data.distributed.DistributedSampler(train_dataset)
    train_loader = torch.utils.data.DataLoader(
        train_dataset, batch_size=args.batch_size, sampler=train_sampler, num_workers=8, pin_memory=True
    )

    for epoch in range(args.epochs):
        train_sampler.set_epoch(epoch)
        train_one_epoch(train_loader, model, criterion, optimizer, scaler, local_rank)
        if local_rank == 0:
            torch.save(model.state_dict(), f"checkpoint_{epoch}.pth")


def train_one_epoch(loader, model, criterion, optimizer, scaler, local_rank):
    model.train()
    end = time.time()
    for images, target in loader:
        images = images.cuda(local_rank, non_blocking=True)
        target = target.to(f"cuda:{local_rank}", non_blocking=True)
        with torch.autocast(device_type="cuda", dtype=torch.float16):
            output = model(images)
            loss = criterion(output, target)
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        torch.cuda.synchronize()
        print(f"step took {time.time() - end:.3f}s on cuda")
        end = time.time()


if __name__ == "__main__":
    main()
