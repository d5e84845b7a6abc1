"""`torch.cuda.device_count()` on the MindSpore route (MS205, analysis/rules/device_count.py), fixed and run with
mindspore 2.10 on the CPU: mindspore.device_context.ascend.device_count() raises where no Ascend device is (torch's
returns 0), so the fix writes the count guarded by is_available(), which gives 0 here as torch's did.

Needs mindspore 2.10 in this interpreter (CI stage 38-execution); skips cleanly without it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("mindspore")

PROGRAM = textwrap.dedent("""
    import torch

    gpus = torch.cuda.device_count()
    print("devices:", gpus, "many" if torch.cuda.device_count() > 1 else "one or none")
""")


def test_the_guarded_count_is_zero_without_ascend(tmp_path):
    (tmp_path / "count.py").write_text(PROGRAM, encoding="utf-8")
    fix = subprocess.run([sys.executable, "-m", "ascend_migrate", "fix", "--write", "--unsafe", "--target", "mindspore", "count.py"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=240)
    assert fix.returncode in (0, 1) and "Traceback" not in fix.stderr, fix.stderr
    fixed = (tmp_path / "count.py").read_text(encoding="utf-8")
    assert "import torch" not in fixed and fixed.count("if mindspore.device_context.ascend.is_available() else 0)") == 2
    run = subprocess.run([sys.executable, "count.py"], cwd=tmp_path, capture_output=True, text=True, timeout=240,
                         env=dict(os.environ, GLOG_v="3"))
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip().splitlines()[-1] == "devices: 0 one or none"
    # the unguarded call is what fails here: the reason for the guard
    bare = subprocess.run([sys.executable, "-c", "import mindspore; mindspore.device_context.ascend.device_count()"],
                          capture_output=True, text=True, timeout=240, env=dict(os.environ, GLOG_v="3"))
    assert bare.returncode != 0 and "Device Ascend not exist" in bare.stderr
