"""Dtype conditions: read from the tables' dtype lists by the generator, refused when malformed by the loader, and
left to the run by the static engine (no torch needed here; test_pitfalls.py runs them)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ascend_migrate.kb.errors import KnowledgeBaseError
from ascend_migrate.kb.loader import parse_table

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # tools/ is not part of the installed package
from tools.generate_ascend.dtype_conditions import dtype_list, with_dtype_condition  # noqa: E402


def test_a_plain_dtype_list_becomes_the_dtypes_of_a_condition():
    note = "index维度需与input维度一致。(msfmktransplt PyTorch table, supported with restriction; 支持fp16，fp32，int64)"
    assert dtype_list(note) == ("支持fp16，fp32，int64", "float16,float32,int64")
    assert dtype_list("支持bf16，fp16，fp32可能回退至CPU执行。(msfmktransplt PyTorch table)") == (
        "支持bf16，fp16，fp32", "bfloat16,float16,float32")  # a list run into the next sentence ends where it starts


@pytest.mark.parametrize("note", [
    "input支持fp32，fp64; target支持int64",  # per argument: narrower than the op's list
    "属性mode为constant时，支持bf16，fp16; 属性mode非constant时，支持fp16，fp32",  # per mode
    "不支持3，5，6，7。(msfmktransplt PyTorch table; 支持bf16，fp16，int32world size)",  # not dtypes only
    "支持Named Tensor。",
])
def test_a_qualified_or_garbled_list_stays_prose(note):
    assert dtype_list(note) is None


def test_the_condition_concerns_the_tensor_itself_or_the_first_argument_and_never_a_class():
    method = {"api": "torch.Tensor.gather", "match": "method", "receiver": "tensor", "category": "npu-unsupported",
              "note": "x (…; 支持fp16，fp32)"}
    with_dtype_condition(method)
    assert method["when"] == [{"argument": "self", "dtypes": ["float16", "float32"], "derived_from": "支持fp16，fp32"}]
    function = {"api": "torch.softmax", "category": "npu-unsupported", "note": "(…; 支持fp32)",
                "when": [{"argument": "dim", "values": ["0"]}]}
    with_dtype_condition(function)
    assert function["when"][1] == {"argument": "input", "position": 0, "dtypes": ["float32"], "derived_from": "支持fp32"}
    with_dtype_condition(function)
    assert len(function["when"]) == 2  # once: a hand-recorded `when` that has it already is kept as it is
    layer = {"api": "torch.nn.LSTM", "category": "npu-unsupported", "note": "(…; 支持fp32)"}
    with_dtype_condition(layer)
    assert "when" not in layer  # its dtypes concern forward's input, which no call of torch.nn.LSTM passes


TABLE = """table: t
description: d
entries:
- api: torch.Tensor.gather
  match: method
  receiver: tensor
  category: npu-unsupported
  code: NPU204
  provenance: p
  when:
  - argument: self
{condition}
"""


@pytest.mark.parametrize(("condition", "error"), [
    ("    dtypes: [float16, int65]\n    derived_from: x", r"unknown dtypes \['int65'\]"),
    ("    dtypes: [float16]", "says where the dtypes come from"),
    ("    dtypes: [float16]\n    derived_from: x\n    values: ['1']", "takes no values or other_than"),
])
def test_the_loader_refuses_a_malformed_dtype_condition(condition, error, tmp_path):
    with pytest.raises(KnowledgeBaseError, match=error):
        parse_table(TABLE.format(condition=condition), tmp_path / "t.yaml")


def test_scan_still_reports_every_use_of_a_row_whose_only_condition_is_a_dtype(tmp_path):
    # torch.Tensor.topk (NPU202, reported): its `when` holds only the table's dtype list, which no text shows
    (tmp_path / "top.py").write_text("import torch\nvalues = torch.rand(5).topk(2)\n", encoding="utf-8")
    completed = subprocess.run([sys.executable, "-m", "ascend_migrate", "scan", "--target", "npu", "--format", "json",
                                "top.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    found = [(finding["line"], finding["api"]) for finding in json.loads(completed.stdout)["findings"]]
    assert (2, "torch.Tensor.topk") in found
