"""`ascend-migrate fix`: diff by default, atomic in-place writes, the change report, and files it must not touch."""

from __future__ import annotations

import csv
import json
import os
import stat
from pathlib import Path

import pytest

from ascend_migrate.cli import main

SCRIPT = 'import torch\n\nx = torch.zeros(3).cuda()\ntorch.cuda.synchronize()\ndevice = torch.device("cuda:0")\n'
FIXED = 'import torch\nimport torch_npu\n\nx = torch.zeros(3).npu()\ntorch.npu.synchronize()\ndevice = torch.device("npu:0")\n'


# The fixes room's own small knowledge base, so these outputs stay pinned however mappings/ grows.
FIXES_MAPPINGS = Path(__file__).resolve().parent.parent / "fixes" / "mappings"


@pytest.fixture(autouse=True)
def fixes_knowledge_base(monkeypatch):
    monkeypatch.setenv("ASCEND_MIGRATE_MAPPINGS", str(FIXES_MAPPINGS))


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "train.py").write_text(SCRIPT)
    return tmp_path


def test_the_default_prints_a_diff_and_changes_nothing(project, capsys):
    assert main(["fix", "--target", "npu", "train.py"]) == 1
    output = capsys.readouterr()
    assert output.out == (
        "--- a/train.py\n+++ b/train.py\n@@ -1,5 +1,6 @@\n import torch\n+import torch_npu\n \n"
        "-x = torch.zeros(3).cuda()\n-torch.cuda.synchronize()\n-device = torch.device(\"cuda:0\")\n"
        "+x = torch.zeros(3).npu()\n+torch.npu.synchronize()\n+device = torch.device(\"npu:0\")\n"
    )
    assert (project / "train.py").read_text() == SCRIPT


def test_the_change_list_goes_to_stderr(project, capsys):
    main(["fix", "--target", "npu", "--diff", "train.py"])
    assert capsys.readouterr().err.splitlines() == [
        "train.py:2: import (nothing) -> import torch_npu",
        "train.py:3: NPU105 x = torch.zeros(3).cuda() -> x = torch.zeros(3).npu()",
        "train.py:4: NPU101 torch.cuda.synchronize() -> torch.npu.synchronize()",
        'train.py:5: NPU102 device = torch.device("cuda:0") -> device = torch.device("npu:0")',
        "would apply 3 fixes in 1 file",
    ]


def test_write_changes_the_file_and_keeps_its_mode(project, capsys):
    os.chmod(project / "train.py", 0o751)
    assert main(["fix", "--target", "npu", "--write", "."]) == 0
    assert (project / "train.py").read_text() == FIXED
    assert stat.S_IMODE(os.stat(project / "train.py").st_mode) == 0o751
    assert capsys.readouterr().err.endswith("applied 3 fixes in 1 file\n")
    assert [path.name for path in project.iterdir()] == ["train.py"]  # no temporary file left behind


def test_a_second_run_finds_nothing_to_do(project, capsys):
    main(["fix", "--target", "npu", "--write", "train.py"])
    capsys.readouterr()
    assert main(["fix", "--target", "npu", "train.py"]) == 0
    output = capsys.readouterr()
    assert output.out == "" and output.err == "would apply 0 fixes in 0 files\n"


def test_crlf_line_breaks_and_the_encoding_stay(project):
    source = "# -*- coding: latin-1 -*-\r\nimport torch\r\nlabel = 'café'\r\ntorch.cuda.synchronize()\r\n"
    (project / "legacy.py").write_bytes(source.encode("latin-1"))
    assert main(["fix", "--target", "npu", "--write", "legacy.py"]) == 0
    assert (project / "legacy.py").read_bytes() == (
        "# -*- coding: latin-1 -*-\r\nimport torch\r\nimport torch_npu\r\nlabel = 'café'\r\ntorch.npu.synchronize()\r\n"
    ).encode("latin-1")


def test_a_byte_order_mark_stays(project):
    (project / "bom.py").write_bytes(b"\xef\xbb\xbfimport torch\ntorch.cuda.synchronize()\n")
    main(["fix", "--target", "npu", "--write", "bom.py"])
    assert (project / "bom.py").read_bytes() == b"\xef\xbb\xbfimport torch\nimport torch_npu\ntorch.npu.synchronize()\n"


def test_a_file_with_a_syntax_error_is_reported_and_never_touched(project, capsys):
    broken = "import torch\ntorch.cuda.synchronize(\n"
    (project / "broken.py").write_text(broken)
    assert main(["fix", "--target", "npu", "--write", "."]) == 1
    assert (project / "broken.py").read_text() == broken
    assert (project / "train.py").read_text() == FIXED
    assert "ascend-migrate: broken.py:2: syntax error: '(' was never closed; the file is left as it is" in capsys.readouterr().err


