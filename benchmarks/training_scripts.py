"""Realistic PyTorch training scripts of a chosen length, for the edit-latency and memory measurements.

A script is a header (imports, config, distributed set-up), then numbered copies of building blocks that
real training code is made of (datasets, norms, attention with rotary embeddings, SwiGLU, ResNet blocks,
a training step with AMP and DDP, evaluation with boolean masks, checkpoints), then a `main()`. The copies
differ in names and numbers, so no two blocks (and no two documents with different `variant`) are equal.
"""

from __future__ import annotations

import ast

HEADER = '''"""Train a small vision-language model with DDP and mixed precision (variant {variant})."""

from __future__ import annotations

import argparse
import logging
import math
import os
import random
import time
from dataclasses import dataclass, field
from typing import Optional

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.cuda.amp import GradScaler, autocast
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset, DistributedSampler
from torchvision import transforms

try:
    from apex.optimizers import FusedAdam
except ImportError:  # apex is optional
    FusedAdam = None

logger = logging.getLogger(__name__)


@dataclass
class TrainConfig:
    data_dir: str = "/data/imagenet"
    batch_size: int = {batch_size}
    learning_rate: float = 3e-4
    weight_decay: float = 0.05
    epochs: int = 90
    warmup_steps: int = 2000
    hidden_size: int = {hidden}
    num_heads: int = 8
    num_layers: int = 12
    dropout: float = 0.1
    device: str = "cuda"
    backend: str = "nccl"
    use_amp: bool = True
    grad_clip: float = 1.0
    seed: int = {variant}
    milestones: list = field(default_factory=lambda: [30, 60, 80])


def set_seed(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False


def setup_distributed(config: TrainConfig) -> int:
    if "LOCAL_RANK" not in os.environ:
        return 0
    local_rank = int(os.environ["LOCAL_RANK"])
    os.environ.setdefault("CUDA_VISIBLE_DEVICES", str(local_rank))
    dist.init_process_group(backend=config.backend)
    torch.cuda.set_device(local_rank)
    return local_rank
'''

