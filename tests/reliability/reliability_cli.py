"""Running the real `ascend-migrate` command in a subprocess, against a chosen knowledge base."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TEST_MAPPINGS = Path(__file__).resolve().parents[1] / "fixtures" / "mappings"


def run_cli(*arguments: str, cwd: Path, mappings: Path | None = TEST_MAPPINGS, timeout: float = 300) -> subprocess.CompletedProcess:
    """`ascend-migrate ARGUMENTS` (the console script, as a user runs it) in `cwd`."""
    environment = dict(os.environ)
    environment.pop("ASCEND_MIGRATE_MAPPINGS", None)
    if mappings is not None:
        environment["ASCEND_MIGRATE_MAPPINGS"] = str(mappings)
    script = Path(sys.executable).with_name("ascend-migrate")
    return subprocess.run([str(script), *arguments], cwd=cwd, env=environment, capture_output=True, text=True, timeout=timeout)
