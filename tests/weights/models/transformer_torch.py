"""A small transformer encoder (token and position Embedding, LayerNorm, self-attention, MLP), written for these tests."""

import math

import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, width=32, heads=4):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(width)
        self.query = nn.Linear(width, width)
        self.key = nn.Linear(width, width)
        self.value = nn.Linear(width, width)
        self.out = nn.Linear(width, width)
        self.norm2 = nn.LayerNorm(width)
        self.up = nn.Linear(width, 4 * width)
        self.act = nn.GELU()
        self.down = nn.Linear(4 * width, width)

    def forward(self, x):
        batch, length, width = x.shape
        h = self.norm1(x)

        def split(t):
            return t.reshape(batch, length, self.heads, width // self.heads).transpose(1, 2)

        q, k, v = split(self.query(h)), split(self.key(h)), split(self.value(h))
        weights = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(width // self.heads), dim=-1)
        x = x + self.out((weights @ v).transpose(1, 2).reshape(batch, length, width))
        return x + self.down(self.act(self.up(self.norm2(x))))


class TinyTransformer(nn.Module):
    def __init__(self, vocabulary=100, length=16, width=32):
        super().__init__()
        self.tokens = nn.Embedding(vocabulary, width)
        self.positions = nn.Embedding(length, width)
        self.blocks = nn.Sequential(Block(width), Block(width))
        self.norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocabulary)

    def forward(self, ids):
        positions = torch.arange(ids.shape[1]).unsqueeze(0)
        return self.head(self.norm(self.blocks(self.tokens(ids) + self.positions(positions))))
