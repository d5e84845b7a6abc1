"""Code shapes with NPU fused operators, and definitions matched by name and parameter list."""


def test_fusable_shapes_in_a_transformer_block(found):
    source = """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        def rotate_half(x):
            x1, x2 = x.chunk(2, dim=-1)
            return torch.cat((-x2, x1), dim=-1)

        class Block(nn.Module):
            def forward(self, x, cos, sin, q, k, v):
                normed = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)
                gate, up = x.chunk(2, dim=-1)
                hidden = F.silu(gate) * up
                rotated = q * cos + rotate_half(q) * sin
                weights = torch.softmax(q @ k.transpose(-2, -1) / 8.0, dim=-1)
                heads = weights.permute(0, 2, 1, 3).reshape(2, 3, -1)
                scale = float(x.sum())
                x[x < 0] = 0
                plain = x * 2 + x * 3
                return heads
    """
    assert found(source) == [
        (12, "NPU302", "rms-norm"),
        (14, "NPU302", "swiglu"),
        (15, "NPU302", "rotary-embedding"),
        (16, "NPU302", "scaled-dot-product-attention"),
        (17, "NPU302", "transpose-reshape"),
        (18, "NPU401", "float(tensor)"),
        (19, "NPU402", "tensor[mask]=value"),
    ]


def test_definitions_matched_by_exact_parameter_lists(found):
    source = """
        import torch

        def channel_shuffle(x, groups):
            return x

        def channel_shuffle_other(x, groups, extra):
            return x

        class DropPath(torch.nn.Module):
            def __init__(self, drop_prob):
                super().__init__()

            def forward(self, x):
                return x

        class DropPathVariant(torch.nn.Module):
            def __init__(self, drop_prob, scale):
                super().__init__()
    """
    assert found(source) == [(4, "NPU302", "channel_shuffle"), (10, "NPU302", "DropPath")]


def test_shapes_need_the_real_operators(found):
    source = """
        import mylib
        def f(x, gate, up):
            a = x * mylib.rsqrt(x.pow(2).mean(-1))
            b = mylib.silu(gate) * up
            c = float(x)
            return a, b, c
    """
    assert found(source) == []
