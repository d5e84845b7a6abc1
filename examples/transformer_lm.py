"""A small decoder-only language model with fused CUDA kernels where they are installed."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

try:
    from flash_attn import flash_attn_func
except ImportError:
    flash_attn_func = None

from apex.normalization import FusedLayerNorm


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.out = nn.Linear(dim, dim, bias=False)

    def forward(self, x, cos, sin):
        batch, length, dim = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        if flash_attn_func is not None and x.is_cuda:
            y = flash_attn_func(q, k, v, causal=True)
        else:
            scores = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(dim), dim=-1)
            y = scores @ v
        return self.out(y.transpose(1, 2).reshape(batch, length, dim))


class FeedForward(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.gate = nn.Linear(dim, hidden, bias=False)
        self.up = nn.Linear(dim, hidden, bias=False)
        self.down = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return self.down(F.silu(self.gate(x)) * self.up(x))


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.attention_norm = RMSNorm(dim)
        self.attention = Attention(dim, heads)
        self.ffn_norm = FusedLayerNorm(dim)
        self.ffn = FeedForward(dim, 4 * dim)

    def forward(self, x, cos, sin):
        x = x + self.attention(self.attention_norm(x), cos, sin)
        return x + self.ffn(self.ffn_norm(x))


class LanguageModel(nn.Module):
    def __init__(self, vocab, dim=512, depth=8, heads=8):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList([Block(dim, heads) for _ in range(depth)])
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, tokens, cos, sin):
        x = self.embed(tokens)
        for block in self.blocks:
            x = block(x, cos, sin)
        return self.head(x)


def train_step(model, optimizer, tokens, cos, sin):
    logits = model(tokens[:, :-1], cos, sin)
    loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tokens[:, 1:].reshape(-1))
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    model = LanguageModel(32000).cuda().to(torch.bfloat16)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, betas=(0.9, 0.95))
    tokens = torch.randint(0, 32000, (8, 257), device="cuda")
    cos = torch.ones(256, 64, device="cuda")
    sin = torch.zeros(256, 64, device="cuda")
    print(train_step(model, optimizer, tokens, cos, sin))
