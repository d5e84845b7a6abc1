"""Issue 22, CLI and CI: the commands never say "clean" when they are not, and say what they did.

Every test runs the real command (`python -m ascend_migrate`) on files written here, with the tests' own
knowledge base (tests/fixtures/mappings), except the `kb lookup` ones, which read the shipped tables the way a
user does.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

TEST_MAPPINGS = Path(__file__).resolve().parents[1] / "fixtures" / "mappings"
CUDA_SCRIPT = "import torch\n\ntorch.cuda.synchronize()\n"
# A PyTorch model: nothing in it runs on MindSpore, though every finding is a warning or an info.
TORCH_MODEL = '''\
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x).view(-1)
'''


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# --- configuration that is not what it seems ----------------------------------------------------------------

@pytest.mark.parametrize("table", ["ascend_migrate", "ascendmigrate", "Ascend-Migrate", "ascend.migrate", "acsend-migrate"])
def test_a_misspelt_tool_table_is_an_error_naming_the_file_and_the_table(cli, tmp_path, table):
    write(tmp_path / "pyproject.toml", f'[project]\nname = "trainer"\n\n[tool.{table}]\ntarget = "mindspore"\n')
    write(tmp_path / "train.py", CUDA_SCRIPT)
    completed = cli("scan", "train.py", cwd=tmp_path)
    assert (completed.returncode, completed.stdout) == (2, "")
    assert completed.stderr == (f"ascend-migrate: error: {tmp_path}/pyproject.toml: [tool.{table}]: ascend-migrate reads "
                                "only [tool.ascend-migrate]; rename this table to [tool.ascend-migrate]\n")


def test_a_pyproject_that_is_not_valid_toml_is_an_error_naming_the_file_and_line(cli, tmp_path):
    write(tmp_path / "pyproject.toml", '[project]\nname = "trainer"\n\n[tool.ascend-migrate]\ntarget = "mindspore\n')
    write(tmp_path / "src" / "train.py", CUDA_SCRIPT)
    completed = cli("scan", "src", cwd=tmp_path)  # found by walking up from the scanned directory
    assert (completed.returncode, completed.stdout) == (2, "")
    assert completed.stderr.startswith(f"ascend-migrate: error: {tmp_path}/pyproject.toml: [tool.ascend-migrate]: not valid TOML: ")
    assert "(at line 5, column 20)" in completed.stderr


@pytest.mark.parametrize("other", ['[tool.ascend-toolkit]\nroot = "/opt"\n', '[tool.migrate]\ndatabase = "x"\n',
                                   'dependencies = ["ascend-migrate"]\n'])
def test_another_tools_table_beside_ours_is_still_passed_over(cli, tmp_path, other):
    write(tmp_path / "pyproject.toml", f'[project]\nname = "trainer"\n{other}')
    write(tmp_path / "train.py", CUDA_SCRIPT)
    completed = cli("scan", "--format", "json", "train.py", cwd=tmp_path)
    assert completed.stderr == ""
    assert json.loads(completed.stdout)["target"] == "npu"


# --- what the scan skipped, and why -------------------------------------------------------------------------

def test_environments_are_skipped_by_what_they_are_and_packages_named_env_or_build_are_scanned(cli, tmp_path):
    write(tmp_path / "env" / "__init__.py", CUDA_SCRIPT)  # a real package that happens to be called env
    write(tmp_path / "build" / "graph.py", CUDA_SCRIPT)  # and one called build
    write(tmp_path / "myenv" / "pyvenv.cfg", "home = /usr/bin\n")  # a virtual environment with an unusual name
    write(tmp_path / "myenv" / "lib" / "python3.11" / "site-packages" / "torchlib" / "core.py", CUDA_SCRIPT)
    write(tmp_path / "conda" / "conda-meta" / "history", "")
    write(tmp_path / "conda" / "pkgs" / "tool.py", CUDA_SCRIPT)
    write(tmp_path / "bare" / "lib" / "python3.12" / "site-packages" / "x.py", CUDA_SCRIPT)
    completed = cli("scan", "--format", "json", ".", cwd=tmp_path)
    document = json.loads(completed.stdout)
    assert sorted({finding["path"] for finding in document["findings"]}) == ["build/graph.py", "env/__init__.py"]
    assert document["skipped_directories"] == [
        {"path": "bare", "reason": "a Python environment (it has lib/python*/site-packages)"},
        {"path": "conda", "reason": "a conda environment (it has conda-meta)"},
        {"path": "myenv", "reason": "a virtual environment (it has pyvenv.cfg)"},
    ]
    text = cli("scan", ".", cwd=tmp_path).stdout
    assert "skipped 3 directories that hold no project code:\n  bare: a Python environment" in text
    assert "  myenv: a virtual environment (it has pyvenv.cfg)\n" in text


def test_setuptools_build_output_is_skipped_and_said_so(cli, tmp_path):
    write(tmp_path / "trainer" / "train.py", CUDA_SCRIPT)
    write(tmp_path / "build" / "lib" / "trainer" / "train.py", CUDA_SCRIPT)
    document = json.loads(cli("scan", "--format", "json", ".", cwd=tmp_path).stdout)
    assert {finding["path"] for finding in document["findings"]} == {"trainer/train.py"}
    assert document["skipped_directories"] == [
        {"path": "build", "reason": "build output of setuptools (build/lib holds copies of the sources)"}]


# --- exit codes and the readiness score follow the work left -------------------------------------------------

def test_the_mindspore_route_fails_on_a_model_that_cannot_run_there(cli, tmp_path):
    write(tmp_path / "model.py", TORCH_MODEL)
    completed = cli("scan", "--target", "mindspore", "--format", "json", "model.py", cwd=tmp_path)
    severities = {finding["severity"] for finding in json.loads(completed.stdout)["findings"]}
    assert "error" not in severities and severities  # warnings and infos only: the old default passed this
    assert completed.returncode == 1
    assert cli("scan", "--target", "mindspore", "--fail-on", "error", "model.py", cwd=tmp_path).returncode == 0


def test_on_the_npu_route_performance_advice_alone_does_not_fail_the_run(cli, tmp_path):
    write(tmp_path / "train.py", "import torch\nimport torch_npu\n\nindices = torch.nonzero(torch.ones(3))\n")
    completed = cli("scan", "--format", "json", "train.py", cwd=tmp_path)
    assert [finding["category"] for finding in json.loads(completed.stdout)["findings"]] == ["npu-dynamic-shape"]
    assert completed.returncode == 0
    assert cli("scan", "--fail-on", "warning", "train.py", cwd=tmp_path).returncode == 1


def test_the_html_score_of_a_model_that_cannot_run_is_not_high_and_the_page_says_why(cli, tmp_path):
    write(tmp_path / "model.py", TORCH_MODEL)
    completed = cli("scan", "--target", "mindspore", "-o", "report.html", "model.py", cwd=tmp_path)
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    score = int(page.split('id="overall-score" data-score="')[1].split('"')[0])
    assert 40 <= score <= 79, score  # required changes left, none a blocker
    assert "Cannot run on the target yet: " in page and "required changes left" in page
    assert "The band says whether the code can run on the target" in page
    assert completed.returncode == 1


def test_text_and_html_count_safe_and_unsafe_fixes_alike(cli, tmp_path):
    """The text summary said "3 fixable" (safe and unsafe) where the HTML said "1 fixed automatically" (safe)."""
    write(tmp_path / "model.py", TORCH_MODEL)
    text = cli("scan", "--target", "mindspore", "model.py", cwd=tmp_path).stdout
    cli("scan", "--target", "mindspore", "-o", "report.html", "model.py", cwd=tmp_path)
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    findings = json.loads(cli("scan", "--target", "mindspore", "--format", "json", "model.py", cwd=tmp_path).stdout)["findings"]
    assert sum(1 for finding in findings if finding["fixable"]) == 3  # Linear (safe); Module and forward (unsafe)
    assert "(1 safe fix: `ascend-migrate fix`; 2 more to review: `ascend-migrate fix --unsafe`)" in text
    assert 'id="fixable-findings" data-count="1">1</span><span class="card-label">safe fixes</span>' in page
    assert "applied by ascend-migrate fix; 2 more with --unsafe (review them)" in page


# --- versions -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("version, table", [("2.4", "2.1"), ("2.7.1", None), ("2.6", None)])
def test_a_torch_version_between_the_ascend_tables_names_the_table_used(cli, tmp_path, version, table):
    write(tmp_path / "train.py", CUDA_SCRIPT)
    completed = cli("scan", "--torch-version", version, "train.py", cwd=tmp_path)
    assert completed.returncode == 1  # the findings are still reported
    if table is None:
        assert completed.stderr == ""
    else:
        assert completed.stderr == (f"ascend-migrate: warning: PyTorch {version} has no Ascend table of its own (tables: "
                                    f"2.1, 2.6, 2.7 and 2.8); using the PyTorch {table} table, the nearest older one\n")


@pytest.mark.parametrize("arguments, message", [
    (("--torch-version", "1.13"), "command line: --torch-version: PyTorch 1.13 is outside the knowledge base: its tables "
                                  "cover PyTorch 2.1 to 2.8 (written for 2.1, 2.6, 2.7 and 2.8)"),
    (("--torch-version", "9.9"), "command line: --torch-version: PyTorch 9.9 is outside the knowledge base: its tables "
                                 "cover PyTorch 2.1 to 2.8 (written for 2.1, 2.6, 2.7 and 2.8)"),
    (("--target", "mindspore", "--tensorflow-version", "3.1"), "command line: --tensorflow-version: TensorFlow 3.1 is "
     "outside the knowledge base: its tables cover TensorFlow 1.15 to 2.19 (written for 1.15 and 2.6)"),
])
def test_a_version_outside_every_table_is_a_usage_error(cli, tmp_path, arguments, message):
    write(tmp_path / "train.py", CUDA_SCRIPT)
    completed = cli("scan", *arguments, "train.py", cwd=tmp_path)
    assert (completed.returncode, completed.stdout, completed.stderr) == (2, "", f"ascend-migrate: error: {message}\n")


def test_a_version_outside_every_table_in_the_config_names_the_file_and_key(cli, tmp_path):
    write(tmp_path / "pyproject.toml", '[tool.ascend-migrate]\ntorch-version = "1.13"\n')
    write(tmp_path / "train.py", CUDA_SCRIPT)
    completed = cli("scan", "train.py", cwd=tmp_path)
    assert completed.returncode == 2
    assert completed.stderr.startswith(f"ascend-migrate: error: {tmp_path}/pyproject.toml [tool.ascend-migrate]: "
                                       "torch-version: PyTorch 1.13 is outside the knowledge base")


def test_the_tensorflow_version_flag_chooses_the_entries(cli, tmp_path):
    write(tmp_path / "keras_model.py", "import tensorflow as tf\n\nlayer = tf.keras.layers.Dense(4)\n")
    completed = cli("scan", "--target", "mindspore", "--tensorflow-version", "2.12", "--format", "json", "keras_model.py", cwd=tmp_path)
    assert [finding["api"] for finding in json.loads(completed.stdout)["findings"]] == ["tensorflow.keras.layers.Dense"]
    assert completed.stderr == ("ascend-migrate: warning: TensorFlow 2.12 has no MindSpore table of its own (tables: 1.15 "
                                "and 2.6); using the TensorFlow 2.6 table, the nearest older one\n")


# --- report files -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, starts", [("report.html", "<!DOCTYPE html>"), ("report.json", "{\n"),
                                          ("report.sarif", "{"), ("report.txt", "train.py\n")])
def test_the_output_suffix_chooses_the_format(cli, tmp_path, name, starts):
    write(tmp_path / "train.py", CUDA_SCRIPT)
    completed = cli("scan", "-o", name, "train.py", cwd=tmp_path)
    assert completed.returncode == 1 and completed.stdout == ""
    text = (tmp_path / name).read_text(encoding="utf-8")
    assert text.startswith(starts)
    if name.endswith(".sarif"):
        assert json.loads(text)["version"] == "2.1.0"


def test_csv_to_a_file_name_writes_the_findings_table_there_not_a_directory(cli, tmp_path):
    write(tmp_path / "train.py", CUDA_SCRIPT)
    for arguments in (("--format", "csv", "-o", "x.csv"), ("-o", "y.csv")):
        completed = cli("scan", *arguments, "train.py", cwd=tmp_path)
        assert completed.returncode == 1, completed.stderr
    for name in ("x.csv", "y.csv"):
        assert (tmp_path / name).is_file()
        rows = (tmp_path / name).read_text(encoding="utf-8").splitlines()
        assert rows[0].startswith("path,line,column") and rows[1].startswith("train.py,3,")
    completed = cli("scan", "--format", "csv", "-o", "report", "train.py", cwd=tmp_path)
    assert (tmp_path / "report" / "findings.csv").is_file() and (tmp_path / "report" / "cuda_op_list.csv").is_file()


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_report_files_follow_the_umask(tmp_path, umask, mode):
    write(tmp_path / "train.py", CUDA_SCRIPT)
    for name in ("report.html", "report.json"):
        subprocess.run([sys.executable, "-c", f"import os, sys; os.umask({umask}); from ascend_migrate.cli import main; "
                        f"sys.exit(main(['scan', '-o', '{name}', 'train.py']))"],
                       cwd=tmp_path, env={**os.environ, "ASCEND_MIGRATE_MAPPINGS": str(TEST_MAPPINGS)}, timeout=120)
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == mode


# --- kb lookup takes the names users type --------------------------------------------------------------------

def kb_lookup(*arguments: str) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items() if key != "ASCEND_MIGRATE_MAPPINGS"}
    return subprocess.run([sys.executable, "-m", "ascend_migrate", "kb", "lookup", *arguments],
                          capture_output=True, text=True, env=environment, timeout=120)


@pytest.mark.parametrize("typed, api", [("nn.Conv2d", "torch.nn.Conv2d"), ("Conv2d", "torch.nn.Conv2d"),
                                        ("F.relu", "torch.nn.functional.relu"), ("tf.keras.layers.LSTM", "tensorflow.keras.layers.LSTM"),
                                        ("layers.LSTM", "tensorflow.keras.layers.LSTM")])
def test_lookup_accepts_import_aliases_and_short_names(typed, api):
    completed = kb_lookup(typed, "--json")
    assert completed.returncode == 0, completed.stderr
    assert {entry["api"] for entry in json.loads(completed.stdout)} == {api}
    text = kb_lookup(typed).stdout
    assert text.startswith(f"{typed}: ") and f" for {api}\n" in text.splitlines()[0] + "\n"


def test_lookup_of_an_unknown_name_suggests_the_close_ones():
    completed = kb_lookup("tf.keras.layers.ConvLSTM3D")  # (Dense and Conv3D have curated entries since issue 21)
    assert (completed.returncode, completed.stdout) == (1, "")
    assert completed.stderr.startswith("no entry for tf.keras.layers.ConvLSTM3D; did you mean tensorflow.keras.layers.Conv3D, ")
    assert kb_lookup("nn.Conv3dd").stderr.startswith("no entry for nn.Conv3dd; did you mean torch.nn.Conv3d, ")
    assert kb_lookup("xyzzy_nothing_like_it").stderr == "no entry for xyzzy_nothing_like_it\n"


# --- usage --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("arguments, usage, hint", [
    (("scan", "--traget", "npu"), "usage: ascend-migrate scan ", "unrecognized arguments: --traget; did you mean --target?"),
    (("fix", "--wrte"), "usage: ascend-migrate fix ", "unrecognized arguments: --wrte; did you mean --write?"),
    (("kb", "lookup", "x", "--jsno"), "usage: ascend-migrate kb lookup ", "unrecognized arguments: --jsno; did you mean --json?"),
])
def test_a_misspelt_option_prints_the_commands_usage_and_the_option_meant(cli, tmp_path, arguments, usage, hint):
    completed = cli(*arguments, cwd=tmp_path)
    assert (completed.returncode, completed.stdout) == (2, "")
    assert completed.stderr.startswith(usage)
    assert completed.stderr.endswith(f"error: {hint}\n")
