"""Helpers for driving the real `ascend-migrate` command in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


TEST_MAPPINGS = Path(__file__).resolve().parent.parent / "fixtures" / "mappings"


@pytest.fixture
def cli():
    """cli(*arguments, cwd=...) -> CompletedProcess of `python -m ascend_migrate ...`.

    The command reads the tests' own knowledge base (tests/fixtures/mappings), so that these tests pin the
    command's behaviour, not the content of the growing tables in mappings/.
    """

    def run(*arguments: str, cwd: Path | None = None, input_text: str | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "ascend_migrate", *arguments],
            env={**os.environ, "ASCEND_MIGRATE_MAPPINGS": str(TEST_MAPPINGS)},
            cwd=cwd,
            capture_output=True,
            text=True,
            input=input_text,
            timeout=120,
        )

    return run


@pytest.fixture
def scan_json(cli):
    def run(*arguments: str, cwd: Path | None = None) -> tuple[int, dict]:
        completed = cli("scan", "--format", "json", *arguments, cwd=cwd)
        assert "Traceback" not in completed.stderr, completed.stderr
        return completed.returncode, json.loads(completed.stdout)

    return run


TRAINING_SCRIPT = '''\
import argparse
import torch
import torch.distributed as dist


def main():
    parser = argparse.ArgumentParser(description="train on cuda")
    parser.add_argument("--backend", default="nccl")
    args = parser.parse_args()
    dist.init_process_group(args.backend)
    model = torch.nn.Linear(8, 2).cuda()
    torch.cuda.synchronize()
    return model
'''


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "train.py").write_text(TRAINING_SCRIPT, encoding="utf-8")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "clean.py").write_text("def add(a, b):\n    return a + b\n", encoding="utf-8")
    return tmp_path
