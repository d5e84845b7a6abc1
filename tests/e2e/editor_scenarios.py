"""What the real-editor tests open, do and expect: one scenario shared by every client."""

from __future__ import annotations

import json
import os
import subprocess
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


@dataclass(frozen=True)
class EditorRun:
    """What one editor session left: its exit code, its JSON report, its stderr and the edited file."""

    exit_code: int
    report: dict
    stderr: str
    file_after: str


def run_editor(command: list[str], project: Path, scenario: FixScenario, work: Path, **fields: object) -> EditorRun:
    """Run an editor's scenario script on `project`: the script reads its instructions from the JSON file
    named by $ASCEND_MIGRATE_SCENARIO (the scenario's file and line, `fields`, where to write its report)."""
    report_path = work / "report.json"
    scenario_path = work / "scenario.json"
    instructions = {
        "file": str(project / scenario.file),
        "python": sys.executable,
        "console_script": str(Path(sys.executable).with_name("ascend-migrate")),
        "command": SERVER_COMMAND,
        "fix_line": scenario.fix_line,
        "fix_column": scenario.fix_column,
        "action_contains": scenario.action_contains,
        "timeout_ms": SERVER_TIMEOUT_SECONDS * 1000,
        "report": str(report_path),
    }
    scenario_path.write_text(json.dumps(instructions | fields), encoding="utf-8")
    # `timeout` first: an editor stuck on a prompt must not hold the suite.
    completed = subprocess.run(
        ["timeout", str(SERVER_TIMEOUT_SECONDS * 2), *command],
        cwd=project,
        env=os.environ | {"ASCEND_MIGRATE_SCENARIO": str(scenario_path)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=SERVER_TIMEOUT_SECONDS * 3,
    )
    report = json.loads(report_path.read_text(encoding="utf-8")) if report_path.exists() else {}
    file_after = (project / scenario.file).read_text(encoding="utf-8")
    return EditorRun(completed.returncode, report, completed.stderr[-3000:], file_after)


def assert_fixed(run: EditorRun, scenario: FixScenario, editor: str) -> None:
    """The editor saw the scenario's diagnostics, applied its quick fix, and saved exactly the expected text."""
    assert run.exit_code == 0, f"{editor} exited {run.exit_code}\nstderr: {run.stderr}\nreport: {run.report}"
    seen = {(diagnostic["line"], diagnostic["code"]) for diagnostic in run.report["diagnostics"]}
    for expected in scenario.expected_diagnostics:
        assert expected in seen, f"diagnostic {expected} missing; {editor} saw {sorted(seen)}"
    assert scenario.action_contains in run.report["applied"], run.report["actions"]
    assert run.file_after == scenario.expected_text()