def test_write_refuses_a_symlink_that_leads_outside_the_given_paths(tmp_path, monkeypatch, capsys):
    outside = tmp_path / "outside.py"
    outside.write_text(SCRIPT)
    project = tmp_path / "project"
    project.mkdir()
    (project / "link.py").symlink_to(outside)
    monkeypatch.chdir(project)
    assert main(["fix", "--target", "npu", "--write", "link.py"]) == 1
    assert outside.read_text() == SCRIPT
    assert f"link.py: not written: it is a symlink to {outside}, outside the given paths" in capsys.readouterr().err


def test_write_through_a_symlink_inside_the_given_directory_keeps_the_link(project):
    (project / "pkg").mkdir()
    os.replace(project / "train.py", project / "pkg" / "train.py")
    (project / "pkg" / "alias.py").symlink_to("train.py")
    main(["fix", "--target", "npu", "--write", "pkg/alias.py", "pkg"])
    assert (project / "pkg" / "alias.py").is_symlink()
    assert (project / "pkg" / "train.py").read_text() == FIXED


def test_the_report_as_csv(project):
    main(["fix", "--target", "npu", "--report", "changes.csv", "train.py"])
    with open(project / "changes.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [(row["file"], row["line"], row["code"], row["before"], row["after"]) for row in rows] == [
        ("train.py", "2", "import", "", "import torch_npu"),
        ("train.py", "3", "NPU105", "x = torch.zeros(3).cuda()", "x = torch.zeros(3).npu()"),
        ("train.py", "4", "NPU101", "torch.cuda.synchronize()", "torch.npu.synchronize()"),
        ("train.py", "5", "NPU102", 'device = torch.device("cuda:0")', 'device = torch.device("npu:0")'),
    ]


@pytest.mark.parametrize("name", ["=HYPERLINK(1).py", "@SUM(1).py", "+1.py", "-1.py"])
def test_the_csv_report_never_starts_a_cell_with_a_formula(project, name):
    """A spreadsheet runs a cell that starts with = + - @; the report keeps the name readable and inert."""
    (project / name).write_text(SCRIPT)
    main(["fix", "--target", "npu", "--report", "changes.csv", "--", name])
    with open(project / "changes.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert {row["file"] for row in rows} == {" " + name}


def test_the_report_as_json_lists_unsafe_fixes_left(project):
    (project / "train.py").write_text("import torch\noptimizer = torch.optim.AdamW(params)\n")
    main(["fix", "--target", "npu", "--report", "changes.json", "train.py"])
    report = json.loads((project / "changes.json").read_text())
    assert report["changes"] == [] and report["errors"] == []
    assert [(item["line"], item["code"], item["reason"]) for item in report["skipped"]] == [
        (2, "NPU301", "unsafe fix: apply it with --unsafe (or one by one in the editor)")
    ]


def test_unsafe_applies_the_unsafe_fixes(project):
    (project / "train.py").write_text("import torch\noptimizer = torch.optim.AdamW(params)\n")
    main(["fix", "--target", "npu", "--unsafe", "--write", "train.py"])
    # torch itself is no longer used, so its import goes; torch_npu imports torch anyway.
    assert (project / "train.py").read_text() == "import torch_npu\noptimizer = torch_npu.optim.NpuFusedAdamW(params)\n"


def test_select_limits_the_fixes_to_some_codes(project):
    main(["fix", "--target", "npu", "--select", "NPU102", "--write", "train.py"])
    assert (project / "train.py").read_text() == (
        'import torch\nimport torch_npu\n\nx = torch.zeros(3).cuda()\ntorch.cuda.synchronize()\ndevice = torch.device("npu:0")\n'
    )


def test_a_report_name_without_a_known_extension_is_a_usage_error(project, capsys):
    assert main(["fix", "--target", "npu", "--report", "changes.txt", "train.py"]) == 2
    assert "the file name must end in .csv or .json" in capsys.readouterr().err


def test_diff_and_write_together_are_a_usage_error(project):
    with pytest.raises(SystemExit) as exit_info:
        main(["fix", "--diff", "--write", "train.py"])
    assert exit_info.value.code == 2


def test_a_fix_that_cannot_apply_is_explained_on_stderr(project, capsys):
    (project / "train.py").write_text("import torch\nfrom mylib import torch_npu\ntorch.cuda.synchronize()\n")
    assert main(["fix", "--target", "npu", "train.py"]) == 0
    assert capsys.readouterr().err.splitlines() == [
        "train.py:3: NPU101 not fixed: cannot add 'import torch_npu': 'torch_npu' is already imported as mylib.torch_npu",
        "would apply 0 fixes in 0 files",
    ]


def test_several_processes_fix_the_same_way_as_one(project, capsys):
    for number in range(6):
        (project / f"worker_{number}.py").write_text(SCRIPT)
    assert main(["fix", "--target", "npu", "--jobs", "2", "--write", "."]) == 0
    assert all((project / f"worker_{number}.py").read_text() == FIXED for number in range(6))
    assert capsys.readouterr().err.endswith("applied 21 fixes in 7 files\n")
