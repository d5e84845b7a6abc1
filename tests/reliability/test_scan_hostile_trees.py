"""Hostile workspace trees: loops, links out, FIFOs, unreadable and vanishing files, and (heavy) 100,000 files.

Every scan completes (or stops cleanly when cancelled), and every file it skips is in `errors` with why.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from ascend_migrate.config import Settings
from ascend_migrate.workspace import scan

from reliability_cli import TEST_MAPPINGS

HEAVY = pytest.mark.skipif(not os.environ.get("RELIABILITY_HEAVY"), reason="heavy: set RELIABILITY_HEAVY=1 (the CI fuzz stage does)")
SCRIPT = "import torch\n\ntorch.cuda.synchronize()\n"
FOLLOW = replace(Settings(target="npu"), follow_symlinks=True)


@pytest.fixture(autouse=True)
def engine_test_knowledge_base(monkeypatch):
    """scan() analyses with KnowledgeBase.load(): point it at the engine's small test tables."""
    monkeypatch.setenv("ASCEND_MIGRATE_MAPPINGS", str(TEST_MAPPINGS))  # KnowledgeBase.load() caches per directory


def project(root: Path) -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "train.py").write_text(SCRIPT, encoding="utf-8")
    (root / "pkg" / "model.py").write_text(SCRIPT, encoding="utf-8")
    return root


def outcome(result, root: Path) -> tuple[list, dict]:
    files = sorted({f.path for f in result.findings})  # already relative to `root` (scan's relative_to)
    errors = {Path(e.path).relative_to(root).as_posix() if Path(e.path).is_absolute() else e.path: e.message for e in result.errors}
    return files, errors


def test_a_symlink_loop_followed_is_scanned_once_and_reported(tmp_path):
    root = project(tmp_path / "project")
    (root / "pkg" / "again").symlink_to(root)
    result = scan([root], FOLLOW, relative_to=tmp_path)
    assert outcome(result, tmp_path) == (
        ["project/pkg/model.py", "project/train.py"],
        {"project/pkg/again": "symlink loop: this directory was already scanned"},
    )
    assert result.files_scanned == 2


def test_a_symlink_to_itself_is_reported_not_followed(tmp_path):
    root = project(tmp_path / "project")
    (root / "self.py").symlink_to(root / "self.py")
    result = scan([root], FOLLOW, relative_to=tmp_path)
    assert outcome(result, tmp_path)[1] == {"project/self.py": "cannot stat: Too many levels of symbolic links"}


@pytest.mark.parametrize(
    "settings, reason",
    [(Settings(target="npu"), "symlink not followed (set follow-symlinks to scan it)"), (FOLLOW, "symlink points outside the scanned tree ({})")],
    ids=["default", "follow-symlinks"],
)
def test_symlinks_out_of_the_tree_are_never_followed(tmp_path, settings, reason):
    root = project(tmp_path / "project")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text(SCRIPT, encoding="utf-8")
    (root / "linked_dir").symlink_to(outside)
    (root / "linked.py").symlink_to(outside / "secret.py")
    files, errors = outcome(scan([root], settings, relative_to=tmp_path), tmp_path)
    assert files == ["project/pkg/model.py", "project/train.py"]
    assert errors == {"project/linked.py": reason.format(outside / "secret.py"), "project/linked_dir": reason.format(outside)}


def test_a_broken_symlink_and_a_fifo_are_reported_and_never_opened(tmp_path):
    root = project(tmp_path / "project")
    (root / "gone.py").symlink_to(root / "deleted.py")
    os.mkfifo(root / "pipe.py")  # opening it for reading would block the scan for ever
    files, errors = outcome(scan([root], Settings(target="npu"), relative_to=tmp_path), tmp_path)
    assert files == ["project/pkg/model.py", "project/train.py"]
    assert errors == {"project/gone.py": "broken symlink", "project/pipe.py": "broken symlink or not a regular file"}
    files, errors = outcome(scan([root / "pipe.py"], Settings(target="npu"), relative_to=tmp_path), tmp_path)
    assert (files, errors) == ([], {"project/pipe.py": "not a regular file or directory"})


def test_files_deleted_during_the_scan_are_reported_and_the_scan_completes(tmp_path):
    root = tmp_path / "project"
    root.mkdir()
    for index in range(6):
        (root / f"step_{index}.py").write_text(SCRIPT, encoding="utf-8")

    def delete_the_rest(done: int, total: int) -> None:
        if done == 2:  # two files analysed: the other four vanish before they are read
            for index in range(2, 6):
                (root / f"step_{index}.py").unlink()

    result = scan([root], Settings(target="npu"), progress=delete_the_rest, relative_to=tmp_path)
    files, errors = outcome(result, tmp_path)
    assert files == ["project/step_0.py", "project/step_1.py"]
    assert errors == {f"project/step_{index}.py": "cannot read: No such file or directory" for index in range(2, 6)}
    assert result.files_scanned == 6


def test_a_directory_deleted_during_the_scan_is_reported(tmp_path):
    root = tmp_path / "project"
    (root / "a").mkdir(parents=True)
    (root / "a" / "first.py").write_text(SCRIPT, encoding="utf-8")
    (root / "b").mkdir()
    for index in range(3):
        (root / "b" / f"later_{index}.py").write_text(SCRIPT, encoding="utf-8")
    result = scan([root], Settings(target="npu"), progress=lambda done, total: shutil.rmtree(root / "b") if done == 1 else None, relative_to=tmp_path)
    files, errors = outcome(result, tmp_path)
    assert files == ["project/a/first.py"]
    assert errors == {f"project/b/later_{index}.py": "cannot read: No such file or directory" for index in range(3)}


