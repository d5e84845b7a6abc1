"""Vim with ALE (Debian's vim + vim-ale), set up with docs/editors/vim/ascend-migrate-ale.vim, drives the real
server: diagnostics appear, and a code action applied and saved changes the file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from editor_scenarios import FIXTURES, TRAIN_SCRIPT_SCENARIO, EditorRun, assert_fixed, missing_editor, run_editor

SCRIPT = Path(__file__).parent / "vim" / "scenario.vim"
# The set-up users copy: the test loads it as is.
SETUP = Path(__file__).parents[2] / "docs" / "editors" / "vim" / "ascend-migrate-ale.vim"
ALE = Path("/usr/share/vim/vimfiles/pack/dist-bundle/opt/ale")  # where Debian's vim-ale puts it
FIX_ALL_TITLE = "Fix all safe ascend-migrate issues"
# Every safe fix of the training script at once: the same text `ascend-migrate fix --write` gives.
FIX_ALL_EXPECTED = FIXTURES / "expected" / "train_after_fix_all.py"


def run_vim(tmp_path_factory: pytest.TempPathFactory, action_contains: str) -> EditorRun:
    """One Vim session on a fresh copy of the project, applying the action titled like `action_contains`."""
    vim = shutil.which("vim")
    if vim is None:
        missing_editor("vim is not installed (apt-get install vim-ale)")
    if not ALE.is_dir():
        missing_editor(f"ALE is not installed at {ALE} (apt-get install vim-ale)")
    work = tmp_path_factory.mktemp("vim")
    project = work / "cuda_project"
    shutil.copytree(FIXTURES / "cuda_project", project)
    command = [vim, "-N", "-u", "NONE", "-i", "NONE", "-n", "--not-a-term", "-S", str(SCRIPT)]
    return run_editor(command, project, TRAIN_SCRIPT_SCENARIO, work, setup=str(SETUP), action_contains=action_contains)


@pytest.fixture(scope="module")
def ale_fix_all(tmp_path_factory: pytest.TempPathFactory) -> EditorRun:
    return run_vim(tmp_path_factory, FIX_ALL_TITLE)


@pytest.fixture(scope="module")
def ale_quick_fix(tmp_path_factory: pytest.TempPathFactory) -> EditorRun:
    return run_vim(tmp_path_factory, TRAIN_SCRIPT_SCENARIO.action_contains)


@pytest.mark.slow
def test_ale_shows_the_diagnostics(ale_fix_all):
    seen = {(diagnostic["line"], diagnostic["code"]) for diagnostic in ale_fix_all.report.get("diagnostics", [])}
    for expected in TRAIN_SCRIPT_SCENARIO.expected_diagnostics:
        assert expected in seen, f"diagnostic {expected} missing; ALE saw {sorted(seen)} ({ale_fix_all.report})"


@pytest.mark.slow
def test_ale_applies_the_fix_all_action(ale_fix_all):
    assert ale_fix_all.exit_code == 0, ale_fix_all.report
    assert ale_fix_all.report["applied"] == FIX_ALL_TITLE
    assert ale_fix_all.file_after == FIX_ALL_EXPECTED.read_text(encoding="utf-8")


# ALE sends the code-action request's context diagnostics without `source` and `data` (it rebuilds them
# from its own list), and the server builds quick fixes only from `data`, so ALE is offered only the
# fix-all action. Strict: this fails as soon as the server also matches its cached findings by range.
@pytest.mark.slow
def test_ale_applies_a_quick_fix(ale_quick_fix):
    assert_fixed(ale_quick_fix, TRAIN_SCRIPT_SCENARIO, "ALE")
