"""`ascend-migrate migrate SRC -o DST`: the copy, the source left byte for byte, the Ascend tool's analysis files,
the refusals, an interrupted run, excludes, files that cannot be migrated."""

import csv
import hashlib
import json
import shutil
from pathlib import Path

import pytest

from ascend_migrate.cli import main

PROJECT = Path(__file__).resolve().parents[1] / "fixtures" / "projects" / "pytorch_cifar"
ANALYSIS = "transplant_result_file"
MARKER = ".ascend-migrate-incomplete"


def _hashes(root: Path) -> dict[str, str]:
    """Every file under `root` (relative path → SHA-256 of its bytes), and its mode: a byte-for-byte snapshot."""
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest() + f" {path.stat().st_mode:o}"
        for path in sorted(root.rglob("*")) if path.is_file()
    }


def _rows(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


@pytest.fixture
def project(tmp_path):
    """A copy of the committed public project, so a test may add files to it."""
    copy = tmp_path / "pytorch_cifar"
    shutil.copytree(PROJECT, copy)
    return copy


@pytest.mark.parametrize("route", ["npu", "mindspore"])
def test_the_source_is_byte_identical_and_the_copy_is_migrated(tmp_path, capsys, route):
    before = _hashes(PROJECT)
    output = tmp_path / "out"
    code = main(["migrate", str(PROJECT), "-o", str(output), "--target", route, "--unsafe"])
    assert code == 0, capsys.readouterr().err
    assert _hashes(PROJECT) == before  # nothing in SRC was written, renamed or touched in mode
    assert not (output / MARKER).exists()
    copied = {path.relative_to(output).as_posix() for path in output.rglob("*") if path.is_file() and ANALYSIS not in path.parts}
    assert copied == set(before)
    main_text = (output / "main.py").read_text(encoding="utf-8")
    if route == "npu":
        assert "device = 'npu' if torch.npu.is_available() else 'cpu'" in main_text
        assert "import torch_npu" in main_text
    else:
        assert "torch.cuda.is_available()" not in main_text and "mindspore" in main_text
    # LICENSE and the other files that are not Python are copied as they are
    assert (output / "LICENSE").read_bytes() == (PROJECT / "LICENSE").read_bytes()
    summary = json.loads((output / ANALYSIS / "summary.json").read_text(encoding="utf-8"))
    assert summary["target"] == route and "main.py" in summary["files_changed"]
    assert summary["files_analysed"] == 6 and summary["fixes_applied"] > 0
    assert sum(summary["left_by_category"].values()) < sum(summary["findings_by_category"].values())
    err = capsys.readouterr().err
    assert f"{summary['fixes_applied']} fixes applied" in err and "found   left" in err


def test_the_analysis_files_have_the_ascend_tool_layout(tmp_path, capsys):
    output = tmp_path / "out"
    assert main(["migrate", str(PROJECT), "-o", str(output)]) == 0
    analysis = output / ANALYSIS
    # The headers the tool writes (msfmktransplt transplant.py and the analysers), row one of each file.
    headers = {
        "change_list.csv": ["File", "Start Line", "End Line", "Operation Type", "Message"],
        "unknown_api.csv": ["File", "Start Line", "End Line", "OP", "Tips"],
        "unsupported_api.csv": ["File", "Start Line", "End Line", "OP", "Tips"],
        "cuda_op_list.csv": ["File", "Api"],
        "affinity_api_call.csv": ["File", "Start Line", "End Line", "Api Type", "Api Call Name", "Affinity Api Name"],
        "full_unsupported_results.csv": ["File", "3rd-party API", "Message"],
    }
    for name, header in headers.items():
        assert _rows(analysis / name)[0] == header, name
    changes = _rows(analysis / "change_list.csv")[1:]
    assert ["main.py", "24", "24", "MODIFY"] == changes[[row[0:2] for row in changes].index(["main.py", "24"])][:4]
    assert {row[3] for row in changes} <= {"INSERT", "MODIFY", "DELETE"}
    # the change list names lines of the migrated file that hold what it says
    migrated = (output / "main.py").read_text(encoding="utf-8").splitlines()
    for row in changes:
        if row[0] == "main.py" and row[3] == "INSERT":
            assert "import torch_npu" in migrated[int(row[1]) - 1]
    cuda_apis = {row[1] for row in _rows(analysis / "cuda_op_list.csv")[1:]}
    assert "torch.cuda.is_available" in cuda_apis
    assert "[INFO] Start the analysis of main.py." in (analysis / "msFmkTranspltlog.txt").read_text(encoding="utf-8")
    findings = _rows(analysis / "findings.csv")
    assert findings[0][:2] == ["path", "line"] and any(row[0] == "main.py" for row in findings[1:])


def test_unknown_api_lists_torch_names_no_table_knows(project, tmp_path):
    (project / "odd.py").write_text("import torch\nimport torch.nn as nn\nx = nn.NoSuchLayer(3)\ny = nn.Linear(2, 3)\n", encoding="utf-8")
    output = tmp_path / "out"
    assert main(["migrate", str(project), "-o", str(output)]) == 0
    rows = _rows(output / ANALYSIS / "unknown_api.csv")[1:]
    assert [row[:4] for row in rows if row[0] == "odd.py"] == [["odd.py", "3", "3", "torch.nn.NoSuchLayer"]]


@pytest.mark.parametrize("where", ["same", "inside", "above"])
def test_an_output_inside_or_around_the_project_is_refused_and_nothing_is_written(project, capsys, where):
    output = {"same": project, "inside": project / "migrated", "above": project.parent}[where]
    before = _hashes(project.parent)
    assert main(["migrate", str(project), "-o", str(output), "--force"]) == 2
    assert "ascend-migrate: error:" in capsys.readouterr().err
    assert _hashes(project.parent) == before
    assert not (project / "migrated").exists()


def test_a_non_empty_output_needs_force(project, tmp_path, capsys):
    output = tmp_path / "out"
    output.mkdir()
    (output / "notes.txt").write_text("mine\n", encoding="utf-8")
    assert main(["migrate", str(project), "-o", str(output)]) == 2
    assert "not empty" in capsys.readouterr().err
    assert sorted(path.name for path in output.iterdir()) == ["notes.txt"]
    assert main(["migrate", str(project), "-o", str(output), "--force"]) == 0
    assert (output / "notes.txt").read_text(encoding="utf-8") == "mine\n" and (output / "main.py").is_file()


def test_an_interrupted_run_leaves_the_marker_and_only_whole_files(project, tmp_path, monkeypatch, capsys):
    from ascend_migrate.projects import migration, one_file

    seen = []

    def interrupted(item, target, plan):
        if len(seen) == 3:
            raise KeyboardInterrupt
        seen.append(item.relative)
        return one_file.migrate_file(item, target, plan)

    monkeypatch.setattr(migration, "migrate_file", interrupted)
    output = tmp_path / "out"
    assert main(["migrate", str(project), "-o", str(output)]) == 130
    assert "incomplete" in capsys.readouterr().err
    assert (output / MARKER).is_file()
    written = sorted(path.relative_to(output).as_posix() for path in output.rglob("*") if path.is_file() and path.name != MARKER)
    assert written == sorted(seen)  # the files finished before the interruption, no temporary file, no analysis
    for relative in seen:  # each whole: the source's bytes, or the fixed text of a complete run
        assert (output / relative).stat().st_size > 0
    assert not (output / ANALYSIS).exists()


def test_excludes_and_gitignore_are_honoured(project, tmp_path):
    (project / ".gitignore").write_text("data/\n*.pth\n", encoding="utf-8")
    (project / "data").mkdir()
    (project / "data" / "batch.bin").write_bytes(b"\x00" * 16)
    (project / "ckpt.pth").write_bytes(b"weights")
    (project / "env").mkdir()
    (project / "env" / "pyvenv.cfg").write_text("home = /usr\n", encoding="utf-8")
    output = tmp_path / "out"
    assert main(["migrate", str(project), "-o", str(output), "--extend-exclude", "models"]) == 0
    assert not (output / "data").exists() and not (output / "ckpt.pth").exists() and not (output / "models").exists()
    assert not (output / "env").exists() and (output / ".gitignore").is_file() and (output / "main.py").is_file()
    summary = json.loads((output / ANALYSIS / "summary.json").read_text(encoding="utf-8"))
    assert {"path": "env", "reason": "a virtual environment (it has pyvenv.cfg)"} in summary["skipped"]


def test_files_that_cannot_be_migrated_are_copied_unchanged_and_listed(project, tmp_path, capsys):
    broken = "import torch\ntorch.cuda.synchronize()\nx = torch.cuda.current_device(\n"
    (project / "broken.py").write_text(broken, encoding="utf-8")
    (project / "kernels.pyx").write_text("cdef int x = 0\n", encoding="utf-8")
    output = tmp_path / "out"
    assert main(["migrate", str(project), "-o", str(output)]) == 1  # not everything migrated: never "clean"
    err = capsys.readouterr().err
    assert "not migrated: broken.py:" in err and "syntax error" in err
    assert "not analysed (copied unchanged): 1 Cython source file" in err
    assert (output / "broken.py").read_text(encoding="utf-8") == broken
    summary = json.loads((output / ANALYSIS / "summary.json").read_text(encoding="utf-8"))
    assert summary["not_analysed"] == {"Cython source": 1}
    assert [error["path"] for error in summary["errors"]] == ["broken.py"]
    findings = _rows(output / ANALYSIS / "findings.csv")
    assert ["broken.py", "2"] in [row[:2] for row in findings]  # the statements that parse are analysed, as scan does


def test_usage_errors(project, tmp_path, capsys):
    assert main(["migrate", str(project / "main.py"), "-o", str(tmp_path / "a")]) == 2
    assert main(["migrate", str(project), "-o", str(tmp_path / "b"), "--distributed"]) == 2
    assert "--distributed needs --main FILE" in capsys.readouterr().err
    assert main(["migrate", str(project), "-o", str(tmp_path / "c"), "--auto", "--target", "mindspore"]) == 2
    assert main(["migrate", str(project), "-o", str(tmp_path / "d"), "--auto", "--main", str(tmp_path)]) == 2
    assert not any((tmp_path / name).exists() for name in "abcd")


def test_sigterm_ends_the_run_between_files_with_the_marker_left(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    project = tmp_path / "many"
    project.mkdir()
    body = "import torch\n" + "".join(f"x{index} = torch.cuda.current_device() + {index}\n" for index in range(200))
    for index in range(400):
        (project / f"module_{index:03}.py").write_text(body, encoding="utf-8")
    output = tmp_path / "out"
    process = subprocess.Popen([sys.executable, "-m", "ascend_migrate", "migrate", str(project), "-o", str(output)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (output / "module_005.py").exists():
        time.sleep(0.02)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert "incomplete" in err and (output / MARKER).is_file()
    names = sorted(os.listdir(output))
    assert all(name.startswith("module_") and name.endswith(".py") for name in names if name != MARKER)  # no temporary file
    assert 5 < len(names) < 401
    for name in names:
        if name != MARKER:
            text = (output / name).read_text(encoding="utf-8")
            assert text.count("torch.npu.current_device()") == 200  # each written file is whole and fixed


def test_a_handler_for_another_kind_of_file_plugs_in_by_suffix(project, tmp_path, monkeypatch):
    # The seam the notebooks helper uses: one function per file, chosen by suffix.
    from ascend_migrate.projects import one_file

    seen = []

    def shout(item, target, plan):
        seen.append(item.relative)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(item.source.read_text(encoding="utf-8").upper(), encoding="utf-8")
        return one_file.FileMigration(item.relative, analysed=True, changed=True)

    monkeypatch.setitem(one_file.HANDLERS, ".md", shout)
    output = tmp_path / "out"
    assert main(["migrate", str(project), "-o", str(output)]) == 0
    assert seen == ["SOURCE.md"]
    assert (output / "SOURCE.md").read_text(encoding="utf-8").startswith("# SOURCE")
    summary = json.loads((output / ANALYSIS / "summary.json").read_text(encoding="utf-8"))
    assert "SOURCE.md" in summary["files_changed"]


NOTEBOOK = {
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Explore"]},
        {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": ["import torch\n"]},
        {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
         "source": ["%matplotlib inline\n", "x = torch.cuda.current_device()"]},
    ],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                 "language_info": {"name": "python"}},
    "nbformat": 4, "nbformat_minor": 5,
}


def test_a_notebook_is_migrated_through_the_notebooks_handler(project, tmp_path):
    source = json.dumps(NOTEBOOK, indent=1) + "\n"
    (project / "explore.ipynb").write_text(source, encoding="utf-8")
    output = tmp_path / "out"
    assert main(["migrate", str(project), "-o", str(output)]) == 0
    assert (project / "explore.ipynb").read_text(encoding="utf-8") == source
    migrated = json.loads((output / "explore.ipynb").read_text(encoding="utf-8"))
    assert "".join(migrated["cells"][2]["source"]).endswith("x = torch.npu.current_device()")
    assert migrated["cells"][0] == NOTEBOOK["cells"][0] and migrated["metadata"] == NOTEBOOK["metadata"]
    rows = [row for row in _rows(output / ANALYSIS / "change_list.csv")[1:] if row[0] == "explore.ipynb"]
    assert any(row[4].startswith("cell 3: NPU101") and row[1] == "2" for row in rows)
    summary = json.loads((output / ANALYSIS / "summary.json").read_text(encoding="utf-8"))
    assert "explore.ipynb" in summary["files_changed"] and summary["not_analysed"] == {}
