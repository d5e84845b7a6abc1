"""The edge-input sweep (tools/edge_inputs.py, issue 16): its exact comparison on real arrays, and real entries run
through its child process. The first two need numpy, the third torch and mindspore (stage 36 runs all three with the
real packages); each skips without them."""

from __future__ import annotations

import sys

import pytest
from tools.edge_inputs import exact_differences


def test_signed_zeros_and_nan_positions_are_compared_exactly_where_allclose_sees_no_difference():
    numpy = pytest.importorskip("numpy")
    torch_side = numpy.array([-0.0, 1.0, numpy.nan, numpy.inf], dtype=numpy.float32)
    inputs = numpy.array([-0.0, 1.0, numpy.nan, 5.0], dtype=numpy.float32)
    assert numpy.allclose(torch_side, numpy.array([0.0, 1.0, numpy.nan, numpy.inf]), equal_nan=True)  # the battery's test
    assert exact_differences(numpy, [torch_side], [numpy.array([0.0, 1.0, numpy.nan, numpy.inf], dtype=numpy.float32)],
                             inputs) == ["sign of zero differs (1 of 4): torch -0.0, mindspore 0.0 at input -0.0"]
    assert exact_differences(numpy, [torch_side], [numpy.array([-0.0, 1.0, 0.0, numpy.inf], dtype=numpy.float32)],
                             inputs) == ["NaN where the other gives a number (1 of 4): torch nan, mindspore 0.0 at input nan"]
    assert exact_differences(numpy, [torch_side], [numpy.array([-0.0, 1.0, numpy.nan, -numpy.inf], dtype=numpy.float32)]) \
        == ["values differ (1 of 4): torch inf, mindspore -inf"]
    assert exact_differences(numpy, [torch_side], [torch_side.copy()]) == []
    polar = numpy.array([complex(numpy.inf, numpy.inf), 1j], dtype=numpy.complex64)  # isclose calls these apart
    assert exact_differences(numpy, [polar], [polar.copy()]) == []


def test_dtype_shape_and_the_number_of_results_are_differences_of_their_own():
    numpy = pytest.importorskip("numpy")
    integers = numpy.array([1, 2], dtype=numpy.int64)
    assert exact_differences(numpy, [integers], [integers.astype(numpy.int32)]) == ["dtype: torch int64, mindspore int32"]
    assert exact_differences(numpy, [integers], [numpy.array([1, 2, 3])]) == ["shape: torch [2], mindspore [3]"]
    assert exact_differences(numpy, [integers, integers], [integers]) == ["torch returns 2 values, mindspore 1"]
    # without values (an empty tensor's reduction reads uninitialised memory) only dtype and shape count
    assert exact_differences(numpy, [integers], [numpy.array([7, 9])], values=False) == []
    # another order is a difference (a sort is about order), except where neither side promises one (eigenvalues)
    ascending, descending = numpy.array([1.0, 2.0, 3.0]), numpy.array([3.0, 2.0, 1.0])
    assert exact_differences(numpy, [ascending], [descending]) == ["values differ (2 of 3): torch 1.0, mindspore 3.0"]
    assert exact_differences(numpy, [ascending], [descending], any_order=True) == []


def test_real_entries_show_the_fifth_samples_edge_errors_and_a_plain_rename_shows_none():
    pytest.importorskip("torch")
    pytest.importorskip("mindspore")
    from ascend_migrate.kb.numeric import _run_batch

    jobs = [{"api": "torch.signbit", "target": "mindspore.ops.signbit"},
            {"api": "torch.Tensor.real", "target": "mindspore.Tensor.real", "method": True},
            {"api": "torch.arange", "target": "mindspore.ops.arange"},
            {"api": "torch.range", "target": "mindspore.ops.range"},
            {"api": "torch.abs", "target": "mindspore.mint.abs"}]
    _, (signbit, real, arange, inclusive, absolute) = _run_batch(jobs, sys.executable, module="tools.edge_inputs",
                                                                 argument="--child")
    assert signbit["leads"][0] == ["signed zeros", "values differ (2 of 12): torch True, mindspore False at input -0.0"]
    assert ["probe", "torch's x.real is an attribute, mindspore's x.real a method"] in real["leads"]
    # ranges whose end is hit exactly ran on both sides and keep their end exclusive in both
    assert "range (0, 4, 1)" in arange["checked"] and "range (0.0, 1.0, 0.25)" in arange["checked"]
    assert not [lead for lead in arange["leads"] if lead[0].startswith("range (0, 4")]
    # torch.range's end is inclusive: its ranges run although MindSpore refused the float probe (0.0, 1.0, 5)
    assert ["range (0, 4, 1)", "shape: torch [5], mindspore [4]"] in inclusive["leads"]
    assert absolute["ran"] and absolute["leads"] == [] and "NaN and inf" in absolute["checked"]


def test_the_sweeps_edge_differences_reach_the_entries_as_the_batterys_own_do():
    from pathlib import Path

    from ascend_migrate.kb.index import KnowledgeBase

    entries = KnowledgeBase.load(Path(__file__).resolve().parents[2] / "mappings").entries
    (log1p,) = [entry for entry in entries if (entry.api, entry.target) == ("torch.log1p", "mindspore.mint.log1p")]
    # called consistent, it must pass every input it was run on (issue 16): ms-differs, but at info severity (the
    # hover, no warning on every call) and no safe fix, as the numeric fold treats the battery's edge differences
    assert (log1p.category, log1p.severity, log1p.fix) == ("ms-differs", "info", "unsafe")
    assert log1p.edge_difference.startswith("log1p(-0.0) is -0.0 in torch and 0.0 in MindSpore")
    (div,) = [entry for entry in entries if (entry.api, entry.target) == ("torch.div", "mindspore.mint.div")]
    # appended to the numeric record's own edge line, which stays first
    assert div.edge_difference.startswith("NaN and inf:") and "divisor of -0.0" in div.edge_difference
    (inclusive,) = [entry for entry in entries if entry.api == "torch.range" and entry.target == "mindspore.ops.range"]
    assert "int64 in ops.range" in inclusive.note
