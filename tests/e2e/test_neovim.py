"""Neovim 0.7 (Debian's), set up with docs/editors/neovim/ascend-migrate-0.7.lua, drives the real server:
diagnostics appear, and a quick fix applied and saved changes the file."""

from __future__ import annotations

from pathlib import Path

import pytest
from editor_scenarios import TRAIN_SCRIPT_SCENARIO, assert_fixed, run_editor

SCRIPT = Path(__file__).parent / "neovim" / "scenario.lua"
# The set-up users copy: the test loads it as is.
SETUP = Path(__file__).parents[2] / "docs" / "editors" / "neovim" / "ascend-migrate-0.7.lua"
# An uncaught Lua error would leave headless nvim waiting for input for ever: catch it and quit with code 2.
LUA_ENTRY = (
    f'lua local ok, e = pcall(dofile, "{SCRIPT}"); '
    'if not ok then io.stderr:write("scenario failed: " .. tostring(e) .. "\\n"); vim.cmd("cquit 2") end; '
    'vim.cmd("qall!")'
)


@pytest.mark.slow
def test_neovim_shows_diagnostics_and_applies_a_quick_fix(cuda_project, editor_binary, tmp_path):
    nvim = editor_binary("nvim", "apt-get install neovim")
    command = [nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", LUA_ENTRY]

    run = run_editor(command, cuda_project, TRAIN_SCRIPT_SCENARIO, tmp_path, setup=str(SETUP))

    assert_fixed(run, TRAIN_SCRIPT_SCENARIO, "Neovim")
