"""A layer called with a keyword MindSpore names otherwise (analysis/rules/layer_call_keywords.py, issue 17):
`encoder(h, mask=causal)` is fixed to `src_mask=causal` and the fixed program, run with mindspore 2.10 on the CPU
(ops/nn era), applies the mask as torch does: the first position's output does not change when the last input does.
(Before, the rename of the class kept `mask=` and the call raised TypeError.)

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
    import torch
    import torch.nn as nn

    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(16, 2, dim_feedforward=32, dropout=0.0, batch_first=True)
    encoder = nn.TransformerEncoder(layer, 2)
    encoder.eval()
    h = torch.randn(2, 5, 16)
    causal = torch.triu(torch.ones(5, 5), diagonal=1).bool()
    changed = torch.cat([h[:, :-1], h[:, -1:] + 10.0], dim=1)
    first = encoder(h, mask=causal)
    second = encoder(changed, mask=causal)
    print("first position moved by", float((first[:, 0] - second[:, 0]).abs().max()))
    print("last position moved by", float((first[:, -1] - second[:, -1]).abs().max()))
""")


def _moved(output: str) -> tuple[float, float]:
    values = [float(line.rsplit(" ", 1)[-1]) for line in output.splitlines() if " position moved by " in line]
    assert len(values) == 2, output
    return values[0], values[1]


def test_the_fixed_mask_keyword_masks_as_torchs(tmp_path):
    (tmp_path / "encode.py").write_text(PROGRAM, encoding="utf-8")
    environment = dict(os.environ, GLOG_v="3")
    original = subprocess.run([sys.executable, "encode.py"], cwd=tmp_path, capture_output=True, text=True, timeout=240)
    assert original.returncode == 0, original.stderr[-2000:]
    torch_first, torch_last = _moved(original.stdout)
    assert torch_first < 1e-5 < torch_last
    fix = subprocess.run([sys.executable, "-m", "ascend_migrate", "fix", "--write", "--unsafe", "--target", "mindspore",
                          "--mindspore-version", "2.4", "encode.py"], cwd=tmp_path, capture_output=True, text=True, timeout=240)
    assert fix.returncode in (0, 1) and "Traceback" not in fix.stderr, fix.stderr
    fixed = (tmp_path / "encode.py").read_text(encoding="utf-8")
    assert "src_mask=causal" in fixed and "mask=causal)" not in fixed.replace("src_mask=causal)", "")
    run = subprocess.run([sys.executable, "encode.py"], cwd=tmp_path, capture_output=True, text=True, timeout=240, env=environment)
    assert run.returncode == 0, run.stderr[-3000:]
    first, last = _moved(run.stdout)
    assert first < 1e-5 < last
