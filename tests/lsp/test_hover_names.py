"""Hover on unflagged names: the name under the cursor (textual) and what it names through the file's
imports, as the engine bound them (not a second, textual reading of the imports)."""

from __future__ import annotations

from ascend_migrate.config import Settings
from ascend_migrate.lsp import engine
from ascend_migrate.lsp.hover import name_at

# Each of these once fooled a line-by-line reading of the imports: two statements on one line, a
# continuation line, and an "import" inside a docstring.
SOURCE = '''"""Training.

import numpy as torch
"""
import os; import torch.nn.functional as F
import tensorflow as tf
from torch.utils.data import \\
    DataLoader
from torch.utils.data import (
    TensorDataset as Pairs,  # pairs
)
from torch import nn as tnn, optim
from . import local_module
import torch
'''


def qualified(dotted: str) -> str | None:
    analysis = engine.analyze(SOURCE, "train.py", Settings(), None, None)
    return engine.qualified_name(analysis, dotted)


def test_names_resolve_through_the_imports_the_engine_bound():
    assert qualified("F.cross_entropy") == "torch.nn.functional.cross_entropy"
    assert qualified("DataLoader") == "torch.utils.data.DataLoader"
    assert qualified("Pairs") == "torch.utils.data.TensorDataset"
    assert qualified("tnn.Linear") == "torch.nn.Linear"
    assert qualified("optim") == "torch.optim"
    assert qualified("tf.keras") == "tensorflow.keras"
    assert qualified("torch.cuda") == "torch.cuda"  # the docstring binds nothing
    assert qualified("os.path") == "os.path"


def test_local_and_unknown_names_resolve_to_nothing():
    assert qualified("local_module") is None
    assert qualified("model") is None
    assert engine.qualified_name(None, "torch") is None


def test_the_name_under_the_cursor_stops_at_the_segment_hovered():
    line = "    loss = F.cross_entropy(model(x), y) + tf . keras.losses.mse(a, b)"
    assert name_at(line, line.index("cross") + 2) == ("F.cross_entropy", 11, 26)
    assert name_at(line, line.index("keras") + 1)[0] == "tf.keras"
    assert name_at(line, 0) is None
