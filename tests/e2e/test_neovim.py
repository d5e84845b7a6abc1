"""Neovim 0.7 (Debian's), set up with docs/editors/neovim/ascend-migrate-0.7.lua, drives the real server:
diagnostics appear, and a quick fix applied and saved changes the file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from editor_scenarios import SERVER_TIMEOUT_SECONDS, TRAIN_SCRIPT_SCENARIO, FixScenario

SCRIPT = Path(__file__).parent / "neovim" / "scenario.lua"
# The set-up users copy: the test loads it as is.
SETUP = Path(__file__).parents[2] / "docs" / "editors" / "neovim" / "ascend-migrate-0.7.lua"
# An uncaught Lua error would leave headless nvim waiting for input for ever: catch it and quit with code 2.
LUA_ENTRY = (
    f'lua local ok, e = pcall(dofile, "{SCRIPT}"); '
    'if not ok then io.stderr:write("scenario failed: " .. tostring(e) .. "\\n"); vim.cmd("cquit 2") end; '
    'vim.cmd("qall!")'
)


def run_neovim(nvim: str, project: Path, scenario: FixScenario, tmp_path: Path) -> dict:
    report_path = tmp_path / "neovim-report.json"
    scenario_path = tmp_path / "neovim-scenario.json"
    scenario_path.write_text(
        json.dumps(
            {
                "file": str(project / scenario.file),
                "setup": str(SETUP),
                "python": sys.executable,
                "fix_line": scenario.fix_line,
                "action_contains": scenario.action_contains,
                "timeout_ms": SERVER_TIMEOUT_SECONDS * 1000,
                "report": str(report_path),
            }
        ),
        encoding="utf-8",
    )
    environment = os.environ | {"ASCEND_MIGRATE_SCENARIO": str(scenario_path)}
    completed = subprocess.run(
        ["timeout", str(SERVER_TIMEOUT_SECONDS * 2), nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n",
         "-c", LUA_ENTRY],
        cwd=project,
        env=environment,
        capture_output=True,
        text=True,
        timeout=SERVER_TIMEOUT_SECONDS * 3,
    )
    report = json.loads(report_path.read_text(encoding="utf-8")) if report_path.exists() else {}
    assert completed.returncode == 0, (
        f"nvim exited {completed.returncode}\nstderr: {completed.stderr[-3000:]}\nreport: {report}"
    )
    return report


@pytest.mark.slow
def test_neovim_shows_diagnostics_and_applies_a_quick_fix(cuda_project, editor_binary, tmp_path):
    nvim = editor_binary("nvim", "apt-get install neovim")
    scenario = TRAIN_SCRIPT_SCENARIO

    report = run_neovim(nvim, cuda_project, scenario, tmp_path)

    seen = {(diagnostic["line"], diagnostic["code"]) for diagnostic in report["diagnostics"]}
    for expected in scenario.expected_diagnostics:
        assert expected in seen, f"diagnostic {expected} missing; Neovim saw {sorted(seen)}"
    assert scenario.action_contains in report["applied"], report["actions"]
    assert (cuda_project / scenario.file).read_text(encoding="utf-8") == scenario.expected_text()
