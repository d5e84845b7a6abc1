"""Emacs eglot (Debian's Emacs 28 + elpa-eglot), set up with docs/editors/emacs/ascend-migrate-eglot.el, drives
the real server: diagnostics appear, and a quick fix applied and saved changes the file."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from editor_scenarios import SERVER_COMMAND, SERVER_TIMEOUT_SECONDS, TRAIN_SCRIPT_SCENARIO, FixScenario, missing_editor

SCRIPT = Path(__file__).parent / "emacs" / "scenario.el"
# The set-up users copy: the test loads it as is.
SETUP = Path(__file__).parents[2] / "docs" / "editors" / "emacs" / "ascend-migrate-eglot.el"


def eglot_is_installed(emacs: str) -> bool:
    probe = subprocess.run(
        [emacs, "--batch", "-q", "--eval", "(kill-emacs (if (require 'eglot nil t) 0 3))"],
        capture_output=True, timeout=60,
    )
    return probe.returncode == 0


def run_emacs(emacs: str, project: Path, scenario: FixScenario, tmp_path: Path) -> dict:
    report_path = tmp_path / "emacs-report.json"
    scenario_path = tmp_path / "emacs-scenario.json"
    scenario_path.write_text(
        json.dumps(
            {
                "file": str(project / scenario.file),
                "command": SERVER_COMMAND,
                "setup": str(SETUP),
                "fix_line": scenario.fix_line,
                "action_contains": scenario.action_contains,
                "timeout_ms": SERVER_TIMEOUT_SECONDS * 1000,
                "report": str(report_path),
            }
        ),
        encoding="utf-8",
    )
    completed = subprocess.run(
        ["timeout", str(SERVER_TIMEOUT_SECONDS * 2), emacs, "--batch", "-q", "-l", str(SCRIPT)],
        cwd=project,
        env=os.environ | {"ASCEND_MIGRATE_SCENARIO": str(scenario_path)},
        capture_output=True,
        text=True,
        timeout=SERVER_TIMEOUT_SECONDS * 3,
    )
    report = json.loads(report_path.read_text(encoding="utf-8")) if report_path.exists() else {}
    assert completed.returncode == 0, (
        f"emacs exited {completed.returncode}\nstderr: {completed.stderr[-3000:]}\nreport: {report}"
    )
    return report


@pytest.mark.slow
def test_eglot_shows_diagnostics_and_applies_a_quick_fix(cuda_project, editor_binary, tmp_path):
    emacs = editor_binary("emacs", "apt-get install --no-install-recommends emacs-nox elpa-eglot")
    if not eglot_is_installed(emacs):
        missing_editor("Emacs has no eglot (apt-get install elpa-eglot)")
    scenario = TRAIN_SCRIPT_SCENARIO

    report = run_emacs(emacs, cuda_project, scenario, tmp_path)

    seen = {(diagnostic["line"], diagnostic["code"]) for diagnostic in report["diagnostics"]}
    for expected in scenario.expected_diagnostics:
        assert expected in seen, f"diagnostic {expected} missing; eglot saw {sorted(seen)}"
    assert scenario.action_contains in report["applied"], report["actions"]
    assert (cuda_project / scenario.file).read_text(encoding="utf-8") == scenario.expected_text()
