"""A training loop whose optimizer asks torch for its fused implementation (`fused=torch.cuda.is_available()`), fixed
for the npu route with `fix --write --unsafe` and run under `ascend-migrate run`: it gets torch_npu's NpuFusedAdamW
without the keyword it lacks and trains to its end (before, the rename kept `fused=` and raised TypeError)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("torch")

PROGRAM = textwrap.dedent("""
    import torch
    import torch.nn as nn

    torch.manual_seed(0)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.01, fused=torch.cuda.is_available())
    data = torch.randn(32, 8, device=device)
    target = data.sum(dim=1, keepdim=True)
    losses = []
    for step in range(20):
        loss = nn.functional.mse_loss(model(data), target)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        losses.append(loss.item())
    print(type(optimizer).__name__, f"{losses[0]:.4f} -> {losses[-1]:.4f}")
""")


def test_the_fixed_fused_optimizer_trains(tmp_path, run_program):
    (tmp_path / "train.py").write_text(PROGRAM, encoding="utf-8")
    fix = subprocess.run([sys.executable, "-m", "ascend_migrate", "fix", "--write", "--unsafe", "--target", "npu", "train.py"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=240)
    assert fix.returncode in (0, 1) and "Traceback" not in fix.stderr, fix.stderr
    fixed = (tmp_path / "train.py").read_text(encoding="utf-8")
    assert "torch_npu.optim.NpuFusedAdamW(model.parameters(), lr=1e-2, weight_decay=0.01)" in fixed
    run = run_program("--format", "json", "--", sys.executable, "train.py")
    assert run.status == 0, run.stderr[-2000:]
    printed = [line for line in run.stderr.splitlines() + run.stdout.splitlines() if line.startswith("NpuFusedAdamW ")]
    first, last = (float(value) for value in printed[0].split()[1::2])
    assert last < first / 2  # measured: 8.90 -> 2.54
