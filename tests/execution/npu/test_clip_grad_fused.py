"""npu route: after the fused-optimizer rename (`AdamW(..., fused=True)` -> torch_npu.optim.NpuFusedAdamW),
`torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)` becomes `optimizer.clip_grad_norm_fused_(max_norm)`
(rules/fused_optimizers.py). The program is run as written with torch and, after `fix --write --unsafe --target npu`,
under `ascend-migrate run` (torch_npu emulated: its fused optimizers are torch's with NpuFusedOptimizerBase's
clip_grad_norm_fused_, runtime/affine.py): the same losses and the same total norms returned, step for step, with
clipping at work in every step. Needs torch (CPU); CI stage 35 runs it."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("torch")

PROGRAM = textwrap.dedent("""
    import json

    import torch
    import torch.nn as nn

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.01, fused=True)
    data = torch.randn(32, 8)
    target = data.sum(dim=1, keepdim=True)
    record = []
    for step in range(15):
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(data), target)
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()
        record.append([loss.item(), float(norm)])
    print("RECORD " + json.dumps([type(optimizer).__name__, record]))
""")


def _record(output: str) -> tuple[str, list]:
    line = next(line for line in output.splitlines() if line.startswith("RECORD "))
    name, record = json.loads(line[len("RECORD "):])
    return name, record


def test_the_fused_clipping_trains_as_torch_clipping_does(tmp_path):
    (tmp_path / "train.py").write_text(PROGRAM, encoding="utf-8")
    original = subprocess.run([sys.executable, "train.py"], cwd=tmp_path, capture_output=True, text=True, timeout=240)
    assert original.returncode == 0, original.stderr[-2000:]
    fix = subprocess.run([sys.executable, "-m", "ascend_migrate", "fix", "--write", "--unsafe", "--target", "npu", "train.py"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=240)
    assert fix.returncode in (0, 1) and "Traceback" not in fix.stderr, fix.stderr
    fixed = (tmp_path / "train.py").read_text(encoding="utf-8")
    assert "optimizer = torch_npu.optim.NpuFusedAdamW(model.parameters(), lr=1e-2, weight_decay=0.01)" in fixed
    assert "norm = optimizer.clip_grad_norm_fused_(0.5)" in fixed and "clip_grad_norm_(" not in fixed
    run = subprocess.run([sys.executable, "-m", "ascend_migrate", "run", "--format", "json", "--", sys.executable, "train.py"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stderr[-2000:]
    name, record = _record(run.stdout + "\n" + run.stderr)
    torch_name, torch_record = _record(original.stdout)
    assert (name, torch_name) == ("NpuFusedAdamW", "AdamW")
    assert all(norm > 0.5 for _, norm in torch_record)  # the clipping changed every step's gradients
    assert len(record) == len(torch_record) == 15
    flat, torch_flat = [value for pair in record for value in pair], [value for pair in torch_record for value in pair]
    assert flat == pytest.approx(torch_flat, rel=1e-6)
    assert record[-1][0] < record[0][0] * 0.7  # it trains (measured: 8.90 -> 4.29)
