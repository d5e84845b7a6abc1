"""Third-party lists in the Ascend tool's framework_unsupported_op.csv layout: written for a library folder
(`scan --third-party-report`), read by `scan`/`migrate --third-party-api`, uses found through re-exports."""

import csv
import json

from ascend_migrate.cli import main

LIBRARY = {
    "__init__.py": "from .ops import fused_fft, Blur\n",
    "ops.py": (
        "import torch\n"
        "\n"
        "\n"
        "def _kernel(x):\n"
        "    return torch.fft.ihfft2(x)\n"
        "\n"
        "\n"
        "def fused_fft(x):\n"
        "    return _kernel(x) * 2\n"
        "\n"
        "\n"
        "def safe(x):\n"
        "    return x + 1\n"
        "\n"
        "\n"
        "class Blur(torch.nn.Module):\n"
        "    def forward(self, x):\n"
        "        torch.cuda.synchronize()\n"
        "        return self.smooth(x)\n"
        "\n"
        "    def smooth(self, x):\n"
        "        return x\n"
    ),
}
PROJECT = (
    "import fakelib\n"
    "from fakelib import fused_fft\n"
    "from fakelib.ops import safe\n"
    "\n"
    "y = fused_fft(1)\n"
    "z = fakelib.Blur()\n"
    "w = safe(2)\n"
)


def _library(tmp_path):
    library = tmp_path / "fakelib"
    library.mkdir()
    for name, text in LIBRARY.items():
        (library / name).write_text(text, encoding="utf-8")
    return library


def _rows(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


def test_the_library_report_lists_what_its_functions_reach(tmp_path, capsys):
    library = _library(tmp_path)
    output = tmp_path / "lists"
    assert main(["scan", "--third-party-report", str(library), "-o", str(output), "--target", "npu"]) == 0
    unsupported = _rows(output / "framework_unsupported_op.csv")
    assert unsupported[0] == ["Torch API", "Affected 3rd-party API"]
    reached = {row[0]: set(row[1].split("\n")) for row in unsupported[1:]}
    # _kernel calls it directly, fused_fft through _kernel, and the package re-exports fused_fft; safe reaches nothing
    assert reached == {"torch.fft.ihfft2": {"fakelib.ops._kernel", "fakelib.ops.fused_fft", "fakelib.fused_fft"}}
    cuda = {row[0]: set(row[1].split("\n")) for row in _rows(output / "migration_needed_op.csv")[1:]}
    assert cuda == {"torch.cuda.synchronize": {"fakelib.ops.Blur.forward"}}
    assert "functions of" in capsys.readouterr().err


def test_scan_and_migrate_report_the_uses_of_a_listed_api(tmp_path, capsys):
    library = _library(tmp_path)
    lists = tmp_path / "lists"
    assert main(["scan", "--third-party-report", str(library), "-o", str(lists), "--target", "npu"]) == 0
    project = tmp_path / "project"
    project.mkdir()
    (project / "train.py").write_text(PROJECT, encoding="utf-8")
    capsys.readouterr()
    listed = str(lists / "framework_unsupported_op.csv")
    assert main(["scan", str(project), "--target", "npu", "--format", "json", "--third-party-api", listed]) == 1
    document = json.loads(capsys.readouterr().out)
    uses = [(finding["line"], finding["api"]) for finding in document["findings"] if finding["code"] == "TP102"]
    assert uses == [(2, "fakelib.fused_fft"), (5, "fakelib.fused_fft")]  # the import and the call; `safe` is not listed
    output = tmp_path / "migrated"
    assert main(["migrate", str(project), "-o", str(output), "--third-party-api", listed]) == 0
    rows = _rows(output / "transplant_result_file" / "full_unsupported_results.csv")
    assert [row[:2] for row in rows[1:]] == [["train.py", "fakelib.fused_fft"], ["train.py", "fakelib.fused_fft"]]
    summary = json.loads((output / "transplant_result_file" / "summary.json").read_text(encoding="utf-8"))
    assert summary["extra"]["third_party_uses"] == 2


def test_a_list_in_another_layout_is_refused_with_its_line(tmp_path, capsys):
    wrong = tmp_path / "list.csv"
    wrong.write_text("API,Where\ntorch.x,lib.y\n", encoding="utf-8")
    assert main(["scan", str(tmp_path), "--third-party-api", str(wrong)]) == 2
    assert f"{wrong}:1: expected the header `Torch API, Affected 3rd-party API`" in capsys.readouterr().err
    project = tmp_path / "project"
    project.mkdir()
    output = tmp_path / "out"
    assert main(["migrate", str(project), "-o", str(output), "--third-party-api", str(wrong)]) == 2
    assert "expected the header" in capsys.readouterr().err
    assert not output.exists()
