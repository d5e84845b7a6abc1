"""Defaults compared by value, not by spelling: `(0.75, 1.3333333333333333)` is `(3.0 / 4.0, 4.0 / 3.0)`."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ascend_migrate.analysis.engine import analyze
from ascend_migrate.config import Settings
from ascend_migrate.kb.index import KnowledgeBase

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tools/ is not part of the installed package
from tools.generate_mappings.defaults import (  # noqa: E402
    NotALiteral,
    literal_value,
    mapping_row_by_value,
    parameter_row_by_value,
    same_default,
)
from tools.generate_mappings.sources import MappingRow, ParameterRow  # noqa: E402


@pytest.mark.parametrize(("first", "second", "same"), [
    ("(0.75, 1.3333333333333333)", "(3.0 / 4.0, 4.0 / 3.0)", True),
    ("1e-3", "0.001", True),
    ("-1", "-(1)", True),
    ("[1, 2]", "(1, 2)", True),
    ("None", "None", True),
    ("'mean'", '"mean"', True),
    ("0.1", "0.9", False),
    ("True", "1", False),  # a flag and a number are not the same default
    ("InterpolationMode.BILINEAR", "Inter.BILINEAR", False),  # names: only their spellings are known
    ("(1, 2)", "(1, 2, 3)", False),
])
def test_defaults_are_compared_by_value(first, second, same):
    assert same_default(first, second) is same


@pytest.mark.parametrize("text", ["__import__('os').system('true')", "len('ab')", "x", "1 / 0", "2 ** 1000000", "(", "lambda: 1"])
def test_anything_but_literal_arithmetic_is_not_evaluated(text):
    with pytest.raises(NotALiteral):
        literal_value(text)


def parameter_row(source_default: str, target_default: str, flags: tuple[str, ...]) -> ParameterRow:
    return ParameterRow("torchvision.transforms.RandomResizedCrop", "mindspore.dataset.vision.RandomResizedCrop",
                        "parameter", "ratio", "ratio", source_default, target_default, flags, "", "page.md", ("master",), "diff_page")


def test_a_signature_default_difference_between_equal_values_is_no_difference():
    assert parameter_row_by_value(parameter_row("(0.75, 1.3333333333333333)", "(3.0 / 4.0, 4.0 / 3.0)", ("sig_default_differs",))).flags == ()
    assert parameter_row_by_value(parameter_row("0.1", "0.9", ("sig_default_differs",))).flags == ("sig_default_differs",)
    # The doc's own words stand: it may know what the spelled defaults do not say.
    assert parameter_row_by_value(parameter_row("None", "None", ("default_differs",))).flags == ("default_differs",)


def mapping_row(flags: str, summary: str, category: str = "different_defaults") -> MappingRow:
    return MappingRow("torchvision.transforms.RandomResizedCrop", "mindspore.dataset.vision.RandomResizedCrop", category,
                      tuple(flags.split(";")), "(diff page)", summary, "page.md", "torchvision", "TorchVision 0.9.1", "master")


def test_the_summary_keeps_only_the_defaults_that_differ_in_value():
    row = mapping_row("mindspore_only;sig_default_differs",
                      "default differs: ratio ((0.75, 1.3333333333333333) vs (3.0 / 4.0, 4.0 / 3.0)), interpolation "
                      "(InterpolationMode.BILINEAR vs Inter.BILINEAR); mindspore-only: max_attempts")
    assert mapping_row_by_value(row).diff_summary == (
        "default differs: interpolation (InterpolationMode.BILINEAR vs Inter.BILINEAR); mindspore-only: max_attempts"
    )
    only_equal = mapping_row_by_value(mapping_row("sig_default_differs", "default differs: scale ((0.08, 1.0) vs (8e-2, 1))"))
    assert (only_equal.category, only_equal.diff_flags, only_equal.diff_summary) == ("consistent", (), "")
    other_left = mapping_row_by_value(mapping_row("renamed;sig_default_differs", "default differs: p (0.5 vs 1 / 2); renamed: p->keep"))
    assert (other_left.category, other_left.diff_flags, other_left.diff_summary) == ("different_param_names", ("renamed",), "renamed: p->keep")


def test_random_resized_crop_is_not_flagged_for_its_ratio_default():
    """The committed tables, regenerated with the value comparison (python -m tools.generate_mappings)."""
    knowledge_base = KnowledgeBase.load()
    entries = [entry for entry in knowledge_base.lookup("torchvision.transforms.RandomResizedCrop") if entry.route == "mindspore"]
    assert entries and all(parameter.source != "ratio" for entry in entries for parameter in entry.parameters)
    source = "import torchvision.transforms as T\ncrop = T.RandomResizedCrop(224)\n"
    (finding,) = [f for f in analyze(source, "crop.py", Settings(target="mindspore")) if f.api.endswith("RandomResizedCrop")]
    assert "ratio" not in finding.message and "interpolation" in finding.message
