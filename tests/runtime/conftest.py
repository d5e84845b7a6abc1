"""Helpers for the runtime tests: run `ascend-migrate run` as a user would, find the lines the programs mark."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

PROGRAMS = Path(__file__).parent / "programs"


@dataclass
class Run:
    status: int
    stdout: str
    stderr: str
    directory: Path

    @property
    def report(self) -> dict:
        return json.loads(self.stdout)

    def codes_at(self, program: str) -> dict[int, set[str]]:
        found: dict[int, set[str]] = {}
        for finding in self.report["findings"]:
            if finding["path"].endswith(program):
                found.setdefault(finding["line"], set()).add(finding["code"])
        return found


def marked_line(program: str, marker: str) -> int:
    """The line of `program` whose comment says `PITFALL marker`."""
    for number, text in enumerate((PROGRAMS / program).read_text(encoding="utf-8").splitlines(), start=1):
        if f"PITFALL {marker}" in text:
            return number
    raise AssertionError(f"no PITFALL {marker} in {program}")


@pytest.fixture
def run_program(tmp_path):
    def run(*arguments: str, timeout: float = 240) -> Run:
        completed = subprocess.run([sys.executable, "-m", "ascend_migrate", "run", *arguments], cwd=tmp_path,
                                   capture_output=True, text=True, timeout=timeout)
        return Run(completed.returncode, completed.stdout, completed.stderr, tmp_path)

    return run
