"""Property-based: the engine and the fixes on generated programs and on mutated training scripts.

For any text: analysis never raises and every position it reports lies inside the text. For any text that
parses: every single quick fix leaves code that parses (or is refused with FixError), fixing all converges
within the fix command's four passes to a text that parses and that a further fix changes nothing in.
Incremental analysis after a run of random line edits equals a full analysis of the final text.

RELIABILITY_EXAMPLES sets the example count per test (default 15; the CI fuzz stage raises it).
"""

from __future__ import annotations

import ast
import os

import hypothesmith
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ascend_migrate.analysis.engine import analyze_file, analyze_module
from ascend_migrate.analysis.incremental import LineEdit, analyze_document
from ascend_migrate.files import split_lines
from ascend_migrate.config import Settings
from ascend_migrate.analysis.after_edits import EditedTextAnalyser
from ascend_migrate.fixes import FixError, apply_edits, edits_for, fix_all, fix_until_stable
from ascend_migrate.fixes.until_stable import MAX_PASSES

from reliability_mutations import JUNK, SCRIPTS, mutated_scripts

EXAMPLES = int(os.environ.get("RELIABILITY_EXAMPLES", "15"))
PROPERTY_SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
TARGETS = [Settings(target="npu"), Settings(target="mindspore")]


def parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def check_analysis(source: str, settings_for_target: Settings):
    result = analyze_file(source, "mutated.py", settings_for_target)
    lines = split_lines(source)
    for finding in result.findings:
        assert 1 <= finding.line <= finding.end_line <= len(lines), finding
        assert 1 <= finding.column <= len(lines[finding.line - 1]) + 1, finding
        assert 1 <= finding.end_column <= len(lines[finding.end_line - 1]) + 1, finding
        assert (finding.line, finding.column) <= (finding.end_line, finding.end_column), finding
    for error in result.errors:
        assert error.line is None or 1 <= error.line <= len(lines), error
    return result


def check_fixes(source: str, settings_for_target: Settings) -> None:
    """Every quick fix alone parses; fix-all converges to parsing code that a further pass leaves alone."""
    findings = analyze_file(source, "mutated.py", settings_for_target).findings
    for finding in findings:
        if finding.fix is None:
            continue
        try:
            fixed = apply_edits(source, edits_for(finding.fix, source))
        except FixError:
            continue  # refused with a reason: the editor shows no action
        assert parses(fixed), f"the quick fix for {finding.code} at {finding.line}:{finding.column} breaks the code:\n{fixed}"
    fixed = fix_until_stable(source, lambda text: analyze_file(text, "mutated.py", settings_for_target).findings, unsafe=True)
    assert parses(fixed.text), fixed.text
    analyser = EditedTextAnalyser("mutated.py", settings_for_target)  # what `fix` does: re-analyse the edited lines
    following = fix_until_stable(source, analyser, unsafe=True, analyse_edited=analyser.after)
    assert (following.text, following.changes, following.skipped) == (fixed.text, fixed.changes, fixed.skipped)
    assert apply_edits(source, fixed.edits()) == fixed.text  # what the editor's fix-all sends
    if fixed.changing_passes == MAX_PASSES:
        final = fix_all(fixed.text, analyze_file(fixed.text, "mutated.py", settings_for_target).findings, unsafe=True)
        assert not final.changed, f"still changing after {MAX_PASSES} passes"


@PROPERTY_SETTINGS
@given(source=mutated_scripts(), which=st.sampled_from(TARGETS))
def test_analysis_of_mutated_training_scripts_never_raises(source, which):
    check_analysis(source, which)


@PROPERTY_SETTINGS
@given(source=hypothesmith.from_grammar(), which=st.sampled_from(TARGETS))
def test_analysis_of_grammar_generated_programs_never_raises(source, which):
    check_analysis(source, which)


