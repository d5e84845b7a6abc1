"""The curated TensorFlow/Keras answers: every often-used name has one, of the right kind, saying where it came from."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

CENSUS = Path(__file__).resolve().parents[2] / "mappings" / "usage" / "tensorflow_api_frequency.csv"
# The census rule of the PyTorch route, applied to the code bases the entries were written from; the held-out code
# bases were not read to write entries (docs/tensorflow.md).
WRITTEN_FROM = ("keras_hub", "tf_keras", "tensorflow_probability", "tf_agents", "keras_nlp", "tf_models_official", "trax")
HELD_OUT = ("keras_cv", "tensorflow_recommenders", "keras_tuner", "dm_sonnet", "keras_rs", "tensorflow_addons",
            "tensorflow_model_optimization", "tensorflow_text")
HAND_CHECKED = ("tensorflow_mindspore_curated", "tensorflow_structure")
_CLASS_TARGET = re.compile(r"mindspore\.(ops|nn)\.[A-Z]")


@pytest.fixture(scope="module")
def census_rows() -> list[dict]:
    with CENSUS.open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def view(knowledge_base):
    return knowledge_base.view("mindspore", "2.1", "2.10", "2.6")


def _answer(view, api: str) -> list:
    """The entries a finding on `api` would come from: its own (under any alias), else its module's prefix entry."""
    entries, canonical = view.name_entries(api)
    return entries or view.prefix_entries(canonical)


def _checked(entries) -> bool:
    """An answer someone checked: a hand-written entry (target resolved and its signature read in mindspore 2.10), or
    an official-table row whose names both resolve and whose target is of the right kind (a function for a
    function, never a primitive class or a Cell to construct)."""
    for entry in entries:
        if entry.table in HAND_CHECKED:
            return True
        if "target resolves in mindspore" in entry.verified and "source resolves in tensorflow" in entry.verified:
            is_function = entry.api.rsplit(".", 1)[1][0].islower()
            if not (is_function and entry.target and _CLASS_TARGET.match(entry.target)):
                return True
    return False


def _often_used(row: dict) -> bool:
    uses = [int(row[base]) for base in WRITTEN_FROM]
    return sum(uses) >= 20 or sum(1 for number in uses if number) >= 3


def test_every_often_used_name_has_an_answer(census_rows, view):
    often = [row["api"] for row in census_rows if _often_used(row)]
    assert len(often) > 200
    assert [api for api in often if not _answer(view, api)] == []


def test_held_out_code_bases_get_checked_answers(census_rows, view):
    """Usage-weighted share of the held-out code bases' TF/Keras calls whose answer was checked (docs/tensorflow.md)."""
    total = checked = 0
    for row in census_rows:
        uses = sum(int(row[base]) for base in HELD_OUT)
        total += uses
        checked += uses if _checked(_answer(view, row["api"])) else 0
    assert total > 5000
    assert checked / total >= 0.95  # measured 96.2 % (5,707 of 5,932 calls)


def test_a_wrong_kind_official_row_is_not_a_checked_answer(knowledge_base, view):
    """`tf.nn.l2_loss` -> `nn.L2Loss` (a Cell for a function) answers, but nobody checked it: it does not count."""
    entries = _answer(view, "tensorflow.nn.l2_loss")
    assert entries and entries[0].table == "tensorflow_mindspore" and not _checked(entries)
    assert _checked(_answer(view, "tensorflow.io.gfile.glob"))  # the prefix entry of tf.io.gfile


def test_a_module_without_counterpart_is_answered_for_every_name_below_it(scan):
    result = scan("""
        import tensorflow as tf
        files = tf.io.gfile.glob(pattern)
        words = tf.strings.split(line)
    """)
    assert [(finding.line, finding.api, finding.category) for finding in result.findings] == [
        (3, "tensorflow.io.gfile.glob", "ms-unsupported"), (4, "tensorflow.strings.split", "ms-unsupported")]
    assert "glob" in result.findings[0].message and "mindspore.dataset.text" in result.findings[1].message


def test_function_targets_are_functions_and_layer_targets_cells(knowledge_base):
    entries = [entry for entry in knowledge_base.entries if entry.table == "tensorflow_mindspore_curated"]
    assert len(entries) > 200
    for entry in entries:
        assert entry.curated and entry.verified and entry.note, entry.api
        last = entry.api.rsplit(".", 1)[1]
        if entry.category == "ms-unsupported":
            assert entry.suggestion and not entry.target, entry.api
        elif entry.match == "method":  # a method of a Keras layer or weight: its MindSpore counterpart's method
            assert entry.target.startswith(("mindspore.nn.Cell.", "mindspore.Parameter")), (entry.api, entry.target)
        elif last[0].islower():  # a function: the functional API, never a primitive class or a Cell to construct
            assert not _CLASS_TARGET.match(entry.target), (entry.api, entry.target)
        elif ".layers." in entry.api:
            assert re.match(r"mindspore\.nn\.[A-Z]|mindspore\.nn\.get_activation$", entry.target), (entry.api, entry.target)


def test_the_official_rows_with_class_targets_are_corrected(scan):
    result = scan("""
        import tensorflow as tf
        a = tf.reshape(x, [2, 3])
        b = tf.nn.relu(a)
        c = tf.math.sigmoid(b)
        d = tf.one_hot(labels, 10, dtype=tf.float32)
    """)
    assert [(finding.line, finding.api, finding.category) for finding in result.findings] == [
        (3, "tensorflow.reshape", "ms-differs"), (4, "tensorflow.nn.relu", "ms-differs"),
        (5, "tensorflow.math.sigmoid", "ms-equivalent"), (6, "tensorflow.one_hot", "ms-differs"),
        (6, "tensorflow.float32", "ms-equivalent"),
    ]
    assert "mindspore.ops.reshape" in result.findings[0].message
    assert "mindspore.ops.relu" in result.findings[1].message
    assert "no dtype argument" in result.findings[3].message
    assert all(finding.fix is None for finding in result.findings)  # none of these fixes has been executed yet
