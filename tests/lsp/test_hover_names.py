"""The textual name resolution behind hover on unflagged names."""

from __future__ import annotations

from ascend_migrate.lsp.hover import import_aliases, name_at, qualify

SOURCE = """import torch, os
import torch.nn.functional as F
import tensorflow as tf
from torch.utils.data import (
    DataLoader,  # batches
    TensorDataset as Pairs,
)
from torch import nn as tnn, optim
from . import local_module
""".splitlines(keepends=True)


def test_import_aliases_cover_plain_aliased_and_parenthesised_imports():
    assert import_aliases(SOURCE) == {
        "torch": "torch",
        "os": "os",
        "F": "torch.nn.functional",
        "tf": "tensorflow",
        "DataLoader": "torch.utils.data.DataLoader",
        "Pairs": "torch.utils.data.TensorDataset",
        "tnn": "torch.nn",
        "optim": "torch.optim",
    }


def test_the_name_under_the_cursor_stops_at_the_segment_hovered():
    line = "    loss = F.cross_entropy(model(x), y) + tf . keras.losses.mse(a, b)"
    assert name_at(line, line.index("cross") + 2) == ("F.cross_entropy", 11, 26)
    assert name_at(line, line.index("keras") + 1)[0] == "tf.keras"
    assert name_at(line, 0) is None
    assert qualify("tf.keras", import_aliases(SOURCE)) == "tensorflow.keras"
    assert qualify("model", import_aliases(SOURCE)) is None
