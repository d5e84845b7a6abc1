"""The 53 TensorFlow entries whose doc row says only "see the diff page" now say what differs (issue 21), each note
ending with how it was found, and each run-found note tied to the cases of tools/tensorflow_page_check.py whose
outcomes it rests on (stage 39 runs both sides and `check`s those outcomes). 23 of their renames, run as the fixer
writes them, raise or misread the arguments: those entries offer no fix."""

from __future__ import annotations

import pytest
from tools import tensorflow_page_check as page_check
from tools.generate_mappings.corrections import PAGE_CHECKS, TENSORFLOW_NO_RENAME, TENSORFLOW_PAGE_DIFFERENCES

RUN_TAGS = tuple(tag for tag in PAGE_CHECKS if "run" in tag)


def _tensorflow_entries(knowledge_base) -> list:
    return [entry for entry in knowledge_base.entries if entry.table == "tensorflow_mindspore"]


def test_no_tensorflow_entry_says_only_see_the_diff_page(knowledge_base):
    entries = _tensorflow_entries(knowledge_base)
    assert len(entries) > 150
    assert [entry.api for entry in entries if "see the diff page" in entry.note] == []


def test_every_checked_note_is_in_its_entry_with_how_it_was_found(knowledge_base):
    assert len(TENSORFLOW_PAGE_DIFFERENCES) == 53
    entries = {(entry.api, entry.target): entry for entry in _tensorflow_entries(knowledge_base)}
    for (api, target), text in TENSORFLOW_PAGE_DIFFERENCES.items():
        entry = entries.get((api, target))
        assert entry is not None, f"{api} -> {target}: no such entry (a stale key is never applied)"
        withdrawn = TENSORFLOW_NO_RENAME.get((api, target))
        assert entry.note.startswith(f"{withdrawn}. {text}" if withdrawn else text), (api, entry.note)
        assert "…" not in entry.note, (api, "the note is cut at the length limit")
        (tag,) = [tag for tag in PAGE_CHECKS if text.endswith(tag)]
        assert PAGE_CHECKS[tag] in entry.verified, api
        assert entry.category == "ms-differs", api
        assert entry.fix == ("none" if withdrawn else "unsafe"), api  # no fix became safe
    assert set(TENSORFLOW_NO_RENAME) <= set(TENSORFLOW_PAGE_DIFFERENCES)


def test_a_withdrawn_rename_names_the_run_of_the_renamed_call():
    assert len(TENSORFLOW_NO_RENAME) == 23
    for api, _ in TENSORFLOW_NO_RENAME:
        case = page_check.RENAME_CASES[api]
        assert page_check.EXPECTED[case], api
    assert sorted(page_check.RENAME_CASES) == sorted(api for api, _ in TENSORFLOW_NO_RENAME)


def test_a_note_found_by_running_names_the_cases_it_rests_on():
    for (api, _), text in TENSORFLOW_PAGE_DIFFERENCES.items():
        cases = page_check.ENTRY_CASES.get(api, ())
        if text.endswith(RUN_TAGS):
            assert cases, f"{api}: its note says it was run, but no case of tools/tensorflow_page_check.py runs it"
        for case in cases:
            assert case in page_check.CASES and page_check.EXPECTED.get(case), (api, case)
    read_only = sorted(api for (api, _), text in TENSORFLOW_PAGE_DIFFERENCES.items() if not text.endswith(RUN_TAGS))
    assert read_only == ["tensorflow.keras.datasets.cifar10", "tensorflow.keras.datasets.cifar100",
                         "tensorflow.keras.datasets.fashion_mnist", "tensorflow.keras.datasets.imdb"]  # they download


def test_check_names_each_broken_expectation():
    first, second = list(page_check.EXPECTED)[:2]
    lines = [f"{first}: TensorFlow x | MindSpore y | values differ (1 of 2, max |difference| 1)"]
    broken = page_check.check(lines)
    assert broken[0].startswith(f"{first}: expected 'values agree' in: {first}: TensorFlow x")
    assert any(line.startswith(f"{second}: expected") and line.endswith("no result") for line in broken)
    shuffled = "TextLineDataset order"
    assert page_check.EXPECTED[shuffled][0].startswith("!")  # the words must be absent: MindSpore shuffles
    in_order = f"{shuffled}: TensorFlow [] | MindSpore ['line 0', 'line 1', 'line 2', 'line 3', 'line 4', 'line 5', " \
               "'line 6', 'line 7', 'line 8'] | "
    assert [line for line in page_check.check([in_order]) if line.startswith(shuffled)] == [
        f"{shuffled}: expected no {page_check.EXPECTED[shuffled][0][1:]!r} in: {in_order}"]


def test_agreement_compares_without_a_last_dimension_of_one():
    numpy = pytest.importorskip("numpy")
    gray = numpy.array([[30, 141], [72, 107]], dtype="uint8")
    assert page_check._agreement(gray[:, :, None], gray) == "shapes differ; without the last dimension of 1: values agree"
    assert page_check._agreement(gray, gray + 1) == "values differ (4 of 4, max |difference| 1)"
    assert page_check._agreement(gray.astype("float32"), gray) == "values agree (dtype float32 vs uint8)"
    assert page_check._agreement(numpy.array([0.05]), numpy.array([0.052]), 3e-3) == "values agree"


def test_a_finding_on_reduce_sum_says_what_differs(scan):
    findings = scan("""
        import tensorflow as tf
        total = tf.math.reduce_sum(values, axis=1)
    """)
    (finding,) = [item for item in findings.findings if item.api == "tensorflow.math.reduce_sum"]
    assert "int32 input sums to int64" in finding.message
    assert "see the diff page" not in finding.message
    assert finding.fix is not None  # x.sum(...) runs on a MindSpore Tensor: the unsafe rename stays


def test_a_finding_on_resize_offers_no_rename(scan):
    findings = scan("""
        import tensorflow as tf
        small = tf.image.resize(image, (4, 3))
    """)
    (finding,) = [item for item in findings.findings if item.api == "tensorflow.image.resize"]
    assert finding.message.split(": ", 1)[1].startswith("No fix: Resize(TensorFlow's arguments), the renamed call")
    assert finding.fix is None