def test_a_cancelled_scan_stops_cleanly_with_what_it_has(tmp_path):
    root = tmp_path / "project"
    root.mkdir()
    for index in range(20):
        (root / f"step_{index:02}.py").write_text(SCRIPT, encoding="utf-8")
    done = []
    result = scan([root], Settings(target="npu"), progress=lambda finished, total: done.append(finished), cancelled=lambda: len(done) >= 5, relative_to=tmp_path)
    assert result.files_scanned == 5
    assert [Path(f.path).name for f in result.findings] == [f"step_{index:02}.py" for index in range(5)]


CAN_DROP_PRIVILEGES = shutil.which("setpriv") is not None and os.geteuid() == 0


@pytest.mark.skipif(not CAN_DROP_PRIVILEGES, reason="needs root and setpriv (util-linux) to make files root cannot read")
def test_unreadable_files_and_directories_are_reported(tmp_path):
    """Root reads every file; without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH (setpriv) it cannot."""
    root = project(tmp_path / "project")
    (root / "secret.py").write_text(SCRIPT, encoding="utf-8")
    (root / "locked").mkdir()
    (root / "locked" / "hidden.py").write_text(SCRIPT, encoding="utf-8")
    (root / "secret.py").chmod(0)
    (root / "locked").chmod(0)
    environment = {**os.environ, "ASCEND_MIGRATE_MAPPINGS": str(TEST_MAPPINGS)}
    script = Path(sys.executable).with_name("ascend-migrate")
    try:
        completed = subprocess.run(
            ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--inh-caps=-dac_override,-dac_read_search", "--",
             str(script), "scan", "--format", "json", "project"],
            cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=120,
        )
    finally:
        (root / "locked").chmod(0o755)
    assert "Traceback" not in completed.stderr
    document = json.loads(completed.stdout)
    assert sorted({f["path"] for f in document["findings"]}) == ["project/pkg/model.py", "project/train.py"]
    assert document["errors"] == [
        {"path": "project/locked", "message": "cannot read directory: Permission denied"},
        {"path": "project/secret.py", "message": "cannot read: Permission denied"},
    ]


# Linux keeps the largest RSS a process had before exec in its ru_maxrss, and a child forked from pytest
# "had" all of pytest's pages (hundreds of MB after the property tests): so the command is started from a
# small fresh interpreter, and that one reports the command's own peak.
_MEASURE = """
import json, os, subprocess, sys
with open(sys.argv[1], "w", encoding="utf-8") as output:
    process = subprocess.Popen(sys.argv[2:], stdout=output, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(process.pid, 0)
print(usage.ru_maxrss)
"""


def peak_kilobytes_of(command: list[str], cwd: Path) -> tuple[int, str, float]:
    """Run `command`; its exit code is ignored. (peak RSS in kB of the process and its waited children, stdout, seconds)."""
    started = time.monotonic()
    measured = subprocess.run([sys.executable, "-c", _MEASURE, str(cwd / "out.json"), *command], cwd=cwd,
                              env={**os.environ, "ASCEND_MIGRATE_MAPPINGS": str(TEST_MAPPINGS)},
                              capture_output=True, text=True, check=True)
    return int(measured.stdout), (cwd / "out.json").read_text(encoding="utf-8"), time.monotonic() - started


@HEAVY
@pytest.mark.slow
def test_a_100000_file_workspace_completes_with_bounded_memory_and_every_skip_reported(tmp_path):
    root = tmp_path / "project"
    for package in range(1000):
        directory = root / f"package_{package:03}"
        directory.mkdir(parents=True)
        for module in range(100):
            (directory / f"module_{module:02}.py").write_text(f"def f_{module}(x):\n    return x + {package}\n", encoding="utf-8")
    (root / "package_000" / "module_00.py").write_text(SCRIPT, encoding="utf-8")
    skipped = {}
    for index in range(10):
        (root / f"package_{index:03}" / "broken.py").symlink_to(root / "nowhere.py")
        skipped[f"project/package_{index:03}/broken.py"] = "broken symlink"
        os.mkfifo(root / f"package_{index + 10:03}" / "pipe.py")
        skipped[f"project/package_{index + 10:03}/pipe.py"] = "broken symlink or not a regular file"
        (root / f"package_{index + 20:03}" / "latin.py").write_bytes(b"x = '\xff'\n")
    script = Path(sys.executable).with_name("ascend-migrate")
    peak, output, seconds = peak_kilobytes_of([str(script), "scan", "--format", "json", "--jobs", "2", "project"], tmp_path)
    document = json.loads(output)
    print(f"100,010 files scanned in {seconds:.1f} s, peak RSS {peak} kB")
    assert document["files_scanned"] == 100_010  # 100,000 modules and the 10 latin-1 files
    assert sorted({f["path"] for f in document["findings"]}) == ["project/package_000/module_00.py"]
    errors = {error["path"]: error["message"] for error in document["errors"]}
    assert {path: errors[path] for path in skipped} == skipped
    assert all(errors[f"project/package_{index + 20:03}/latin.py"].startswith("cannot read: invalid UTF-8") for index in range(10))
    assert len(errors) == 30
    assert peak < 400 * 1024, f"peak RSS {peak} kB"
