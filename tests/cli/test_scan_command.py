"""`ascend-migrate scan`: the JSON contract, exit codes, configuration, suppression and bad files."""

from __future__ import annotations

import os

import pytest

from ascend_migrate import __version__

FINDING_KEYS = {"path", "line", "column", "end_line", "end_column", "code", "category", "severity", "api",
                "message", "suggestion", "confidence", "fixable", "doc_url"}


def test_version_and_help(cli):
    assert cli("--version").stdout.strip() == f"ascend-migrate {__version__}"
    help_text = cli("--help").stdout
    for command in ("scan", "fix", "kb", "serve"):
        assert command in help_text
    assert "--min-confidence" in cli("scan", "--help").stdout


def test_json_contract(scan_json, project):
    status, document = scan_json("--target", "npu", str(project))
    assert status == 1  # CUDA renames are required on the npu route (--fail-on required, the default)
    assert set(document) == {"version", "tool", "target", "files_scanned", "skipped_directories", "not_analysed", "findings", "errors"}
    assert document["version"] == 1
    assert document["tool"] == {"name": "ascend-migrate", "version": __version__}
    assert document["target"] == "npu" and document["files_scanned"] == 2 and document["errors"] == []
    for finding in document["findings"]:
        assert set(finding) == FINDING_KEYS
    lines = sorted((f["line"], f["code"]) for f in document["findings"])
    assert (8, "NPU103") in lines and (11, "NPU105") in lines and (12, "NPU101") in lines
    assert all(f["path"].endswith("train.py") for f in document["findings"])
    assert not any(f["line"] == 7 for f in document["findings"])  # "cuda" in a description is prose


def test_exit_code_follows_fail_on(cli, project):
    assert cli("scan", "--target", "npu", "--fail-on", "warning", str(project)).returncode == 1
    assert cli("scan", "--target", "npu", "--fail-on", "error", str(project / "pkg")).returncode == 0


def test_usage_and_configuration_errors_exit_2_without_traceback(cli, project):
    completed = cli("scan", "--target", "gpu", str(project))
    assert completed.returncode == 2 and "invalid choice" in completed.stderr
    (project / "pyproject.toml").write_text('[tool.ascend-migrate]\ntarget = "npu"\ncolour = true\n', encoding="utf-8")
    completed = cli("scan", str(project))
    assert completed.returncode == 2
    assert "pyproject.toml [tool.ascend-migrate]: colour: unknown setting" in completed.stderr
    assert "Traceback" not in completed.stderr


def test_pyproject_settings_and_cli_override(scan_json, project):
    (project / "pyproject.toml").write_text(
        '[tool.ascend-migrate]\ntarget = "npu"\nignore = ["NPU103"]\nexclude = ["pkg"]\n', encoding="utf-8"
    )
    status, document = scan_json(str(project))
    assert document["target"] == "npu" and document["files_scanned"] == 1
    assert "NPU103" not in {f["code"] for f in document["findings"]}
    _, document = scan_json("--ignore", "NPU1", str(project))
    assert {f["code"] for f in document["findings"]} == set()


def test_select_by_category(scan_json, project):
    _, document = scan_json("--target", "npu", "--select", "npu-rename", str(project))
    assert document["findings"] and {f["category"] for f in document["findings"]} == {"npu-rename"}


def test_suppression_comments(scan_json, tmp_path):
    (tmp_path / "a.py").write_text(
        "import torch\n"
        "torch.cuda.synchronize()  # ascend-migrate: ignore\n"
        "torch.cuda.synchronize()  # ascend-migrate: ignore[NPU101]\n"
        "torch.cuda.synchronize()  # ascend-migrate: ignore[MS1]\n",
        encoding="utf-8",
    )
    _, document = scan_json("--target", "npu", str(tmp_path))
    assert [f["line"] for f in document["findings"]] == [4]