@settings(PROPERTY_SETTINGS, max_examples=max(3, EXAMPLES // 5))  # from_node is slow to generate
@given(source=hypothesmith.from_node(), which=st.sampled_from(TARGETS))
def test_analysis_of_syntax_tree_generated_programs_never_raises(source, which):
    check_analysis(source, which)


@PROPERTY_SETTINGS
@given(source=mutated_scripts(), which=st.sampled_from(TARGETS))
def test_fixes_of_mutated_training_scripts_parse_and_converge(source, which):
    if not parses(source):
        return  # the fix command never touches a file that does not parse
    check_fixes(source, which)


@pytest.mark.parametrize("name", sorted(SCRIPTS))
@pytest.mark.parametrize("which", TARGETS, ids=["npu", "mindspore"])
def test_fixes_of_each_training_script_parse_and_converge(name, which):
    check_fixes(SCRIPTS[name], which)


def as_tuples(findings) -> list[tuple]:
    return [(f.line, f.column, f.end_line, f.end_column, f.code, f.api, f.message, f.fix) for f in findings]


def parsed_findings(analysis) -> list:
    """The findings of the statements that parse: what a full analysis of the same text finds. (A statement
    that does not parse keeps its earlier findings in an incremental analysis: tests/analysis/test_incremental.py.)"""
    found = [finding for chunk in analysis.chunks if not chunk.error for finding in chunk.findings]
    # with the module's own findings (unused imports, decided from every chunk: none while a statement does not parse)
    return sorted(found + analysis.unused_imports, key=lambda finding: (finding.line, finding.column, finding.code))


@st.composite
def edit_runs(draw):
    """A training script and 1..6 edits, each replacing lines start..end with 0..3 lines (as an editor sends)."""
    text = SCRIPTS[draw(st.sampled_from(sorted(SCRIPTS)))]
    pool = JUNK + [line for script in SCRIPTS.values() for line in script.split("\n")]
    edits = []
    line_count = len(text.split("\n"))
    for _ in range(draw(st.integers(1, 6))):
        start = draw(st.integers(1, line_count))
        end = draw(st.integers(start, min(line_count, start + 3)))
        replacement = draw(st.lists(st.sampled_from(pool), min_size=0, max_size=3))
        edits.append((start, end, replacement))
        line_count += len(replacement) - (end - start + 1)
        if line_count < 1:
            break
    return text, edits


def editor_lines(pieces: list[str], start: int, end: int) -> tuple[int, int]:
    """The lines an editor counts (`\\r\\n`, `\\r` and `\\n` each end one) that pieces start..end of
    `"\\n".join(pieces)` cover: a piece from the pool may hold a line end of its own (`x = (1,\\r\\n 2)`)."""
    def line_of_piece(index: int) -> int:  # the editor's line on which piece `index` (0-based) begins
        return len(split_lines("\n".join(pieces[:index]) + "\n")) if index else 1
    last = line_of_piece(end) - 1 if end < len(pieces) else len(split_lines("\n".join(pieces)))
    return line_of_piece(start - 1), last


@PROPERTY_SETTINGS
@given(run=edit_runs(), which=st.sampled_from(TARGETS))
def test_incremental_analysis_after_random_edits_equals_a_full_analysis(run, which):
    text, edits = run
    analysis = analyze_module(text, "edited.py", which)
    lines = text.split("\n")
    for start, end, replacement in edits:
        if not lines:
            break
        end = min(end, len(lines))
        old_first, old_last = editor_lines(lines, start, end)
        old_count = len(split_lines("\n".join(lines)))
        lines = lines[: start - 1] + replacement + lines[end:]
        new_text = "\n".join(lines)
        new_count = len(split_lines(new_text))
        new_last = old_last + new_count - old_count
        if replacement:
            edit = LineEdit(old_first, old_last, new_last)
        elif old_first <= new_count:
            edit = LineEdit(old_first, old_last + 1, old_first)  # the editor's range runs to the start of the line after them
        else:
            edit = LineEdit(old_first - 1, old_last, old_first - 1)  # the last lines went: from the end of the line before
        analysis = analyze_document(new_text, "edited.py", which, analysis, edit)
        full = analyze_module(new_text, "edited.py", which)
        assert as_tuples(parsed_findings(analysis)) == as_tuples(full.findings), (start, end, replacement)
        kept = [finding for chunk in analysis.chunks if chunk.error for finding in chunk.findings
                if not chunk.start <= finding.line <= finding.end_line <= chunk.end]
        assert kept == [], "a kept finding lies outside the statement that keeps it"
        # Lines only: the summary of a syntax error may name another of the file's errors first.
        assert [e.line for e in analysis.errors] == [e.line for e in full.errors]
