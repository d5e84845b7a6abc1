"""Emacs eglot (Debian's Emacs 28 + elpa-eglot), set up with docs/editors/emacs/ascend-migrate-eglot.el, drives
the real server: diagnostics appear, and a quick fix applied and saved changes the file."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from editor_scenarios import TRAIN_SCRIPT_SCENARIO, assert_fixed, missing_editor, run_editor

SCRIPT = Path(__file__).parent / "emacs" / "scenario.el"
# The set-up users copy: the test loads it as is.
SETUP = Path(__file__).parents[2] / "docs" / "editors" / "emacs" / "ascend-migrate-eglot.el"


def eglot_is_installed(emacs: str) -> bool:
    probe = subprocess.run(
        [emacs, "--batch", "-q", "--eval", "(kill-emacs (if (require 'eglot nil t) 0 3))"],
        capture_output=True, timeout=60,
    )
    return probe.returncode == 0


@pytest.mark.slow
def test_eglot_shows_diagnostics_and_applies_a_quick_fix(cuda_project, editor_binary, tmp_path):
    emacs = editor_binary("emacs", "apt-get install --no-install-recommends emacs-nox elpa-eglot")
    if not eglot_is_installed(emacs):
        missing_editor("Emacs has no eglot (apt-get install elpa-eglot)")
    # -q, not -Q: -Q also skips Debian's site-lisp, where elpa-eglot lives.
    command = [emacs, "--batch", "-q", "-l", str(SCRIPT)]

    run = run_editor(command, cuda_project, TRAIN_SCRIPT_SCENARIO, tmp_path, setup=str(SETUP))

    assert_fixed(run, TRAIN_SCRIPT_SCENARIO, "eglot")
