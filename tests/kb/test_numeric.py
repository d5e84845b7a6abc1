"""`kb verify --numeric` without torch or mindspore: how cases become a verdict, and how the parent process
attributes a child that dies to the job it was running (the battery itself needs both packages; CI's stage 30
runs it)."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

from ascend_migrate.kb.battery import _NO_DEFAULT, _Cases, _test_values, documented_overloads
from ascend_migrate.kb.numeric import NumericReport, NumericResult, _run_batch, load_record, write_record

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


def test_a_constructor_form_mindspore_refuses_is_scoped_form_and_a_missing_kernel_is_not_checked():
    cases = _Cases()
    cases.add("probe", "agree", "", 0.0)
    cases.add("bool", "limit", "no CPU kernel: The kernel X unregistered.", None)
    cases.add("torch refuses this one", None, "", None)
    cases.add("ReLU(True)", "error", "mindspore raised TypeError: takes 1 positional argument", None)
    result = cases.result("ReLU() on float32[3, 4]")
    assert (result["outcome"], result["scope"]) == ("differ", "form")
    assert result["detail"] == "ReLU(True): mindspore raised TypeError: takes 1 positional argument"
    assert result["checked"] == ["probe", "ReLU(True)"]
    assert result["unchecked"] == ["bool: no CPU kernel: The kernel X unregistered."]


class Documented:
    """A builtin as torch ships it: no Python signature, the overloads in its docstring."""

    def __init__(self, name: str, doc: str) -> None:
        self.__name__ = name
        self.__doc__ = doc


def test_the_forms_come_from_every_overload_a_builtin_documents():
    total = Documented("sum", "sum(input, *, dtype=None) -> Tensor\n\nReturns the sum.\n\n"
                              ".. function:: sum(input, dim, keepdim=False, *, dtype=None) -> Tensor\n")
    assert documented_overloads(total, method=False) == [
        [("input", True, _NO_DEFAULT), ("dtype", False, None)],
        [("input", True, _NO_DEFAULT), ("dim", True, _NO_DEFAULT), ("keepdim", True, False), ("dtype", False, None)],
    ]
    to = Documented("to", "to(*args, **kwargs) -> Tensor\n\n.. method:: to(dtype, non_blocking=False, "
                          "memory_format=torch.preserve_format) -> Tensor\n")
    # *args, **kwargs says nothing; a default that is not a literal cannot be passed by position
    assert documented_overloads(to, method=True) == [
        [("dtype", True, _NO_DEFAULT), ("non_blocking", True, False), ("memory_format", True, _NO_DEFAULT)]]

    def glu(self, input, dim=-1, *, approximate="none"):  # a Python callable: its signature, without the receiver
        return input

    assert documented_overloads(glu, method=True) == [
        [("input", True, _NO_DEFAULT), ("dim", True, -1), ("approximate", False, "none")]]


def test_test_values_skip_the_default_and_flip_flags():
    assert _test_values("dim", [[("dim", True, 1)]]) == [0, -1]  # 1 is the default: the alternatives
    assert _test_values("keepdim", [[("keepdim", True, False)]]) == [True]
    assert _test_values("equal_nan", [[("equal_nan", False, False)]]) == [True]
    assert _test_values("weight", [[("weight", True, None)]]) == ["@w4", "@w5", "@w3"]  # battery inputs by name
    assert _test_values("generator", [[("generator", False, None)]]) == []


def test_forms_that_did_not_run_are_listed_once_and_an_edge_difference_is_recorded_in_words(tmp_path):
    cases = _Cases()
    cases.add("probe", "agree", "", 0.0)
    cases.unexercised.extend(["weight=: no test value", "weight=: no test value"])
    result = cases.result("float32[3, 4]")
    assert (result["outcome"], result["unexercised"]) == ("agree", ["weight=: no test value"])
    edge = NumericResult("torch.cumsum", "mindspore.mint.cumsum", "x:1", "differ", detail="int32: dtype: torch int64, "
                         "mindspore int32 (values agree)", scope="edge", checked=("probe", "int32"))
    everywhere = NumericResult("torch.var", "mindspore.mint.var", "x:2", "differ", detail="probe: values differ",
                               scope="all", unexercised=("correction=: no test value",))
    write_record(NumericReport({"torch": "t", "mindspore": "m"}, [edge, everywhere]), tmp_path / "verification" / "numeric.yaml")
    record = load_record(tmp_path)
    assert record[("torch.cumsum", "mindspore.mint.cumsum")]["edge_difference"] == edge.detail
    assert "edge_difference" not in record[("torch.var", "mindspore.mint.var")]
    assert record[("torch.var", "mindspore.mint.var")]["unexercised"] == ["correction=: no test value"]


def test_a_form_is_scoped_form_unless_a_parameter_row_names_it_and_its_size_is_not_recorded():
    cases = _Cases()
    cases.add("probe", "agree", "", 0.0)
    cases.add("NaN and inf", "differ", "values differ (max |difference| 1)", 1.0)
    cases.add("weight=float32[4]", "differ", "values differ (max |difference| 0.22)", None)  # over 1e3 in another process
    result = cases.result("float32[3, 4]")
    assert (result["scope"], result["detail"]) == ("form", "NaN and inf: values differ (max |difference| 1); "
                                                           "weight=float32[4]: values differ")
    cases.rows = {"p"}  # Tensor.norm's p -> ord: the documented difference, on every call that passes p
    cases.add("p=1 by position", "differ", "values differ (max |difference| 3.7)", None)
    assert cases.result("float32[3, 4]")["scope"] == "all"


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
        {"api": "torch.cosh", "target": "mindspore.ops.cosh", "outcome": "agree", "call": "float32[3, 4]", "checked": ["probe", "float64"],
         "unchecked": ["int64: no CPU kernel: Select CPU operator[Cosh] fail! Unsupported data type!", "bool: no CPU kernel: unsupported"]},
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
    loss = {"api": "torch.nn.BCELoss", "category": "ms-equivalent", "target": "mindspore.mint.nn.BCELoss", "fix": "safe"}
    NumericRecord({**RECORD, "results": [{"api": "torch.nn.BCELoss", "target": "mindspore.mint.nn.BCELoss",
                                          "outcome": "agree", "checked": ["probe"],
                                          "unexercised": ["weight=: no test value", "a", "b"]}]}).apply(loss)
    assert (loss["fix"], loss["verified"].split("; not a safe fix: ")[-1]) == (
        "unsafe", "the battery did not run every form the fix writes (weight=: no test value; a; and 1 more)")
    older = {"api": "torch.argmax", "category": "ms-equivalent", "target": "mindspore.ops.argmax",
             "target_versions": "<2.5", "fix": "safe"}
    record.apply(older)
    assert older["verified"] == "not a safe fix: its MindSpore range does not hold 2.10.0, the version the battery ran"


def test_an_answer_that_agrees_says_which_inputs_the_cpu_build_could_not_check():
    entry = {"api": "torch.cosh", "category": "ms-equivalent", "target": "mindspore.ops.cosh", "target_versions": "*", "fix": "safe"}
    assert NumericRecord(RECORD).apply(entry) is None
    assert entry["verified"].endswith("on 2 cases of the battery (listed in verification/numeric.yaml); not checked on int64, "
                                      "bool (no CPU kernel in this mindspore)")
