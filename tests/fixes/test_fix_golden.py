"""Golden tests: realistic scripts scanned by the real engine, fixed, and scanned again.

With the fixes room's own small knowledge base (tests/fixes/mappings) the fixed text is pinned exactly in
golden/expected/; with the product's knowledge base (mappings/) the properties are checked: the fixed file
compiles, a second scan leaves no finding with a safe fix that still changes something, and fixing again
changes nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ascend_migrate.analysis.engine import analyze_file
from ascend_migrate.analysis.suppression import suppressed_lines
from ascend_migrate.config import Settings
from ascend_migrate.fixes import edits_for, fix_all, fix_until_stable
from ascend_migrate.fixes.until_stable import MAX_PASSES
from ascend_migrate.fixes.text import NEWLINE
from ascend_migrate.kb.index import KnowledgeBase

HERE = Path(__file__).parent
GOLDEN = HERE / "golden"
SCRIPTS = [("ddp_train_cuda.py", "npu"), ("model_resnet.py", "mindspore"), ("apex_single_node.py", "npu")]


@pytest.fixture(scope="module")
def fixes_knowledge_base() -> KnowledgeBase:
    return KnowledgeBase.from_directory(HERE / "mappings")


def fixed_until_stable(source: str, path: str, settings: Settings, knowledge_base: KnowledgeBase | None, unsafe: bool) -> str:
    """What `ascend-migrate fix` does to one file: fix, analyse again, until nothing changes."""
    fixed = fix_until_stable(source, lambda text: analyze_file(text, path, settings, knowledge_base).findings, unsafe)
    assert fixed.changing_passes < MAX_PASSES, f"{path}: still changing after {MAX_PASSES} passes"
    return fixed.text


@pytest.mark.parametrize(("name", "target"), SCRIPTS)
@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
def test_fixed_script_matches_the_golden_file(fixes_knowledge_base, name, target, unsafe):
    source = (GOLDEN / name).read_text()
    fixed = fixed_until_stable(source, name, Settings(target=target), fixes_knowledge_base, unsafe)
    expected = GOLDEN / "expected" / f"{Path(name).stem}.{target}{'-unsafe' if unsafe else ''}.py"
    assert fixed == expected.read_text()


@pytest.mark.parametrize(("name", "target"), SCRIPTS)
def test_suppressed_lines_survive_byte_for_byte(fixes_knowledge_base, name, target):
    source = (GOLDEN / name).read_text()
    fixed = fixed_until_stable(source, name, Settings(target=target), fixes_knowledge_base, unsafe=True)
    suppressed = [NEWLINE.split(source)[line - 1] for line in sorted(suppressed_lines(source))]
    assert all(line in NEWLINE.split(fixed) for line in suppressed)


@pytest.mark.parametrize(("name", "target"), [*SCRIPTS, ("ddp_train_cuda.py", "mindspore"), ("apex_single_node.py", "mindspore")])
@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
def test_with_the_product_knowledge_base_only_findings_without_a_safe_fix_remain(name, target, unsafe):
    source = (GOLDEN / name).read_text()
    settings = Settings(target=target)
    fixed = fixed_until_stable(source, name, settings, None, unsafe)
    compile(fixed, name, "exec")
    remaining = analyze_file(fixed, name, settings).findings
    still_fixable = [
        (finding.line, finding.code, finding.api)
        for finding in remaining
        if finding.fix is not None and finding.fix.safe and _changes_something(finding, fixed)
    ]
    assert still_fixable == []
    assert fix_all(fixed, remaining, unsafe=unsafe).text == fixed


def _changes_something(finding, text: str) -> bool:
    """A safe fix left over is fine only when it cannot apply: its line is suppressed or it has no edits."""
    if any(line in suppressed_lines(text) for line in range(finding.line, finding.end_line + 1)):
        return False
    return bool(edits_for(finding.fix, text))


@pytest.mark.parametrize(("name", "target"), [*SCRIPTS, ("ddp_train_cuda.py", "mindspore"), ("apex_single_node.py", "mindspore")])
def test_every_quick_fix_alone_gives_code_that_parses(name, target):
    """The editor's path: one finding's fix applied on its own, as a code action does."""
    from ascend_migrate.fixes import apply_edits
    from ascend_migrate.fixes.syntax import parse

    source = (GOLDEN / name).read_text()
    fixable = [finding for finding in analyze_file(source, name, Settings(target=target)).findings if finding.fix is not None]
    assert fixable
    for finding in fixable:
        fixed = apply_edits(source, edits_for(finding.fix, source))
        parse(fixed)
