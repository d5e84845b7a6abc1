"""Vim with ALE (Debian's vim + vim-ale), set up with docs/editors/vim/ascend-migrate-ale.vim, drives the real
server: diagnostics appear, and a quick fix applied and saved changes the file."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from editor_scenarios import FIXTURES, SERVER_TIMEOUT_SECONDS, TRAIN_SCRIPT_SCENARIO, missing_editor

SCRIPT = Path(__file__).parent / "vim" / "scenario.vim"
# The set-up users copy: the test loads it as is.
SETUP = Path(__file__).parents[2] / "docs" / "editors" / "vim" / "ascend-migrate-ale.vim"
ALE = Path("/usr/share/vim/vimfiles/pack/dist-bundle/opt/ale")  # where Debian's vim-ale puts it
FIX_ALL_TITLE = "Fix all safe ascend-migrate issues"
# Every safe fix of the training script at once: the same text `ascend-migrate fix` writes.
FIX_ALL_EXPECTED = FIXTURES / "expected" / "train_after_fix_all.py"


@dataclass(frozen=True)
class VimRun:
    exit_code: int
    report: dict
    file_after: str


def run_vim(tmp_path_factory: pytest.TempPathFactory, action_contains: str) -> VimRun:
    """One Vim session: open the training script, wait for diagnostics, apply the action titled like
    `action_contains` on the scenario's line, save; its report and the file it left."""
    vim = shutil.which("vim")
    if vim is None:
        missing_editor("vim is not installed (apt-get install vim-ale)")
    if not ALE.is_dir():
        missing_editor(f"ALE is not installed at {ALE} (apt-get install vim-ale)")
    scenario = TRAIN_SCRIPT_SCENARIO
    tmp_path = tmp_path_factory.mktemp("vim")
    project = tmp_path / "cuda_project"
    shutil.copytree(FIXTURES / "cuda_project", project)
    report_path = tmp_path / "vim-report.json"
    scenario_path = tmp_path / "vim-scenario.json"
    scenario_path.write_text(
        json.dumps(
            {
                "file": str(project / scenario.file),
                "setup": str(SETUP),
                "python": sys.executable,
                "fix_line": scenario.fix_line,
                "fix_column": scenario.fix_column,
                "action_contains": action_contains,
                "timeout_ms": SERVER_TIMEOUT_SECONDS * 1000,
                "report": str(report_path),
            }
        ),
        encoding="utf-8",
    )
    completed = subprocess.run(
        ["timeout", str(SERVER_TIMEOUT_SECONDS * 2), vim, "-N", "-u", "NONE", "-i", "NONE", "-n", "--not-a-term",
         "-S", str(SCRIPT)],
        cwd=project,
        env=os.environ | {"ASCEND_MIGRATE_SCENARIO": str(scenario_path)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=SERVER_TIMEOUT_SECONDS * 3,
    )
    report = json.loads(report_path.read_text(encoding="utf-8")) if report_path.exists() else {}
    return VimRun(completed.returncode, report, (project / scenario.file).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def ale_fix_all(tmp_path_factory: pytest.TempPathFactory) -> VimRun:
    return run_vim(tmp_path_factory, FIX_ALL_TITLE)


@pytest.fixture(scope="module")
def ale_quick_fix(tmp_path_factory: pytest.TempPathFactory) -> VimRun:
    return run_vim(tmp_path_factory, TRAIN_SCRIPT_SCENARIO.action_contains)


@pytest.mark.slow
def test_ale_shows_the_diagnostics(ale_fix_all):
    seen = {(diagnostic["line"], diagnostic["code"]) for diagnostic in ale_fix_all.report.get("diagnostics", [])}
    assert seen, f"ALE saw no diagnostics (vim exited {ale_fix_all.exit_code}): {ale_fix_all.report}"
    for expected in TRAIN_SCRIPT_SCENARIO.expected_diagnostics:
        assert expected in seen, f"diagnostic {expected} missing; ALE saw {sorted(seen)}"


@pytest.mark.slow
def test_ale_applies_the_fix_all_action(ale_fix_all):
    assert ale_fix_all.exit_code == 0, ale_fix_all.report
    assert ale_fix_all.report["applied"] == FIX_ALL_TITLE
    assert ale_fix_all.file_after == FIX_ALL_EXPECTED.read_text(encoding="utf-8")


# ALE sends the code-action request's context diagnostics without `source` and `data` (it rebuilds them
# from its own list), and the server builds quick fixes only from `data`, so ALE is offered only the
# fix-all action. Strict: this fails as soon as the server also matches its cached findings by range.
@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="server: quick fixes need Diagnostic.data, which ALE does not send back")
def test_ale_applies_a_quick_fix(ale_quick_fix):
    scenario = TRAIN_SCRIPT_SCENARIO
    assert scenario.action_contains in ale_quick_fix.report.get("applied", ""), ale_quick_fix.report.get("actions")
    assert ale_quick_fix.exit_code == 0
    assert ale_quick_fix.file_after == scenario.expected_text()
