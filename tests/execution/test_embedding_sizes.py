"""An ops/nn-era Embedding's sizes (MS222): `emb.embedding_dim` → `emb.embedding_size`, `emb.num_embeddings` →
`emb.vocab_size` (mindspore.nn.Embedding has no torch names; mint.nn.Embedding, from 2.5, keeps them). A program
reading both, fixed for --mindspore-version 2.4 and run with mindspore 2.10 on the CPU, prints torch's numbers.

Needs torch and mindspore 2.10 in this interpreter (CI stage 38-execution); skips cleanly without them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("mindspore")
pytest.importorskip("torch")

PROGRAM = textwrap.dedent("""
    import math

    import torch.nn as nn


    class Embed(nn.Module):
        def __init__(self):
            super().__init__()
            self.table = nn.Embedding(100, 24)

        def forward(self, tokens):
            return self.table(tokens) * math.sqrt(self.table.embedding_dim)

        def sizes(self):
            return self.table.num_embeddings, self.table.embedding_dim


    model = Embed()
    print("sizes", *model.sizes())
""")


def test_the_sizes_read_as_torchs(tmp_path):
    (tmp_path / "embed.py").write_text(PROGRAM, encoding="utf-8")
    original = subprocess.run([sys.executable, "embed.py"], cwd=tmp_path, capture_output=True, text=True, timeout=240)
    assert original.returncode == 0 and original.stdout.strip() == "sizes 100 24", original.stderr[-2000:]
    fix = subprocess.run([sys.executable, "-m", "ascend_migrate", "fix", "--write", "--unsafe", "--target", "mindspore",
                          "--mindspore-version", "2.4", "embed.py"], cwd=tmp_path, capture_output=True, text=True, timeout=240)
    assert fix.returncode in (0, 1) and "Traceback" not in fix.stderr, fix.stderr
    fixed = (tmp_path / "embed.py").read_text(encoding="utf-8")
    assert "math.sqrt(self.table.embedding_size)" in fixed and "return self.table.vocab_size, self.table.embedding_size" in fixed
    run = subprocess.run([sys.executable, "embed.py"], cwd=tmp_path, capture_output=True, text=True, timeout=240,
                         env=dict(os.environ, GLOG_v="3"))
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip().splitlines()[-1] == "sizes 100 24"
