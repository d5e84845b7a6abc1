"""A small program run as torch wrote it and as `fix --write --unsafe --target mindspore` rewrote it, each printing
one JSON line (the execution tests that compare what the two compute)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def original_and_fixed(tmp_path: Path, program: str, version: str = "2.4") -> tuple[Path, Path, str]:
    """`program` written to torch/program.py and mindspore/program.py, the second fixed for MindSpore `version`;
    returns both folders and the fixed text."""
    original, fixed = tmp_path / "torch", tmp_path / "mindspore"
    for directory in (original, fixed):
        directory.mkdir()
        (directory / "program.py").write_text(program, encoding="utf-8")
    fix = subprocess.run([sys.executable, "-m", "ascend_migrate", "fix", "--write", "--unsafe", "--target", "mindspore",
                          "--mindspore-version", version, "program.py"], cwd=fixed, capture_output=True, text=True, timeout=600)
    assert fix.returncode in (0, 1), fix.stderr
    return original, fixed, (fixed / "program.py").read_text(encoding="utf-8")


def printed(directory: Path, *arguments: str) -> Any:
    """The JSON value program.py in `directory` prints last (it must exit 0)."""
    run = subprocess.run([sys.executable, "program.py", *arguments], cwd=directory, capture_output=True, text=True,
                         timeout=600, env=dict(os.environ, GLOG_v="3", PYTHONWARNINGS="ignore"))
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def driven(directory: Path, driver: str, start: Any) -> Any:
    """The JSON value a driver script prints last when run in `directory` with `start` as its JSON argument (the
    driver imports program.py there and trains it from the weights `start` gives)."""
    (directory / "driver.py").write_text(driver, encoding="utf-8")
    run = subprocess.run([sys.executable, "driver.py", json.dumps(start)], cwd=directory, capture_output=True, text=True,
                         timeout=600, env=dict(os.environ, GLOG_v="3", PYTHONWARNINGS="ignore"))
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])
