"""数据增强：随机裁剪、翻转，并把样本放到 GPU 上。"""

import torch
from torchvision import datasets, transforms


def build_dataset(root):
    augment = transforms.Compose([
        transforms.RandomResizedCrop(224),
        transforms.RandomHorizontalFlip(),
        transforms.ToTensor(),
    ])
    return datasets.ImageFolder(root, transform=augment)


def to_device(batch):
    # 如果有 GPU 就用 GPU
    if torch.cuda.is_available():
        return batch.to("cuda:0", non_blocking=True)
    return batch
