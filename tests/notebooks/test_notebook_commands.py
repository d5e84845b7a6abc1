"""`scan` and `fix` on notebooks: cell and line in every report, fixes written into the cells' sources only."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from ascend_migrate.cli import main
from ascend_migrate.notebooks.document import parse_notebook

FIXTURE = Path(__file__).parent / "fixtures" / "cuda_training.ipynb"


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(FIXTURE, tmp_path / "train.ipynb")
    return tmp_path


def test_scan_names_the_cell_in_text_json_csv_and_sarif(project, capsys):
    assert main(["scan", "--target", "npu", "train.ipynb"]) == 1
    text = capsys.readouterr().out
    assert "train.ipynb\n  cell 2, line 2:8  NPU106 " in text
    assert "\n  cell 6, line 7:5  NPU101 " in text
    main(["scan", "--target", "npu", "--format", "json", "train.ipynb"])
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert [(item["cell"], item["line"], item["code"]) for item in findings] == [
        (2, 2, "NPU106"), (5, 1, "NPU102"), (5, 13, "NPU105"), (6, 7, "NPU101")]
    assert list(findings[0])[:3] == ["path", "cell", "line"]
    main(["scan", "--target", "npu", "--format", "csv", "-o", "findings.csv", "train.ipynb"])
    rows = list(csv.DictReader((project / "findings.csv").open(encoding="utf-8")))
    assert [(row["cell"], row["line"], row["code"]) for row in rows][-1] == ("6", "7", "NPU101")
    main(["scan", "--target", "npu", "--format", "csv", "-o", "ascend", "train.ipynb"])
    cuda_ops = list(csv.reader((project / "ascend" / "cuda_op_list.csv").open(encoding="utf-8")))
    assert ["train.ipynb (cell 6)", "torch.cuda.synchronize"] in cuda_ops
    main(["scan", "--target", "npu", "--format", "sarif", "-o", "report.sarif", "train.ipynb"])
    results = json.loads((project / "report.sarif").read_text())["runs"][0]["results"]
    assert [(result["properties"]["cell"], result["locations"][0]["physicalLocation"]["region"]["startLine"])
            for result in results] == [(2, 2), (5, 1), (5, 13), (6, 7)]
    # no snippet: the lines of the .ipynb's JSON are not the cell's lines
    assert all("snippet" not in result["locations"][0]["physicalLocation"]["region"] for result in results)


def test_a_directory_scan_takes_notebooks_and_leaves_jupyter_checkpoints_out(project, capsys):
    (project / ".ipynb_checkpoints").mkdir()
    shutil.copy(FIXTURE, project / ".ipynb_checkpoints" / "train-checkpoint.ipynb")
    main(["scan", "--target", "npu", "--format", "json", "."])
    report = json.loads(capsys.readouterr().out)
    assert {finding["path"] for finding in report["findings"]} == {"train.ipynb"}
    assert report["files_scanned"] == 1
    assert [item["path"] for item in report["skipped_directories"]] == [".ipynb_checkpoints"]


def _without_sources(text: str) -> tuple[str, list[str]]:
    """The notebook's text with every cell's source value cut out, and those values."""
    notebook = parse_notebook(text)
    pieces, sources, position = [], [], 0
    for cell in notebook.cells:
        pieces.append(text[position:cell.span[0]])
        sources.append(text[cell.span[0]:cell.span[1]])
        position = cell.span[1]
    return "".join(pieces) + text[position:], sources


def test_fix_writes_only_the_edited_sources_and_the_result_is_a_valid_notebook(project, capsys):
    before = (project / "train.ipynb").read_bytes()
    assert main(["fix", "--target", "npu", "--write", "train.ipynb"]) == 0
    assert capsys.readouterr().err.splitlines() == [
        "train.ipynb cell 2, line 5: NPU106 (nothing) -> import torch_npu",
        'train.ipynb cell 5, line 1: NPU102 device = torch.device("cuda:0") -> device = torch.device("npu:0")',
        "train.ipynb cell 5, line 13: NPU105 model = Net().cuda()  # la « carte » graphique -> model = Net().npu()  # la « carte » graphique",
        "train.ipynb cell 6, line 7: NPU101 torch.cuda.synchronize() -> torch.npu.synchronize()",
        "applied 4 fixes in 1 file",
    ]
    after = (project / "train.ipynb").read_bytes()
    rest_before, sources_before = _without_sources(before.decode("utf-8"))
    rest_after, sources_after = _without_sources(after.decode("utf-8"))
    assert rest_after == rest_before  # outputs, metadata, key order and layout: byte for byte
    changed = [index + 1 for index, (old, new) in enumerate(zip(sources_before, sources_after, strict=True)) if old != new]
    assert changed == [2, 5, 6]
    assert sources_after[1] == ('[\n    "%matplotlib inline\\n",\n    "import torch\\n",\n    "import torch.nn as nn\\n",\n'
                                '    "import torch.nn.functional as F\\n",\n    "import torch_npu"\n   ]')
    cells = parse_notebook(after.decode("utf-8")).cells
    assert cells[5].source == ("%%time\nfor step in range(3):\n    x = torch.randn(4, 8).to(device)\n    loss = model(x).sum()\n"
                               "    loss.backward()\n    %time torch.cuda.synchronize()\n    torch.npu.synchronize()\n"
                               "torch.cuda.empty_cache?")  # the IPython lines stay as they were
    # the lines a fix did not touch keep their exact JSON text, the non-ASCII comment unescaped as nbformat wrote it
    assert '"model = Net().npu()  # la « carte » graphique\\n"' in sources_after[4]
    nbformat = pytest.importorskip("nbformat")
    nbformat.validate(nbformat.reads(after.decode("utf-8"), as_version=4))
    # and a second run has nothing left to do
    assert main(["fix", "--target", "npu", "train.ipynb"]) == 0


def test_fix_keeps_another_layout_a_string_source_and_ascii_escapes(project):
    text = ('{\n  "nbformat_minor": 2,\n  "nbformat": 4,\n  "metadata": {"kernelspec": {"language": "python"}},\n'
            '  "cells": [\n    {\n      "source": "import torch\\n# caf\\u00e9\\nx = torch.ones(1).cuda()",\n'
            '      "cell_type": "code", "outputs": [], "metadata": {}, "execution_count": null\n    }\n  ]\n}\n')
    (project / "escaped.ipynb").write_text(text)
    assert main(["fix", "--target", "npu", "--write", "escaped.ipynb"]) == 0
    expected = text.replace('"import torch\\n# caf\\u00e9\\nx = torch.ones(1).cuda()"',
                            '"import torch\\nimport torch_npu\\n# caf\\u00e9\\nx = torch.ones(1).npu()"')
    assert (project / "escaped.ipynb").read_text() == expected


def test_a_broken_notebook_is_an_error_with_its_path_and_is_never_written(project, capsys):
    (project / "broken.ipynb").write_text('{"cells": [\n  {"cell_type": "code", "source": ["x"]\n')
    main(["scan", "--target", "npu", "broken.ipynb"])
    output = capsys.readouterr()
    assert "ascend-migrate: broken.ipynb: cannot read: not valid JSON: Expecting ',' delimiter at line 3, column 1" in output.err
    assert "Traceback" not in output.err
    assert "0 findings in 0 of 1 file" in output.out and "1 file not (fully) analysed" in output.out
    assert main(["fix", "--target", "npu", "--write", "broken.ipynb"]) == 1
    assert "broken.ipynb: cannot read: not valid JSON" in capsys.readouterr().err
    assert (project / "broken.ipynb").read_text() == '{"cells": [\n  {"cell_type": "code", "source": ["x"]\n'


@pytest.mark.parametrize(("content", "message"), [
    ('{"cells": [], "nbformat": 3}', "nbformat 3 is not supported (only nbformat 4"),
    ('{"worksheets": []}', 'not a Jupyter notebook: no list of "cells"'),
    ('{"cells": [{"cell_type": "code", "source": 3}], "nbformat": 4}', 'cell 1: "source" is neither a string nor a list'),
    ('{"cells": [], "nbformat": 4, "metadata": {"kernelspec": {"language": "R"}}}', "a R notebook (not Python): not analysed"),
])
def test_what_is_not_a_python_notebook_is_said_never_clean(project, capsys, content, message):
    (project / "other.ipynb").write_text(content)
    main(["scan", "--target", "npu", "other.ipynb"])
    output = capsys.readouterr()
    assert message in output.err and "other.ipynb" in output.err
    assert "1 file not (fully) analysed" in output.out


def test_a_syntax_error_is_placed_in_its_cell_and_the_other_cells_are_still_analysed(project, capsys):
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": source}
             for source in ["import torch\n", "x = (1,\n", "torch.cuda.synchronize()"]]
    text = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)
    (project / "broken_cell.ipynb").write_text(text)
    main(["scan", "--target", "npu", "broken_cell.ipynb"])
    output = capsys.readouterr()
    assert "ascend-migrate: broken_cell.ipynb: cell 2, line 1: syntax error: '(' was never closed" in output.err
    assert "  cell 3, line 1:1  NPU101 " in output.out
    assert main(["fix", "--target", "npu", "--write", "broken_cell.ipynb"]) == 1
    assert ("ascend-migrate: broken_cell.ipynb: cell 2, line 1: syntax error: '(' was never closed; the notebook is left as it is"
            in capsys.readouterr().err)
    assert (project / "broken_cell.ipynb").read_text() == text


def test_the_default_diff_is_of_the_notebook_file_and_changes_nothing(project, capsys):
    before = (project / "train.ipynb").read_bytes()
    assert main(["fix", "--target", "npu", "train.ipynb"]) == 1
    diff = capsys.readouterr().out
    assert diff.startswith("--- a/train.ipynb\n+++ b/train.ipynb\n@@ -19,7 +19,8 @@\n")
    assert '-    "import torch.nn.functional as F"\n+    "import torch.nn.functional as F\\n",\n+    "import torch_npu"\n' in diff
    assert '-    "    torch.cuda.synchronize()\\n",\n+    "    torch.npu.synchronize()\\n",\n' in diff
    assert (project / "train.ipynb").read_bytes() == before
