"""Fixtures of the real-editor tests: the CUDA project they open, and skip-or-fail for a missing editor.

A missing editor skips its test with the reason printed, so the ordinary suite stays green on a machine
without it. CI installs the editors and sets ASCEND_MIGRATE_REQUIRE_EDITORS=1, which turns that skip into
a failure: there, a missing editor means a broken install step, not a reason to pass.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from editor_scenarios import FIXTURES, missing_editor


@pytest.fixture
def cuda_project(tmp_path: Path) -> Path:
    """A fresh copy of the CUDA training project (the tests change its files)."""
    project = tmp_path / "cuda_project"
    shutil.copytree(FIXTURES / "cuda_project", project)
    return project


@pytest.fixture
def editor_binary() -> Callable[[str, str], str]:
    """`editor_binary(name, install_hint)`: the editor's path, else skip (or fail under CI) saying why."""

    def find(name: str, install_hint: str) -> str:
        path = shutil.which(name)
        if path is None:
            missing_editor(f"{name} is not installed ({install_hint})")
        return path

    return find
