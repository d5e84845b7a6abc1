"""`fix` re-analyses only what a pass edited, and gives byte for byte what a full re-analysis gives.

The passes after the first get their findings from `EditedTextAnalyser.after`: the incremental analysis of
each run of edited lines. Pinned here: the same fixed text, change list and skipped fixes as the full path on
the example programs (both targets, safe and unsafe) and on a fix that needs a second pass; and, with counts
rather than times, that a 100,000-line file with two fixes is walked once in full and never parsed whole by the
fixes (its outline is read in pieces; only the edited statements are checked).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ascend_migrate.analysis import engine
from ascend_migrate.analysis.after_edits import EditedTextAnalyser, edited_runs
from ascend_migrate.analysis.engine import analyze_file
from ascend_migrate.analysis.findings import TextEdit
from ascend_migrate.analysis.line_edits import LineEdit
from ascend_migrate.config import Settings
from ascend_migrate.fixes import fix_until_stable
from ascend_migrate.fixes.outline import PIECE_CHARACTERS
from ascend_migrate.fixes.work import counting
from ascend_migrate.kb.index import KnowledgeBase

EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("*.py"))
CHAINED = KnowledgeBase.from_directory(Path(__file__).parents[1] / "lsp" / "chained_mappings")
PROGRAM = 'import torch\n\ndef main():\n    torch.cuda.synchronize()\n\nif __name__ == "__main__":\n    main()\n'


def both_ways(source: str, path: str, settings: Settings, unsafe: bool = False, knowledge_base=None):
    full = fix_until_stable(source, lambda text: analyze_file(text, path, settings, knowledge_base).findings, unsafe)
    analyser = EditedTextAnalyser(path, settings, knowledge_base)
    following = fix_until_stable(source, analyser, unsafe, analyse_edited=analyser.after)
    return full, following


def assert_same(full, following) -> None:
    assert following.text == full.text
    assert following.applied == full.applied
    assert following.changes == full.changes
    assert following.skipped == full.skipped
    assert following.edits() == full.edits()


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.name)
@pytest.mark.parametrize("target", ["npu", "mindspore"])
@pytest.mark.parametrize("unsafe", [False, True])
def test_fixing_an_example_gives_what_a_full_re_analysis_gives(example, target, unsafe):
    full, following = both_ways(example.read_text(encoding="utf-8"), example.name, Settings(target=target), unsafe)
    assert_same(full, following)


def test_the_examples_are_fixed_at_all():
    """The comparison above means something: on the mindspore route every example gets fixes (with --unsafe)."""
    for example in EXAMPLES:
        full, _ = both_ways(example.read_text(encoding="utf-8"), example.name, Settings(target="mindspore"), unsafe=True)
        assert full.applied > 0 and full.text != full.source, example.name


def test_a_second_pass_and_a_new_torch_npu_import_give_what_a_full_re_analysis_gives():
    source = 'import torch\n\ndevice = torch.device("cuda")\ntorch.cuda.synchronize()\n'
    full, following = both_ways(source, "step.py", Settings(target="npu"), knowledge_base=CHAINED)
    assert full.changing_passes == 2
    assert_same(full, following)
    full, following = both_ways(PROGRAM, "train.py", Settings(target="npu"))
    assert "import torch_npu" in full.text
    assert_same(full, following)


def test_the_findings_after_edits_are_those_of_a_full_analysis_and_other_edits_are_refused():
    settings = Settings(target="npu")
    analyser = EditedTextAnalyser("train.py", settings)
    analyser(PROGRAM)
    fixed = PROGRAM.replace("import torch\n", "import torch\nimport torch_npu\n").replace(".cuda.", ".npu.")
    edits = [TextEdit(2, 1, 2, 1, "import torch_npu\n"), TextEdit(4, 11, 4, 15, "npu")]
    assert analyser.after(PROGRAM, fixed, edits) == analyze_file(fixed, "train.py", settings).findings
    # Edits that do not make the new text: the analyser notices and analyses the whole text.
    other = fixed.replace("main()\n", "main(1)\n")
    analyser(PROGRAM)
    assert analyser.after(PROGRAM, other, edits) == analyze_file(other, "train.py", settings).findings


def test_edits_are_grouped_into_runs_of_lines():
    edits = [TextEdit(5, 1, 5, 1, "a\nb\n"), TextEdit(2, 3, 3, 1, ""), TextEdit(3, 1, 3, 4, "x"), TextEdit(9, 1, 9, 2, "y\r\n")]
    assert edited_runs(edits) == [LineEdit(2, 3, 2), LineEdit(5, 5, 7), LineEdit(9, 9, 10)]


def test_a_large_file_with_two_fixes_is_walked_and_parsed_whole_a_constant_number_of_times(monkeypatch):
    lines = 100_000
    source = "import torch\ntorch.cuda.synchronize()\n" + "x = 1\n" * lines + "torch.cuda.synchronize()\n"
    walked = []
    original_walk = engine.ChunkRunner.walk

    def counted_walk(self, chunks, scope_for=None):
        chunks = list(chunks)
        walked.append(len(chunks))
        return original_walk(self, chunks, scope_for)

    monkeypatch.setattr(engine.ChunkRunner, "walk", counted_walk)
    analyser = EditedTextAnalyser("big.py", Settings(target="npu"))
    with counting() as work:
        fixed = fix_until_stable(source, analyser, analyse_edited=analyser.after)
    assert fixed.applied == 2 and fixed.changing_passes == 1
    assert fixed.text.count("torch.npu.synchronize()") == 2 and "import torch_npu\n" in fixed.text
    assert work.module_parses == 0  # no tree of the whole file: its outline is read piece by piece
    assert work.piece_parses <= len(source) // PIECE_CHARACTERS + 2  # each piece once; the second pass parses nothing
    assert work.region_parses <= 4  # the edited statements (and the added import's line), checked alone
    assert work.region_parse_characters < 200  # the edited statements only, not the file
    assert walked[0] == lines + 3  # the first analysis walks every statement
    assert sum(walked[1:]) <= 8  # the second, only the edited statements and those that import torch


def test_the_parse_check_compiles_and_asks_the_parser_when_compiling_refuses():
    from ascend_migrate.fixes.syntax import check

    check("x = 1\n")
    check("return 1\nawait f()\n")  # compiling refuses these; the parser accepts them, as `parse` does
    for broken in ("x = (\n", "a\x00b\n", "(" * 5000 + ")" * 5000 + "\n"):
        with pytest.raises(SyntaxError):
            check(broken)