BLOCK = '''

class RandomImageDataset{n}(Dataset):
    """Random images and labels, shaped like ImageNet crops."""

    def __init__(self, length: int = {length}, image_size: int = {image_size}, num_classes: int = 1000) -> None:
        self.length = length
        self.image_size = image_size
        self.num_classes = num_classes
        self.normalize = transforms.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, index: int):
        generator = torch.Generator().manual_seed(index + {n})
        image = torch.rand(3, self.image_size, self.image_size, generator=generator)
        label = torch.randint(0, self.num_classes, (1,), generator=generator).item()
        return self.normalize(image), label


class RMSNorm{n}(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, hidden_states: torch.Tensor) -> torch.Tensor:
        variance = hidden_states.pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.eps)
        return self.weight * hidden_states


def rotate_half_{n}(x: torch.Tensor) -> torch.Tensor:
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb_{n}(q, k, cos, sin):
    q_embed = (q * cos) + (rotate_half_{n}(q) * sin)
    k_embed = (k * cos) + (rotate_half_{n}(k) * sin)
    return q_embed, k_embed


class Attention{n}(nn.Module):
    def __init__(self, hidden_size: int = {hidden}, num_heads: int = 8, dropout: float = 0.1) -> None:
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = hidden_size // num_heads
        self.qkv = nn.Linear(hidden_size, 3 * hidden_size, bias=False)
        self.proj = nn.Linear(hidden_size, hidden_size)
        self.dropout = nn.Dropout(dropout)
        inv_freq = 1.0 / (10000 ** (torch.arange(0, self.head_dim, 2).float() / self.head_dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        batch, length, _ = x.shape
        qkv = self.qkv(x).view(batch, length, 3, self.num_heads, self.head_dim)
        q, k, v = qkv.permute(2, 0, 3, 1, 4).unbind(0)
        positions = torch.arange(length, device=x.device).float()
        freqs = torch.outer(positions, self.inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        q, k = apply_rotary_pos_emb_{n}(q, k, emb.cos(), emb.sin())
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, float("-inf"))
        attention = F.softmax(scores, dim=-1)
        attention = self.dropout(attention)
        out = torch.matmul(attention, v).transpose(1, 2).contiguous()
        return self.proj(out.view(batch, length, -1))


class SwiGLU{n}(nn.Module):
    def __init__(self, hidden_size: int = {hidden}, intermediate_size: int = {intermediate}) -> None:
        super().__init__()
        self.gate_proj = nn.Linear(hidden_size, intermediate_size, bias=False)
        self.up_proj = nn.Linear(hidden_size, intermediate_size, bias=False)
        self.down_proj = nn.Linear(intermediate_size, hidden_size, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class TransformerBlock{n}(nn.Module):
    def __init__(self, hidden_size: int = {hidden}, num_heads: int = 8) -> None:
        super().__init__()
        self.attention_norm = RMSNorm{n}(hidden_size)
        self.attention = Attention{n}(hidden_size, num_heads)
        self.mlp_norm = RMSNorm{n}(hidden_size)
        self.mlp = SwiGLU{n}(hidden_size)

    def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        x = x + self.attention(self.attention_norm(x), mask)
        x = x + self.mlp(self.mlp_norm(x))
        return x


class BasicBlock{n}(nn.Module):
    expansion = 1

    def __init__(self, in_planes: int, planes: int, stride: int = 1) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(in_planes, planes, kernel_size=3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, kernel_size=3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.shortcut = nn.Sequential()
        if stride != 1 or in_planes != planes:
            self.shortcut = nn.Sequential(
                nn.Conv2d(in_planes, planes, kernel_size=1, stride=stride, bias=False),
                nn.BatchNorm2d(planes),
            )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out += self.shortcut(x)
        return F.relu(out)


class VisionLanguageModel{n}(nn.Module):
    def __init__(self, config: TrainConfig, num_classes: int = 1000) -> None:
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(3, 64, kernel_size=7, stride=2, padding=3, bias=False),
            nn.BatchNorm2d(64),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=3, stride=2, padding=1),
        )
        self.stage = nn.Sequential(BasicBlock{n}(64, 64), BasicBlock{n}(64, 128, stride=2))
        self.project = nn.Linear(128, config.hidden_size)
        self.blocks = nn.ModuleList(TransformerBlock{n}(config.hidden_size, config.num_heads) for _ in range({depth}))
        self.norm = RMSNorm{n}(config.hidden_size)
        self.head = nn.Linear(config.hidden_size, num_classes)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        features = self.stage(self.stem(images))
        tokens = features.flatten(2).transpose(1, 2)
        hidden = self.project(tokens)
        for block in self.blocks:
            hidden = block(hidden)
        return self.head(self.norm(hidden).mean(dim=1))


def build_optimizer_{n}(model: nn.Module, config: TrainConfig) -> torch.optim.Optimizer:
    decay, no_decay = [], []
    for name, parameter in model.named_parameters():
        if not parameter.requires_grad:
            continue
        (no_decay if parameter.ndim < 2 or name.endswith(".bias") else decay).append(parameter)
    groups = [
        {{"params": decay, "weight_decay": config.weight_decay}},
        {{"params": no_decay, "weight_decay": 0.0}},
    ]
    if FusedAdam is not None:
        return FusedAdam(groups, lr=config.learning_rate)
    return torch.optim.AdamW(groups, lr=config.learning_rate, betas=(0.9, 0.95), fused=True)


def train_one_epoch_{n}(model, loader, optimizer, scheduler, scaler: GradScaler, config: TrainConfig, epoch: int) -> float:
    model.train()
    device = torch.device(config.device)
    total_loss = 0.0
    started = time.time()
    for step, (images, labels) in enumerate(loader):
        images = images.cuda(non_blocking=True)
        labels = labels.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        with autocast(enabled=config.use_amp):
            logits = model(images)
            loss = F.cross_entropy(logits, labels, label_smoothing={smoothing})
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), config.grad_clip)
        scaler.step(optimizer)
        scaler.update()
        scheduler.step()
        total_loss += loss.item()
        if step % {log_every} == 0:
            torch.cuda.synchronize()
            memory = torch.cuda.max_memory_allocated() / 2**20
            logger.info("epoch %d step %d loss %.4f memory %.0f MiB %.1fs", epoch, step, loss.item(), memory, time.time() - started)
    return total_loss / max(1, len(loader))


@torch.no_grad()
def evaluate_{n}(model, loader, config: TrainConfig) -> dict:
    model.eval()
    correct = torch.zeros(1, device="cuda")
    seen = torch.zeros(1, device="cuda")
    confident_errors = []
    for images, labels in loader:
        images, labels = images.to(config.device), labels.to(config.device)
        logits = model(images)
        probabilities = logits.softmax(dim=-1)
        predictions = probabilities.argmax(dim=-1)
        correct += (predictions == labels).sum()
        seen += labels.numel()
        wrong = predictions != labels
        confident = probabilities.max(dim=-1).values > {threshold}
        confident_errors.append(torch.nonzero(wrong & confident).squeeze(-1).cpu())
        hard_examples = images[wrong]
        if hard_examples.numel() > 0:
            logger.debug("batch has %d hard examples", hard_examples.shape[0])
    if dist.is_initialized():
        dist.all_reduce(correct, op=dist.ReduceOp.SUM)
        dist.all_reduce(seen, op=dist.ReduceOp.SUM)
    accuracy = (correct / seen).item()
    return {{"accuracy": accuracy, "confident_errors": torch.cat(confident_errors).tolist()}}


def save_checkpoint_{n}(model, optimizer, scaler, epoch: int, path: str = "checkpoints/model_{n}.pt") -> None:
    state = model.module.state_dict() if isinstance(model, DDP) else model.state_dict()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    torch.save({{"model": state, "optimizer": optimizer.state_dict(), "scaler": scaler.state_dict(), "epoch": epoch}}, path)


def load_checkpoint_{n}(model, optimizer, path: str = "checkpoints/model_{n}.pt") -> int:
    checkpoint = torch.load(path, map_location="cuda:0")
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    return checkpoint["epoch"] + 1


def run_stage_{n}(config: TrainConfig, local_rank: int) -> dict:
    dataset = RandomImageDataset{n}()
    sampler = DistributedSampler(dataset) if dist.is_initialized() else None
    loader = DataLoader(dataset, batch_size=config.batch_size, sampler=sampler, num_workers=4, pin_memory=True)
    model = VisionLanguageModel{n}(config).cuda()
    if dist.is_initialized():
        model = DDP(model, device_ids=[local_rank], output_device=local_rank)
    optimizer = build_optimizer_{n}(model, config)
    warmup = torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=0.01, total_iters=config.warmup_steps)
    decay = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=config.epochs * len(loader))
    scheduler = torch.optim.lr_scheduler.SequentialLR(optimizer, [warmup, decay], milestones=[config.warmup_steps])
    scaler = GradScaler(enabled=config.use_amp)
    for epoch in range(config.epochs):
        if sampler is not None:
            sampler.set_epoch(epoch)
        loss = train_one_epoch_{n}(model, loader, optimizer, scheduler, scaler, config, epoch)
        metrics = evaluate_{n}(model, loader, config)
        logger.info("stage {n} epoch %d loss %.4f accuracy %.4f", epoch, loss, metrics["accuracy"])
        if local_rank == 0 and epoch % 10 == 0:
            save_checkpoint_{n}(model, optimizer, scaler, epoch)
    return metrics
'''

