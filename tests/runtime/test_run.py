"""`ascend-migrate run` on small training scripts: each pitfall is caught at its line, the fixed script runs clean."""

from __future__ import annotations

import csv

import pytest

from tests.runtime.conftest import PROGRAMS, marked_line

pytest.importorskip("torch")


def test_pitfalls_are_reported_at_their_lines_with_the_static_codes(run_program):
    run = run_program("--format", "json", "--", "python", str(PROGRAMS / "pitfalls.py"))
    assert run.status == 1, run.stderr  # required findings (NPU1xx, NPU201), the program itself completed
    assert run.report["program"]["outcome"] == "completed"
    codes = run.codes_at("pitfalls.py")
    assert codes[marked_line("pitfalls.py", "cuda-left")] == {"NPU101"}
    assert codes[marked_line("pitfalls.py", "cuda-seed")] == {"NPU101"}
    assert codes[marked_line("pitfalls.py", "boolean-mask")] == {"NPU402"}
    assert codes[marked_line("pitfalls.py", "unsupported")] == {"NPU201"}
    assert codes[marked_line("pitfalls.py", "varying-shapes")] == {"NPU401"}
    findings = {finding["line"]: finding for finding in run.report["findings"]}
    mask = findings[marked_line("pitfalls.py", "boolean-mask")]
    assert mask["confirmed"] == "confirmed at run time" and mask["category"] == "npu-dynamic-shape"
    assert mask["observed"]["calls"] == 6  # 3 batches x 2 epochs
    assert "~" in mask["observed"]["output_shapes"]  # the count of selected rows changed between batches
    assert findings[marked_line("pitfalls.py", "varying-shapes")]["observed"]["input_shapes"].startswith("[6~8, 2]")
    assert "pitfalls.py:" in mask["stack"][0]


def test_the_fixed_script_runs_clean(run_program):
    run = run_program("--format", "json", "--", "python", str(PROGRAMS / "pitfalls_fixed.py"))
    assert run.status == 0, run.stdout + run.stderr
    assert run.report["findings"] == []
    assert "loss" in run.stderr  # the program's own stdout goes to stderr while the JSON report owns stdout


