"""The TensorFlow numeric battery (tools/tensorflow_battery.py): the committed record matches the tables, an entry's
category follows from its record, and the comparison says what differs in words. Stage 39 runs both sides again and
compares the result with the committed record."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from tools import tensorflow_battery as battery

RECORD = Path(__file__).resolve().parents[2] / "mappings" / "verification" / "tensorflow_numeric.yaml"


@pytest.fixture(scope="module")
def record() -> dict:
    return yaml.safe_load(RECORD.read_text(encoding="utf-8"))


def test_the_record_covers_every_entry_the_battery_runs_and_nothing_else(record, knowledge_base):
    rows = {row["api"]: row for row in record["results"]}
    entries = battery._entries(knowledge_base)
    assert len(entries) > 100
    assert sorted(rows) == sorted(entry.api for entry in entries)
    for entry in entries:  # a record of another target or category is stale: run the battery again
        assert (rows[entry.api]["target"], rows[entry.api]["category"]) == (entry.target, entry.category), entry.api


def test_an_entry_called_equivalent_agrees_on_every_case_that_ran(record):
    for row in record["results"]:
        if row["outcome"] == "differ":
            assert row["category"] == "ms-differs", (row["api"], row["differences"])
    agreeing = [row for row in record["results"] if row["outcome"] == "agree"]
    assert len(agreeing) >= 100 and all(row["checked"] for row in agreeing)


def test_an_entry_whose_numbers_differ_says_so_in_its_note(record, knowledge_base):
    notes = {entry.api: entry.note for entry in knowledge_base.entries if entry.table.startswith("tensorflow_mindspore")}
    differing = [row["api"] for row in record["results"] if row["outcome"] == "differ"]
    assert differing
    assert [api for api in differing if "tools/tensorflow_battery.py" not in notes[api]] == []


def _result(values, kind="float", shape=(2,)):
    return {"kind": kind, "dtype": {"float": "float32", "int": "int32", "bool": "bool"}[kind], "shape": list(shape),
            "values": values}


def test_difference_names_what_differs():
    assert battery.difference(_result([1.0, None]), _result([1.0 + 1e-7, None])) == ""
    assert battery.difference(_result([None, 2.0]), _result([0.0, 2.0])) == (
        "1 of 2 values differ (element 0 of the flattened input: nan in TensorFlow, 0.0 in MindSpore)")
    assert battery.difference(_result([1, 2], "int"), _result([1.0, 2.0])) == "dtype int32 in TensorFlow, float32 in MindSpore"
    assert battery.difference(_result([1.0, 2.0]), _result([1.0, 2.0], shape=(1, 2))) == (
        "shape (2,) in TensorFlow, (1, 2) in MindSpore")
    assert battery.difference(_result([float("inf"), 1.0]), _result([float("-inf"), 1.0])).startswith("1 of 2 values differ")


def test_compare_separates_a_refusal_from_a_missing_cpu_kernel():
    entry = {"api": "tensorflow.math.sign", "target": "mindspore.ops.sign", "category": "ms-equivalent"}
    tensorflow = {"tensorflow.math.sign": {"f(x)": _result([1.0, None]), "f(i)": _result([1, 0], "int")}}
    refused = {"tensorflow.math.sign": {"f(x)": _result([1.0, None]),
                                        "f(i)": {"error": "TypeError: For primitive[Sign], ... but got Int32."}}}
    no_kernel = {"tensorflow.math.sign": {"f(x)": _result([1.0, None]),
                                          "f(i)": {"error": "TypeError: Select CPU operator[Sign] fail! Unsupported data type!"}}}
    [row] = battery.compare(tensorflow, refused, [entry])
    assert (row["outcome"], row["checked"]) == ("differ", ["f(x)"])
    assert "MindSpore refuses what TensorFlow accepts" in row["differences"][0]
    [row] = battery.compare(tensorflow, no_kernel, [entry])
    assert (row["outcome"], row["checked"]) == ("agree", ["f(x)"])
    assert "CPU build has no kernel" in row["unchecked"][0]
    tensorflow_refuses = {"tensorflow.math.sign": {"f(x)": {"error": "InvalidArgumentError: int32"}, "f(i)": {"error": "x"}}}
    [row] = battery.compare(tensorflow_refuses, refused, [entry])
    assert (row["outcome"], row["checked"]) == ("not-checked", [])
