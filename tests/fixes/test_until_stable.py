"""The fix-until-stable loop shared by `ascend-migrate fix` and the editor's fix-all."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ascend_migrate.analysis.engine import analyze_file
from ascend_migrate.config import Settings
from ascend_migrate.fixes import apply_edits, fix_all, fix_until_stable
from ascend_migrate.fixes.until_stable import line_edits
from ascend_migrate.kb.index import KnowledgeBase

# A knowledge base whose torch.cuda.synchronize fix gives torch.npu.synchronize, which it fixes again.
CHAINED = KnowledgeBase.from_directory(Path(__file__).parents[1] / "lsp" / "chained_mappings")
SOURCE = 'import torch\n\ndevice = torch.device("cuda")\ntorch.cuda.synchronize()\n'


def analyse(text: str) -> list:
    analysed.append(text)
    return analyze_file(text, "step.py", Settings(target="npu"), CHAINED).findings


analysed: list[str] = []


def test_fixing_runs_until_a_pass_changes_nothing_and_lists_every_change():
    analysed.clear()
    fixed = fix_until_stable(SOURCE, analyse)
    assert fixed.text == 'import torch\nimport torch_npu\n\ndevice = torch.device("npu")\ntorch_npu.npu.synchronize()\n'
    assert (fixed.changing_passes, len(analysed), fixed.applied) == (2, 3, 3)  # the third analysis finds nothing to fix
    assert [(change.line, change.after) for change in fixed.changes] == [
        (2, "import torch_npu"), (3, 'device = torch.device("npu")'), (4, "torch.npu.synchronize()"),
        (5, "torch_npu.npu.synchronize()")]
    assert apply_edits(SOURCE, fixed.edits()) == fixed.text


def test_the_findings_of_the_source_spare_the_first_analysis_and_one_pass_keeps_its_minimal_edits():
    findings = analyse(SOURCE)
    one_pass = fix_all(SOURCE, findings)
    analysed.clear()
    fixed = fix_until_stable(SOURCE, analyse, findings=findings)
    assert analysed[0] == one_pass.text  # not SOURCE: its findings were given
    assert fixed.text == fix_until_stable(SOURCE, analyse).text
    settled = fix_until_stable(one_pass.text, analyse)
    assert settled.changing_passes == 1 and settled.edits() == list(fix_all(one_pass.text, analyse(one_pass.text)).edits)


LINES = st.lists(st.sampled_from(["a\n", "b\r\n", "c\r", "x = 1\n", "\n", "é 🚀\n"]), max_size=8)


@settings(max_examples=200, deadline=None)
@given(LINES, LINES, st.sampled_from(["", "end"]), st.sampled_from(["", "end"]))
def test_line_edits_turn_the_old_text_into_the_new(old_lines, new_lines, old_tail, new_tail):
    old, new = "".join(old_lines) + old_tail, "".join(new_lines) + new_tail
    assert apply_edits(old, line_edits(old, new)) == new
