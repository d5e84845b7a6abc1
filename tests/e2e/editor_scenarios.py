"""What the real-editor tests open, do and expect: one scenario shared by every client."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
REQUIRE_EDITORS = os.environ.get("ASCEND_MIGRATE_REQUIRE_EDITORS", "") not in ("", "0")
SERVER_COMMAND = [sys.executable, "-m", "ascend_migrate", "serve"]
# How long an editor waits for the server's first diagnostics (server start-up, knowledge-base load, analysis).
SERVER_TIMEOUT_SECONDS = 60


@dataclass(frozen=True)
class FixScenario:
    """Open `file`, expect `expected_diagnostics`, apply the quick fix titled like `action_contains` on
    `fix_line`, save, and expect the file to read as the fixture `expected_after_fix` names."""

    file: str
    fix_line: int
    fix_column: int  # where the cursor goes for clients that ask at the cursor (ALE)
    action_contains: str
    expected_diagnostics: tuple[tuple[int, str], ...]  # (line, code) pairs that must be among the diagnostics
    expected_after_fix: Path

    def expected_text(self) -> str:
        return self.expected_after_fix.read_text(encoding="utf-8")


# The training script's torch.cuda.synchronize() on line 35 becomes torch.npu.synchronize(), and the fix adds
# `import torch_npu` beside `import torch`, which is what makes torch.npu exist.
TRAIN_SCRIPT_SCENARIO = FixScenario(
    file="train.py",
    fix_line=35,
    fix_column=15,
    action_contains="torch.npu.synchronize",
    expected_diagnostics=((22, "NPU101"), (35, "NPU101"), (36, "NPU101")),
    expected_after_fix=FIXTURES / "expected" / "train_after_synchronize_fix.py",
)


def missing_editor(reason: str) -> None:
    """Skip the test saying why; under CI (ASCEND_MIGRATE_REQUIRE_EDITORS=1) fail instead."""
    import pytest

    if REQUIRE_EDITORS:
        pytest.fail(f"ASCEND_MIGRATE_REQUIRE_EDITORS is set but {reason}")
    pytest.skip(reason)