def test_bad_files_become_errors_and_the_scan_goes_on(cli, tmp_path):
    (tmp_path / "good.py").write_text("import torch\ntorch.cuda.synchronize()\n", encoding="utf-8")
    (tmp_path / "syntax.py").write_text("def broken(:\n", encoding="utf-8")
    (tmp_path / "latin.py").write_bytes(b"x = '\xff\xfe'\n")
    (tmp_path / "nul.py").write_bytes(b"x = 1\x00\n")
    (tmp_path / "deep.py").write_text("x = " + "(" * 5000 + ")" * 5000 + "\n", encoding="utf-8")
    os.symlink(tmp_path, tmp_path / "loop")
    completed = cli("scan", "--target", "npu", "--format", "json", str(tmp_path))
    assert "Traceback" not in completed.stderr
    import json

    document = json.loads(completed.stdout)
    assert [f["path"].rsplit("/", 1)[-1] for f in document["findings"]] == ["good.py"]
    reasons = {error["path"].rsplit("/", 1)[-1]: error["message"] for error in document["errors"]}
    assert reasons["syntax.py"].startswith("syntax error")
    assert "invalid utf-8" in reasons["latin.py"].lower()
    assert "nul.py" in reasons and "deep.py" in reasons
    assert "symlink" in reasons["loop"]
    assert len(completed.stderr.strip().splitlines()) == len(document["errors"])


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file; an unreadable file cannot be made")
def test_unreadable_file(cli, tmp_path):
    secret = tmp_path / "secret.py"
    secret.write_text("x = 1\n", encoding="utf-8")
    secret.chmod(0)
    completed = cli("scan", "--format", "json", str(tmp_path))
    assert "cannot read" in completed.stdout


def test_gitignore_is_honoured(scan_json, project):
    (project / ".gitignore").write_text("pkg/\n", encoding="utf-8")
    _, document = scan_json(str(project))
    assert document["files_scanned"] == 1


def test_jobs_give_the_same_result(scan_json, project):
    """Workers take the largest files first and finish in any order; the report is in discovery order."""
    script = (project / "train.py").read_text(encoding="utf-8")
    for index in range(12):
        (project / f"copy_{index}.py").write_text(script * (1 + index % 4), encoding="utf-8")
        (project / f"broken_{index}.py").write_text("import torch\n" * index + "def f(:\n", encoding="utf-8")
    (project / "zz_largest.py").write_text(script * 60, encoding="utf-8")
    _, one = scan_json("--target", "npu", "--jobs", "1", str(project))
    _, two = scan_json("--target", "npu", "--jobs", "2", str(project))
    assert one == two and one["files_scanned"] == 27
    assert [error["path"] for error in one["errors"]] == sorted(error["path"] for error in one["errors"])
    assert len(one["errors"]) == 12


def test_text_output_groups_by_file_and_summarises(cli, project):
    completed = cli("scan", "--target", "npu", str(project))
    lines = completed.stdout.splitlines()
    assert lines[0].endswith("train.py")
    assert any(line.startswith("  npu-rename") for line in lines)
    assert "\x1b[" not in completed.stdout  # no colour when piped
    assert " in 1 of 2 files for Ascend NPU (torch_npu)" in completed.stdout


def test_csv_needs_an_output_directory(cli, project):
    completed = cli("scan", "--format", "csv", str(project))
    assert completed.returncode == 2 and "--output" in completed.stderr


@pytest.mark.parametrize("command", ["scan", "fix"])
@pytest.mark.parametrize("report_format", ["text", "json", "sarif"])
def test_a_path_that_does_not_exist_is_a_usage_error_naming_it(cli, project, command, report_format):
    """A typo in a CI script's path used to scan nothing and exit 0 ("0 findings in 0 of 0 files")."""
    arguments = ("--format", report_format) if command == "scan" else ()
    completed = cli(command, *arguments, str(project / "train.py"), "nosuch/", cwd=project)
    assert (completed.returncode, completed.stdout) == (2, "")
    assert completed.stderr == "ascend-migrate: error: nosuch: no such file or directory\n"


def test_a_50_megabyte_file_is_skipped_with_a_reason(scan_json, tmp_path):
    with open(tmp_path / "generated.py", "w", encoding="utf-8") as handle:
        line = "x = [" + "1, " * 100 + "]\n"
        handle.write(line * (50 * 1024 * 1024 // len(line) + 1))
    (tmp_path / "train.py").write_text("import torch\ntorch.cuda.synchronize()\n", encoding="utf-8")
    _, document = scan_json("--target", "npu", str(tmp_path))
    assert [f["path"].rsplit("/", 1)[-1] for f in document["findings"]] == ["train.py"]
    (error,) = document["errors"]
    assert error["path"].endswith("generated.py") and "MiB are skipped" in error["message"]


def test_per_path_ignores(scan_json, project):
    (project / "pyproject.toml").write_text(
        '[tool.ascend-migrate]\ntarget = "npu"\n[tool.ascend-migrate.per-path-ignores]\n"train.py" = ["NPU101"]\n',
        encoding="utf-8",
    )
    _, document = scan_json(str(project))
    codes = {f["code"] for f in document["findings"]}
    assert "NPU101" not in codes and "NPU103" in codes
