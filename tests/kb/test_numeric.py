"""`kb verify --numeric` without torch or mindspore: how cases become a verdict, and how the parent process
attributes a child that dies to the job it was running (the battery itself needs both packages; CI's stage 30
runs it)."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

from ascend_migrate.kb.battery import _Cases
from ascend_migrate.kb.numeric import _run_batch

# tools/ is not part of the installed package; the repository root makes it importable under any runner.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tools.generate_mappings.numeric import NumericRecord  # noqa: E402


def test_a_difference_only_on_edge_inputs_is_scoped_edge():
    cases = _Cases()
    cases.add("probe", "agree", "", 0.0)
    cases.add("int32", "differ", "dtype: torch int64, mindspore int32 (values agree)", 0.0)
    cases.add("negative and zero", "differ", "NaN where the other gives a number", 0.0)  # out of the domain
    result = cases.result("float32[3, 4]")
    assert (result["outcome"], result["scope"]) == ("differ", "edge")
    assert result["checked"] == ["probe", "int32", "negative and zero"]


def test_a_keyword_or_constructor_difference_is_scoped_all_and_a_missing_kernel_is_not_checked():
    cases = _Cases()
    cases.add("probe", "agree", "", 0.0)
    cases.add("bool", "limit", "no CPU kernel: The kernel X unregistered.", None)
    cases.add("torch refuses this one", None, "", None)
    cases.add("ReLU(True)", "error", "mindspore raised TypeError: takes 1 positional argument", None)
    result = cases.result("ReLU() on float32[3, 4]")
    assert (result["outcome"], result["scope"]) == ("differ", "all")
    assert result["detail"] == "ReLU(True): mindspore raised TypeError: takes 1 positional argument"
    assert result["checked"] == ["probe", "ReLU(True)"]
    assert result["unchecked"] == ["bool: no CPU kernel: The kernel X unregistered."]


def test_the_detail_names_three_differences_and_counts_the_rest():
    cases = _Cases()
    for name in ("probe", "int64", "int32", "bool", "empty"):
        cases.add(name, "differ", "values differ", 1.0)
    assert cases.result("")["detail"] == "probe: values differ; int64: values differ; int32: values differ; and 2 more"


def fake_python(tmp_path: Path, crash_on: str) -> str:
    """An interpreter that speaks the battery's protocol and aborts on one api, as MindSpore does on some kernels."""
    script = tmp_path / "python"
    script.write_text(
        f"#!{sys.executable}\n"
        "import json, os, sys\n"
        "jobs = json.load(sys.stdin)\n"
        "print(json.dumps({'versions': {'torch': 't', 'mindspore': 'm'}}), flush=True)\n"
        "for job in jobs:\n"
        f"    if job['api'] == {crash_on!r}:\n"
        "        print('[ERROR] ME(123:456,MainProcess):2026-12-01-15:36:12.243.000 [x.cc:1] kernel died', file=sys.stderr)\n"
        "        os._exit(134)\n"
        "    print(json.dumps({'outcome': 'agree', 'detail': job['api']}), flush=True)\n",
        encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


def test_a_child_that_dies_is_recorded_on_the_job_it_was_running_and_the_rest_run_in_a_new_child(tmp_path):
    batch = [{"api": name, "target": ""} for name in ("a", "b", "c")]
    versions, results = _run_batch(batch, fake_python(tmp_path, crash_on="b"))
    assert versions == {"torch": "t", "mindspore": "m"}
    assert results == [
        {"outcome": "agree", "detail": "a"},
        {"outcome": "error", "detail": "the check's process died running this entry: kernel died"},  # no pid, no time
        {"outcome": "agree", "detail": "c"},
    ]


RECORD = {
    "versions": {"torch": "2.13.0+cpu", "mindspore": "2.10.0"},
    "results": [
        {"api": "torch.cumsum", "target": "mindspore.mint.cumsum", "outcome": "differ", "scope": "edge",
         "detail": "int32: dtype: torch int64, mindspore int32 (values agree)", "call": "float32[3, 4], 1",
         "checked": ["probe", "int32"]},
        {"api": "torch.glu", "target": "mindspore.ops.glu", "outcome": "agree", "call": "float32[3, 4]",
         "checked": ["probe", "dim=1"]},
        {"api": "torch.argmax", "target": "mindspore.mint.argmax", "outcome": "skipped", "detail": "no CPU kernel"},
        {"api": "torch.round", "target": "mindspore.mint.round", "outcome": "differ", "scope": "all",
         "detail": "decimals=1: mindspore raised RuntimeError", "call": "float32[3, 4]", "checked": ["probe", "decimals=1"]},
    ],
}


def test_a_run_that_differs_on_ordinary_inputs_says_so_in_the_note_and_has_no_edge_line():
    entry = {"api": "torch.round", "category": "ms-equivalent", "target": "mindspore.mint.round", "target_versions": ">=2.5",
             "fix": "safe"}
    NumericRecord(RECORD).apply(entry)
    assert "edge_difference" not in entry and "severity" not in entry
    assert entry["note"].startswith("Differs when run side by side") and entry["note"].endswith("mindspore raised RuntimeError")


def test_a_run_that_differs_on_edge_inputs_makes_the_entry_ms_differs_at_info_severity_with_what_differs():
    entry = {"api": "torch.cumsum", "category": "ms-equivalent", "code": "MS101", "target": "mindspore.mint.cumsum",
             "target_versions": ">=2.5", "fix": "safe", "verified": "name check: target resolves"}
    assert NumericRecord(RECORD).apply(entry) == "differ"
    assert (entry["category"], entry["fix"], entry["severity"], "code" in entry) == ("ms-differs", "unsafe", "info", False)
    # the message names the edge inputs; the hover's edge line (edge_difference) says what differs on them
    assert entry["note"] == "Differs only on edge inputs (int32); ordinary inputs agree."
    assert entry["edge_difference"] == ("int32: dtype: torch int64, mindspore int32 (values agree); run side by side on "
                                        "the CPU (torch 2.13.0+cpu, mindspore 2.10.0) from float32[3, 4], 1.")
    assert entry["verified"].startswith("numeric: differ, run side by side") and entry["verified"].endswith("on 2 cases of the battery (listed in verification/numeric.yaml); name check: target resolves")


def test_a_safe_fix_stays_safe_only_when_the_battery_ran_it_with_every_keyword_it_renames():
    record = NumericRecord(RECORD)
    renamed = {"api": "torch.glu", "category": "ms-differs", "target": "mindspore.ops.glu", "fix": "safe",
               "parameters": [{"source": "dim", "target": "axis", "change": "renamed"}]}
    record.apply(renamed)
    assert renamed["fix"] == "safe" and renamed["verified"].startswith("numeric: agrees")
    untried = dict(renamed, fix="safe", verified="", parameters=[{"source": "input", "target": "x", "change": "renamed"}])
    record.apply(untried)
    assert (untried["fix"], untried["verified"].split("; ")[-1]) == ("unsafe", "not a safe fix: the battery did not pass input")
    skipped = {"api": "torch.argmax", "category": "ms-equivalent", "target": "mindspore.mint.argmax", "fix": "safe"}
    record.apply(skipped)
    assert (skipped["fix"], skipped["verified"]) == ("unsafe", "not a safe fix: the battery could not run it (no CPU kernel)")
    older = {"api": "torch.argmax", "category": "ms-equivalent", "target": "mindspore.ops.argmax",
             "target_versions": "<2.5", "fix": "safe"}
    record.apply(older)
    assert older["verified"] == "not a safe fix: its MindSpore range does not hold 2.10.0, the version the battery ran"
