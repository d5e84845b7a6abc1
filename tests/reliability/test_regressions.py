"""Bugs the reliability tests found, pinned where they were fixed."""

from __future__ import annotations

from pathlib import Path


from ascend_migrate.analysis.engine import analyze_module
from ascend_migrate.analysis.incremental import LineEdit, analyze_document
from ascend_migrate.config import Settings
from ascend_migrate.fixes import apply_edits, edits_for

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_a_call_rewrite_below_an_edit_still_rewrites_its_own_call():
    """Found by the incremental property test: findings below an edit were shifted, their fix's `call` span
    was not, so the quick fix rewrote the lines the call had been on before the edit."""
    settings = Settings(target="mindspore")
    text = (EXAMPLES / "imagenet_ddp.py").read_text(encoding="utf-8")
    before = analyze_module(text, "imagenet_ddp.py", settings)
    new_text = text.split("\n", 1)[1]  # the docstring line deleted: range (0,0)-(1,0) replaced by ""
    after = analyze_document(new_text, "imagenet_ddp.py", settings, before, LineEdit(1, 2, 1))
    full = analyze_module(new_text, "imagenet_ddp.py", settings)
    # The DataLoader's `pin_memory=` finding (its call rewrite drops the keyword); the DataLoader itself has no
    # fix over an ImageFolder (its columns are not known there: issue 17).
    (incremental,) = [f for f in after.findings if f.api == "torch.utils.data.DataLoader(pin_memory=...)"]
    (expected,) = [f for f in full.findings if f.api == "torch.utils.data.DataLoader(pin_memory=...)"]
    assert incremental.fix.rewrite.call == expected.fix.rewrite.call
    fixed = apply_edits(new_text, edits_for(incremental.fix, new_text))
    assert fixed == apply_edits(new_text, edits_for(expected.fix, new_text))
    assert "train_dataset, batch_size=args.batch_size, sampler=train_sampler, num_workers=8)\n" in fixed  # pin_memory dropped


def test_a_function_reads_module_variables_assigned_later_the_same_after_an_edit():
    """Found by the incremental property test. The full analysis walks chunks in order, so a function body
    above `cos = torch.ones(...)` (in the `if __name__` block) does not see `cos` as a tensor; the incremental
    analysis re-walks the edited function with the bindings left by the previous walk of the whole file, where
    it does. Here the edit deletes `def forward(...)` so that its body joins `__init__` and reads the
    module-level `cos`: the incremental analysis reports `k.transpose` (inferred), the full one does not."""
    settings = Settings(target="mindspore")
    text = (EXAMPLES / "transformer_lm.py").read_text(encoding="utf-8")
    lines = text.split("\n")
    before = analyze_module(text, "transformer_lm.py", settings)
    new_text = "\n".join(lines[:35] + lines[39:])  # lines 36-39 deleted: range (35,0)-(39,0) replaced by ""
    after = analyze_document(new_text, "transformer_lm.py", settings, before, LineEdit(36, 40, 36))
    full = analyze_module(new_text, "transformer_lm.py", settings)
    assert [(f.line, f.column, f.api) for f in after.findings] == [(f.line, f.column, f.api) for f in full.findings]
