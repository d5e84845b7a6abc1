"""The MindSpore (mindspore.nn, runs on CPU) counterpart of transformer_torch.TinyTransformer, written for these tests."""

import math

from mindspore import nn, ops


class Block(nn.Cell):
    def __init__(self, width=32, heads=4):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm((width,), epsilon=1e-5)  # torch's default eps; mindspore.nn's is 1e-7
        self.query = nn.Dense(width, width)
        self.key = nn.Dense(width, width)
        self.value = nn.Dense(width, width)
        self.out = nn.Dense(width, width)
        self.norm2 = nn.LayerNorm((width,), epsilon=1e-5)
        self.up = nn.Dense(width, 4 * width)
        self.act = nn.GELU(approximate=False)  # torch.nn.GELU is the exact erf form by default
        self.down = nn.Dense(4 * width, width)

    def construct(self, x):
        batch, length, width = x.shape
        h = self.norm1(x)

        def split(t):
            return t.reshape(batch, length, self.heads, width // self.heads).swapaxes(1, 2)

        q, k, v = split(self.query(h)), split(self.key(h)), split(self.value(h))
        weights = ops.softmax(ops.matmul(q, k.swapaxes(-1, -2)) / math.sqrt(width // self.heads), axis=-1)
        x = x + self.out(ops.matmul(weights, v).swapaxes(1, 2).reshape(batch, length, width))
        return x + self.down(self.act(self.up(self.norm2(x))))


class TinyTransformer(nn.Cell):
    def __init__(self, vocabulary=100, length=16, width=32):
        super().__init__()
        self.tokens = nn.Embedding(vocabulary, width)
        self.positions = nn.Embedding(length, width)
        self.blocks = nn.SequentialCell([Block(width), Block(width)])
        self.norm = nn.LayerNorm((width,), epsilon=1e-5)
        self.head = nn.Dense(width, vocabulary)

    def construct(self, ids):
        positions = ops.arange(ids.shape[1]).expand_dims(0)
        return self.head(self.norm(self.blocks(self.tokens(ids) + self.positions(positions))))
