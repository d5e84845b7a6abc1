"""The guide's pitfalls that survive the renames: the scan reports each at its line, the run stops there."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from tests.runtime.conftest import PROGRAMS, marked_line

pytest.importorskip("torch")


def scan(path) -> dict[int, set[str]]:
    completed = subprocess.run([sys.executable, "-m", "ascend_migrate", "scan", "--target", "npu", "--format", "json", str(path)],
                               capture_output=True, text=True, timeout=120)
    found: dict[int, set[str]] = {}
    for finding in json.loads(completed.stdout)["findings"]:
        found.setdefault(finding["line"], set()).add(finding["code"])
    return found


def test_properties_major_and_capability_unpacking_are_reported_where_they_break(run_program):
    codes = scan(PROGRAMS / "guide_pitfalls.py")
    assert "NPU111" in codes[marked_line("guide_pitfalls.py", "properties-major")]
    assert "NPU110" in codes[marked_line("guide_pitfalls.py", "capability-unpacked")]
    run = run_program("--format", "json", "--", "python", str(PROGRAMS / "guide_pitfalls.py"))
    assert run.status == 3  # the program's own failure, at the first pitfall it reaches: no major on NPU properties
    line = marked_line("guide_pitfalls.py", "properties-major")
    assert f'guide_pitfalls.py", line {line}' in run.stderr and "AttributeError" in run.stderr
    assert "device Ascend NPU (emulated" in run.stderr


def test_capability_unpacking_fails_at_its_line_under_the_emulation(run_program, tmp_path):
    program = tmp_path / "capability.py"
    text = (PROGRAMS / "guide_pitfalls.py").read_text(encoding="utf-8").replace("props.major >= 8", "False")
    program.write_text(text, encoding="utf-8")
    run = run_program("--format", "json", "--", "python", str(program))
    assert run.status == 3
    line = marked_line("guide_pitfalls.py", "capability-unpacked")
    assert f'capability.py", line {line}' in run.stderr and "TypeError: cannot unpack non-iterable NoneType" in run.stderr
    returned = {finding["line"]: finding["observed"]["returned"] for finding in run.report["findings"]}
    assert returned[line] == "None"  # the capability call is noted with the value it gave (the properties call too)


def test_amp_c_uses_are_reported_and_keep_their_import_through_the_fix(tmp_path):
    copy = tmp_path / "amp_c_use.py"
    shutil.copy(PROGRAMS / "amp_c_use.py", copy)
    assert "NPU112" in scan(copy)[marked_line("amp_c_use.py", "amp-c-use")]
    fixed = subprocess.run([sys.executable, "-m", "ascend_migrate", "fix", "--write", "--unsafe", "--target", "npu", str(copy)],
                           capture_output=True, text=True, timeout=120)
    assert fixed.returncode in (0, 1), fixed.stderr
    text = copy.read_text(encoding="utf-8")
    assert "import amp_C" in text and "amp_C.multi_tensor_l2norm" in text  # no NameError written: the use is left to the user
    use = next(number for number, line in enumerate(text.splitlines(), start=1) if "PITFALL amp-c-use" in line)
    assert "NPU112" in scan(copy)[use]  # still reported after the fix (the fix added `import torch_npu` above it)


def test_amp_c_and_apex_do_not_import_under_the_emulation(run_program):
    run = run_program("--format", "json", "--", "python", str(PROGRAMS / "amp_c_use.py"))
    assert run.status == 3
    line = marked_line("amp_c_use.py", "amp-c-import")
    assert [(finding["line"], finding["code"], finding["api"]) for finding in run.report["findings"]] == [(line, "TP101", "amp_C")]
    assert "ModuleNotFoundError: No module named 'amp_C': amp_C is CUDA-only" in run.stderr


def test_restrictions_are_checked_against_the_values_passed_and_a_harmless_static_finding_is_marked(run_program):
    assert "NPU204" in scan(PROGRAMS / "restrictions.py")[marked_line("restrictions.py", "harmless-format")]  # a variable
    run = run_program("--format", "json", "--", "python", str(PROGRAMS / "restrictions.py"))
    assert run.status == 1 and run.report["program"]["outcome"] == "completed", run.stderr
    confirmed = {finding["line"]: finding for finding in run.report["findings"] if finding["code"] == "NPU204"}
    assert sorted(confirmed) == [marked_line("restrictions.py", "sorted-false"), marked_line("restrictions.py", "channels-last")]
    channels_last = confirmed[marked_line("restrictions.py", "channels-last")]
    assert channels_last["observed"]["value"] == "channels_last" and "`memory_format` was channels_last" in channels_last["message"]
    [harmless] = run.report["harmless"]
    assert (harmless["line"], harmless["code"], harmless["api"]) == (marked_line("restrictions.py", "harmless-format"), "NPU204",
                                                                     "torch.Tensor.to")
    assert harmless["harmless"].startswith("harmless at run time")


def test_dtype_restrictions_are_checked_against_the_tensors_passed(run_program):
    run = run_program("--format", "json", "--", "python", str(PROGRAMS / "dtypes.py"))
    assert run.status == 1 and run.report["program"]["outcome"] == "completed", run.stderr  # npu-unsupported: required
    found = {finding["line"]: finding for finding in run.report["findings"]}
    gather, softmax = marked_line("dtypes.py", "gather-float64"), marked_line("dtypes.py", "softmax-float64")
    assert sorted(found) == [gather, softmax]  # the float32 calls meet no dtype restriction: nothing there
    assert found[gather]["code"] == "NPU204" and found[gather]["api"] == "torch.Tensor.gather"
    assert found[gather]["observed"]["value"] == "dtype float64"
    assert found[gather]["message"].startswith("`torch.Tensor.gather` on Ascend NPU supports the dtypes float16, float32, "
                                               "int64 (msfmktransplt PyTorch table: 支持fp16，fp32，int64); this call "
                                               "passed `self` of dtype float64")
    observed = found[softmax]["observed"]
    assert (observed["argument"], observed["value"]) == ("input", "dtype float64")


def test_devices_mixed_in_one_call_and_channels_last_are_found_with_the_tensors_passed(run_program):
    run = run_program("--format", "json", "--", "python", str(PROGRAMS / "devices.py"))
    assert run.report["program"]["outcome"] == "completed", run.stderr
    found = {finding["line"]: finding for finding in run.report["findings"]}
    lines = {marker: marked_line("devices.py", marker) for marker in
             ("labels-left-on-cpu", "zero-dim-compare", "channels-last-moved", "channels-last-model", "int64-times-number")}
    # the 0-d product and the calls with both tensors on one device: nothing; the explicit channels_last of a CPU tensor is
    # the restriction row of Tensor.to (NPU204, as scan reports it)
    restricted = marked_line("devices.py", "channels-last-moved") - 1
    assert sorted(found) == sorted([*lines.values(), restricted]) and found[restricted]["code"] == "NPU204"
    left = found[lines["labels-left-on-cpu"]]
    assert left["code"] == "NPU202" and left["api"] == "torch.nn.functional.cross_entropy"
    assert left["observed"]["seen"] == "an NPU tensor of shape [5, 2] with a CPU tensor of shape [5]"
    compare = found[lines["zero-dim-compare"]]
    assert compare["observed"]["pattern"] == "cross-device-scalar-compare" and "Segmentation fault" in compare["message"]
    assert compare["observed"]["seen"] == "an NPU tensor of shape [] with a CPU tensor of shape []"
    moved = found[lines["channels-last-moved"]]
    assert (moved["api"], moved["observed"]["value"], moved["observed"]["shape"]) == ("torch.channels_last", "channels_last",
                                                                                       [5, 3, 8, 8])
    assert found[lines["channels-last-model"]]["observed"]["shape"] == [4, 3, 3, 3]  # the conv weight, at the user's line
    muls = found[lines["int64-times-number"]]
    assert muls["observed"] == {"pattern": "int64-multiply", "seen": "an int64 NPU tensor of shape [5] times the number 2"}
    assert "Muls" in muls["message"] and muls["suggestion"].startswith("Cast to int32")