def test_dynamic_shape_csv_has_huaweis_columns_and_the_sites(run_program):
    run = run_program("--", "python", str(PROGRAMS / "pitfalls.py"))
    with open(run.directory / "msft_dynamic_shape_analysis_report.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == ["Function Name", "File Path", "Line Number", "Call Stack", "Input Shape Range", "Output Shape Range"]
    by_line = {(row["Function Name"], int(row["Line Number"])): row for row in rows}
    mask = by_line[("x[mask]", marked_line("pitfalls.py", "boolean-mask"))]
    assert mask["Input Shape Range"] == "[6~8], [6~8]"
    assert ("torch.nn.functional.cross_entropy", marked_line("pitfalls.py", "varying-shapes")) in by_line
    assert all(int(row["Line Number"]) != marked_line("pitfalls.py", "unsupported") for row in rows)  # scalar, fixed shape
    text = run.stdout
    assert "confirmed at run time" in text and text.rstrip().endswith("the program completed")


def test_data_parallel_is_refused_as_a_failure_of_the_program(run_program):
    run = run_program("--format", "json", "--", "python", str(PROGRAMS / "data_parallel.py"))
    assert run.status == 3
    line = marked_line("data_parallel.py", "data-parallel")
    assert run.codes_at("data_parallel.py") == {line: {"NPU201"}}
    assert f'data_parallel.py", line {line}' in run.stderr and "DataParallel is not supported on Ascend" in run.stderr
    assert "ascend_migrate" not in run.stderr  # the traceback is the program's, without our frames


def test_transfer_to_npu_remaps_cuda_and_capability_is_none(run_program):
    run = run_program("--format", "json", "--", "python", str(PROGRAMS / "transfer.py"))
    assert run.status == 1, run.stderr  # the capability caveat is npu-unsupported: required, as in scan
    assert run.report["program"]["outcome"] == "completed"
    assert "capability None device npu:0" in run.stderr
    [finding] = run.report["findings"]
    assert finding["line"] == marked_line("transfer.py", "capability")
    assert finding["category"] == "npu-unsupported" and finding["observed"]["returned"] == "None"


def test_steps_stop_an_endless_loop_cleanly(run_program):
    run = run_program("--steps", "3", "--format", "json", "--", "python", str(PROGRAMS / "forever.py"))
    assert run.status == 0, run.stderr
    assert run.report["program"] == {"outcome": "steps", "exit_code": 0, "steps": 3,
                                     "summary": "the program was stopped cleanly after --steps 3"}


def test_the_programs_own_failure_is_its_traceback_and_status_3(run_program):
    run = run_program("--", "python", str(PROGRAMS / "failing.py"))
    assert run.status == 3
    assert f'failing.py", line {marked_line("failing.py", "own-failure")}' in run.stderr
    assert run.stderr.rstrip().endswith("ValueError: the program's own error")
    assert "the program failed" in run.stdout


def test_timeout_stops_the_program_with_status_4(run_program, tmp_path):
    script = tmp_path / "sleepy.py"
    script.write_text("import time\nimport torch\nfor _ in range(2):\n    torch.nonzero(torch.ones(3))\n"
                      "torch.cuda.is_available()\ntime.sleep(60)\n", encoding="utf-8")
    run = run_program("--timeout", "8", "--format", "json", "--", "python", str(script))
    assert run.status == 4
    assert run.report["program"]["summary"] == "the program was stopped after --timeout 8 s"
    # what the program did before the timeout is reported: the call, and the shapes kept by the child's SIGTERM end
    assert {(finding["line"], finding["code"]) for finding in run.report["findings"]} == {(4, "NPU401"), (5, "NPU101")}


def test_a_module_runs_with_its_arguments(run_program, tmp_path):
    (tmp_path / "trainer.py").write_text(
        "import sys\nimport torch\nprint('argv', sys.argv[1:])\nif torch.cuda.is_available():\n    pass\n", encoding="utf-8")
    run = run_program("--format", "json", "--output", "report.json", "--", "python", "-m", "trainer", "--epochs", "2")
    assert run.status == 1, run.stderr  # a CUDA rename is required (--fail-on's default)
    assert "argv ['--epochs', '2']" in run.stdout
    import json

    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert [(finding["path"], finding["line"], finding["code"]) for finding in report["findings"]] == [("trainer.py", 4, "NPU101")]


def test_a_cuda_device_left_is_reported_where_it_reaches_torch(run_program, tmp_path):
    (tmp_path / "left.py").write_text("import torch\nimport torch_npu\n\nx = torch.ones(2).to('npu')\ny = x.to('cuda:0')\n",
                                      encoding="utf-8")
    run = run_program("--format", "json", "--", "python", "left.py")
    assert run.status == 3  # CPU torch, like torch_npu without transfer_to_npu, has no CUDA: the program fails there
    [finding] = run.report["findings"]
    assert (finding["line"], finding["code"], finding["observed"]) == (5, "NPU102", {"call": "torch.Tensor.to"})


def test_shapes_vary_per_call_stack_and_iteration_not_per_line(run_program):
    run = run_program("--format", "json", "--", "python", str(PROGRAMS / "call_sites.py"))
    assert run.status == 0 and run.report["program"]["outcome"] == "completed", run.stderr
    # the shared layer sees (8, 16) from one caller and (8, 4) from the other, every iteration the same: two sites, each
    # fixed; the weight init sees two sizes once each before the first batch; only the slice that grows each epoch varies
    assert run.codes_at("call_sites.py") == {marked_line("call_sites.py", "varies-by-epoch"): {"NPU401"}}
    with open(run.directory / "msft_dynamic_shape_analysis_report.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert {int(row["Line Number"]) for row in rows} == {marked_line("call_sites.py", "varies-by-epoch")}
    assert {row["Output Shape Range"] for row in rows} >= {"[2~4, 4]"}
    assert all(row["Call Stack"].startswith(f"{PROGRAMS / 'call_sites.py'}:") for row in rows)


def test_a_resumed_training_that_runs_no_iteration_has_no_varying_weight_init(run_program):
    run = run_program("--format", "json", "--", "python", str(PROGRAMS / "resumed_training.py"))
    assert (run.status, run.report["program"]["outcome"]) == (0, "completed"), run.stderr
    assert run.codes_at("resumed_training.py") == {}  # it built an optimizer and a DataLoader: its loop ran no iteration
    # without either, the program is judged by repetition: the 4x8 head after the repeated block sizes is a new shape
    run = run_program("--format", "json", "--", "python", str(PROGRAMS / "resumed_training.py"), "--no-loop")
    assert run.codes_at("resumed_training.py") == {marked_line("resumed_training.py", "init-over-blocks"): {"NPU401"}}
