"""What the scan cannot read is never reported clean: a file named on the command line that is not Python source
or a notebook (or cannot be read) is an error entry with exit 2; such files met in a directory are counted in
the summary."""

import json
import os

from ascend_migrate.cli import main

CYTHON = "import torch\ncdef int x = 0\nx = torch.cuda.current_device()\n"


def test_a_named_file_of_a_kind_not_read_is_an_error_not_zero_findings(tmp_path, capsys):
    source = tmp_path / "kernels.pyx"
    source.write_text(CYTHON, encoding="utf-8")
    assert main(["scan", str(source), "--format", "json"]) == 2
    captured = capsys.readouterr()
    document = json.loads(captured.out)
    assert document["findings"] == [] and document["files_scanned"] == 0
    assert [error["message"] for error in document["errors"]] == [
        "not analysed: ascend-migrate does not read Cython source files (.pyx)"]
    assert "kernels.pyx: not analysed" in captured.err


def test_a_named_text_file_and_a_fifo_are_errors(tmp_path, capsys):
    notes = tmp_path / "notes.txt"
    notes.write_text("torch.cuda.synchronize()\n", encoding="utf-8")
    assert main(["scan", str(notes)]) == 2
    assert "not a Python source file (.txt" in capsys.readouterr().err
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    assert main(["scan", str(fifo)]) == 2
    assert "not a regular file" in capsys.readouterr().err


def test_a_script_without_suffix_but_a_python_shebang_is_analysed(tmp_path, capsys):
    script = tmp_path / "train"
    script.write_text("#!/usr/bin/env python3\nimport torch\ntorch.cuda.synchronize()\n", encoding="utf-8")
    assert main(["scan", str(script), "--target", "npu", "--format", "json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert [finding["code"] for finding in document["findings"]] == ["NPU101"] and document["errors"] == []


def test_cython_and_cuda_sources_in_a_directory_are_counted(tmp_path, capsys):
    (tmp_path / "model.py").write_text("import torch\nx = torch.ones(2)\n", encoding="utf-8")
    (tmp_path / "kernels.pyx").write_text(CYTHON, encoding="utf-8")
    (tmp_path / "kernels").mkdir()
    (tmp_path / "kernels" / "add.cu").write_text("__global__ void add() {}\n", encoding="utf-8")
    assert main(["scan", str(tmp_path), "--target", "npu"]) == 0  # the counted files do not fail a scan of a directory
    out = capsys.readouterr().out
    assert "not analysed: 2 files of a kind ascend-migrate does not read (1 CUDA source, 1 Cython source)" in out
    assert main(["scan", str(tmp_path), "--target", "npu", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert sorted(entry["kind"] for entry in document["not_analysed"]) == ["CUDA source", "Cython source"]
    assert document["files_scanned"] == 1