FOOTER = '''

def parse_arguments() -> TrainConfig:
    parser = argparse.ArgumentParser(description="Train the model on one or more GPUs.")
    parser.add_argument("--data-dir", default="/data/imagenet", help="where the training images are")
    parser.add_argument("--batch-size", type=int, default={batch_size})
    parser.add_argument("--epochs", type=int, default=90)
    parser.add_argument("--device", default="cuda", help="the device to train on")
    parser.add_argument("--backend", default="nccl", choices=["nccl", "gloo"])
    parser.add_argument("--no-amp", action="store_true")
    arguments = parser.parse_args()
    return TrainConfig(
        data_dir=arguments.data_dir,
        batch_size=arguments.batch_size,
        epochs=arguments.epochs,
        device=arguments.device,
        backend=arguments.backend,
        use_amp=not arguments.no_amp,
    )


def main() -> None:
    logging.basicConfig(level=logging.INFO)
    config = parse_arguments()
    set_seed(config.seed)
    local_rank = setup_distributed(config)
    results = {{}}
{stage_calls}
    if local_rank == 0:
        logger.info("results: %s", results)
    if dist.is_initialized():
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
'''


def training_script(lines: int, variant: int = 0) -> str:
    """A valid training script of at least `lines` lines (a few more, to end on a whole block)."""
    header = HEADER.format(variant=variant, batch_size=64 + 8 * (variant % 8), hidden=256 + 64 * (variant % 4))
    blocks: list[str] = []
    footer_length = FOOTER.count("\n") + 2
    length = header.count("\n") + footer_length
    number = 0
    while length < lines or number == 0:
        number += 1
        block = BLOCK.format(
            n=number if variant == 0 else f"{number}_{variant}",
            length=10_000 + 97 * number,
            image_size=160 + 32 * (number % 4),
            hidden=128 * (1 + (number + variant) % 6),
            intermediate=512 * (1 + (number + variant) % 6),
            depth=2 + number % 6,
            smoothing=round(0.05 * (number % 3), 2),
            log_every=50 * (1 + number % 4),
            threshold=round(0.5 + 0.05 * (number % 9), 2),
        )
        blocks.append(block)
        length += block.count("\n") + 1
    suffix = "" if variant == 0 else f"_{variant}"
    stage_calls = "\n".join(
        f'    results["stage_{index}"] = run_stage_{index}{suffix}(config, local_rank)' for index in range(1, number + 1)
    )
    text = header + "".join(blocks) + FOOTER.format(batch_size=64, stage_calls=stage_calls)
    ast.parse(text)  # a generator bug must fail here, not as a strange benchmark number
    return text


if __name__ == "__main__":
    import sys

    sys.stdout.write(training_script(int(sys.argv[1]) if len(sys.argv) > 1 else 1000))
