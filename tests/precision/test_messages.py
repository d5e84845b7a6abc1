"""Messages (issue 15): every finding at warning or above says what to do, nothing is cut, the text report shows
the suggestion, no generated "no description" text reaches a user, MindSpore's own dim()/numpy() are no finding."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascend_migrate.analysis.emit import headline, suggestion
from ascend_migrate.analysis.findings import ScanResult
from ascend_migrate.config import Settings
from ascend_migrate.reports import text
from ascend_migrate.taxonomy import DEFAULT_SEVERITY, SEVERITY_RANK


def _reported(knowledge_base):
    return [entry for entry in knowledge_base.entries if entry.reported]


def test_every_row_at_warning_or_above_says_what_to_do(real_knowledge_base):
    silent = [entry.key for entry in _reported(real_knowledge_base)
              if SEVERITY_RANK[entry.severity or DEFAULT_SEVERITY[entry.category]] <= SEVERITY_RANK["warning"]
              and not suggestion(entry).strip()]
    assert silent == []


def test_no_message_is_cut_and_the_whole_note_is_in_it(real_knowledge_base):
    for entry in _reported(real_knowledge_base):
        message = headline(entry, entry.api)
        # The product cuts nothing; a few generated notes carry a "…" of their own (tools/generate_mappings).
        assert "…" not in message or "…" in entry.note, entry.key
        note = " ".join(entry.note.split()).rstrip(";, ")
        if note and "gives no description" not in note:
            assert message.endswith(note), entry.key
        assert message.count("(") == message.count(")") or entry.note.count("(") != entry.note.count(")"), entry.key


def test_tensorflow_rows_without_a_description_say_something_true(scan):
    source = """
        import tensorflow as tf

        def flatten(x):
            return tf.squeeze(x, [0])
    """
    messages = [finding.message for finding in scan(source, target="mindspore")]
    assert messages and not any("gives no description" in message for message in messages)
    assert any("marks this pair as different without saying how" in message for message in messages)


def test_the_text_report_shows_the_suggestion(scan):
    findings = scan("""
        import torch

        if __name__ == "__main__":
            x = torch.randn(8)
            kept = torch.nonzero(x)
            torch.cuda.synchronize()
    """)
    rendered = text.render(ScanResult(root=Path("."), settings=Settings(target="npu"), files_scanned=1, findings=findings))
    lines = rendered.splitlines()
    shown = 0
    for finding in findings:
        index = next(number for number, line in enumerate(lines) if line.split()[:2] == [f"{finding.line}:{finding.column}", finding.code])
        if finding.suggestion not in finding.message:
            assert lines[index + 1].split() == ["help:", *finding.suggestion.split()]
            shown += 1
    assert shown >= 1


def test_mindspore_keeps_dim_and_numpy(scan):
    source = """
        import torch

        def shape_of(x: torch.Tensor):
            return x.dim(), x.numpy(), x.ndimension()
    """
    apis = {finding.api for finding in scan(source, target="mindspore")}
    assert "torch.Tensor.dim" not in apis and "torch.Tensor.numpy" not in apis


def test_mindspore_tensors_have_dim_and_numpy():
    """The fact behind the previous test, checked on the real package (stage 35's venv has it)."""
    mindspore = pytest.importorskip("mindspore")
    numpy = pytest.importorskip("numpy")
    tensor = mindspore.Tensor(numpy.ones((2, 3), dtype=numpy.float32))
    assert tensor.dim() == 2
    assert isinstance(tensor.numpy(), numpy.ndarray)
