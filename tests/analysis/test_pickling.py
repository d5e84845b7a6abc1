"""Findings and knowledge-base entries cross process boundaries (`scan --jobs`, the compiled cache) by position."""

from __future__ import annotations

import pickle
from dataclasses import dataclass

import pytest

from ascend_migrate.analysis.findings import FileError, FileResult, Finding, Fix, TextEdit
from ascend_migrate.fixes.families.call_arguments import CallArguments
from ascend_migrate.kb.index import KnowledgeBase
from ascend_migrate.pickling import pickled_by_position

SOURCE = """\
import torch

def step(model, batch, optimizer):
    loss = model(batch.cuda()).sum()
    torch.cuda.synchronize()
    optimizer.zero_grad()
    return loss
"""


def test_a_scanned_file_result_survives_pickling_unchanged(run):
    result = run(SOURCE, target="npu")
    assert any(finding.fix is not None for finding in result.findings)  # fixes with edits travel too
    copy = pickle.loads(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
    assert copy == result
    assert [type(finding) for finding in copy.findings] == [Finding] * len(result.findings)


def test_values_are_rebuilt_from_their_fields_in_order():
    edit = TextEdit(3, 5, 3, 9, "npu")
    rewrite = CallArguments((3, 1, 3, 20), rename_keywords=(("input", "x"),), keep_positional=1)
    fix = Fix("Replace", True, (edit,), rewrite, ("import torch_npu",), ("torch",))
    finding = Finding("a.py", 3, 5, 3, 9, "NPU101", "npu-rename", "warning", "torch.cuda", "m", "s", "exact", "", fix, "t:1")
    assert edit.__reduce__() == (TextEdit, (3, 5, 3, 9, "npu"))
    assert finding.__reduce__()[1][-3] is fix  # then entry_key and cell (a notebook's)
    assert rewrite.__reduce__() == (CallArguments, ((3, 1, 3, 20), None, None, (("input", "x"),), (), (), (), (), (), (), 1))
    error = FileError("b.py", "syntax error", 7)
    for value in (edit, rewrite, fix, finding, error, FileResult("a.py", [finding], [error])):
        assert pickle.loads(pickle.dumps(value)) == value


def test_every_knowledge_base_entry_round_trips(test_knowledge_base: KnowledgeBase):
    entries = test_knowledge_base.entries
    assert entries and any(entry.parameters for entry in entries)
    assert pickle.loads(pickle.dumps(entries, protocol=pickle.HIGHEST_PROTOCOL)) == entries


def test_a_class_that_validates_after_init_is_refused():
    @dataclass(frozen=True)
    class Checked:
        low: int
        high: int

        def __post_init__(self) -> None:
            if self.low > self.high:
                raise ValueError("low > high")

    with pytest.raises(TypeError, match="no __post_init__"):
        pickled_by_position(Checked)
